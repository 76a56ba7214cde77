"""Numba's on-disk cache of the project's compiled kernels, trusted only once it loads.

Covers: `warmed(warm)`, which runs a family's warm-up (a call of every
kernel on a tiny input, compiling them or loading them from numba's cache,
``cache=True``). First, every cache file of the kernels loaded so far (each
kernel's index and data files) that is not a regular file of a plausible
size is refused in one warning line, and that kernel's cache emptied
(numba opens its files with a plain `open`, so a FIFO there would block the
run for ever, and reads them whole): the file is removed if it is a pipe,
device or socket (`mobius.cpmodel.cache_files`), the kernel compiled afresh
and stored anew. Then a damaged cache file (truncated, overwritten: numba
fails in whatever its unpickling meets) would otherwise fail every later run
with a traceback; here the cache index of every kernel loaded so far is
emptied and the warm-up runs once more, so the kernels are compiled afresh
and stored anew. A failure that survives a fresh compile is a real fault and
propagates.

Leaves out: the kernels (`crossword/compiled.py`, `slider/compiled.py`,
`slider/pdb.py`, …) and when to warm them (their solvers, and the slider
heuristic before it builds tables).
"""

from __future__ import annotations

import glob
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from mobius.cpmodel.cache_files import Damaged, open_entry, warn_on_stderr

T = TypeVar("T")

# A kernel's cache files come to a few hundred kB; past this a file was not written by numba,
# which would read it whole.
MAX_KERNEL_FILE_BYTES = 64 << 20


def warmed(warm: Callable[[], T]) -> T:
    """`warm()`, after unusable cache files are refused; run again on an emptied cache if loading the
    cached kernels failed."""
    refuse_unusable_files()
    try:
        return warm()
    except Exception:  # noqa: BLE001 - whatever a damaged cache raises; a second failure propagates
        forget_cached_kernels()
        return warm()


def forget_cached_kernels() -> None:
    """Empty the cache index of every numba kernel in the project's loaded modules."""
    for kernel in _kernels():
        kernel._cache.flush()


def refuse_unusable_files() -> None:
    """Empty the cache of each loaded kernel one of whose cache files is not a regular file of at most
    MAX_KERNEL_FILE_BYTES (a pipe, device or socket is removed), saying so in one line on stderr."""
    for kernel in _kernels():
        cache = kernel._cache
        files = getattr(cache, "_cache_file", None)
        if files is None:  # a kernel compiled without cache=True
            continue
        for path in _cache_files(Path(cache._cache_path), files._index_name):
            try:
                with open_entry(path, MAX_KERNEL_FILE_BYTES, "numba kernel cache file"):
                    pass
            except FileNotFoundError:
                continue
            except Damaged as exc:
                warn_on_stderr(f"{exc}; not used, the kernel compiled afresh")
                _empty(cache)
                break


def _kernels() -> Iterator[Any]:
    """The numba dispatchers of the project's loaded modules."""
    from numba.core.dispatcher import Dispatcher

    for name, module in list(sys.modules.items()):
        if name.startswith("mobius.cpmodel") and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, Dispatcher):
                    yield value


def _cache_files(directory: Path, index_name: str) -> list[Path]:
    """A kernel's index file and its data files (``NAME.nbi``, ``NAME.<n>.nbc``)."""
    base = index_name.removesuffix(".nbi")
    return [directory / index_name, *directory.glob(f"{glob.escape(base)}.*.nbc")]


def _empty(cache: Any) -> None:
    """An emptied index, so numba reads none of the kernel's data files; where the index cannot be
    written, the kernel's cache is left unused for this process."""
    try:
        cache.flush()
    except OSError:
        cache.disable()
