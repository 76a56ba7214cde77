"""Instance files others can run: MiniZinc (`minizinc.py`), XCSP3 (`xcsp3.py`)
and DIMACS CNF (`dimacs.py`), for both puzzle families.

Covers: `crossword_instance` and `slider_instance`, which pick the writer
for a format (a .mzn is the shipped model followed by the data, a .dzn the
data alone); every writer returns text and touches no disk (the CLI writes
the file). Leaves out: solving those files (the backends in `cpmodel/crossword`
and `cpmodel/slider` run the same models) and reading them back.
"""

from __future__ import annotations

from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.tables import fill_tables
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.instances import dimacs, minizinc, xcsp3
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.bounds import distance_bound
from mobius.cpmodel.slider.timed import horizons, one_blank_refusal

FORMATS = ("mzn", "dzn", "xcsp3", "cnf")


def crossword_instance(problem: FillProblem, fmt: str, *, full_tables: bool = False) -> str:
    """The fill problem in `fmt`; the tables after AC-3 unless `full_tables` (then only the unary filters).

    InputError when the tables alone prove that no fill exists: such an
    instance would have an empty table, which most formats cannot hold."""
    tables = fill_tables(problem, arc_consistent=not full_tables)
    if tables is None:
        raise InputError("no fill exists: a light has no word left after "
                         + ("the length, score and letter filters" if full_tables else "arc consistency")
                         + "; there is no instance to write")
    writers = {"mzn": lambda: minizinc.model_text("crossword") + minizinc.crossword_dzn(tables),
               "dzn": lambda: minizinc.crossword_dzn(tables),
               "xcsp3": lambda: xcsp3.crossword_xcsp3(problem, tables),
               "cnf": lambda: dimacs.crossword_cnf(problem, tables)}
    return writers[_checked(fmt)]()


def first_horizon(problem: SliderProblem) -> int:
    """The shortest length the backends try first: the lower bound, raised to the solution parity."""
    return next(horizons(problem, distance_bound(problem) + 1))


def slider_instance(problem: SliderProblem, fmt: str, *, horizon: int | None = None) -> str:
    """"Reach the goal in exactly `horizon` moves" in `fmt` (default: `first_horizon`)."""
    refusal = one_blank_refusal(problem)
    if refusal:
        raise InputError(refusal)
    chosen = first_horizon(problem) if horizon is None else horizon
    if chosen < 0:
        raise InputError(f"--horizon {chosen}: expected a number of moves, 0 or more")
    writers = {"mzn": lambda: minizinc.model_text("slider") + minizinc.slider_dzn(problem, chosen),
               "dzn": lambda: minizinc.slider_dzn(problem, chosen),
               "xcsp3": lambda: xcsp3.slider_xcsp3(problem, chosen),
               "cnf": lambda: dimacs.slider_cnf(problem, chosen)}
    return writers[_checked(fmt)]()


def _checked(fmt: str) -> str:
    if fmt not in FORMATS:
        raise InputError(f"unknown instance format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return fmt
