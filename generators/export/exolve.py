"""Exolve text export of a crossword (github.com/viresh-ratnakar/exolve).

Covers: `to_exolve(puzzle) -> str`, the `exolve-begin` … `exolve-end` block
with id, title, size, the grid (solution letters, "." for blocks, the bar
decorators "|", "_" and "+") and the clues.

Exolve numbers the lights it infers from the grid on the plane. When that
reading is exactly the puzzle's entries, clues are plain numbered
`exolve-across` / `exolve-down` lines. Otherwise (a glued surface, or runs
the puzzle leaves unclued) every inferred start cell gets the "~" decorator,
which turns Exolve's own numbering off, and each entry carries its number
as a label: an entry that is one of Exolve's plane lights is an across/down
clue naming its start cell (`#c1r5 [3] …`); an entry that crosses a seam is
an `exolve-nodir` clue listing all its cells (`#c8r5 #c1r1 … [3A] …`),
listed first so a click on a seam cell selects the light that follows the
glue. Cell locations use Exolve's notation: column from the left, row from
the *bottom*, both 1-based.

Leaves out: Exolve's optional sections (setter, ninas, colours, questions,
explanations) and HTML wrapping; the result is the text to paste into
Exolve's page or embed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mobius.cpmodel.crossword.lights import ACROSS, DOWN
from mobius.cpmodel.surface import Cell
from mobius.generators.export import (
    Puzzle,
    bar_cells,
    entry_cells,
    enumeration_digits,
    given_credits,
    is_block,
    is_wrapped,
    plane_reading,
    reads_the_same_on_the_plane,
    require_kind,
    title,
)

EXOLVE_BLOCK = "."
SKIP_NUMBER = "~"  # decorator: no automatic clue number in this cell
BAR_DECORATORS = {(True, True): "+", (True, False): "|", (False, True): "_", (False, False): ""}  # (right, below)
NODIR_SECTION = "exolve-nodir"
SECTION_NAMES = {ACROSS: "exolve-across", DOWN: "exolve-down"}
DIRECTION_SUFFIX = {ACROSS: "A", DOWN: "D"}  # keeps nodir labels of 3 across and 3 down apart
SEAM_HEADING = "Lights across the seam"
INDENT = "  "
EXOLVE_CREDITS = {"author": "setter", "copyright": "copyright"}  # puzzle JSON key -> exolve-… section


def to_exolve(puzzle: Puzzle) -> str:
    """The crossword as an Exolve puzzle specification."""
    require_kind(puzzle, "crossword")
    numbered = reads_the_same_on_the_plane(puzzle, bars=True)
    skipped: set[Cell] = set() if numbered else {cells[0] for _, _, cells in plane_reading(puzzle, bars=True)}
    lines = ["exolve-begin",
             f"{INDENT}exolve-id: {_exolve_id(puzzle)}",
             f"{INDENT}exolve-title: {_one_line(title(puzzle))}",
             *(f"{INDENT}exolve-{EXOLVE_CREDITS[key]}: {_one_line(value)}"
               for key, value in given_credits(puzzle).items()),
             f"{INDENT}exolve-width: {puzzle['width']}",
             f"{INDENT}exolve-height: {puzzle['height']}"]
    if not numbered:
        # Exolve's plane runs that are no entry of ours stay unclued on purpose.
        lines.append(f"{INDENT}exolve-option: ignore-unclued")
    if is_wrapped(puzzle):
        lines += [f"{INDENT}exolve-preamble:", *(INDENT * 2 + line for line in _seam_notes(puzzle))]
    lines += [f"{INDENT}exolve-grid:", *(INDENT * 2 + row for row in _grid_rows(puzzle, skipped))]
    lines += _clue_sections(puzzle, numbered)
    lines.append("exolve-end")
    return "\n".join(lines) + "\n"


def _exolve_id(puzzle: Puzzle) -> str:
    """Exolve ids may hold only letters, digits and dashes."""
    return "mobius-puzzles-" + re.sub(r"[^A-Za-z0-9-]+", "-", str(puzzle["id"]))


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def location(puzzle: Puzzle, cell: Cell) -> str:
    """Exolve's `c<column>r<row>`: 1-based, rows counted from the bottom."""
    x, y = cell
    return f"c{x + 1}r{puzzle['height'] - y}"


def _grid_rows(puzzle: Puzzle, skipped: set[Cell]) -> list[str]:
    right, below = bar_cells(puzzle, "bars_right"), bar_cells(puzzle, "bars_below")
    rows = []
    for y, row in enumerate(puzzle["rows"]):
        squares = []
        for x, ch in enumerate(row):
            cell = (x, y)
            if is_block(puzzle, cell):
                squares.append(EXOLVE_BLOCK)
                continue
            bar = BAR_DECORATORS[(cell in right, cell in below)]
            squares.append(ch + (SKIP_NUMBER if cell in skipped else "") + bar)
        rows.append(" ".join(squares))
    return rows


def _clue_text(entry: Mapping[str, Any]) -> str:
    return _one_line(f"{entry.get('clue') or ''} ({enumeration_digits(entry)})")


def _clue_sections(puzzle: Puzzle, numbered: bool) -> list[str]:
    """The nodir section (seam-crossing entries) first, then across and down."""
    plane_lights = {(d, cells) for _, d, cells in plane_reading(puzzle, bars=True)}
    sections: dict[str, list[str]] = {NODIR_SECTION: [], SECTION_NAMES[ACROSS]: [], SECTION_NAMES[DOWN]: []}
    for entry in puzzle["entries"]:
        cells, direction = entry_cells(entry), entry["direction"]
        if numbered:
            sections[SECTION_NAMES[direction]].append(f"{entry['number']} {_clue_text(entry)}")
        elif (direction, cells) in plane_lights:
            sections[SECTION_NAMES[direction]].append(
                f"#{location(puzzle, cells[0])} [{entry['number']}] {_clue_text(entry)}")
        else:
            where = " ".join(f"#{location(puzzle, c)}" for c in cells)
            label = f"{entry['number']}{DIRECTION_SUFFIX[direction]}"
            sections[NODIR_SECTION].append(f"{where} [{label}] {_clue_text(entry)}")
    lines = []
    for name, clues in sections.items():
        if clues:
            heading = f" {SEAM_HEADING}" if name == NODIR_SECTION else ""
            lines += [f"{INDENT}{name}:{heading}", *(INDENT * 2 + clue for clue in clues)]
    return lines


def _seam_notes(puzzle: Puzzle) -> list[str]:
    """Preamble lines telling the solver where each glued row or column continues (1-based)."""
    glue = puzzle["glue"]
    notes = [f"This grid is the unfolded picture of a {puzzle['surface']} surface: lights run off one edge "
             "and continue on the opposite one."]
    rows = [f"{y + 1}&rarr;{t + 1}" for y, t in enumerate(glue["right"]) if t is not None]
    if rows:
        notes.append("Leaving the right edge on row r you re-enter the left edge on row: " + ", ".join(rows) + ".")
    columns = [f"{x + 1}&rarr;{t + 1}" for x, t in enumerate(glue["bottom"]) if t is not None]
    if columns:
        notes.append("Leaving the bottom edge in column c you re-enter the top edge in column: "
                     + ", ".join(columns) + ".")
    notes.append(f"Lights that cross a seam are listed under &ldquo;{SEAM_HEADING}&rdquo; "
                 "and labelled with their number and direction (A or D).")
    return notes
