// 3D 7-point Laplacian of the AMD lab notes "Finite difference method - Laplacian"
// parts 1-4 (MIT licence, AMD), double precision, ported to OpenCL C.
// Source: https://github.com/amd/amd-lab-notes/tree/release/finite-difference/examples
//   kernel1.hpp -> lap_k1 (and lap_k1_nt: part 3's one-line nontemporal-store change)
//   kernel2.hpp -> lap_k2 (loop tiling in y, factor M)
//   kernel3.hpp -> lap_k3 (tiling with reordered loads, factor M)
//   kernel4.hpp -> lap_k4 (kernel 3 + __launch_bounds__(256))
//   kernel5.hpp -> lap_k5 (kernel 4 + nontemporal stores)
// What changed: HIP -> OpenCL syntax; the template parameter T is double; the
// tiling factor m is -DM=... (published values 1, 2, 4, 8, 16). Kernels without
// launch bounds get HIP's default 1024-wide flat workgroup limit (OpenCL's default
// would be 256, which changes register allocation); __launch_bounds__(256) becomes
// amdgpu_flat_work_group_size(1, 256). Host launch as published: block 256x1x1,
// grid ((nx-1)/256+1, (ny-1)/(1*M)+1, (nz-1)/1+1) (M = 1 for kernel 1).
// Arguments: invhx2 = 1/hx^2 with hx = 1/(nx-1), likewise y, z; invhxyz2 = -2*(sum).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define HIP_LB_DEFAULT __attribute__((amdgpu_flat_work_group_size(1, 1024)))
#define HIP_LB_256 __attribute__((amdgpu_flat_work_group_size(1, 256)))

#ifndef M
#define M 8
#endif

__kernel HIP_LB_DEFAULT void lap_k1(__global double *f, __global const double *u,
                                    int nx, int ny, int nz, double invhx2,
                                    double invhy2, double invhz2, double invhxyz2)
{
    int i = get_local_id(0) + get_group_id(0) * get_local_size(0);
    int j = get_local_id(1) + get_group_id(1) * get_local_size(1);
    int k = get_local_id(2) + get_group_id(2) * get_local_size(2);

    if (i == 0 || i >= nx - 1 || j == 0 || j >= ny - 1 || k == 0 || k >= nz - 1)
        return;

    const int slice = nx * ny;
    size_t pos = i + nx * j + slice * k;

    f[pos] = u[pos] * invhxyz2
           + (u[pos - 1] + u[pos + 1]) * invhx2
           + (u[pos - nx] + u[pos + nx]) * invhy2
           + (u[pos - slice] + u[pos + slice]) * invhz2;
}

__kernel HIP_LB_DEFAULT void lap_k1_nt(__global double *f, __global const double *u,
                                       int nx, int ny, int nz, double invhx2,
                                       double invhy2, double invhz2, double invhxyz2)
{
    int i = get_local_id(0) + get_group_id(0) * get_local_size(0);
    int j = get_local_id(1) + get_group_id(1) * get_local_size(1);
    int k = get_local_id(2) + get_group_id(2) * get_local_size(2);

    if (i == 0 || i >= nx - 1 || j == 0 || j >= ny - 1 || k == 0 || k >= nz - 1)
        return;

    const int slice = nx * ny;
    size_t pos = i + nx * j + slice * k;

    __builtin_nontemporal_store(u[pos] * invhxyz2
           + (u[pos - 1] + u[pos + 1]) * invhx2
           + (u[pos - nx] + u[pos + nx]) * invhy2
           + (u[pos - slice] + u[pos + slice]) * invhz2, &f[pos]);
}

