"""The Qxw batch deck of a pack's crossword, for `qxw -b -d WORDLIST DECK`.

Covers: `to_qxw_deck(puzzle) -> str`, the puzzle's entries in the JSON's
order, with ``.UNIQUE 1`` (a pack never repeats a word). The deck format and
the reading of Qxw's answers are the Qxw backend's (`mobius.cpmodel.crossword.qxw`).
Leaves out: running Qxw.
"""

from __future__ import annotations

from mobius.cpmodel.crossword.qxw import deck
from mobius.generators.export import Puzzle, entry_cells, require_kind


def to_qxw_deck(puzzle: Puzzle) -> str:
    """A Qxw deck: the directive line, then one line per entry in the JSON's order."""
    require_kind(puzzle, "crossword")
    return deck(entry_cells(e) for e in puzzle["entries"])
