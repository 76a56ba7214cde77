"""Where expensive derived tables (pattern databases) live between runs: the
store a caller hands to the models and solvers that build such tables.

Covers: the `TableStore` protocol (finished tables by key, a work directory
per key for a build that resumes after an interruption, and a lock so that
two processes never build the same table at once), `DirectoryStore`, the one
implementation (a directory the caller chooses), and `TableUser` /
`attach_tables`, how a caller gives a store to a solver that can use one.

Checked entries: a finished entry's metadata carries a checksum (xxh3-128)
of its data file (the whole `.npy`, header included) and of the rest of its
metadata, stamped when it is saved or finished. `load` hands out an entry
only when both digests match and the metadata holds the fields the caller
`Expected` with exactly those values (a table's shape and dtype too), so a
flipped bit, an edited or malformed field, or an entry of an older version
without a checksum is never read as a table: it is reported in one line
(through the store's `warn`, naming the file) and the caller rebuilds it
over the damaged one. An entry that predates checksums is not trusted either:
only a rebuild proves a table right (a spot check samples it), so it is
rebuilt once. Digests are verified once per file per process (memo by path
and stat identity: inode, size, times); `verify` re-hashes regardless.

Before any of that, an entry's files are read only if they are regular files
of a plausible size (`mobius.cpmodel.cache_files`): metadata of at most
MAX_METADATA_BYTES, parsed by the input gate's bounded JSON reader (nesting,
digits), and a data file no larger than the table the caller expects plus
a `.npy` header; a FIFO, a device or a sparse file of terabytes in an
entry's place is one warning line and a rebuild, never a hang. A pipe,
device or socket in place of the build lock is removed (one warning line)
and a lock file made in its place.

cpmodel never picks a location and never writes of its own accord: a solver
built without a store (`None`) keeps its tables in memory only. The caller
— the CLI, the pack generators, the benchmark harness — decides where the
cache is (the user's cache directory, a temporary one, none).

Leaves out: what the tables are and how they are built (`mobius.cpmodel.slider`),
and the user's cache location (the callers' `mobius.generators.cache`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import math
import mmap
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TypeVar, cast, runtime_checkable

import numpy as np
import xxhash

from mobius.cpmodel.cache_files import Damaged, open_entry, read_entry, remove_special, warn_on_stderr
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.inputs import loads_json_bounded

# How often a process waiting for another's build looks again (seconds):
# short next to a build, long enough not to spin.
LOCK_POLL_S = 0.05


# The metadata field that holds an entry's checksum, and its hash: xxh3 reads
# the 288 MB of the 15-puzzle's 7-8 tables in a few hundredths of a second.
CHECKSUM_FIELD = "checksum"
HASH_NAME = "xxh3_128"
# An entry's metadata names its layout in a few lists of small numbers (a few hundred bytes for
# the 15-puzzle's 7-8 tables); a larger file was not written by the store.
MAX_METADATA_BYTES = 1 << 20
# Room for a `.npy` file's magic, version and header before the table's own bytes: numpy itself
# refuses a header over 10,000 bytes.
MAX_NPY_HEADER_BYTES = 1 << 16


class LockTimeout(Exception):
    """Another process holds the build lock past the caller's deadline."""


@dataclass(frozen=True)
class Expected:
    """What a caller knows a finished entry must be: its array's shape and dtype, and metadata fields
    that must be present with exactly these values (derived from the board, never read from the entry)."""

    shape: tuple[int, ...]
    dtype: str
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """A finished, checked entry: its table (read-only) and metadata (without the checksum)."""

    table: np.ndarray
    metadata: dict[str, Any]
    hash_s: float  # seconds spent hashing it now (0 when this process had verified the same files)


