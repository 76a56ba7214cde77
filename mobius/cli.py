"""The `mobius` command: parses arguments, calls the layers, prints.

Covers: the top-level typer app, its sub-command groups (one module each) and
the one place where bad input becomes a one-line error with exit code 2.
Leaves out: any modelling or solving, which lives in `cpmodel`, and any pack
or benchmark logic, which lives in `generators` and `benchmarks`.
"""

from __future__ import annotations

import sys

import typer

from cpmodel.errors import InputError
from dictionaries.errors import DictionaryError
from mobius import bench_cli, crossword_cli, instance_cli, pack_cli, render_cli, slider_cli

app = typer.Typer(
    help="Puzzle generator: crosswords on surfaces and slider puzzles on graphs.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(crossword_cli.app, name="crossword")
app.add_typer(slider_cli.app, name="slider")
app.add_typer(pack_cli.app, name="pack")
app.command("render")(render_cli.render)
app.command("bench")(bench_cli.bench)
app.command("export-instance")(instance_cli.export_instance)

EXIT_BAD_INPUT = 2


def main() -> None:
    """Entry point of the console script: bad input never shows a traceback."""
    try:
        app()
    except (InputError, DictionaryError) as exc:
        print(f"mobius: error: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None
    except OSError as exc:
        # Unreadable or unwritable paths are input problems too.
        print(f"mobius: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None
