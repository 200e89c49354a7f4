#version 450
// One texture sample per pixel, as glmark2's texture scene does: the test of the
// screen-space default footprint (crates/cli/tests/texture_reuse.rs).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = texture(tex, uv);
}
