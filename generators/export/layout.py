"""Text layout for the printed pages: words wrapped to a width, blocks of
lines flowed into balanced columns.

Covers: `wrap_words` (greedy line filling with any width function; the last
words of a clue — the enumeration and the word before it — kept together; a
word wider than the line broken, so nothing is ever cut off), `Block` (a
heading or a clue: its lines and height), `fill_columns` (blocks into N
columns of a given height, in reading order, a heading never left alone at
the foot of a column, and a column or page that starts inside a list
headed by its heading marked `continued`; what does not fit is returned
for the next page) and
`balanced_height` (the least column height that holds every block, so the
columns end level).

Leaves out: fonts, drawing and the page itself (`pdf.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

Measure = Callable[[str], float]  # the printed width of a string
HEIGHT_PRECISION = 0.5  # points: balanced columns are searched to this


@dataclass(frozen=True)
class Block:
    kind: str  # "heading" or "clue"
    label: str  # the heading text, or the clue number
    lines: tuple[str, ...]
    height: float
    keep_with_next: bool = False  # a heading stays in the column of the clue that follows it
    indent: float = 0.0  # where the lines start, right of the number
    continued: bool = False  # a heading repeated at the top of a column its list goes on in


def wrap_words(words: Sequence[str], width: float, measure: Measure, *, keep_last: int = 1) -> list[str]:
    """Lines of at most `width`, greedily filled. The last `keep_last` words
    are one unit when that unit fits a line (a clue's last word and its
    enumeration); a word wider than a line is broken into pieces that fit.

    Widths add up (PDF text has no kerning here), so each word is measured
    once and a line's width is the sum of its words and spaces."""
    words = list(words)
    if keep_last > 1 and len(words) >= keep_last:
        tail = " ".join(words[-keep_last:])
        if measure(tail) <= width:
            words = words[:-keep_last] + [tail]
    space = measure(" ")
    lines: list[str] = []
    line: list[str] = []
    used = 0.0
    for word in (piece for w in words for piece in _pieces(w, width, measure)):
        wide = measure(word)
        if line and used + space + wide > width:
            lines.append(" ".join(line))
            line, used = [], 0.0
        used += (space if line else 0.0) + wide
        line.append(word)
    if line:
        lines.append(" ".join(line))
    return lines


def _pieces(word: str, width: float, measure: Measure) -> list[str]:
    """The word itself, or cut into the longest pieces that fit `width` (at least one character each)."""
    if measure(word) <= width:
        return [word]
    pieces, piece = [], ""
    for ch in word:
        if piece and measure(piece + ch) > width:
            pieces.append(piece)
            piece = ""
        piece += ch
    return pieces + [piece]


def _units(blocks: Sequence[Block]) -> list[list[Block]]:
    """Blocks grouped so that a keep-with-next block shares a unit with the block after it."""
    units: list[list[Block]] = []
    pending: list[Block] = []
    for block in blocks:
        pending.append(block)
        if not block.keep_with_next:
            units.append(pending)
            pending = []
    if pending:
        units.append(pending)
    return units


def fill_columns(blocks: Sequence[Block], columns: int, height: float) -> tuple[list[list[Block]], list[Block]]:
    """Blocks into at most `columns` columns of `height`, in order: (the columns, the blocks left over).

    A unit taller than a whole column still goes into an empty column, so
    filling always makes progress. A column that starts with a clue carries
    the heading of its list again, marked `continued`; so do the blocks left
    over, which start the next page's first column."""
    filled: list[list[Block]] = [[] for _ in range(columns)]
    used = [0.0] * columns
    units = _units(blocks)
    heading: Block | None = None  # the heading of the list being filled
    column = 0
    while units and column < columns:
        unit = _headed(units[0], heading) if not filled[column] else units[0]
        unit_height = sum(b.height for b in unit)
        if used[column] + unit_height <= height or not filled[column]:
            filled[column].extend(unit)
            used[column] += unit_height
            units.pop(0)
            heading = next((b for b in reversed(unit) if b.kind == "heading"), heading)
        else:
            column += 1
    rest = [b for unit in units for b in unit]
    return [c for c in filled if c], _headed(rest, heading) if rest else rest


def _headed(blocks: list[Block], heading: Block | None) -> list[Block]:
    """Blocks that open a column: the list's heading goes first, marked continued, unless one is there."""
    if heading is None or blocks[0].kind == "heading":
        return blocks
    return [replace(heading, continued=True), *blocks]


def balanced_height(blocks: Sequence[Block], columns: int) -> float:
    """The least column height (to HEIGHT_PRECISION) at which `columns` columns hold every block."""
    heights = [sum(b.height for b in unit) for unit in _units(blocks)]
    if not heights:
        return 0.0
    low, high = max(max(heights), sum(heights) / columns) - HEIGHT_PRECISION, sum(heights)
    while high - low > HEIGHT_PRECISION:
        middle = (low + high) / 2
        if fill_columns(blocks, columns, middle)[1]:
            low = middle
        else:
            high = middle
    return high
