"""Printable pictures of puzzles: SVG (and PDF) drawn with matplotlib.

Covers:
- `crossword_svg` / `crossword_pdf`: the unfolded rectangle with blocks,
  bars (thick lines), clue numbers and, for the solution, the letters. At
  each glued edge, labels say where a light continues, read from the
  puzzle's `glue` field: "→ 3" beside a row on the right edge means "go on
  at the row marked 3 → on the left edge"; "↓2" under a column means "go on
  at the column marked 2↓ on the top edge". Numbers are 1-based, as a solver
  on paper counts. Glued edges are drawn dashed, borders solid.
- `mobius_template_svg`: a print-and-glue strip for surfaces glued left to
  right only (Möbius strip, cylinder) with a glue tab and the instructions.
- `slider_svg`: a slider board drawn from its layout, start and goal side by
  side, tiles numbered and the blank left empty.

Output is byte-identical across runs: a fixed `svg.hashsalt` for element
ids, no dates in the metadata, text kept as text (`svg.fonttype: none`),
and the figure built in a private rc context so global matplotlib settings
neither leak in nor out.

Leaves out: clue lists (the pack's HTML and the other exports carry the
clues) and page layout of several puzzles on one sheet.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Callable, Sequence

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Polygon, Rectangle

from generators.export import (
    Puzzle,
    bar_cells,
    clue_numbers,
    glued_edges,
    is_block,
    require_kind,
    title,
)

# Rendering settings fixed here so every run (and every machine) draws the same bytes.
# Text stays text in SVG (searchable, and the tests read it back); PDFs embed TrueType (42), not Type 3.
RC = {"svg.hashsalt": "mobius-puzzles", "svg.fonttype": "none", "pdf.fonttype": 42,
      "font.family": "DejaVu Sans", "font.size": 8}
METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}

CELL_INCHES = 0.42  # about 11 mm: room for a handwritten letter
SIDE_MARGIN = 1.0  # cells beside the grid: room for row labels like "→ 12"
PLAIN_MARGIN = 0.3
TITLE_SPACE = 0.9
LABEL_SPACE = 0.6  # cells above/below the grid for column labels
LINE_SPACE = 0.45  # cells per line of notes under a picture
NOTE_CHARS_PER_CELL = 7  # a note line wraps at about this many characters per cell of width
MIN_WIDTH = 10  # cells: narrow grids get wider margins so titles and notes fit
NUMBER_PT, LETTER_PT, LABEL_PT, TITLE_PT, NOTE_PT = 6, 14, 7, 11, 7
GRID_LW, BORDER_LW, BAR_LW = 0.6, 1.6, 3.2
SEAM_STYLE = (0, (4, 3))  # dashed: a glued edge is a seam, not a border

TAB_DEPTH = 0.9  # cells: the glue tab of the print-and-glue template
TAB_INSET = 0.35

SLIDER_UNIT_INCHES = 0.65  # the shortest distance between two vertices, on paper
PANEL_GAP = 1.2  # slider: space between the start and goal boards, in those units
SLIDER_CAPTION_SPACE = 0.5
TILE_RADIUS = 0.32  # of the same unit, so neighbouring tiles never touch


# --- rendering -------------------------------------------------------------------

def _render(draw: Callable[[Figure], None], fmt: str) -> bytes:
    """Build the figure inside the fixed rc context and save it as `fmt`."""
    with matplotlib.rc_context(RC):
        fig = Figure()
        draw(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, metadata=METADATA[fmt])
    return buffer.getvalue()


def _canvas(fig: Figure, left: float, right: float, top: float, bottom: float, unit_inches: float) -> Axes:
    """Axes spanning the whole figure, x from `left` to `right` and y growing
    downwards from `top` to `bottom`, one data unit = `unit_inches`."""
    fig.set_size_inches((right - left) * unit_inches, (bottom - top) * unit_inches)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_axis_off()
    return ax


# --- crosswords --------------------------------------------------------------------

def crossword_svg(puzzle: Puzzle, *, solution: bool) -> str:
    """The crossword (or, with `solution`, its filled grid) as SVG text."""
    return _crossword(puzzle, solution=solution, fmt="svg").decode("utf-8")


def crossword_pdf(puzzle: Puzzle, *, solution: bool) -> bytes:
    """The same picture as `crossword_svg`, as a one-page PDF."""
    return _crossword(puzzle, solution=solution, fmt="pdf")


def _crossword(puzzle: Puzzle, *, solution: bool, fmt: str) -> bytes:
    require_kind(puzzle, "crossword")
    width, height = puzzle["width"], puzzle["height"]
    rows_glued, columns_glued = glued_edges(puzzle)
    side = max(SIDE_MARGIN if rows_glued else PLAIN_MARGIN, (MIN_WIDTH - width) / 2)
    top = TITLE_SPACE + (LABEL_SPACE if columns_glued else 0)
    below_grid = LABEL_SPACE if columns_glued else PLAIN_MARGIN
    notes = _wrap(_seam_note(rows_glued, columns_glued), width + 2 * side) if rows_glued or columns_glued else []

    def draw(fig: Figure) -> None:
        ax = _canvas(fig, -side, width + side, -top, height + below_grid + LINE_SPACE * len(notes) + PLAIN_MARGIN,
                     CELL_INCHES)
        subtitle = f"{puzzle['surface']} — solution" if solution else puzzle["surface"]
        ax.text(width / 2, -top + 0.15, f"{title(puzzle)}  ({subtitle})", ha="center", va="top",
                fontsize=TITLE_PT, fontweight="bold")
        _draw_grid(ax, puzzle, solution=solution)
        _draw_seam_labels(ax, puzzle)
        _draw_lines(ax, width / 2, height + below_grid, notes, ha="center")

    return _render(draw, fmt)


def _wrap(text: str, width_cells: float) -> list[str]:
    return textwrap.wrap(text, width=int(width_cells * NOTE_CHARS_PER_CELL))


def _draw_lines(ax: Axes, x: float, y: float, lines: Sequence[str], *, ha: str) -> None:
    """Note lines, one text element each, from `y` downwards."""
    for i, line in enumerate(lines):
        ax.text(x, y + i * LINE_SPACE, line, ha=ha, va="top", fontsize=NOTE_PT, style="italic")


def _seam_note(rows_glued: bool, columns_glued: bool) -> str:
    parts = []
    if rows_glued:
        parts.append("a row leaving the right edge at “→ n” goes on at “n →” on the left edge")
    if columns_glued:
        parts.append("a column leaving the bottom at “↓n” goes on at “n↓” at the top")
    return "Seams: " + "; ".join(parts) + "."


def _draw_grid(ax: Axes, puzzle: Puzzle, *, solution: bool) -> None:
    """Cells, clue numbers, letters (with `solution`), bars and the outer edges."""
    numbers = clue_numbers(puzzle)
    for y, row in enumerate(puzzle["rows"]):
        for x, letter in enumerate(row):
            block = is_block(puzzle, (x, y))
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor="black" if block else "white",
                                   edgecolor="0.45", linewidth=GRID_LW))
            if (x, y) in numbers:
                ax.text(x + 0.06, y + 0.05, str(numbers[(x, y)]), ha="left", va="top", fontsize=NUMBER_PT)
            if solution and not block:
                ax.text(x + 0.5, y + 0.6, letter, ha="center", va="center", fontsize=LETTER_PT)
    for x, y in sorted(bar_cells(puzzle, "bars_right")):
        _line(ax, [(x + 1, y), (x + 1, y + 1)], BAR_LW)
    for x, y in sorted(bar_cells(puzzle, "bars_below")):
        _line(ax, [(x, y + 1), (x + 1, y + 1)], BAR_LW)
    _draw_edges(ax, puzzle)


def _draw_edges(ax: Axes, puzzle: Puzzle) -> None:
    """Borders solid, glued edges (seams) dashed."""
    width, height = puzzle["width"], puzzle["height"]
    rows_glued, columns_glued = glued_edges(puzzle)
    for edge, glued in (([(0, 0), (0, height)], rows_glued), ([(width, 0), (width, height)], rows_glued),
                        ([(0, 0), (width, 0)], columns_glued), ([(0, height), (width, height)], columns_glued)):
        _line(ax, edge, BORDER_LW, linestyle=SEAM_STYLE if glued else "solid")


def _line(ax: Axes, points: Sequence[tuple[float, float]], width: float, linestyle: object = "solid") -> None:
    xs, ys = zip(*points)
    ax.plot(xs, ys, color="black", linewidth=width, linestyle=linestyle, solid_capstyle="projecting")


def _draw_seam_labels(ax: Axes, puzzle: Puzzle) -> None:
    """"→ t" after each glued row and "t →" before each row a light enters by;
    "↓t" under each glued column and "t↓" over each column entered from the top."""
    width, height = puzzle["width"], puzzle["height"]
    glue = puzzle["glue"]
    for y, target in enumerate(glue["right"]):
        if target is not None:
            ax.text(width + 0.12, y + 0.5, f"→ {target + 1}", ha="left", va="center", fontsize=LABEL_PT)
    for y in sorted({t for t in glue["right"] if t is not None}):
        ax.text(-0.12, y + 0.5, f"{y + 1} →", ha="right", va="center", fontsize=LABEL_PT)
    for x, target in enumerate(glue["bottom"]):
        if target is not None:
            ax.text(x + 0.5, height + 0.08, f"↓{target + 1}", ha="center", va="top", fontsize=LABEL_PT)
    for x in sorted({t for t in glue["bottom"] if t is not None}):
        ax.text(x + 0.5, -0.08, f"{x + 1}↓", ha="center", va="bottom", fontsize=LABEL_PT)


# --- print-and-glue template -------------------------------------------------------------

def mobius_template_svg(puzzle: Puzzle) -> str:
    """A strip to cut out and glue into the puzzle's surface, as SVG text.

    Made for the Möbius strip (glued left to right with a flip: half twist);
    a cylinder (no flip) gets the same strip without the twist. ValueError
    for surfaces with glued top and bottom edges, which paper cannot make."""
    require_kind(puzzle, "crossword")
    rows_glued, columns_glued = glued_edges(puzzle)
    if not rows_glued or columns_glued:
        raise ValueError(f"puzzle {puzzle['id']} is on a {puzzle['surface']} surface: the print-and-glue "
                         "template needs the left and right edges glued and the top and bottom free "
                         "(Möbius strip or cylinder)")
    width, height = puzzle["width"], puzzle["height"]
    flip = bool(puzzle["glue"].get("right_flip"))
    right = max(width + TAB_DEPTH + PLAIN_MARGIN, MIN_WIDTH - SIDE_MARGIN)
    notes = _wrap(_template_instructions(flip), right + SIDE_MARGIN)

    def draw(fig: Figure) -> None:
        ax = _canvas(fig, -SIDE_MARGIN, right, -TITLE_SPACE, height + PLAIN_MARGIN + LINE_SPACE * (len(notes) + 1),
                     CELL_INCHES)
        ax.text(width / 2, -TITLE_SPACE + 0.15, f"{title(puzzle)} — cut out and glue", ha="center", va="top",
                fontsize=TITLE_PT, fontweight="bold")
        _draw_grid(ax, puzzle, solution=False)
        _draw_glue_marks(ax, width, height, flip)
        _draw_lines(ax, -SIDE_MARGIN + 0.2, height + PLAIN_MARGIN, notes, ha="left")

    return _render(draw, "svg").decode("utf-8")


def _draw_glue_marks(ax: Axes, width: int, height: int, flip: bool) -> None:
    """The tab on the right edge and the matching mark on the left edge, each
    with an arrow for the direction in which the two edges meet."""
    ax.add_patch(Polygon([(width, 0), (width + TAB_DEPTH, TAB_INSET), (width + TAB_DEPTH, height - TAB_INSET),
                          (width, height)], closed=True, facecolor="0.88", edgecolor="black", linewidth=GRID_LW))
    middle = width + TAB_DEPTH / 2
    ax.text(middle, height / 2, "A", ha="center", va="center", fontsize=TITLE_PT, fontweight="bold")
    ax.text(middle, TAB_INSET + 0.1, "glue", ha="center", va="top", fontsize=NOTE_PT, rotation=90)
    # With a half twist the left edge read top to bottom meets the right edge read bottom to top.
    _arrow(ax, middle + 0.25, height - 0.4, 0.4, upwards=flip)
    ax.text(-SIDE_MARGIN / 2, height / 2, "A", ha="center", va="center", fontsize=TITLE_PT, fontweight="bold")
    _arrow(ax, -SIDE_MARGIN / 2 + 0.25, 0.4, height - 0.4, upwards=False)


def _arrow(ax: Axes, x: float, y_from: float, y_to: float, *, upwards: bool) -> None:
    low, high = max(y_from, y_to), min(y_from, y_to)  # y grows downwards
    start, end = (low, high) if upwards else (high, low)
    ax.annotate("", xy=(x, end), xytext=(x, start), arrowprops={"arrowstyle": "->", "linewidth": GRID_LW * 2})


def _template_instructions(flip: bool) -> str:
    if flip:
        return ("Cut out the strip with its tab. Give the strip a half twist and glue the tab marked A behind the "
                "edge marked A: the left edge, top to bottom, meets the right edge bottom to top, as the arrows "
                "show. Lights that run off the right edge now carry on around the strip.")
    return ("Cut out the strip with its tab. Roll it into a ring without twisting and glue the tab marked A behind "
            "the edge marked A: the left edge meets the right edge top to top, as the arrows show. Lights that "
            "run off the right edge now carry on around the ring.")


# --- sliders ----------------------------------------------------------------------

def slider_svg(puzzle: Puzzle) -> str:
    """The slider board twice, start and goal, tiles numbered, as SVG text."""
    require_kind(puzzle, "slider")
    board = puzzle["board"]
    layout = board.get("layout")
    if not layout:
        raise ValueError(f"slider puzzle {puzzle['id']}: the board has no layout to draw it from")
    points = _normalised(layout)
    span_x = max(x for x, _ in points)
    span_y = max(y for _, y in points)
    offset = span_x + PANEL_GAP
    margin = TILE_RADIUS + 0.2
    top = -margin - SLIDER_CAPTION_SPACE

    def draw(fig: Figure) -> None:
        ax = _canvas(fig, -margin, offset + span_x + margin, top, span_y + margin, SLIDER_UNIT_INCHES)
        for dx, state, caption in ((0.0, puzzle["start"], "Start"),
                                   (offset, puzzle["goal"], f"Goal — {puzzle['length']} moves")):
            ax.text(dx + span_x / 2, top + 0.1, caption, ha="center", va="top", fontsize=TITLE_PT, fontweight="bold")
            _draw_board(ax, [(x + dx, y) for x, y in points], board["edges"], state)

    return _render(draw, "svg").decode("utf-8")


def _normalised(layout: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    """Layout points scaled so the closest two vertices are one unit apart,
    moved to start at (0, 0), and flipped so y grows downwards like the canvas."""
    points = [(float(x), -float(y)) for x, y in layout]
    closest = min((math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1:]), default=1.0) or 1.0
    min_x = min(x for x, _ in points)
    min_y = min(y for _, y in points)
    return [((x - min_x) / closest, (y - min_y) / closest) for x, y in points]


def _draw_board(ax: Axes, points: Sequence[tuple[float, float]], edges: Sequence[Sequence[int]],
                state: Sequence[int]) -> None:
    for u, v in edges:
        _line(ax, [points[u], points[v]], GRID_LW * 2)
    for (x, y), tile in zip(points, state):
        blank = tile == 0
        ax.add_patch(Circle((x, y), TILE_RADIUS, facecolor="white" if blank else "0.85", edgecolor="black",
                            linewidth=GRID_LW * 2, linestyle=SEAM_STYLE if blank else "solid", zorder=3))
        if not blank:
            ax.text(x, y, str(tile), ha="center", va="center", fontsize=LETTER_PT, zorder=4)
