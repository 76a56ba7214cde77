"""`mobius export-instance`: write a crossword or slider instance as MiniZinc,
XCSP3 or DIMACS CNF for other solvers.

Covers: the one command (registered in `mobius.cli`), which reads GRID (a
grid file, with `--dict` and the fill rules) or BOARD (a preset or board
file; chosen when `--start` is given, with `--horizon`), asks
`mobius.cpmodel.instances` for the text and writes it atomically to `--out` (an
existing file only with `--force`, checked before any work); bad
input is an `InputError` (one line, exit 2, printed by `mobius.cli.main`).
Leaves out: the encodings themselves (`cpmodel/instances/`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mobius.cpmodel.crossword.lights import DEFAULT_MIN_LENGTH
from mobius.cpmodel.files import write_atomic
from mobius.options import check_out_file

FormatOpt = Annotated[str, typer.Option(
    "--format", help="mzn (the shipped model with the data), dzn (the data for cpmodel/models/*.mzn), "
                     "xcsp3 or cnf (DIMACS, comments naming the variables).")]


def export_instance(
    target: Annotated[str, typer.Argument(
        metavar="GRID|BOARD", help="A crossword grid file, or with --start a slider board (preset or file).")],
    fmt: FormatOpt,
    out: Annotated[Path, typer.Option("--out", help="The file to write.")],
    dictionary: Annotated[str, typer.Option("--dict", help="Crossword word list: en, en-small, words, or a file.")] = "en",
    surface: Annotated[Optional[str], typer.Option("--surface", help="Override the grid file's surface.")] = None,
    min_length: Annotated[int, typer.Option("--min-length", min=1, help="Shortest run that counts as a light.")]
    = DEFAULT_MIN_LENGTH,
    min_score: Annotated[int, typer.Option("--min-score", min=0, max=100, help="Skip words scored lower.")] = 0,
    allow_repeats: Annotated[bool, typer.Option("--allow-repeats", help="Let a word fill two lights.")] = False,
    full_tables: Annotated[bool, typer.Option(
        "--full-tables", help="Keep every word the length, score and letter filters allow (no AC-3 pre-pass).")]
    = False,
    start: Annotated[Optional[str], typer.Option(
        "--start", help='Slider: the tile on each vertex, 0 = blank, e.g. "1 0 2 3".')] = None,
    goal: Annotated[Optional[str], typer.Option("--goal", help="Slider goal. Default: tile v on vertex v.")] = None,
    horizon: Annotated[Optional[int], typer.Option(
        "--horizon", min=0, help="Slider: the exact number of moves. Default: the lower bound, "
                                 "raised to the parity every solution has (the first horizon the backends try).")]
    = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --out if it exists.")] = False,
) -> None:
    """Write GRID or BOARD as an instance file others can run."""
    # Imported here: the writers load OR-Tools and sympy, which the other commands need not wait for.
    from mobius.cpmodel.errors import InputError
    from mobius.cpmodel.instances import FORMATS, first_horizon, slider_instance

    check_out_file(out, force)  # before the work, which can take a while on a large grid
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if start is None:
        text, what = _crossword_text(target, fmt, dictionary, surface, min_length, min_score, allow_repeats,
                                     full_tables), "crossword"
    else:
        from mobius.slider_cli import build_problem

        problem = build_problem(target, start, goal, 1)
        chosen = first_horizon(problem) if horizon is None else horizon
        text, what = slider_instance(problem, fmt, horizon=chosen), f"slider, exactly {chosen} moves"
    write_atomic(out, text.encode("utf-8"))
    typer.echo(f"wrote {out} ({fmt}, {what}, {len(text):,} bytes)")


def _crossword_text(grid_path: str, fmt: str, dictionary: str, surface: str | None, min_length: int,
                    min_score: int, allow_repeats: bool, full_tables: bool) -> str:
    from mobius.cpmodel.crossword.grid import read_grid
    from mobius.cpmodel.crossword.problem import FillProblem, FillRules
    from mobius.cpmodel.instances import crossword_instance
    from mobius.dictionaries import load

    grid = read_grid(grid_path, surface)
    words = load(dictionary, min_score=min_score)
    problem = FillProblem(grid, words, FillRules(min_length=min_length, allow_repeats=allow_repeats,
                                                 min_score=min_score))
    return crossword_instance(problem, fmt, full_tables=full_tables)
