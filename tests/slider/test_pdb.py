"""Tests for the compact pattern databases (`pdb.py`, `pdb_build.py`).

Covers: every entry of the compiled build against the numpy reference build
(`reference_pdb.py`, which shares no code with it) on grids, the ring, the
Petersen graph and theta0 (not bipartite), in both entry widths; builds
interrupted by a deadline or by Ctrl-C, continued to the same tables as an
uninterrupted build, and a killed one, whose group is searched again; the
store's files, metadata and lock; memory-only builds. Damaged work files:
test_work_files.py. Leaves out: the searches over the tables
(test_search.py) and the 7-8 tables of the 15-puzzle, which take minutes to
build (benchmarks: `slider-pdb-build`).
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from mobius.cpmodel.deadline import DeadlineExceeded
from mobius.cpmodel.slider import pdb, pdb_build
from mobius.cpmodel.slider.board import Board, default_goal, preset
from mobius.cpmodel.slider.pdb_keys import compact_key
from mobius.cpmodel.slider.reference_pdb import UNSEEN as UNREACHED
from mobius.cpmodel.slider.reference_pdb import build_pattern_table
from mobius.cpmodel.store import DirectoryStore


def decoded(board: Board, group: tuple[int, ...], tables: pdb_build.CompactTables) -> dict[tuple[int, ...], int]:
    """Placement (the group's tiles' vertices) -> the distance the compact table stores for it."""
    layout = pdb.group_layout(board, default_goal(board), group)
    entries = {}
    for m in range(len(layout.mask_bits)):
        for p in range(math.factorial(layout.k)):
            positions = tuple(int(layout.cells[m, layout.perms[p, j]]) for j in range(layout.k))
            entry = pdb.read_entry(np.asarray(tables.table), tables.bases[0], m * math.factorial(layout.k) + p,
                                   tables.bits[0])
            entries[positions] = sum(int(layout.home_dist[j, v]) for j, v in enumerate(positions)) \
                + tables.scale * entry
    return entries


CASES = [("grid:3x3", (1, 2, 3, 4)), ("grid:3x3", (5, 6, 7, 8)), ("grid:3x3", (4,)), ("ring", (1, 2, 3, 4)),
         ("petersen", (1, 2, 3)), ("theta0", (1, 2, 3, 4)), ("grid:2x4", (1, 2, 3, 4, 5)),
         ("grid:4x4", (1, 2, 3)), ("grid:4x4", (4, 5, 8, 9, 12))]


@pytest.mark.parametrize(("board_name", "group"), CASES)
def test_compiled_build_equals_the_numpy_reference(board_name: str, group: tuple[int, ...]) -> None:
    board = preset(board_name)
    goal = default_goal(board)
    tables = pdb_build.build_tables(board, goal, (group,), store=None)
    reference = build_pattern_table(board, goal, group)
    n = board.n
    unreached = 0
    for positions, value in decoded(board, group, tables).items():
        exact = int(reference[sum(v * n ** i for i, v in enumerate(positions))])
        if exact == UNREACHED:  # theta0's group leaves some placements out of reach: any value will do
            unreached += 1
        else:
            assert value == exact, (positions, value)
    assert tables.metadata["saturated"] == [unreached]
    assert tables.scale == (1 if board_name in ("petersen", "theta0") else 2)


def test_four_bit_entries_clamp_and_stay_admissible(monkeypatch: pytest.MonkeyPatch) -> None:
    # theta0 is not bipartite, so entries hold the whole excess over the distance sum, which passes 15
    # for this group: the 4-bit table clamps those and keeps every other entry exact.
    monkeypatch.setattr(pdb, "BYTE_ENTRIES_MAX", 0)
    board = preset("theta0")
    goal = default_goal(board)
    group = (1, 2, 3, 4, 5, 6)
    pdb_build._FINISHED.clear()
    tables = pdb_build.build_tables(board, goal, (group,), store=None)
    assert tables.bits == (4,)
    reference = build_pattern_table(board, goal, group)
    clamped = 0
    for positions, value in decoded(board, group, tables).items():
        exact = int(reference[sum(v * board.n ** i for i, v in enumerate(positions))])
        if exact == UNREACHED:
            continue
        assert value <= exact
        clamped += value < exact
    assert 0 < clamped < tables.metadata["saturated"][0]  # the unreached placements are at the ceiling too
    pdb_build._FINISHED.clear()


def run_until_built(board: Board, group: tuple[int, ...], store: DirectoryStore | None, slice_s: float
                    ) -> tuple[pdb_build.CompactTables, int]:
    """Build with deadlines until done, attempt i getting i · `slice_s` (so it ends however busy the
    machine is); the tables and how many attempts it took."""
    goal = default_goal(board)
    attempts = 0
    reached = []
    while True:
        attempts += 1
        try:
            return pdb_build.build_tables(board, goal, (group,), store=store,
                                          deadline=time.perf_counter() + slice_s * attempts), attempts
        except DeadlineExceeded:
            reached.append(pdb_build.build_status(board, goal, (group,), store)[0])
            assert reached == sorted(reached)  # never loses ground


@pytest.mark.parametrize("with_store", [True, False])
def test_a_build_cut_by_deadlines_continues_to_the_same_tables(tmp_path: Path, with_store: bool) -> None:
    board = preset("grid:4x4")
    group = (4, 5, 8, 9, 12)
    pdb_build._FINISHED.clear()
    whole = np.array(pdb_build.build_tables(board, default_goal(board), (group,), store=None).table)
    pdb_build._FINISHED.clear()
    store = DirectoryStore(tmp_path) if with_store else None
    tables, attempts = run_until_built(board, group, store, 0.002)
    assert attempts >= 2  # cut at least once, then continued
    assert np.array_equal(np.asarray(tables.table), whole)
    if with_store:
        key = compact_key(board, default_goal(board), (group,))
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"{key}.json", f"{key}.lock", f"{key}.npy"]
        assert json.loads((tmp_path / f"{key}.json").read_text())["partition"] == [list(group)]
        pdb_build._FINISHED.clear()
        loaded = pdb_build.load_tables(board, default_goal(board), (group,), store)
        assert not loaded.table.flags.writeable and np.array_equal(loaded.table, whole)
    pdb_build._FINISHED.clear()


def test_ctrl_c_keeps_the_build(tmp_path: Path) -> None:
    board = preset("grid:4x4")
    goal = default_goal(board)
    partition = ((1, 2, 3), (4, 5, 8, 9, 12))
    store = DirectoryStore(tmp_path)
    calls = []

    def interrupt(done: int, total: int, step: pdb_build.BuildStep) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    pdb_build._FINISHED.clear()
    with pytest.raises(KeyboardInterrupt):
        pdb_build.build_tables(board, goal, partition, store=store, progress=interrupt)
    kept = pdb_build.build_status(board, goal, partition, store)
    assert 0 < kept[0] < kept[1]
    tables = pdb_build.build_tables(board, goal, partition, store=store)
    pdb_build._FINISHED.clear()
    assert np.array_equal(np.asarray(tables.table),
                          np.asarray(pdb_build.build_tables(board, goal, partition, store=None).table))
    pdb_build._FINISHED.clear()


CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from mobius.cpmodel.slider.board import default_goal, preset
    from mobius.cpmodel.slider.pdb_build import build_tables
    from mobius.cpmodel.store import DirectoryStore
    board = preset("grid:4x4")
    build_tables(board, default_goal(board), ((4, 5, 8, 9, 12, 13),), store=DirectoryStore(Path(sys.argv[1])))
""")


