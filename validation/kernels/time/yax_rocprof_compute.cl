// yAx (y^T * A * x) kernels of AMD's rocprof-compute (formerly Omniperf) training
// exercises, ported to OpenCL C. Source (MIT licence, AMD):
// https://github.com/amd/HPCTrainingExamples/tree/main/rocprof-compute
//   1-LaunchParameters/{problem.cpp,solution/solution.cpp}       -> yax_rowmajor (no launch bounds)
//   2-LDSOccupancyLimit/{problem,solution,solution-no-lds}      -> yax_lds (LDS_ELEMS), yax_nolds
//   3-RegisterOccupancyLimit/{problem,solution}                 -> yax_regs (WITH_ASSERT)
//   4-StridedAccess/{problem,solution}, 5-.../problem           -> yax_rowmajor_lb, yax_colmajor
//   4-StridedAccess/mi300a_{problem,solution}                   -> yax_rowmajor_u64_shfl, yax_colmajor_u64
//   5-AlgorithmicOptimizations/solution                         -> yax_block_per_row (after
//     commit 66428e23, 2024-09-12) and yax_block_per_row_2023 (the version before it,
//     which the MI210 README of April 2024 measured at 0.42 ms; its 7.7 ms of September 2024
//     are the fixed kernel)
// What changed: HIP -> OpenCL syntax. unsafeAtomicAdd(double) becomes a relaxed
// device-scope atomic fetch-add (clang lowers both to global_atomic_add_f64 /
// ds_add_f64 on gfx90a/gfx942). __shfl_down is written with ds_bpermute exactly
// as HIP's header implements it. HIP's assert(result[0] == 0.0) becomes a load, a
// compare and __builtin_trap. Kernels without __launch_bounds__ get HIP's default
// 1024-wide flat workgroup limit; __launch_bounds__(256) becomes
// amdgpu_flat_work_group_size(1, 256). Index arithmetic (int, or unsigned long
// long in the mi300a variants) and loops are as published.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define HIP_LB_DEFAULT __attribute__((amdgpu_flat_work_group_size(1, 1024)))
#define HIP_LB_256 __attribute__((amdgpu_flat_work_group_size(1, 256)))

