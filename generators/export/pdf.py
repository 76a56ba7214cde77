"""Printable PDFs, laid out with reportlab: each crossword's puzzle and
solution pages, and the booklet of a whole pack.

Covers:
- `crossword_pdf(puzzle)`: the puzzle page — title, the grid with its seam
  labels, the note on how to read the surface's seams, and the numbered
  Across and Down clues with their enumerations (the enumeration alone
  where a puzzle has no clue) flowing in balanced columns, a light that
  crosses the seam marked SEAM_MARK (which the note explains) — then, on a
  Möbius strip or cylinder, the strip to cut out and glue, then the
  solution page with the filled grid.
- `pack_pdf(puzzles, heading)`: every puzzle in pack order, then the
  cut-and-glue strips of those that have one, then every solution,
  numbered; crosswords and sliders (a slider page shows the start and goal
  boards, its solution page the tiles to slide in order).

Layout: A4. In the booklet a puzzle, strip or solution that fits half a
page with cells of at least MIN_SHARED_CELL (MIN_SHARED_SOLUTION_CELL for
a solution; a slider board at MIN_SHARED_SLIDER_SCALE) shares its page
with the next one that does, so a small grid does not leave most of a page
blank; anything larger has pages of its own.
The grid is as large as MAX_CELL allows within its share of the space; the
clues take the first of a few (columns, size) settings that fits what is
left, shrinking the grid before going below the smallest type; a clue list
that does not fit a page even then (a 25×25 grid with a long list) carries
on over further pages rather than being cut. A column that carries a list
on from the one before repeats its heading, "(continued)". Text is measured
in its font and a word longer than its column is broken, so nothing is
clipped. The same puzzle gives the same bytes (reportlab's invariant mode:
no dates, no random ids).

Leaves out: fonts and drawing primitives (`pdfdraw.py`), text flow
(`layout.py`), the shapes of the pictures (`figures.py`) and writing files.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from mobius.cpmodel.crossword.lights import ACROSS, DOWN
from mobius.generators.export import (
    Puzzle,
    author,
    credit_line,
    difficulty_text,
    enumeration_digits,
    glued_edges,
    is_band,
    reading_note,
    require_kind,
    surface_name,
    title,
)
from mobius.generators.export.figures import CELL, Figure, crossword_figure, slider_figure, template_figure
from mobius.generators.export.layout import Block, balanced_height, fill_columns, wrap_words
from mobius.generators.export.pdfdraw import Sheet, fonts_for

PAGE_W, PAGE_H = A4
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 54.0, 50.0, 46.0  # points: room for a thumb and a page number
CONTENT_W = PAGE_W - 2 * MARGIN_X
CONTENT_H = PAGE_H - MARGIN_TOP - MARGIN_BOTTOM
TITLE_PT, SUBTITLE_PT, NOTE_PT, TEXT_PT, HEADING_PT, FOOTER_PT = 16.0, 9.0, 8.5, 10.0, 10.0, 8.0
LEADING = 1.22  # line height over font size
RULE_GAP = 5.0  # between the subtitle and the rule under it
GAP = 14.0  # between the header, grid, note and clues
GUTTER = 18.0  # between clue columns
CLUE_GAP = 0.2  # extra space after each clue, in lines of clue type
HEADING_SPACE = 1.9  # a clue heading's height, in lines of its type: the space above it included
NUMBER_GAP = 0.4  # between a clue number and its text, in ems
MAX_CELL = 28.0  # points per grid cell (about 10 mm): a letter written by hand fits
GRID_SHARES = (0.5, 0.42, 0.34)  # of the height the grid may take on a puzzle page: first choice, then less
OVERFLOW_SHARE = 0.62  # the grid's share when the clues go on over further pages anyway
SOLUTION_SHARE = 0.75
MIN_LABEL_SCALE = 0.75  # seam labels print at no less than this share of their size (7 pt): about 5 pt
MAX_LABEL_SCALE = 2.5
# (columns, clue size) in order of preference: large type first, then more columns before small type.
CLUE_SETTINGS = ((2, 10.0), (2, 9.5), (3, 9.5), (2, 9.0), (3, 9.0), (3, 8.5), (3, 8.0), (3, 7.5))
OVERFLOW_SETTING = (3, 9.0)  # a list too long for one page: dense, yet the size of a newspaper's clues
SLIDER_MAX_SCALE = 1.4  # a slider board prints at up to 1.4 times its picture's size: tiles of about 2 cm
PAGE_TOP = PAGE_H - MARGIN_TOP
HALF_GAP = 2 * GAP  # between the two halves of a shared page
HALF_H = (CONTENT_H - HALF_GAP) / 2
LOWER_TOP = PAGE_TOP - HALF_H - HALF_GAP  # where the lower half of a shared page starts
# A puzzle (or its strip) shares a page only with cells of 20 pt (7 mm) or more, room for a written
# letter; a solution, which is read and not written in, with 14 pt (5 mm).
MIN_SHARED_CELL, MIN_SHARED_SOLUTION_CELL = 20.0, 14.0
MIN_SHARED_SLIDER_SCALE = 1.0  # a board shares a page at no less than its picture's size: tiles of 1 cm
TEMPLATE_SHARE = 0.75  # of the page height a strip alone on its page may take
SEAM_MARK = "↔"  # after the enumeration of a clue whose light crosses the seam
GREY = "#4d4d4d"
RULE_LW = 0.5

DrawHalf = Callable[[Sheet, float], None]  # draws a part under the given y, within HALF_H


@dataclass(frozen=True)
class Part:
    """One puzzle's puzzle, strip or solution in the booklet: half a page
    (`half`, drawn under a given top) or pages of its own (`pages`, each
    ended with its footer)."""

    half: DrawHalf | None = None
    pages: Callable[[Sheet], None] | None = None


MakePart = Callable[[Sheet, Puzzle], Part]


# --- the parts of a page --------------------------------------------------------------------

def _header(sheet: Sheet, heading: str, subtitle: str, top: float = PAGE_TOP) -> float:
    """Title, subtitle and a rule under `top` (the top of the page or of its lower half); returns the y below."""
    y = top - TITLE_PT
    sheet.text(MARGIN_X, y, heading, "bold", TITLE_PT)
    y -= SUBTITLE_PT * LEADING + 2
    sheet.text(MARGIN_X, y, subtitle, "sans", SUBTITLE_PT, colour=GREY)
    y -= RULE_GAP
    sheet.line(MARGIN_X, y, PAGE_W - MARGIN_X, y, RULE_LW, GREY)
    return y - GAP


HEADER_H = TITLE_PT + SUBTITLE_PT * LEADING + 2 + RULE_GAP + GAP


def _footer(sheet: Sheet) -> None:
    """The document's author and copyright notice (when given), the page number (if the document
    numbers its pages), and the end of the page."""
    credits = sheet.credits
    if credits:  # in the bottom margin, above the page number: the page's content keeps all its room
        sheet.text(PAGE_W / 2, MARGIN_BOTTOM / 2 + FOOTER_PT * LEADING, credits, "sans", FOOTER_PT, anchor="middle",
                   colour=GREY)
    number = sheet.next_page()
    if number is not None:
        sheet.text(PAGE_W / 2, MARGIN_BOTTOM / 2, str(number), "sans", FOOTER_PT, anchor="middle", colour=GREY)
    sheet.show_page()


def _figure_scale(figure: Figure, max_height: float) -> float:
    """The scale at which the figure fills the width, without cells above MAX_CELL or exceeding `max_height`."""
    return min(MAX_CELL / CELL, CONTENT_W / figure.width, max_height / figure.height)


def _grid(puzzle: Puzzle, max_height: float, *, solution: bool) -> tuple[Figure, float]:
    """The grid figure and its scale; a grid printed small gets larger seam labels (and margins for them)."""
    grid = crossword_figure(puzzle, solution=solution, caption=False)
    scale = _figure_scale(grid, max_height)
    if scale < MIN_LABEL_SCALE:
        grid = crossword_figure(puzzle, solution=solution, caption=False,
                                label_scale=min(MIN_LABEL_SCALE / scale, MAX_LABEL_SCALE))
        scale = _figure_scale(grid, max_height)
    return grid, scale


def _place_figure(sheet: Sheet, figure: Figure, top: float, scale: float) -> float:
    """Draw the figure centred under `top`; returns the y below it."""
    sheet.figure(figure, MARGIN_X + (CONTENT_W - figure.width * scale) / 2, top, scale)
    return top - figure.height * scale - GAP


def _paragraph(sheet: Sheet, text: str, size: float) -> list[str]:
    return wrap_words(text.split(), CONTENT_W, sheet.measure("sans", size)) if text else []


def _draw_lines(sheet: Sheet, lines: Sequence[str], top: float, size: float, *, centred: bool) -> float:
    """Lines of grey text under `top`; returns the y below them."""
    for i, line in enumerate(lines):
        y = top - size - i * size * LEADING
        if centred:
            sheet.text(PAGE_W / 2, y, line, "sans", size, anchor="middle", colour=GREY)
        else:
            sheet.text(MARGIN_X, y, line, "sans", size, colour=GREY)
    return top - len(lines) * size * LEADING - GAP


# --- clues ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClueStyle:
    columns: int
    size: float

    @property
    def width(self) -> float:
        return (CONTENT_W - GUTTER * (self.columns - 1)) / self.columns

    @property
    def leading(self) -> float:
        return self.size * LEADING


def clue_text(entry: Mapping[str, Any]) -> str:
    """The clue and its enumeration (the enumeration alone when the puzzle has no clue for the entry),
    then SEAM_MARK if the light crosses the seam."""
    enumeration = f"({enumeration_digits(entry)})"
    if entry.get("seam_crossings"):
        enumeration = f"{enumeration} {SEAM_MARK}"
    clue = " ".join(str(entry.get("clue") or "").split())
    return f"{clue} {enumeration}" if clue else enumeration


def page_note(puzzle: Puzzle) -> str:
    """The surface's reading note, and what SEAM_MARK means when a clue carries it."""
    if not any(e.get("seam_crossings") for e in puzzle["entries"]):
        return reading_note(puzzle)
    return f"{reading_note(puzzle)} {SEAM_MARK} marks a clue whose light crosses the seam."


