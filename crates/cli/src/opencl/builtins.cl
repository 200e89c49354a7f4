// shadersim's OpenCL C built-in library for amdgcn.
//
// `shadersim compile|analyze FILE.cl` compiles with clang without a device
// library (`-nogpulib`: no ROCm device-libs, no libclc), so the library
// functions of OpenCL C (get_global_id, barrier, atomic_add, sqrt, ...) would
// stay calls to undefined functions. This file DEFINES them, the way the
// device libraries implement them. shadersim (crates/cli/src/commands/
// compile.rs) compiles it to bitcode with the kernel's own flags and links it
// into every kernel with `-Xclang -mlink-builtin-bitcode`, as clang links
// ROCm's device libraries: only the functions the kernel calls and does not
// define itself are taken, internalized and (`always_inline`) inlined, so the
// listing holds the instructions a user's OpenCL runtime would run, and a
// kernel that defines a built-in's name itself keeps its own definition.
//
// Types and constants (vector types, CLK_LOCAL_MEM_FENCE, memory_order_*,
// memory_scope_*, as_<type>) and the declarations of the built-ins come from
// clang's own OpenCL header, which the clang driver includes by default
// (-finclude-default-header -fdeclare-opencl-builtins); every definition here
// is `overloadable` with the declared signature, so its mangled name is the
// one the kernel calls.
//
// Accuracy is not the goal: the instruction SHAPE is. Approximations (each
// also noted where it is defined):
// * get_global_id adds the global offset read from the hidden kernel
//   arguments (code object v5 layout: offset 40), as ROCm's ockl does; the
//   local size is the enqueued one (a partial last work-group of a
//   non-uniform NDRange is not sized from the hidden remainder).
// * sqrt, exp, exp2, log, log2, log10, sin, cos go through LLVM's intrinsics,
//   which the AMDGPU backend expands inline (denormal scaling around
//   v_sqrt_f32 / v_exp_f32 / v_log_f32; sin and cos as v_sin_f32 /
//   v_cos_f32 after a multiply by 1/(2 pi)). ROCm's ocml adds a longer
//   range reduction to sin, cos and tan for large arguments.
// * tan = sin / cos; exp10(x) = exp2(x * log2(10)); pow, powr, pown, rootn =
//   exp2(y * log2(x)) without pow's sign and special-case handling; hypot =
//   sqrt(x*x + y*y); rsqrt = v_rsq (__builtin_amdgcn_rsq*).
// * native_* and half_* are the single hardware instruction (v_rcp_f32,
//   v_rsq_f32, v_sqrt_f32, v_exp_f32, v_log_f32, v_sin_f32, v_cos_f32).
// * OpenCL 1.x atomics (atomic_*, atom_*) are relaxed with device scope, as
//   ROCm's library makes them; C11-style atomics (atomic_load, atomic_store,
//   atomic_exchange, atomic_compare_exchange_*, atomic_fetch_*) default to
//   seq_cst and device scope as the specification says.
// * convert_<type>[_rte|_rtz|_rtp|_rtn]: float to integer rounds with rint,
//   trunc, ceil, floor before converting; the other rounding modes and the
//   _sat forms are not provided (a call to one is an error naming it).
// * half-precision (half, half_n) overloads, images, pipes, work-group
//   collectives, vload_half, the inverse and hyperbolic trigonometric
//   functions and the double transcendentals are not provided.
// * Without a generic address space (gfx6 with clang-22) the pointer
//   arguments come in one form per address space, as clang declares them.
// A call to any OpenCL function this file does not define is left as a
// call to an undefined function, which shadersim reports as an error.
#ifndef SHADERSIM_OPENCL_BUILTINS
#define SHADERSIM_OPENCL_BUILTINS

#define __SSIM_FN __attribute__((overloadable, always_inline))

// ---------------------------------------------------------------- helpers
// Apply a scalar function to each component of a vector (the vector forms of
// functions the backend would scalarise anyway).
#define __SSIM_VEC1(R, NAME, T)                                                         \
    __SSIM_FN R##2 NAME(T##2 x) { return (R##2)(NAME(x.s0), NAME(x.s1)); }              \
    __SSIM_FN R##3 NAME(T##3 x) { return (R##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2)); }  \
    __SSIM_FN R##4 NAME(T##4 x) { return (R##4)(NAME(x.lo), NAME(x.hi)); }              \
    __SSIM_FN R##8 NAME(T##8 x) { return (R##8)(NAME(x.lo), NAME(x.hi)); }              \
    __SSIM_FN R##16 NAME(T##16 x) { return (R##16)(NAME(x.lo), NAME(x.hi)); }
