"""Printable pictures of puzzles as plain shapes, for the SVG and PDF writers.

Covers: `Figure`, a list of shapes (rectangles, polylines and polygons,
circles, text) in points with y growing downwards, and the figures of
- a crossword grid (`crossword_figure`): blocks, bars (thick lines), clue
  numbers and, for the solution, the letters. At each glued edge, labels say
  where a light continues, read from the puzzle's `glue` field: "→ 3" beside
  a row on the right edge means "go on at the row marked 3 → on the left
  edge"; "↓2" under a column means "go on at the column marked 2↓ on the top
  edge". Numbers are 1-based, as a solver on paper counts. Glued edges are
  drawn dashed, borders solid. With `caption`, a title above and the seam
  note below (the SVG picture); without, the bare grid that a PDF page
  places and captions itself;
- the print-and-glue strip (`template_figure`) for surfaces glued left to
  right only (Möbius strip, cylinder), with a glue tab and instructions
  and, with `caption`, a title (a booklet page titles it itself);
- a slider board (`slider_figure`), start and goal side by side, tiles
  numbered and the blank left empty; a board without a layout is drawn by
  `mobius.cpmodel.slider.drawing`, as packs draw it.

Text positions are baselines; the writers place text exactly there, so the
SVG and the PDF of one figure look the same. Notes are wrapped by an
estimate of characters per width (the writers measure no text).

Leaves out: writing any file format (`svg.py`, `pdf.py`) and page layout.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mobius.cpmodel.slider.drawing import drawn_layout
from mobius.generators.export import (
    ExportError,
    Puzzle,
    bar_cells,
    clue_numbers,
    glued_edges,
    is_band,
    is_block,
    reading_note,
    require_kind,
    surface_name,
    title,
)

Point = tuple[float, float]
Placer = Callable[[float, float], Point]  # grid (or board) coordinates -> points of the figure

CELL = 30.0  # points per cell (about 10.6 mm): room for a handwritten letter
SIDE_MARGIN = 1.0  # cells beside the grid: room for row labels like "→ 12"
PLAIN_MARGIN = 0.3
TITLE_SPACE = 0.9
LABEL_SPACE = 0.6  # cells above/below the grid for column labels
LINE_SPACE = 0.45  # cells per line of notes under a picture
NOTE_CHARS_PER_CELL = 7  # a note line at NOTE_PT wraps at about this many characters per cell of width
MIN_WIDTH = 10  # cells: narrow grids get wider margins so titles and notes fit
NUMBER_PT, LETTER_PT, LABEL_PT, TITLE_PT, NOTE_PT = 6.5, 14.0, 7.0, 11.0, 7.0
GRID_LW, BORDER_LW, BAR_LW = 0.6, 1.6, 3.2
GRID_GREY = "#737373"  # cell lines lighter than borders and bars, which carry meaning
SEAM_DASH = (4.0, 3.0)  # a glued edge is a seam, not a border
CAP_HEIGHT = 0.36  # of the font size: a baseline this far below a centre line centres capitals on it

TAB_DEPTH = 0.9  # cells: the glue tab of the print-and-glue template
TAB_INSET = 0.35
TAB_GREY = "#e0e0e0"

SLIDER_UNIT = 47.0  # points between the two closest vertices of a board
PANEL_GAP = 1.2  # slider: space between the start and goal boards, in those units
SLIDER_CAPTION_SPACE = 0.5
TILE_RADIUS = 0.32  # of the same unit, so neighbouring tiles never touch
TILE_GREY = "#d9d9d9"


# --- shapes ------------------------------------------------------------------------

@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = "#ffffff"
    stroke: str | None = GRID_GREY
    width: float = GRID_LW


@dataclass(frozen=True)
class Path:
    """A polyline, or with `closed` a polygon."""

    points: tuple[Point, ...]
    width: float
    closed: bool = False
    fill: str | None = None
    stroke: str = "#000000"
    dash: tuple[float, float] | None = None


@dataclass(frozen=True)
class Segments:
    """Separate straight lines drawn as one shape (a grid's cell lines)."""

    lines: tuple[tuple[Point, Point], ...]
    width: float
    stroke: str = GRID_GREY


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    width: float
    dash: tuple[float, float] | None = None


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    size: float
    anchor: str = "start"  # start, middle or end of the text at x
    bold: bool = False
    italic: bool = False
    rotate: float = 0.0  # degrees clockwise about (x, y), as SVG turns


Shape = Rect | Path | Segments | Circle | Text


@dataclass
class Figure:
    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)

    def add(self, *shapes: Shape) -> None:
        self.shapes.extend(shapes)


