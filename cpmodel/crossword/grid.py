"""Crossword grids: the unfolded rectangle, its blocks, bars and letters.

Covers: the `Grid` value (width, height, surface, blocks, bars on the right or
bottom edge of a cell, prefilled letters) and reading/writing it: the plain
text format, JSON, and reading Qxw `.qxw` save files of its rectangular grid
types. Every bad input raises `InputError` naming the file, line and problem.

Plain text format (one grid per file)::

    # comments start with '#'
    surface: mobius          (optional; default plane)
    ...#....                 rows: '.' white, '#' block, 'A'-'Z' prefilled
    ..A.....
    bars:                    (optional) one row per grid row:
    ...|....                 '.' none, '|' bar on the right edge of the cell,
    .._.....                 '_' bar on its bottom edge, '+' both

A bar on the right edge of the last column (or the bottom edge of the last
row) sits on the seam of a glued surface and separates the lights there.

Leaves out: lights (`lights.py`), fills and solving.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import loads_json_bounded, read_text_bounded, shown, text_lines
from mobius.cpmodel.surface import SURFACES, Cell, Surface, surface

WHITE, BLOCK = ".", "#"
BAR_CHARS = {".": (False, False), "|": (True, False), "_": (False, True), "+": (True, True)}
_BAR_CHAR = {v: k for k, v in BAR_CHARS.items()}
MAX_SIZE = 64  # larger grids are almost certainly a wrong file; keeps errors readable
# A 64x64 grid with its bars and comments is a few tens of kB as text and
# about 150 kB as a Qxw save file (one SQ line per cell); a bigger file is
# not a grid, and refusing it before reading keeps memory bounded.
MAX_GRID_BYTES = 1 << 20


@dataclass(frozen=True)
class Grid:
    """A W×H crossword grid on a surface. `rows[y][x]` is '.', '#' or a letter."""

    rows: tuple[str, ...]
    surface: Surface = field(default_factory=lambda: SURFACES["plane"])
    bars_right: frozenset[Cell] = frozenset()
    bars_below: frozenset[Cell] = frozenset()

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def cells(self) -> Iterable[Cell]:
        """Every cell in reading order (row by row, left to right)."""
        return ((x, y) for y in range(self.height) for x in range(self.width))

    def is_block(self, cell: Cell) -> bool:
        return self.rows[cell[1]][cell[0]] == BLOCK

    def letter(self, cell: Cell) -> str | None:
        ch = self.rows[cell[1]][cell[0]]
        return ch if ch not in (WHITE, BLOCK) else None

    def white_cells(self) -> list[Cell]:
        return [c for c in self.cells() if not self.is_block(c)]

    @property
    def blocks(self) -> frozenset[Cell]:
        return frozenset(c for c in self.cells() if self.is_block(c))

    @property
    def letters(self) -> dict[Cell, str]:
        return {c: ch for c in self.cells() if (ch := self.letter(c)) is not None}

    def with_letters(self, letters: dict[Cell, str]) -> Grid:
        """A copy with the given cells filled in (e.g. a solver's fill)."""
        rows = [list(r) for r in self.rows]
        for (x, y), ch in letters.items():
            rows[y][x] = ch
        return Grid(tuple("".join(r) for r in rows), self.surface, self.bars_right, self.bars_below)

    def pattern(self) -> Grid:
        """The same grid with every letter removed."""
        rows = tuple("".join(BLOCK if ch == BLOCK else WHITE for ch in r) for r in self.rows)
        return Grid(rows, self.surface, self.bars_right, self.bars_below)


def make_grid(rows: Iterable[str], surface_name: str | Surface = "plane", *,
              bars_right: Iterable[Cell] = (), bars_below: Iterable[Cell] = (), source: str = "<grid>") -> Grid:
    """Validate and build a grid; raises InputError naming `source`."""
    rows = tuple(rows)
    _check_rows(rows, source, first_line=1)
    try:
        surf = surface(surface_name)
    except KeyError as exc:
        raise InputError(str(exc.args[0]), source=source) from None
    w, h = len(rows[0]), len(rows)
    for x, y in (*bars_right, *bars_below):
        if not (0 <= x < w and 0 <= y < h):
            raise InputError(f"bar at ({x}, {y}) lies outside the {w}x{h} grid", source=source)
    return Grid(rows, surf, frozenset(bars_right), frozenset(bars_below))


def _check_rows(rows: tuple[str, ...], source: str, first_line: int) -> None:
    if not rows or not rows[0]:
        raise InputError("empty grid: expected rows of '.', '#' or letters A-Z", source=source)
    if len(rows) > MAX_SIZE or len(rows[0]) > MAX_SIZE:
        raise InputError(f"grid is {len(rows[0])}x{len(rows)}; at most {MAX_SIZE}x{MAX_SIZE} is supported",
                         source=source)
    for i, row in enumerate(rows):
        # Characters first: a stray one (a form feed, say) also makes its row ragged.
        for x, ch in enumerate(row):
            if ch not in (WHITE, BLOCK) and not ("A" <= ch <= "Z"):
                raise InputError(f"unknown character {ch!r} in column {x + 1}: expected '.', '#' or A-Z",
                                 source=source, line=first_line + i)
        if len(row) != len(rows[0]):
            raise InputError(f"ragged row: {len(row)} cells where the first row has {len(rows[0])}",
                             source=source, line=first_line + i)


# --- plain text ------------------------------------------------------------------

def parse_text(text: str, source: str = "<text>") -> Grid:
    surface_name = "plane"
    rows: list[str] = []
    bar_rows: list[str] = []
    first_row_line = bar_line = surface_line = 0
    section = "grid"
    for number, raw in enumerate(text_lines(text), start=1):
        # Only spaces and tabs are trimmed: any other control character is reported.
        line = raw.strip(" \t")
        # "# " starts a comment; a row of blocks such as "#.#" or "###" does not.
        if not line or line.startswith("# ") or line.startswith("//"):
            continue
        key, colon, value = line.partition(":")
        if colon and key.strip().lower() == "surface":
            if rows:
                raise InputError(f"'surface:' line after the rows; it goes before the first row (line "
                                 f"{first_row_line})", source=source, line=number)
            if surface_line:  # the second would silently win over the first
                raise InputError(f"a second 'surface:' line ({shown(value.strip())}); the surface is given once, "
                                 f"on line {surface_line}", source=source, line=number)
            surface_name, surface_line = value.strip(), number
            try:
                surface(surface_name)
            except KeyError as exc:
                raise InputError(str(exc.args[0]), source=source, line=number) from None
            continue
        if colon and key.strip().lower() == "bars" and not value.strip():
            section, bar_line = "bars", number + 1
            continue
        if section == "grid":
            first_row_line = first_row_line or number
            rows.append(line)
            if len(rows) > MAX_SIZE:
                raise InputError(f"more than {MAX_SIZE} rows; at most {MAX_SIZE}x{MAX_SIZE} is supported",
                                 source=source, line=number)
        else:
            bar_rows.append(line)
    _check_rows(tuple(rows), source, first_row_line)
    bars_right, bars_below = _parse_bars(bar_rows, len(rows[0]), len(rows), source, bar_line)
    return make_grid(rows, surface_name, bars_right=bars_right, bars_below=bars_below, source=source)


def _parse_bars(bar_rows: list[str], w: int, h: int, source: str, first_line: int) -> tuple[set[Cell], set[Cell]]:
    right: set[Cell] = set()
    below: set[Cell] = set()
    if not bar_rows:
        return right, below
    if len(bar_rows) != h:
        raise InputError(f"bars section has {len(bar_rows)} rows, the grid has {h}", source=source, line=first_line)
    for y, row in enumerate(bar_rows):
        if len(row) != w:
            raise InputError(f"bars row has {len(row)} cells, the grid has {w}", source=source, line=first_line + y)
        for x, ch in enumerate(row):
            if ch not in BAR_CHARS:
                raise InputError(f"unknown bar character {ch!r}: expected '.', '|', '_' or '+'",
                                 source=source, line=first_line + y)
            r, b = BAR_CHARS[ch]
            if r:
                right.add((x, y))
            if b:
                below.add((x, y))
    return right, below


def to_text(grid: Grid) -> str:
    lines = [f"surface: {grid.surface.name}", *grid.rows]
    if grid.bars_right or grid.bars_below:
        lines.append("bars:")
        for y in range(grid.height):
            lines.append("".join(_BAR_CHAR[((x, y) in grid.bars_right, (x, y) in grid.bars_below)]
                                 for x in range(grid.width)))
    return "\n".join(lines) + "\n"


# --- JSON --------------------------------------------------------------------------

def to_json(grid: Grid) -> dict[str, object]:
    data: dict[str, object] = {"width": grid.width, "height": grid.height, "surface": grid.surface.name,
                               "rows": list(grid.rows)}
    if grid.bars_right:
        data["bars_right"] = [list(c) for c in sorted(grid.bars_right, key=lambda c: (c[1], c[0]))]
    if grid.bars_below:
        data["bars_below"] = [list(c) for c in sorted(grid.bars_below, key=lambda c: (c[1], c[0]))]
    return data


def from_json(data: object, source: str = "<json>") -> Grid:
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise InputError('expected an object with "rows": ["..#..", ...]', source=source)
    rows = data["rows"]
    if not all(isinstance(r, str) for r in rows):
        raise InputError('"rows" must be a list of strings', source=source)

    def cells(key: str) -> list[Cell]:
        items = data.get(key, [])
        if not isinstance(items, list) or not all(
                isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) for v in c) for c in items):
            raise InputError(f'"{key}" must be a list of [x, y] cells', source=source)
        return [tuple(c) for c in items]

    grid = make_grid(rows, str(data.get("surface", "plane")), bars_right=cells("bars_right"),
                     bars_below=cells("bars_below"), source=source)
    for key, actual in (("width", grid.width), ("height", grid.height)):
        if key in data and data[key] != actual:
            raise InputError(f'"{key}" is {data[key]!r} but the rows give {actual}', source=source)
    return grid


