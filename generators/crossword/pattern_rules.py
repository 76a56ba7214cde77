"""Block and barred grid patterns for crosswords on any surface: the rules.

Covers: `PatternSpec` (size, surface and the rules a pattern must keep), the
definitions the generators and the checker share (`symmetric_cell`,
`concrete_symmetries`, `with_symmetry`, `density_bounds`, `length_ok`) and
which generator a spec takes
(`annealed`). The rules:
- symmetric under a symmetry of the unfolded rectangle: "rot180"
  ((x, y) → (W−1−x, H−1−y), the default: it maps every glue to itself, so a
  symmetric rectangle is a symmetric surface), "mirror" (x → W−1−x),
  "diagonal" ((x, y) → (y, x): square block grids on the plane), "any" (at
  least one of those the grid allows: the minis') or "none";
- on the plane, no row or column all blocks (a grid printed with a dead edge);
- every run of two or more white cells is a light of at least `min_length`;
- `checked=True`: every white cell lies in an across and a down light
  (American style); `checked=False` also allows runs of one cell;
- white cells connected through the glue (bars respected);
- blocks (barred style: bars) per cell within `density`;
- no cyclic light (a loop with no block or bar) unless `allow_cyclic`;
- at most `max_seam_crossings` seam crossings per light, if given;
- no light longer than `max_length`, if given;
- at least `min_seam_lights` lights cross a seam (a Möbius puzzle that
  never uses its seam is a flat puzzle drawn oddly);
- at most `max_short_share` of the lights have `SHORT_LIGHT` letters or
  fewer, if given;
- `allow_clutter=False`: no *track* — a whole row or column of the blank
  surface, followed through the glue — is cut into two or more lights that
  are all short (a row of three-letter words is filler, not a crossword);
- at most `max_words` lights, if given (the word count publishers cap);
- at most `max_block_squares` 2×2 squares of blocks in the unfolded
  rectangle, if given (0: none, so no clump of blocks in a corner).

The American defaults of plane packs (which of these rules, and their

The American defaults of plane packs (which of these rules, and their
values by size) are in `generators/crossword/american.py`.

Leaves out: generating patterns (`patterns.py`, the front door;
`pattern_search.py`, the constructive search; `pattern_anneal.py`, which
anneals word-capped grids for fill), checking them independently
(`pattern_check.py`), the canonical form, counting and the per-seed walk
(`pattern_space.py`), words and fills.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass

from mobius.cpmodel.crossword.grid import MAX_SIZE
from mobius.cpmodel.crossword.lights import ACROSS, DOWN
from mobius.cpmodel.surface import Cell, surface

SYMMETRIES = ("rot180", "mirror", "diagonal", "any", "none")
STYLES = ("blocks", "barred")
AXES = (ACROSS, DOWN)  # axis 0 and 1 of the edge keys below

# Published American grids run at about one block in six; 10 % still leaves
# enough blocks to cut every loop of the small glued grids the benchmarks use
# (a Möbius 11×5 needs a full column of blocks, 9 %), and above 30 % a grid
# turns into a lattice of three-letter words.
DEFAULT_DENSITY = (0.10, 0.30)

# The length counted as short by `max_short_share` and the clutter rule:
# three-letter words are the filler every crossword has too many of.
SHORT_LIGHT = 3


class PatternError(ValueError):
    """No pattern satisfies the spec (or the spec itself is malformed).

    The message names the spec with all its rules; `reason` is why alone,
    short enough for a command's one line."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


@dataclass(frozen=True)
class PatternSpec:
    """What a pattern must satisfy; see the module docstring for each rule."""

    width: int
    height: int
    surface: str
    min_length: int = 3
    checked: bool = True
    symmetry: str = "rot180"
    density: tuple[float, float] = DEFAULT_DENSITY  # fraction of cells that are blocks (barred: bars per cell)
    allow_cyclic: bool = False
    max_seam_crossings: int | None = None
    style: str = "blocks"
    # Longest light; None = no limit. A light longer than the word list's
    # longest word can never be filled (wrapped lights run up to 2W − 1).
    max_length: int | None = None
    min_seam_lights: int = 0
    max_short_share: float | None = None
    allow_clutter: bool = True
    max_words: int | None = None
    max_block_squares: int | None = None

    def __post_init__(self) -> None:
        problems = _spec_problems(self)
        if problems:
            raise PatternError("bad pattern spec: " + "; ".join(problems))

    def describe(self) -> str:
        rules = [f"lights of {self.min_length}+", "all cells checked" if self.checked else "unchecked cells allowed",
                 f"symmetry {self.symmetry}", f"density {self.density[0]:.0%}-{self.density[1]:.0%}",
                 "cyclic lights allowed" if self.allow_cyclic else "no cyclic lights"]
        if self.max_seam_crossings is not None:
            rules.append(f"at most {self.max_seam_crossings} seam crossings per light")
        if self.max_length is not None:
            rules.append(f"lights of at most {self.max_length}")
        if self.min_seam_lights:
            rules.append(f"at least {self.min_seam_lights} lights across the seam")
        if self.max_short_share is not None:
            rules.append(f"at most {self.max_short_share:.0%} of lights of {SHORT_LIGHT} or fewer letters")
        if not self.allow_clutter:
            rules.append(f"no row or column of {SHORT_LIGHT}-letter lights only")
        if self.max_words is not None:
            rules.append(f"at most {self.max_words} words")
        if self.max_block_squares is not None:
            rules.append(f"at most {self.max_block_squares} 2x2 squares of blocks" if self.max_block_squares
                         else "no 2x2 square of blocks")
        return f"{self.width}x{self.height} {self.surface} {self.style} pattern ({', '.join(rules)})"


