"""The solver protocol, the result type and the registry of solvers.

Covers: `Status`, `SolveResult` and its stats written as text (`stat_text`,
`stats_text`: a count as a whole number), the `Solver` protocol every solver follows,
`Budget` (the deterministic work budget an option of a solver sets:
`budget_of`, `budget_text` with the spec that raises it, and `budget_spent`:
whether a TIMEOUT ran out of it rather than out of wall-clock time), and the registry that maps (family, name) to a solver, with variant specs such
as ``reference:select=domwdeg,inference=ac3``. Other packages add solvers
through the entry-point group `PLUGIN_GROUP` (``mobius.solvers``), each entry
named ``FAMILY.NAME`` and pointing at a `SolverBase` subclass
(``crossword.mysolver = "mypkg.solver:MySolver"``); a built-in name wins over
a plugin's. Leaves out: any solving; each solver lives in its own module and
is imported only when asked for, so that loading the registry costs nothing
(the installed entry points are read only when a name is not built in, or
the solvers are listed).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import math
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Protocol, runtime_checkable

from mobius.cpmodel.errors import InputError


class Status(Enum):
    SOLVED = "SOLVED"
    UNSAT = "UNSAT"  # no fill exists / goal unreachable
    TIMEOUT = "TIMEOUT"
    ERROR = "ERROR"


# The standard numeric stat keys; a solver adds its own beside them.
#   nodes       search nodes expanded           backtracks  failed branches
#   conflicts   CP-SAT/SAT conflicts            branches    CP-SAT branches
#   setup_s     seconds spent before searching  length      moves in a slider solution
# Keys ending in "_s" are wall-clock seconds; everything else is the same on
# every machine for the same input and seed (packs keep only those).
STANDARD_STATS = ("nodes", "backtracks", "conflicts", "branches", "setup_s", "length")


@dataclass(frozen=True)
class SolveResult:
    """What every solver returns.

    `optimal`: True when the solution is proven best for the solver's
    objective (a shortest slider solution, a maximum-score fill); False when
    it is only feasible; None when the question does not arise or is
    unknown — every reader treats None as "not proven optimal".
    `stats` holds numbers only; free text (the heuristic used, why a goal is
    unreachable) goes to `notes`.
    """

    status: Status
    solution: object | None
    solver: str
    wall_s: float
    stats: dict[str, int | float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    optimal: bool | None = None


# --- stats as text ------------------------------------------------------------------

# A stat named with this suffix is seconds; every other stat whose values are whole numbers counts
# something (nodes, conflicts, table rows), and a count reads as a whole number even after a median.
SECONDS_SUFFIX = "_s"


def is_count(name: str, values: Iterable[int | float]) -> bool:
    """Whether the stat `name` with these values counts something (see `SECONDS_SUFFIX`)."""
    return not name.endswith(SECONDS_SUFFIX) and all(
        isinstance(v, int) or (isinstance(v, float) and v.is_integer()) for v in values)


def stat_text(value: int | float, *, count: bool, grouped: bool = False) -> str:
    """A stat as text: a count as a whole number, anything else to 3 decimals (whole past 100);
    `grouped` puts thousands separators in, for tables."""
    comma = "," if grouped else ""
    if count or abs(value) >= 100:
        return f"{round(value):{comma}}"
    return f"{value:{comma}.3f}"


def stats_text(stats: Mapping[str, int | float]) -> str:
    """A solver's stats as `name=value` pairs, for the commands' one-line reports."""
    return " ".join(f"{k}={stat_text(v, count=is_count(k, [v]))}" for k, v in stats.items())


@runtime_checkable
class Solver(Protocol):
    """A solver of one puzzle family. Options are the fields of the solver's
    (frozen) dataclass, declared with `option`; `get_solver` parses them."""

    name: ClassVar[str]

    def available(self) -> str | None:
        """Why this solver cannot run on this machine (a program or package missing), or None."""
        ...

    def supports(self, problem: Any) -> str | None:
        """Why this solver cannot take `problem` (e.g. several blanks), or None. Cheap: no solving."""
        ...

    def solve(self, problem: Any, *, time_limit: float | None = None, seed: int = 0) -> SolveResult: ...


class SolverBase:
    """Defaults for the protocol's questions: available everywhere, supports everything.
    Subclasses are frozen dataclasses whose fields are their options; one with a
    deterministic work budget names it in `budget`."""

    name: ClassVar[str] = ""
    budget: ClassVar[Budget | None] = None

    def __post_init__(self) -> None:
        check_options(self)

    def available(self) -> str | None:
        return None

    def supports(self, problem: Any) -> str | None:
        return None


# --- deterministic budgets --------------------------------------------------------

# CP-SAT stops on its deterministic time a hair either side of the limit: a work count within this
# share of the budget ran out of it.
BUDGET_SLACK = 1e-3


@dataclass(frozen=True)
class Budget:
    """A work budget one of a solver's options sets, the same on every machine
    (a wall-clock limit is not): what a TIMEOUT inside the time limit ran out of."""

    option: str  # the option that sets it: "max_backtracks"
    stat: str  # the stat that counts the work it bounds: "backtracks"
    unit: str  # the work as a reader names it: "backtracks"

    def text(self, value: float) -> str:
        """The budget as a line says it: "16,735 backtracks", "5 s of CP-SAT deterministic time"."""
        amount = f"{value:,}" if isinstance(value, int) else f"{value:,g}"
        return f"{amount} {self.unit}"


def budget_of(solver: Solver) -> tuple[Budget, float] | None:
    """The deterministic budget `solver` was given and its value, or None (it has none, or none is set)."""
    budget = getattr(type(solver), "budget", None)
    value = getattr(solver, budget.option, None) if budget is not None else None
    return None if value is None else (budget, value)


def budget_text(solver: Solver, given: str | None = None) -> str:
    """The budget of `solver` as a line says it, with the spec that doubles it: "16,735 backtracks
    (--solver reference:max_backtracks=33470 raises it)"; "" if it has none. The spec keeps the options
    of `given` (what the user typed, when a caller added options of its own), else all of the solver's."""
    found = budget_of(solver)
    if found is None:
        return ""
    budget, value = found
    doubled = type(value)(value * 2 or 1)
    if given is None:
        raised = spec_of(dataclasses.replace(solver, **{budget.option: doubled}))  # type: ignore[arg-type]
    else:
        name, options = parse_spec(given)
        raised = name + ":" + ",".join(f"{k}={v}" for k, v in {**options, budget.option: str(doubled)}.items())
    return f"{budget.text(value)} (--solver {raised} raises it)"


