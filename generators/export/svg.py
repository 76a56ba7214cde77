"""SVG pictures of puzzles, written directly as XML text.

Covers: `crossword_svg` (the grid with seam labels and, with `solution`, the
letters), `mobius_template_svg` (the strip to cut out and glue) and
`slider_svg` (start and goal boards): the figures of `figures.py` written
as SVG 1.1 elements in points. Text stays text (searchable; the tests read
it back), every string is XML-escaped, numbers are written with at most two
decimals, and nothing varies between runs: the same puzzle gives the same
bytes.

Leaves out: the geometry of the pictures (`figures.py`), clue lists (the
PDF and the player carry them) and PDF output (`pdf.py`).
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from mobius.generators.export import Puzzle
from mobius.generators.export.figures import (
    Circle,
    Figure,
    Path,
    Rect,
    Segments,
    Shape,
    Text,
    crossword_figure,
    slider_figure,
    template_figure,
)

# Fonts a viewer is asked for, first found wins: DejaVu Sans has every arrow
# and accent the labels and clues use; the others are common fallbacks.
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"


def crossword_svg(puzzle: Puzzle, *, solution: bool) -> str:
    """The crossword (or, with `solution`, its filled grid) as SVG text."""
    return figure_svg(crossword_figure(puzzle, solution=solution))


def mobius_template_svg(puzzle: Puzzle) -> str:
    """The print-and-glue strip of a Möbius strip or cylinder as SVG text; ValueError for other surfaces."""
    return figure_svg(template_figure(puzzle))


def slider_svg(puzzle: Puzzle) -> str:
    """The slider board twice, start and goal, tiles numbered, as SVG text."""
    return figure_svg(slider_figure(puzzle))


def figure_svg(figure: Figure) -> str:
    """A figure as a standalone SVG document."""
    w, h = _num(figure.width), _num(figure.height)
    head = ('<?xml version="1.0" encoding="utf-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}pt" height="{h}pt" '
            f'viewBox="0 0 {w} {h}" font-family={quoteattr(FONT_FAMILY)}>\n'
            f'<rect width="{w}" height="{h}" fill="#ffffff"/>\n')
    return head + "".join(_element(shape) + "\n" for shape in figure.shapes) + "</svg>\n"


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros: 12, 12.5, 12.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _paint(fill: str | None, stroke: str | None, width: float, dash: tuple[float, float] | None = None) -> str:
    parts = [f'fill="{fill or "none"}"']
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{_num(width)}"')
        if dash:
            parts.append(f'stroke-dasharray="{_num(dash[0])} {_num(dash[1])}"')
    return " ".join(parts)


def _element(shape: Shape) -> str:
    if isinstance(shape, Rect):
        return (f'<rect x="{_num(shape.x)}" y="{_num(shape.y)}" width="{_num(shape.w)}" height="{_num(shape.h)}" '
                f"{_paint(shape.fill, shape.stroke, shape.width)}/>")
    if isinstance(shape, Path):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
        tag = "polygon" if shape.closed else "polyline"
        # Square caps make the segments of a border meet at the corners without a notch.
        return (f'<{tag} points="{points}" {_paint(shape.fill, shape.stroke, shape.width, shape.dash)} '
                'stroke-linecap="square"/>')
    if isinstance(shape, Segments):
        d = " ".join(f"M{_num(a[0])} {_num(a[1])}L{_num(b[0])} {_num(b[1])}" for a, b in shape.lines)
        return f'<path d="{d}" {_paint(None, shape.stroke, shape.width)}/>'
    if isinstance(shape, Circle):
        return (f'<circle cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" r="{_num(shape.r)}" '
                f'{_paint(shape.fill, "#000000", shape.width, shape.dash)}/>')
    return _text(shape)


def _text(text: Text) -> str:
    x, y = _num(text.x), _num(text.y)
    attrs = [f'x="{x}" y="{y}" font-size="{_num(text.size)}"']
    if text.anchor != "start":
        attrs.append(f'text-anchor="{text.anchor}"')
    if text.bold:
        attrs.append('font-weight="bold"')
    if text.italic:
        attrs.append('font-style="italic"')
    if text.rotate:
        attrs.append(f'transform="rotate({_num(text.rotate)} {x} {y})"')
    return f"<text {' '.join(attrs)}>{escape(text.text)}</text>"
