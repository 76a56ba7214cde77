"""`mobius slider …`: solve, check and inspect slider puzzles on graphs."""

from __future__ import annotations

import typer

app = typer.Typer(help="Slider puzzles on any graph.", no_args_is_help=True)
