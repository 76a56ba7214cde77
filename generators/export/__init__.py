"""Exports of one puzzle, read from the pack's puzzle JSON.

Every exporter takes the puzzle dict that the pack writes (the one input, so
the HTML player and the exports never re-derive the surface geometry) and
returns `str` or `bytes`, or raises `ExportError` when its format cannot
hold the puzzle; writing files is the caller's job.

- `ipuz`: ipuz v2 crosswords, with our extension kind for glued surfaces.
- `puz`: Across Lite `.puz`, plane grids only.
- `exolve`: Exolve text; lights across a seam become `exolve-nodir` clues.
- `qxw`: Qxw batch-mode decks, and a parser for Qxw's batch output.
- `svg`: SVG pictures of crosswords (with seam labels), the Möbius
  print-and-glue template, and slider boards.
- `pdf`: the printable puzzle (grid, clues, solution) and the pack booklet,
  drawn with `pdfdraw` and flowed with `layout`.
- `figures`: the pictures as shapes, which `svg` and `pdf` write out.
- `bundle`: every export of one puzzle, and the ones skipped with why.

This module holds the readings of the puzzle JSON that several exporters
share: the title, author and copyright notice, cells and numbers of the
entries, whether a seam is glued, the names of the surfaces and the
one-line note on reading their seams, the difficulty line, and the
lights that a *plane* reader (Across Lite, Exolve) infers from the same
rows, so a format without glue can tell whether it would read the puzzle
right.

Leaves out: the pack layout and file names, the HTML player, and solving.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.cpmodel.surface import Cell

Puzzle = Mapping[str, Any]  # the puzzle JSON as loaded
# Where an entry stands, as the puzzle JSON or a plane reader gives it: (number,
# direction, cells in reading order). Only a comparable key, not a `lights.Light`.
Placement = tuple[int, str, tuple[Cell, ...]]

BLOCK = "#"
SURFACE_NAMES = {"plane": "plane", "cylinder": "cylinder", "mobius": "Möbius strip", "torus": "torus",
                 "klein": "Klein bottle", "projective": "projective plane", "cylinder-v": "cylinder (vertical)",
                 "mobius-v": "Möbius strip (vertical)", "klein-v": "Klein bottle (vertical)"}
# Plane formats count every run of two or more white cells as a light.
PLANE_MIN_LENGTH = 2


class ExportError(ValueError):
    """A format that cannot hold this puzzle (a glued surface in `.puz`, a character it cannot encode…).

    The message says why and names no puzzle, so that a pack can count the reasons."""


def require_kind(puzzle: Puzzle, kind: str) -> None:
    """ValueError unless the puzzle JSON is of `kind` ("crossword" or "slider")."""
    if puzzle.get("kind") != kind:
        raise ValueError(f"expected a {kind} puzzle, got kind {puzzle.get('kind')!r}")


def title(puzzle: Puzzle) -> str:
    return puzzle.get("title") or f"Puzzle {puzzle['id']}"


def author(puzzle: Puzzle) -> str:
    """The puzzle's author (setter); "" if not given."""
    return str(puzzle.get("author") or "")


def copyright_notice(puzzle: Puzzle) -> str:
    """The puzzle's copyright notice as given ("© 2026 A. Setter"); "" if none."""
    return str(puzzle.get("copyright") or "")


def given_credits(puzzle: Puzzle) -> dict[str, str]:
    """{"author": …, "copyright": …} with the ones given, for formats that leave out what is not."""
    return {key: value for key, value in (("author", author(puzzle)), ("copyright", copyright_notice(puzzle)))
            if value}


def credit_line(puzzle: Puzzle) -> str:
    """"by A. Setter · © 2026 A. Setter", the parts that are given; "" if neither is."""
    parts = [f"by {author(puzzle)}" if author(puzzle) else "", copyright_notice(puzzle)]
    return " · ".join(part for part in parts if part)


def entry_cells(entry: Mapping[str, Any]) -> tuple[Cell, ...]:
    return tuple((x, y) for x, y in entry["cells"])


def entry_lights(puzzle: Puzzle) -> list[Placement]:
    """The puzzle's entries as (number, direction, cells), in the JSON's order."""
    return [(e["number"], e["direction"], entry_cells(e)) for e in puzzle["entries"]]