def budget_spent(solver: Solver, result: SolveResult) -> bool:
    """Whether `result` is a TIMEOUT that ran out of `solver`'s deterministic budget, rather than of its
    wall-clock time limit (a solver given no budget: never)."""
    given = budget_of(solver)
    if result.status is not Status.TIMEOUT or given is None:
        return False
    budget, value = given
    return result.stats.get(budget.stat, 0) >= value * (1 - BUDGET_SLACK)


# --- options: declared once per solver, parsed and checked here ----------------------

def option(default: Any, *, choices: Iterable[Any] | None = None, minimum: float | None = None,
           maximum: float | None = None, help: str = "") -> Any:
    """A solver option: a dataclass field with its allowed values in the metadata."""
    return field(default=default, metadata={"choices": tuple(choices) if choices is not None else None,
                                            "minimum": minimum, "maximum": maximum, "help": help})


# Numeric options are counts, seconds and flags; a value with more digits
# than this is a mistake, and refusing it early keeps int() off huge strings.
MAX_OPTION_CHARS = 40
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def _option_types(cls: type) -> dict[str, tuple[type, bool]]:
    """Field name -> (base type, None allowed), from the dataclass annotations."""
    hints = typing.get_type_hints(cls)
    types = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
        types[f.name] = (args[0], type(None) in typing.get_args(hint))
    return types


def _convert(name: str, text: str, kind: type, optional: bool) -> object:
    if optional and text.lower() == "none":
        return None
    if kind is not str and len(text) > MAX_OPTION_CHARS:
        raise ValueError(f"{name}={text[:MAX_OPTION_CHARS]}…: longer than {MAX_OPTION_CHARS} characters")
    try:
        if kind is bool:
            if text.lower() not in _TRUE + _FALSE:
                raise ValueError
            return text.lower() in _TRUE
        value = kind(text)
    except ValueError:
        expected = {bool: "true or false", int: "a whole number", float: "a number"}.get(kind, kind.__name__)
        raise ValueError(f"{name}={text!r}: expected {expected}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name}={text!r}: expected a finite number")
    return value