#define __SSIM_VEC2(R, NAME, T, U)                                                      \
    __SSIM_FN R##2 NAME(T##2 x, U##2 y) { return (R##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1)); } \
    __SSIM_FN R##3 NAME(T##3 x, U##3 y)                                                 \
    {                                                                                   \
        return (R##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2));            \
    }                                                                                   \
    __SSIM_FN R##4 NAME(T##4 x, U##4 y) { return (R##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); } \
    __SSIM_FN R##8 NAME(T##8 x, U##8 y) { return (R##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); } \
    __SSIM_FN R##16 NAME(T##16 x, U##16 y) { return (R##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }
#define __SSIM_VEC3(R, NAME, T)                                                         \
    __SSIM_FN R##2 NAME(T##2 x, T##2 y, T##2 z)                                         \
    {                                                                                   \
        return (R##2)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1));                  \
    }                                                                                   \
    __SSIM_FN R##3 NAME(T##3 x, T##3 y, T##3 z)                                         \
    {                                                                                   \
        return (R##3)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1), NAME(x.s2, y.s2, z.s2)); \
    }                                                                                   \
    __SSIM_FN R##4 NAME(T##4 x, T##4 y, T##4 z)                                         \
    {                                                                                   \
        return (R##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                  \
    }                                                                                   \
    __SSIM_FN R##8 NAME(T##8 x, T##8 y, T##8 z)                                         \
    {                                                                                   \
        return (R##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                  \
    }                                                                                   \
    __SSIM_FN R##16 NAME(T##16 x, T##16 y, T##16 z)                                     \
    {                                                                                   \
        return (R##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                 \
    }
// The forms OpenCL adds for a vector and a scalar (min(float4, float), ...).
#define __SSIM_VEC_SCALAR2(NAME, T)                                                     \
    __SSIM_FN T##2 NAME(T##2 x, T y) { return NAME(x, (T##2)(y)); }                     \
    __SSIM_FN T##3 NAME(T##3 x, T y) { return NAME(x, (T##3)(y)); }                     \
    __SSIM_FN T##4 NAME(T##4 x, T y) { return NAME(x, (T##4)(y)); }                     \
    __SSIM_FN T##8 NAME(T##8 x, T y) { return NAME(x, (T##8)(y)); }                     \
    __SSIM_FN T##16 NAME(T##16 x, T y) { return NAME(x, (T##16)(y)); }
#define __SSIM_VEC_SCALAR3(NAME, T)                                                     \
    __SSIM_FN T##2 NAME(T##2 x, T y, T z) { return NAME(x, (T##2)(y), (T##2)(z)); }     \
    __SSIM_FN T##3 NAME(T##3 x, T y, T z) { return NAME(x, (T##3)(y), (T##3)(z)); }     \
    __SSIM_FN T##4 NAME(T##4 x, T y, T z) { return NAME(x, (T##4)(y), (T##4)(z)); }     \
    __SSIM_FN T##8 NAME(T##8 x, T y, T z) { return NAME(x, (T##8)(y), (T##8)(z)); }     \
    __SSIM_FN T##16 NAME(T##16 x, T y, T z) { return NAME(x, (T##16)(y), (T##16)(z)); }

// mix(V, V, scalar), step(scalar, V), smoothstep(scalar, scalar, V).
#define __SSIM_SCALAR_EDGE_N(V, T)                                                      \
    __SSIM_FN V mix(V x, V y, T a) { return mix(x, y, (V)(a)); }                        \
    __SSIM_FN V step(T e, V x) { return step((V)(e), x); }                              \
    __SSIM_FN V smoothstep(T e0, T e1, V x) { return smoothstep((V)(e0), (V)(e1), x); }
#define __SSIM_SCALAR_EDGE(T)                                                           \
    __SSIM_SCALAR_EDGE_N(T##2, T) __SSIM_SCALAR_EDGE_N(T##3, T) __SSIM_SCALAR_EDGE_N(T##4, T) \
    __SSIM_SCALAR_EDGE_N(T##8, T) __SSIM_SCALAR_EDGE_N(T##16, T)

// Every scalar type and its vectors: GENERIC(type) for each.
#define __SSIM_ALL_N(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)

#ifdef cl_khr_fp64
#define __SSIM_IF_FP64(X) X
#else
#define __SSIM_IF_FP64(X)
#endif

// ---------------------------------------------------------------- work-items
// The hidden kernel arguments (code object v5/v6 layout), as ockl reads them.
#define __SSIM_HIDDEN_U32(byte) (((__constant uint *)__builtin_amdgcn_implicitarg_ptr())[(byte) / 4])
#define __SSIM_HIDDEN_U64(byte) (((__constant ulong *)__builtin_amdgcn_implicitarg_ptr())[(byte) / 8])
#define __SSIM_HIDDEN_U16(byte) (((__constant ushort *)__builtin_amdgcn_implicitarg_ptr())[(byte) / 2])

__SSIM_FN size_t get_local_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workitem_id_x()
         : d == 1 ? __builtin_amdgcn_workitem_id_y()
         : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
__SSIM_FN size_t get_group_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_id_x()
         : d == 1 ? __builtin_amdgcn_workgroup_id_y()
         : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}
// The enqueued work-group size (a partial last group is not sized apart).
__SSIM_FN size_t get_local_size(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_size_x()
         : d == 1 ? __builtin_amdgcn_workgroup_size_y()
         : d == 2 ? __builtin_amdgcn_workgroup_size_z() : 1;
}
__SSIM_FN size_t get_enqueued_local_size(uint d) { return get_local_size(d); }
__SSIM_FN size_t get_global_size(uint d)
{
    return d == 0 ? __builtin_amdgcn_grid_size_x()
         : d == 1 ? __builtin_amdgcn_grid_size_y()
         : d == 2 ? __builtin_amdgcn_grid_size_z() : 1;
}
// hidden_block_count_{x,y,z}: bytes 0, 4, 8 of the hidden arguments.
__SSIM_FN size_t get_num_groups(uint d) { return d < 3 ? __SSIM_HIDDEN_U32(d * 4) : 1; }
// hidden_global_offset_{x,y,z}: bytes 40, 48, 56.
__SSIM_FN size_t get_global_offset(uint d) { return d < 3 ? __SSIM_HIDDEN_U64(40 + d * 8) : 0; }
// hidden_grid_dims: byte 64.
__SSIM_FN uint get_work_dim(void) { return __SSIM_HIDDEN_U16(64); }
__SSIM_FN size_t get_global_id(uint d)
{
    return get_group_id(d) * get_local_size(d) + get_local_id(d) + get_global_offset(d);
}
__SSIM_FN size_t get_local_linear_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0)
         + get_local_id(0);
}
__SSIM_FN size_t get_global_linear_id(void)
{
    return ((get_global_id(2) - get_global_offset(2)) * get_global_size(1)
            + (get_global_id(1) - get_global_offset(1))) * get_global_size(0)
         + (get_global_id(0) - get_global_offset(0));
}

// ---------------------------------------------------------------- fences and barriers
// A fence of `order` at `scope`; both are constants once inlined, so one
// __builtin_amdgcn_fence remains (it needs literal arguments).
#define __SSIM_FENCE_AT(ORDER, scope)                                                   \
    switch (scope) {                                                                    \
    case memory_scope_work_item: break;                                                 \
    case memory_scope_sub_group: __builtin_amdgcn_fence(ORDER, "wavefront"); break;     \
    case memory_scope_work_group: __builtin_amdgcn_fence(ORDER, "workgroup"); break;    \
    case memory_scope_device: __builtin_amdgcn_fence(ORDER, "agent"); break;            \
    default: __builtin_amdgcn_fence(ORDER, ""); break;                                  \
    }
__SSIM_FN void __ssim_fence(memory_order order, memory_scope scope)
{
    switch (order) {
    case memory_order_acquire: __SSIM_FENCE_AT(__ATOMIC_ACQUIRE, scope) break;
    case memory_order_release: __SSIM_FENCE_AT(__ATOMIC_RELEASE, scope) break;
    case memory_order_acq_rel: __SSIM_FENCE_AT(__ATOMIC_ACQ_REL, scope) break;
    case memory_order_seq_cst: __SSIM_FENCE_AT(__ATOMIC_SEQ_CST, scope) break;
    default: break;
    }
}
__SSIM_FN void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                      memory_scope scope)
{
    if (flags)
        __ssim_fence(order, scope);
}
// work_group_barrier: a release fence, s_barrier, an acquire fence (ockl's
// shape); without fence flags only s_barrier.
__SSIM_FN void work_group_barrier(cl_mem_fence_flags flags, memory_scope scope)
{
    if (flags) {
        __ssim_fence(memory_order_release, scope);
        __builtin_amdgcn_s_barrier();
        __ssim_fence(memory_order_acquire, scope);
    } else {
        __builtin_amdgcn_s_barrier();
    }
}
__SSIM_FN void work_group_barrier(cl_mem_fence_flags flags)
{
    work_group_barrier(flags, memory_scope_work_group);
}
__SSIM_FN void barrier(cl_mem_fence_flags flags) { work_group_barrier(flags); }
__SSIM_FN void mem_fence(cl_mem_fence_flags flags)
{
    atomic_work_item_fence(flags, memory_order_acq_rel, memory_scope_work_group);
}
__SSIM_FN void read_mem_fence(cl_mem_fence_flags flags)
{
    atomic_work_item_fence(flags, memory_order_acquire, memory_scope_work_group);
}
__SSIM_FN void write_mem_fence(cl_mem_fence_flags flags)
{
    atomic_work_item_fence(flags, memory_order_release, memory_scope_work_group);
}

// ---------------------------------------------------------------- OpenCL 1.x atomics
// Relaxed, device scope (ROCm's library: __opencl_atomic_* with
// memory_order_relaxed, memory_scope_device).
#define __SSIM_RLX(op, p, ...) __scoped_atomic_##op(p, __VA_ARGS__, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define __SSIM_ATOMIC1X(PFX, AS, T)                                                     \
    __SSIM_FN T PFX##_add(volatile AS T *p, T v) { return __SSIM_RLX(fetch_add, p, v); } \
    __SSIM_FN T PFX##_sub(volatile AS T *p, T v) { return __SSIM_RLX(fetch_sub, p, v); } \
    __SSIM_FN T PFX##_inc(volatile AS T *p) { return __SSIM_RLX(fetch_add, p, (T)1); }   \
    __SSIM_FN T PFX##_dec(volatile AS T *p) { return __SSIM_RLX(fetch_sub, p, (T)1); }   \
    __SSIM_FN T PFX##_min(volatile AS T *p, T v) { return __SSIM_RLX(fetch_min, p, v); } \
    __SSIM_FN T PFX##_max(volatile AS T *p, T v) { return __SSIM_RLX(fetch_max, p, v); } \
    __SSIM_FN T PFX##_and(volatile AS T *p, T v) { return __SSIM_RLX(fetch_and, p, v); } \
    __SSIM_FN T PFX##_or(volatile AS T *p, T v) { return __SSIM_RLX(fetch_or, p, v); }   \
    __SSIM_FN T PFX##_xor(volatile AS T *p, T v) { return __SSIM_RLX(fetch_xor, p, v); } \
    __SSIM_FN T PFX##_xchg(volatile AS T *p, T v) { return __SSIM_RLX(exchange_n, p, v); } \
    __SSIM_FN T PFX##_cmpxchg(volatile AS T *p, T cmp, T v)                             \
    {                                                                                   \
        __scoped_atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED, \
                                           __MEMORY_SCOPE_DEVICE);                      \
        return cmp;                                                                     \
    }
__SSIM_ATOMIC1X(atomic, __global, int)
__SSIM_ATOMIC1X(atomic, __global, uint)
__SSIM_ATOMIC1X(atomic, __local, int)
__SSIM_ATOMIC1X(atomic, __local, uint)
__SSIM_ATOMIC1X(atom, __global, int)
__SSIM_ATOMIC1X(atom, __global, uint)
__SSIM_ATOMIC1X(atom, __local, int)
__SSIM_ATOMIC1X(atom, __local, uint)
__SSIM_ATOMIC1X(atom, __global, long)
__SSIM_ATOMIC1X(atom, __global, ulong)
__SSIM_ATOMIC1X(atom, __local, long)
__SSIM_ATOMIC1X(atom, __local, ulong)
// Float exchange through the 32-bit integer exchange of the same bits.
__SSIM_FN float atomic_xchg(volatile __global float *p, float v)
{
    return as_float(__SSIM_RLX(exchange_n, (volatile __global uint *)p, as_uint(v)));
}
__SSIM_FN float atomic_xchg(volatile __local float *p, float v)
{
    return as_float(__SSIM_RLX(exchange_n, (volatile __local uint *)p, as_uint(v)));
}

// ---------------------------------------------------------------- C11-style atomics (OpenCL 2.0)
// Defaults: memory_order_seq_cst, memory_scope_device. OpenCL 2.0 declares
// them on generic pointers only (volatile, so LLVM keeps them flat_atomic_*
// unless the address space is known where the pointer is made).
#define __SSIM_C11_COMMON(AS, A, C)                                                      \
    __SSIM_FN void atomic_init(volatile AS A *p, C v) { __opencl_atomic_init(p, v); }   \
    __SSIM_FN C atomic_load_explicit(volatile AS A *p, memory_order o, memory_scope s)  \
    {                                                                                   \
        return __opencl_atomic_load(p, o, s);                                           \
    }                                                                                   \
    __SSIM_FN C atomic_load_explicit(volatile AS A *p, memory_order o)                  \
    {                                                                                   \
        return __opencl_atomic_load(p, o, memory_scope_device);                         \
    }                                                                                   \
    __SSIM_FN C atomic_load(volatile AS A *p)                                           \
    {                                                                                   \
        return __opencl_atomic_load(p, memory_order_seq_cst, memory_scope_device);      \
    }                                                                                   \
    __SSIM_FN void atomic_store_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) \
    {                                                                                   \
        __opencl_atomic_store(p, v, o, s);                                              \
    }                                                                                   \
    __SSIM_FN void atomic_store_explicit(volatile AS A *p, C v, memory_order o)         \
    {                                                                                   \
        __opencl_atomic_store(p, v, o, memory_scope_device);                            \
    }                                                                                   \
    __SSIM_FN void atomic_store(volatile AS A *p, C v)                                  \
    {                                                                                   \
        __opencl_atomic_store(p, v, memory_order_seq_cst, memory_scope_device);         \
    }                                                                                   \
    __SSIM_FN C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) \
    {                                                                                   \
        return __opencl_atomic_exchange(p, v, o, s);                                    \
    }                                                                                   \
    __SSIM_FN C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o)         \
    {                                                                                   \
        return __opencl_atomic_exchange(p, v, o, memory_scope_device);                  \
    }                                                                                   \
    __SSIM_FN C atomic_exchange(volatile AS A *p, C v)                                  \
    {                                                                                   \
        return __opencl_atomic_exchange(p, v, memory_order_seq_cst, memory_scope_device); \
    }
