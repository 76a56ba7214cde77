"""A damaged table cache never gives a wrong optimal answer.

Covers: the store's checksums (`mobius.cpmodel.store`): a round trip, a flipped
bit in the data or the metadata, an entry without a checksum, metadata that
is not what the caller expects, the once-per-process memo and report, entry
files that are no regular file of a plausible size (a FIFO, a device, a
sparse terabyte, metadata nested 100,000 deep), a pipe for the build lock,
and a malformed progress file of a build; then, through the CLI as a user meets
it, seeded single-bit flips in every file kind of the compact (compiled
engine) and sparse (python engine) tables on the 3×3, every malformed
metadata variant of `mobius.benchmarks.faults.cache` and the store's cases of
`mobius.benchmarks.faults.cache_entries`, each followed by a solve whose
length is checked against a breadth-first search over every state: one
warning line naming the file, the right optimal length, no traceback.
Leaves out: the long runs (hundreds of flips, the 4×4 tables), which are the
`cache` fault family (`python -m mobius.benchmarks.faults --family cache`).
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from mobius.benchmarks.faults import cache as faults
from mobius.benchmarks.faults import cache_entries as entries
from mobius.cpmodel.slider import pdb_build
from mobius.cpmodel.slider.board import default_goal, preset
from mobius.cpmodel.store import DirectoryStore, Expected, LockTimeout
from mobius.cli import app

EXPECTED = Expected((1000,), "uint8", {"format": 1, "scale": 2})


def stored(tmp_path: Path) -> tuple[DirectoryStore, list[str]]:
    """A store holding entry "t" (1000 bytes), and the list its warnings go to."""
    warnings: list[str] = []
    store = DirectoryStore(tmp_path, warn=warnings.append)
    store.save("t", np.arange(1000, dtype=np.int64).astype(np.uint8), {"format": 1, "scale": 2, "note": "x"})
    return store, warnings


def flip(path: Path, offset: int, bit: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 1 << bit
    path.write_bytes(bytes(data))


def test_a_saved_entry_loads_checked_and_is_hashed_once_per_process(tmp_path: Path) -> None:
    store, warnings = stored(tmp_path)
    first = store.load("t", EXPECTED)
    assert first is not None and first.metadata == {"format": 1, "scale": 2, "note": "x"}
    assert np.array_equal(first.table, np.arange(1000) % 256) and not first.table.flags.writeable
    again = store.load("t", EXPECTED)
    assert again is not None and again.hash_s == 0.0  # the same files: not hashed twice
    assert store.verify("t", EXPECTED) is None and warnings == []


@pytest.mark.parametrize("suffix", [".npy", ".json"])
def test_a_flipped_bit_is_reported_once_and_never_loaded(tmp_path: Path, suffix: str) -> None:
    store, warnings = stored(tmp_path)
    assert store.load("t", EXPECTED) is not None  # verified before the damage: the memo must not hide it
    path = tmp_path / f"t{suffix}"
    # in the data: a table entry; in the metadata: "x" becomes "y", still JSON, so only the digest can tell
    flip(path, len(path.read_bytes()) - 40 if suffix == ".npy" else path.read_bytes().index(b'"x"') + 1, 0)
    assert store.load("t", EXPECTED) is None
    assert store.load("t", EXPECTED) is None
    assert len(warnings) == 1 and str(path) in warnings[0] and "checksum mismatch" in warnings[0]
    assert "checksum mismatch" in store.verify("t", EXPECTED)
    assert store.verify("missing", EXPECTED) == "missing"


def test_every_bit_of_the_npy_header_is_checked_without_a_traceback(tmp_path: Path) -> None:
    # numpy's header parser raises more than ValueError on some flips (tokenize.TokenError at byte 72, bit 3)
    store, warnings = stored(tmp_path)
    path = tmp_path / "t.npy"
    pristine = path.read_bytes()
    for offset in range(128):  # the header of a one-dimensional uint8 array
        for bit in (0, 3, 6):
            path.write_bytes(pristine)
            flip(path, offset, bit)
            assert store.load("t", EXPECTED) is None, (offset, bit)
    assert warnings and all(str(path) in warning for warning in warnings)  # reported once per entry


@pytest.mark.parametrize(("text", "reason"), [
    ('{"format": 1, "scale": 2}', "no checksum"),
    ("[1, 2]", "not a JSON object"),
    ("{", "not JSON"),
    ('{"format": 1, "scale": 2, "checksum": 7}', "checksum field is malformed"),
])
def test_metadata_that_cannot_be_trusted_is_refused(tmp_path: Path, text: str, reason: str) -> None:
    store, warnings = stored(tmp_path)
    (tmp_path / "t.json").write_text(text)
    assert store.load("t", EXPECTED) is None
    assert len(warnings) == 1 and reason in warnings[0] and str(tmp_path / "t.json") in warnings[0]


@pytest.mark.parametrize(("metadata", "shape", "reason"), [
    ({"format": 1, "scale": "2"}, (1000,), "field 'scale' is \"2\""),
    ({"format": 1, "scale": 3}, (1000,), "field 'scale' is 3"),
    ({"format": 1}, (1000,), "field 'scale' is missing"),
    ({"format": 1, "scale": 2}, (999,), "shape (999,)"),
])
def test_entries_with_a_sound_checksum_but_the_wrong_contents_are_refused(
        tmp_path: Path, metadata: dict[str, object], shape: tuple[int], reason: str) -> None:
    warnings: list[str] = []
    store = DirectoryStore(tmp_path, warn=warnings.append)
    store.save("t", np.zeros(shape, dtype=np.uint8), metadata)
    assert store.load("t", EXPECTED) is None
    assert len(warnings) == 1 and reason in warnings[0]


@pytest.mark.parametrize(("suffix", "damage"), [
    (".json", entries.fifo), (".json", entries.device_link), (".json", entries.nested),
    (".npy", entries.fifo), (".npy", entries.device_link), (".npy", entries.sparse_terabyte)],
    ids=["json-fifo", "json-device", "json-nested", "npy-fifo", "npy-device", "npy-sparse-terabyte"])
def test_an_entry_file_that_is_no_regular_file_of_its_size_is_one_warning_and_rebuilt(
        tmp_path: Path, suffix: str, damage: Callable[[Path], None]) -> None:
    """Never a hang (a FIFO), a device read, a terabyte hashed or a RecursionError (nested metadata)."""
    store, warnings = stored(tmp_path)
    path = tmp_path / f"t{suffix}"
    damage(path)
    assert store.load("t", EXPECTED) is None
    assert store.load("t", EXPECTED) is None  # asked again (as a build does under its lock): no second line
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: "), warnings
    assert store.verify("t", EXPECTED) is not None
    store.save("t", np.zeros(1000, dtype=np.uint8), {"format": 1, "scale": 2})  # the rebuild takes the name
    assert store.load("t", EXPECTED) is not None and path.is_file()


def test_a_data_file_larger_than_its_table_is_refused_before_it_is_hashed(tmp_path: Path) -> None:
    """A sparse terabyte whose `.npy` header describes it whole: refused by its size, never mapped and
    hashed (minutes) before its shape is found wrong."""
    store, warnings = stored(tmp_path)
    path = tmp_path / "t.npy"
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_2_0(handle, {"descr": "|u1", "fortran_order": False,
                                                      "shape": (1 << 40,)})
        handle.truncate(handle.tell() + (1 << 40))
    assert store.load("t", EXPECTED) is None
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: is 1,099,511,627,") and "at most" in warnings[0]


def test_a_pipe_in_place_of_the_build_lock_is_replaced_by_a_lock_file_that_locks(tmp_path: Path) -> None:
    warnings: list[str] = []
    store = DirectoryStore(tmp_path, warn=warnings.append)
    lock = tmp_path / "t.lock"
    os.mkfifo(lock)
    with store.lock("t", deadline=time.perf_counter() + 10):
        assert lock.is_file() and len(warnings) == 1 and warnings[0].startswith(f"{lock}: not a regular file")
        with pytest.raises(LockTimeout):  # a second holder (another open file) is kept out
            with store.lock("t", deadline=time.perf_counter() + 0.2):
                pass
    with store.lock("t", deadline=time.perf_counter() + 10):
        assert len(warnings) == 1


def test_a_malformed_progress_file_starts_the_build_afresh(tmp_path: Path) -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    partition = ((1, 2, 3),)
    store = DirectoryStore(tmp_path)
    work = store.work_dir(pdb_build.compact_key(board, goal, partition))
    (work / "table.npy").write_bytes(b"")
    (work / "progress.json").write_text(json.dumps({"format": 1, "group": "0", "depth": []}))
    pdb_build._FINISHED.clear()
    assert pdb_build.build_status(board, goal, partition, store)[0] == 0
    tables = pdb_build.build_tables(board, goal, partition, store=store)
    pdb_build._FINISHED.clear()
    assert np.array_equal(np.asarray(tables.table),
                          np.asarray(pdb_build.build_tables(board, goal, partition, store=None).table))
    pdb_build._FINISHED.clear()


# --- through the CLI ---------------------------------------------------------------------

KINDS = {kind.name: kind for kind in faults.kinds(seed=0, with_7_8=False)[:2]}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each 3×3 kind's tables, built once through `mobius slider prepare`."""
    home = tmp_path_factory.mktemp("pristine")
    return {name: faults.prepare(kind, home / str(i)) for i, (name, kind) in enumerate(KINDS.items())}


