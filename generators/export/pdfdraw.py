"""Drawing on a reportlab page: fonts, text runs and the shapes of a figure.

Covers: `Fonts` and `fonts_for(texts)` — PDF's standard fonts (Helvetica,
Times; Symbol for the arrows of the seam labels and the seam mark), which need no embedding,
whenever they can print every text, else embedded Unicode fonts: DejaVu
(Debian `fonts-dejavu-core`) or, without it, reportlab's own Vera (DejaVu's
ancestor, arrows from Symbol); `Sheet`, a canvas with its fonts and page
counter, which draws text in any role and anchor, measures it, and draws a
`figures.Figure` at any place and scale.

Leaves out: what goes on a page (`pdf.py`) and the shapes themselves
(`figures.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import reportlab
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from mobius.generators.export.figures import Circle, Figure, Rect, Segments, Text
from mobius.generators.export.figures import Path as Polyline

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
        if self.arrows is None or not ARROWS.intersection(text):
            return [(font, text)]
        runs: list[tuple[str, str]] = []
        for ch in text:
            want = self.arrows if ch in ARROWS else font
            if runs and runs[-1][0] == want:
                runs[-1] = (want, runs[-1][1] + ch)
            else:
                runs.append((want, ch))
        return runs


ARROWS = frozenset("→↓↔")  # the seam labels' arrows and the clue lists' seam mark
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
    """The canvas of a document, its fonts, and the page count (numbers printed only if `numbered`).

    Two economies keep a page's content short and quick to make: the
    graphics state last set (font, colours, line width, dash) is remembered,
    so that the same setting is not written again and again; and consecutive
    texts share one text object (PDF's BT … ET), which is drawn out before
    any other kind of drawing, so the page keeps its drawing order."""

    canvas: Canvas
    fonts: Fonts
    numbered: bool = False
    credits: str = ""  # the author and copyright line of every page's footer
    page: int = 0
    _state: dict[str, object] = field(default_factory=dict)
    _text: PDFTextObject | None = None
    _unit_widths: dict[tuple[str, str], float] = field(default_factory=dict)  # (font, text) at 1 pt

    def next_page(self) -> int | None:
        """Count the page; returns its number if pages are numbered."""
        self.page += 1
        return self.page if self.numbered else None

    def show_page(self) -> None:
        self._flush()
        self.canvas.showPage()
        self._state.clear()  # a new page starts from the default graphics state

    # -- state ------------------------------------------------------------------------------

    def _set(self, key: str, value: object, apply: Callable[[], None]) -> None:
        if self._state.get(key) != value:
            apply()
            self._state[key] = value

    def _fill(self, colour: str) -> None:
        target = self._text or self.canvas  # inside a text object, its own code keeps the order
        self._set("fill", colour, lambda: target.setFillColor(_colour(colour)))

    def _stroke(self, colour: str, width: float, dash: Sequence[float] = ()) -> None:
        self._set("stroke", colour, lambda: self.canvas.setStrokeColor(_colour(colour)))
        self._set("width", width, lambda: self.canvas.setLineWidth(width))
        self._set("dash", tuple(dash), lambda: self.canvas.setDash(list(dash)))

    def _flush(self) -> None:
        """Draw out the pending text object, before anything else is drawn."""
        if self._text is not None:
            self.canvas.drawText(self._text)
            self._text = None

    # -- text ---------------------------------------------------------------------------------

    def _run_width(self, name: str, part: str, size: float) -> float:
        """A run's width; widths grow linearly with the size, so one measure at 1 pt serves every size."""
        key = (name, part)
        if key not in self._unit_widths:
            self._unit_widths[key] = pdfmetrics.stringWidth(part, name, 1.0)
        return self._unit_widths[key] * size

    def width(self, text: str, role: str, size: float) -> float:
        return sum(self._run_width(name, part, size) for name, part in self.fonts.runs(text, self.fonts.names[role]))

    def measure(self, role: str, size: float) -> Callable[[str], float]:
        return lambda text: self.width(text, role, size)

    def text(self, x: float, y: float, text: str, role: str, size: float, *, anchor: str = "start",
             colour: str = BLACK, rotate: float = 0.0) -> None:
        """Text with its baseline at y, starting, centred or ending at x, turned `rotate` degrees clockwise."""
        if self._text is None:
            self._text = self.canvas.beginText()
        self._fill(colour)
        runs = self.fonts.runs(text, self.fonts.names[role])
        shift = 0.0
        if anchor != "start":
            width = sum(self._run_width(name, part, size) for name, part in runs)
            shift = width / 2 if anchor == "middle" else width
        # The text matrix: the baseline's direction (cos, sin), turned counter-clockwise in page space.
        cos, sin = math.cos(math.radians(-rotate)), math.sin(math.radians(-rotate))
        self._text.setTextTransform(cos, sin, -sin, cos, x - shift * cos, y - shift * sin)
        for name, part in runs:
            self._set("font", (name, size), lambda: self._text.setFont(name, size))
            self._text.textOut(part)

    # -- shapes ---------------------------------------------------------------------------------

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float, colour: str) -> None:
        self._flush()
        self._stroke(colour, width)
        self.canvas.line(x0, y0, x1, y1)

    def figure(self, figure: Figure, left: float, top: float, scale: float) -> None:
        """Draw `figure` with its top-left corner at (left, top), `scale` page points per figure point.
        Its texts are drawn over its shapes, as the figures are made to be."""
        self._flush()
        c = self.canvas
        c.saveState()
        c.setLineCap(2)  # square caps, as the SVG: border segments meet without a notch

        def at(x: float, y: float) -> tuple[float, float]:
            return left + x * scale, top - y * scale  # the figure's y grows downwards, the page's upwards

        texts = []
        for shape in figure.shapes:
            if isinstance(shape, Text):
                texts.append(shape)
            elif isinstance(shape, Rect):
                self._rect(shape, at, scale)
            elif isinstance(shape, Circle):
                self._stroke(BLACK, shape.width * scale, [d * scale for d in shape.dash] if shape.dash else ())
                self._fill(shape.fill)
                c.circle(*at(shape.cx, shape.cy), shape.r * scale, stroke=1, fill=1)
            else:
                self._path(shape, at, scale)
        for text in texts:
            self.text(*at(text.x, text.y), text.text, "bold" if text.bold else "sans", text.size * scale,
                      anchor=text.anchor, rotate=text.rotate)
        self._flush()
        c.restoreState()
        self._state.clear()  # restoring the saved state undid what was set since

    def _rect(self, shape: Rect, at: Callable[[float, float], tuple[float, float]], scale: float) -> None:
        if shape.stroke:
            self._stroke(shape.stroke, shape.width * scale)
        if shape.fill:
            self._fill(shape.fill)
        x, y = at(shape.x, shape.y + shape.h)
        self.canvas.rect(x, y, shape.w * scale, shape.h * scale, stroke=int(bool(shape.stroke)),
                         fill=int(bool(shape.fill)))

    def _path(self, shape: Polyline | Segments, at: Callable[[float, float], tuple[float, float]],
              scale: float) -> None:
        dash = getattr(shape, "dash", None)
        self._stroke(shape.stroke, shape.width * scale, [d * scale for d in dash] if dash else ())
        path = self.canvas.beginPath()
        if isinstance(shape, Segments):
            for a, b in shape.lines:
                path.moveTo(*at(*a))
                path.lineTo(*at(*b))
            self.canvas.drawPath(path, stroke=1, fill=0)
            return
        (x0, y0), *rest = shape.points
        path.moveTo(*at(x0, y0))
        for x, y in rest:
            path.lineTo(*at(x, y))
        if shape.closed:
            path.close()
        if shape.fill:
            self._fill(shape.fill)
        self.canvas.drawPath(path, stroke=1, fill=int(bool(shape.fill)))
