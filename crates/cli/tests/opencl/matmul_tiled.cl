// Tiled matrix multiply C = A * B (N x N) with 16x16 tiles staged through
// local memory: two barriers per tile step.
#define TILE 16
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_tiled(global const float *A, global const float *B, global float *C, int N)
{
    local float As[TILE][TILE];
    local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < N; t += TILE) {
        As[ty][tx] = A[row * N + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc = mad(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
