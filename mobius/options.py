"""Checks shared by the options of several commands.

Covers: the ceiling on seconds and `finite`, the callback that refuses nan
(which passes every range check) in a time limit; `check_out_file` and
`check_out_dir`, which check where a command will write before it does any
work (a file there is refused unless `--force`, an unwritable place is
named). Leaves out: the options themselves, declared beside their commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import typer

from cpmodel.errors import InputError

# A time limit longer than a day is a typo.
MAX_TIME_LIMIT_S = 86400.0


def finite(value: float | None) -> float | None:
    """A typer callback: nan is not a number of seconds (inf is caught by the range)."""
    if value is not None and value != value:
        raise typer.BadParameter("expected a number of seconds, not nan")
    return value


def check_out_file(out: Path, force: bool) -> None:
    """`--out FILE` can be written: not a directory, not an existing file unless `force`."""
    if out.is_dir():
        raise InputError(f"--out {out}: a directory; expected the name of a file to write")
    if out.exists() and not force:
        raise InputError(f"--out {out}: the file exists; pass --force to overwrite it")
    _check_writable(out)


def check_out_dir(out: Path, force: bool, names: Iterable[str]) -> None:
    """`--out DIR` can take the files `names`: not a file, none of them there already unless `force`."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: a file; expected a directory to write into")
    present = [name for name in names if (out / name).exists()]
    if present and not force:
        raise InputError(f"--out {out}: holds {', '.join(present)} of an earlier run; pass --force to "
                         "overwrite them, or choose another directory")
    _check_writable(out / "probe")


def _check_writable(path: Path) -> None:
    """The nearest existing directory above `path` takes a new file (a nameless one, gone at once)."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"--out {path.parent}: {parent} is a file, not a directory")
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise InputError(f"--out {path.parent}: cannot write in {parent} ({exc.strerror or exc})") from None
