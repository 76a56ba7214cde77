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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cpmodel.crossword.grid import Grid, make_grid
from cpmodel.crossword.problem import FillProblem, FillRules
from cpmodel.crossword.verify import verify
from cpmodel.solver import Status, get_solver, parse_spec, require_usable
from dictionaries import WordList, adjusted, load
from generators.clues import ClueBank, ClueLines, clued_words, load_bank
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
    # Clues on: every entry gets one from the embedded bank (or extra_clues,
    # the lines of --clues FILE, which replace a word's embedded clues), and
    # the fill uses only words with a clue. Off (--no-clues): any word, no clue.
    clues: bool = True
    extra_clues: ClueLines = ()
    ban: frozenset[str] = frozenset()  # words never used (--ban FILE)
    allow: frozenset[str] = frozenset()  # words added to the dictionary (--allow FILE)
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
                "clues": self.clues, "extra_clues": len(self.extra_clues), "ban": sorted(self.ban),
                "allow": sorted(self.allow)}

    def describe(self) -> dict[str, Any]:
        words = self.words()
        bank = self.clue_bank()
        return {"dictionary": {"name": self.dictionary, "sha256": words.content_hash, "words": len(words)},
                "clue_bank": {"sha256": bank.sha256, "words": len(bank)} if bank else None}

    # -- the job ------------------------------------------------------------------------

    def pattern_spec(self) -> PatternSpec:
        return PatternSpec(self.width, self.height, self.surface, min_length=self.min_length, checked=self.checked,
                           symmetry=self.symmetry, max_seam_crossings=self.max_seam_crossings,
                           max_length=self.max_length or max(self.width, self.height))

    def rules(self) -> FillRules:
        return FillRules(min_length=self.min_length, allow_repeats=False,
                         max_seam_crossings=self.max_seam_crossings, min_score=self.min_score)

    def clue_bank(self) -> ClueBank | None:
        """The clues entries get (loaded once per process), or None with clues off."""
        return load_bank(self.extra_clues) if self.clues else None

    def words(self, exclude: frozenset[str] = frozenset()) -> WordList:
        """The fill's words: the dictionary with --allow added, --ban and `exclude` removed and,
        with clues on, only the words the clue bank can clue."""
        words = _pack_words(self.dictionary, self.min_score, self.allow, self.ban, self.clue_bank())
        return adjusted(words, ban=exclude) if exclude else words

    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]:
        words = self.words(avoid.words)
        solver = get_solver("crossword", self.solver_spec)
        rules = self.rules()
        for attempt in range(MAX_PATTERN_ATTEMPTS):
            seed = derive_seed(self.seed, index, attempt)
            problem = FillProblem(generate_pattern(self.pattern_spec(), seed), words, rules)
            require_usable(solver, problem)
            result = solver.solve(problem, time_limit=self.time_limit, seed=seed)
            if result.status is not Status.SOLVED:
                continue
            puzzle = crossword_puzzle(problem, result.solution, puzzle_id=f"{index + 1:04d}",
                                      solver=parse_spec(self.solver)[0], stats=result.stats, seed=seed,
                                      clues=self.clue_bank())
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


@lru_cache(maxsize=8)
def _pack_words(dictionary: str, min_score: int, allow: frozenset[str], ban: frozenset[str],
                bank: ClueBank | None) -> WordList:
    words = adjusted(load(dictionary, min_score=min_score), allow=allow, ban=ban)
    return clued_words(words, bank) if bank is not None else words


def _grid_and_fill(puzzle: Mapping[str, Any]) -> tuple[Grid, dict[tuple[int, int], str]]:
    rows = puzzle["rows"]
    pattern = ["".join("#" if ch == "#" else "." for ch in row) for row in rows]
    grid = make_grid(pattern, puzzle["surface"], bars_right=[tuple(c) for c in puzzle.get("bars_right", [])],
                     bars_below=[tuple(c) for c in puzzle.get("bars_below", [])])
    fill = {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "#"}
    return grid, fill
