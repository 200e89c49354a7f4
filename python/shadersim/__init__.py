"""shadersim: a cycle-level simulator of AMD GPU shaders, from Python.

The functions run the simulator in this process (the same Rust library the ``shadersim``
command line uses, no subprocess) and return the report the command line prints with
``--format json``, parsed into dicts and lists::

    import shadersim
    report = shadersim.analyze("K.hsaco", grid=1024)
    report["occupancy"]["waves_per_simd"], report["kernel_time_us"]

A Triton kernel straight from ``triton.compile`` (no GPU needed)::

    compiled = triton.compile(src, target=GPUTarget("hip", "gfx942", 64))
    shadersim.from_triton(compiled, grid=4096)["kernel_time_us"]

Errors raise :class:`ShadersimError` with the command line's message and its place.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _shadersim

__all__ = ["ShadersimError", "analyze", "compare", "occupancy", "from_triton", "__version__"]

__version__: str = _shadersim.__version__

PathLike = Union[str, "os.PathLike[str]"]
Dims = Union[int, str, Sequence[int]]


class ShadersimError(Exception):
    """A run that failed: bad input (a file that does not parse, a value out of range) or
    options that do not go together.

    ``str(error)`` is what the command line prints on standard error: its first line is
    ``FILE:LINE:COL: error: ...`` when the error is about a place in a file, then the source
    line with a caret, then notes.

    Attributes:
        message: that text.
        file, line, column: the place (1-based), or None when the error names none.
        kind: ``"input"`` (the command line's exit code 1) or ``"usage"`` (exit code 2).
    """

    def __init__(self, message: str, file: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None, kind: str = "input") -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind


def _dims(value: Optional[Dims], what: str) -> Optional[str]:
    """``1024``, ``(64, 64)`` or ``"64x64"`` as the command line's ``GX[xGY[xGZ]]``."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, a sequence of ints or a string, not bool")
    if isinstance(value, int):
        return str(value)
    try:
        parts = [int(v) for v in value]
    except TypeError:
        raise TypeError(f"{what} must be an int, a sequence of ints or a string, "
                        f"not {type(value).__name__}") from None
    return "x".join(str(p) for p in parts)


def _pairs(values: Optional[Mapping[str, Any]]) -> List[Tuple[str, str]]:
    """A mapping as the command line's ``NAME=VALUE`` pairs (values printed with str)."""
    if not values:
        return []
    return [(str(k), str(v)) for k, v in values.items()]


def _path(value: Optional[PathLike]) -> Optional[str]:
    return None if value is None else os.fspath(value)


def _call(binding: Any, *args: Any, _rename: Optional[Tuple[str, str]] = None,
          **kwargs: Any) -> Any:
    """Run a binding and parse its JSON, raising ShadersimError for its errors. ``_rename``
    replaces a temporary folder's path by a name in the report and the error."""
    def renamed(text: Any) -> Any:
        if _rename is None or not isinstance(text, str):
            return text
        return text.replace(_rename[0], _rename[1])

    try:
        text = binding(*args, **kwargs)
    except ValueError as e:
        # The binding's ValueError carries (message, file, line, column, kind).
        if len(e.args) == 5:
            message, file, line, column, kind = e.args
            raise ShadersimError(renamed(message), renamed(file), line, column, kind) from None
        raise
    if _rename is not None:
        # The path as JSON writes it inside a string.
        text = text.replace(json.dumps(_rename[0])[1:-1], json.dumps(_rename[1])[1:-1])
    return json.loads(text)


def analyze(path: PathLike, arch: Optional[str] = None, grid: Optional[Dims] = None,
            block: Optional[Dims] = None, args: Optional[Mapping[str, Any]] = None,
            hints: Optional[PathLike] = None, *, sets: Optional[Mapping[str, Any]] = None,
            function: Optional[str] = None, defines: Optional[Sequence[str]] = None
            ) -> Dict[str, Any]:
    """Simulate the program at ``path`` and return the report as a dict.

    The dict is ``shadersim analyze PATH --format json`` parsed: ``clocks``, ``occupancy``,
    ``bottleneck``, ``kernel_time_us`` (with a grid), ``instructions`` and the rest, as
    docs/cli.md describes.

    Args:
        path: a listing, code object (``.hsaco``, ``.co``, ELF), Triton cache entry folder,
            or source shadersim compiles in place (OpenCL C).
        arch: model, model file (``.toml``) or GPU (``gfx942``); default: the file's GPU.
        grid: workgroups per dimension (Triton: programs per axis), ``1024`` or ``(64, 64)``.
        block: work-items per workgroup; a Triton entry's default is num_warps x warp_size.
        args: kernel argument values by source name, ``{"n": 1 << 20}``.
        hints: a hints file (TOML).
        sets: model parameters and dispatch keys overridden, ``{"vmem_latency": 300}``.
        function: the program to run when the file holds several.
        defines: OpenCL C preprocessor definitions, ``["BLOCK=16"]``.

    Raises:
        ShadersimError: the input or the options are wrong (the command line's message).
    """
    return _call(_shadersim.analyze_json, os.fspath(path), arch=arch, hints=_path(hints),
                 sets=_pairs(sets), function=function, grid=_dims(grid, "grid"),
                 block=_dims(block, "block"), args=_pairs(args), defines=list(defines or []))


def compare(a: PathLike, b: Optional[PathLike] = None,
            arch: Union[None, str, Sequence[str]] = None,
            grid: Optional[Dims] = None, block: Optional[Dims] = None,
            args: Optional[Mapping[str, Any]] = None, hints: Optional[PathLike] = None, *,
            sets: Optional[Mapping[str, Any]] = None, function: Optional[str] = None,
            defines: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Compare two programs, or one program on several models, as
    ``shadersim compare --format json``: ``{"variants": [...], "deltas": [...],
    "verdicts": [...]}``.

    Args:
        a, b: the two programs; with ``b`` None, ``arch`` lists the models (``"gfx942,gfx90a"``
            or a sequence of names).
        The other arguments are :func:`analyze`'s, applied to every variant.

    Raises:
        ShadersimError: the input or the options are wrong.
    """
    paths = [os.fspath(a)] + ([] if b is None else [os.fspath(b)])
    if arch is not None and not isinstance(arch, str):
        arch = ",".join(arch)
    return _call(_shadersim.compare_json, paths, arch=arch, hints=_path(hints),
                 sets=_pairs(sets), function=function, grid=_dims(grid, "grid"),
                 block=_dims(block, "block"), args=_pairs(args), defines=list(defines or []))


def occupancy(regs: int, arch: Union[None, str, Sequence[str]] = None,
              wave_size: Optional[int] = None, lds: Optional[int] = None,
              workgroup: Optional[int] = None) -> List[Dict[str, Any]]:
    """Waves per SIMD (warps per SM sub-partition, ...) at ``regs`` registers per thread on
    every model with occupancy rules, as ``shadersim occupancy --format json``: one dict per
    architecture unit.

    Args:
        regs: registers per thread (AMD: VGPRs per wave), 1 to 4096.
        arch: a model name, comma-separated names or a sequence; default: every model.
        wave_size: AMD wave size, 32 or 64 (default: each model's own).
        lds: LDS bytes per workgroup (needs ``workgroup``).
        workgroup: threads per workgroup.

    Raises:
        ShadersimError: a value out of range or an unknown model.
    """
    if isinstance(arch, str):
        archs = [a.strip() for a in arch.split(",")]
    else:
        archs = list(arch or [])
    return _call(_shadersim.occupancy_json, regs, archs=archs, wave_size=wave_size, lds=lds,
                 workgroup=workgroup)


def _jsonable(value: Any) -> Any:
    """Triton metadata values JSON does not know: GPUTarget (a dataclass), namedtuples."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if hasattr(value, "_asdict"):
        return value._asdict()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def _metadata_dict(metadata: Any) -> Dict[str, Any]:
    if isinstance(metadata, Mapping):
        return dict(metadata)
    if hasattr(metadata, "_asdict"):
        return dict(metadata._asdict())
    if dataclasses.is_dataclass(metadata) and not isinstance(metadata, type):
        return dataclasses.asdict(metadata)
    raise TypeError("from_triton: `metadata` must be Triton's KernelMetadata namedtuple "
                    f"or a dict, not {type(metadata).__name__}")


def from_triton(compiled: Any, grid: Optional[Dims] = None, *, arch: Optional[str] = None,
                block: Optional[Dims] = None, args: Optional[Mapping[str, Any]] = None,
                hints: Optional[PathLike] = None, sets: Optional[Mapping[str, Any]] = None
                ) -> Dict[str, Any]:
    """Analyze a kernel ``triton.compile`` returned, launched on ``grid`` programs.

    Reads ``compiled.asm["hsaco"]`` (the code object) and ``compiled.metadata`` (``name``,
    ``num_warps``, ``warp_size``, ``shared``, ``target``): the block is num_warps x
    warp_size, the dynamic LDS is ``shared``, the model is the target's GPU. The two are
    laid out as a Triton cache entry (``K.hsaco`` beside ``K.json``) in a temporary folder,
    read as ``shadersim analyze ENTRY --grid GRID`` reads one, in this process; the report
    and errors name that folder ``<triton NAME>``.

    Args:
        compiled: the ``CompiledKernel`` (or any object with ``asm`` and ``metadata``).
        grid: Triton's programs per axis, ``1024`` or ``(64, 8)``; without one the report
            runs a default launch and notes it.
        The other arguments are :func:`analyze`'s.

    Raises:
        ShadersimError: the code object or metadata is not readable.
        TypeError: ``compiled`` has no ``asm["hsaco"]`` or no ``metadata``.
    """
    asm = getattr(compiled, "asm", None)
    hsaco = asm.get("hsaco") if isinstance(asm, Mapping) else None
    if not isinstance(hsaco, (bytes, bytearray)):
        raise TypeError("from_triton: expected the object triton.compile returns, with the "
                        "code object in asm['hsaco'] (an AMD target)")
    if getattr(compiled, "metadata", None) is None:
        raise TypeError("from_triton: the compiled kernel has no `metadata`")
    metadata = _metadata_dict(compiled.metadata)
    name = str(metadata.get("name") or "kernel")
    with tempfile.TemporaryDirectory(prefix="shadersim-triton-") as entry:
        with open(os.path.join(entry, name + ".hsaco"), "wb") as f:
            f.write(bytes(hsaco))
        with open(os.path.join(entry, name + ".json"), "w") as f:
            json.dump(metadata, f, default=_jsonable, indent=1)
        # The report names the entry `<triton NAME>`, not the folder that is gone after.
        return _call(_shadersim.analyze_json, entry, arch=arch, hints=_path(hints),
                     sets=_pairs(sets), function=None, grid=_dims(grid, "grid"),
                     block=_dims(block, "block"), args=_pairs(args), defines=[],
                     _rename=(entry, f"<triton {name}>"))