@pytest.mark.parametrize("suffix", [".npy", ".json"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_bit_flipped_at_a_seeded_offset_gives_the_right_optimum(
        pristine: dict[str, Path], tmp_path: Path, kind: str, suffix: str) -> None:
    rng = random.Random(f"{kind}{suffix}")
    outcome = faults.damage_case(KINDS[kind], pristine[kind], tmp_path, "flip",
                                 lambda path: faults.flip_bit(path, rng), suffix, rng)
    assert outcome.ok and outcome.exit_code == 0, outcome.detail
    assert "detected=True rebuilt=True" in outcome.detail


# The variants whose checksum is renewed pass the digest check and must be refused by the field check; the
# store tests above cover the other variants in-process.
MALFORMED_CASES = [("compact 3x3 4-4 (8-bit)", name) for name in faults.MALFORMED if "renewed" in name] + [
    ("compact 3x3 4-4 (8-bit)", "no checksum (older version)"),
    ("sparse 3x3 4-4 (python)", "a field edited, checksum renewed")]


@pytest.mark.parametrize(("kind", "variant"), MALFORMED_CASES)
def test_malformed_metadata_gives_one_warning_and_the_right_optimum(
        pristine: dict[str, Path], tmp_path: Path, kind: str, variant: str) -> None:
    change = faults.MALFORMED[variant]
    outcome = faults.damage_case(KINDS[kind], pristine[kind], tmp_path, variant, lambda path: change(path),
                                 ".json", random.Random(variant))
    assert outcome.ok and outcome.exit_code == 0, outcome.detail
    assert "detected=True rebuilt=True" in outcome.detail


def test_pristine_tables_solve_without_a_warning(pristine: dict[str, Path], tmp_path: Path) -> None:
    kind = KINDS["compact 3x3 4-4 (8-bit)"]
    cache = faults.cache_of(tmp_path)
    shutil.copytree(pristine[kind.name], cache)
    start, optimum = kind.starts[0]
    done = faults.solve(kind, cache, start)
    assert done.returncode == 0 and json.loads(done.stdout)["length"] == optimum
    assert faults.WARNING not in done.stderr


def test_prepare_verify_refuses_a_table_whose_entries_are_wrong_though_its_checksum_is_sound(
        pristine: dict[str, Path], tmp_path: Path) -> None:
    kind = KINDS["compact 3x3 4-4 (8-bit)"]
    cache = faults.cache_of(tmp_path)
    shutil.copytree(pristine[kind.name], cache)
    (meta,) = cache.glob("*.json")
    metadata = json.loads(meta.read_text())
    del metadata["checksum"]
    table = np.load(meta.with_suffix(".npy"))
    table[100] ^= 1  # one entry off by the scale: a build that went wrong, stamped as if right
    DirectoryStore(cache).save(meta.stem, table, metadata)
    done = faults.mobius(["slider", "prepare", "grid:3x3", "--verify"], cache, timeout=600)
    assert done.returncode == 5, done.stdout + done.stderr
    assert "verify: checksum (xxh3-128) and metadata of" in done.stdout and "FAILED group 1 (4 tiles)" in done.stdout
    assert "Traceback" not in done.stderr and not meta.exists()
    again = faults.mobius(["slider", "prepare", "grid:3x3", "--verify"], cache, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "verify: group 2 (4 tiles): 3,024 placements within 15 moves of the goal exact" in again.stdout


@pytest.mark.parametrize("board_name", ["petersen", "theta0"])
def test_the_spot_check_passes_sound_tables_of_boards_that_are_not_bipartite(tmp_path: Path, board_name: str) -> None:
    from mobius.cpmodel.slider.heuristics import default_partition
    from mobius.cpmodel.slider.table_check import verify_stored

    board = preset(board_name)
    goal = default_goal(board)
    partition = default_partition(board, goal)
    store = DirectoryStore(tmp_path)
    pdb_build._FINISHED.clear()
    pdb_build.build_tables(board, goal, partition, store=store)
    pdb_build._FINISHED.clear()
    report = verify_stored(board, goal, partition, "compiled", store)
    assert report.ok and not report.missing, report.lines
    assert len(report.lines) == 1 + len(partition)


def test_an_entry_that_cannot_be_rebuilt_is_exit_2_naming_it(pristine: dict[str, Path], tmp_path: Path) -> None:
    kind = KINDS["compact 3x3 4-4 (8-bit)"]
    cache = faults.cache_of(tmp_path)
    shutil.copytree(pristine[kind.name], cache)
    (table,) = cache.glob("*.npy")
    table.unlink()
    table.mkdir()  # a directory in the entry's place: unreadable, and nothing can be renamed over it
    (table / "x").write_text("")
    done = faults.solve(kind, cache, kind.starts[0][0])
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    warning, error = done.stderr.splitlines()
    assert warning.startswith(f"mobius: warning: {table}: is a directory")
    assert error == f"mobius: error: {table}: cannot replace this cache entry (Is a directory)"


@contextmanager
def small_disk(path: Path, size: str):
    """A tmpfs of `size` at `path`, or None where this process may not mount one."""
    path.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                                 capture_output=True).returncode == 0
    except OSError:  # no mount program
        mounted = False
    if not mounted:
        yield None
        return
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_a_table_cache_on_a_full_disk_is_one_line_naming_the_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A mapped table file is sparse: on a full disk its first write would kill the run with SIGBUS.
    command = ["slider", "prepare", "ring"]
    with small_disk(tmp_path / "disk", "32k") as disk:
        if disk is not None:
            run = subprocess.run([sys.executable, "-m", "mobius", *command], capture_output=True, text=True,
                                 timeout=120, env={**os.environ, "XDG_CACHE_HOME": str(disk)})
            code, stderr = run.returncode, run.stderr
        else:  # no mount allowed here: the disk fills where the build reserves its blocks
            def full(fd: int, offset: int, length: int) -> None:
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(pdb_build.os, "posix_fallocate", full)
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
            result = CliRunner().invoke(app, command)
            code, stderr = result.exit_code, result.stderr
    lines = stderr.strip().splitlines()
    assert code == 2, stderr
    assert len(lines) == 1 and lines[0].startswith("mobius: error: ") and "table.npy: No space left on device" in lines[0]


STORE_TARGETS = ("store metadata", "store data", "store lock")


@pytest.fixture(scope="module")
def pristine_entries(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, entries.Target], Path, object]:
    """The fault family's store targets, a cache home their `slider solve` built, and its answer."""
    found, optimum = entries.targets(seed=0)
    home = tmp_path_factory.mktemp("entries")
    expected = entries.prepare(found["store data"], home)
    assert expected == (optimum, True)  # the pristine answer is the BFS length
    return found, home, expected


@pytest.mark.parametrize(("target", "case"), [(name, case) for name in STORE_TARGETS for case in entries.CASES[name]])
def test_a_store_file_that_is_no_regular_file_of_its_size_gives_one_warning_and_the_right_optimum(
        pristine_entries: tuple[dict[str, entries.Target], Path, object], tmp_path: Path, target: str,
        case: str) -> None:
    found, home, expected = pristine_entries
    outcome = entries.damage_case(found[target], home, expected, tmp_path, case, entries.CASES[target][case])
    assert outcome.ok and outcome.exit_code == 0, outcome.detail
