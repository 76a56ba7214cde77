"""Qxw batch-mode decks for a crossword's lights, and Qxw's answers read back.

Covers: `to_qxw_deck(puzzle) -> str` and `parse_qxw_output(text, lights)`.
`qxw -b -d WORDLIST DECK` fills a *deck*: one light per line, each light the
space-separated ids of its cells in reading order; two lights that share an
id share (are checked at) that cell. Nothing in a deck is about geometry,
so a light that crosses a seam is just another list of cells and Qxw fills
any surface's lights. Ids here are `x<column>y<row>` (0-based, as in the
puzzle JSON). A leading `.UNIQUE 1` directive asks Qxw not to repeat a word,
as our fills never do.

Qxw prints each light's word as `W<i> WORD` (i counts the deck's light
lines from 0), followed by a `# ENTRY` line; it exits with status 4 and
"No fill found" on stderr when the lights cannot be filled. (Checked against
Qxw release 20200708, Debian package `qxw`.)

Leaves out: running Qxw (the benchmark harness does, with its own time
limits), Qxw's `.qxw` save files (read in `cpmodel.crossword.grid`), answer
treatments and per-light patterns.
"""

from __future__ import annotations

import re

from cpmodel.surface import Cell
from generators.export import Puzzle, entry_cells, require_kind

UNIQUE_DIRECTIVE = ".UNIQUE 1"
_WORD_LINE = re.compile(r"^W(\d+)\s+(\S+)\s*$")


def cell_id(cell: Cell) -> str:
    x, y = cell
    return f"x{x}y{y}"


def to_qxw_deck(puzzle: Puzzle) -> str:
    """A Qxw deck: the directive line, then one line per entry in the JSON's order."""
    require_kind(puzzle, "crossword")
    lights = [" ".join(cell_id(c) for c in entry_cells(e)) for e in puzzle["entries"]]
    return "\n".join([UNIQUE_DIRECTIVE, *lights]) + "\n"


def parse_qxw_output(text: str, lights: int) -> list[str]:
    """The words Qxw found for deck lights 0…lights−1, in deck order.

    ValueError if a light is missing, repeated or out of range (for instance
    when Qxw found no fill and printed nothing)."""
    words: dict[int, str] = {}
    for line in text.splitlines():
        match = _WORD_LINE.match(line)
        if match is None:
            continue  # "# ENTRY" echoes and any other chatter
        index, word = int(match.group(1)), match.group(2)
        if not 0 <= index < lights or index in words:
            raise ValueError(f"Qxw output names light W{index} {'twice' if index in words else 'out of range'}")
        words[index] = word
    missing = [i for i in range(lights) if i not in words]
    if missing:
        raise ValueError(f"Qxw output has no word for light(s) {', '.join(f'W{i}' for i in missing)}")
    return [words[i] for i in range(lights)]
