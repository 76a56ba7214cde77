"""Building the compact pattern databases of a whole partition, resumably,
in the caller's store; loading finished ones.

Covers: `CompactTables` (every group's table end to end, with where each
starts and its width), `load_tables` (finished tables only: from this
process's memory or the store, memory-mapped), `build_tables` (the level search of `pdb.py` group
after group, in chunks between which the deadline is checked and progress is
reported) and `build_status`. With a store the build works on files in the
store's work directory — the table, the 2-bit marks of the group being
searched and `progress.json` — so a build that stops at its deadline, a
Ctrl-C or a termination signal keeps everything written so far and the next
build continues; the finished table is then renamed into place. A lock keeps two
processes from building the same partition at once: the second waits (up to
its deadline) and then loads what the first built. Without a store the same
state is kept in this process.

Checked work files: `progress.json` is a checkpoint — where the build stands,
the xxh3-128 digests of each finished group's table and of the current
group's table and marks as they were when it was written, and a digest of
itself — and it never claims more than the layout holds (each count within
its group's states). A build continues only from files that match their
checkpoint. Anything else (a flipped bit, a truncated or missing file, a
pipe in a file's place, an edited or malformed checkpoint, or the files of a
build killed mid-level, which changed after their checkpoint) is reported in
one line and built again: the groups whose files do not match, or the whole
partition when the checkpoint itself cannot be read. Before finished tables
are stamped into the store they pass `table_check.build_check` (exact
distances near the goal, Bellman bounds at random placements); a group that
fails it is built again, once.

Leaves out: the layout and the compiled search (`pdb.py`) and the searches
that read the tables (`compiled.py`).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import xxhash

from mobius.cpmodel.cache_files import Damaged, open_entry, read_entry, warn_on_stderr
from mobius.cpmodel.deadline import DeadlineExceeded, check_deadline
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.inputs import loads_json_bounded
from mobius.cpmodel.slider.board import Board, State
from mobius.cpmodel.slider.pdb_keys import COMPACT_FORMAT, Partition, compact_key
from mobius.cpmodel.slider.pdb import (
    CHUNK_EXPANSIONS,
    FACTORIALS,
    FIELDS_PER_WORD,
    GroupLayout,
    bipartite_scale,
    check_group,
    count_open,
    count_saturated,
    expand_chunk,
    expected_entry,
    goal_state,
    group_layout,
    lower_entry,
    set_mark,
    table_bases,
)
from mobius.cpmodel.slider.table_check import build_check
from mobius.cpmodel.store import Expected, LockTimeout, TableStore

@dataclass(frozen=True)
class BuildStep:
    """Where a build stands when it reports progress: group `group` of `groups` (1-based), its level."""

    group: int
    groups: int
    tiles: int
    level: int

    @property
    def phase(self) -> str:
        return f"group {self.group}/{self.groups} ({self.tiles} tiles)"

    def __str__(self) -> str:
        return f"{self.phase}, level {self.level}"


ProgressFn = Callable[[int, int, BuildStep], None]  # (states reached, states in every group, where it stands)
TABLE_FILE, PROGRESS_FILE = "table.npy", "progress.json"
FRONTIER = 2  # the mark of the goal state at level 0


@dataclass(frozen=True)
class CompactTables:
    """The tables of a partition, end to end: group g's from byte bases[g], bits[g] bits per entry."""

    partition: Partition
    table: np.ndarray  # uint8, read-only
    bases: tuple[int, ...]
    bits: tuple[int, ...]
    scale: int  # entry = (distance − Σ graph distances of the group's tiles) / scale
    metadata: dict[str, Any] = field(default_factory=dict, compare=False)


# Tables kept in this process: enough for the partitions of a few boards.
FINISHED_KEPT = 4
_FINISHED: dict[str, CompactTables] = {}
_PARTIAL: dict[str, _Build] = {}  # a memory-only build that stopped at its deadline, by key


