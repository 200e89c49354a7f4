// Pointer chase after Chips and Cheese's GpuMemLatency (clamchowder/Microbenchmarks,
// GpuMemLatency/kernels/unrolled_latency_test.cl): one work-item follows A[current]
// one dependent load at a time. The index comes from ret[] (unknown to the compiler),
// so the loads stay on the vector path.
__kernel void chase_vector(__global const uint* A, int count, __global uint* ret) {
    uint current = ret[__builtin_amdgcn_workitem_id_x()];
    uint result = 0;
    for (int i = 0; i < count; i++) {
        result += current;
        current = A[current];
    }
    ret[0] = result + current;
}
