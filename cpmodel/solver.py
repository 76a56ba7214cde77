"""The solver protocol, the result type and the registry of solvers.

Covers: `Status`, `SolveResult`, the `Solver` protocol every solver follows,
and the registry that maps (family, name) to a solver, with variant specs such
as ``reference:select=domwdeg,inference=ac3``. Leaves out: any solving; each
solver lives in its own module and is imported only when asked for, so that
loading the registry costs nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, runtime_checkable

from cpmodel.errors import InputError


class Status(Enum):
    SOLVED = "SOLVED"
    UNSAT = "UNSAT"  # no fill exists / goal unreachable
    TIMEOUT = "TIMEOUT"
    ERROR = "ERROR"


@dataclass(frozen=True)
class SolveResult:
    status: Status
    solution: object | None
    solver: str
    wall_s: float
    stats: dict[str, int | float] = field(default_factory=dict)


@runtime_checkable
class Solver(Protocol):
    name: str

    def solve(self, problem: Any, *, time_limit: float | None = None, seed: int = 0) -> SolveResult: ...


# family -> solver name -> "module:class". Imported lazily so that asking for
# the slider solvers never loads the crossword ones and vice versa.
_REGISTRY: dict[str, dict[str, str]] = {
    "crossword": {
        "reference": "cpmodel.crossword.reference:ReferenceSolver",
        "cpsat": "cpmodel.crossword.cpsat:CpSatFillSolver",
    },
    "slider": {
        "bfs": "cpmodel.slider.search:BfsSolver",
        "astar": "cpmodel.slider.search:AStarSolver",
        "idastar": "cpmodel.slider.search:IdaStarSolver",
        "cpsat": "cpmodel.slider.cpsat:CpSatSliderSolver",
    },
}


def register(family: str, name: str, target: str) -> None:
    """Add a solver ("module:Class") to the registry, e.g. an outside baseline."""
    _REGISTRY.setdefault(family, {})[name] = target


def require_choice(option: str, value: object, choices: Iterable[object]) -> None:
    """The check every solver constructor makes of a named strategy option."""
    choices = list(choices)
    if value not in choices:
        raise ValueError(f"unknown {option} {value!r}; expected one of {', '.join(map(str, choices))}")


def default_slider_solver(blanks: int) -> str:
    """IDA* keeps only its path in memory, so it suits one blank on any board;
    the heuristic searches take one blank, and BFS takes several."""
    return "idastar" if blanks == 1 else "bfs"


def solver_names(family: str) -> list[str]:
    return sorted(_REGISTRY.get(family, {}))


def _parse_value(text: str) -> object:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """Split ``name:key=value,key=value`` into the name and its options."""
    name, _, rest = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise InputError(f"solver option {item!r} in {spec!r}: expected key=value")
        options[key.strip()] = _parse_value(value.strip())
    return name.strip(), options


def get_solver(family: str, spec: str) -> Solver:
    """Build the solver named by `spec` (``name`` or ``name:key=value,…``)."""
    name, options = parse_spec(spec)
    table = _REGISTRY.get(family)
    if table is None:
        raise InputError(f"unknown puzzle family {family!r}; expected one of {sorted(_REGISTRY)}")
    if name not in table:
        raise InputError(f"unknown {family} solver {name!r}; expected one of {sorted(table)}")
    module_name, _, class_name = table[name].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    try:
        return cls(**options)
    except (TypeError, ValueError) as exc:  # an unknown option, or a value the solver refuses
        raise InputError(f"bad options for {family} solver {name!r}: {exc}") from None
