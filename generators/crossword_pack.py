"""Crossword packs: one job = a fillable pattern filled from a word list.

Covers: `CrosswordPackSpec` — the parameters of `mobius pack crossword` —
and its job: generate a seeded pattern for the surface, fill it with a
registered solver, and when the solver proves the pattern unfillable (or
runs out of its budget) reject it and try the next seeded pattern, counting
rejections. Also the independent re-check of a finished puzzle from its JSON
alone (pattern constraints, lights, dictionary words, no repeats). Leaves out:
running jobs and writing files (`pack.py`), formats (`export/`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cpmodel.crossword.grid import Grid, make_grid
from cpmodel.crossword.problem import FillProblem, FillRules
from cpmodel.crossword.verify import verify
from cpmodel.solver import Status, get_solver, parse_spec
from dictionaries import WordList, from_words, load
from generators.pack import Avoid, PackError, derive_seed
from generators.patterns import PatternSpec, check_pattern, generate_pattern
from generators.puzzles import crossword_puzzle

# A pattern the solver cannot fill within its budget is replaced; past this
# many replacements the size/dictionary combination is hopeless, and saying
# so beats looping forever.
MAX_PATTERN_ATTEMPTS = 200
# Fill budgets that are the same on every machine, so that which patterns get
# rejected — and so the pack's bytes — never depend on the machine's speed or
# load; the wall-clock --time-limit stays as a backstop. A pattern that needs
# more than this is usually one that a fresh pattern beats.
DETERMINISTIC_BUDGETS = {"reference": ("max_backtracks", 2000), "cpsat": ("deterministic_time", 5.0)}


@dataclass(frozen=True)
class CrosswordPackSpec:
    count: int
    width: int
    height: int
    surface: str = "mobius"
    dictionary: str = "en"
    # Words met in print; below it the embedded list has obscure entries (UCA, NEESE).
    min_score: int = 30
    solver: str = "reference"
    seed: int = 0
    time_limit: float | None = 10.0
    unique_answers: bool = False  # no answer repeated across the pack
    min_length: int = 3
    checked: bool = True
    symmetry: str = "rot180"
    max_seam_crossings: int | None = 1
    # Longest light; None = the grid's longer side, which keeps entries
    # readable and fillable (a wrapped light could otherwise run to 2W − 1).
    max_length: int | None = None
    clues: Mapping[str, str] = field(default_factory=dict, compare=False)
    kind: str = "crossword"

    @property
    def sequential(self) -> bool:
        return self.unique_answers

    @property
    def solver_spec(self) -> str:
        """The solver spec with its deterministic budget unless one is given."""
        name, options = parse_spec(self.solver)
        if name in DETERMINISTIC_BUDGETS:
            key, value = DETERMINISTIC_BUDGETS[name]
            options.setdefault(key, value)
        return name + ":" + ",".join(f"{k}={v}" for k, v in sorted(options.items())) if options else name

    def parameters(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "width": self.width, "height": self.height,
                "surface": self.surface, "dictionary": self.dictionary, "min_score": self.min_score,
                "solver": self.solver_spec, "seed": self.seed, "time_limit": self.time_limit,
                "unique_answers": self.unique_answers, "min_length": self.min_length, "checked": self.checked,
                "symmetry": self.symmetry, "max_seam_crossings": self.max_seam_crossings,
                "max_length": self.pattern_spec().max_length,
                "clues": len(self.clues)}

    def describe(self) -> dict[str, Any]:
        words = self.words()
        return {"dictionary": {"name": self.dictionary, "sha256": words.content_hash, "words": len(words)}}

    # -- the job ------------------------------------------------------------------------

    def pattern_spec(self) -> PatternSpec:
        return PatternSpec(self.width, self.height, self.surface, min_length=self.min_length, checked=self.checked,
                           symmetry=self.symmetry, max_seam_crossings=self.max_seam_crossings,
                           max_length=self.max_length or max(self.width, self.height))

    def rules(self) -> FillRules:
        return FillRules(min_length=self.min_length, allow_repeats=False,
                         max_seam_crossings=self.max_seam_crossings, min_score=self.min_score)

    def words(self, exclude: frozenset[str] = frozenset()) -> WordList:
        words = load(self.dictionary, min_score=self.min_score)
        if not exclude:
            return words
        kept = [(w, s) for w, s in zip(words.words, words.scores) if w not in exclude]
        return from_words([w for w, _ in kept], [s for _, s in kept], name=words.name)

    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]:
        words = self.words(avoid.words)
        solver = get_solver("crossword", self.solver_spec)
        rules = self.rules()
        for attempt in range(MAX_PATTERN_ATTEMPTS):
            seed = derive_seed(self.seed, index, attempt)
            problem = FillProblem(generate_pattern(self.pattern_spec(), seed), words, rules)
            result = solver.solve(problem, time_limit=self.time_limit, seed=seed)
            if result.status is not Status.SOLVED:
                continue
            puzzle = crossword_puzzle(problem, result.solution, puzzle_id=f"{index + 1:04d}",
                                      solver=parse_spec(self.solver)[0], stats=result.stats, seed=seed,
                                      clues=self.clues)
            puzzle["rejected"] = attempt
            if self.key(puzzle) not in avoid.keys:
                return puzzle
        raise PackError(f"puzzle {index + 1}: no fillable {self.width}x{self.height} {self.surface} pattern in "
                        f"{MAX_PATTERN_ATTEMPTS} attempts; try a larger --time-limit, another size or dictionary")

    # -- what the runner needs -------------------------------------------------------------

    def key(self, puzzle: Mapping[str, Any]) -> str:
        return "/".join(puzzle["rows"])

    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]:
        return frozenset(e["answer"] for e in puzzle["entries"])

    def verify(self, puzzle: Mapping[str, Any]) -> list[str]:
        """Re-check a puzzle from its JSON: pattern rules, lights and fill."""
        try:
            grid, fill = _grid_and_fill(puzzle)
        except (KeyError, TypeError, ValueError) as exc:
            return [f"malformed puzzle JSON: {exc}"]
        if (grid.width, grid.height, grid.surface.name) != (self.width, self.height, self.surface):
            return [f"puzzle is {grid.width}x{grid.height} {grid.surface.name}, the pack asks for "
                    f"{self.width}x{self.height} {self.surface}"]
        problems = check_pattern(grid, self.pattern_spec())
        problem = FillProblem(grid, self.words(), self.rules())
        problems += verify(problem, fill)
        listed = [(e["number"], e["direction"], [tuple(c) for c in e["cells"]], e["answer"])
                  for e in puzzle["entries"]]
        actual = [(light.number, light.direction, list(light.cells), word)
                  for light, word in zip(problem.lights.lights, problem.entries(fill))]
        if listed != actual:
            problems.append("the entries listed do not match the grid's lights and letters")
        return problems


def _grid_and_fill(puzzle: Mapping[str, Any]) -> tuple[Grid, dict[tuple[int, int], str]]:
    rows = puzzle["rows"]
    pattern = ["".join("#" if ch == "#" else "." for ch in row) for row in rows]
    grid = make_grid(pattern, puzzle["surface"], bars_right=[tuple(c) for c in puzzle.get("bars_right", [])],
                     bars_below=[tuple(c) for c in puzzle.get("bars_below", [])])
    fill = {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "#"}
    return grid, fill