def clue_blocks(sheet: Sheet, puzzle: Puzzle, style: ClueStyle) -> list[Block]:
    """The Across and Down headings and every clue, wrapped to the column width, in reading order."""
    widest = max((str(e["number"]) for e in puzzle["entries"]), key=len, default="0")
    indent = sheet.width(widest, "serif-bold", style.size) + NUMBER_GAP * style.size  # numbers hang in a margin
    measure = sheet.measure("serif", style.size)
    blocks: list[Block] = []
    for direction, heading in ((ACROSS, "Across"), (DOWN, "Down")):
        entries = sorted((e for e in puzzle["entries"] if e["direction"] == direction), key=lambda e: e["number"])
        if entries:
            blocks.append(Block("heading", heading, (), HEADING_PT * HEADING_SPACE, keep_with_next=True))
        for entry in entries:
            # The clue's last word stays with its enumeration (and the seam mark after it).
            keep = 3 if entry.get("seam_crossings") else 2
            lines = wrap_words(clue_text(entry).split(), style.width - indent, measure, keep_last=keep)
            blocks.append(Block("clue", str(entry["number"]), tuple(lines),
                                style.leading * (len(lines) + CLUE_GAP), indent=indent))
    return blocks


def _draw_clue_columns(sheet: Sheet, columns: Sequence[Sequence[Block]], top: float, style: ClueStyle) -> None:
    for i, column in enumerate(columns):
        x = MARGIN_X + i * (style.width + GUTTER)
        y = top
        for j, block in enumerate(column):
            if block.kind == "heading":
                # The space a heading carries above it is not wanted at the top of a column.
                if j == 0:
                    y += HEADING_PT * (HEADING_SPACE - LEADING)
                label = f"{block.label.upper()} (continued)" if block.continued else block.label.upper()
                sheet.text(x, y - block.height + HEADING_PT * (LEADING - 1) + 2, label, "bold", HEADING_PT)
            else:
                sheet.text(x + block.indent - NUMBER_GAP * style.size, y - style.size, block.label, "serif-bold",
                           style.size, anchor="end")
                for k, line in enumerate(block.lines):
                    sheet.text(x + block.indent, y - style.size - k * style.leading, line, "serif", style.size)
            y -= block.height


