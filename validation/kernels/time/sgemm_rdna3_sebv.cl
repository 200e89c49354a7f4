// FP32 SGEMM kernels 1-5 of Sebastien Vince's "Optimizing Matrix Multiplication on
// RDNA3" (github seb-v/fp32_sgemm_amd, MIT licence), ported to OpenCL C.
// Source: https://github.com/seb-v/fp32_sgemm_amd/tree/main/src
//   kernel1_naive.cpp       -> kernel1_naive      block 16x16, grid N/16 x N/16
//   kernel2_lds.cpp         -> kernel2_lds        block 32x32, grid N/32 x N/32 (TILE_SIZE 32)
//   kernel3_registers.cpp   -> kernel3_registers  block 256, grid N/128 x N/128
//   kernel4_gmem_df.cpp     -> kernel_gmem_db with -DBLOCK_SIZE=256 -DWN=64 -DAPAD=0
//   kernel5_lds_optim.cpp   -> kernel_gmem_db with -DBLOCK_SIZE=128 -DWN=128 -DAPAD=4
//                              (published build adds -mcumode for kernel 5), grid N/128 x N/128
// Kernels 6-8 of the article are hand-edited ISA (.s) and are not ported.
// The guard of the register double buffer is `kId < N - 1`, as in the code the README's
// times were measured with (commit 9837c8b, 2025-01-22); commit 519e1b4 (2025-03-30)
// later changed it to `kId < N - BK` (the last iteration then skips one prefetch).
// What changed: HIP -> OpenCL syntax; C++ constexpr become macros / const ints; the
// kernel 4/5 template parameter UNROLL = 1 stays as `#pragma unroll 1` on the k loop.
// Wave size 32 is assumed by the published index arithmetic (threadIdx.x / 32), as on
// gfx1100 in both HIP and OpenCL. Kernels 1 and 2 have no launch bounds: HIP's default
// 1024-wide flat workgroup limit is stated (kernel 2 needs 1024 anyway).

#define HIP_LB_DEFAULT __attribute__((amdgpu_flat_work_group_size(1, 1024)))

__kernel HIP_LB_DEFAULT void kernel1_naive(__global const float *A, __global const float *B,
                                           __global float *C, int M, int K, int N,
                                           float alpha, float beta)
{
    int row = get_group_id(1) * get_local_size(1) + get_local_id(1);
    int col = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (row < M && col < N) {
        float acc_c = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc_c += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = alpha * acc_c + beta * C[row * N + col];
    }
}

#define TILE_SIZE 32
__kernel HIP_LB_DEFAULT void kernel2_lds(__global const float *A, __global const float *B,
                                         __global float *C, int N)
{
    __local float As[TILE_SIZE][TILE_SIZE];
    __local float Bs[TILE_SIZE][TILE_SIZE];
    const int tx = get_local_id(0), ty = get_local_id(1);

    int row = get_group_id(1) * TILE_SIZE + ty;
    int col = get_group_id(0) * TILE_SIZE + tx;

    float sum = 0.0f;
    for (int t = 0; t < N; t += TILE_SIZE) {
        Bs[ty][tx] = B[N * (ty + t) + col];
        As[ty][tx] = A[N * row + t + tx];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE_SIZE; k++) {
            sum += As[ty][k] * Bs[k][tx];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < N && col < N) {
        C[row * N + col] = sum;
    }
}

// Shared tiling constants of kernels 3-5 (block tile 128x128, BK 8, thread tile 4x4,
// a wave is 8x4 threads).
#define BN 128
#define BM 128
#define BK 8
#define TN 4
#define TM 4
#define NB_THREAD_X_PER_WAVE 8
#define NB_THREAD_Y_PER_WAVE 4

#define K3_BLOCK 256
#define K3_WN 64
#define K3_NBWAVES (K3_BLOCK / 32)
#define K3_WM (BN * BM / K3_NBWAVES / K3_WN)
#define K3_ITN (K3_WN / (NB_THREAD_X_PER_WAVE * TN))
#define K3_ITM (K3_WM / (NB_THREAD_Y_PER_WAVE * TM))