# --- Qxw ---------------------------------------------------------------------------

# Qxw's grid types (the first number of its GP line) that are rectangular.
QXW_TYPES = {0: "plane", 5: "cylinder", 6: "cylinder-v", 7: "mobius", 8: "mobius-v", 9: "torus", 10: "klein",
             11: "klein-v", 12: "projective"}
QXW_TYPE_NAMES = {1: "hexagonal with vertical lights", 2: "hexagonal with horizontal lights", 3: "circular",
                  4: "circular with half-cell offset"}
_QXW_BLOCK, _QXW_CUTOUT = 1, 8  # square flag bits: block, cut-out (treated as a block)


def parse_qxw(text: str, source: str = "<qxw>") -> Grid:
    lines = text_lines(text)
    if not lines or not lines[0].startswith("#QXW2"):
        raise InputError("not a Qxw save file: the first line should start with '#QXW2'", source=source, line=1)
    gp = next(((i, line) for i, line in enumerate(lines, start=1) if line.startswith("GP ")), None)
    if gp is None:
        raise InputError("no 'GP' line giving the grid type and size", source=source)
    number, line = gp
    try:
        gtype, width, height = (_qxw_int(v) for v in line.split()[1:4])
    except ValueError:
        raise InputError(f"malformed GP line {shown(line)}: expected 'GP type width height ...'",
                         source=source, line=number) from None
    if gtype not in QXW_TYPES:
        kind = QXW_TYPE_NAMES.get(gtype, f"unknown type {gtype}")
        raise InputError(f"Qxw grid type {gtype} ({kind}) is not rectangular; only types "
                         f"{sorted(QXW_TYPES)} are supported", source=source, line=number)
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise InputError(f"grid size {width}x{height} out of range 1..{MAX_SIZE}", source=source, line=number)
    cells = [[WHITE] * width for _ in range(height)]
    bars_right: set[Cell] = set()
    bars_below: set[Cell] = set()
    squares: set[Cell] = set()
    for number, line in enumerate(lines, start=1):
        if line.startswith("SQ "):
            squares.add(_read_qxw_square(line, number, source, width, height, cells, bars_right, bars_below))
        elif line.startswith("SQCT "):
            _read_qxw_content(line, number, source, width, height, cells)
    squares.discard(None)
    if len(squares) < width * height:
        # Qxw saves one SQ line per cell; fewer means a truncated file, which
        # would otherwise read as a grid with its blocks missing.
        raise InputError(f"'SQ' lines for {len(squares)} of the {width}x{height} grid's {width * height} cells; "
                         "the file looks truncated", source=source)
    return make_grid(("".join(r) for r in cells), QXW_TYPES[gtype], bars_right=bars_right,
                     bars_below=bars_below, source=source)