# --- crossword pages ------------------------------------------------------------------------

@dataclass(frozen=True)
class CrosswordLayout:
    grid: Figure
    scale: float
    note: list[str]
    style: ClueStyle
    blocks: list[Block]


def _subtitle(puzzle: Puzzle) -> str:
    name = surface_name(puzzle)
    entries = puzzle["entries"]
    parts = [name[:1].upper() + name[1:], f"{puzzle['width']}×{puzzle['height']}", f"{len(entries)} clues"]
    if any(glued_edges(puzzle)):
        parts.append(f"{sum(1 for e in entries if e.get('seam_crossings'))} across the seam")
    return " · ".join(parts + ([difficulty_text(puzzle)] if difficulty_text(puzzle) else []))


def _note_lines(sheet: Sheet, puzzle: Puzzle) -> tuple[list[str], float]:
    """The page note wrapped, and the height it takes with its gap."""
    note = _paragraph(sheet, page_note(puzzle), NOTE_PT)
    return note, NOTE_PT * LEADING * len(note) + (GAP if note else 0)


ClueCache = dict[ClueStyle, tuple[list[Block], float]]  # a puzzle's clues and their height, per setting


def _clue_floor(puzzle: Puzzle, style: ClueStyle) -> float:
    """A height the clue columns cannot be under: every clue takes a line at least, and the columns
    share the total at best."""
    directions = {e["direction"] for e in puzzle["entries"]}
    total = (len(puzzle["entries"]) * style.leading * (1 + CLUE_GAP)
             + len(directions) * HEADING_PT * HEADING_SPACE)
    return total / style.columns


