#version 450
// A vertex shader in the manner of glmark2's light-basic: transforms the
// position and hands three varyings to the fragment stage: the eye-space
// normal (vec3), the texture coordinate (vec2) and the eye-space position
// (vec4).
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 texcoord;
layout(set = 0, binding = 0) uniform Transforms {
    mat4 model_view_projection;
    mat4 model_view;
    mat4 normal_matrix;
};
layout(location = 0) out vec3 eye_normal;
layout(location = 1) out vec2 uv;
layout(location = 2) out vec4 eye_position;
void main()
{
    eye_normal = normalize(vec3(normal_matrix * vec4(normal, 0.0)));
    uv = texcoord;
    eye_position = model_view * vec4(position, 1.0);
    gl_Position = model_view_projection * vec4(position, 1.0);
}