def _read_qxw_square(line: str, number: int, source: str, width: int, height: int, cells: list[list[str]],
                     bars_right: set[Cell], bars_below: set[Cell]) -> Cell | None:
    """Read one SQ line; the cell it describes, or None for one outside the grid."""
    parts = line.split()
    try:
        x, y, bars, _merge, flags = (_qxw_int(v) for v in parts[1:6])
        if len(parts) < 6:
            raise ValueError
    except ValueError:
        raise InputError(f"malformed SQ line {shown(line)}: expected 'SQ x y bars merge flags [letter]'",
                         source=source, line=number) from None
    if not (0 <= x < width and 0 <= y < height):
        return None  # Qxw itself ignores squares outside the grid
    letter = _qxw_letter(parts[6] if len(parts) > 6 else WHITE, WHITE, "SQ", source, number)
    if flags & (_QXW_BLOCK | _QXW_CUTOUT):
        cells[y][x] = BLOCK
    elif letter is not None:
        cells[y][x] = letter
    if bars & 1:
        bars_right.add((x, y))
    if bars & 2:
        bars_below.add((x, y))
    return x, y


def _qxw_int(text: str) -> int:
    """An integer field of a Qxw line; ValueError for anything else, huge ones included."""
    if len(text) > 9 or not text.lstrip("-").isdigit() or not text.isascii():
        raise ValueError(text)
    return int(text)


