"""Atomic file writes: the one way the project replaces a file a reader may be looking at.

A reader sees the old file or the new one, never half, and after a crash
the new one is on the disk once `write_atomic` returns (the file and its
directory are synced). Only a regular file is ever replaced: a path that
is a device, a FIFO, a socket or a directory, itself or at the end of its
symbolic links, is refused (`NotRegularFile`, `replaceable`) before
anything is written, so `--out /dev/null` never turns /dev/null into a
file; a symbolic link to a regular file is written through, its target
replaced and the link kept. Reading files, and deciding what to write, are
the callers' business.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import BinaryIO

FILE_MODE = 0o666  # as open() creates a file, before the umask

Writer = Callable[[BinaryIO], object]

# What a path that is not a regular file is, by the test of its mode.
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


class NotRegularFile(OSError):
    """A write refused because its path is not a regular file (or a new name).

    An OSError, as the system's own refusals of a path are: callers that
    take an unwritable cache in their stride take this in theirs, and the
    CLI says it in one line (exit 2). Its errno is EINVAL, the nearest the
    system has to "no place to write a file"; the message says what is there.
    """

    def __init__(self, path: Path, kind: str, target: Path | None = None) -> None:
        # What is there, e.g. "a character device (the link leads to /dev/null)".
        self.what = kind + (f" (the link leads to {target})" if target is not None else "")
        super().__init__(errno.EINVAL, f"{self.what}, not a regular file; expected a regular file or a new name "
                                       "to write", os.fspath(path))


def kind_of(mode: int) -> str:
    """What a file is, from its st_mode: "a file" (a regular one), "a named pipe (FIFO)", "a socket"…"""
    if stat.S_ISREG(mode):
        return "a file"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def replaceable(path: Path) -> Path:
    """The path a write to `path` replaces: `path` itself or, for a symbolic link, the file it leads to.

    NotRegularFile if that exists and is not a regular file. A link is
    followed rather than replaced: replacing it would put a file where the
    user keeps a link, and leave the file it names as it was.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return target  # a new name: the write creates it (or says why its folder cannot be)
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, kind_of(mode), target if os.path.islink(path) else None)
    return target


def write_atomic(path: Path, data: bytes | Writer) -> None:
    """Write `data` (bytes, or a function writing to a binary handle) to `path` atomically.

    The bytes go to a temporary file of a name of its own (``.NAME.*.tmp``)
    beside `path`, are synced, and the file is renamed over `path`; then the
    directory is synced so the rename lasts too. The file gets the mode
    open() would give it (0666 less the umask), not mkstemp's private 0600.
    A path that is not a regular file (or a new name) is refused with
    `NotRegularFile` before anything is written; a symbolic link is written
    through (`replaceable`). On any failure the temporary file is removed,
    and an OSError names `path`, never the temporary file.
    """
    with naming(path):
        target = replaceable(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.fchmod(fd, FILE_MODE & ~_umask())
            with os.fdopen(fd, "wb") as handle:
                if isinstance(data, bytes):
                    handle.write(data)
                else:
                    data(handle)
                handle.flush()
                os.fsync(handle.fileno())
            # Checked again: a writer may take long, and in the meantime a device could have been put there.
            _refuse_special(path, target)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _sync_directory(target.parent)


def _refuse_special(path: Path, target: Path) -> None:
    """NotRegularFile if `target` is now anything but a regular file or nothing (a link included:
    the rename would replace the link itself)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, kind_of(mode))


@contextmanager
def naming(path: Path) -> Iterator[None]:
    """An OSError raised in the block names `path`: write() and fsync() name no file
    ("No space left on device"), mkstemp and rename name the temporary one."""
    try:
        yield
    except NotRegularFile:
        raise  # it names the path already, and says more than its errno
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), os.fspath(path)) from None


def _sync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@cache
def _umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask
