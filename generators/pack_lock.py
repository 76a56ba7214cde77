"""The lock of a pack directory: one run at a time writes a pack.

Covers: `lock_pack`, taken before a run reads or writes anything of the
pack (a new pack or `--resume`). The lock is an flock on `LOCK_NAME` in the
pack directory — the kernel drops it when its holder ends, however it ends,
so the lock a killed run leaves is simply taken over — and the file holds
the holder's pid and host for the one line another run is refused with
(`PackLocked`). A refused run changes nothing in the directory. The holder
removes the file when it lets go; since another run may have opened the
file meanwhile, a run that gets the lock checks that the file it locked is
still the one the name points to, and tries again if not.

Leaves out: what a pack holds (`pack.py`). POSIX only (flock), as the table
store's lock (`cpmodel/store.py`).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = ".lock"
# A run that has just taken the lock writes its pid and host at once; a run
# refused in that instant waits this long for them before naming no owner.
OWNER_WAIT_S = 0.5


class PackLocked(RuntimeError):
    """Another run holds the pack directory."""


@contextmanager
def lock_pack(out: Path) -> Iterator[None]:
    """Hold the lock of the existing directory `out` while the block runs; PackLocked if another run holds it."""
    path = out / LOCK_NAME
    fd = _acquire(path)
    try:
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname()}).encode() + b"\n", 0)
        except OSError as exc:  # a full disk: say which file could not be written
            raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
        yield
    finally:
        # Unlinked before it is unlocked: a run waiting on this file finds it gone and locks a new one.
        try:
            if _same_file(fd, path):
                path.unlink()
        finally:
            os.close(fd)


def check_unlocked(out: Path) -> None:
    """PackLocked if another run holds `out` now; nothing is created or changed (a check before
    long set-up work, which `lock_pack` does not replace: the run still takes the lock)."""
    try:
        fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _refusal(out, fd) from None
    finally:
        os.close(fd)  # which lets a lock taken here go


def _acquire(path: Path) -> int:
    """A descriptor of `path` holding its flock."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            refusal = _refusal(path.parent, fd)
            os.close(fd)
            raise refusal from None
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            return fd
        os.close(fd)  # its holder removed it as we opened it: lock the file now there


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


def _refusal(out: Path, fd: int) -> PackLocked:
    return PackLocked(f"{out} is being written by another run ({_owner(fd)}); wait for it to end, "
                      "or choose another directory")


def _owner(fd: int) -> str:
    """'pid N on host H' from the lock file, waiting a moment for a holder that has only just taken it."""
    deadline = time.monotonic() + OWNER_WAIT_S
    while True:
        try:
            owner = json.loads(os.pread(fd, 4096, 0) or b"null")
        except ValueError:
            owner = None
        if isinstance(owner, dict):
            return f"pid {owner.get('pid', '?')} on host {owner.get('host', '?')}"
        if time.monotonic() >= deadline:
            return "owner not yet recorded"
        time.sleep(0.05)
