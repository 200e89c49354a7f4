"""Type hints of the ``shadersim`` package (the docstrings are in __init__.py)."""

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

PathLike = Union[str, os.PathLike[str]]
Dims = Union[int, str, Sequence[int]]

__version__: str

class ShadersimError(Exception):
    """A failed run: the command line's message, its place and kind."""

    message: str
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    kind: str
    def __init__(self, message: str, file: Optional[str] = ..., line: Optional[int] = ...,
                 column: Optional[int] = ..., kind: str = ...) -> None: ...

def analyze(path: PathLike, arch: Optional[str] = ..., grid: Optional[Dims] = ...,
            block: Optional[Dims] = ..., args: Optional[Mapping[str, Any]] = ...,
            hints: Optional[PathLike] = ..., *, sets: Optional[Mapping[str, Any]] = ...,
            function: Optional[str] = ..., defines: Optional[Sequence[str]] = ...
            ) -> Dict[str, Any]:
    """Simulate the program at ``path``: ``shadersim analyze --format json`` as a dict."""

def compare(a: PathLike, b: Optional[PathLike] = ...,
            arch: Union[None, str, Sequence[str]] = ..., grid: Optional[Dims] = ...,
            block: Optional[Dims] = ..., args: Optional[Mapping[str, Any]] = ...,
            hints: Optional[PathLike] = ..., *, sets: Optional[Mapping[str, Any]] = ...,
            function: Optional[str] = ..., defines: Optional[Sequence[str]] = ...
            ) -> Dict[str, Any]:
    """Two programs, or one on several models: ``shadersim compare --format json``."""

def occupancy(regs: int, arch: Union[None, str, Sequence[str]] = ...,
              wave_size: Optional[int] = ..., lds: Optional[int] = ...,
              workgroup: Optional[int] = ...) -> List[Dict[str, Any]]:
    """Occupancy at ``regs`` registers per thread: ``shadersim occupancy --format json``."""

def from_triton(compiled: Any, grid: Optional[Dims] = ..., *, arch: Optional[str] = ...,
                block: Optional[Dims] = ..., args: Optional[Mapping[str, Any]] = ...,
                hints: Optional[PathLike] = ..., sets: Optional[Mapping[str, Any]] = ...
                ) -> Dict[str, Any]:
    """Analyze the kernel ``triton.compile`` returned, launched on ``grid`` programs."""