def no_pattern(spec: PatternSpec, reason: str) -> PatternError:
    """The PatternError of a spec no pattern satisfies, and why."""
    return PatternError(f"no {spec.describe()}: {reason}", reason)


def attempts_failed(spec: PatternSpec, seed: int, attempts: int, failures: Counter[str]) -> PatternError:
    """The PatternError of a spec whose `attempts` all failed: the commonest reason of `failures`."""
    reason, times = failures.most_common(1)[0]
    share = f"all {attempts}" if times == attempts else f"{times} of {attempts}"
    return PatternError(f"no {spec.describe()} found in {attempts} attempts (seed {seed}); {times} of them failed "
                        f"because {reason}", f"{share} attempts failed because {reason}")


@dataclass(frozen=True)
class PatternStats:
    """How hard the search worked for one pattern."""

    pattern_attempts: int  # attempts started, the successful one included: all but the last were rejected
    rejected_moves: int  # blocks or bars refused (a rule broken by the move or its repair), all attempts


def _spec_problems(spec: PatternSpec) -> list[str]:
    problems = []
    for name, value in (("width", spec.width), ("height", spec.height)):
        if not 1 <= value <= MAX_SIZE:
            problems.append(f"{name} {value} is outside 1..{MAX_SIZE}")
    try:
        surf = surface(spec.surface)
    except KeyError as exc:
        problems.append(str(exc.args[0]))
        surf = None
    if spec.min_length < 1:
        problems.append(f"min_length must be at least 1, got {spec.min_length}")
    if spec.symmetry not in SYMMETRIES:
        problems.append(f"unknown symmetry {spec.symmetry!r}; expected one of {', '.join(SYMMETRIES)}")
    elif spec.symmetry == "diagonal" and not (spec.width == spec.height and spec.surface == "plane"
                                               and spec.style == "blocks"):
        problems.append("symmetry diagonal needs a square block grid on the plane")
    if spec.style not in STYLES:
        problems.append(f"unknown style {spec.style!r}; expected one of {', '.join(STYLES)}")
    low, high = spec.density
    if not 0.0 <= low <= high <= 1.0:
        problems.append(f"density must be (low, high) with 0 <= low <= high <= 1, got {spec.density}")
    if spec.max_seam_crossings is not None and spec.max_seam_crossings < 0:
        problems.append(f"max_seam_crossings must be at least 0 or None, got {spec.max_seam_crossings}")
    if spec.max_length is not None and spec.max_length < spec.min_length:
        problems.append(f"max_length {spec.max_length} is below min_length {spec.min_length}")
    if spec.min_seam_lights < 0:
        problems.append(f"min_seam_lights must be at least 0, got {spec.min_seam_lights}")
    elif spec.min_seam_lights and surf is not None and not surf.has_seam:
        problems.append(f"min_seam_lights {spec.min_seam_lights}: the {surf.name} has no seam to cross")
    elif spec.min_seam_lights and spec.max_seam_crossings == 0:
        problems.append(f"min_seam_lights {spec.min_seam_lights} with max_seam_crossings 0: no light may cross")
    if spec.max_short_share is not None and not 0.0 <= spec.max_short_share <= 1.0:
        problems.append(f"max_short_share must be within 0..1, got {spec.max_short_share}")
    for name, value in (("max_words", spec.max_words), ("max_block_squares", spec.max_block_squares)):
        if value is not None and value < 0:
            problems.append(f"{name} must be at least 0 or None, got {value}")
    return problems


# --- definitions shared by the generator and the checker ------------------------

def symmetric_cell(symmetry: str, width: int, height: int, cell: Cell) -> Cell:
    """The image of `cell` under the named symmetry of the W×H rectangle (one of `concrete_symmetries`)."""
    x, y = cell
    if symmetry == "rot180":
        return width - 1 - x, height - 1 - y
    if symmetry == "mirror":
        return width - 1 - x, y
    if symmetry == "diagonal":
        return y, x
    return cell


def concrete_symmetries(spec: PatternSpec) -> tuple[str, ...]:
    """The symmetries a pattern of `spec` may have, one of which it must: those "any" stands for (the
    diagonal only where the spec allows it), or the spec's own."""
    if spec.symmetry != "any":
        return (spec.symmetry,)
    diagonal = spec.width == spec.height and spec.surface == "plane" and spec.style == "blocks"
    return ("rot180", "mirror", "diagonal") if diagonal else ("rot180", "mirror")


def with_symmetry(spec: PatternSpec, symmetry: str) -> PatternSpec:
    """`spec` asking for one concrete symmetry (of `concrete_symmetries(spec)`)."""
    return spec if spec.symmetry == symmetry else dataclasses.replace(spec, symmetry=symmetry)


def density_bounds(spec: PatternSpec) -> tuple[int, int]:
    """The least and most blocks (barred: bars) the density range allows."""
    cells = spec.width * spec.height
    # The epsilon keeps 0.3 × 20 = 6.000000000000001 from rounding the wrong way.
    return math.ceil(spec.density[0] * cells - 1e-9), math.floor(spec.density[1] * cells + 1e-9)


def length_ok(length: int, spec: PatternSpec) -> bool:
    """Whether a maximal run of `length` white cells is allowed."""
    return length >= spec.min_length or (length == 1 and not spec.checked)


def annealed(spec: PatternSpec) -> bool:
    """Whether patterns of `spec` are annealed for fill after the search (`pattern_anneal.py`): word-capped
    block patterns, the American grids, whose fill depends most on where the blocks stand. A draw then costs
    a fraction of a second to a few seconds, against milliseconds for the search alone."""
    return spec.max_words is not None and spec.style == "blocks"
