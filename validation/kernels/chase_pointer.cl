// Pointer chase after gpu-benches' gpu-latency (te42kyfo/gpu-benches, gpu-latency/main.cu,
// kernel `pchase`, run through HIP on AMD GPUs): each work-item follows a chain of 64-bit
// pointers, `idx = (int64_t *)*idx`, so a step is one dependent load and no address arithmetic
// (the host stores in each 64-byte element the address of the next one, in a shuffled cyclic
// order). As in the published kernel, the loaded value becomes a generic pointer (OpenCL 2.0's
// unnamed address space, HIP's plain pointer), so the compiler cannot prove it global, and the
// load is a vector flat_load, not a scalar load. The published kernel unrolls its inner loop 32
// times; here the loop is kept rolled (`#pragma unroll 1`): the simulator gives each unrolled
// load its own address walk, and 32 walks in lockstep would hit one line 32 times. The loop
// counter's scalar ops do not depend on the loaded pointer, so a step stays one load-to-use.
__kernel void chase_pointer(__global long* buf, __global long* dummy_buf, long n) {
    long* idx = (long*)buf;
#pragma unroll 1
    for (long i = 0; i < n; i++) {
        idx = (long*)*idx;
    }
    if (get_global_id(0) > 12313) {
        dummy_buf[0] = (long)idx;
    }
}
