"""Which solvers a benchmark runs: the `--solvers` syntax (`parse_solver_list`)
and, per family of a suite, the specs that run and those left out because
they cannot run here (`plan_solvers`: a module not written yet, Qxw not
installed), each with a note.

Leaves out: running the solvers (`harness.py`) and judging their answers
(`agreement.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mobius.benchmarks.suites import Suite
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.solver import get_solver, parse_spec, solver_names

_OPTION = re.compile(r"^\s*[A-Za-z_][\w-]*\s*=")  # "key=value": continues the previous solver's options


def parse_solver_list(text: str) -> list[str]:
    """Split a solver list into specs.

    Solvers are separated by commas (or semicolons). A comma followed by
    ``key=value`` continues the options of the solver before it, since solver
    names never contain '=': ``reference:select=mrv,inference=fc,cpsat:workers=2``
    is two solvers. Semicolons always separate, for lists that read better so.
    """
    specs: list[str] = []
    for group in text.split(";"):
        items = [item.strip() for item in group.split(",") if item.strip()]
        for index, item in enumerate(items):
            if index > 0 and _OPTION.match(item):
                specs[-1] += ("," if ":" in specs[-1] else ":") + item
            else:
                specs.append(item)
    if not specs:
        raise InputError(f"no solvers in {text!r}")
    return specs


@dataclass(frozen=True)
class SolverPlan:
    by_family: Mapping[str, tuple[str, ...]]  # family -> solver specs that run
    left_out: tuple[str, ...] = ()  # notes on specs that cannot run here

    def require(self, spec: str) -> None:
        """InputError unless `spec` runs in this plan (e.g. the chosen baseline)."""
        running = sorted({s for specs in self.by_family.values() for s in specs})
        if spec not in running:
            raise InputError(f"{spec!r} is not among the solvers that run: {', '.join(running) or 'none'}")


def plan_solvers(suite: Suite, families: Iterable[str], specs: Sequence[str] | None) -> SolverPlan:
    """The specs to run per family: `specs` where their name exists in that family, else the suite's defaults.

    A bad spec raises InputError; a solver that cannot run here is left out with a note.
    """
    families = sorted(set(families))
    if specs is not None:
        unknown = [s for s in specs if not any(parse_spec(s)[0] in solver_names(f) for f in families)]
        if unknown:
            known = {f: solver_names(f) for f in families}
            raise InputError(f"unknown solver(s) {', '.join(unknown)} for this suite; known: {known}")
    by_family: dict[str, tuple[str, ...]] = {}
    left_out: list[str] = []
    for family in families:
        wanted = suite.solvers.get(family, ()) if specs is None else \
            [s for s in specs if parse_spec(s)[0] in solver_names(family)]
        runnable = []
        for spec in wanted:
            reason = _unavailable(family, spec)
            if reason is None:
                runnable.append(spec)
            else:
                left_out.append(f"{family} solver {spec} left out: {reason}")
        by_family[family] = tuple(runnable)
    return SolverPlan(by_family, tuple(left_out))


def _unavailable(family: str, spec: str) -> str | None:
    """Why `spec` cannot run here, or None. Bad options raise InputError."""
    try:
        solver = get_solver(family, spec)
    except ImportError as exc:
        return f"cannot import it ({exc})"
    return solver.available()
