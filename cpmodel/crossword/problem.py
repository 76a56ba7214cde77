"""The crossword fill problem: grid + surface + dictionary + rules.

Covers: `FillRules` (minimum light length, repeats, seam-crossing limit,
minimum word score, words excluded outright, and a `WordCap`: at most so
many lights reading words of one kind, such as S-plurals), `FillProblem` (which carries
no solving code; it only validates that its lights obey the rules and
exposes them, and may carry soft preferences: score penalties that solvers
weigh when choosing among words but that never make a fill invalid) and the
`Fill` answer type. Leaves out: solving (`reference.py`, `cpsat.py`) and checking
answers (`verify.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from mobius.cpmodel.crossword.grid import Grid
from mobius.cpmodel.crossword.lights import DEFAULT_MIN_LENGTH, Lights, find_lights
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.surface import Cell
from mobius.dictionaries import WordList

Fill = dict[Cell, str]  # a letter A-Z for every white cell that lies in a light


@dataclass(frozen=True)
class WordCap:
    """At most `most` lights of a fill may read a word of `words` (`name` says which kind, for messages)."""

    words: frozenset[str]
    most: int
    name: str

    def __post_init__(self) -> None:
        if self.most < 0:
            raise ValueError(f"a cap on {self.name} takes a count of 0 or more, not {self.most}")


@dataclass(frozen=True)
class FillRules:
    min_length: int = DEFAULT_MIN_LENGTH
    allow_repeats: bool = False  # the same word in two lights
    max_seam_crossings: int | None = None  # per light; None = no limit
    min_score: int = 0  # words scored below this are not used
    # Words no light may read although the list has them (a pack's answers
    # already used elsewhere): a rule, checked by `verify`.
    excluded: frozenset[str] = frozenset()
    # At most so many lights reading words of one kind (a pack's S-plurals): a rule, checked by `verify`.
    cap: WordCap | None = None


@dataclass(frozen=True)
class FillProblem:
    grid: Grid
    words: WordList
    rules: FillRules = field(default_factory=FillRules)
    # Soft preferences: points taken off a word's score when a solver chooses
    # among words (the reference solver's value order, CP-SAT's objective);
    # a penalised word stays a valid answer.
    penalties: Mapping[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        limit = self.rules.max_seam_crossings
        if limit is not None:
            over = [light.label for light in self.lights.lights if light.seam_crossings > limit]
            if over:
                raise InputError(f"lights {', '.join(over)} cross the seam more than {limit} time(s)")

    @cached_property
    def lights(self) -> Lights:
        return find_lights(self.grid, self.rules.min_length)

    def entries(self, fill: Fill) -> list[str]:
        """The word each light reads in `fill`, in light order."""
        return ["".join(fill.get(c, "?") for c in light.cells) for light in self.lights.lights]


def cap_refusal(problem: FillProblem, solver: str) -> str | None:
    """Why `solver`, which has no way to keep a `WordCap`, cannot take `problem`; None when it has no cap."""
    cap = problem.rules.cap
    if cap is None:
        return None
    return f"{solver} cannot keep a cap on {cap.name} (at most {cap.most} a grid); the reference solver and cpsat can"
