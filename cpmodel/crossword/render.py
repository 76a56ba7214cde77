"""Plain-text pictures of a grid on its surface, with seam markers.

Covers: the unfolded rectangle (blocks, letters, bars) with, at each glued
edge, where the row or column continues — asked of `mobius.cpmodel.surface.step`,
never re-derived — and the list of numbered lights. Leaves out: SVG/HTML
pictures, which are exports of the pack layer.
"""

from __future__ import annotations

from mobius.cpmodel.crossword.grid import Grid
from mobius.cpmodel.crossword.lights import ACROSS, Lights
from mobius.cpmodel.surface import Direction, step

EMPTY_CELL = "."


def _right_marker(grid: Grid, y: int) -> str:
    nxt = step(grid.surface, grid.width, grid.height, (grid.width - 1, y), Direction.RIGHT)
    return "" if nxt is None else f"  → row {nxt.cell[1]}"


def _bottom_markers(grid: Grid) -> str | None:
    targets = [step(grid.surface, grid.width, grid.height, (x, grid.height - 1), Direction.DOWN)
               for x in range(grid.width)]
    if targets[0] is None:
        return None
    return "    ↓ continues on columns " + " ".join(str(t.cell[0]) for t in targets if t is not None) + " of row 0"


def render_grid(grid: Grid, letters: dict[tuple[int, int], str] | None = None) -> str:
    """The unfolded grid: one character per cell, bars as '|' and '_' between cells."""
    letters = letters or {}
    header = "    " + " ".join(str(x % 10) for x in range(grid.width))
    lines = [f"surface: {grid.surface.name} ({grid.width}x{grid.height})", header]
    for y in range(grid.height):
        parts = []
        for x in range(grid.width):
            cell = (x, y)
            ch = "#" if grid.is_block(cell) else letters.get(cell) or grid.letter(cell) or EMPTY_CELL
            parts.append(ch + ("|" if cell in grid.bars_right else " "))
        below = "".join("‾ " if (x, y) in grid.bars_below else "  " for x in range(grid.width))
        lines.append(f"{y:>3} " + "".join(parts).rstrip() + _right_marker(grid, y))
        if below.strip():
            lines.append("    " + below.rstrip())
    bottom = _bottom_markers(grid)
    if bottom:
        lines.append(bottom)
    return "\n".join(lines)


def render_lights(lights: Lights, words: list[str] | None = None) -> str:
    """The numbered lights, across then down, with their cells and seam crossings."""
    lines = []
    for direction in (ACROSS, "down"):
        lines.append(direction.upper())
        for i, light in enumerate(lights.lights):
            if light.direction != direction:
                continue
            cells = " ".join(f"({x},{y})" for x, y in light.cells)
            notes = []
            if light.seam_crossings:
                notes.append(f"crosses seam {light.seam_crossings}x")
            if light.cyclic:
                notes.append("cyclic")
            word = f" {words[i]}" if words else ""
            extra = f"  [{', '.join(notes)}]" if notes else ""
            lines.append(f"  {light.number:>3}{word} ({light.length}) {cells}{extra}")
    if lights.unchecked:
        lines.append("unchecked cells: " + " ".join(f"({x},{y})" for x, y in lights.unchecked))
    return "\n".join(lines)
