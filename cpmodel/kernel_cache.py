"""Numba's on-disk cache of the project's compiled kernels, trusted only once it loads.

Covers: `warmed(warm)`, which runs a family's warm-up (a call of every
kernel on a tiny input, compiling them or loading them from numba's cache,
``cache=True``). A damaged cache file (truncated, overwritten: numba fails
in whatever its unpickling meets) would otherwise fail every later run with
a traceback; here the cache index of every kernel loaded so far is emptied
and the warm-up runs once more, so the kernels are compiled afresh and
stored anew. A failure that survives a fresh compile is a real fault and
propagates.

Leaves out: the kernels (`crossword/compiled.py`, `slider/compiled.py`,
`slider/pdb.py`, …) and when to warm them (their solvers).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def warmed(warm: Callable[[], T]) -> T:
    """`warm()`, run again on an emptied cache if loading the cached kernels failed."""
    try:
        return warm()
    except Exception:  # noqa: BLE001 - whatever a damaged cache raises; a second failure propagates
        forget_cached_kernels()
        return warm()


def forget_cached_kernels() -> None:
    """Empty the cache index of every numba kernel in the project's loaded modules."""
    from numba.core.dispatcher import Dispatcher

    for name, module in list(sys.modules.items()):
        if name.startswith("mobius.cpmodel") and module is not None:
            for value in vars(module).values():
                if isinstance(value, Dispatcher):
                    value._cache.flush()
