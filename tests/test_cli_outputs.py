"""`export-instance --out FILE` and `bench --out DIR` check where they write before any work:
an existing file or earlier results are refused unless --force, a file where a directory
belongs (or the reverse) is refused at once, one line and exit 2, through the real command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BOARD = ["export-instance", "grid:3x3", "--start", "1 2 3 4 0 5 6 7 8", "--format", "cnf", "--horizon", "2"]


def mobius(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=300)


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
    refused(mobius(*BOARD, "--out", tmp_path), "a directory; expected the name of a file")
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