def crossword_layout(sheet: Sheet, puzzle: Puzzle, height: float = CONTENT_H, *, min_cell: float = 0.0,
                     clues: ClueCache | None = None) -> CrosswordLayout | None:
    """The largest grid and clue type with which the puzzle fits `height` (a page, or half of one) with
    cells of `min_cell` or more; None if no setting fits. `clues` keeps each setting's clues, wrapped
    and balanced once, for another call on the same puzzle."""
    note, note_h = _note_lines(sheet, puzzle)
    available = height - HEADER_H
    clues = {} if clues is None else clues
    for share in GRID_SHARES:
        grid, scale = _grid(puzzle, available * share, solution=False)
        if scale * CELL < min_cell:
            break  # the shares only get smaller
        room = available - grid.height * scale - GAP - note_h
        for setting in CLUE_SETTINGS:
            style = ClueStyle(*setting)
            if _clue_floor(puzzle, style) > room:
                continue  # cannot fit, whatever the wrapping: spares measuring every clue
            if style not in clues:
                blocks = clue_blocks(sheet, puzzle, style)
                clues[style] = blocks, balanced_height(blocks, style.columns)
            blocks, clues_height = clues[style]
            if clues_height <= room:
                return CrosswordLayout(grid, scale, note, style, blocks)
    return None


def _overflow_layout(sheet: Sheet, puzzle: Puzzle) -> CrosswordLayout:
    """OVERFLOW_SETTING, for a clue list that goes on over further pages."""
    style = ClueStyle(*OVERFLOW_SETTING)
    grid, scale = _grid(puzzle, (CONTENT_H - HEADER_H) * OVERFLOW_SHARE, solution=False)
    return CrosswordLayout(grid, scale, _note_lines(sheet, puzzle)[0], style, clue_blocks(sheet, puzzle, style))


