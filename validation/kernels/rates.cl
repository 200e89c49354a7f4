// Instruction-rate loops after Chips and Cheese's instruction_rate_kernel.cl
// (clamchowder/Microbenchmarks, GpuMemLatency/): eight independent float4 (or
// half2 x4, double, uint4) accumulators, so every lane has 32 independent
// operations per iteration and the loop measures throughput, not latency.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define BODY(op) op(v0); op(v1); op(v2); op(v3); op(v4); op(v5); op(v6); op(v7);
#define ID __builtin_amdgcn_workitem_id_x()

__kernel void fp32_fma(__global float4 *A, int count, __global float4 *ret) {
    float4 v0 = A[ID], v1 = A[ID + 1], v2 = A[ID + 2], v3 = A[ID + 3];
    float4 v4 = A[ID + 4], v5 = A[ID + 5], v6 = A[ID + 6], v7 = A[ID + 7];
    float4 acc = A[0];
#define F(v) v = fma(acc, v, v)
    for (int i = 0; i < count; i++) { BODY(F) }
#undef F
    ret[ID] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

__kernel void fp16_fma(__global half8 *A, int count, __global half8 *ret) {
    half8 v0 = A[ID], v1 = A[ID + 1], v2 = A[ID + 2], v3 = A[ID + 3];
    half8 v4 = A[ID + 4], v5 = A[ID + 5], v6 = A[ID + 6], v7 = A[ID + 7];
    half8 acc = A[0];
#define F(v) v = fma(acc, v, v)
    for (int i = 0; i < count; i++) { BODY(F) }
#undef F
    ret[ID] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

__kernel void fp64_fma(__global double2 *A, int count, __global double2 *ret) {
    double2 v0 = A[ID], v1 = A[ID + 1], v2 = A[ID + 2], v3 = A[ID + 3];
    double2 v4 = A[ID + 4], v5 = A[ID + 5], v6 = A[ID + 6], v7 = A[ID + 7];
    double2 acc = A[0];
#define F(v) v = fma(acc, v, v)
    for (int i = 0; i < count; i++) { BODY(F) }
#undef F
    ret[ID] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

// clpeak's "Integer compute" and vkpeak's int32: a multiply and an add per
// operation pair (v = v * acc + b).
__kernel void int32_mad(__global uint4 *A, int count, __global uint4 *ret) {
    uint4 v0 = A[ID], v1 = A[ID + 1], v2 = A[ID + 2], v3 = A[ID + 3];
    uint4 v4 = A[ID + 4], v5 = A[ID + 5], v6 = A[ID + 6], v7 = A[ID + 7];
    uint4 acc = A[0], b = A[1];
#define F(v) v = v * acc + b
    for (int i = 0; i < count; i++) { BODY(F) }
#undef F
    ret[ID] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

__kernel void int32_add(__global uint4 *A, int count, __global uint4 *ret) {
    uint4 v0 = A[ID], v1 = A[ID + 1], v2 = A[ID + 2], v3 = A[ID + 3];
    uint4 v4 = A[ID + 4], v5 = A[ID + 5], v6 = A[ID + 6], v7 = A[ID + 7];
    uint4 acc = A[0];
#define F(v) v = v + acc
    for (int i = 0; i < count; i++) { BODY(F) }
#undef F
    ret[ID] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

__kernel void fp32_rcp(__global float4 *A, int count, __global float4 *ret) {
    float4 v0 = A[ID], v1 = A[ID + 1], v2 = A[ID + 2], v3 = A[ID + 3];
    float4 v4 = A[ID + 4], v5 = A[ID + 5], v6 = A[ID + 6], v7 = A[ID + 7];
#define F(v) v = (float4)(__builtin_amdgcn_rcpf(v.x), __builtin_amdgcn_rcpf(v.y), __builtin_amdgcn_rcpf(v.z), __builtin_amdgcn_rcpf(v.w))
    for (int i = 0; i < count; i++) { BODY(F) }
#undef F
    ret[ID] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

// A dependent FMA chain after fp32_fma_latency_test (instruction_rate_kernel.cl):
// each FMA needs the previous one's result, so one wave measures the latency.
__kernel void fp32_fma_latency(__global float *A, int count, __global float *ret) {
    float v = A[ID], acc = A[0];
    for (int i = 0; i < count; i++) {
        v = fma(acc, v, v); v = fma(acc, v, v); v = fma(acc, v, v); v = fma(acc, v, v);
        v = fma(acc, v, v); v = fma(acc, v, v); v = fma(acc, v, v); v = fma(acc, v, v);
    }
    ret[ID] = v;
}
