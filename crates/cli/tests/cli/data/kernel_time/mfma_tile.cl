// A matrix tile every workgroup reads alike: the A and B panels are indexed by the local id
// only (as a GEMM's shared operand tile is), so the waves of the whole grid read the same
// 2 x 32 KB and the matrix cores, not memory, bound the kernel. f16 inputs: their MFMAs run
// beside VALU work (AMD's matrix instruction calculator: co-execution on CDNA 2 and 3).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void mfma_tile(__global const half4 *A, __global const half4 *B, __global float *C) {
    int lane = get_local_id(0);
    float16 acc = (float16)(0.0f);
    for (int k = 0; k < 64; k++) {
        half4 a = A[k * 64 + lane];
        half4 b = B[k * 64 + lane];
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(b, a, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, a, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(b, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(b, a, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, a, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(b, b, acc, 0, 0, 0);
    }
    vstore16(acc, get_global_id(0), C);
}
