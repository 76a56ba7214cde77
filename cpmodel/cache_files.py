"""Reading back the project's own cache files: only a regular file of a plausible size is read.

Covers: `Damaged`, the refusal of a cache file, its message naming the file
and what is wrong, which each cache reports in one warning line
(`warn_on_stderr`, unless its caller gives another `warn`) before it
rebuilds the entry; `open_entry` and `read_entry`, which open a cache file
through the input gate's bounded reader (`mobius.cpmodel.inputs.open_bounded`:
asked of stat before it is opened, opened without blocking), so a FIFO never
blocks a run, a device is never opened and a file larger than its cache ever
writes (a sparse file of terabytes) is never mapped or hashed; and
`remove_special`, which removes a pipe, device node, socket or a symlink to
one that sits where a cache file belongs, so that the rebuild can take its
name (atomic writes rename only over regular files).

Leaves out: what each cache holds and how it checks its contents (the table
store `store.py`, the word-list cache `crossword/word_cache.py`, the lemma
table `generators/crossword/word_family.py`, numba's kernels
`kernel_cache.py`), and the choice of where caches live (the callers).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import open_bounded, read_bounded


class Damaged(Exception):
    """A cache file that must not be used; the message names the file and what is wrong."""


def warn_on_stderr(message: str) -> None:
    """The default report of a damaged cache file: one line on stderr."""
    print(f"mobius: warning: {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def open_entry(path: Path, max_bytes: int, what: str) -> Iterator[BinaryIO]:
    """The cache file `path`, open for reading, if it is a regular file of at most `max_bytes` bytes.

    FileNotFoundError when there is none (no file, or a parent that is no
    directory); else Damaged naming it, after a pipe, device or socket in its
    place was removed (`remove_special`). `what` names the expected content.
    """
    try:
        fd = open_bounded(path, max_bytes, what)
    except NotADirectoryError:
        raise FileNotFoundError(path) from None  # no entry can be there
    except InputError as exc:
        removed = remove_special(path)
        raise Damaged(f"{exc}{' (removed)' if removed else ''}") from None
    with os.fdopen(fd, "rb") as handle:
        yield handle


def read_entry(path: Path, max_bytes: int, what: str) -> tuple[bytes, os.stat_result]:
    """The bytes of the cache file `path` (see `open_entry`) and its fstat, taken on the descriptor read,
    so that what a caller remembers of the file is the file it read."""
    with open_entry(path, max_bytes, what) as handle:
        info = os.fstat(handle.fileno())
        try:
            return read_bounded(handle.fileno(), max_bytes, what, str(path)), info
        except InputError as exc:
            raise Damaged(str(exc)) from None


def remove_special(path: Path) -> bool:
    """Remove `path` if it is (or links to) a pipe, device node or socket; whether it did.

    A regular file or a directory stays: the one is replaced by the rebuild,
    the other may hold anything and is refused where it is written.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False  # nothing there, or a link to nothing: the rebuild replaces it
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        return False
    try:
        os.unlink(path)  # the node or the link, never what a link points to
    except OSError:
        return False  # the write that follows says why it cannot replace it
    return True
