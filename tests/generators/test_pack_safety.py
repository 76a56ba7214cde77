"""Packs never mix runs or inputs, through the CLI: a locked pack directory is
refused untouched, a lock left by a dead run is taken over, resume refuses
changed inputs and re-makes puzzle files that fail their hash, write
failures name the real file and leave nothing behind, and a device, FIFO
or socket where the pack or one of its files goes is refused before any
work. (The long cases, at random moments, are the `packs` fault family:
benchmarks/faults/packs.py; devices and FIFOs for every command, the
`outputs` family.)"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mobius.benchmarks.faults.packs import write_crossword_inputs
from mobius.generators.crossword.clues import load_bank
from mobius.generators.pack_lock import LOCK_NAME, lock_pack

SLIDER = ["pack", "slider", "--board", "ring", "--count", "5", "--depth", "3..7", "--workers", "1"]


def mobius(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True, timeout=300)


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder` with its bytes and modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def slider_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 5-puzzle ring pack, made once; tests copy it."""
    out = tmp_path_factory.mktemp("made") / "pack"
    result = mobius(*SLIDER, "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


def copy_of(pack: Path, where: Path) -> Path:
    shutil.copytree(pack, where)
    return where


# --- the lock -------------------------------------------------------------------------

@pytest.mark.parametrize("resume", [True, False], ids=["resume", "new-pack"])
def test_a_run_into_a_locked_pack_is_refused_and_touches_nothing(slider_pack: Path, tmp_path: Path,
                                                                   resume: bool) -> None:
    out = copy_of(slider_pack, tmp_path / "pack")
    with lock_pack(out):
        before = snapshot(out)
        result = mobius(*SLIDER, "--out", str(out), *(["--resume"] if resume else []))
        after = snapshot(out)
    assert result.returncode == 2
    line = one_error_line(result)
    assert str(out) in line and f"pid {os.getpid()} on host" in line
    assert after == before
    assert not (out / LOCK_NAME).exists()  # the holder removes it when it lets go


def test_a_new_pack_into_a_locked_empty_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    with lock_pack(out):
        result = mobius(*SLIDER, "--out", str(out))
        assert sorted(p.name for p in out.iterdir()) == [LOCK_NAME]
    assert result.returncode == 2 and "being written by another run" in one_error_line(result)


@pytest.mark.parametrize("change", ["locked", "other board"])
def test_a_refused_slider_pack_is_refused_before_it_builds_tables(slider_pack: Path, tmp_path: Path,
                                                                   change: str) -> None:
    # A board's tables can take minutes to build: a run that will be refused must not build them first.
    out = copy_of(slider_pack, tmp_path / "pack")
    cache = tmp_path / "cache"
    args = [*SLIDER, "--out", str(out), "--resume"]
    if change == "other board":
        args[args.index("ring")] = "grid:2x3"
    with lock_pack(out) if change == "locked" else contextlib.nullcontext():
        result = subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True,
                                timeout=300, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    assert result.returncode == 2
    assert ("being written by another run" if change == "locked" else "--board") in one_error_line(result)
    assert not list(cache.rglob("*.npy")) and "pattern tables" not in result.stdout


def test_the_lock_of_a_dead_run_is_taken_over(slider_pack: Path, tmp_path: Path) -> None:
    out = copy_of(slider_pack, tmp_path / "pack")
    (out / LOCK_NAME).write_text(json.dumps({"pid": 999_999_999, "host": "elsewhere"}))  # no flock held
    (out / "puzzles" / "0002.json").unlink()
    result = mobius(*SLIDER, "--out", str(out), "--resume")
    assert result.returncode == 0, result.stderr
    assert (out / "puzzles" / "0002.json").read_bytes() == (slider_pack / "puzzles" / "0002.json").read_bytes()
    assert not (out / LOCK_NAME).exists()


# --- fingerprints: resume refuses changed inputs, re-makes puzzle files that fail their hash -------------------

def test_swapped_edited_and_deleted_puzzles_are_made_again_and_no_others(slider_pack: Path, tmp_path: Path) -> None:
    out = copy_of(slider_pack, tmp_path / "pack")
    puzzles = out / "puzzles"
    one, two, three, four, five = (puzzles / f"000{n}.json" for n in range(1, 6))
    swap = tmp_path / "swap.json"
    one.rename(swap), two.rename(one), swap.rename(two)
    three.write_bytes(three.read_bytes().replace(b'"rejected"', b'"rejected" '))  # the same JSON, other bytes
    four.unlink()
    kept = five.stat().st_mtime_ns
    result = mobius(*SLIDER, "--out", str(out), "--resume")
    assert result.returncode == 0, result.stderr
    for path in (one, two, three, four, five):
        assert path.read_bytes() == (slider_pack / "puzzles" / path.name).read_bytes()
    assert five.stat().st_mtime_ns == kept  # a puzzle whose file passes its hash is not written again
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and not (out / ".journal").exists()
    assert manifest["puzzle_sha256"] == json.loads((slider_pack / "manifest.json").read_text())["puzzle_sha256"]


def test_a_pack_whose_manifest_has_no_fingerprints_is_refused(slider_pack: Path, tmp_path: Path) -> None:
    out = copy_of(slider_pack, tmp_path / "pack")
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["inputs"], manifest["puzzle_sha256"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = snapshot(out)
    result = mobius(*SLIDER, "--out", str(out), "--resume")
    assert result.returncode == 2 and "records no fingerprints" in one_error_line(result)
    assert snapshot(out) == before


CROSSWORD = ["pack", "crossword", "--count", "2", "--width", "7", "--height", "5", "--workers", "1"]


@pytest.fixture(scope="module")
def crossword_inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    """A finished 2-puzzle pack made from a word-list file, a clue file, a ban and an allow list."""
    where = tmp_path_factory.mktemp("inputs")
    files = write_crossword_inputs(where)
    out = where / "pack"
    result = mobius(*CROSSWORD, "--out", str(out), *(str(a) for pair in files.items() for a in pair))
    assert result.returncode == 0, result.stderr
    return out, files


@pytest.mark.parametrize("option", ["--dict", "--clues", "--ban", "--allow"])
def test_resume_refuses_a_changed_input_and_names_it(crossword_inputs: tuple[Path, dict[str, Path]],
                                                     tmp_path: Path, option: str) -> None:
    made, files = crossword_inputs
    out = copy_of(made, tmp_path / "pack")
    changed, original = files[option], files[option].read_text()
    added = {"--dict": "QWERTZ;60\n", "--clues": "QWERTZ\tA keyboard\n"}.get(option, "QWERTZ\n")
    changed.write_text(original + added)  # in place: the same command, another content
    before = snapshot(out)
    try:
        result = mobius(*CROSSWORD, "--out", str(out), *(str(a) for pair in files.items() for a in pair), "--resume")
    finally:
        changed.write_text(original)
    line = one_error_line(result)
    assert result.returncode == 2
    assert f"{option} {changed} changed" in line and "--resume needs the inputs it was started with" in line
    assert snapshot(out) == before


@pytest.mark.parametrize("option", ["--clues", "--ban"])
def test_resume_names_an_input_file_left_out_or_added(crossword_inputs: tuple[Path, dict[str, Path]],
                                                     tmp_path: Path, option: str) -> None:
    made, files = crossword_inputs
    out = copy_of(made, tmp_path / "pack")
    given = [str(a) for name, path in files.items() if name != option for a in (name, path)]
    before = snapshot(out)
    left_out = mobius(*CROSSWORD, "--out", str(out), *given, "--resume")
    assert left_out.returncode == 2 and snapshot(out) == before
    assert f"{out}: the pack was started with {option} {files[option]}, which this command leaves out; " \
           "--resume needs the inputs it was started with" in one_error_line(left_out)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["inputs"][option]  # as a pack started without the option records its inputs
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = snapshot(out)
    added = mobius(*CROSSWORD, "--out", str(out), *(str(a) for pair in files.items() for a in pair), "--resume")
    assert added.returncode == 2 and snapshot(out) == before
    assert f"{out}: this command gives {option} {files[option]}, which the pack was started without" \
        in one_error_line(added)


def test_resume_refuses_a_pack_started_with_another_clue_bank(crossword_inputs: tuple[Path, dict[str, Path]],
                                                             tmp_path: Path) -> None:
    """The embedded bank changes with the tool: a pack started by another version never gets a second bank's clues."""
    made, files = crossword_inputs
    out = copy_of(made, tmp_path / "pack")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["inputs"]["clue bank"]["sha256"] == load_bank().sha256
    manifest["inputs"]["clue bank"]["sha256"] = "0" * 64  # as an earlier version's bank would read
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = snapshot(out)
    result = mobius(*CROSSWORD, "--out", str(out), *(str(a) for pair in files.items() for a in pair), "--resume")
    line = one_error_line(result)
    assert result.returncode == 2
    assert "clue bank (embedded in this version) changed" in line, line
    assert snapshot(out) == before


# --- paths and disks --------------------------------------------------------------------

def test_an_out_path_that_is_not_utf8_makes_a_whole_pack_and_resumes(tmp_path: Path) -> None:
    out = os.fsencode(tmp_path) + b"/pack\xff"
    args = [b"pack", b"slider", b"--count", b"2", b"--depth", b"3..4", b"--workers", b"1", b"--out", out]
    for extra in ([], [b"--resume"]):
        result = subprocess.run([sys.executable, "-m", "mobius", *args, *extra], capture_output=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert b"pack\\xff" in result.stderr  # shown escaped, as the manifest and the page hold it
    assert os.path.exists(out + b"/index.html")
    manifest = json.loads(Path(os.fsdecode(out + b"/manifest.json")).read_text())
    assert manifest["status"] == "complete" and "pack\\xff" in manifest["command"]


def no_space(name: str):
    """An os.fsync that fails as a full disk does while the file `name` is written
    (its temporary file: the real one appears only at the rename)."""
    import errno

    real = os.fsync

    def fsync(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").split("/")[-1].startswith(f".{name}."):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    return fsync


def run_in_process(*args: str):
    from typer.testing import CliRunner

    from mobius.cli import app

    return CliRunner().invoke(app, list(args))


def test_a_full_disk_at_the_start_names_the_file_and_leaves_nothing(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mobius.generators.pack.os.fsync", no_space("manifest.json"))
    out = tmp_path / "new" / "pack"
    result = run_in_process(*SLIDER, "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"mobius: error: {out / 'manifest.json'}: No space left on device"
    assert list(tmp_path.iterdir()) == []  # the pack directory and the parent this run made are gone


def test_a_full_disk_mid_pack_names_the_puzzle_file_and_resume_completes_it(
        slider_pack: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mobius.generators.pack.os.fsync", no_space("0002.json"))
    out = tmp_path / "pack"
    result = run_in_process(*SLIDER, "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"mobius: error: {out / 'puzzles' / '0002.json'}: No space left on device"
    assert sorted(p.name for p in (out / "puzzles").iterdir()) == ["0001.json"]  # no temporary file left
    monkeypatch.undo()
    result = mobius(*SLIDER, "--out", str(out), "--resume")
    assert result.returncode == 0, result.stderr
    assert snapshot(out / "puzzles").keys() == snapshot(slider_pack / "puzzles").keys()
    for name in sorted(snapshot(out / "puzzles")):
        assert (out / "puzzles" / name).read_bytes() == (slider_pack / "puzzles" / name).read_bytes(), name


# --- devices, FIFOs and sockets where the pack writes --------------------------------------

def kinds(folder: Path) -> dict[str, int]:
    """Every name under `folder` with the type of its own mode (a link stays a link)."""
    return {str(p.relative_to(folder)): stat.S_IFMT(p.lstat().st_mode) for p in folder.rglob("*")}


@pytest.mark.parametrize("command", ["slider", "crossword"])
def test_a_pack_into_a_fifo_is_refused_before_any_work(tmp_path: Path, command: str,
                                                       special_file: Callable[[Path, str], Path]) -> None:
    out = special_file(tmp_path / "pack", "fifo")
    cache = tmp_path / "cache"
    args = SLIDER if command == "slider" else CROSSWORD
    result = subprocess.run([sys.executable, "-m", "mobius", *args, "--out", str(out), "--force"], capture_output=True,
                            text=True, timeout=300, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    assert result.returncode == 2
    assert f"{out} is a named pipe (FIFO), not a directory for a pack" in one_error_line(result)
    assert stat.S_ISFIFO(out.lstat().st_mode) and not list(cache.rglob("*.npy"))


@pytest.mark.parametrize("place,kind", [("pack.pdf", "device"), ("index.html", "socket"), (".journal", "fifo")])
def test_a_forced_pack_among_files_refuses_a_device_fifo_or_socket_of_its_names(
        tmp_path: Path, place: str, kind: str, special_file: Callable[[Path, str], Path]) -> None:
    out = tmp_path / "pack"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    special = special_file(out / place, kind)
    before = kinds(out)
    result = mobius(*SLIDER, "--out", str(out), "--force")
    assert result.returncode == 2
    assert f"{special} is " in one_error_line(result) and "a pack writes only regular files" in result.stderr
    assert kinds(out) == before  # no manifest, no puzzle, and the special file as it was


def test_resume_refuses_a_puzzle_file_that_is_a_link_to_a_device(slider_pack: Path, tmp_path: Path,
                                                                  special_file: Callable[[Path, str], Path]) -> None:
    out = copy_of(slider_pack, tmp_path / "pack")
    svg = out / "puzzles" / "0002.svg"
    svg.unlink()
    svg.symlink_to(special_file(tmp_path / "device", "device"))
    (out / "puzzles" / "0004.json").unlink()  # a puzzle to make again
    before, files = kinds(tmp_path), snapshot(out)
    result = mobius(*SLIDER, "--out", str(out), "--resume")
    assert result.returncode == 2 and f"{svg} is a character device (the link leads to" in one_error_line(result)
    assert kinds(tmp_path) == before and snapshot(out) == files
