"""Across Lite `.puz` export of a plane crossword, through puzpy.

Covers: `to_puz(puzzle) -> bytes`. A `.puz` file stores only the rows: every
reader numbers the lights itself, as runs of two or more white cells between
blocks and borders. So the export is refused with an ExportError when that
reading would differ from the puzzle's entries: on a glued surface (the
format cannot express a seam), with bars (it has none), or when the puzzle
leaves short runs unclued (a longer minimum light length).

Text in a `.puz` file is Latin-1. `latin1_text` writes curly quotes, dashes,
ellipses and the like as the ASCII that Across Lite files use (' " -- ...)
and letters with accents Latin-1 lacks as their base letter; a character
with no such spelling (Greek, CJK, an emoji) refuses the export with an
ExportError naming it and the clue, rather than a file with it dropped.

Clues are written in the order the format requires (by number, across
before down) with the enumeration appended, as British `.puz` files do.

Leaves out: rebus squares, circles, timers and scrambled solutions.
"""

from __future__ import annotations

import unicodedata

import puz

from mobius.cpmodel.crossword.lights import ACROSS
from mobius.generators.export import (
    BLOCK,
    ExportError,
    Puzzle,
    author,
    copyright_notice,
    enumeration_digits,
    is_wrapped,
    reads_the_same_on_the_plane,
    require_kind,
    title,
)

PUZ_BLOCK = "."  # the .puz block character
PUZ_EMPTY = "-"  # an unfilled white square in the player's fill
PUZ_ENCODING = "latin-1"  # puzpy's, and Across Lite's, text encoding
# Characters clues use that Latin-1 lacks, spelt as .puz files spell them.
TRANSLITERATIONS = str.maketrans({
    "‘": "'", "’": "'", "‚": ",", "‛": "'", "′": "'",
    "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"',
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "−": "-", "—": "--", "―": "--", "…": "...", "•": "*",
    "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u2007": " ", "\u200b": "", "€": "EUR", "™": "(TM)",
    "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "→": "->", "←": "<-",
})


def to_puz(puzzle: Puzzle) -> bytes:
    """The crossword as `.puz` bytes; ExportError if the format cannot hold it."""
    require_kind(puzzle, "crossword")
    _check_plane(puzzle)
    p = puz.Puzzle()
    p.width, p.height = puzzle["width"], puzzle["height"]
    p.title = _latin1(title(puzzle), "the title")
    p.author = _latin1(author(puzzle), "the author")
    p.copyright = _latin1(copyright_notice(puzzle), "the copyright notice")
    p.solution = "".join(row.replace(BLOCK, PUZ_BLOCK) for row in puzzle["rows"])
    p.fill = "".join(PUZ_BLOCK if ch == PUZ_BLOCK else PUZ_EMPTY for ch in p.solution)
    entries = sorted(puzzle["entries"], key=lambda e: (e["number"], e["direction"] != ACROSS))
    p.clues = [_latin1(f"{e.get('clue') or ''} ({enumeration_digits(e)})".strip(),
                       f"clue {e['number']} {e['direction']}") for e in entries]
    return p.tobytes()


def latin1_text(text: str) -> tuple[str, list[str]]:
    """The text spelt in Latin-1, and the characters that have no spelling there (in order, once each)."""
    written: list[str] = []
    missing: list[str] = []
    for ch in text.translate(TRANSLITERATIONS):
        spelt = ch if _encodes(ch) else _without_accents(ch)
        if spelt is None:
            if ch not in missing:
                missing.append(ch)
        else:
            written.append(spelt)
    return "".join(written), missing


def _encodes(text: str) -> bool:
    try:
        text.encode(PUZ_ENCODING)
    except UnicodeEncodeError:
        return False
    return True


def _without_accents(ch: str) -> str | None:
    """The character decomposed (NFKD: ő → o, ﬁ → fi) without its combining marks, if that is Latin-1."""
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return base if base and _encodes(base) else None


def _latin1(text: str, where: str) -> str:
    spelt, missing = latin1_text(text)
    if missing:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing)
        raise ExportError(f".puz text is Latin-1 and cannot hold {shown} in {where}; export it as ipuz instead")
    return spelt


def _check_plane(puzzle: Puzzle) -> None:
    if is_wrapped(puzzle):
        raise ExportError(f"a {puzzle['surface']} surface: Across Lite .puz cannot express glued edges; "
                          "export it as ipuz or Exolve instead")
    if not reads_the_same_on_the_plane(puzzle, bars=False):
        raise ExportError("a .puz reader would number different lights (the grid has bars, or unclued runs "
                          "shorter than its minimum light length); export it as ipuz instead")