// compare_exchange, for an `expected` pointer in address space EAS.
#define __SSIM_C11_CMPXCHG(AS, EAS, A, C)                                             \
    __SSIM_FN bool atomic_compare_exchange_strong_explicit(                             \
        volatile AS A *p, EAS C *e, C v, memory_order so, memory_order fo, memory_scope s)  \
    {                                                                                   \
        return __opencl_atomic_compare_exchange_strong(p, e, v, so, fo, s);             \
    }                                                                                   \
    __SSIM_FN bool atomic_compare_exchange_strong_explicit(                             \
        volatile AS A *p, EAS C *e, C v, memory_order so, memory_order fo)                  \
    {                                                                                   \
        return __opencl_atomic_compare_exchange_strong(p, e, v, so, fo, memory_scope_device); \
    }                                                                                   \
    __SSIM_FN bool atomic_compare_exchange_strong(volatile AS A *p, EAS C *e, C v)          \
    {                                                                                   \
        return __opencl_atomic_compare_exchange_strong(p, e, v, memory_order_seq_cst,   \
                                                       memory_order_seq_cst, memory_scope_device); \
    }                                                                                   \
    __SSIM_FN bool atomic_compare_exchange_weak_explicit(                               \
        volatile AS A *p, EAS C *e, C v, memory_order so, memory_order fo, memory_scope s)  \
    {                                                                                   \
        return __opencl_atomic_compare_exchange_weak(p, e, v, so, fo, s);               \
    }                                                                                   \
    __SSIM_FN bool atomic_compare_exchange_weak_explicit(                               \
        volatile AS A *p, EAS C *e, C v, memory_order so, memory_order fo)                  \
    {                                                                                   \
        return __opencl_atomic_compare_exchange_weak(p, e, v, so, fo, memory_scope_device); \
    }                                                                                   \
    __SSIM_FN bool atomic_compare_exchange_weak(volatile AS A *p, EAS C *e, C v)            \
    {                                                                                   \
        return __opencl_atomic_compare_exchange_weak(p, e, v, memory_order_seq_cst,     \
                                                     memory_order_seq_cst, memory_scope_device); \
    }
