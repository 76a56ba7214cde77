"""Long set-up speaks: table builds report level by level, and without a terminal every phase prints a line
on stdout when it starts and when it ends with its time (stderr keeps to errors and warnings).

Covers: the progress callback of a compact table build (`pdb_build.build_tables`), `slider prepare` and a
small `pack slider` run through the CLI with stdout and stderr piped (not a terminal), and the meaning of
"redone" printed beside its count. Leaves out: the look of the live bars on a terminal (rich draws them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mobius.cpmodel.slider import pdb_build
from mobius.cpmodel.slider.board import default_goal, preset


def mobius(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-m", "mobius", *args], env=env, capture_output=True, text=True,
                          timeout=600)


def test_a_table_build_reports_each_group_level_by_level() -> None:
    board = preset("grid:3x3")
    goal = default_goal(board)
    partition = ((1, 2, 3), (4, 5, 6, 7, 8))
    reports: list[tuple[int, int, pdb_build.BuildStep]] = []
    pdb_build._FINISHED.clear()
    pdb_build.build_tables(board, goal, partition, store=None, progress=lambda *report: reports.append(report))
    pdb_build._FINISHED.clear()
    steps = [(step.group, step.level) for _, _, step in reports]
    assert steps == sorted(steps)  # group after group, each level after the one before
    assert {step.group for _, _, step in reports} == {1, 2}
    assert {(step.tiles, step.groups) for _, _, step in reports} == {(3, 2), (5, 2)}
    assert max(step.level for _, _, step in reports if step.group == 2) >= 10
    done = [d for d, _, _ in reports]
    assert done == sorted(done) and done[-1] == reports[-1][1]  # the 3×3's abstract spaces are connected
    assert str(reports[-1][2]).startswith("group 2/2 (5 tiles), level ")


def test_prepare_without_a_terminal_prints_each_phase(tmp_path: Path) -> None:
    done = mobius("slider", "prepare", "grid:4x4", "--partition", "1-2-3/4-5-8-9-12", cache=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for group in ("group 1/2 (3 tiles)", "group 2/2 (5 tiles)"):
        assert f"pattern tables for grid:4x4: {group} …" in lines
        assert any(line.startswith(f"pattern tables for grid:4x4: {group}: done in ") for line in lines)
    assert "ready in" in done.stdout


def test_a_slider_pack_without_a_terminal_prints_each_phase(tmp_path: Path) -> None:
    done = mobius("pack", "slider", "--board", "grid:3x3", "--count", "3", "--depth", "8..12", "--workers", "1",
                  "--out", str(tmp_path / "pack"), cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for phase in ("loading the solver",
                  "pattern tables for grid:3x3: group 1/2 (4 tiles)", "slider puzzles", "slider exports"):
        assert f"{phase} …" in lines, done.stdout
        assert any(line.startswith(f"{phase}: done in ") for line in lines), done.stdout
    assert any("3/3, redone 0: attempts made again after a clash or failure" in line for line in lines)
    assert "redone along the way: attempts made again after a clash" in done.stderr


def test_a_first_solve_says_it_builds_the_tables_then_shows_the_build(tmp_path: Path) -> None:
    start = "1 2 3 4 5 6 0 7 8"
    first = mobius("slider", "solve", "grid:3x3", "--start", start, cache=tmp_path / "plain")
    assert first.returncode == 0 and first.stderr == "", first.stderr  # stderr keeps to errors and warnings
    lines = first.stdout.splitlines()
    assert lines[0].startswith("building the 4-4 pattern tables of grid:3x3, once (")
    assert lines[0].endswith("`mobius slider prepare grid:3x3` builds them ahead")
    assert "pattern tables for grid:3x3: group 2/2 (4 tiles) …" in lines  # the build, phase by phase
    assert any(line.startswith("SOLVED by idastar") for line in lines)
    again = mobius("slider", "solve", "grid:3x3", "--start", start, cache=tmp_path / "plain")
    assert again.returncode == 0 and again.stdout.startswith("SOLVED")  # built once
    quiet = mobius("slider", "solve", "grid:3x3", "--start", start, "--json", cache=tmp_path / "json")
    assert quiet.returncode == 0 and quiet.stderr == "" and json.loads(quiet.stdout)["status"] == "SOLVED"


def test_a_solve_stopped_while_building_the_tables_says_so(tmp_path: Path) -> None:
    done = mobius("slider", "solve", "grid:4x4", "--start", "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                  "--time-limit", "0.5", cache=tmp_path)
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("building the 7-8 pattern tables of grid:4x4, once (")
    assert lines[-1].startswith("TIMEOUT: the pattern tables were still being built at the time limit (")
    assert lines[-1].endswith("`mobius slider prepare grid:4x4`, continues it")