def _crossword_head(sheet: Sheet, puzzle: Puzzle, layout: CrosswordLayout, top: float) -> float:
    """Header, grid and note under `top`; returns the y where the clues start."""
    y = _header(sheet, title(puzzle), _subtitle(puzzle), top)
    y = _place_figure(sheet, layout.grid, y, layout.scale)
    return _draw_lines(sheet, layout.note, y, NOTE_PT, centred=True) if layout.note else y


def _crossword_half(sheet: Sheet, puzzle: Puzzle, layout: CrosswordLayout, top: float) -> None:
    y = _crossword_head(sheet, puzzle, layout, top)
    columns, _ = fill_columns(layout.blocks, layout.style.columns, balanced_height(layout.blocks, layout.style.columns))
    _draw_clue_columns(sheet, columns, y, layout.style)


def _crossword_pages(sheet: Sheet, puzzle: Puzzle, clues: ClueCache | None = None) -> None:
    """The puzzle page (and, for a clue list too long for it, its continuation pages)."""
    layout = crossword_layout(sheet, puzzle, clues=clues) or _overflow_layout(sheet, puzzle)
    y = _crossword_head(sheet, puzzle, layout, PAGE_TOP)
    blocks = layout.blocks
    while True:
        # Level columns when the rest fits on this page; full ones when it goes on over the next.
        height = min(balanced_height(blocks, layout.style.columns), y - MARGIN_BOTTOM)
        columns, blocks = fill_columns(blocks, layout.style.columns, height)
        _draw_clue_columns(sheet, columns, y, layout.style)
        _footer(sheet)
        if not blocks:
            return
        y = _header(sheet, f"{title(puzzle)} (continued)", _subtitle(puzzle))


def _crossword_part(sheet: Sheet, puzzle: Puzzle) -> Part:
    """Half a page when the whole puzzle fits one with cells of MIN_SHARED_CELL or more."""
    clues: ClueCache = {}
    layout = crossword_layout(sheet, puzzle, HALF_H, min_cell=MIN_SHARED_CELL, clues=clues)
    if layout is not None:
        return Part(half=lambda s, top: _crossword_half(s, puzzle, layout, top))
    return Part(pages=lambda s: _crossword_pages(s, puzzle, clues))


def _solution(sheet: Sheet, puzzle: Puzzle, grid: Figure, scale: float, top: float) -> None:
    y = _header(sheet, f"Solution: {title(puzzle)}", _subtitle(puzzle), top)
    _place_figure(sheet, grid, y, scale)


def _crossword_solution_page(sheet: Sheet, puzzle: Puzzle) -> None:
    grid, scale = _grid(puzzle, CONTENT_H * SOLUTION_SHARE, solution=True)
    _solution(sheet, puzzle, grid, scale, PAGE_TOP)
    _footer(sheet)


def _crossword_solution_part(sheet: Sheet, puzzle: Puzzle) -> Part:
    grid, scale = _grid(puzzle, HALF_H - HEADER_H, solution=True)
    if scale * CELL >= MIN_SHARED_SOLUTION_CELL:
        return Part(half=lambda s, top: _solution(s, puzzle, grid, scale, top))
    return Part(pages=lambda s: _crossword_solution_page(s, puzzle))


# --- the strip to cut out and glue ------------------------------------------------------------

def has_template(puzzle: Puzzle) -> bool:
    """A band of paper (Möbius strip, cylinder) can be made: its puzzle gets a cut-and-glue page."""
    return puzzle.get("kind") == "crossword" and is_band(puzzle)


def _template(sheet: Sheet, puzzle: Puzzle, figure: Figure, scale: float, top: float) -> None:
    y = _header(sheet, f"Cut out and glue: {title(puzzle)}", _subtitle(puzzle), top)
    _place_figure(sheet, figure, y, scale)


