#version 450
// A 2D-indexed compute kernel: each thread of a 16x16 workgroup scales its texel in place
// (one imageLoad, one imageStore): the test of the 2D default of compute image ops
// (crates/cli/tests/texture_reuse.rs).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(img, p, imageLoad(img, p) * 2.0);
}