def _read_qxw_content(line: str, number: int, source: str, width: int, height: int, cells: list[list[str]]) -> None:
    """SQCT x y d "C": the letter of a cell in newer save files (d = 0)."""
    parts = line.split(maxsplit=4)
    if len(parts) < 5:
        return
    try:
        x, y, d = _qxw_int(parts[1]), _qxw_int(parts[2]), _qxw_int(parts[3])
    except ValueError:
        raise InputError(f"malformed SQCT line {shown(line)}", source=source, line=number) from None
    if d != 0 or not (0 <= x < width and 0 <= y < height):
        return  # another direction's content, or a square Qxw itself ignores
    letter = _qxw_letter(parts[4].strip().strip('"'), "", "SQCT", source, number)
    if cells[y][x] != BLOCK and letter is not None:
        cells[y][x] = letter


def _qxw_letter(content: str, empty: str, kind: str, source: str, number: int) -> str | None:
    """The letter a Qxw cell holds (upper-cased), None for `empty`; InputError for anything else.

    A digit, an accented letter or a multi-character cell cannot be a letter of a fill here;
    dropping it would turn a prefilled cell into a free one without a word.
    """
    if content == empty:
        return None
    # ASCII first: upper-casing turns "ı" into I, "ſ" into S and "ß" into SS.
    if len(content) == 1 and content.isascii() and content.isalpha():
        return content.upper()
    raise InputError(f"{kind} cell content {shown(content)}: expected one letter A-Z (or {shown(empty)} for none)",
                     source=source, line=number)


# --- files -------------------------------------------------------------------------

def read_grid(path: str | Path, surface_name: str | None = None) -> Grid:
    """Read a grid file (.qxw, .json, or plain text); `surface_name` overrides the file's surface."""
    source = str(path)
    text = read_text_bounded(path, MAX_GRID_BYTES, "grid file")
    if text.startswith("#QXW"):
        grid = parse_qxw(text, source)
    elif text.lstrip().startswith("{"):
        grid = from_json(loads_json_bounded(text, "grid JSON file", source=source), source)
    else:
        grid = parse_text(text, source)
    if surface_name is not None:
        try:
            grid = Grid(grid.rows, surface(surface_name), grid.bars_right, grid.bars_below)
        except KeyError as exc:
            raise InputError(str(exc.args[0])) from None
    return grid