def _template_page(sheet: Sheet, puzzle: Puzzle) -> None:
    figure = template_figure(puzzle, caption=False)
    _template(sheet, puzzle, figure, _figure_scale(figure, CONTENT_H * TEMPLATE_SHARE), PAGE_TOP)
    _footer(sheet)


def _template_part(sheet: Sheet, puzzle: Puzzle) -> Part:
    figure = template_figure(puzzle, caption=False)
    scale = _figure_scale(figure, HALF_H - HEADER_H)
    if scale * CELL >= MIN_SHARED_CELL:
        return Part(half=lambda s, top: _template(s, puzzle, figure, scale, top))
    return Part(pages=lambda s: _template_page(s, puzzle))


# --- slider pages ---------------------------------------------------------------------------

def tiles_moved(puzzle: Puzzle) -> list[int]:
    """The tile that slides at each move of the stored solution, by replaying it from the start.

    With one blank a move names the vertex the blank moves to (its tile slides
    into the blank); with several, a move is [from, to]: the tile on `from`
    slides into the blank on `to`."""
    state = list(puzzle["start"])
    tiles = []
    for move in puzzle["solution"]:
        source, target = move if isinstance(move, list) else (move, state.index(0))
        tiles.append(state[source])
        state[source], state[target] = 0, state[source]
    return tiles


def _slider_subtitle(puzzle: Puzzle) -> str:
    board = puzzle["board"]
    return (f"Board {board.get('name', '')} · {board['vertices']} spots, {len(board['edges'])} lines · "
            f"{puzzle['length']} moves at best")


def _slider_text(puzzle: Puzzle, *, solution: bool) -> str:
    if solution:
        return f"Slide the tiles in this order ({puzzle['length']} moves): {', '.join(map(str, tiles_moved(puzzle)))}."
    blanks = "the empty spot" if puzzle.get("blanks", 1) == 1 else "an empty spot"
    return (f"Slide a tile along a line into {blanks}, one move at a time, until every tile stands where the goal "
            f"shows it. It can be done in {puzzle['length']} moves, and no fewer.")


@dataclass(frozen=True)
class SliderLayout:
    board: Figure
    scale: float
    text: list[str]


def _slider_layout(sheet: Sheet, puzzle: Puzzle, *, solution: bool, height: float) -> SliderLayout:
    """The board (start and goal; the start alone for the solution) as large as SLIDER_MAX_SCALE allows
    in `height` (half of it on a page of its own) with the header and the text under it."""
    board = slider_figure(puzzle, panels=("start",) if solution else ("start", "goal"))
    text = _paragraph(sheet, _slider_text(puzzle, solution=solution), TEXT_PT)
    room = min(height - HEADER_H - len(text) * TEXT_PT * LEADING - GAP, CONTENT_H * 0.5)
    return SliderLayout(board, min(SLIDER_MAX_SCALE, CONTENT_W / board.width, room / board.height), text)


def _slider(sheet: Sheet, puzzle: Puzzle, layout: SliderLayout, top: float, *, solution: bool) -> None:
    heading = f"Solution: {title(puzzle)}" if solution else title(puzzle)
    y = _header(sheet, heading, _slider_subtitle(puzzle), top)
    y = _place_figure(sheet, layout.board, y, layout.scale)
    _draw_lines(sheet, layout.text, y, TEXT_PT, centred=False)


def _slider_part(*, solution: bool) -> MakePart:
    """A slider puzzle (or its solution) shares a page when its board keeps at least its picture's size."""

    def make(sheet: Sheet, puzzle: Puzzle) -> Part:
        half = _slider_layout(sheet, puzzle, solution=solution, height=HALF_H)
        if half.scale >= MIN_SHARED_SLIDER_SCALE:
            return Part(half=lambda s, top: _slider(s, puzzle, half, top, solution=solution))
        whole = _slider_layout(sheet, puzzle, solution=solution, height=CONTENT_H)

        def page(s: Sheet) -> None:
            _slider(s, puzzle, whole, PAGE_TOP, solution=solution)
            _footer(s)

        return Part(pages=page)

    return make


