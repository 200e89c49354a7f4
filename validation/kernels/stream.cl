// Streaming read after clpeak's global memory bandwidth test (float4 per
// work-item): every wave reads its own 1 KB (wave64) per iteration and the
// whole dispatch strides through a buffer far larger than the caches.
__kernel void stream_read(__global const float4 *A, int count, __global float4 *ret) {
    float4 sum = 0;
    for (int i = 0; i < count; i++)
        sum += A[i * 4096 + __builtin_amdgcn_workitem_id_x()];
    ret[__builtin_amdgcn_workitem_id_x()] = sum;
}
