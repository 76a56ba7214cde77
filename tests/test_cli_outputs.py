"""`export-instance --out FILE` and `bench --out DIR` check where they write before any work:
an existing file or earlier results are refused unless --force, a file where a directory
belongs (or the reverse) is refused at once, one line and exit 2, through the real command.
No command writes over a device, a FIFO or a socket (or a link to one), --force or not: its
output, the files of a bench directory, or the cache a `slider prepare` builds into (the pack
directory's own files: tests/generators/test_pack_safety.py)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mobius.generators.pack import build_pack
from mobius.generators.slider.pack import SliderPackSpec

BOARD = ["export-instance", "grid:3x3", "--start", "1 2 3 4 0 5 6 7 8", "--format", "cnf", "--horizon", "2"]


def mobius(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=300, env=env)


def refused(result: subprocess.CompletedProcess[str], message: str) -> None:
    lines = result.stderr.splitlines()
    assert result.returncode == 2 and len(lines) == 1 and message in lines[0], result.stderr


def test_export_instance_keeps_an_existing_file_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "board.cnf"
    out.write_text("mine\n")
    refused(mobius(*BOARD, "--out", out), f"--out {out}: the file exists; pass --force")
    assert out.read_text() == "mine\n"
    result = mobius(*BOARD, "--out", out, "--force")
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("c slider, exactly 2 moves")


def test_export_instance_refuses_a_directory_or_a_file_as_the_parent(tmp_path: Path) -> None:
    refused(mobius(*BOARD, "--out", tmp_path), "a directory, not a regular file; expected a regular file or a new name")
    (tmp_path / "plain").write_text("")
    refused(mobius(*BOARD, "--out", tmp_path / "plain" / "x.cnf"), "is a file, not a directory")


@pytest.mark.parametrize("setup,message", [
    ("file", "a file; expected a directory to write into"),
    ("earlier", "holds records.json of an earlier run; pass --force"),
])
def test_bench_checks_its_out_before_any_run(tmp_path: Path, setup: str, message: str) -> None:
    out = tmp_path / "results"
    if setup == "file":
        out.write_text("")
    else:
        out.mkdir()
        (out / "records.json").write_text("{}")
    before = {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = mobius("bench", "--suite", "slider-ring", "--out", out)
    refused(result, message)
    assert "[1/" not in result.stdout  # refused before the first run
    assert {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


# --- devices, FIFOs and sockets --------------------------------------------------------------

SPECIAL = ["fifo", "socket", "device", "link to a device"]


def special_place(tmp_path: Path, name: str, kind: str, make: Callable[[Path, str], Path]) -> Path:
    """`tmp_path/name` made a FIFO, socket, device or a link to a device (elsewhere in `tmp_path`)."""
    if kind != "link to a device":
        return make(tmp_path / name, kind)
    (tmp_path / name).symlink_to(make(tmp_path / "device", "device"))
    return tmp_path / name


def modes(folder: Path) -> dict[str, int]:
    """Every name under `folder` with the type of its own mode (a link stays a link)."""
    return {str(p.relative_to(folder)): stat.S_IFMT(p.lstat().st_mode) for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real puzzle JSON file (a ring slider pack of one), for `render`."""
    out = tmp_path_factory.mktemp("pack") / "pack"
    build_pack(SliderPackSpec(count=1, board="ring", depth_min=4, depth_max=4), out, exports=False)
    return out / "puzzles" / "0001.json"


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("command", ["render", "export-instance"])
def test_an_output_file_that_is_a_device_fifo_or_socket_is_refused_force_or_not(
        tmp_path: Path, puzzle_file: Path, special_file: Callable[[Path, str], Path], command: str, kind: str) -> None:
    out = special_place(tmp_path, "out", kind, special_file)
    before = modes(tmp_path)
    args = ["render", puzzle_file, "--out", out] if command == "render" else [*BOARD, "--out", out, "--force"]
    result = mobius(*args)
    refused(result, f"--out {out}: ")
    assert "not a regular file" in result.stderr
    assert ("the link leads to" in result.stderr) == (kind == "link to a device")
    assert modes(tmp_path) == before  # the device, FIFO or socket is as it was, and nothing beside it


@pytest.mark.parametrize("kind", ["fifo", "link to a device"])
def test_bench_refuses_a_device_or_fifo_as_out_or_among_its_files_before_any_run(
        tmp_path: Path, special_file: Callable[[Path, str], Path], kind: str) -> None:
    out = special_place(tmp_path, "results", kind, special_file)
    refused(mobius("bench", "--suite", "slider-ring", "--out", out), "expected a directory to write into")
    folder = tmp_path / "folder"
    folder.mkdir()
    plot = special_place(folder, "cactus-slider-ring-slider.png", kind, special_file)
    before = modes(tmp_path)
    result = mobius("bench", "--suite", "slider-ring", "--out", folder, "--force")
    refused(result, f"{plot.name} in it is ")
    assert "[1/" not in result.stdout and modes(tmp_path) == before


def test_slider_prepare_names_a_cache_folder_that_is_a_fifo(tmp_path: Path,
                                                          special_file: Callable[[Path, str], Path]) -> None:
    cache = special_file(tmp_path / "cache", "fifo")
    result = mobius("slider", "prepare", "ring", env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    refused(result, f"the cache folder {cache} (XDG_CACHE_HOME) is a named pipe (FIFO), not a directory")
    assert stat.S_ISFIFO(cache.lstat().st_mode)
