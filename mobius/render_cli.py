"""`mobius render PUZZLE.json`: one puzzle of a pack as a page to play or a picture.

Covers: reading one puzzle JSON file, choosing the exporter for the format
asked (`html`: the player page, standing alone; `svg`: the printable
picture, with `--solution` the filled grid) and writing the file. Leaves
out: the formats themselves (`generators.export`) and whole packs
(`mobius pack`).
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cpmodel.errors import InputError


class Format(str, Enum):
    HTML = "html"
    SVG = "svg"


def render(
    puzzle_file: Annotated[Path, typer.Argument(help="A puzzle JSON file from a pack (puzzles/NNNN.json).")],
    fmt: Annotated[Format, typer.Option("--format", help="html: a page to play in the browser; svg: a picture.")]
    = Format.HTML,
    out: Annotated[Optional[Path], typer.Option("--out", help="File to write (default: beside the puzzle).")] = None,
    solution: Annotated[bool, typer.Option("--solution", help="svg only: draw the filled grid.")] = False,
) -> None:
    """Render one puzzle as a self-contained HTML player page or as SVG."""
    puzzle = _read_puzzle(puzzle_file)
    target = out or puzzle_file.with_name(puzzle_file.stem + ("-solution" if solution else "") + f".{fmt.value}")
    target.write_text(_rendered(puzzle, fmt, solution, str(puzzle_file)), encoding="utf-8")
    typer.echo(f"wrote {target}")


def _read_puzzle(path: Path) -> dict[str, Any]:
    try:
        puzzle = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such puzzle file", source=str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not a puzzle JSON file: {exc}", source=str(path)) from None
    if not isinstance(puzzle, dict) or puzzle.get("kind") not in ("crossword", "slider"):
        raise InputError("expected a puzzle JSON with kind crossword or slider", source=str(path))
    return puzzle


def _rendered(puzzle: dict[str, Any], fmt: Format, solution: bool, source: str) -> str:
    from generators.export.html import html_page
    from generators.export.svg import crossword_svg, slider_svg

    if solution and (fmt is Format.HTML or puzzle["kind"] == "slider"):
        raise InputError("--solution applies to crossword SVG only (the player page can reveal the answers)",
                         source=source)
    try:
        if fmt is Format.HTML:
            return html_page(puzzle, index_href=None)
        return crossword_svg(puzzle, solution=solution) if puzzle["kind"] == "crossword" else slider_svg(puzzle)
    except (KeyError, TypeError, ValueError) as exc:
        # A hand-edited or truncated puzzle file: say which, not where in the exporter it broke.
        raise InputError(f"malformed puzzle: {exc!r}", source=source) from None
