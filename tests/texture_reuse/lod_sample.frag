#version 450
// One texture sample at an explicit LOD (textureLod): ACO emits image_sample_lz or
// image_sample_l, whose default filter is bilinear (crates/cli/tests/texture_reuse.rs).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) in float lod;
layout(location = 0) out vec4 color;
void main() {
    color = textureLod(tex, uv, lod);
}
