"""Building the compact pattern databases of a whole partition, resumably,
in the caller's store; loading finished ones.

Covers: `CompactTables` (every group's table end to end, with where each
starts and its width), `load_tables` (finished tables only: from this
process's memory or the store, memory-mapped), `build_tables` (the level search of `pdb.py` group
after group, in chunks between which the deadline is checked and progress is
reported) and `build_status`. With a store the build works on files in the
store's work directory — the table, the 2-bit marks of the group being
searched and `progress.json` (group, level, where in the level) — so an
interruption of any kind keeps everything written so far and the next build
continues; the finished table is then renamed into place. A lock keeps two
processes from building the same partition at once: the second waits (up to
its deadline) and then loads what the first built. Without a store the same
state is kept in this process.

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
from typing import Any

import numpy as np

from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.deadline import DeadlineExceeded, check_deadline
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
    entry_bits,
    expand_chunk,
    goal_state,
    group_layout,
    lower_entry,
    set_mark,
)
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


def _bases(board: Board, partition: Partition) -> list[int]:
    """Byte offset of each group's table, and the total at the end."""
    sizes = [(math.perm(board.n, len(g)) * entry_bits(math.perm(board.n, len(g))) + 7) // 8 for g in partition]
    return [sum(sizes[:g]) for g in range(len(sizes) + 1)]


# Tables kept in this process: enough for the partitions of a few boards.
FINISHED_KEPT = 4
_FINISHED: dict[str, CompactTables] = {}
_PARTIAL: dict[str, _Build] = {}  # a memory-only build that stopped at its deadline, by key


def expected_entry(board: Board, goal: State, partition: Partition) -> Expected:
    """What the stored tables of `partition` must be, from the board alone: the store refuses an entry whose
    metadata says otherwise, so the layout a search reads never comes from the file."""
    bases = _bases(board, partition)
    bits = [entry_bits(math.perm(board.n, len(g))) for g in partition]
    return Expected((bases[-1],), "uint8", {
        "format": COMPACT_FORMAT, "n": board.n, "goal": list(goal), "partition": [list(g) for g in partition],
        "scale": bipartite_scale(board), "bases": bases, "bits": bits})


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
        progress = _read_progress(store.work_dir(key, create=False))
        if progress is not None:
            return progress["reached_done"] + progress["reached"], total
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
            build = _Build(board, goal, partition, store.work_dir(key), deadline)
            metadata = build.run(deadline, progress)
            build.close()
            store.finish(key, build.work / TABLE_FILE, metadata)
    except LockTimeout:
        raise DeadlineExceeded from None
    tables = load_tables(board, goal, partition, store)
    if tables is None:
        raise OSError(f"the pattern tables {key} could not be read back from the store after building them")
    return tables


# --- one build ------------------------------------------------------------------------

# The fields of a progress file and their types: a file that does not match is not resumed from.
PROGRESS_FIELDS = {"format": int, "group": int, "depth": int, "resume": int, "expanded": int, "reached": int,
                   "reached_done": int, "seconds": (int, float), "saturated": list}


def _read_progress(work: Path) -> dict[str, Any] | None:
    try:
        progress = json.loads((work / PROGRESS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(progress, dict) and progress.get("format") == COMPACT_FORMAT
            and all(isinstance(progress.get(name), kind) and not isinstance(progress.get(name), bool)
                    for name, kind in PROGRESS_FIELDS.items())
            and all(isinstance(x, int) for x in progress["saturated"])):
        return None
    return progress if (work / TABLE_FILE).exists() else None


class _Build:
    """Where one partition's build stands, and its arrays: files under `work`, or memory if `work` is None."""

    def __init__(self, board: Board, goal: State, partition: Partition, work: Path | None,
                 deadline: float = math.inf) -> None:
        self.board, self.goal, self.partition, self.work = board, goal, partition, work
        self.layouts: list[GroupLayout] = []
        for group in partition:  # a tenth of a second for an 8-tile group
            check_deadline(deadline)
            self.layouts.append(group_layout(board, goal, group))
        self.bases = _bases(board, partition)
        self.scale = bipartite_scale(board)
        saved = _read_progress(work) if work is not None else None
        self.progress: dict[str, Any] = saved or {"format": COMPACT_FORMAT, "group": 0, "depth": 0, "resume": 0,
                                                  "expanded": 0, "reached": 0, "reached_done": 0, "seconds": 0.0,
                                                  "saturated": []}
        self.table = self._open_table(fresh=saved is None)
        self._marks: tuple[int, np.ndarray] | None = None
        self._save_progress()

    def _open_table(self, fresh: bool) -> np.ndarray:
        # all zeros: every entry at the ceiling until the search lowers it
        if self.work is None:
            return np.zeros(self.bases[-1], dtype=np.uint8)
        path = self.work / TABLE_FILE
        if fresh:
            table = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint8, shape=(self.bases[-1],))
        else:
            table = np.lib.format.open_memmap(path, mode="r+")
        return _on_disk(table, path)

    def _open_marks(self, group: int) -> np.ndarray:
        """The marks of `group`'s search: kept on this build between runs (a build cut short in memory
        continues from them), reopened from the work directory by a new one."""
        if self._marks is None or self._marks[0] != group:
            words = -(-self.layouts[group].states // FIELDS_PER_WORD)
            if self.work is None:
                marks = np.zeros(words, dtype=np.int64)
            else:
                path = self.work / f"marks-{group}.bin"
                # a new file is all zeros (unseen) without writing them
                marks = _on_disk(np.memmap(path, dtype=np.int64, mode="r+" if path.exists() else "w+",
                                           shape=(words,)), path)
            self._marks = (group, marks)
        return self._marks[1]

    def _save_progress(self) -> None:
        if self.work is None:
            return
        write_atomic(self.work / PROGRESS_FILE, json.dumps(self.progress).encode("utf-8"))

    def reached_all(self) -> int:
        return self.progress["reached_done"] + self.progress["reached"]

    def run(self, deadline: float, progress: ProgressFn | None) -> dict[str, Any]:
        """Search group after group from where the build stands; the metadata of the finished tables."""
        began = time.perf_counter()
        try:
            while self.progress["group"] < len(self.partition):
                self._run_group(deadline, progress)
        finally:
            # whatever stopped the build, the next one starts from here
            self.progress["seconds"] += time.perf_counter() - began
            self._save_progress()
        return {"format": COMPACT_FORMAT, "board": self.board.label, "n": self.board.n, "goal": list(self.goal),
                "partition": [list(g) for g in self.partition], "scale": self.scale, "bases": self.bases,
                "bits": [lay.bits for lay in self.layouts],
                "states": [lay.states for lay in self.layouts], "saturated": self.progress["saturated"],
                "build_s": round(self.progress["seconds"], 3)}

    def _run_group(self, deadline: float, progress: ProgressFn | None) -> None:
        state = self.progress
        g = state["group"]
        layout = self.layouts[g]
        marks = self._open_marks(g)
        if state["depth"] == state["resume"] == state["expanded"] == 0:
            start, start_placement = goal_state(layout, self.goal)
            set_mark(marks, start, FRONTIER)
            lower_entry(self.table, self.bases[g], start_placement, 0, layout.bits)
            state["reached"] = 1
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
                state["reached"] += int(out[2])
                if progress is not None:
                    progress(self.reached_all(), total, BuildStep(g + 1, len(self.partition), layout.k, state["depth"]))
            # A level that expanded nothing ends the search — unless its count was lost
            # (a killed process restarts the level it was in), so the marks decide.
            if state["expanded"] == 0 and count_open(marks) == 0:
                break
            state.update(depth=state["depth"] + 1, resume=0, expanded=0)
            self._save_progress()
        state["saturated"].append(int(count_saturated(self.table, self.bases[g], layout.placements, layout.bits)))
        state.update(group=g + 1, depth=0, resume=0, expanded=0, reached=0,
                     reached_done=state["reached_done"] + state["reached"])
        self._save_progress()
        del marks
        self._marks = None
        if self.work is not None:
            (self.work / f"marks-{g}.bin").unlink()

    def close(self) -> None:
        """Write the finished table out (it is about to become the store's) and let go of it."""
        if isinstance(self.table, np.memmap):
            self.table.flush()
        del self.table


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
