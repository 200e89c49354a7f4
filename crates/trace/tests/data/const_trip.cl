// Loops whose trip counts are compile-time constants (issue 17 item 3):
// the first runs 16 times, the second counts down from 40 by 4 (10 times).
// `#pragma unroll 1` keeps the compiler from unrolling them away.
// Compiled by crates/trace/tests/data/README.md's command.
#include "ocl_shim.h"

kernel void const_trip(global const float *restrict in, global float *restrict out)
{
    size_t gid = get_global_id(0);
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < 16; ++i) {
        acc += in[(uint)gid * 16u + (uint)i];
    }
#pragma unroll 1
    for (int j = 40; j > 0; j -= 4) {
        acc = acc * in[gid + j];
    }
    out[gid] = acc;
}
