"""blacksquare, the filler a Python user would pick first, as an outside baseline: the `blacksquare` solver.

Covers: `BlacksquareSolver`, which hands a plane grid and the allowed words
to `blacksquare.Crossword.fill` (PyPI `blacksquare`, MIT: a Rust
backtracking engine run in this process) and reads its fill back into a
`Fill`, which the harness verifies like any other solver's. The package is
an optional extra (`pip install 'mobius-puzzles[blacksquare]'`); where it is
missing `available()` says so.

How our rules map onto blacksquare:
- lights: blacksquare takes every run of two or more white cells in a row
  or column of a plane grid as a word, so a problem is supported only where
  its lights are exactly those runs (`supports`): a glued surface, a
  minimum length above the grid's shortest run, or bars are refused;
- no repeated words: exact (``allow_repeats``);
- minimum score and excluded words: exact — the list holds only the words
  a light may take;
- prefilled letters: exact — they are written into the grid;
- word scores as a value order: approximate — blacksquare is given each
  word's score and orders by its own measure of it;
- the seed: blacksquare's fill at temperature 0 is deterministic, so the
  seed is not used.

What its answers mean: blacksquare returns no fill both when its search
ends and when its timeout passes, so no answer of it is a proof: a grid it
does not fill is reported as TIMEOUT, never UNSAT. Its timeout is checked by
its own engine, in this process; the harness's backstop covers a run that
outlives it.

Leaves out: blacksquare's own word list, its clue and .puz tools, and its
progress display (off).
"""

from __future__ import annotations

import importlib.util
import itertools
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from mobius.cpmodel.crossword.grid import BLOCK
from mobius.cpmodel.crossword.problem import Fill, FillProblem, cap_refusal
from mobius.cpmodel.deadline import deadline_of
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, option
from mobius.dictionaries import WordList

# A run of this many white cells or more is a word to blacksquare.
SHORTEST_RUN = 2
# blacksquare's fill takes a timeout in seconds; a solve without a time limit gets this many.
NO_LIMIT_S = 86_400.0


def installed() -> bool:
    return importlib.util.find_spec("blacksquare") is not None


def grid_runs(rows: tuple[str, ...]) -> set[tuple[tuple[int, int], ...]]:
    """The cells ((x, y)) of every run of `SHORTEST_RUN` or more white cells across and down."""
    height, width = len(rows), len(rows[0])
    lines = [[(x, y) for x in range(width)] for y in range(height)] + \
            [[(x, y) for y in range(height)] for x in range(width)]
    runs = set()
    for line in lines:
        for white, cells in itertools.groupby(line, key=lambda cell: rows[cell[1]][cell[0]] != BLOCK):
            run = tuple(cells)
            if white and len(run) >= SHORTEST_RUN:
                runs.add(run)
    return runs


@dataclass(frozen=True)
class BlacksquareSolver(SolverBase):
    """Fills with blacksquare's Rust engine, in this process (see the module docstring)."""

    name: ClassVar[str] = "blacksquare"

    temperature: float = option(0.0, minimum=0.0, help="blacksquare's randomness (0: its best word first)")

    def available(self) -> str | None:
        return None if installed() else \
            "the blacksquare package is not installed (pip install 'mobius-puzzles[blacksquare]')"

    def supports(self, problem: FillProblem) -> str | None:
        if refusal := cap_refusal(problem, "blacksquare"):
            return refusal
        grid = problem.grid
        if grid.surface.name != "plane":
            return f"blacksquare fills plane grids only, and this grid is on the {grid.surface.name} surface"
        if grid.bars_right or grid.bars_below:
            return "blacksquare has no bars, and this grid has some"
        lights = {tuple(light.cells) for light in problem.lights.lights}
        runs = grid_runs(grid.rows)
        if lights != runs:
            return (f"blacksquare takes every run of {SHORTEST_RUN}+ white cells as a word: this grid has "
                    f"{len(runs)} such runs and the problem {len(lights)} lights (--min-length "
                    f"{problem.rules.min_length})")
        return None

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        stats: dict[str, int | float] = {"lights": len(problem.lights.lights)}

        def result(status: Status, solution: Fill | None = None, **notes: str) -> SolveResult:
            return SolveResult(status, solution, self.name, time.perf_counter() - started, stats, notes)

        deadline = deadline_of(time_limit)  # the list and grid handed over count against the limit too
        refusal = self.available() or self.supports(problem)
        if refusal:
            return result(Status.ERROR, refused=refusal)
        import blacksquare  # loaded only for the runs that ask for it

        rules = problem.rules
        word_list = handed_words(problem.words, rules.min_score, rules.excluded)
        stats["words"] = len(word_list)
        crossword = blacksquare.Crossword(grid=grid_cells(problem), symmetry=None, word_list=word_list)
        left = min(deadline - time.perf_counter(), NO_LIMIT_S)
        if left <= 0:
            return result(Status.TIMEOUT)
        filled = crossword.fill(timeout=left, temperature=self.temperature,
                                allow_repeats=problem.rules.allow_repeats, show_progress=False)
        if filled is None:  # its search ended or its timeout passed: no proof either way
            return result(Status.TIMEOUT)
        return result(Status.SOLVED, read_cells(filled, problem))


def allowed_words(words: WordList, min_score: int, excluded: frozenset[str]) -> dict[str, float]:
    """Each word a light may take (scored `min_score` or more, not excluded), with its score."""
    return {w: float(words.score(w)) for w in words.words if words.score(w) >= min_score and w not in excluded}


@lru_cache(maxsize=4)
def handed_words(words: WordList, min_score: int, excluded: frozenset[str]) -> Any:
    """blacksquare's word list of `allowed_words`, built once per list and rules in a process (every
    length, so that grids of other lengths share it): building it from a large list costs more than most
    fills, and a user of blacksquare builds it once too."""
    import blacksquare

    return blacksquare.WordList(allowed_words(words, min_score, excluded))


def grid_cells(problem: FillProblem) -> list[list[str]]:
    """The grid as blacksquare's rows: '#' a block, a letter where one is given, ' ' open."""
    letters = problem.grid.letters
    return [["#" if ch == BLOCK else letters.get((x, y), " ") for x, ch in enumerate(row)]
            for y, row in enumerate(problem.grid.rows)]


def read_cells(filled: Any, problem: FillProblem) -> Fill:
    """The letters blacksquare wrote, by our (x, y) cell: every cell of a light."""
    letters = {cell.index: str(cell.str) for cell in filled.itercells()}
    return {(x, y): letters[(y, x)].upper() for light in problem.lights.lights for x, y in light.cells}
