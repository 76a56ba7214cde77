"""Drawing on a reportlab page: fonts, text runs and the shapes of a figure.

Covers: `Fonts` and `fonts_for(texts)` — PDF's standard fonts (Helvetica,
Times; Symbol for the arrows of the seam labels), which need no embedding,
whenever they can print every text, else embedded Unicode fonts: DejaVu
(Debian `fonts-dejavu-core`) or, without it, reportlab's own Vera (DejaVu's
ancestor, arrows from Symbol); `Sheet`, a canvas with its fonts and page
counter, which draws text in any role and anchor, measures it, and draws a
`figures.Figure` at any place and scale.

Leaves out: what goes on a page (`pdf.py`) and the shapes themselves
(`figures.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import reportlab
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generators.export.figures import Circle, Figure, Rect, Text
from generators.export.figures import Path as Polyline

BLACK = "#000000"


# --- fonts ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fonts:
    """The fonts of one document: a name per role (sans, bold, serif, serif-bold), and
    the font that draws the arrows of the seam labels when those lack them."""

    names: dict[str, str]
    arrows: str | None

    def runs(self, text: str, font: str) -> list[tuple[str, str]]:
        """The text as (font, part) runs: arrows in the arrow font, the rest in `font`."""
        if self.arrows is None or not ARROWS & set(text):
            return [(font, text)]
        runs: list[tuple[str, str]] = []
        for ch in text:
            want = self.arrows if ch in ARROWS else font
            if runs and runs[-1][0] == want:
                runs[-1] = (want, runs[-1][1] + ch)
            else:
                runs.append((want, ch))
        return runs


ARROWS = frozenset("→↓")
# PDF's standard fonts need no embedding (each embedded font costs a document about 1.5 ms and 20 kB)
# and cover Windows-1252: every accent, quote and dash of English clues. Symbol has the arrows.
STANDARD = Fonts({"sans": "Helvetica", "bold": "Helvetica-Bold", "serif": "Times-Roman",
                  "serif-bold": "Times-Bold"}, arrows="Symbol")
STANDARD_ENCODING = "cp1252"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")  # Debian fonts-dejavu-core
DEJAVU = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "serif": "DejaVuSerif.ttf",
          "serif-bold": "DejaVuSerif-Bold.ttf"}
VERA = {"sans": "Vera.ttf", "bold": "VeraBd.ttf", "serif": "Vera.ttf", "serif-bold": "VeraBd.ttf"}


def fonts_for(texts: Iterable[str]) -> Fonts:
    """The standard fonts when they can print every text, else embedded Unicode fonts."""
    try:
        for text in texts:
            "".join(ch for ch in text if ch not in ARROWS).encode(STANDARD_ENCODING)
    except UnicodeEncodeError:
        return embedded_fonts()
    return STANDARD


@cache
def embedded_fonts() -> Fonts:
    """DejaVu, or Vera where DejaVu is not installed; registered once per process, embedded as subsets."""
    if all((FONT_DIR / name).is_file() for name in DEJAVU.values()):
        files, prefix, arrows = {r: FONT_DIR / n for r, n in DEJAVU.items()}, "DejaVu", None
    else:
        vera = Path(reportlab.__file__).with_name("fonts")
        files, prefix, arrows = {r: vera / n for r, n in VERA.items()}, "Vera", "Symbol"
    names = {}
    for role, path in files.items():
        names[role] = f"{prefix}-{role}"
        pdfmetrics.registerFont(TTFont(names[role], str(path)))
    return Fonts(names, arrows)


@cache
def _colour(hex_code: str) -> HexColor:
    return HexColor(hex_code)


# --- a page being drawn -------------------------------------------------------------------

@dataclass
class Sheet:
    """The canvas of a document, its fonts, and the page numbers (None: pages are not numbered)."""

    canvas: Canvas
    fonts: Fonts
    numbered: bool = False
    page: int = field(default=0)

    def next_page(self) -> int | None:
        """Finish the page; returns its number if pages are numbered."""
        self.page += 1
        return self.page if self.numbered else None

    def width(self, text: str, role: str, size: float) -> float:
        return sum(pdfmetrics.stringWidth(part, name, size) for name, part in self.fonts.runs(text, self.fonts.names[role]))

    def measure(self, role: str, size: float) -> Callable[[str], float]:
        return lambda text: self.width(text, role, size)

    def text(self, x: float, y: float, text: str, role: str, size: float, *, anchor: str = "start",
             colour: str = BLACK) -> None:
        """Text with its baseline at y, starting, centred or ending at x."""
        c = self.canvas
        c.setFillColor(_colour(colour))
        runs = self.fonts.runs(text, self.fonts.names[role])
        if anchor != "start":
            width = sum(pdfmetrics.stringWidth(part, name, size) for name, part in runs)
            x -= width / 2 if anchor == "middle" else width
        for name, part in runs:
            c.setFont(name, size)
            c.drawString(x, y, part)
            x += pdfmetrics.stringWidth(part, name, size)

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float, colour: str) -> None:
        self.canvas.setStrokeColor(_colour(colour))
        self.canvas.setLineWidth(width)
        self.canvas.line(x0, y0, x1, y1)

    def figure(self, figure: Figure, left: float, top: float, scale: float) -> None:
        """Draw `figure` with its top-left corner at (left, top), `scale` page points per figure point."""
        c = self.canvas
        c.saveState()
        c.setLineCap(2)  # square caps, as the SVG: border segments meet without a notch

        def x_(x: float) -> float:
            return left + x * scale

        def y_(y: float) -> float:
            return top - y * scale  # the figure's y grows downwards, the page's upwards

        for shape in figure.shapes:
            if isinstance(shape, Text):
                self._figure_text(shape, x_(shape.x), y_(shape.y), scale)
                continue
            stroke = BLACK if isinstance(shape, Circle) else shape.stroke
            c.setLineWidth(shape.width * scale)
            if stroke:
                c.setStrokeColor(_colour(stroke))
            if shape.fill:
                c.setFillColor(_colour(shape.fill))
            dash = None if isinstance(shape, Rect) else shape.dash
            c.setDash([d * scale for d in dash] if dash else [])
            if isinstance(shape, Rect):
                c.rect(x_(shape.x), y_(shape.y + shape.h), shape.w * scale, shape.h * scale,
                       stroke=int(bool(stroke)), fill=int(bool(shape.fill)))
            elif isinstance(shape, Circle):
                c.circle(x_(shape.cx), y_(shape.cy), shape.r * scale, stroke=1, fill=1)
            else:
                self._path(shape, x_, y_)
        c.restoreState()

    def _path(self, shape: Polyline, x_: Callable[[float], float], y_: Callable[[float], float]) -> None:
        path = self.canvas.beginPath()
        (x0, y0), *rest = shape.points
        path.moveTo(x_(x0), y_(y0))
        for x, y in rest:
            path.lineTo(x_(x), y_(y))
        if shape.closed:
            path.close()
        self.canvas.drawPath(path, stroke=1, fill=int(bool(shape.fill)))

    def _figure_text(self, text: Text, x: float, y: float, scale: float) -> None:
        role = "bold" if text.bold else "sans"
        if not text.rotate:
            self.text(x, y, text.text, role, text.size * scale, anchor=text.anchor)
            return
        c = self.canvas
        c.saveState()
        c.translate(x, y)
        c.rotate(-text.rotate)  # the figure turns clockwise on the page, reportlab counter-clockwise
        self.text(0.0, 0.0, text.text, role, text.size * scale, anchor=text.anchor)
        c.restoreState()
