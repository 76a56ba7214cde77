"""`mobius render PUZZLE.json`: one puzzle of a pack as a page to play or a picture.

Covers: reading one puzzle JSON file (bounded, and checked against the
puzzle schema before any exporter sees it), choosing the exporter for the
format asked (`html`: the player page, standing alone; `svg`: the printable
picture, with `--solution` the filled grid) and writing the file
atomically. Without `--out` the file goes beside the puzzle, but never over
an existing one: beside a pack's puzzle that is the pack's own page; `--out`
replaces a regular file, never a device, FIFO or socket (checked before the
puzzle is read). Leaves
out: the formats themselves (`mobius.generators.export`) and whole packs
(`mobius pack`).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import shown


class Format(str, Enum):
    HTML = "html"
    SVG = "svg"


def render(
    puzzle_file: Annotated[Path, typer.Argument(help="A puzzle JSON file from a pack (puzzles/NNNN.json).")],
    fmt: Annotated[Format, typer.Option("--format", help="html: a page to play in the browser; svg: a picture.")]
    = Format.HTML,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="File to write (replaced if it exists). Default: beside the puzzle, if no file is there.")]
    = None,
    solution: Annotated[bool, typer.Option("--solution", help="svg only: draw the filled grid.")] = False,
) -> None:
    """Render one puzzle as a self-contained HTML player page or as SVG."""
    from mobius.cpmodel.files import write_atomic
    from mobius.generators.puzzles import read_puzzle_file
    from mobius.options import check_out_file

    if out is not None:
        check_out_file(out, force=True)  # replaced if it is a file, as the help says; refused if it is no file
    puzzle = read_puzzle_file(puzzle_file)
    target = out or _default_target(puzzle_file, fmt, solution)
    write_atomic(target, _rendered(puzzle, fmt, solution, str(puzzle_file)).encode("utf-8"))
    typer.echo(f"wrote {target}")


def _default_target(puzzle_file: Path, fmt: Format, solution: bool) -> Path:
    target = puzzle_file.with_name(puzzle_file.stem + ("-solution" if solution else "") + f".{fmt.value}")
    if target.exists():
        # Beside a pack's puzzle this is the pack's own page: replace it only when asked to.
        raise InputError(f"{target} already exists; choose where to write with --out FILE", source=str(puzzle_file))
    return target


def _rendered(puzzle: dict[str, Any], fmt: Format, solution: bool, source: str) -> str:
    from mobius.generators.export.html import html_page
    from mobius.generators.export.svg import crossword_svg, slider_svg

    if solution and (fmt is Format.HTML or puzzle["kind"] == "slider"):
        raise InputError("--solution applies to crossword SVG only (the player page can reveal the answers)",
                         source=source)
    try:
        if fmt is Format.HTML:
            return html_page(puzzle, index_href=None)
        return crossword_svg(puzzle, solution=solution) if puzzle["kind"] == "crossword" else slider_svg(puzzle)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        # A hand-edited or truncated puzzle file: say which, not where in the exporter it broke.
        raise InputError(f"malformed puzzle: {shown(exc)}", source=source) from None