def _centred_text(x: float, y: float, text: str, size: float, *, bold: bool = False) -> Text:
    """Text centred on (x, y): the baseline is set so capitals sit centred on y."""
    return Text(x, y + CAP_HEIGHT * size, text, size, anchor="middle", bold=bold)


def wrap(text: str, width_cells: float) -> list[str]:
    return textwrap.wrap(text, width=int(width_cells * NOTE_CHARS_PER_CELL))


# --- crosswords --------------------------------------------------------------------

@dataclass(frozen=True)
class GridBox:
    """Where the grid sits in its figure, in cells: the figure spans x from
    `-left` to `width + right` and y from `-top` to `height + bottom`."""

    left: float
    right: float
    top: float
    bottom: float


def crossword_figure(puzzle: Puzzle, *, solution: bool, caption: bool = True, label_scale: float = 1.0) -> Figure:
    """The crossword grid (with `solution`, filled); with `caption`, titled and with its seam note.

    `label_scale` enlarges the seam labels and the margins that hold them, so
    that a large grid printed small keeps labels that can be read."""
    require_kind(puzzle, "crossword")
    width, height = puzzle["width"], puzzle["height"]
    rows_glued, columns_glued = glued_edges(puzzle)
    label_space = LABEL_SPACE * label_scale
    side = SIDE_MARGIN * label_scale if rows_glued else PLAIN_MARGIN
    if caption:
        side = max(side, (MIN_WIDTH - width) / 2)
    notes = wrap(reading_note(puzzle), width + 2 * side) if caption else []
    box = GridBox(left=side, right=side,
                  top=(TITLE_SPACE if caption else PLAIN_MARGIN) + (label_space if columns_glued else 0),
                  bottom=(label_space if columns_glued else PLAIN_MARGIN) + LINE_SPACE * len(notes)
                  + (PLAIN_MARGIN if notes else 0))
    fig, at = _grid_canvas(width, height, box)
    if caption:
        subtitle = f"{surface_name(puzzle)} — solution" if solution else surface_name(puzzle)
        fig.add(Text(*at(width / 2, -box.top + 0.15 + TITLE_PT / CELL), f"{title(puzzle)}  ({subtitle})", TITLE_PT,
                     anchor="middle", bold=True))
    _draw_grid(fig, at, puzzle, solution=solution)
    _draw_seam_labels(fig, at, puzzle, LABEL_PT * label_scale)
    below = height + (label_space if columns_glued else PLAIN_MARGIN)
    for i, line in enumerate(notes):
        fig.add(Text(*at(width / 2, below + (i + 0.7) * LINE_SPACE), line, NOTE_PT, anchor="middle", italic=True))
    return fig


def _grid_canvas(width: float, height: float, box: GridBox) -> tuple[Figure, Placer]:
    """An empty figure round a grid and the function from grid cells to its points."""
    fig = Figure((width + box.left + box.right) * CELL, (height + box.top + box.bottom) * CELL)

    def at(x: float, y: float) -> Point:
        return ((x + box.left) * CELL, (y + box.top) * CELL)

    return fig, at


def _draw_grid(fig: Figure, at: Placer, puzzle: Puzzle, *, solution: bool) -> None:
    """Cells (a white ground, the blocks, the cell lines), clue numbers, letters
    (with `solution`), bars and the outer edges: a few shapes, not one per cell."""
    numbers = clue_numbers(puzzle)
    width, height = puzzle["width"], puzzle["height"]
    fig.add(Rect(*at(0, 0), width * CELL, height * CELL, stroke=None))
    for y, row in enumerate(puzzle["rows"]):
        for x, _ in enumerate(row):
            if is_block(puzzle, (x, y)):
                fig.add(Rect(*at(x, y), CELL, CELL, fill="#000000", stroke=None))
    fig.add(Segments(tuple((at(x, 0), at(x, height)) for x in range(1, width)) +
                     tuple((at(0, y), at(width, y)) for y in range(1, height)), GRID_LW))
    for y, row in enumerate(puzzle["rows"]):
        for x, letter in enumerate(row):
            block = is_block(puzzle, (x, y))
            if (x, y) in numbers:
                fig.add(Text(*at(x + 0.06, y + 0.05 + NUMBER_PT / CELL), str(numbers[(x, y)]), NUMBER_PT))
            if solution and not block:
                fig.add(_centred_text(*at(x + 0.5, y + 0.57), letter, LETTER_PT))
    for x, y in sorted(bar_cells(puzzle, "bars_right")):
        fig.add(Path((at(x + 1, y), at(x + 1, y + 1)), BAR_LW))
    for x, y in sorted(bar_cells(puzzle, "bars_below")):
        fig.add(Path((at(x, y + 1), at(x + 1, y + 1)), BAR_LW))
    _draw_edges(fig, at, puzzle)


