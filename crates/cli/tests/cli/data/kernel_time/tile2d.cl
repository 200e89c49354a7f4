// A 2D kernel that needs -DBLOCK_SIZE (as Rodinia's hotspot, nw and lud do): a block of
// BLOCK_SIZE x BLOCK_SIZE work-items stages a tile in LDS.
#ifndef BLOCK_SIZE
#error "compile with -DBLOCK_SIZE=N"
#endif
__kernel void tile2d(__global const float *in, __global float *out, int cols) {
    __local float tile[BLOCK_SIZE][BLOCK_SIZE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_group_id(0) * BLOCK_SIZE + tx, y = get_group_id(1) * BLOCK_SIZE + ty;
    tile[ty][tx] = in[y * cols + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[y * cols + x] = tile[tx][ty];
}