#define __SSIM_C11_FETCH(AS, A, C, OP)                                                  \
    __SSIM_FN C atomic_fetch_##OP##_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) \
    {                                                                                   \
        return __opencl_atomic_fetch_##OP(p, v, o, s);                                  \
    }                                                                                   \
    __SSIM_FN C atomic_fetch_##OP##_explicit(volatile AS A *p, C v, memory_order o)     \
    {                                                                                   \
        return __opencl_atomic_fetch_##OP(p, v, o, memory_scope_device);                \
    }                                                                                   \
    __SSIM_FN C atomic_fetch_##OP(volatile AS A *p, C v)                                \
    {                                                                                   \
        return __opencl_atomic_fetch_##OP(p, v, memory_order_seq_cst, memory_scope_device); \
    }
#define __SSIM_C11_INT(AS, A, C)                                                        \
    __SSIM_C11_COMMON(AS, A, C)                                                         \
    __SSIM_C11_FETCH(AS, A, C, add)                                                     \
    __SSIM_C11_FETCH(AS, A, C, sub)                                                     \
    __SSIM_C11_FETCH(AS, A, C, and)                                                     \
    __SSIM_C11_FETCH(AS, A, C, or)                                                      \
    __SSIM_C11_FETCH(AS, A, C, xor)                                                     \
    __SSIM_C11_FETCH(AS, A, C, min)                                                     \
    __SSIM_C11_FETCH(AS, A, C, max)
#define __SSIM_C11_TYPES(AS)                                                            \
    __SSIM_C11_INT(AS, atomic_int, int)                                                 \
    __SSIM_C11_INT(AS, atomic_uint, uint)                                               \
    __SSIM_C11_INT(AS, atomic_long, long)                                               \
    __SSIM_C11_INT(AS, atomic_ulong, ulong)                                             \
    __SSIM_C11_COMMON(AS, atomic_float, float)                                          \
    __SSIM_IF_FP64(__SSIM_C11_COMMON(AS, atomic_double, double))
#define __SSIM_C11_CMPXCHG_TYPES(AS, EAS)                                               \
    __SSIM_C11_CMPXCHG(AS, EAS, atomic_int, int)                                        \
    __SSIM_C11_CMPXCHG(AS, EAS, atomic_uint, uint)                                      \
    __SSIM_C11_CMPXCHG(AS, EAS, atomic_long, long)                                      \
    __SSIM_C11_CMPXCHG(AS, EAS, atomic_ulong, ulong)                                    \
    __SSIM_C11_CMPXCHG(AS, EAS, atomic_float, float)                                    \
    __SSIM_IF_FP64(__SSIM_C11_CMPXCHG(AS, EAS, atomic_double, double))
#define __SSIM_C11_FLAG(AS)                                                             \
    __SSIM_FN bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o, \
                                                     memory_scope s)                    \
    {                                                                                   \
        return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o, s);          \
    }                                                                                   \
    __SSIM_FN bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o) \
    {                                                                                   \
        return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o, memory_scope_device); \
    }                                                                                   \
    __SSIM_FN bool atomic_flag_test_and_set(volatile AS atomic_flag *p)                 \
    {                                                                                   \
        return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, memory_order_seq_cst, \
                                        memory_scope_device);                           \
    }                                                                                   \
    __SSIM_FN void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o, \
                                              memory_scope s)                           \
    {                                                                                   \
        __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, s);                    \
    }                                                                                   \
    __SSIM_FN void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o) \
    {                                                                                   \
        __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, memory_scope_device);  \
    }                                                                                   \
    __SSIM_FN void atomic_flag_clear(volatile AS atomic_flag *p)                        \
    {                                                                                   \
        __opencl_atomic_store((volatile AS atomic_int *)p, 0, memory_order_seq_cst,     \
                              memory_scope_device);                                     \
    }