def clue_numbers(puzzle: Puzzle) -> dict[Cell, int]:
    """The number printed in each cell that starts an entry."""
    return {entry_cells(e)[0]: e["number"] for e in puzzle["entries"]}


def is_block(puzzle: Puzzle, cell: Cell) -> bool:
    return puzzle["rows"][cell[1]][cell[0]] == BLOCK


def bar_cells(puzzle: Puzzle, key: str) -> frozenset[Cell]:
    """Cells with a bar on their right (`bars_right`) or bottom (`bars_below`) edge."""
    return frozenset((x, y) for x, y in puzzle.get(key, ()))


def glued_edges(puzzle: Puzzle) -> tuple[bool, bool]:
    """(right edge glued to the left one, bottom edge glued to the top one), from the glue field."""
    glue = puzzle["glue"]
    return any(t is not None for t in glue["right"]), any(t is not None for t in glue["bottom"])


def is_wrapped(puzzle: Puzzle) -> bool:
    """True when any edge of the unfolded rectangle is glued to another."""
    return any(glued_edges(puzzle))


def is_band(puzzle: Puzzle) -> bool:
    """True for a band of paper: left and right edges glued, top and bottom free (Möbius strip, cylinder)."""
    rows_glued, columns_glued = glued_edges(puzzle)
    return rows_glued and not columns_glued


def surface_name(puzzle: Puzzle) -> str:
    """The surface as a reader calls it: "Möbius strip", "Klein bottle"…"""
    return SURFACE_NAMES.get(puzzle["surface"], puzzle["surface"])


def reading_note(puzzle: Puzzle) -> str:
    """One sentence on how to read the seam labels of the puzzle's surface; empty on the plane."""
    rows_glued, columns_glued = glued_edges(puzzle)
    glue = puzzle["glue"]

    def twist(key: str) -> str:
        return " with a half twist" if glue.get(key) else ""

    name = surface_name(puzzle)
    name = name[:1].upper() + name[1:]
    if rows_glued and columns_glued:
        return (f"{name}: the right edge is glued to the left{twist('right_flip')} and the bottom to the top"
                f"{twist('bottom_flip')}; “→ n” goes on at “n →”, “↓n” at “n↓”.")
    if rows_glued:
        return (f"{name}: the right edge is glued to the left{twist('right_flip')}; "
                "a light leaving at “→ n” goes on at “n →”.")
    if columns_glued:
        return (f"{name}: the bottom edge is glued to the top{twist('bottom_flip')}; "
                "a light leaving at “↓n” goes on at “n↓”.")
    return ""


def difficulty_text(puzzle: Puzzle) -> str:
    """"Hard (familiarity 47, 62% indirect clues)": the level a crossword was made at and what its
    entries show (`mobius.generators.crossword.difficulty`); "" for a puzzle made without one."""
    made = puzzle.get("difficulty")
    if not isinstance(made, Mapping) or not made.get("level"):
        return ""
    return (f"{str(made['level']).capitalize()} (familiarity {float(made.get('familiarity', 0.0)):.0f}, "
            f"{float(made.get('indirect_share', 0.0)):.0%} indirect clues)")


def enumeration_digits(entry: Mapping[str, Any]) -> str:
    """The enumeration without its parentheses: "(3,4)" -> "3,4"; the length if none is given."""
    text = str(entry.get("enumeration") or "").strip()
    return text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text or str(len(entry["cells"]))


def plane_reading(puzzle: Puzzle, *, bars: bool) -> list[Placement]:
    """The lights a reader that knows nothing of glue infers from the rows
    (and the bars, if its format has them): runs of two or more white cells
    on the plane, numbered in reading order. This models the target format,
    not the puzzle's surface, so it asks `cpmodel` with surface "plane"."""
    grid = make_grid(puzzle["rows"], "plane",
                     bars_right=bar_cells(puzzle, "bars_right") if bars else (),
                     bars_below=bar_cells(puzzle, "bars_below") if bars else (),
                     source=f"puzzle {puzzle.get('id', '?')}")
    return [(light.number, light.direction, light.cells) for light in find_lights(grid, PLANE_MIN_LENGTH).lights]


def reads_the_same_on_the_plane(puzzle: Puzzle, *, bars: bool) -> bool:
    """True when a plane reader finds exactly the puzzle's entries, numbers included."""
    return sorted(plane_reading(puzzle, bars=bars)) == sorted(entry_lights(puzzle))
