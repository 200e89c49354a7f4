// BabelStream v5.0, HIP model (src/hip/HIPStream.cpp), double precision:
// the five timed kernels, ported to OpenCL C.
// Source: https://github.com/UoB-HPC/BabelStream/blob/v5.0/src/hip/HIPStream.cpp
// (University of Bristol BabelStream licence). Ported by shadersim, not copied.
// What changed: HIP -> OpenCL syntax only. One element per work-item for
// copy/mul/add/triad (grid = array_size / 1024 workgroups of 1024, as the HIP
// host code launches them); dot keeps the grid-stride loop and the
// power-of-two LDS tree of v5.0, launched with ceil(N / (1024 * 2)) workgroups of
// 1024 for doubles (DOT_READ_DWORDS_PER_LANE = 4 -> 2 doubles per lane).
// The scalar is startScalar = 0.4. HIP kernels default to a 1024-wide flat
// workgroup limit; OpenCL's default is 256, so it is stated explicitly.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define TBSIZE 1024
// HIP's threadIdx.x, blockIdx.x, blockDim.x and gridDim.x are 32-bit unsigned, so the
// index arithmetic is 32-bit and then widened to size_t; these keep that width.
#define TID ((uint)get_local_id(0))
#define BID ((uint)get_group_id(0))
#define BDIM ((uint)get_local_size(0))
#define GDIM ((uint)get_num_groups(0))
#define HIP_LB __attribute__((amdgpu_flat_work_group_size(1, TBSIZE)))

__kernel HIP_LB void copy_kernel(__global const double *a, __global double *c)
{
    const size_t i = TID + BID * BDIM;
    c[i] = a[i];
}

__kernel HIP_LB void mul_kernel(__global double *b, __global const double *c)
{
    const double scalar = 0.4;
    const size_t i = TID + BID * BDIM;
    b[i] = scalar * c[i];
}

__kernel HIP_LB void add_kernel(__global const double *a, __global const double *b,
                                __global double *c)
{
    const size_t i = TID + BID * BDIM;
    c[i] = a[i] + b[i];
}

__kernel HIP_LB void triad_kernel(__global double *a, __global const double *b,
                                  __global const double *c)
{
    const double scalar = 0.4;
    const size_t i = TID + BID * BDIM;
    a[i] = b[i] + scalar * c[i];
}

__kernel HIP_LB void dot_kernel(__global const double *a, __global const double *b,
                                __global double *sum, int array_size)
{
    __local double tb_sum[TBSIZE];

    const size_t local_i = TID;
    size_t i = BDIM * BID + local_i;

    tb_sum[local_i] = 0.0;
    for (; i < array_size; i += BDIM * GDIM)
        tb_sum[local_i] += a[i] * b[i];

    for (size_t offset = BDIM / 2; offset > 0; offset /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (local_i < offset)
            tb_sum[local_i] += tb_sum[local_i + offset];
    }

    if (local_i == 0)
        sum[BID] = tb_sum[local_i];
}