# Per kind: the puzzle's part of the booklet, and its solution's.
PARTS: dict[str, tuple[MakePart, MakePart]] = {
    "crossword": (_crossword_part, _crossword_solution_part),
    "slider": (_slider_part(solution=False), _slider_part(solution=True)),
}


def _draw_parts(sheet: Sheet, parts: Sequence[Part]) -> None:
    """Parts in order from a new page: two halves share a page, a part with pages of its own ends a
    half-filled page first."""
    half_open = False
    for part in parts:
        if part.half is None:
            if half_open:
                _footer(sheet)
                half_open = False
            part.pages(sheet)
        else:
            part.half(sheet, LOWER_TOP if half_open else PAGE_TOP)
            if half_open:
                _footer(sheet)
            half_open = not half_open
    if half_open:
        _footer(sheet)


# --- documents ------------------------------------------------------------------------------

def _texts(puzzle: Puzzle) -> list[str]:
    """The strings of a puzzle that reach its pages; the rest is the project's own wording."""
    return [title(puzzle), credit_line(puzzle), str(puzzle.get("board", {}).get("name", ""))] + \
        [str(e.get("clue") or "") for e in puzzle.get("entries", ())]


def _subject(puzzles: Sequence[Puzzle]) -> str:
    """What the document holds, as its metadata says it: "Crossword puzzles", "Slider puzzles"."""
    kinds = sorted({str(p.get("kind", "")) for p in puzzles} - {""})
    return " and ".join(kinds).capitalize() + " puzzles" if kinds else "Puzzles"


def _document(heading: str, puzzles: Sequence[Puzzle], draw: Callable[[Sheet], None], *, numbered: bool) -> bytes:
    buffer = io.BytesIO()
    # invariant: no date and no random document id, so the same input gives the same bytes.
    canvas = Canvas(buffer, pagesize=A4, invariant=1, pageCompression=1)
    canvas.setTitle(heading)
    # The document's author: the one its puzzles share (a pack's --author), else none.
    authors = {author(p) for p in puzzles}
    canvas.setAuthor(authors.pop() if len(authors) == 1 else "")
    canvas.setCreator("mobius-puzzles")
    # reportlab's default subject is "unspecified".
    canvas.setSubject(_subject(puzzles))
    # A page may hold two puzzles: its footer gives the credits the document's puzzles share (a pack's).
    credits = {credit_line(p) for p in puzzles}
    draw(Sheet(canvas, fonts_for(t for p in puzzles for t in _texts(p)), numbered,
               credits=credits.pop() if len(credits) == 1 else ""))
    canvas.save()
    return buffer.getvalue()


def crossword_pdf(puzzle: Puzzle) -> bytes:
    """The crossword's puzzle page (or pages), its cut-and-glue strip if it has one, and its solution page."""
    require_kind(puzzle, "crossword")

    def draw(sheet: Sheet) -> None:
        _crossword_pages(sheet, puzzle)
        if has_template(puzzle):
            _template_page(sheet, puzzle)
        _crossword_solution_page(sheet, puzzle)

    return _document(title(puzzle), [puzzle], draw, numbered=False)


def pack_pdf(puzzles: Sequence[Puzzle], heading: str) -> bytes:
    """The booklet: every puzzle in order, the cut-and-glue strips, then every solution; pages numbered."""
    kinds = {str(p.get("kind")) for p in puzzles}
    if not kinds <= set(PARTS):
        raise ValueError(f"expected crossword or slider puzzles, got kinds {sorted(kinds)}")

    def draw(sheet: Sheet) -> None:
        _draw_parts(sheet, [PARTS[p["kind"]][0](sheet, p) for p in puzzles])
        _draw_parts(sheet, [_template_part(sheet, p) for p in puzzles if has_template(p)])
        _draw_parts(sheet, [PARTS[p["kind"]][1](sheet, p) for p in puzzles])

    return _document(heading, puzzles, draw, numbered=True)