def check_options(solver: Any) -> None:
    """Check each option of a solver dataclass against its declared choices and range."""
    for f in dataclasses.fields(solver):
        value = getattr(solver, f.name)
        meta = f.metadata
        if value is None:
            continue
        if meta.get("choices") is not None and value not in meta["choices"]:
            raise ValueError(f"{f.name}={value!r}: expected one of {', '.join(map(str, meta['choices']))}")
        if meta.get("minimum") is not None and value < meta["minimum"]:
            raise ValueError(f"{f.name}={value!r}: expected at least {meta['minimum']}")
        if meta.get("maximum") is not None and value > meta["maximum"]:
            raise ValueError(f"{f.name}={value!r}: expected at most {meta['maximum']}")


def parse_options(cls: type, raw: Mapping[str, str]) -> dict[str, object]:
    """The option strings of a spec, converted to the types `cls` declares."""
    types = _option_types(cls)
    options = {}
    for key, text in raw.items():
        if key not in types:
            known = ", ".join(sorted(types)) or "none"
            raise ValueError(f"unknown option {key!r}; its options are: {known}")
        options[key] = _convert(key, text, *types[key])
    return options


def describe_options(cls: type) -> list[str]:
    """One line per option (name, type, default, allowed values) for help texts."""
    types = _option_types(cls)
    lines = []
    for f in dataclasses.fields(cls):
        kind, optional = types[f.name]
        allowed = f.metadata.get("choices")
        detail = "|".join(map(str, allowed)) if allowed else kind.__name__ + (" or none" if optional else "")
        lines.append(f"{f.name}={detail} (default {f.default}){': ' + f.metadata['help'] if f.metadata.get('help') else ''}")
    return lines


# CP-SAT takes a 32-bit signed seed; project seeds are any non-negative
# integer (packs derive 63-bit ones), so they are hashed down, not truncated,
# to keep nearby seeds apart.
CPSAT_SEED_BITS = 31


def cpsat_seed(seed: int) -> int:
    """A seed CP-SAT accepts (0 … 2³¹−1), derived deterministically from any integer seed."""
    digest = hashlib.sha256(str(seed).encode()).digest()
    return int.from_bytes(digest[:4], "big") >> (32 - CPSAT_SEED_BITS)


def cpsat_solver(seed: int, workers: int) -> Any:
    """A CP-SAT solver with the project's seed and worker count, leaving Ctrl-C to Python.

    CP-SAT otherwise installs a SIGINT handler of its own that outlives the
    solve and kills the process on the next Ctrl-C, skipping the CLI's
    one-line report and the pack's last manifest. Limits are the caller's:
    every model here has a deadline of its own.
    """
    from ortools.sat.python import cp_model  # CP-SAT loads only for the solvers that use it

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = cpsat_seed(seed)
    solver.parameters.catch_sigint_signal = False
    return solver


# family -> solver name -> "module:class". Imported lazily so that asking for
# the slider solvers never loads the crossword ones and vice versa.
_REGISTRY: dict[str, dict[str, str]] = {
    "crossword": {
        "reference": "mobius.cpmodel.crossword.reference:ReferenceSolver",
        "cpsat": "mobius.cpmodel.crossword.cpsat:CpSatFillSolver",
        "gecode": "mobius.cpmodel.crossword.minizinc:GecodeFillSolver",
        "choco": "mobius.cpmodel.crossword.choco:ChocoFillSolver",
        "sat": "mobius.cpmodel.crossword.sat:SatFillSolver",
        "qxw": "mobius.cpmodel.crossword.qxw:QxwSolver",
        "blacksquare": "mobius.cpmodel.crossword.blacksquare:BlacksquareSolver",
    },
    "slider": {
        "bfs": "mobius.cpmodel.slider.search:BfsSolver",
        "astar": "mobius.cpmodel.slider.search:AStarSolver",
        "idastar": "mobius.cpmodel.slider.search:IdaStarSolver",
        "cpsat": "mobius.cpmodel.slider.cpsat:CpSatSliderSolver",
        "gecode": "mobius.cpmodel.slider.minizinc:GecodeSliderSolver",
        "choco": "mobius.cpmodel.slider.choco:ChocoSliderSolver",
        "sat": "mobius.cpmodel.slider.sat:SatSliderSolver",
    },
}


# The entry-point group through which installed packages add solvers: entry names FAMILY.NAME.
PLUGIN_GROUP = "mobius.solvers"


