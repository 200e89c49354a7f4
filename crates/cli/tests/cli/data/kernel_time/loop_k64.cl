// The loop of loop_k.cl counted in 64 bits, as AMD's HPC training kernels write it
// (`ulong` sizes): clang keeps the counter in a register pair and tests it with
// `s_cmp_eq_u64`; the row loop over work-items is a vector loop tested with `v_cmp_*_u64`.
__kernel void column_sum64(__global const float *in, __global float *out, ulong n, ulong K,
                           ulong cols) {
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        float acc = 0.0f;
        for (ulong k = 0; k < K; k++)
            acc += in[i + k * cols];
        out[i] = acc;
    }
}
