"""Damaged work files of a stored table build are never continued from (`pdb_build.py`'s checkpoint).

Covers: a build of two groups stopped by Ctrl-C in its second group (the
first done), whose work directory is then damaged in each way a fault wave
found or could find — a flipped bit in a finished group's table, in the
searched group's table or marks, truncated or missing files, a pipe in a
file's place, an edited, malformed, nested or forged progress file, a blank
group that is not blank — and built again: every case gives the tables an
uninterrupted build gives, with exactly one warning line naming what was
damaged, and a sound work directory resumes silently. Also: a group that
fails the check before its tables are stored is built again, and failing
twice is an error. Through the CLI, the short cases of the `work` fault
family (`benchmarks/faults/work.py`): `slider prepare` after the damage,
then solves of Korf's instances at their published optimal lengths.

Leaves out: finished entries of the store (test_cache_integrity.py).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import xxhash

from mobius.benchmarks.faults import work as faults
from mobius.cpmodel.slider import pdb_build
from mobius.cpmodel.slider.board import default_goal, preset
from mobius.cpmodel.slider.pdb_keys import compact_key
from mobius.cpmodel.store import DirectoryStore

BOARD = preset("grid:4x4")
GOAL = default_goal(BOARD)
# A quick group first, then one that takes a few chunks a level, so a stop lands inside its search.
PARTITION = ((1, 2, 3), (4, 5, 8, 9, 12))


@pytest.fixture(scope="module")
def whole() -> np.ndarray:
    """The tables of an uninterrupted build, in memory."""
    pdb_build._FINISHED.clear()
    table = np.array(pdb_build.build_tables(BOARD, GOAL, PARTITION, store=None).table)
    pdb_build._FINISHED.clear()
    return table


@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store whose build was stopped by Ctrl-C in the second group's search, at a level past the first."""
    root = tmp_path_factory.mktemp("stopped")

    def interrupt(done: int, total: int, step: pdb_build.BuildStep) -> None:
        if step.group == 2 and step.level >= 4:
            raise KeyboardInterrupt

    pdb_build._FINISHED.clear()
    with pytest.raises(KeyboardInterrupt):
        pdb_build.build_tables(BOARD, GOAL, PARTITION, store=DirectoryStore(root), progress=interrupt)
    return root


def work_of(root: Path) -> Path:
    return root / f"{compact_key(BOARD, GOAL, PARTITION)}.work"


def resumed(stopped: Path, tmp_path: Path, damage: Callable[[Path], None]) -> tuple[np.ndarray, list[str]]:
    """(the tables, the warnings) of a build resumed from a copy of `stopped` damaged by `damage`."""
    root = tmp_path / "store"
    work = work_of(root)
    work.mkdir(parents=True)
    for path in work_of(stopped).iterdir():
        (work / path.name).write_bytes(path.read_bytes())
    damage(work)
    warnings: list[str] = []
    pdb_build._FINISHED.clear()
    tables = pdb_build.build_tables(BOARD, GOAL, PARTITION, store=DirectoryStore(root, warn=warnings.append))
    pdb_build._FINISHED.clear()
    return np.asarray(tables.table), warnings


def record(work: Path) -> dict:
    return json.loads((work / "progress.json").read_text())


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))


def table_offset(work: Path, group: int) -> int:
    """A byte inside group `group`'s part of the work table (past the .npy header)."""
    bases = pdb_build.table_bases(BOARD, PARTITION)
    size = (work / "table.npy").stat().st_size
    return size - bases[-1] + (bases[group] + bases[group + 1]) // 2


