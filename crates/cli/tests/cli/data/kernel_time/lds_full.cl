// One wave per workgroup stages 64 KiB (8192 doubles) in LDS, as AMD's yAx exercise 2
// does, then reads it back: the LDS holds one such workgroup per CU.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void lds_full(__global const double *x, __global double *out)
{
    __local double tmp[8192];
    for (int i = get_local_id(0); i < 8192; i += 64) tmp[i] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    double s = 0.0;
    for (int i = 0; i < 8192; i += 512) s += tmp[i + get_local_id(0)];
    out[get_global_id(0)] = s;
}
