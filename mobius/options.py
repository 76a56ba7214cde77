"""Checks shared by the options of several commands.

Covers: the ceiling on seconds and `finite`, the callback that refuses nan
(which passes every range check) in a time limit. Leaves out: the options
themselves, declared beside their commands.
"""

from __future__ import annotations

import typer

# A time limit longer than a day is a typo.
MAX_TIME_LIMIT_S = 86400.0


def finite(value: float | None) -> float | None:
    """A typer callback: nan is not a number of seconds (inf is caught by the range)."""
    if value is not None and value != value:
        raise typer.BadParameter("expected a number of seconds, not nan")
    return value
