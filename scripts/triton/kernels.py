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
}
# Triton's defaults per target: wave64 on CDNA, wave32 on RDNA.
TARGETS = [("gfx942", 64), ("gfx1100", 32)]


def main(out):
    cache = os.environ["TRITON_CACHE_DIR"]
    for arch, warp in TARGETS:
        for name, src in KERNELS.items():
            # softmax with 8 warps, as the tutorial launches wide rows.
            opts = {"num_warps": 8} if name == "softmax_kernel" else {}
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
