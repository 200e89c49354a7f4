"""Tests of the `shadersim` Python package (issue 48 items 2 and 5), run by
scripts/test-python.sh after `pip install .` in a fresh venv.

The expected numbers come from the committed Triton fixtures' own statements: the metadata
json (num_warps, warp_size, shared) and LLVM's `; Occupancy:` comment in the `.amdgcn`
listing Triton kept beside the code object.
"""
import collections
import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import shadersim

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "triton"
SOFTMAX = FIXTURES / "gfx942" / "softmax_kernel"


def llvm_occupancy(entry: Path) -> int:
    listing = (entry / (entry.name + ".amdgcn")).read_text()
    line = next(l for l in listing.splitlines() if l.startswith("; Occupancy:"))
    return int(line.split(":")[1])


def metadata(entry: Path) -> dict:
    return json.loads((entry / (entry.name + ".json")).read_text())


def test_analyze_a_triton_entry_gives_the_occupancy():
    report = shadersim.analyze(str(SOFTMAX), grid=1024)
    md = metadata(SOFTMAX)
    # LLVM states 8 waves per SIMD for this kernel (15 VGPRs bind nothing below the 8 slots
    # of a CDNA 3 SIMD).
    assert report["occupancy"]["waves_per_simd"] == llvm_occupancy(SOFTMAX) == 8
    # Block = num_warps x warp_size = 8 x 64: 8 waves per workgroup. The 1024 programs are
    # the launch; the CU simulated (the busiest) runs ceil(1024 / 304 CUs) = 4 of them.
    assert report["kernel_time"]["workgroups"] == 1024
    assert report["workgroups"] == 4
    assert report["waves"] // report["workgroups"] == md["num_warps"] == 8
    # shared = 32 bytes of dynamic LDS, allocated in 512-byte granules (gcn's, cdna3's).
    assert md["shared"] == 32
    assert report["occupancy"]["lds_bytes"] == 512
    assert report["kernel_time_us"] > 0


def test_a_gfx1200_true16_gemm_gives_the_occupancy():
    # Triton's LLVM writes this GEMM's fp16 code with real true16 instructions
    # (`v_mov_b16_e32 v1.l, 0`), which the decoder reads as llvm-objdump-22
    # --mattr=+real-true16 does (issue 48).
    entry = FIXTURES / "gfx1200" / "matmul_kernel"
    report = shadersim.analyze(str(entry), grid=1024)
    md = metadata(entry)
    # LLVM: `; NumVgprs: 207`, `; Occupancy: 7` (207 VGPRs in wave32 blocks of 24 on the
    # 1536-VGPR RDNA 4 SIMD: 216 allocated, 1536 // 216 = 7 waves).
    assert report["occupancy"]["waves_per_simd"] == llvm_occupancy(entry) == 7
    assert report["occupancy"]["vgprs"] == 216
    # shared = 16384 bytes of dynamic LDS (a whole number of RDNA's 1024-byte granules);
    # block = num_warps x warp_size = 8 x 32; 1024 programs over the model's 64 CUs put 16
    # on the busiest.
    assert md["shared"] == report["occupancy"]["lds_bytes"] == 16384
    assert report["wave_size"] == md["warp_size"] == 32
    assert report["waves"] // report["workgroups"] == md["num_warps"] == 8
    assert report["workgroups"] == 16


def test_grid_forms_and_a_path_object():
    # (1024,) and "1024" are the same launch as 1024; a pathlib.Path is a path.
    a = shadersim.analyze(SOFTMAX, grid=(1024,))
    b = shadersim.analyze(str(SOFTMAX), grid="1024")
    assert a["kernel_time"]["workgroups"] == b["kernel_time"]["workgroups"] == 1024


def cli_binary():
    exe = os.environ.get("SHADERSIM_BIN") or shutil.which("shadersim")
    return exe if exe and os.path.exists(exe) else None


