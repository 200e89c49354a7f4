// 256-bin histogram of bytes: each work-group counts into local bins with
// atomic_inc, then adds its bins to the global histogram with atomic_add.
kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram(global const uchar *data, global uint *hist)
{
    local uint bins[256];
    uint lid = get_local_id(0);
    bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[data[get_global_id(0)]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&hist[lid], bins[lid]);
}