#ifdef __opencl_c_generic_address_space
__SSIM_C11_TYPES()
__SSIM_C11_CMPXCHG_TYPES(, )
__SSIM_C11_FLAG()
#else
// Without a generic address space (gfx6 with clang-22) clang declares one
// form per address space of the object and of `expected`.
#define __SSIM_C11_ALL(AS)                                                              \
    __SSIM_C11_TYPES(AS) __SSIM_C11_CMPXCHG_TYPES(AS, __global)                         \
    __SSIM_C11_CMPXCHG_TYPES(AS, __local) __SSIM_C11_CMPXCHG_TYPES(AS, __private)       \
    __SSIM_C11_FLAG(AS)
__SSIM_C11_ALL(__global)
__SSIM_C11_ALL(__local)
#endif

// ---------------------------------------------------------------- float math
// Scalar float/double functions, then their vector forms component by
// component.
#define __SSIM_FMATH_BASIC(T)                                                           \
    __SSIM_FN T sqrt(T x) { return __builtin_elementwise_sqrt(x); }                     \
    __SSIM_FN T fabs(T x) { return __builtin_elementwise_abs(x); }                      \
    __SSIM_FN T floor(T x) { return __builtin_elementwise_floor(x); }                   \
    __SSIM_FN T ceil(T x) { return __builtin_elementwise_ceil(x); }                     \
    __SSIM_FN T trunc(T x) { return __builtin_elementwise_trunc(x); }                   \
    __SSIM_FN T round(T x) { return __builtin_elementwise_round(x); }                   \
    __SSIM_FN T rint(T x) { return __builtin_elementwise_rint(x); }                     \
    __SSIM_FN T fma(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); }       \
    __SSIM_FN T mad(T a, T b, T c) { return a * b + c; }                                \
    __SSIM_FN T fmin(T x, T y) { return __builtin_elementwise_min(x, y); }              \
    __SSIM_FN T fmax(T x, T y) { return __builtin_elementwise_max(x, y); }              \
    __SSIM_FN T min(T x, T y) { return __builtin_elementwise_min(x, y); }               \
    __SSIM_FN T max(T x, T y) { return __builtin_elementwise_max(x, y); }               \
    __SSIM_FN T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                 \
    __SSIM_FN T copysign(T x, T y) { return __builtin_elementwise_copysign(x, y); }     \
    __SSIM_FN T hypot(T x, T y) { return sqrt(x * x + y * y); }                         \
    __SSIM_FN T mix(T x, T y, T a) { return x + (y - x) * a; }                          \
    __SSIM_FN T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                    \
    __SSIM_FN T smoothstep(T e0, T e1, T x)                                             \
    {                                                                                   \
        T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                                  \
        return t * t * ((T)3 - (T)2 * t);                                               \
    }                                                                                   \
    __SSIM_FN T sign(T x) { return x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : (T)0; }          \
    __SSIM_FN T degrees(T x) { return x * (T)57.29577951308232; }                       \
    __SSIM_FN T radians(T x) { return x * (T)0.017453292519943295; }                    \
    __SSIM_VEC1(T, sqrt, T) __SSIM_VEC1(T, fabs, T) __SSIM_VEC1(T, floor, T)            \
    __SSIM_VEC1(T, ceil, T) __SSIM_VEC1(T, trunc, T) __SSIM_VEC1(T, round, T)           \
    __SSIM_VEC1(T, rint, T) __SSIM_VEC1(T, rsqrt, T) __SSIM_VEC1(T, sign, T)            \
    __SSIM_VEC1(T, degrees, T) __SSIM_VEC1(T, radians, T)                               \
    __SSIM_VEC2(T, fmin, T, T) __SSIM_VEC2(T, fmax, T, T) __SSIM_VEC2(T, min, T, T)     \
    __SSIM_VEC2(T, max, T, T) __SSIM_VEC2(T, copysign, T, T) __SSIM_VEC2(T, hypot, T, T) \
    __SSIM_VEC2(T, step, T, T)                                                          \
    __SSIM_VEC3(T, fma, T) __SSIM_VEC3(T, mad, T) __SSIM_VEC3(T, clamp, T)              \
    __SSIM_VEC3(T, mix, T) __SSIM_VEC3(T, smoothstep, T)                                \
    __SSIM_VEC_SCALAR2(fmin, T) __SSIM_VEC_SCALAR2(fmax, T) __SSIM_VEC_SCALAR2(min, T)  \
    __SSIM_VEC_SCALAR2(max, T) __SSIM_VEC_SCALAR3(clamp, T) __SSIM_SCALAR_EDGE(T)
// The transcendental functions, float only: the AMDGPU backend has no inline
// expansion of the double-precision intrinsics (ocml computes them with
// polynomials this header does not reproduce; a call is an error).
#define __SSIM_FMATH_TRANSCENDENTAL(T)                                                  \
    __SSIM_FN T exp(T x) { return __builtin_elementwise_exp(x); }                       \
    __SSIM_FN T exp2(T x) { return __builtin_elementwise_exp2(x); }                     \
    __SSIM_FN T exp10(T x) { return __builtin_elementwise_exp2(x * (T)3.321928094887362); } \
    __SSIM_FN T log(T x) { return __builtin_elementwise_log(x); }                       \
    __SSIM_FN T log2(T x) { return __builtin_elementwise_log2(x); }                     \
    __SSIM_FN T log10(T x) { return __builtin_elementwise_log10(x); }                   \
    __SSIM_FN T sin(T x) { return __builtin_elementwise_sin(x); }                       \
    __SSIM_FN T cos(T x) { return __builtin_elementwise_cos(x); }                       \
    __SSIM_FN T tan(T x) { return sin(x) / cos(x); }                                    \
    __SSIM_FN T pow(T x, T y) { return exp2(y * log2(x)); }                             \
    __SSIM_FN T powr(T x, T y) { return exp2(y * log2(x)); }                            \
    __SSIM_FN T pown(T x, int n) { return exp2((T)n * log2(x)); }                       \
    __SSIM_FN T rootn(T x, int n) { return exp2(log2(x) / (T)n); }                      \
    __SSIM_VEC1(T, exp, T) __SSIM_VEC1(T, exp2, T) __SSIM_VEC1(T, exp10, T)             \
    __SSIM_VEC1(T, log, T) __SSIM_VEC1(T, log2, T) __SSIM_VEC1(T, log10, T)             \
    __SSIM_VEC1(T, sin, T) __SSIM_VEC1(T, cos, T) __SSIM_VEC1(T, tan, T)                \
    __SSIM_VEC2(T, pow, T, T) __SSIM_VEC2(T, powr, T, T) __SSIM_VEC2(T, pown, T, int)   \
    __SSIM_VEC2(T, rootn, T, int)