def _tables(partition: Partition, table: np.ndarray, metadata: dict[str, Any], expected: Expected) -> CompactTables:
    layout = expected.metadata
    return CompactTables(partition, table, tuple(layout["bases"][:-1]), tuple(layout["bits"]), layout["scale"],
                         metadata)


def _remember(key: str, tables: CompactTables) -> CompactTables:
    if key not in _FINISHED and len(_FINISHED) >= FINISHED_KEPT:
        _FINISHED.pop(next(iter(_FINISHED)))
    _FINISHED[key] = tables
    return tables


def load_tables(board: Board, goal: State, partition: Partition, store: TableStore | None) -> CompactTables | None:
    """The finished tables of `partition`, or None if they have not been built (nothing is built here)."""
    key = compact_key(board, goal, partition)
    if key in _FINISHED:
        return _FINISHED[key]
    if store is None:
        return None
    expected = expected_entry(board, goal, partition)
    entry = store.load(key, expected)
    return None if entry is None else _remember(key, _tables(partition, entry.table, entry.metadata, expected))


def build_status(board: Board, goal: State, partition: Partition, store: TableStore | None) -> tuple[int, int]:
    """(states reached so far, states in every group): equal once built, (0, total) if never started."""
    total = sum(group_layout(board, goal, g).states for g in partition)
    if load_tables(board, goal, partition, store) is not None:
        return total, total
    key = compact_key(board, goal, partition)
    if key in _PARTIAL:
        return _PARTIAL[key].reached_all(), total
    if store is not None:
        layouts = [group_layout(board, goal, g) for g in partition]
        try:
            record = _read_checkpoint(store.work_dir(key, create=False) / PROGRESS_FILE, layouts)
        except Damaged:
            record = None  # the next build says so, and builds it again
        if record is not None:
            return _reached(record), total
    return 0, total


def build_tables(board: Board, goal: State, partition: Partition, *, store: TableStore | None,
                 deadline: float = math.inf, progress: ProgressFn | None = None) -> CompactTables:
    """The finished tables of `partition`: loaded if built, else built (continuing any earlier attempt).

    Raises DeadlineExceeded past `deadline`; what was built is kept for the next call.
    """
    for group in partition:
        check_group(board, group)
    key = compact_key(board, goal, partition)
    finished = load_tables(board, goal, partition, store)
    if finished is not None:
        if store is not None and store.load(key, expected_entry(board, goal, partition)) is None:
            # built in memory earlier: keep it now
            store.save(key, np.asarray(finished.table), finished.metadata)
        return finished
    if store is None:
        if key not in _PARTIAL:
            _PARTIAL.clear()  # one unfinished build in memory at a time: they can be large
            _PARTIAL[key] = _Build(board, goal, partition, None, deadline)
        build = _PARTIAL[key]
        metadata = build.run(deadline, progress)
        del _PARTIAL[key]
        table = build.table.view()
        table.flags.writeable = False
        return _remember(key, _tables(partition, table, metadata, expected_entry(board, goal, partition)))
    try:
        with store.lock(key, deadline):
            # another process may have finished it while this one waited for the lock
            finished = load_tables(board, goal, partition, store)
            if finished is not None:
                return finished
            build = _Build(board, goal, partition, store.work_dir(key), deadline, store.warn)
            metadata = build.run_checked(deadline, progress)
            build.close()
            store.finish(key, build.work / TABLE_FILE, metadata)
    except LockTimeout:
        raise DeadlineExceeded from None
    tables = load_tables(board, goal, partition, store)
    if tables is None:
        raise OSError(f"the pattern tables {key} could not be read back from the store after building them")
    return tables


# --- the checkpoint ----------------------------------------------------------------------

# The checkpoint's own version: 1 recorded no digests, so its files are never continued from.
WORK_FORMAT = 2
# A checkpoint is a few hundred bytes a group: anything near this is not one.
MAX_PROGRESS_BYTES = 1 << 16
# A .npy header is at most this long (numpy pads it to a multiple of 64 bytes; a 1-D array's is 128).
MAX_NPY_HEADER = 4096
# The counts a checkpoint keeps of a group being searched (each at most that group's states).
COUNTS = ("depth", "resume", "expanded", "reached")


