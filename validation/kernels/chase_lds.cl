// LDS pointer chase after local_unrolled_latency_test.cl (clamchowder/Microbenchmarks,
// GpuMemLatency/kernels/): a 4 KB table in local memory, one lane follows it.
#define N 1024
__kernel void chase_lds(__global const uint* A, int count, __global uint* ret) {
    __local uint local_a[N];
    for (int i = __builtin_amdgcn_workitem_id_x(); i < N; i += 64)
        local_a[i] = A[i];
    __builtin_amdgcn_s_barrier();
    if (__builtin_amdgcn_workitem_id_x() == 0) {
        uint current = local_a[0];
        uint result = 0;
        for (int i = 0; i < count; i++) {
            result += current;
            current = local_a[current];
        }
        ret[0] = result + current;
    }
}
