"""`mobius slider solve-all`: many starts in one run, answers checked, the same as one solve each,
through the CLI in a subprocess (forked workers, exit codes, one-line errors)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mobius.cpmodel.slider.board import SliderProblem, default_goal, preset
from mobius.cpmodel.slider.search import bfs
from tests.slider.test_cli import scramble, text

BOARD = "grid:3x3"


def mobius(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-m", "mobius", "slider", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def shortest(start: tuple[int, ...]) -> int:
    board = preset(BOARD)
    moves = bfs(SliderProblem(board, start, default_goal(board), 1), float("inf"), {"nodes": 0})
    assert moves is not None
    return len(moves)


def test_every_start_is_solved_optimally_by_forked_workers(tmp_path: Path) -> None:
    starts = [scramble(BOARD, moves, seed) for moves, seed in ((12, 1), (30, 2), (40, 3), (0, 4))]
    listed = tmp_path / "starts.txt"
    listed.write_text("# four 8-puzzles\n" + "\n\n".join(f"{text(s)}  # start {i}" for i, s in enumerate(starts)))
    out = mobius("solve-all", BOARD, str(listed), "--workers", "2", "--json", cache=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [r["status"] for r in report["results"]] == ["SOLVED"] * 4
    assert [r["length"] for r in report["results"]] == [shortest(s) for s in starts]
    assert all(r["optimal"] for r in report["results"]) and report["workers"] == 2


def test_an_unreachable_start_is_exit_1_and_the_others_still_solved(tmp_path: Path) -> None:
    solvable = scramble(BOARD, 20, 5)
    swapped = (0, 2, 1, 3, 4, 5, 6, 7, 8)  # one transposition: the other half of the 8-puzzle's states
    listed = tmp_path / "starts.txt"
    listed.write_text(f"{text(solvable)}\n{text(swapped)}\n")
    out = mobius("solve-all", BOARD, str(listed), "--workers", "2", cache=tmp_path)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"1: SOLVED {shortest(solvable)} moves") and lines[1].startswith("2: UNREACHABLE")
    assert lines[-1].startswith("1/2 solved")


def test_a_bad_start_is_one_line_naming_its_line(tmp_path: Path) -> None:
    listed = tmp_path / "starts.txt"
    listed.write_text(f"{text(scramble(BOARD, 8, 1))}\n# fine so far\n1 2 3\n")
    out = mobius("solve-all", BOARD, str(listed), cache=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and f"{listed}, line 3" in out.stderr