__kernel __attribute__((amdgpu_flat_work_group_size(1, 1024)))
void kernel3_registers(__global float *a, __global float *b, __global float *c, int N,
                       float alpha, float beta)
{
    const int tid = get_local_id(0);
    const int nbWaveX = BN / K3_WN;
    const int waveIndex = tid / 32;
    const int waveIdx = waveIndex % nbWaveX;
    const int waveIdy = waveIndex / nbWaveX;
    const int indexInWave = tid % 32;
    const int idxInWave = indexInWave % NB_THREAD_X_PER_WAVE;
    const int idyInWave = indexInWave / NB_THREAD_X_PER_WAVE;
    const int SUBWN = K3_WN / K3_ITN;
    const int SUBWM = K3_WM / K3_ITM;
    int rAIdx = tid % BK;
    int rAIdy = tid / BK;
    int rBIdx = tid % BN;
    int rBIdy = tid / BN;
    const int strideReadB = K3_BLOCK / BN;
    const int strideReadA = K3_BLOCK / BK;
    const int nbReadsB = BN * BK / K3_BLOCK;
    const int nbReadsA = BM * BK / K3_BLOCK;

    float A_col[K3_ITM * TM];
    float B_row[K3_ITN * TN];
    __local float As[BK][BM];
    __local float Bs[BK][BN];
    float c_regs[TM * K3_ITM * TN * K3_ITN] = {0.0f};

    for (int kId = 0; kId < N; kId += BK) {
        for (int i = 0; i < nbReadsB; i++) {
            int index_x = BN * get_group_id(0) + rBIdx;
            int index_y = rBIdy + i * strideReadB + kId;
            Bs[index_y % BK][index_x % BN] = b[N * index_y + index_x];
        }
        for (int i = 0; i < nbReadsA; i++) {
            int index_x = rAIdx + kId;
            int index_y = BM * get_group_id(1) + rAIdy + i * strideReadA;
            As[(index_x % BK)][(index_y % BM)] = a[N * index_y + index_x];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < BK; k += 1) {
            for (int iterWave = 0; iterWave < K3_ITN; iterWave++)
                for (int i = 0; i < TN; i++) {
                    int index = waveIdx * K3_WN + iterWave * SUBWN + TN * idxInWave + i;
                    B_row[iterWave * TN + i] = Bs[k][index];
                }
            for (int iterWave = 0; iterWave < K3_ITM; iterWave++)
                for (int i = 0; i < TM; i++) {
                    int index = waveIdy * K3_WM + iterWave * SUBWM + TM * idyInWave + i;
                    A_col[iterWave * TM + i] = As[k][index];
                }
            for (int iterWaveM = 0; iterWaveM < K3_ITM; iterWaveM++)
                for (int iterWaveN = 0; iterWaveN < K3_ITN; iterWaveN++)
                    for (int yt = 0; yt < TM; yt++)
                        for (int xt = 0; xt < TN; xt++) {
                            const int x = iterWaveN * TN + xt;
                            const int y = iterWaveM * TM + yt;
                            c_regs[y * TN * K3_ITN + x] += A_col[y] * B_row[x];
                        }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int iterWaveM = 0; iterWaveM < K3_ITM; iterWaveM++)
        for (int iterWaveN = 0; iterWaveN < K3_ITN; iterWaveN++) {
            int xOut = get_group_id(0) * BN + waveIdx * K3_WN + iterWaveN * SUBWN + TN * idxInWave;
            int yOut = get_group_id(1) * BM + waveIdy * K3_WM + iterWaveM * SUBWM + TM * idyInWave;
            for (int yt = 0; yt < TM; yt++)
                for (int xt = 0; xt < TN; xt++) {
                    int indexC = N * (yOut + yt) + xOut + xt;
                    c[indexC] = beta * c[indexC] +
                                alpha * c_regs[TN * K3_ITN * (iterWaveM * TM + yt) + (iterWaveN * TN + xt)];
                }
        }
}

// Kernels 4 and 5: global-memory double buffering through registers.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef WN
#define WN 64
#endif
#ifndef APAD
#define APAD 0
#endif
#define DB_NBWAVES (BLOCK_SIZE / 32)
#define DB_WM (BN * BM / DB_NBWAVES / WN)
#define DB_ITN (WN / (NB_THREAD_X_PER_WAVE * TN))
#define DB_ITM (DB_WM / (NB_THREAD_Y_PER_WAVE * TM))
#define DB_NREADS_B (BN * BK / BLOCK_SIZE)
#define DB_NREADS_A (BM * BK / BLOCK_SIZE)

__kernel __attribute__((amdgpu_flat_work_group_size(1, BLOCK_SIZE)))
void kernel_gmem_db(__global float *a, __global float *b, __global float *c, int N,
                    float alpha, float beta)
{
    const int tid = get_local_id(0);
    const int nbWaveX = BN / WN;
    const int waveIndex = tid / 32;
    const int waveIdx = waveIndex % nbWaveX;
    const int waveIdy = waveIndex / nbWaveX;
    const int indexInWave = tid % 32;
    const int idxInWave = indexInWave % NB_THREAD_X_PER_WAVE;
    const int idyInWave = indexInWave / NB_THREAD_X_PER_WAVE;
    const int SUBWN = WN / DB_ITN;
    const int SUBWM = DB_WM / DB_ITM;
    int rAIdx = tid % BK;
    int rAIdy = tid / BK;
    int rBIdx = tid % BN;
    int rBIdy = tid / BN;
    const int strideReadB = BLOCK_SIZE / BN;
    const int strideReadA = BLOCK_SIZE / BK;

    float A_col[DB_ITM * TM];
    float B_row[DB_ITN * TN];
    __local float As[BK][BM + APAD];
    __local float Bs[BK][BN];
    float c_regs[TM * DB_ITM * TN * DB_ITN] = {0.0f};

    for (int i = 0; i < DB_NREADS_B; i++) {
        int index_x = BN * get_group_id(0) + rBIdx;
        int index_y = rBIdy + i * strideReadB;
        Bs[index_y % BK][index_x % BN] = b[N * index_y + index_x];
    }
    for (int i = 0; i < DB_NREADS_A; i++) {
        int index_x = rAIdx;
        int index_y = BM * get_group_id(1) + rAIdy + i * strideReadA;
        As[(index_x % BK)][(index_y % BM)] = a[N * index_y + index_x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int kId = 0; kId < N; kId += BK) {
        float regA[DB_NREADS_A];
        float regB[DB_NREADS_B];
        if (kId < N - 1) {
            for (int i = 0; i < DB_NREADS_B; i++) {
                int index_x = BN * get_group_id(0) + rBIdx;
                int index_y = rBIdy + i * strideReadB + kId + BK;
                regB[i] = b[N * index_y + index_x];
            }
            for (int i = 0; i < DB_NREADS_A; i++) {
                int index_x = rAIdx + kId + BK;
                int index_y = BM * get_group_id(1) + rAIdy + i * strideReadA;
                regA[i] = a[N * index_y + index_x];
            }
        }
#pragma unroll 1
        for (int k = 0; k < BK; k += 1) {
            for (int iterWave = 0; iterWave < DB_ITN; iterWave++)
                for (int i = 0; i < TN; i++) {
                    int index = waveIdx * WN + iterWave * SUBWN + TN * idxInWave + i;
                    B_row[iterWave * TN + i] = Bs[k][index];
                }
            for (int iterWave = 0; iterWave < DB_ITM; iterWave++)
                for (int i = 0; i < TM; i++) {
                    int index = waveIdy * DB_WM + iterWave * SUBWM + TM * idyInWave + i;
                    A_col[iterWave * TM + i] = As[k][index];
                }
            for (int iterWaveM = 0; iterWaveM < DB_ITM; iterWaveM++)
                for (int iterWaveN = 0; iterWaveN < DB_ITN; iterWaveN++)
                    for (int yt = 0; yt < TM; yt++)
                        for (int xt = 0; xt < TN; xt++) {
                            const int x = iterWaveN * TN + xt;
                            const int y = iterWaveM * TM + yt;
                            c_regs[y * TN * DB_ITN + x] += A_col[y] * B_row[x];
                        }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (kId < N - 1) {
            for (int i = 0; i < DB_NREADS_B; i++) {
                int index_x = BN * get_group_id(0) + rBIdx;
                int index_y = rBIdy + i * strideReadB + kId + BK;
                Bs[index_y % BK][index_x % BN] = regB[i];
            }
            for (int i = 0; i < DB_NREADS_A; i++) {
                int index_x = rAIdx + kId + BK;
                int index_y = BM * get_group_id(1) + rAIdy + i * strideReadA;
                As[(index_x % BK)][(index_y % BM)] = regA[i];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    for (int iterWaveM = 0; iterWaveM < DB_ITM; iterWaveM++)
        for (int iterWaveN = 0; iterWaveN < DB_ITN; iterWaveN++) {
            int xOut = get_group_id(0) * BN + waveIdx * WN + iterWaveN * SUBWN + TN * idxInWave;
            int yOut = get_group_id(1) * BM + waveIdy * DB_WM + iterWaveM * SUBWM + TM * idyInWave;
            for (int yt = 0; yt < TM; yt++)
                for (int xt = 0; xt < TN; xt++) {
                    int indexC = N * (yOut + yt) + xOut + xt;
                    c[indexC] = beta * c[indexC] +
                                alpha * c_regs[TN * DB_ITN * (iterWaveM * TM + yt) + (iterWaveN * TN + xt)];
                }
        }
}
