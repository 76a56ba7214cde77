"""Across Lite `.puz` export of a plane crossword, through puzpy.

Covers: `to_puz(puzzle) -> bytes`. A `.puz` file stores only the rows: every
reader numbers the lights itself, as runs of two or more white cells between
blocks and borders. So the export is refused with a ValueError when that
reading would differ from the puzzle's entries: on a glued surface (the
format cannot express a seam), with bars (it has none), or when the puzzle
leaves short runs unclued (a longer minimum light length).

Clues are written in the order the format requires (by number, across
before down) with the enumeration appended, as British `.puz` files do.

Leaves out: rebus squares, circles, timers and scrambled solutions.
"""

from __future__ import annotations

import puz

from generators.export import (
    ACROSS,
    BLOCK,
    Puzzle,
    enumeration_digits,
    is_wrapped,
    reads_the_same_on_the_plane,
    require_kind,
    title,
)

PUZ_BLOCK = "."  # the .puz block character
PUZ_EMPTY = "-"  # an unfilled white square in the player's fill


def to_puz(puzzle: Puzzle) -> bytes:
    """The crossword as `.puz` bytes; ValueError if the format cannot hold it."""
    require_kind(puzzle, "crossword")
    _check_plane(puzzle)
    p = puz.Puzzle()
    p.width, p.height = puzzle["width"], puzzle["height"]
    p.title = title(puzzle)
    p.solution = "".join(row.replace(BLOCK, PUZ_BLOCK) for row in puzzle["rows"])
    p.fill = "".join(PUZ_BLOCK if ch == PUZ_BLOCK else PUZ_EMPTY for ch in p.solution)
    entries = sorted(puzzle["entries"], key=lambda e: (e["number"], e["direction"] != ACROSS))
    p.clues = [f"{e.get('clue') or ''} ({enumeration_digits(e)})".strip() for e in entries]
    return p.tobytes()


def _check_plane(puzzle: Puzzle) -> None:
    if is_wrapped(puzzle):
        raise ValueError(f"puzzle {puzzle['id']} is on a {puzzle['surface']} surface: Across Lite .puz cannot "
                         "express glued edges; export it as ipuz or Exolve instead")
    if not reads_the_same_on_the_plane(puzzle, bars=False):
        raise ValueError(f"puzzle {puzzle['id']}: a .puz reader would number different lights (the grid has "
                         "bars, or unclued runs shorter than its minimum light length); export it as ipuz instead")