// v_rsq, as ocml's rsqrt.
__SSIM_FN float rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
__SSIM_FMATH_BASIC(float)
__SSIM_FMATH_TRANSCENDENTAL(float)
#ifdef cl_khr_fp64
__SSIM_FN double rsqrt(double x) { return __builtin_amdgcn_rsq(x); }
__SSIM_FMATH_BASIC(double)
#endif

// native_* and half_*: the hardware instruction alone. v_sin_f32 and
// v_cos_f32 take the angle in revolutions, hence the multiply by 1/(2 pi).
#define __SSIM_NATIVE(PFX)                                                              \
    __SSIM_FN float PFX##sqrt(float x) { return __builtin_amdgcn_sqrtf(x); }             \
    __SSIM_FN float PFX##rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }             \
    __SSIM_FN float PFX##recip(float x) { return __builtin_amdgcn_rcpf(x); }             \
    __SSIM_FN float PFX##divide(float x, float y) { return x * __builtin_amdgcn_rcpf(y); } \
    __SSIM_FN float PFX##exp2(float x) { return __builtin_amdgcn_exp2f(x); }             \
    __SSIM_FN float PFX##exp(float x) { return __builtin_amdgcn_exp2f(x * M_LOG2E_F); }  \
    __SSIM_FN float PFX##exp10(float x) { return __builtin_amdgcn_exp2f(x * 3.321928094887362f); } \
    __SSIM_FN float PFX##log2(float x) { return __builtin_amdgcn_logf(x); }              \
    __SSIM_FN float PFX##log(float x) { return __builtin_amdgcn_logf(x) * M_LN2_F; }     \
    __SSIM_FN float PFX##log10(float x) { return __builtin_amdgcn_logf(x) * 0.30102999566398120f; } \
    __SSIM_FN float PFX##sin(float x) { return __builtin_amdgcn_sinf(x * M_1_PI_F * 0.5f); } \
    __SSIM_FN float PFX##cos(float x) { return __builtin_amdgcn_cosf(x * M_1_PI_F * 0.5f); } \
    __SSIM_FN float PFX##tan(float x) { return PFX##sin(x) * __builtin_amdgcn_rcpf(PFX##cos(x)); } \
    __SSIM_FN float PFX##powr(float x, float y)                                         \
    {                                                                                   \
        return __builtin_amdgcn_exp2f(y * __builtin_amdgcn_logf(x));                    \
    }                                                                                   \
    __SSIM_VEC1(float, PFX##sqrt, float) __SSIM_VEC1(float, PFX##rsqrt, float)          \
    __SSIM_VEC1(float, PFX##recip, float) __SSIM_VEC1(float, PFX##exp2, float)          \
    __SSIM_VEC1(float, PFX##exp, float) __SSIM_VEC1(float, PFX##exp10, float)           \
    __SSIM_VEC1(float, PFX##log2, float) __SSIM_VEC1(float, PFX##log, float)            \
    __SSIM_VEC1(float, PFX##log10, float) __SSIM_VEC1(float, PFX##sin, float)           \
    __SSIM_VEC1(float, PFX##cos, float) __SSIM_VEC1(float, PFX##tan, float)             \
    __SSIM_VEC2(float, PFX##divide, float, float) __SSIM_VEC2(float, PFX##powr, float, float)
__SSIM_NATIVE(native_)
__SSIM_NATIVE(half_)

// ---------------------------------------------------------------- geometric
#define __SSIM_GEOMETRIC(T)                                                             \
    __SSIM_FN T dot(T x, T y) { return x * y; }                                         \
    __SSIM_FN T dot(T##2 x, T##2 y) { return x.s0 * y.s0 + x.s1 * y.s1; }               \
    __SSIM_FN T dot(T##3 x, T##3 y) { return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2; } \
    __SSIM_FN T dot(T##4 x, T##4 y)                                                     \
    {                                                                                   \
        return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3;                   \
    }                                                                                   \
    __SSIM_FN T##3 cross(T##3 a, T##3 b)                                                \
    {                                                                                   \
        return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); \
    }                                                                                   \
    __SSIM_FN T##4 cross(T##4 a, T##4 b)                                                \
    {                                                                                   \
        return (T##4)(cross(a.xyz, b.xyz), (T)0);                                       \
    }
#define __SSIM_GEOMETRIC_N(T, V)                                                        \
    __SSIM_FN T length(V x) { return sqrt(dot(x, x)); }                                 \
    __SSIM_FN T distance(V x, V y) { return length(x - y); }                            \
    __SSIM_FN V normalize(V x) { return x * rsqrt(dot(x, x)); }                         \
    __SSIM_FN T fast_length(V x) { return half_sqrt(dot(x, x)); }                       \
    __SSIM_FN T fast_distance(V x, V y) { return fast_length(x - y); }                  \
    __SSIM_FN V fast_normalize(V x) { return x * half_rsqrt(dot(x, x)); }
__SSIM_GEOMETRIC(float)
__SSIM_GEOMETRIC_N(float, float)
__SSIM_GEOMETRIC_N(float, float2)
__SSIM_GEOMETRIC_N(float, float3)
__SSIM_GEOMETRIC_N(float, float4)
#ifdef cl_khr_fp64
__SSIM_GEOMETRIC(double)
#define __SSIM_GEOMETRIC_D(V)                                                           \
    __SSIM_FN double length(V x) { return sqrt(dot(x, x)); }                            \
    __SSIM_FN double distance(V x, V y) { return length(x - y); }                       \
    __SSIM_FN V normalize(V x) { return x * rsqrt(dot(x, x)); }
__SSIM_GEOMETRIC_D(double)
__SSIM_GEOMETRIC_D(double2)
__SSIM_GEOMETRIC_D(double3)
__SSIM_GEOMETRIC_D(double4)
#endif

// ---------------------------------------------------------------- integer
// min/max/clamp work on vectors directly; the rest component by component.
#define __SSIM_IMINMAX(T)                                                               \
    __SSIM_FN T min(T x, T y) { return __builtin_elementwise_min(x, y); }               \
    __SSIM_FN T max(T x, T y) { return __builtin_elementwise_max(x, y); }               \
    __SSIM_FN T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                 \
    __SSIM_FN T add_sat(T x, T y) { return __builtin_elementwise_add_sat(x, y); }       \
    __SSIM_FN T sub_sat(T x, T y) { return __builtin_elementwise_sub_sat(x, y); }
// Scalar integer functions of a signed type S, its unsigned U, width BITS.
#define __SSIM_INT(S, U, BITS)                                                          \
    __SSIM_ALL_N(__SSIM_IMINMAX, S)                                                     \
    __SSIM_ALL_N(__SSIM_IMINMAX, U)                                                     \
    __SSIM_VEC_SCALAR2(min, S) __SSIM_VEC_SCALAR2(max, S) __SSIM_VEC_SCALAR3(clamp, S)  \
    __SSIM_VEC_SCALAR2(min, U) __SSIM_VEC_SCALAR2(max, U) __SSIM_VEC_SCALAR3(clamp, U)  \
    __SSIM_FN U abs(S x) { return x < 0 ? (U)0 - (U)x : (U)x; }                         \
    __SSIM_FN U abs(U x) { return x; }                                                  \
    __SSIM_FN U abs_diff(S x, S y) { return x > y ? (U)x - (U)y : (U)y - (U)x; }        \
    __SSIM_FN U abs_diff(U x, U y) { return x > y ? x - y : y - x; }                    \
    __SSIM_FN S hadd(S x, S y) { return (x >> 1) + (y >> 1) + (x & y & 1); }            \
    __SSIM_FN U hadd(U x, U y) { return (x >> 1) + (y >> 1) + (x & y & 1); }            \
    __SSIM_FN S rhadd(S x, S y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }         \
    __SSIM_FN U rhadd(U x, U y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }         \
    __SSIM_FN U popcount(U x) { return (U)__builtin_popcountg(x); }                     \
    __SSIM_FN S popcount(S x) { return (S)__builtin_popcountg((U)x); }                  \
    __SSIM_FN U clz(U x) { return x ? (U)__builtin_clzg(x) : (U)BITS; }                 \
    __SSIM_FN S clz(S x) { return (S)clz((U)x); }                                       \
    __SSIM_FN U ctz(U x) { return x ? (U)__builtin_ctzg(x) : (U)BITS; }                 \
    __SSIM_FN S ctz(S x) { return (S)ctz((U)x); }                                       \
    __SSIM_FN U rotate(U v, U i)                                                        \
    {                                                                                   \
        U n = i & (U)(BITS - 1);                                                        \
        return n ? (U)((v << n) | (v >> ((U)BITS - n))) : v;                            \
    }                                                                                   \
    __SSIM_FN S rotate(S v, S i) { return (S)rotate((U)v, (U)i); }                      \
    __SSIM_VEC1(U, abs, S) __SSIM_VEC1(U, abs, U) __SSIM_VEC2(U, abs_diff, S, S)        \
    __SSIM_VEC2(U, abs_diff, U, U) __SSIM_VEC2(S, hadd, S, S) __SSIM_VEC2(U, hadd, U, U) \
    __SSIM_VEC2(S, rhadd, S, S) __SSIM_VEC2(U, rhadd, U, U) __SSIM_VEC1(U, popcount, U) \
    __SSIM_VEC1(S, popcount, S) __SSIM_VEC1(U, clz, U) __SSIM_VEC1(S, clz, S)          \
    __SSIM_VEC1(U, ctz, U) __SSIM_VEC1(S, ctz, S) __SSIM_VEC2(U, rotate, U, U)         \
    __SSIM_VEC2(S, rotate, S, S)
__SSIM_INT(char, uchar, 8)
__SSIM_INT(short, ushort, 16)
__SSIM_INT(int, uint, 32)
__SSIM_INT(long, ulong, 64)

// mul_hi / mad_hi through the double-width product (v_mul_hi_*).
__SSIM_FN int mul_hi(int x, int y) { return (int)(((long)x * (long)y) >> 32); }
__SSIM_FN uint mul_hi(uint x, uint y) { return (uint)(((ulong)x * (ulong)y) >> 32); }
__SSIM_FN int mad_hi(int x, int y, int z) { return mul_hi(x, y) + z; }
__SSIM_FN uint mad_hi(uint x, uint y, uint z) { return mul_hi(x, y) + z; }
// mul24 / mad24: the 24-bit operands the backend turns into v_mul_{i,u}32_{i,u}24.
__SSIM_FN int mul24(int x, int y) { return ((x << 8) >> 8) * ((y << 8) >> 8); }
__SSIM_FN uint mul24(uint x, uint y) { return (x & 0xffffffu) * (y & 0xffffffu); }
__SSIM_FN int mad24(int x, int y, int z) { return mul24(x, y) + z; }
__SSIM_FN uint mad24(uint x, uint y, uint z) { return mul24(x, y) + z; }
__SSIM_VEC2(int, mul_hi, int, int)
__SSIM_VEC2(uint, mul_hi, uint, uint)
__SSIM_VEC2(int, mul24, int, int)
__SSIM_VEC2(uint, mul24, uint, uint)
__SSIM_VEC3(int, mad24, int)
__SSIM_VEC3(uint, mad24, uint)
__SSIM_VEC3(int, mad_hi, int)
__SSIM_VEC3(uint, mad_hi, uint)

// ---------------------------------------------------------------- vload / vstore
// vloadN / vstoreN need only the element's alignment: the under-aligned
// vector types below say so. The generic-pointer forms serve __global,
// __local and __private pointers (OpenCL 2.0), one more form __constant.
#define __SSIM_VLOAD_AS(T, N, AS)                                                       \
    __SSIM_FN T##N vload##N(size_t i, const AS T *p)                                    \
    {                                                                                   \
        return *(const AS __ssim_u_##T##N *)(p + i * N);                                \
    }
#define __SSIM_VSTORE_AS(T, N, AS)                                                      \
    __SSIM_FN void vstore##N(T##N v, size_t i, AS T *p) { *(AS __ssim_u_##T##N *)(p + i * N) = v; }
#define __SSIM_VLOAD3_AS(T, AS)                                                         \
    __SSIM_FN T##3 vload3(size_t i, const AS T *p)                                      \
    {                                                                                   \
        return (T##3)(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]);                            \
    }
#define __SSIM_VSTORE3_AS(T, AS)                                                        \
    __SSIM_FN void vstore3(T##3 v, size_t i, AS T *p)                                   \
    {                                                                                   \
        p[i * 3] = v.s0;                                                                \
        p[i * 3 + 1] = v.s1;                                                            \
        p[i * 3 + 2] = v.s2;                                                            \
    }
#ifdef __opencl_c_generic_address_space
#define __SSIM_VLOAD_ALL_AS(T, N)                                                       \
    __SSIM_VLOAD_AS(T, N, ) __SSIM_VLOAD_AS(T, N, __constant) __SSIM_VSTORE_AS(T, N, )
#define __SSIM_VLOAD3_ALL_AS(T)                                                         \
    __SSIM_VLOAD3_AS(T, ) __SSIM_VLOAD3_AS(T, __constant) __SSIM_VSTORE3_AS(T, )
#else
// Without a generic address space, one form per address space.
#define __SSIM_VLOAD_ALL_AS(T, N)                                                       \
    __SSIM_VLOAD_AS(T, N, __global) __SSIM_VLOAD_AS(T, N, __local)                      \
    __SSIM_VLOAD_AS(T, N, __private) __SSIM_VLOAD_AS(T, N, __constant)                  \
    __SSIM_VSTORE_AS(T, N, __global) __SSIM_VSTORE_AS(T, N, __local)                    \
    __SSIM_VSTORE_AS(T, N, __private)
#define __SSIM_VLOAD3_ALL_AS(T)                                                         \
    __SSIM_VLOAD3_AS(T, __global) __SSIM_VLOAD3_AS(T, __local)                          \
    __SSIM_VLOAD3_AS(T, __private) __SSIM_VLOAD3_AS(T, __constant)                      \
    __SSIM_VSTORE3_AS(T, __global) __SSIM_VSTORE3_AS(T, __local)                        \
    __SSIM_VSTORE3_AS(T, __private)
#endif
#define __SSIM_VLOADN(T, N)                                                             \
    typedef T##N __attribute__((aligned(sizeof(T)))) __ssim_u_##T##N;                   \
    __SSIM_VLOAD_ALL_AS(T, N)
#define __SSIM_VLOAD(T)                                                                 \
    __SSIM_VLOADN(T, 2) __SSIM_VLOADN(T, 4) __SSIM_VLOADN(T, 8) __SSIM_VLOADN(T, 16)    \
    __SSIM_VLOAD3_ALL_AS(T)
__SSIM_VLOAD(char)
__SSIM_VLOAD(uchar)
__SSIM_VLOAD(short)
__SSIM_VLOAD(ushort)
__SSIM_VLOAD(int)
__SSIM_VLOAD(uint)
__SSIM_VLOAD(long)
__SSIM_VLOAD(ulong)
__SSIM_VLOAD(float)
__SSIM_IF_FP64(__SSIM_VLOAD(double))

// ---------------------------------------------------------------- conversions
// convert_<D><N>(<S><N>): the plain conversion; float to integer in the
// four rounding modes through rint (rte), trunc (rtz), ceil (rtp), floor
// (rtn) first. The _sat forms are not provided.
#define __SSIM_CONV_N(D, S, N)                                                          \
    __SSIM_FN D##N convert_##D##N(S##N x) { return __builtin_convertvector(x, D##N); }
#define __SSIM_CONV(D, S)                                                               \
    __SSIM_FN D convert_##D(S x) { return (D)x; }                                       \
    __SSIM_CONV_N(D, S, 2) __SSIM_CONV_N(D, S, 3) __SSIM_CONV_N(D, S, 4)                \
    __SSIM_CONV_N(D, S, 8) __SSIM_CONV_N(D, S, 16)
#define __SSIM_CONV_ROUND_N(D, S, N)                                                    \
    __SSIM_FN D##N convert_##D##N##_rte(S##N x) { return convert_##D##N(rint(x)); }     \
    __SSIM_FN D##N convert_##D##N##_rtz(S##N x) { return convert_##D##N(x); }           \
    __SSIM_FN D##N convert_##D##N##_rtp(S##N x) { return convert_##D##N(ceil(x)); }     \
    __SSIM_FN D##N convert_##D##N##_rtn(S##N x) { return convert_##D##N(floor(x)); }
#define __SSIM_CONV_ROUND(D, S)                                                         \
    __SSIM_CONV_ROUND_N(D, S, ) __SSIM_CONV_ROUND_N(D, S, 2) __SSIM_CONV_ROUND_N(D, S, 3) \
    __SSIM_CONV_ROUND_N(D, S, 4) __SSIM_CONV_ROUND_N(D, S, 8) __SSIM_CONV_ROUND_N(D, S, 16)
#define __SSIM_CONV_FROM(S)                                                             \
    __SSIM_CONV(char, S) __SSIM_CONV(uchar, S) __SSIM_CONV(short, S)                    \
    __SSIM_CONV(ushort, S) __SSIM_CONV(int, S) __SSIM_CONV(uint, S)                     \
    __SSIM_CONV(long, S) __SSIM_CONV(ulong, S) __SSIM_CONV(float, S)                    \
    __SSIM_IF_FP64(__SSIM_CONV(double, S))
#define __SSIM_CONV_ROUND_FROM(S)                                                       \
    __SSIM_CONV_ROUND(char, S) __SSIM_CONV_ROUND(uchar, S) __SSIM_CONV_ROUND(short, S)  \
    __SSIM_CONV_ROUND(ushort, S) __SSIM_CONV_ROUND(int, S) __SSIM_CONV_ROUND(uint, S)   \
    __SSIM_CONV_ROUND(long, S) __SSIM_CONV_ROUND(ulong, S)
__SSIM_CONV_FROM(char)
__SSIM_CONV_FROM(uchar)
__SSIM_CONV_FROM(short)
__SSIM_CONV_FROM(ushort)
__SSIM_CONV_FROM(int)
__SSIM_CONV_FROM(uint)
__SSIM_CONV_FROM(long)
__SSIM_CONV_FROM(ulong)
__SSIM_CONV_FROM(float)
__SSIM_CONV_ROUND_FROM(float)
#ifdef cl_khr_fp64
__SSIM_CONV_FROM(double)
__SSIM_CONV_ROUND_FROM(double)
#endif

#endif