def _digest(data: np.ndarray) -> str:
    return xxhash.xxh3_128_hexdigest(data)


def _record_digest(record: dict[str, Any]) -> str:
    return xxhash.xxh3_128_hexdigest(json.dumps(record, sort_keys=True, separators=(",", ":")).encode())


def _fresh_record(groups: int) -> dict[str, Any]:
    """A checkpoint before any search: no group started."""
    return {"format": COMPACT_FORMAT, "work": WORK_FORMAT, "seconds": 0.0, "groups": [None] * groups}


def _reached(record: dict[str, Any]) -> int:
    """States reached by every group so far."""
    return sum(group["reached"] for group in record["groups"] if group is not None)


def _count(value: Any, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high


def _read_checkpoint(path: Path, layouts: list[GroupLayout]) -> dict[str, Any] | None:
    """The checkpoint at `path` (None if there is none), once its digest and every field are checked against
    the layouts of the partition's groups; Damaged otherwise."""
    what = "build progress file"
    try:
        raw, _ = read_entry(path, MAX_PROGRESS_BYTES, what)
    except FileNotFoundError:
        return None
    try:
        record = loads_json_bounded(raw.decode("utf-8"), what, source=str(path))
    except UnicodeDecodeError:
        raise Damaged(f"{path}: not UTF-8 text; expected a {what}") from None
    except InputError as exc:
        raise Damaged(str(exc)) from None
    if not isinstance(record, dict):
        raise Damaged(f"{path}: not a JSON object")
    if record.get("work") != WORK_FORMAT:
        raise Damaged(f"{path}: not a checkpoint of this version (no digests of its files)")
    if record.pop("check", None) != _record_digest(record):
        raise Damaged(f"{path}: checksum mismatch (the file changed since it was written)")
    problem = _record_problem(record, layouts)
    if problem:
        raise Damaged(f"{path}: {problem}")
    return record


def _record_problem(record: dict[str, Any], layouts: list[GroupLayout]) -> str | None:
    """What in a checkpoint disagrees with the partition it is of, or None: a checkpoint claims no group
    other than the partition's and no count beyond its group's states or placements."""
    groups = record.get("groups")
    if record.get("format") != COMPACT_FORMAT or not isinstance(groups, list) or len(groups) != len(layouts):
        return f"not a checkpoint of these {len(layouts)} groups"
    seconds = record.get("seconds")
    if not (isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 <= seconds < math.inf):
        return "the build time is not a number of seconds"
    for g, (layout, group) in enumerate(zip(layouts, groups)):
        if group is not None and not _group_record_sound(group, layout):
            return f"the record of group {g + 1} is not one of a search of {layout.states:,} states"
    return None


def _group_record_sound(group: Any, layout: GroupLayout) -> bool:
    """Whether `group` is the record of a finished or started search of `layout`'s states."""
    if not (isinstance(group, dict) and isinstance(group.get("done"), bool)):
        return False
    digests = ("table",) if group["done"] else ("table", "marks")
    counts = {"reached": layout.states} | ({"saturated": layout.placements} if group["done"]
                                           else dict.fromkeys(COUNTS, layout.states))
    return (all(isinstance(group.get(name), str) for name in digests)
            and all(_count(group.get(name), high) for name, high in counts.items()))


# --- one build ------------------------------------------------------------------------

class _Build:
    """Where one partition's build stands, and its arrays: files under `work`, or memory if `work` is None.

    `progress` holds a record per group: None before its search, else whether it is done, the states it
    reached and, while it is searched, its level, the state to resume from and the states expanded in the
    level; with files, also the digests of its table (and marks) at the last checkpoint.
    """

    def __init__(self, board: Board, goal: State, partition: Partition, work: Path | None,
                 deadline: float = math.inf, warn: Callable[[str], None] = warn_on_stderr) -> None:
        self.board, self.goal, self.partition, self.work, self.warn = board, goal, partition, work, warn
        self.layouts: list[GroupLayout] = []
        for group in partition:  # a tenth of a second for an 8-tile group
            check_deadline(deadline)
            self.layouts.append(group_layout(board, goal, group))
        self.bases = table_bases(board, partition)
        self.scale = bipartite_scale(board)
        self._marks: tuple[int, np.ndarray] | None = None
        if work is None:
            # all zeros: every entry at the ceiling until the search lowers it
            self.progress = _fresh_record(len(partition))
            self.table = np.zeros(self.bases[-1], dtype=np.uint8)
        else:
            self._resume()
            self._checkpoint()

    def current(self) -> int | None:
        """The group to search next (the first not done), None once every group is done."""
        return next((g for g, group in enumerate(self.progress["groups"]) if group is None or not group["done"]),
                    None)

    def reached_all(self) -> int:
        return _reached(self.progress)

    def _region(self, g: int) -> np.ndarray:
        return self.table[self.bases[g]:self.bases[g + 1]]

    # -- resuming from the work directory ---------------------------------------------

    def _resume(self) -> None:
        """Continue from the checkpoint in the work directory where the files match it; with one line each,
        search again the groups whose files do not, or start over if the checkpoint or table is unreadable."""
        assert self.work is not None
        try:
            record = _read_checkpoint(self.work / PROGRESS_FILE, self.layouts)
            if record is not None:
                self.table = self._open_table()
        except Damaged as exc:
            self.warn(f"{exc}; the build of these tables starts over")
            record = None
        if record is None:  # nothing to continue from: whatever else lies here is no build's
            self._clear_work()
            self.progress = _fresh_record(len(self.partition))
            self.table = self._create_table()
            return
        self.progress = record
        for g in range(len(self.partition)):
            problem = self._group_problem(g)
            if problem:
                self.warn(f"{problem}; group {g + 1} of {len(self.partition)} is built again")
                self._forget(g)

    def _group_problem(self, g: int) -> str | None:
        """What in group `g`'s files disagrees with its record, or None."""
        assert self.work is not None
        group = self.progress["groups"][g]
        if group is None:
            self._marks_path(g).unlink(missing_ok=True)  # left by a build killed as the group began
            # a group not yet searched must be blank: its search only ever lowers entries
            return None if not self._region(g).any() else f"{self.work / TABLE_FILE}: group {g + 1}'s table, " \
                                                           f"not yet searched, is not blank"
        changed = "changed since the last checkpoint (damaged, or the build was killed mid-level)"
        if _digest(self._region(g)) != group["table"]:
            return f"{self.work / TABLE_FILE}: the table of group {g + 1} {changed}"
        if not group["done"]:
            try:
                marks = self._map_marks(g, create=False)
            except Damaged as exc:
                return str(exc)
            if _digest(marks) != group["marks"]:
                return f"{self._marks_path(g)}: {changed}"
        return None

    def _forget(self, g: int) -> None:
        """Group `g` as if never searched: its table blank, its marks removed."""
        if self._marks is not None and self._marks[0] == g:
            self._marks = None
        if self.work is not None:
            self._marks_path(g).unlink(missing_ok=True)
        self._region(g)[:] = 0
        self.progress["groups"][g] = None

    def _clear_work(self) -> None:
        """Remove every file of the work directory (a build starting afresh trusts none of them)."""
        assert self.work is not None
        for leftover in self.work.iterdir():
            if leftover.is_symlink() or not leftover.is_dir():
                leftover.unlink()

    # -- the files ----------------------------------------------------------------------

    def _marks_path(self, g: int) -> Path:
        assert self.work is not None
        return self.work / f"marks-{g}.bin"

    def _create_table(self) -> np.ndarray:
        assert self.work is not None
        path = self.work / TABLE_FILE
        path.unlink(missing_ok=True)  # never write through a pipe, device or link that took its place
        table = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint8, shape=(self.bases[-1],))
        return _on_disk(table, path)

    def _open_table(self) -> np.ndarray:
        """The work table as the checkpoint left it, once its header and size are this partition's."""
        assert self.work is not None
        path = self.work / TABLE_FILE
        try:
            with open_entry(path, self.bases[-1] + MAX_NPY_HEADER, "work table") as handle:
                version = np.lib.format.read_magic(handle)
                read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                               else np.lib.format.read_array_header_2_0)
                shape, fortran, dtype = read_header(handle)
                _sized(path, handle, handle.tell() + self.bases[-1])
        except FileNotFoundError:
            raise Damaged(f"{path}: missing") from None
        except Damaged:
            raise
        except Exception as exc:  # noqa: BLE001 — numpy's header parser lets its tokenizer's errors through too
            raise Damaged(f"{path}: not a readable table ({type(exc).__name__})") from None
        if shape != (self.bases[-1],) or fortran or dtype != np.uint8:
            raise Damaged(f"{path}: holds a {dtype} array of shape {shape}, expected {self.bases[-1]:,} bytes")
        return _on_disk(np.lib.format.open_memmap(path, mode="r+"), path)

    def _map_marks(self, g: int, create: bool) -> np.ndarray:
        """Group `g`'s marks file, mapped: a new one (all zeros, unseen, without writing them), or the one
        there, once it is a regular file of the right size."""
        words = -(-self.layouts[g].states // FIELDS_PER_WORD)
        path = self._marks_path(g)
        if create:
            path.unlink(missing_ok=True)
        else:
            try:
                with open_entry(path, words * 8, "build marks file") as handle:
                    _sized(path, handle, words * 8)
            except FileNotFoundError:
                raise Damaged(f"{path}: missing") from None
        return _on_disk(np.memmap(path, dtype=np.int64, mode="w+" if create else "r+", shape=(words,)), path)

    def _open_marks(self, g: int) -> np.ndarray:
        """The marks of group `g`'s search: kept on this build between runs (a build cut short in memory
        continues from them), the checked file of a group whose search a checkpoint holds, else new."""
        if self._marks is None or self._marks[0] != g:
            if self.work is None:
                marks = np.zeros(-(-self.layouts[g].states // FIELDS_PER_WORD), dtype=np.int64)
            else:
                marks = self._map_marks(g, create=self.progress["groups"][g] is None)
            self._marks = (g, marks)
        return self._marks[1]

    def _checkpoint(self) -> None:
        """Write where the build stands, with the digests of the files of the group being searched as they
        are now (the others have not changed since theirs were taken)."""
        if self.work is None:
            return
        if self._marks is not None:
            g, marks = self._marks
            self.progress["groups"][g].update(table=_digest(self._region(g)), marks=_digest(marks))
        record = dict(self.progress)
        record["check"] = _record_digest(self.progress)
        write_atomic(self.work / PROGRESS_FILE, json.dumps(record).encode("utf-8"))

    # -- the search ---------------------------------------------------------------------

    def run(self, deadline: float, progress: ProgressFn | None) -> dict[str, Any]:
        """Search group after group from where the build stands; the metadata of the finished tables."""
        began = time.perf_counter()
        try:
            while (g := self.current()) is not None:
                self._run_group(g, deadline, progress)
        finally:
            # whatever stopped the build, the next one starts from here
            self.progress["seconds"] += time.perf_counter() - began
            self._checkpoint()
        return {"format": COMPACT_FORMAT, "board": self.board.label, "n": self.board.n, "goal": list(self.goal),
                "partition": [list(g) for g in self.partition], "scale": self.scale, "bases": self.bases,
                "bits": [lay.bits for lay in self.layouts],
                "states": [lay.states for lay in self.layouts],
                "saturated": [group["saturated"] for group in self.progress["groups"]],
                "build_s": round(self.progress["seconds"], 3)}

    def run_checked(self, deadline: float, progress: ProgressFn | None) -> dict[str, Any]:
        """`run`, then the check of the finished tables before they are stored: a group that fails it is
        searched again (once; failing twice is a fault of this program, not of the files)."""
        for attempt in range(2):
            metadata = self.run(deadline, progress)
            layout = {"bases": self.bases, "bits": metadata["bits"], "scale": self.scale}
            failed = build_check(self.board, self.goal, self.partition, self.table, layout)
            if failed is None:
                return metadata
            g, problem = failed
            if attempt:
                raise RuntimeError(f"the pattern table of group {g + 1} fails its check after being built again: "
                                   f"{problem}")
            self.warn(f"{self.work}: the table of group {g + 1} fails its check ({problem}); group {g + 1} of "
                      f"{len(self.partition)} is built again")
            self._forget(g)
        raise AssertionError("unreachable")

    def _run_group(self, g: int, deadline: float, progress: ProgressFn | None) -> None:
        layout = self.layouts[g]
        marks = self._open_marks(g)
        if self.progress["groups"][g] is None:
            start, start_placement = goal_state(layout, self.goal)
            set_mark(marks, start, FRONTIER)
            lower_entry(self.table, self.bases[g], start_placement, 0, layout.bits)
            self.progress["groups"][g] = {"done": False, "depth": 0, "resume": 0, "expanded": 0, "reached": 1,
                                          "table": "", "marks": ""}
            self._checkpoint()
        state = self.progress["groups"][g]
        lists = layout.move_lists
        total = sum(lay.states for lay in self.layouts)
        out = np.zeros(3, dtype=np.int64)
        while True:
            while state["resume"] < layout.states:
                check_deadline(deadline)
                expand_chunk(marks, self.table, self.bases[g], layout.bits, state["resume"], CHUNK_EXPANSIONS,
                             state["depth"], self.scale, layout.cells, layout.comp_count, layout.offsets, layout.perms,
                             layout.tile_at, layout.slot_moves, lists.first, lists.start, lists.index, lists.to,
                             lists.mask, lists.comp, lists.v, lists.q, FACTORIALS, layout.home_dist, out)
                state["resume"] = int(out[0])
                state["expanded"] += int(out[1])
                # a chunk's count is lost if the build stops before it is added, so it stays an estimate
                state["reached"] = min(state["reached"] + int(out[2]), layout.states)
                if progress is not None:
                    progress(self.reached_all(), total, BuildStep(g + 1, len(self.partition), layout.k, state["depth"]))
            # A level that expanded nothing ends the search — unless its count was lost
            # (a build stopped between a chunk and its count restarts the level), so the marks decide.
            if state["expanded"] == 0 and count_open(marks) == 0:
                break
            state.update(depth=state["depth"] + 1, resume=0, expanded=0)
            self._checkpoint()
        saturated = int(count_saturated(self.table, self.bases[g], layout.placements, layout.bits))
        self.progress["groups"][g] = {"done": True, "table": _digest(self._region(g)), "saturated": saturated,
                                      "reached": state["reached"]}
        del marks
        self._marks = None
        self._checkpoint()
        if self.work is not None:
            self._marks_path(g).unlink()

    def close(self) -> None:
        """Write the finished table out (it is about to become the store's) and let go of it."""
        if isinstance(self.table, np.memmap):
            self.table.flush()
        del self.table


def _sized(path: Path, handle: BinaryIO, size: int) -> None:
    """Damaged unless the open file `handle` at `path` holds `size` bytes."""
    found = os.fstat(handle.fileno()).st_size
    if found != size:
        raise Damaged(f"{path}: {found:,} bytes, expected {size:,}")


def _on_disk(mapped: np.memmap, path: Path) -> np.memmap:
    """`mapped`, once the disk holds every block of its file.

    A mapped file is sparse until written; on a full disk the write into an
    unbacked page kills the process with SIGBUS, losing the build and saying
    nothing. Reserving the blocks first turns that into one OSError naming the file.
    """
    try:
        with open(path, "rb+") as handle:
            os.posix_fallocate(handle.fileno(), 0, os.fstat(handle.fileno()).st_size)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    return mapped