def _draw_edges(fig: Figure, at: Placer, puzzle: Puzzle) -> None:
    """Borders solid, glued edges (seams) dashed."""
    width, height = puzzle["width"], puzzle["height"]
    rows_glued, columns_glued = glued_edges(puzzle)
    for (a, b), glued in ((((0, 0), (0, height)), rows_glued), (((width, 0), (width, height)), rows_glued),
                          (((0, 0), (width, 0)), columns_glued), (((0, height), (width, height)), columns_glued)):
        fig.add(Path((at(*a), at(*b)), BORDER_LW, dash=SEAM_DASH if glued else None))


def _draw_seam_labels(fig: Figure, at: Placer, puzzle: Puzzle, size: float) -> None:
    """"→ t" after each glued row and "t →" before each row a light enters by;
    "↓t" under each glued column and "t↓" over each column entered from the top."""
    width, height = puzzle["width"], puzzle["height"]
    glue = puzzle["glue"]
    middle = CAP_HEIGHT * size / CELL  # baseline offset that centres the label on a row
    for y, target in enumerate(glue["right"]):
        if target is not None:
            fig.add(Text(*at(width + 0.12, y + 0.5 + middle), f"→ {target + 1}", size))
    for y in sorted({t for t in glue["right"] if t is not None}):
        fig.add(Text(*at(-0.12, y + 0.5 + middle), f"{y + 1} →", size, anchor="end"))
    for x, target in enumerate(glue["bottom"]):
        if target is not None:
            fig.add(Text(*at(x + 0.5, height + 0.08 + size / CELL), f"↓{target + 1}", size, anchor="middle"))
    for x in sorted({t for t in glue["bottom"] if t is not None}):
        fig.add(Text(*at(x + 0.5, -0.12), f"{x + 1}↓", size, anchor="middle"))


# --- print-and-glue template -------------------------------------------------------------

def template_figure(puzzle: Puzzle, *, caption: bool = True) -> Figure:
    """A strip to cut out and glue into the puzzle's surface.

    Made for the Möbius strip (glued left to right with a flip: half twist);
    a cylinder (no flip) gets the same strip without the twist. ExportError
    for other surfaces: paper cannot make them."""
    require_kind(puzzle, "crossword")
    if not is_band(puzzle):
        raise ExportError(f"a {puzzle['surface']} surface: the print-and-glue template needs the left and right "
                         "edges glued and the top and bottom free (Möbius strip or cylinder)")
    width, height = puzzle["width"], puzzle["height"]
    flip = bool(puzzle["glue"].get("right_flip"))
    right = max(width + TAB_DEPTH + PLAIN_MARGIN, MIN_WIDTH - SIDE_MARGIN)
    notes = wrap(_template_instructions(flip), right + SIDE_MARGIN)
    box = GridBox(SIDE_MARGIN, right - width, TITLE_SPACE if caption else PLAIN_MARGIN,
                  PLAIN_MARGIN + LINE_SPACE * (len(notes) + 1))
    fig, at = _grid_canvas(width, height, box)
    if caption:
        fig.add(Text(*at(width / 2, -TITLE_SPACE + 0.15 + TITLE_PT / CELL), f"{title(puzzle)} — cut out and glue",
                     TITLE_PT, anchor="middle", bold=True))
    _draw_grid(fig, at, puzzle, solution=False)
    _draw_glue_marks(fig, at, width, height, flip)
    for i, line in enumerate(notes):
        fig.add(Text(*at(-SIDE_MARGIN + 0.2, height + PLAIN_MARGIN + (i + 0.7) * LINE_SPACE), line, NOTE_PT,
                     italic=True))
    return fig


def _draw_glue_marks(fig: Figure, at: Placer, width: int, height: int, flip: bool) -> None:
    """The tab on the right edge and the matching mark on the left edge, each
    with an arrow for the direction in which the two edges meet."""
    tab = (at(width, 0), at(width + TAB_DEPTH, TAB_INSET), at(width + TAB_DEPTH, height - TAB_INSET), at(width, height))
    fig.add(Path(tab, GRID_LW, closed=True, fill=TAB_GREY))
    middle = width + TAB_DEPTH / 2
    fig.add(_centred_text(*at(middle, height / 2), "A", TITLE_PT, bold=True))
    fig.add(Text(*at(middle + 0.08, TAB_INSET + 0.15), "glue", NOTE_PT, anchor="end", rotate=-90))  # reads upwards
    # With a half twist the left edge read top to bottom meets the right edge read bottom to top.
    _arrow(fig, at, middle + 0.25, height - 0.4, 0.4, upwards=flip)
    fig.add(_centred_text(*at(-SIDE_MARGIN / 2, height / 2), "A", TITLE_PT, bold=True))
    _arrow(fig, at, -SIDE_MARGIN / 2 + 0.25, 0.4, height - 0.4, upwards=False)