def edit_record(change: Callable[[dict], None], renew: bool) -> Callable[[Path], None]:
    """Change the progress file's record; with `renew`, give it a checksum that matches (a forgery)."""
    def damage(work: Path) -> None:
        data = record(work)
        del data["check"]
        change(data)
        if renew:
            data["check"] = xxhash.xxh3_128_hexdigest(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
        (work / "progress.json").write_text(json.dumps(data))
    return damage


def fifo(name: str) -> Callable[[Path], None]:
    def damage(work: Path) -> None:
        (work / name).unlink()
        os.mkfifo(work / name)
    return damage


def truncate(name: str, size: int) -> Callable[[Path], None]:
    def damage(work: Path) -> None:
        os.truncate(work / name, size)
    return damage


def deeper(data: dict) -> None:
    data["groups"][1]["depth"] += 5


# (damage, what the one warning line must say)
CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "a finished group's table flipped": (lambda work: flip(work / "table.npy", table_offset(work, 0)),
                                         "the table of group 1 changed since the last checkpoint"),
    "the searched group's table flipped": (lambda work: flip(work / "table.npy", table_offset(work, 1)),
                                           "the table of group 2 changed since the last checkpoint"),
    "the marks flipped": (lambda work: flip(work / "marks-1.bin", 4000), "marks-1.bin: changed since"),
    "the marks cut to 100 bytes": (truncate("marks-1.bin", 100), "marks-1.bin: 100 bytes, expected"),
    "the marks missing": (lambda work: (work / "marks-1.bin").unlink(), "marks-1.bin: missing"),
    "the marks a pipe": (fifo("marks-1.bin"), "marks-1.bin: not a regular file"),
    "the table cut in half": (lambda work: truncate("table.npy", (work / "table.npy").stat().st_size // 2)(work),
                              "table.npy: "),
    "the table garbage": (lambda work: (work / "table.npy").write_bytes(b"\x93NUMPY garbage" * 100),
                          "table.npy: not a readable table"),
    "the table a pipe": (fifo("table.npy"), "table.npy: not a regular file"),
    "the depth edited": (edit_record(deeper, renew=False), "progress.json: checksum mismatch"),
    "a group dropped": (edit_record(lambda data: data["groups"].pop(), renew=False), "checksum mismatch"),
    "the record malformed, checksum renewed": (
        edit_record(lambda data: data["groups"][1].update(resume="0"), renew=True),
        "the record of group 2 is not one of a search of"),
    "a count past the states, checksum renewed": (
        edit_record(lambda data: data["groups"][1].update(reached=10 ** 9), renew=True),
        "the record of group 2 is not one of a search of"),
    "a group's record a list, checksum renewed": (
        edit_record(lambda data: data["groups"].__setitem__(1, [1, 2]), renew=True),
        "the record of group 2 is not one of a search of"),
    "a group too many, checksum renewed": (
        edit_record(lambda data: data["groups"].append(None), renew=True), "not a checkpoint of these 2 groups"),
    "the record not text": (lambda work: (work / "progress.json").write_bytes(b"\xff{"), "not UTF-8 text"),
    "the record not JSON": (lambda work: (work / "progress.json").write_text('{"groups": ['), "invalid JSON"),
    "the record nested 60,000 deep": (lambda work: (work / "progress.json").write_text("[" * 60_000),
                                      "nested 60000 levels deep"),
    "the record 100,000 bytes": (lambda work: (work / "progress.json").write_text(" " * 100_000),
                                 "a build progress file is at most"),
    "the record of an older version": (
        lambda work: (work / "progress.json").write_text(json.dumps({"format": 1, "group": 1, "depth": 3})),
        "not a checkpoint of this version"),
    "the record a pipe": (fifo("progress.json"), "progress.json: not a regular file"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_damaged_work_files_are_built_again_with_one_line(stopped: Path, tmp_path: Path, whole: np.ndarray,
                                                           case: str) -> None:
    damage, said = CASES[case]
    table, warnings = resumed(stopped, tmp_path, damage)
    assert len(warnings) == 1 and said in warnings[0], warnings
    assert "built again" in warnings[0] or "starts over" in warnings[0]
    assert np.array_equal(table, whole)


def test_sound_work_files_resume_silently_from_where_they_stood(stopped: Path, tmp_path: Path,
                                                                whole: np.ndarray) -> None:
    levels: list[tuple[int, int]] = []

    def watch(work: Path) -> None:
        levels.append((1, record(work)["groups"][1]["depth"]))

    table, warnings = resumed(stopped, tmp_path, watch)
    assert warnings == [] and np.array_equal(table, whole)
    assert levels[0][1] >= 4  # the stop was inside the second group's search, which continued from there


def test_a_forged_deeper_level_is_caught_before_the_tables_are_stored(stopped: Path, tmp_path: Path,
                                                                      whole: np.ndarray) -> None:
    # Every digest matches, so only the check of the finished tables can tell: the levels after the forged
    # one hold distances five too far.
    table, warnings = resumed(stopped, tmp_path, edit_record(deeper, renew=True))
    assert len(warnings) == 1 and "the table of group 2 fails its check" in warnings[0], warnings
    assert np.array_equal(table, whole)


def test_a_group_not_yet_searched_must_be_blank(stopped: Path, tmp_path: Path, whole: np.ndarray) -> None:
    def unstarted(work: Path) -> None:
        edit_record(lambda data: data["groups"].__setitem__(1, None), renew=True)(work)
        flip(work / "table.npy", table_offset(work, 1))

    table, warnings = resumed(stopped, tmp_path, unstarted)
    assert len(warnings) == 1 and "group 2's table, not yet searched, is not blank" in warnings[0], warnings
    assert np.array_equal(table, whole)


def test_a_table_that_fails_the_check_twice_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def failing(*args: object, **kwargs: object) -> tuple[int, str]:
        calls.append(1)
        return 0, "placement (1, 2, 3) reads 9, but its distance is 0"

    monkeypatch.setattr(pdb_build, "build_check", failing)
    warnings: list[str] = []
    pdb_build._FINISHED.clear()
    with pytest.raises(RuntimeError, match="fails its check after being built again"):
        pdb_build.build_tables(BOARD, GOAL, PARTITION, store=DirectoryStore(tmp_path, warn=warnings.append))
    pdb_build._FINISHED.clear()
    assert len(calls) == 2 and len(warnings) == 1 and "the table of group 1 fails its check" in warnings[0]
    assert not (tmp_path / f"{compact_key(BOARD, GOAL, PARTITION)}.npy").exists()  # nothing was stamped


# --- through the CLI ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def pristine_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache whose 6-6-3 build `mobius slider prepare --time-limit` stopped part-way."""
    return faults.pristine_work(tmp_path_factory.mktemp("pristine-cli"))


@pytest.mark.slow
@pytest.mark.parametrize("case", ["marks: bit flipped", "progress: a number edited", "table: a pipe"])
def test_a_damaged_work_folder_through_the_cli(pristine_cli: Path, tmp_path: Path, case: str) -> None:
    outcome = faults.damage_case(pristine_cli, tmp_path, case, random.Random(case))
    assert outcome.ok and outcome.exit_code == 0, outcome.detail
