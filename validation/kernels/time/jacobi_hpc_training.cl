// Kernels of the 2D Jacobi solver in AMD's HPCTrainingExamples (HIP/jacobi,
// MIT licence, AMD), double precision (USE_FLOAT 0), ported to OpenCL C.
// Source: https://github.com/amd/HPCTrainingExamples/tree/main/HIP/jacobi
//   JacobiIteration.hip: JacobiIterationKernel, block 512, grid ceil(N/512)
//   Laplacian.hip:       LocalLaplacianKernel, block 16x16, grid ceil((Nx-2)/16) x ceil((Ny-2)/16)
//                        HaloLaplacianKernel, block 512, grid ceil((2Nx+2Ny-2)/512)
//   Norm.hip:            NormKernel1 / NormKernel2 with block_size 128 (OPTIMIZED not
//                        defined), NormKernel1 grid min(ceil(N/128), 128), NormKernel2 grid 1
// What changed: HIP -> OpenCL syntax only; HIP's default 1024-wide flat workgroup
// limit is stated (OpenCL's default is 256).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define HIP_LB_DEFAULT __attribute__((amdgpu_flat_work_group_size(1, 1024)))
#ifndef block_size
#define block_size 128
#endif

__kernel HIP_LB_DEFAULT void JacobiIterationKernel(const int N, const double dx, const double dy,
                                                   __global const double *restrict RHS,
                                                   __global const double *restrict AU,
                                                   __global double *restrict RES,
                                                   __global double *restrict U)
{
    const int id = get_local_id(0) + get_group_id(0) * get_local_size(0);
    if (id < N) {
        double r_res = RHS[id] - AU[id];
        RES[id] = r_res;
        U[id] += r_res / (2.0 / (dx * dx) + 2.0 / (dy * dy));
    }
}

__kernel HIP_LB_DEFAULT void LocalLaplacianKernel(const int localNx, const int localNy,
                                                  const int stride, const double dx,
                                                  const double dy,
                                                  __global const double *restrict U,
                                                  __global double *restrict AU)
{
    const int i = get_local_id(0) + get_group_id(0) * get_local_size(0);
    const int j = get_local_id(1) + get_group_id(1) * get_local_size(1);
    if ((i < localNx) && (j < localNy)) {
        const int id = (i + 1) + (j + 1) * stride;
        const int id_l = id - 1;
        const int id_r = id + 1;
        const int id_d = id - stride;
        const int id_u = id + stride;
        AU[id] = (-U[id_l] + 2 * U[id] - U[id_r]) / (dx * dx) +
                 (-U[id_d] + 2 * U[id] - U[id_u]) / (dy * dy);
    }
}

__kernel HIP_LB_DEFAULT void HaloLaplacianKernel(const int Nx, const int Ny, const int stride,
                                                 const double dx, const double dy,
                                                 __global const double *restrict U,
                                                 __global const double *restrict haloBuffer,
                                                 __global double *restrict AU)
{
    const int id = get_local_id(0) + get_group_id(0) * get_local_size(0);
    if (id < 2 * Nx + 2 * Ny - 2) {
        int i, j;
        if (id < Nx) {
            i = id;
            j = 0;
        } else if (id < 2 * Nx) {
            i = (id - Nx);
            j = Ny - 1;
        } else if (id < 2 * Nx + Ny - 1) {
            i = 0;
            j = (id - 2 * Nx) + 1;
        } else {
            i = Nx - 1;
            j = (id - 2 * Nx - Ny + 1) + 1;
        }
        const int iid = i + j * stride;
        const double U_d = (j == 0) ? haloBuffer[i + 0] : U[iid - stride];
        const double U_u = (j == Ny - 1) ? haloBuffer[i + Nx] : U[iid + stride];
        const double U_l = (i == 0) ? haloBuffer[j + 2 * Nx] : U[iid - 1];
        const double U_r = (i == Nx - 1) ? haloBuffer[j + 2 * Nx + Ny] : U[iid + 1];
        AU[iid] = (-U_l + 2 * U[iid] - U_r) / (dx * dx) +
                  (-U_d + 2 * U[iid] - U_u) / (dy * dy);
    }
}

__kernel HIP_LB_DEFAULT void NormKernel1(const int N, const double dx, const double dy,
                                         __global const double *restrict U,
                                         __global double *restrict tmp)
{
    __local double s_dot[block_size];
    const int t = get_local_id(0);
    const int i = get_group_id(0);
    int id = i * block_size + t;
    s_dot[t] = 0.0;
    for (; id < N; id += get_num_groups(0) * block_size) {
        s_dot[t] += U[id] * U[id] * dx * dy;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = block_size / 2; k > 0; k /= 2) {
        if (t < k) {
            s_dot[t] += s_dot[t + k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0)
        tmp[i] = s_dot[0];
}

__kernel HIP_LB_DEFAULT void NormKernel2(const int N, __global const double *restrict tmp,
                                         __global double *restrict dprod)
{
    __local double s_dot[block_size];
    const int t = get_local_id(0);
    const int i = get_group_id(0);
    int id = i * block_size + t;
    s_dot[t] = 0.0;
    for (; id < N; id += block_size) {
        s_dot[t] += tmp[id];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = block_size / 2; k > 0; k /= 2) {
        if (t < k) {
            s_dot[t] += s_dot[t + k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0)
        *dprod = s_dot[0];
}
