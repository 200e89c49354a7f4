#version 450
// Textured lighting: normal map + albedo + specular/roughness textures,
// several point lights accumulated in a loop (count from a uniform).

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_tangent;
layout(location = 3) in vec3 in_bitangent;
layout(location = 4) in vec2 in_uv;

layout(set = 0, binding = 0, std140) uniform Camera {
    mat4 view_proj;
    mat4 model;
    mat4 normal_matrix;
    vec4 eye_position;
} cam;

struct Light {
    vec4 position_radius;   // xyz position, w radius
    vec4 color_intensity;   // rgb color, a intensity
};
layout(set = 0, binding = 1, std140) uniform Lights {
    int count;
    vec3 ambient;
    Light light[16];
} lights;

layout(set = 0, binding = 2) uniform sampler2D albedo_tex;
layout(set = 0, binding = 3) uniform sampler2D normal_tex;
layout(set = 0, binding = 4) uniform sampler2D specular_tex;   // r = specular, g = roughness

layout(location = 0) out vec4 out_color;

void main()
{
    vec4 albedo = texture(albedo_tex, in_uv);
    vec3 tn = texture(normal_tex, in_uv).xyz * 2.0 - 1.0;
    vec2 spec_rough = texture(specular_tex, in_uv).rg;

    mat3 tbn = mat3(normalize(in_tangent), normalize(in_bitangent), normalize(in_normal));
    vec3 n = normalize(tbn * tn);
    vec3 v = normalize(cam.eye_position.xyz - in_world_pos);
    float shininess = mix(256.0, 4.0, spec_rough.g);

    vec3 diffuse = vec3(0.0);
    vec3 specular = vec3(0.0);
    for (int i = 0; i < lights.count; ++i) {
        vec3 to_light = lights.light[i].position_radius.xyz - in_world_pos;
        float dist = length(to_light);
        vec3 l = to_light / dist;
        float atten = clamp(1.0 - dist / lights.light[i].position_radius.w, 0.0, 1.0);
        atten *= atten;
        vec3 radiance = lights.light[i].color_intensity.rgb * lights.light[i].color_intensity.a * atten;
        float ndl = max(dot(n, l), 0.0);
        vec3 h = normalize(l + v);
        float ndh = max(dot(n, h), 0.0);
        diffuse += radiance * ndl;
        specular += radiance * pow(ndh, shininess) * spec_rough.r;
    }
    vec3 color = albedo.rgb * (lights.ambient + diffuse) + specular;
    out_color = vec4(color, albedo.a);
}
