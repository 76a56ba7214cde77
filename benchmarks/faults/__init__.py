"""Fault injection from outside: the long cases of the fault suite, run as `python -m mobius.benchmarks.faults`.

Covers: a registry of fault families (`FAMILIES`), each a module of this
package exposing ``NAME`` (a short word), ``DESCRIPTION`` (one line) and
``run(cases: int, seed: int, workdir: Path) -> list[Outcome]``; `Outcome`,
one injected fault and what the tool did about it; and `discover`, which
imports every family module of the package. The tests under `tests/` hold
the short cases of the same families; this package runs many more, at random
moments and offsets drawn from an explicit seed, and prints a Markdown table
per family for `benchmarks/RESULTS.md`.

Leaves out: the tool itself (every case drives the real CLI or the real
store from outside) and the thresholds of the tests.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


@dataclass(frozen=True)
class Outcome:
    """One injected fault: what was done, how the tool ended, and whether that was right."""

    family: str
    case: str
    exit_code: int | None
    ok: bool
    detail: str = ""


def discover() -> dict[str, ModuleType]:
    """Every family module of this package by its ``NAME``."""
    families: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        families[module.NAME] = module
    return families


def run_family(module: ModuleType, cases: int, seed: int, workdir: Path) -> list[Outcome]:
    """The outcomes of `cases` faults of one family, in a directory of its own under `workdir`."""
    family_dir = workdir / module.NAME
    family_dir.mkdir(parents=True, exist_ok=True)
    return list(module.run(cases, seed, family_dir))