def depth_reached(progress: Path) -> int:
    """The level of the first group's search the build's progress file names, −1 while there is none to read."""
    try:
        return int(json.loads(progress.read_text())["groups"][0]["depth"])
    except (OSError, ValueError, TypeError):
        return -1


def test_a_killed_build_resumes_to_the_same_tables(tmp_path: Path) -> None:
    board = preset("grid:4x4")
    goal = default_goal(board)
    partition = ((4, 5, 8, 9, 12, 13),)
    store = DirectoryStore(tmp_path)
    progress = tmp_path / f"{compact_key(board, goal, partition)}.work" / "progress.json"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)])
    try:
        # kill -9 in the middle of a level: nothing gets to write the progress file
        while child.poll() is None and depth_reached(progress) < 8:
            time.sleep(0.01)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    assert progress.exists(), "the child finished before it could be killed"
    pdb_build._FINISHED.clear()
    warnings: list[str] = []
    store = DirectoryStore(tmp_path, warn=warnings.append)
    resumed = np.array(pdb_build.build_tables(board, goal, partition, store=store).table)
    # its files changed after their last checkpoint: the group is searched again, and says so
    assert len(warnings) == 1 and "killed mid-level" in warnings[0], warnings
    pdb_build._FINISHED.clear()
    assert np.array_equal(resumed, np.asarray(pdb_build.build_tables(board, goal, partition, store=None).table))
    pdb_build._FINISHED.clear()


def test_a_build_held_by_another_process_is_waited_for_up_to_the_deadline(tmp_path: Path) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    partition = ((1, 2, 3),)
    store = DirectoryStore(tmp_path)
    pdb_build._FINISHED.clear()
    with store.lock(compact_key(board, goal, partition), math.inf):  # as if another process were building it
        began = time.perf_counter()
        with pytest.raises(DeadlineExceeded):
            pdb_build.build_tables(board, goal, partition, store=store, deadline=began + 0.2)
        assert time.perf_counter() - began < 60  # it ends: a wait past its deadline would never end
    assert pdb_build.build_tables(board, goal, partition, store=store).metadata["states"][0] > 0
    pdb_build._FINISHED.clear()


def test_a_table_built_in_memory_is_saved_when_a_store_asks_for_it(tmp_path: Path) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    partition = ((1, 2, 3, 4),)
    pdb_build._FINISHED.clear()
    in_memory = pdb_build.build_tables(board, goal, partition, store=None)
    store = DirectoryStore(tmp_path)
    pdb_build.build_tables(board, goal, partition, store=store)
    pdb_build._FINISHED.clear()
    assert np.array_equal(np.asarray(pdb_build.load_tables(board, goal, partition, store).table),
                          np.asarray(in_memory.table))
    pdb_build._FINISHED.clear()
