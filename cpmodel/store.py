"""Where expensive derived tables (pattern databases) live between runs: the
store a caller hands to the models and solvers that build such tables.

Covers: the `TableStore` protocol (finished tables by key, a work directory
per key for a build that resumes after an interruption, and a lock so that
two processes never build the same table at once), `DirectoryStore`, the one
implementation (a directory the caller chooses), and `TableUser` /
`attach_tables`, how a caller gives a store to a solver that can use one.

cpmodel never picks a location and never writes of its own accord: a solver
built without a store (`None`) keeps its tables in memory only. The caller
— the CLI, the pack generators, the benchmark harness — decides where the
cache is (the user's cache directory, a temporary one, none).

Leaves out: what the tables are and how they are built (`cpmodel.slider`),
and the user's cache location (the callers' `generators.cache`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import mmap
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

# How often a process waiting for another's build looks again (seconds):
# short next to a build, long enough not to spin.
LOCK_POLL_S = 0.05


class LockTimeout(Exception):
    """Another process holds the build lock past the caller's deadline."""


@runtime_checkable
class TableStore(Protocol):
    """Finished tables by key, plus a place and a lock for building one."""

    def load(self, key: str) -> np.ndarray | None:
        """The finished table `key` (read-only, memory-mapped where possible), or None."""
        ...

    def metadata(self, key: str) -> dict[str, Any] | None:
        """What was saved with the finished table `key`, or None."""
        ...

    def save(self, key: str, table: np.ndarray, metadata: dict[str, Any]) -> None:
        """Store a finished table atomically: a reader sees the old state or the new, never half."""
        ...

    def work_dir(self, key: str, create: bool = True) -> Path:
        """The directory for the resumable state of building `key` (created unless `create` is false)."""
        ...

    def finish(self, key: str, built: Path, metadata: dict[str, Any]) -> None:
        """Make the `.npy` file `built` (inside `work_dir(key)`) the finished table and drop the work directory."""
        ...

    def lock(self, key: str, deadline: float) -> contextlib.AbstractContextManager[None]:
        """Hold the build lock of `key`; LockTimeout if another process keeps it past `deadline`."""
        ...


@dataclass(frozen=True)
class DirectoryStore:
    """A `TableStore` in one directory: ``KEY.npy`` + ``KEY.json`` per table, ``KEY.work/`` while building."""

    root: Path

    def _table(self, key: str) -> Path:
        return self.root / f"{key}.npy"

    def _meta(self, key: str) -> Path:
        return self.root / f"{key}.json"

    def load(self, key: str) -> np.ndarray | None:
        if not self._meta(key).exists():  # the metadata is written last: no metadata, no table
            return None
        try:
            return _map_npy(self._table(key))
        except (OSError, ValueError):
            return None  # missing or unreadable: the caller rebuilds it

    def metadata(self, key: str) -> dict[str, Any] | None:
        try:
            return json.loads(self._meta(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def save(self, key: str, table: np.ndarray, metadata: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        _write_atomically(self._table(key), lambda handle: np.save(handle, table))
        self._write_meta(key, metadata)

    def work_dir(self, key: str, create: bool = True) -> Path:
        path = self.root / f"{key}.work"
        if create:
            path.mkdir(parents=True, exist_ok=True)
        return path

    def finish(self, key: str, built: Path, metadata: dict[str, Any]) -> None:
        os.replace(built, self._table(key))
        self._write_meta(key, metadata)
        work = self.root / f"{key}.work"
        for leftover in work.iterdir():
            leftover.unlink()
        work.rmdir()

    def _write_meta(self, key: str, metadata: dict[str, Any]) -> None:
        text = json.dumps(metadata, indent=1, sort_keys=True)
        _write_atomically(self._meta(key), lambda handle: handle.write(text.encode()))

    @contextlib.contextmanager
    def lock(self, key: str, deadline: float) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / f"{key}.lock", "a+b") as handle:
            # flock, not a lock file's existence: the kernel drops it when the holder dies
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.perf_counter() >= deadline:
                        raise LockTimeout(key) from None
                    time.sleep(LOCK_POLL_S)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _map_npy(path: Path) -> np.ndarray:
    """A read-only array over the `.npy` file at `path`, mapped with every page populated up front.

    Searches read pattern tables at random: faulting pages in one by one on first touch costs more than
    the search itself on short instances, so the kernel maps them all at once (from its page cache).
    """
    with open(path, "rb") as handle:
        version = np.lib.format.read_magic(handle)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"{path}: .npy format {version} is not one this project writes")
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(handle)
        offset = handle.tell()
        if fortran or dtype.hasobject:
            raise ValueError(f"{path}: not a plain C-ordered array")
        count = int(np.prod(shape))
        if count == 0:
            return np.zeros(shape, dtype=dtype)
        flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
        mapped = mmap.mmap(handle.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
    return np.frombuffer(mapped, dtype=dtype, count=count, offset=offset).reshape(shape)


def _write_atomically(path: Path, write: Any) -> None:
    """Write through `write(handle)` to a temporary file beside `path`, then rename it over `path`."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a cache is as readable as any file the user writes
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- handing a store to a solver ---------------------------------------------------

@runtime_checkable
class TableUser(Protocol):
    """A solver that builds or reads tables and can keep them in a caller's store."""

    def with_tables(self, store: TableStore | None) -> TableUser:
        """The same solver (same options) keeping its tables in `store` (None: memory only)."""
        ...


def attach_tables(solver: Any, store: TableStore | None) -> Any:
    """`solver` with `store` if it uses tables, else `solver` unchanged."""
    return solver.with_tables(store) if isinstance(solver, TableUser) else solver


def rebuilt_with_tables(solver: Any, store: TableStore | None) -> Any:
    """A copy of the frozen solver dataclass `solver` (same options), built with ``tables=store``."""
    options = {f.name: getattr(solver, f.name) for f in dataclasses.fields(solver)}
    return type(solver)(**options, tables=store)
