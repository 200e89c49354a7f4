"""Triton kernels as their users write them, compiled for AMD GPUs without a GPU.

Run by scripts/regen-triton-fixtures.sh: compiles each kernel for each target with
`triton.compile` into the Triton cache named by TRITON_CACHE_DIR, then copies each cache
entry's `K.hsaco`, `K.json` (the launch metadata: num_warps, warp_size, shared, target)
and `K.amdgcn` (LLVM's listing, with its `; Occupancy:` comments) to OUT/<gfx>/<kernel>/.
"""
import os
import shutil
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # The tutorial's vector add: one program per BLOCK_SIZE elements.
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    # The tutorial's row softmax: one program per row; the row's max and sum are
    # reductions across the workgroup's waves (through LDS).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, row_stride, n_cols, eps,
                     BLOCK_SIZE: tl.constexpr):
    # The tutorial's fused layer norm forward: one program per row, two passes over the
    # row in BLOCK_SIZE chunks (mean, then variance), then normalize, scale and shift.
    row = tl.program_id(0)
    x_ptr += row * row_stride
    y_ptr += row * row_stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(x_ptr + cols, mask=cols < n_cols, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=0.).to(tl.float32)
        x = tl.where(cols < n_cols, x - mean, 0.)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # The tutorial's fp16 GEMM with fp32 accumulation: one program per BLOCK_M x BLOCK_N
    # tile of C, programs grouped GROUP_M tiles tall for L2 reuse, tl.dot over K.
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    first_m = (pid // per_group) * GROUP_M
    group_m = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % per_group) % group_m)
    pid_n = (pid % per_group) // group_m
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * cm[:, None] + stride_cn * cn[None, :]
    tl.store(c_ptrs, c, mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, seq_len,
                    stride_qm, stride_kn, stride_vn, stride_om, stride_head,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A flash-attention forward (non-causal): one program per BLOCK_M queries of one head
    # (axis 1); K and V streamed in BLOCK_N blocks with the online softmax (running max m_i
    # and sum l_i), fp16 tl.dot for Q K^T and P V, fp32 accumulation.
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    q_ptr += head * stride_head
    k_ptr += head * stride_head
    v_ptr += head * stride_head
    o_ptr += head * stride_head
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # exp2 instead of exp: scale by log2(e)
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptr + cols[None, :] * stride_kn + offs_d[:, None],
                    mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(cols[None, :] < seq_len, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + cols[:, None] * stride_vn + offs_d[None, :],
                    mask=cols[:, None] < seq_len, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(tl.float16),
             mask=offs_m[:, None] < seq_len)


KERNELS = {
    "add_kernel": ASTSource(
        fn=add_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                   "n_elements": "i32", "BLOCK_SIZE": "constexpr"},
        constexprs={"BLOCK_SIZE": 1024},
    ),
    "softmax_kernel": ASTSource(
        fn=softmax_kernel,
        signature={"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32",
                   "out_row_stride": "i32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"},
        constexprs={"BLOCK_SIZE": 1024},
    ),
    "layernorm_kernel": ASTSource(
        fn=layernorm_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "w_ptr": "*fp32", "b_ptr": "*fp32",
                   "row_stride": "i32", "n_cols": "i32", "eps": "fp32",
                   "BLOCK_SIZE": "constexpr"},
        constexprs={"BLOCK_SIZE": 1024},
    ),
    "matmul_kernel": ASTSource(
        fn=matmul_kernel,
        signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16",
                   "M": "i32", "N": "i32", "K": "i32",
                   "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32",
                   "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "i32",
                   "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr",
                   "GROUP_M": "constexpr"},
        constexprs={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8},
    ),
    "attn_fwd_kernel": ASTSource(
        fn=attn_fwd_kernel,
        signature={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16",
                   "sm_scale": "fp32", "seq_len": "i32", "stride_qm": "i32",
                   "stride_kn": "i32", "stride_vn": "i32", "stride_om": "i32",
                   "stride_head": "i32", "HEAD_DIM": "constexpr", "BLOCK_M": "constexpr",
                   "BLOCK_N": "constexpr"},
        constexprs={"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64},
    ),
}
# num_warps as the tutorials launch them (Triton's default is 4): wide rows with 8 warps.
NUM_WARPS = {"softmax_kernel": 8, "layernorm_kernel": 8, "matmul_kernel": 8,
             "attn_fwd_kernel": 4}
# Triton's defaults per target: wave64 on CDNA, wave32 on RDNA.
TARGETS = [("gfx90a", 64), ("gfx942", 64), ("gfx1100", 32), ("gfx1200", 32)]


def main(out):
    cache = os.environ["TRITON_CACHE_DIR"]
    for arch, warp in TARGETS:
        for name, src in KERNELS.items():
            opts = {"num_warps": NUM_WARPS[name]} if name in NUM_WARPS else {}
            k = triton.compile(src, target=GPUTarget("hip", arch, warp), options=opts)
            dest = os.path.join(out, arch, name)
            os.makedirs(dest, exist_ok=True)
            # The entry is the cache folder holding this compilation's files.
            found = [d for d in os.listdir(cache)
                     if os.path.exists(os.path.join(cache, d, name + ".hsaco"))
                     and k.metadata.hash in open(os.path.join(cache, d, name + ".json")).read()]
            entry = os.path.join(cache, found[0])
            for ext in ("hsaco", "json", "amdgcn"):
                shutil.copy(os.path.join(entry, f"{name}.{ext}"), dest)
            print(f"{arch}/{name}: num_warps={k.metadata.num_warps} "
                  f"warp_size={k.metadata.warp_size} shared={k.metadata.shared}")


if __name__ == "__main__":
    main(sys.argv[1])