__kernel HIP_LB_DEFAULT void lap_k2(__global double *f, __global const double *u,
                                    int nx, int ny, int nz, double invhx2,
                                    double invhy2, double invhz2, double invhxyz2)
{
    int i = get_local_id(0) + get_group_id(0) * get_local_size(0);
    int j = M * (get_local_id(1) + get_group_id(1) * get_local_size(1));
    int k = get_local_id(2) + get_group_id(2) * get_local_size(2);

    if (i == 0 || i >= nx - 1 || k == 0 || k >= nz - 1)
        return;

    const int slice = nx * ny;
    size_t pos = i + nx * j + slice * k;

    double Lu[M] = {0};
    double center;

    for (int n = 0; n < M; n++) {
        center = u[pos + n * nx];
        Lu[n] += center * invhxyz2
              + (u[pos - 1 + n * nx] + u[pos + 1 + n * nx]) * invhx2;
        if (n == 0) Lu[n] += u[pos - nx + n * nx] * invhy2;
        if (n > 0) Lu[n - 1] += center * invhy2;
        if (n < M - 1) Lu[n + 1] += center * invhy2;
        if (n == M - 1) Lu[n] += u[pos + nx + n * nx] * invhy2;
        Lu[n] += (u[pos - slice + n * nx] + u[pos + slice + n * nx]) * invhz2;
    }

    for (int n = 0; n < M; n++)
        if (j + n > 0 && j + n < ny - 1)
            f[pos + n * nx] = Lu[n];
}

// Kernels 3, 4 and 5 share one body: reordered loads (z-1 plane, y-1, the x row
// with reuse of the centre for y+-1, y+1, z+1 plane), then the guarded stores.
#define LAP_REORDERED_BODY(STORE)                                                  \
    int i = get_local_id(0) + get_group_id(0) * get_local_size(0);                 \
    int j = M * (get_local_id(1) + get_group_id(1) * get_local_size(1));           \
    int k = get_local_id(2) + get_group_id(2) * get_local_size(2);                 \
    if (i == 0 || i >= nx - 1 || k == 0 || k >= nz - 1)                            \
        return;                                                                    \
    const int slice = nx * ny;                                                     \
    size_t pos = i + nx * j + slice * k;                                           \
    double Lu[M] = {0};                                                            \
    double center;                                                                 \
    for (int n = 0; n < M; n++)                                                    \
        Lu[n] += u[pos - slice + n * nx] * invhz2;                                 \
    Lu[0] += j > 0 ? u[pos - 1 * nx] * invhy2 : 0;                                 \
    for (int n = 0; n < M; n++) {                                                  \
        Lu[n] += u[pos - 1 + n * nx] * invhx2;                                     \
        center = u[pos + n * nx];                                                  \
        Lu[n] += center * invhxyz2;                                                \
        Lu[n] += u[pos + 1 + n * nx] * invhx2;                                     \
        if (n > 0) Lu[n - 1] += center * invhy2;                                   \
        if (n < M - 1) Lu[n + 1] += center * invhy2;                               \
    }                                                                              \
    Lu[M - 1] += j < ny - M ? u[pos + M * nx] * invhy2 : 0;                        \
    for (int n = 0; n < M; n++)                                                    \
        Lu[n] += u[pos + slice + n * nx] * invhz2;                                 \
    for (int n = 0; n < M; n++)                                                    \
        if (n + j > 0 && n + j < ny - 1)                                           \
            STORE;

__kernel HIP_LB_DEFAULT void lap_k3(__global double *f, __global const double *u,
                                    int nx, int ny, int nz, double invhx2,
                                    double invhy2, double invhz2, double invhxyz2)
{
    LAP_REORDERED_BODY(f[pos + n * nx] = Lu[n])
}

__kernel HIP_LB_256 void lap_k4(__global double *f, __global const double *u,
                                int nx, int ny, int nz, double invhx2,
                                double invhy2, double invhz2, double invhxyz2)
{
    LAP_REORDERED_BODY(f[pos + n * nx] = Lu[n])
}

// Kernel 5 takes its launch bound from -DLB (published: 256; 128 for MI100 in part 4).
#ifndef LB
#define LB 256
#endif
__kernel __attribute__((amdgpu_flat_work_group_size(1, LB))) void lap_k5(__global double *f, __global const double *u,
                                int nx, int ny, int nz, double invhx2,
                                double invhy2, double invhz2, double invhxyz2)
{
    LAP_REORDERED_BODY(__builtin_nontemporal_store(Lu[n], &f[pos + n * nx]))
}
