"""Checks shared by the options of several commands.

Covers: the one `--time-limit` of every command (`time_limit_option`: finite
seconds greater than 0 and at most `MAX_TIME_LIMIT_S`, so nan, inf, 0 and
negatives are refused alike with one line naming the value), and `finite`,
the callback that refuses nan (which passes every range check) in other
numbers of seconds and in shares; `one_line`, the callback that keeps a title, author or
copyright notice to one printable line of bounded length; `check_out_file`
and `check_out_dir`, which check where a command will write before it does
any work (a file there is refused unless `--force`; a device, FIFO or
socket, itself or where a link leads, always; an unwritable place is
named). Leaves out: the options themselves, declared beside their commands.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import typer

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import NotRegularFile, kind_of, replaceable

# A time limit longer than a day is a typo.
MAX_TIME_LIMIT_S = 86400.0
# A title, author or copyright notice heads a page or sits in its margin on one line; past this it is not one.
MAX_CREDIT_CHARS = 80
TIME_LIMIT_RULE = f"greater than 0, at most {MAX_TIME_LIMIT_S:,.0f}"


def finite(value: float | None) -> float | None:
    """A typer callback: nan is not a number of seconds nor a share (inf is caught by the range)."""
    if value is not None and value != value:
        raise typer.BadParameter("expected a number, not nan")
    return value


def one_line(value: str | None) -> str | None:
    """A typer callback: a title, author or notice is one line of printable text, at most MAX_CREDIT_CHARS long."""
    if value is None:
        return None
    if not value.isprintable():
        bad = next(ch for ch in value if not ch.isprintable())
        raise typer.BadParameter(f"expected one line of printable text, got {bad!r} in {value[:40]!r}")
    text = value.strip()
    if len(text) > MAX_CREDIT_CHARS:
        raise typer.BadParameter(f"expected at most {MAX_CREDIT_CHARS} characters, got {len(text)}")
    return text


def time_limit(value: float | None) -> float | None:
    """A typer callback: `value` within `TIME_LIMIT_RULE` (None: no limit)."""
    # nan fails every comparison, so it is refused here with inf, 0 and the negatives.
    if value is not None and not 0 < value <= MAX_TIME_LIMIT_S:
        raise typer.BadParameter(f"expected seconds {TIME_LIMIT_RULE}, got {value:g}")
    return value


def time_limit_option(what: str) -> Any:
    """The `--time-limit` option of a command; `what` says what the seconds bound."""
    return typer.Option("--time-limit", callback=time_limit, help=f"{what} ({TIME_LIMIT_RULE}).")


def check_out_file(out: Path, force: bool) -> None:
    """`--out FILE` can be written: a new name, or an existing regular file with `force`; a directory,
    device, FIFO or socket (itself or where its link leads) is refused, `force` or not."""
    target = _regular(out, out)
    if target.exists() and not force:
        raise InputError(f"--out {out}: the file exists; pass --force to overwrite it")
    _check_writable(target)


def check_out_dir(out: Path, force: bool, names: Iterable[str]) -> None:
    """`--out DIR` can take the files `names` (shell patterns): a directory or a new name, none of its
    entries of those names there already unless `force`, and none of them a device, FIFO or socket."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: {kind_of(out.stat().st_mode)}; expected a directory to write into")
    present = sorted({p for pattern in names for p in out.glob(pattern)}) if out.is_dir() else []
    for path in present:
        _regular(path, out)
    if present and not force:
        raise InputError(f"--out {out}: holds {', '.join(p.name for p in present[:3])} of an earlier run; pass "
                         "--force to overwrite them, or choose another directory")
    _check_writable(out / "probe")


def _regular(path: Path, out: Path) -> Path:
    """The file a write to `path` replaces (`replaceable`); a place that is no regular file is an InputError
    naming `--out out`."""
    try:
        return replaceable(path)
    except NotRegularFile as exc:
        if path == out:
            raise InputError(f"--out {out}: {exc.strerror}") from None
        raise InputError(f"--out {out}: {path.name} in it is {exc.what}, not a regular file; remove it, or choose "
                         "another directory") from None


def _check_writable(path: Path) -> None:
    """The nearest existing directory above `path` takes a new file (a nameless one, gone at once)."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"--out {path.parent}: {parent} is a file, not a directory")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise InputError(f"--out {path.parent}: cannot write in {parent} ({exc.strerror or exc})") from None