def test_the_dict_is_the_cli_json():
    exe = cli_binary()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("CI: SHADERSIM_BIN (the CLI binary) is needed to compare with the CLI")
        pytest.skip("no shadersim binary (set SHADERSIM_BIN) to compare with")
    out = subprocess.run([exe, "analyze", str(SOFTMAX), "--grid", "1024", "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    # Same keys in the same order, and the same values.
    cli = json.loads(out)
    py = shadersim.analyze(str(SOFTMAX), grid=1024)
    assert list(py) == list(cli)
    assert py == cli


def test_a_missing_file_raises_with_the_cli_message():
    with pytest.raises(shadersim.ShadersimError) as e:
        shadersim.analyze(str(FIXTURES / "nope"))
    assert str(e.value) == f"{FIXTURES / 'nope'}: error: cannot read: no such file"
    assert e.value.kind == "input"
    assert e.value.file is None


def test_a_bad_hints_file_raises_with_its_place(tmp_path):
    hints = tmp_path / "h.toml"
    hints.write_text('[dispatch]\nwaves = "many"\n')
    with pytest.raises(shadersim.ShadersimError) as e:
        shadersim.analyze(str(SOFTMAX), hints=hints)
    err = e.value
    # Line 2, column 9: the value `"many"` (after `waves = `).
    assert (err.file, err.line, err.column) == (str(hints), 2, 9)
    assert err.message.startswith(f"{hints}:2:9: error:")
    # The source line under it, as the CLI prints it.
    assert 'waves = "many"' in err.message


def test_bad_triton_metadata_names_the_json_line(tmp_path):
    shutil.copy(SOFTMAX / "softmax_kernel.hsaco", tmp_path)
    (tmp_path / "softmax_kernel.json").write_text('{\n "name": "softmax_kernel",\n "num_warps": 32,\n "warp_size": 64\n}')
    with pytest.raises(shadersim.ShadersimError) as e:
        shadersim.analyze(str(tmp_path))
    # 32 warps of 64 lanes is 2048 work-items, past a workgroup's 1024.
    assert f"softmax_kernel.json:3: error: `num_warps`" in str(e.value)


def test_usage_errors_are_usage():
    with pytest.raises(shadersim.ShadersimError) as e:
        shadersim.analyze(str(SOFTMAX), grid="abc")
    assert e.value.kind == "usage"
    assert "--grid abc" in e.value.message
    with pytest.raises(shadersim.ShadersimError):
        shadersim.occupancy(0)


def test_glsl_from_python_is_a_clear_error():
    # The command line builds GLSL pipelines in a child process of its own binary; a Python
    # process cannot be that child, and says so instead of running Python with its arguments.
    if shutil.which("glslangValidator") is None:
        pytest.skip("glslangValidator (glslang-tools) is not installed")
    frag = next((ROOT / "examples" / "glsl").glob("*.frag"))
    with pytest.raises(shadersim.ShadersimError) as e:
        shadersim.analyze(frag, arch="gfx1100")
    assert "compiled by the shadersim binary in a child process" in e.value.message


def test_occupancy_and_compare():
    # 104 VGPRs on CDNA 3: 512 per SIMD lane / 104 (a multiple of the 8-register granule)
    # = 4 waves.
    rows = shadersim.occupancy(104, arch="gfx942")
    assert [r["waves"] for r in rows] == [4]
    cmp = shadersim.compare(str(SOFTMAX), arch=["gfx942", "gfx90a"], grid=1024)
    assert [v["label"] for v in cmp["variants"]] == ["gfx942", "gfx90a"]


@dataclasses.dataclass(frozen=True)
class FakeTarget:
    """Shaped as triton.backends.compiler.GPUTarget."""
    backend: str
    arch: str
    warp_size: int


def test_from_triton_reads_asm_and_metadata_without_triton():
    # The object triton.compile returns carries asm["hsaco"] and a KernelMetadata namedtuple
    # whose `target` is a GPUTarget dataclass: built here from the committed fixture.
    md = metadata(SOFTMAX)
    md["target"] = FakeTarget(**md["target"])
    Meta = collections.namedtuple("KernelMetadata", sorted(md))
    Compiled = collections.namedtuple("Compiled", ["asm", "metadata"])
    compiled = Compiled({"hsaco": (SOFTMAX / "softmax_kernel.hsaco").read_bytes()}, Meta(**md))
    report = shadersim.from_triton(compiled, grid=1024)
    entry = shadersim.analyze(str(SOFTMAX), grid=1024)
    for key in ("occupancy", "clocks", "waves", "workgroups", "kernel_time"):
        assert report[key] == entry[key], key
    assert report["file"] == "<triton softmax_kernel>/softmax_kernel.hsaco"
    assert report["notes"][0].startswith("<triton softmax_kernel>/softmax_kernel.json: Triton")
    with pytest.raises(TypeError):
        shadersim.from_triton(object(), grid=1)


def test_from_triton_on_a_fresh_compilation():
    try:
        import triton
        import triton.language as tl
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
    except ImportError as e:
        if os.environ.get("CI"):
            pytest.fail(f"CI: triton must be installed (scripts/test-python.sh does): {e}")
        pytest.skip(f"triton is not importable ({e}); pip install triton to run this")

    # Fusion stated, as the fixtures' script does: Triton warns that its default changes.
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

    @triton.jit
    def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)

    src = ASTSource(fn=scale_kernel,
                    signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                               "BLOCK": "constexpr"},
                    constexprs={"BLOCK": 512})
    compiled = triton.compile(src, target=GPUTarget("hip", "gfx942", 64),
                              options={"num_warps": 2})
    report = shadersim.from_triton(compiled, grid=2048)
    # Block = num_warps x warp_size = 2 x 64: two wave64s per program.
    assert report["isa"] == "gfx942"
    assert report["kernel_time"]["workgroups"] == 2048
    assert report["wave_size"] == 64
    assert report["waves"] // report["workgroups"] == 2
    assert report["kernel_time_us"] > 0


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
