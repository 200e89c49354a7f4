// A grid-stride loop (HIP's and CUDA's usual shape): each work-item steps by the whole grid's
// work-items until it passes n, so the loop's count comes from the launch and an argument.
__kernel void scale(__global const float *in, __global float *out, int n) {
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = 2.0f * in[i];
}
