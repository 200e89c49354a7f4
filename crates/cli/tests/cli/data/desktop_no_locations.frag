#version 450
// Desktop GLSL as OpenGL programs write it: no layout(location = N) on the
// inputs and output, no binding on the sampler, a loose uniform.
uniform sampler2D albedo;
uniform vec3 light_dir;
in vec2 uv;
in vec3 normal;
out vec4 color;

void main()
{
    float d = max(dot(normalize(normal), normalize(light_dir)), 0.0);
    color = texture(albedo, uv) * d;
}