@runtime_checkable
class TableStore(Protocol):
    """Finished tables by key, plus a place and a lock for building one."""

    warn: Callable[[str], None]  # where a damaged entry or work file is reported, one line each

    def load(self, key: str, expected: Expected) -> Entry | None:
        """The finished entry `key` (table read-only, memory-mapped where possible) if it is there, its
        checksum matches and it is what `expected` says; else None (a damaged entry is reported once)."""
        ...

    def verify(self, key: str, expected: Expected) -> str | None:
        """Re-check the finished entry `key` completely, whatever was verified before: None if sound,
        else what is wrong with it ("missing" if there is none)."""
        ...

    def save(self, key: str, table: np.ndarray, metadata: dict[str, Any]) -> None:
        """Store a finished table atomically: a reader sees the old state or the new, never half."""
        ...

    def discard(self, key: str) -> None:
        """Remove the finished entry `key` (one found damaged), so that the next build replaces it."""
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


# Entries this process has checked, by the stat identities of their two files:
# None when sound, else what was wrong; and the entries reported already (by their metadata's path).
_CHECKED: dict[tuple[Any, ...], str | None] = {}
_REPORTED: set[str] = set()


@dataclass(frozen=True)
class DirectoryStore:
    """A `TableStore` in one directory: ``KEY.npy`` + ``KEY.json`` per table, ``KEY.work/`` while building.

    `warn` receives the one-line report of a damaged entry (not part of the store's identity).
    """

    root: Path
    warn: Callable[[str], None] = field(default=warn_on_stderr, compare=False, repr=False)

    def _table(self, key: str) -> Path:
        return self.root / f"{key}.npy"

    def _meta(self, key: str) -> Path:
        return self.root / f"{key}.json"

    def load(self, key: str, expected: Expected) -> Entry | None:
        try:
            return self._checked(key, expected, memo=True)
        except FileNotFoundError:
            return None  # never finished (the metadata is written last): the caller builds it
        except Damaged as exc:
            # once per entry and process, however often it is asked for: a pipe in place of the data file,
            # once removed, would be found again as a table missing beside its metadata
            if str(self._meta(key)) not in _REPORTED:
                _REPORTED.add(str(self._meta(key)))
                self.warn(f"{exc}; not used, rebuilt when needed")
            return None

    def verify(self, key: str, expected: Expected) -> str | None:
        try:
            self._checked(key, expected, memo=False)
        except FileNotFoundError:
            return "missing"
        except Damaged as exc:
            return str(exc)
        return None

    def _checked(self, key: str, expected: Expected, memo: bool) -> Entry:
        """The entry `key`, checked; FileNotFoundError if it is not there, Damaged if it is unsound."""
        meta_path, table_path = self._meta(key), self._table(key)
        meta_bytes, meta_info = read_entry(meta_path, MAX_METADATA_BYTES, "table metadata file")
        meta_id = _identity(meta_info)
        try:
            with open_entry(table_path, _largest_npy(expected), "table file (.npy)") as table_handle:
                table_id = _identity(os.fstat(table_handle.fileno()))
                identity = (str(table_path), table_id, meta_id)
                known = _CHECKED.get(identity, "") if memo else ""
                if known:  # reported already
                    raise Damaged(known)
                try:
                    metadata, digests = _parse_metadata(meta_path, meta_bytes)
                    table, whole = _map_npy(table_handle, table_path)
                    began = time.perf_counter()
                    if known is None:  # this process checked these very files
                        hash_s = 0.0
                    else:
                        _check_digest(table_path, "data", digests, _digest(whole))
                        hash_s = time.perf_counter() - began
                    _check_expected(meta_path, table_path, metadata, table, expected)
                except Damaged as exc:
                    _CHECKED[identity] = str(exc)
                    raise
        except FileNotFoundError:
            raise Damaged(f"{table_path}: the table file is missing beside its metadata") from None
        except OSError as exc:
            raise Damaged(f"{table_path}: unreadable ({exc.strerror or exc})") from None
        _CHECKED[identity] = None
        return Entry(table, metadata, hash_s)

    def save(self, key: str, table: np.ndarray, metadata: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        _write_atomically(self._table(key), lambda handle: np.save(handle, table))
        self._write_meta(key, metadata)

    def discard(self, key: str) -> None:
        self._meta(key).unlink(missing_ok=True)  # the metadata first: without it the entry is not there
        self._table(key).unlink(missing_ok=True)

    def work_dir(self, key: str, create: bool = True) -> Path:
        path = self.root / f"{key}.work"
        if create:
            path.mkdir(parents=True, exist_ok=True)
        return path

    def finish(self, key: str, built: Path, metadata: dict[str, Any]) -> None:
        remove_special(self._table(key))  # the table renames over a regular file or none, never a pipe or device
        _replace(built, self._table(key))
        self._write_meta(key, metadata)
        work = self.root / f"{key}.work"
        for leftover in work.iterdir():
            leftover.unlink()
        work.rmdir()

    def _write_meta(self, key: str, metadata: dict[str, Any]) -> None:
        """Stamp the metadata with the digests of the data file as written and of itself, then write it."""
        with open(self._table(key), "rb") as handle:
            data = _digest(_map_npy(handle, self._table(key))[1])
        checksum = {"hash": HASH_NAME, "data": data, "metadata": _digest(_canonical(metadata))}
        text = json.dumps(metadata | {CHECKSUM_FIELD: checksum}, indent=1, sort_keys=True)
        _write_atomically(self._meta(key), lambda handle: handle.write(text.encode()))

    @contextlib.contextmanager
    def lock(self, key: str, deadline: float) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / f"{key}.lock"
        # never opened as it is: opening a FIFO could block, opening a device act on it
        if remove_special(path):
            self.warn(f"{path}: not a regular file (a pipe, device or socket); removed, a lock file made in its place")
        with open(path, "a+b") as handle:
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


# --- checking entries -------------------------------------------------------------------

def _identity(stat: os.stat_result) -> tuple[int, ...]:
    """What changes when a file is rewritten or replaced: device, inode, size, modification and change times."""
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


def _digest(data: Any) -> str:
    return xxhash.xxh3_128_hexdigest(data)


def _canonical(metadata: Mapping[str, Any]) -> bytes:
    return json.dumps(metadata, sort_keys=True, separators=(",", ":")).encode()


def _largest_npy(expected: Expected) -> int:
    """The most bytes the `.npy` file of an entry `expected` describes can hold."""
    return math.prod(expected.shape) * np.dtype(expected.dtype).itemsize + MAX_NPY_HEADER_BYTES


def _parse_metadata(path: Path, text: bytes) -> tuple[dict[str, Any], dict[str, str]]:
    """(metadata without its checksum, the checksum's digests), the metadata's own digest checked."""
    try:
        metadata = loads_json_bounded(text.decode("utf-8"), "table metadata")
    except UnicodeDecodeError:
        raise Damaged(f"{path}: the metadata is not JSON (not UTF-8 text)") from None
    except InputError as exc:  # nested past the bound, a huge number, a repeated key, or no JSON at all
        raise Damaged(f"{path}: the metadata is not JSON the store writes ({exc})") from None
    if not isinstance(metadata, dict):
        raise Damaged(f"{path}: the metadata is not a JSON object")
    digests = metadata.pop(CHECKSUM_FIELD, None)
    if digests is None:
        raise Damaged(f"{path}: no checksum (written by an older version), so the table is not trusted")
    if not (isinstance(digests, dict) and digests.get("hash") == HASH_NAME
            and all(isinstance(digests.get(part), str) for part in ("data", "metadata"))):
        raise Damaged(f"{path}: the checksum field is malformed")
    _check_digest(path, "metadata", digests, _digest(_canonical(metadata)))
    return metadata, digests


def _check_digest(path: Path, part: str, digests: Mapping[str, str], actual: str) -> None:
    if digests[part] == actual:
        return
    if part == "data":  # the data or the digest its metadata records: either may be the damaged one
        raise Damaged(f"{path}: checksum mismatch with {path.with_suffix('.json').name} (the data or the "
                      f"checksum recorded for it changed since it was written)")
    raise Damaged(f"{path}: checksum mismatch (the metadata changed since it was written)")


def _check_expected(meta_path: Path, table_path: Path, metadata: Mapping[str, Any], table: np.ndarray,
                    expected: Expected) -> None:
    """Refuse an entry that is not what the caller asked for, whatever its checksum says."""
    if table.shape != expected.shape or table.dtype != np.dtype(expected.dtype):
        raise Damaged(f"{table_path}: a {table.dtype} array of shape {table.shape}, expected {expected.dtype} "
                      f"of shape {expected.shape}")
    for name, value in expected.metadata.items():
        if name not in metadata:
            raise Damaged(f"{meta_path}: field {name!r} is missing")
        if metadata[name] != value or type(metadata[name]) is not type(value):
            raise Damaged(f"{meta_path}: field {name!r} is {json.dumps(metadata[name])[:60]}, expected "
                          f"{json.dumps(value)[:60]}")


def _map_npy(handle: Any, path: Path) -> tuple[np.ndarray, Any]:
    """(a read-only array over the open `.npy` file, the bytes of the whole file), mapped with every page
    populated up front.

    Searches read pattern tables at random: faulting pages in one by one on first touch costs more than
    the search itself on short instances, so the kernel maps them all at once (from its page cache).
    """
    try:
        version = np.lib.format.read_magic(handle)
        if version not in ((1, 0), (2, 0)):
            raise Damaged(f"{path}: .npy format {version} is not one this project writes")
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(handle)
    except Exception as exc:  # noqa: BLE001 — numpy's header parser lets its tokenizer's errors through too
        raise Damaged(f"{path}: not a readable .npy header ({type(exc).__name__})") from None
    if not (isinstance(shape, tuple) and all(isinstance(side, int) and side >= 0 for side in shape)):
        raise Damaged(f"{path}: not a readable .npy header (shape {shape!r})")
    offset = handle.tell()
    if fortran or dtype.hasobject:
        raise Damaged(f"{path}: not a plain C-ordered array")
    count = math.prod(shape)
    size = os.fstat(handle.fileno()).st_size
    if offset + count * dtype.itemsize != size:
        raise Damaged(f"{path}: {size} bytes, but its header describes {offset + count * dtype.itemsize}")
    if size == 0 or count == 0:
        handle.seek(0)
        return np.zeros(shape, dtype=dtype), handle.read()
    flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
    mapped = mmap.mmap(handle.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
    return np.frombuffer(mapped, dtype=dtype, count=count, offset=offset).reshape(shape), mapped


def _replace(source: Path, target: Path) -> None:
    """Rename `source` over `target`; an error names `target`, the entry that cannot be replaced."""
    try:
        os.replace(source, target)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot replace this cache entry ({exc.strerror})", str(target)) from None


def _write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """`write_atomic`, its error naming the cache entry that cannot be replaced."""
    try:
        write_atomic(path, write)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot replace this cache entry ({exc.strerror})", str(path)) from None


# --- handing a store to a solver ---------------------------------------------------

@runtime_checkable
class TableUser(Protocol):
    """A solver that builds or reads tables and can keep them in a caller's store."""

    def with_tables(self, store: TableStore | None) -> TableUser:
        """The same solver (same options) keeping its tables in `store` (None: memory only)."""
        ...


_Keeper = TypeVar("_Keeper", bound="TableKeeper")


def attach_tables(solver: Any, store: TableStore | None) -> Any:
    """`solver` with `store` if it uses tables, else `solver` unchanged."""
    return solver.with_tables(store) if isinstance(solver, TableUser) else solver


class TableKeeper:
    """The one table-store plumbing of a frozen solver dataclass: a base class beside `SolverBase`.

    The solver declares ``tables: InitVar[TableStore | None] = None`` (the
    caller's store is not an option: the CLI, packs and the harness pass
    their cache) and calls `_keep_tables` in its ``__post_init__``; it reads
    the store as `_store`, and `with_tables` rebuilds it (same options) with
    another store.
    """

    _store: TableStore | None  # set once, by _keep_tables (no dataclass field: not an option)

    def _keep_tables(self, tables: TableStore | None) -> None:
        object.__setattr__(self, "_store", tables)  # frozen: set once, when built

    def with_tables(self: _Keeper, store: TableStore | None) -> _Keeper:
        # replace() builds anew, so __post_init__ checks the options and keeps `store`
        rebuilt: _Keeper = dataclasses.replace(cast(Any, self), tables=store)
        return rebuilt