def register(family: str, name: str, target: str) -> None:
    """Add a solver ("module:Class") to the registry in this process, e.g. an outside baseline."""
    _REGISTRY.setdefault(family, {})[name] = target


@functools.lru_cache(maxsize=1)
def plugin_solvers() -> dict[str, dict[str, tuple[str, str]]]:
    """family -> name -> ("module:Class", the distribution that declares it) for every installed entry point
    of `PLUGIN_GROUP` named FAMILY.NAME (others are ignored: they name no family)."""
    from importlib.metadata import entry_points

    found: dict[str, dict[str, tuple[str, str]]] = {}
    for entry in entry_points(group=PLUGIN_GROUP):
        family, dot, name = entry.name.partition(".")
        if dot and name:
            found.setdefault(family, {})[name] = (entry.value, entry.dist.name if entry.dist else "?")
    return found


def _table(family: str, name: str | None = None) -> dict[str, str]:
    """The solvers of `family`, name -> "module:Class": the built-in ones, and the plugins' where `name` is
    not built in (or none is given: every solver listed)."""
    builtin = _REGISTRY.get(family, {})
    if name is not None and name in builtin:
        return builtin
    plugins = {n: target for n, (target, _) in plugin_solvers().get(family, {}).items()}
    return {**plugins, **builtin}


def default_slider_solver(blanks: int) -> str:
    """IDA* keeps only its path in memory, so it suits one blank on any board;
    the heuristic searches take one blank, and BFS takes several."""
    return "idastar" if blanks == 1 else "bfs"


def solver_names(family: str, *, plugins: bool = True) -> list[str]:
    """The solvers of `family`: the built-in ones and, with `plugins`, those installed packages add."""
    return sorted(_table(family) if plugins else _REGISTRY.get(family, {}))


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its option strings."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise InputError(f"solver option {item!r} in {spec!r}: expected key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def solver_class(family: str, name: str) -> type:
    """The class registered as `name` in `family` (imported on first use)."""
    if family not in _REGISTRY:
        raise InputError(f"unknown puzzle family {family!r}; expected one of {', '.join(sorted(_REGISTRY))}")
    table = _table(family, name)
    if name not in table:
        raise InputError(f"unknown {family} solver {name[:MAX_OPTION_CHARS]!r}; expected one of "
                         f"{', '.join(sorted(table))}")
    module_name, _, class_name = table[name].partition(":")
    if name in _REGISTRY[family]:
        return getattr(importlib.import_module(module_name), class_name)
    return _plugin_class(family, name, module_name, class_name)


def _plugin_class(family: str, name: str, module_name: str, class_name: str) -> type:
    """A plugin's solver class, or one InputError saying what is wrong with it."""
    where = f"the {family} solver {name!r} of the installed plugin {plugin_solvers()[family][name][1]!r}"
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"{where} cannot be loaded ({module_name}:{class_name}: {exc})") from None
    if not (isinstance(cls, type) and issubclass(cls, SolverBase) and dataclasses.is_dataclass(cls)):
        raise InputError(f"{where} is not a solver: {module_name}:{class_name} should be a dataclass subclass of "
                         "mobius.cpmodel.solver.SolverBase")
    return cls


def get_solver(family: str, spec: str) -> Solver:
    """Build the solver named by `spec` (``name`` or ``name:key=value,…``), its options parsed by
    the types the solver declares; a bad option is an InputError naming it."""
    name, raw = parse_spec(spec)
    cls = solver_class(family, name)
    try:
        return cls(**parse_options(cls, raw))
    except ValueError as exc:  # a value of the wrong type, out of range, or a combination the solver refuses
        raise InputError(f"{family} solver {name!r}: {exc}") from None


def require_usable(solver: Solver, problem: Any) -> None:
    """InputError unless `solver` is available here and supports `problem` (asked before solving)."""
    refusal = solver.available() or solver.supports(problem)
    if refusal:
        raise InputError(f"solver {solver.name!r} cannot run this: {refusal}")


def spec_of(solver: Solver) -> str:
    """The spec that rebuilds `solver`: its name and the options that differ from their defaults."""
    changed = [f"{f.name}={getattr(solver, f.name)}".lower() if isinstance(getattr(solver, f.name), bool)
               else f"{f.name}={getattr(solver, f.name)}"
               for f in dataclasses.fields(solver) if getattr(solver, f.name) != f.default]
    return solver.name + (":" + ",".join(changed) if changed else "")
