#version 450
// A 2D-indexed compute kernel: one imageLoad per thread of a 16x16 workgroup, the result
// scaled into a buffer: the test of the 2D default of compute image ops
// (crates/cli/tests/texture_reuse.rs).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1) buffer Out { vec4 px[]; };
layout(push_constant) uniform P { uint width; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    px[p.y * int(width) + p.x] = imageLoad(src, p) * 2.0;
}