ARROW_HEAD = 0.12  # cells


def _arrow(fig: Figure, at: Placer, x: float, y_from: float, y_to: float, *, upwards: bool) -> None:
    low, high = max(y_from, y_to), min(y_from, y_to)  # y grows downwards
    start, end = (low, high) if upwards else (high, low)
    back = ARROW_HEAD if upwards else -ARROW_HEAD  # the head's base lies back towards the start
    fig.add(Path((at(x, start), at(x, end)), GRID_LW * 2))
    fig.add(Path((at(x - ARROW_HEAD, end + back), at(x, end), at(x + ARROW_HEAD, end + back)), GRID_LW * 2))


def _template_instructions(flip: bool) -> str:
    if flip:
        return ("Cut out the strip with its tab. Give the strip a half twist and glue the tab marked A behind the "
                "edge marked A: the left edge, top to bottom, meets the right edge bottom to top, as the arrows "
                "show. Lights that run off the right edge now carry on around the strip.")
    return ("Cut out the strip with its tab. Roll it into a ring without twisting and glue the tab marked A behind "
            "the edge marked A: the left edge meets the right edge top to top, as the arrows show. Lights that "
            "run off the right edge now carry on around the ring.")


# --- sliders ----------------------------------------------------------------------

def slider_figure(puzzle: Puzzle, *, panels: Sequence[str] = ("start", "goal")) -> Figure:
    """The slider board once per panel ("start", "goal"), tiles numbered."""
    require_kind(puzzle, "slider")
    board = puzzle["board"]
    # A puzzle file written by hand may carry a bare edge list: drawn as a pack would draw it.
    layout = board.get("layout") or drawn_layout(board["vertices"], [tuple(e) for e in board["edges"]])
    points = _normalised(layout)
    span_x = max(x for x, _ in points)
    span_y = max(y for _, y in points)
    offset = span_x + PANEL_GAP
    margin = TILE_RADIUS + 0.2
    top = margin + SLIDER_CAPTION_SPACE
    fig = Figure((2 * margin + span_x + offset * (len(panels) - 1)) * SLIDER_UNIT,
                 (top + span_y + margin) * SLIDER_UNIT)

    def at(x: float, y: float) -> Point:
        return ((x + margin) * SLIDER_UNIT, (y + top) * SLIDER_UNIT)

    captions = {"start": ("Start", puzzle["start"]), "goal": (f"Goal — {puzzle['length']} moves", puzzle["goal"])}
    for i, panel in enumerate(panels):
        caption, state = captions[panel]
        dx = i * offset
        fig.add(Text(*at(dx + span_x / 2, -top + 0.1 + TITLE_PT / SLIDER_UNIT), caption, TITLE_PT, anchor="middle",
                     bold=True))
        _draw_board(fig, [at(x + dx, y) for x, y in points], board["edges"], state)
    return fig


def _normalised(layout: Sequence[Sequence[float]]) -> list[Point]:
    """Layout points scaled so the closest two vertices are one unit apart,
    moved to start at (0, 0), and flipped so y grows downwards like the page."""
    points = [(float(x), -float(y)) for x, y in layout]
    closest = min((math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1:]), default=1.0) or 1.0
    min_x = min(x for x, _ in points)
    min_y = min(y for _, y in points)
    return [((x - min_x) / closest, (y - min_y) / closest) for x, y in points]


def _draw_board(fig: Figure, points: Sequence[Point], edges: Sequence[Sequence[int]], state: Sequence[int]) -> None:
    for u, v in edges:
        fig.add(Path((points[u], points[v]), GRID_LW * 2))
    for (x, y), tile in zip(points, state):
        blank = tile == 0
        fig.add(Circle(x, y, TILE_RADIUS * SLIDER_UNIT, fill="#ffffff" if blank else TILE_GREY, width=GRID_LW * 2,
                       dash=SEAM_DASH if blank else None))
        if not blank:
            fig.add(_centred_text(x, y, str(tile), LETTER_PT))
