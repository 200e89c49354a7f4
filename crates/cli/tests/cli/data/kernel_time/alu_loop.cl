// A loop of arithmetic alone, bounded by a kernel argument: every trip issues the same
// instructions with nothing to wait on from memory, so every trip past the first costs the
// same clocks (the steady state a sampled loop's kernel time assumes).
__kernel void alu_loop(__global float *out, int K) {
    int i = get_global_id(0);
    float acc = (float)i;
    for (int k = 0; k < K; k++)
        acc = acc * 0.999f + (float)k;
    out[i] = acc;
}
