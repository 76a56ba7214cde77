"""Atomic file writes: the one way the project replaces a file a reader may be looking at.

A reader sees the old file or the new one, never half, and after a crash
the new one is on the disk once `write_atomic` returns (the file and its
directory are synced). Reading files, and deciding what to write, are the
callers' business.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import BinaryIO

FILE_MODE = 0o666  # as open() creates a file, before the umask

Writer = Callable[[BinaryIO], object]


def write_atomic(path: Path, data: bytes | Writer) -> None:
    """Write `data` (bytes, or a function writing to a binary handle) to `path` atomically.

    The bytes go to a temporary file of a name of its own (``.NAME.*.tmp``)
    beside `path`, are synced, and the file is renamed over `path`; then the
    directory is synced so the rename lasts too. The file gets the mode
    open() would give it (0666 less the umask), not mkstemp's private 0600.
    On any failure the temporary file is removed, and an OSError names
    `path`, never the temporary file.
    """
    with naming(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.fchmod(fd, FILE_MODE & ~_umask())
            with os.fdopen(fd, "wb") as handle:
                if isinstance(data, bytes):
                    handle.write(data)
                else:
                    data(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _sync_directory(path.parent)


@contextmanager
def naming(path: Path) -> Iterator[None]:
    """An OSError raised in the block names `path`: write() and fsync() name no file
    ("No space left on device"), mkstemp and rename name the temporary one."""
    try:
        yield
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
