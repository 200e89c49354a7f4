// Pointer chase after scalar_unrolled_latency_test.cl (clamchowder/Microbenchmarks,
// GpuMemLatency/kernels/): the index is uniform across the wave (A[0]), so the
// compiler loads through the scalar path (s_load_dword).
__kernel void chase_scalar(__global const uint* A, int count, __global uint* ret) {
    uint current = A[0];
    uint result = 0;
    for (int i = 0; i < count; i++) {
        result += current;
        current = A[current];
    }
    ret[0] = result + current;
}
