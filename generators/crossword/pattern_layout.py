"""The surface as the pattern search sees it: `Layout` (cells indexed, edges
keyed, each one's symmetric image, the tracks — blank runs — and the steps
that cross a seam) for one size, surface and symmetry, and `pieces`, what is
left of a run when some of its cells become blocks or bars cut it.

Leaves out: the search itself (`pattern_search.py`), the rules
(`pattern_rules.py`) and the glue, asked of `mobius.cpmodel.surface`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mobius.cpmodel.crossword.grid import WHITE, Grid
from mobius.cpmodel.crossword.lights import DIRECTIONS, find_runs
from mobius.cpmodel.surface import Cell, Surface, step, surface
from mobius.generators.crossword.pattern_rules import AXES, symmetric_cell

# Cells are indexed y * W + x; an edge key is 2 * (index of the cell it leaves
# moving right or down) + axis, the cell that owns its bar in `Grid`.

@dataclass(frozen=True)
class Layout:
    """Everything the search needs about one size, surface and symmetry."""

    width: int
    height: int
    surface: Surface
    cell_image: tuple[int, ...]
    edge_image: dict[int, int]  # every edge key -> the key of its symmetric image
    track_of: tuple[tuple[int, ...], tuple[int, ...]]  # per axis, per cell: the track (blank run) it lies on
    crosses: tuple[tuple[bool, ...], tuple[bool, ...]]  # per axis, per cell: the step leaving it crosses a seam

    def index(self, cell: Cell) -> int:
        return cell[1] * self.width + cell[0]


@lru_cache(maxsize=64)  # a pack asks for many patterns of the same few shapes
def layout_of(w: int, h: int, surface_name: str, symmetry: str) -> Layout:
    surf = surface(surface_name)
    cells = [(x, y) for y in range(h) for x in range(w)]
    blank = Grid(tuple(WHITE * w for _ in range(h)), surf)
    track_of: list[list[int]] = [[-1] * (w * h), [-1] * (w * h)]
    crosses: list[list[bool]] = [[False] * (w * h), [False] * (w * h)]
    edge_ends: dict[int, tuple[int, int, bool]] = {}
    for axis, name in enumerate(AXES):
        for t, (run, _, _) in enumerate(find_runs(blank, name)):
            for cell in run:
                track_of[axis][cell[1] * w + cell[0]] = t
        for a, cell in enumerate(cells):
            nxt = step(surf, w, h, cell, DIRECTIONS[name])
            if nxt is not None:
                crosses[axis][a] = nxt.crossed
                edge_ends[2 * a + axis] = (a, nxt.cell[1] * w + nxt.cell[0], nxt.crossed)
    cell_image = tuple(y * w + x for x, y in (symmetric_cell(symmetry, w, h, c) for c in cells))
    edge_image = {key: edge_image_of(key, edge_ends, cell_image) for key in edge_ends}
    return Layout(w, h, surf, cell_image, edge_image, (tuple(track_of[0]), tuple(track_of[1])),
                   (tuple(crosses[0]), tuple(crosses[1])))


def edge_image_of(key: int, edge_ends: dict[int, tuple[int, int, bool]], cell_image: tuple[int, ...]) -> int:
    """The edge joining the images of an edge's two cells (seam edges map to
    seam edges). Every symmetry offered maps every glue to itself, so there
    always is one."""
    a, b, seam = edge_ends[key]
    ia, ib = cell_image[a], cell_image[b]
    axis = key % 2
    # The edge's own axis first, from either end: on a small projective plane two cells can be neighbours
    # both across and down (through different seams), and a mirror keeps the axis. Only the diagonal turns
    # across edges into down ones.
    for image_axis in (axis, 1 - axis):
        for owner, other in ((ia, ib), (ib, ia)):
            image = 2 * owner + image_axis
            if edge_ends.get(image) == (owner, other, seam):
                return image
    raise AssertionError(f"no image for edge {key}: a symmetry that does not respect the glue")


def pieces(length: int, cyclic: bool, removed: set[int], splits: set[int]) -> list[int]:
    """Lengths of what is left of a run of `length` cells when the cells at
    the positions `removed` become blocks and the run is cut after each
    position in `splits` (a bar)."""
    if cyclic:
        cuts = sorted(removed | splits)
        if not cuts:
            return [length]
        positions = [(cuts[0] + 1 + k) % length for k in range(length)]  # from just after the first cut
    else:
        positions = list(range(length))
    pieces, current = [], 0
    for p in positions:
        if p in removed:
            if current:
                pieces.append(current)
            current = 0
            continue
        current += 1
        if p in splits:
            pieces.append(current)
            current = 0
    if current:
        pieces.append(current)
    return pieces