static inline void unsafe_atomic_add_global(__global double *p, double v)
{
    __opencl_atomic_fetch_add((volatile __global atomic_double *)p, v,
                              __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
}

static inline void unsafe_atomic_add_local(__local double *p, double v)
{
    __opencl_atomic_fetch_add((volatile __local atomic_double *)p, v,
                              __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_WORK_GROUP);
}

// Exercise 1 (problem: grid 4, solution: grid 2048; block 64; n = m = 2<<14).
__kernel HIP_LB_DEFAULT void yax_rowmajor(__global double *y, __global double *A,
                                          __global double *x, int n, int m,
                                          __global double *result)
{
    double res = 0.0;
    for (int i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = 0; j < m; j++) {
            temp += A[i * m + j] * x[j];
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// Exercise 2: x staged in LDS. problem: LDS_ELEMS = 64 KiB / 8 = 8192 doubles;
// solution: LDS_ELEMS = 8192 / 32 = 256 doubles. Note the published A[i*n+j].
#ifndef LDS_ELEMS
#define LDS_ELEMS 8192
#endif
__kernel HIP_LB_DEFAULT void yax_lds(__global double *y, __global double *A,
                                     __global double *x, int n, int m,
                                     __global double *result)
{
    __local double tmp[LDS_ELEMS];
    for (int i = get_local_id(0); i < LDS_ELEMS; i += get_local_size(0)) tmp[i] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    double res = 0.0;
    for (int i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = 0; j < m; j++) {
            temp += A[i * n + j] * (j < LDS_ELEMS ? tmp[j] : x[j]);
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// Exercise 2 solution-no-lds.
__kernel HIP_LB_DEFAULT void yax_nolds(__global double *y, __global double *A,
                                       __global double *x, int n, int m,
                                       __global double *result)
{
    double res = 0.0;
    for (int i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = 0; j < m; j++) {
            temp += A[i * n + j] * x[j];
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// Exercise 3: 96 doubles of x kept in a private array; problem has the assert
// (-DWITH_ASSERT), solution does not.
#define REGISTER_ARRAY_SIZE 96
__kernel HIP_LB_256 void yax_regs(__global double *y, __global double *A,
                                  __global double *x, int n, int m,
                                  __global double *result)
{
    double tmp[REGISTER_ARRAY_SIZE];
    for (int i = 0; i < REGISTER_ARRAY_SIZE; i += 1) tmp[i] = x[i];
#ifdef WITH_ASSERT
    if (!(result[0] == 0.0)) __builtin_trap();
#endif
    double res = 0.0;
    for (int i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = 0; j < REGISTER_ARRAY_SIZE; j++) {
            temp += A[i * n + j] * tmp[j];
        }
        for (int j = REGISTER_ARRAY_SIZE; j < m; j++) {
            temp += A[i * n + j] * x[j];
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// Exercise 4 problem (row-major walk, __launch_bounds__(256)).
__kernel HIP_LB_256 void yax_rowmajor_lb(__global double *y, __global double *A,
                                         __global double *x, int n, int m,
                                         __global double *result)
{
    double res = 0.0;
    for (int i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = 0; j < m; j++) {
            temp += A[i * m + j] * x[j];
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// Exercise 4 solution = exercise 5 problem (column-major walk A[j*n+i]).
__kernel HIP_LB_256 void yax_colmajor(__global double *y, __global double *A,
                                      __global double *x, int n, int m,
                                      __global double *result)
{
    double res = 0.0;
    for (int i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = 0; j < m; j++) {
            temp += A[j * n + i] * x[j];
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// HIP's __shfl_down(double, delta, 64): two ds_bpermute_b32 on the halves.
static inline double shfl_down_f64(double var, int delta)
{
    int self = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    int index = self + delta;
    index = ((self & 63) + delta) >= 64 ? self : index;
    int2 v = as_int2(var);
    v.x = __builtin_amdgcn_ds_bpermute(index << 2, v.x);
    v.y = __builtin_amdgcn_ds_bpermute(index << 2, v.y);
    return as_double(v);
}

// Exercise 4 mi300a_problem: 64-bit indices, row-major walk, wave shuffle reduction
// and one atomic per wave (the block is one wave of 64).
__kernel HIP_LB_256 void yax_rowmajor_u64_shfl(__global double *y, __global double *A,
                                               __global double *x, ulong n, ulong m,
                                               __global double *result)
{
    double res = 0.0;
    for (ulong i = (uint)get_local_size(0) * (uint)get_group_id(0) + (uint)get_local_id(0); i < n;
         i += (uint)get_num_groups(0) * (uint)get_local_size(0)) {
        double temp = 0.0;
        for (ulong j = 0; j < m; j++) {
            temp += A[i * m + j] * x[j];
        }
        res += y[i] * temp;
    }
    res += shfl_down_f64(res, 32);
    res += shfl_down_f64(res, 16);
    res += shfl_down_f64(res, 8);
    res += shfl_down_f64(res, 4);
    res += shfl_down_f64(res, 2);
    res += shfl_down_f64(res, 1);
    if (get_local_id(0) == 0) unsafe_atomic_add_global(&result[0], res);
}

// Exercise 4 mi300a_solution: 64-bit indices, column-major walk, atomic per lane.
__kernel HIP_LB_256 void yax_colmajor_u64(__global double *y, __global double *A,
                                          __global double *x, ulong n, ulong m,
                                          __global double *result)
{
    double res = 0.0;
    for (ulong i = (uint)get_local_size(0) * (uint)get_group_id(0) + (uint)get_local_id(0); i < n;
         i += (uint)get_num_groups(0) * (uint)get_local_size(0)) {
        double temp = 0.0;
        for (ulong j = 0; j < m; j++) {
            temp += A[j * n + i] * x[j];
        }
        res += y[i] * temp;
    }
    unsafe_atomic_add_global(&result[0], res);
}

// Exercise 5 solution: one workgroup per row, lanes stride the row, LDS atomic.
__kernel HIP_LB_256 void yax_block_per_row(__global double *y, __global double *A,
                                           __global double *x, int n, int m,
                                           __global double *result)
{
    __local double res;
    if (get_local_id(0) == 0) res = 0;

    for (int i = get_group_id(0); i < n; i += get_num_groups(0)) {
        double temp = 0.0;
        for (int j = get_local_id(0); j < m; j += get_local_size(0)) {
            temp += A[i * m + j] * x[j];
        }
        unsafe_atomic_add_local(&res, temp);
        if (get_local_id(0) == 0) res *= y[i];
    }
    if (get_local_id(0) == 0) unsafe_atomic_add_global(&result[0], res);
}

// Exercise 5 solution as published before commit 66428e23 (2024-09-12): the row
// loop starts at blockDim.x * blockIdx.x and strides gridDim.x * blockDim.x (so a
// workgroup visits every 64th row block), and res is not zeroed first.
__kernel HIP_LB_256 void yax_block_per_row_2023(__global double *y, __global double *A,
                                                __global double *x, int n, int m,
                                                __global double *result)
{
    __local double res;

    for (int i = get_local_size(0) * get_group_id(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        double temp = 0.0;
        for (int j = get_local_id(0); j < m; j += get_local_size(0)) {
            temp += A[i * m + j] * x[j];
        }
        unsafe_atomic_add_local(&res, temp);
        if (get_local_id(0) == 0) res *= y[i];
    }
    if (get_local_id(0) == 0) unsafe_atomic_add_global(&result[0], res);
}
