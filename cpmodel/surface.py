"""Surfaces: how the edges of the unfolded W×H rectangle are glued.

Covers: the one place that knows the glue. A `Surface` says, for each pair of
opposite edges, whether they are borders, glued plainly or glued with a flip;
`step()` answers "from this cell, one step in this direction: which cell, which
direction am I facing now, and did I cross a seam?". Everything else
(lights, numbering, rendering, exports) asks this module and never re-derives
a flip.

Conventions follow Qxw's grid types: a left–right flip sends (W−1, y) moving
right to (0, H−1−y) still moving right, and (0, y) moving left to
(W−1, H−1−y); a top–bottom flip sends (x, H−1) moving down to (W−1−x, 0).
Named surfaces: plane, cylinder, mobius, torus, klein (left–right flipped,
top–bottom plain), projective (both flipped); and Qxw's three transposed
types glued top–bottom: cylinder-v, mobius-v, klein-v.

Leaves out: blocks and bars (a bar is a property of the grid, not of the
surface), and non-rectangular grids (hexagonal, circular).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

Cell = tuple[int, int]  # (x, y): column x from the left, row y from the top


class Direction(Enum):
    RIGHT = (1, 0)
    DOWN = (0, 1)
    LEFT = (-1, 0)
    UP = (0, -1)

    @property
    def reverse(self) -> Direction:
        return _REVERSE[self]


_REVERSE = {
    Direction.RIGHT: Direction.LEFT,
    Direction.LEFT: Direction.RIGHT,
    Direction.DOWN: Direction.UP,
    Direction.UP: Direction.DOWN,
}


class Glue(Enum):
    BORDER = "border"
    PLAIN = "plain"
    FLIP = "flip"


class Step(NamedTuple):
    cell: Cell
    direction: Direction
    crossed: bool  # True when the step went through a seam


@dataclass(frozen=True)
class Surface:
    name: str
    left_right: Glue  # how the right edge is glued to the left edge
    top_bottom: Glue  # how the bottom edge is glued to the top edge

    @property
    def has_seam(self) -> bool:
        return self.left_right is not Glue.BORDER or self.top_bottom is not Glue.BORDER


SURFACES: dict[str, Surface] = {
    s.name: s
    for s in (
        Surface("plane", Glue.BORDER, Glue.BORDER),
        Surface("cylinder", Glue.PLAIN, Glue.BORDER),
        Surface("mobius", Glue.FLIP, Glue.BORDER),
        Surface("torus", Glue.PLAIN, Glue.PLAIN),
        Surface("klein", Glue.FLIP, Glue.PLAIN),
        Surface("projective", Glue.FLIP, Glue.FLIP),
        Surface("cylinder-v", Glue.BORDER, Glue.PLAIN),
        Surface("mobius-v", Glue.BORDER, Glue.FLIP),
        Surface("klein-v", Glue.PLAIN, Glue.FLIP),
    )
}

# Names users may type for the same surfaces.
ALIASES = {"möbius": "mobius", "moebius": "mobius", "flat": "plane", "rectangle": "plane", "klein-bottle": "klein",
           "projective-plane": "projective"}


def surface(name: str | Surface) -> Surface:
    """Look a surface up by name; KeyError with the known names otherwise."""
    if isinstance(name, Surface):
        return name
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in SURFACES:
        raise KeyError(f"unknown surface {name!r}; expected one of {', '.join(SURFACES)}")
    return SURFACES[key]


def _wrap(glue: Glue, along: int, across: int, size_along: int, size_across: int) -> tuple[int, int] | None:
    """Re-enter after leaving one edge: `along` is the coordinate that ran off
    (already out of range), `across` the other one. None at a border."""
    if glue is Glue.BORDER:
        return None
    along %= size_along
    if glue is Glue.FLIP:
        across = size_across - 1 - across
    return along, across


def step(surf: Surface, width: int, height: int, cell: Cell, direction: Direction) -> Step | None:
    """One step from `cell` in `direction` on a `width`×`height` grid of `surf`.

    Returns None when the step runs into a border. The direction is returned
    too: on the surfaces here a glued edge is always crossed head-on, so it is
    unchanged, but callers must not rely on that.
    """
    dx, dy = direction.value
    x, y = cell[0] + dx, cell[1] + dy
    if 0 <= x < width and 0 <= y < height:
        return Step((x, y), direction, False)
    if not 0 <= x < width:
        wrapped = _wrap(surf.left_right, x, y, width, height)
        if wrapped is None:
            return None
        return Step(wrapped, direction, True)
    wrapped = _wrap(surf.top_bottom, y, x, height, width)
    if wrapped is None:
        return None
    y2, x2 = wrapped
    return Step((x2, y2), direction, True)
