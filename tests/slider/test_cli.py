"""`mobius slider solve|check|inspect`: output, JSON and exit codes.

In-process through typer's CliRunner where possible; the bad-input cases run
`python -m mobius` in a subprocess, because only `mobius.cli.main` turns an
InputError into one line and exit code 2.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from mobius.cpmodel.slider.board import SliderProblem, default_goal, preset
from mobius.cpmodel.slider.verify import verify
from mobius.cpmodel.solver import SolveResult, SolverBase, Status
from mobius import slider_cli
from mobius.cli import app

def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["slider", *args])


def scramble(board_name: str, moves: int, seed: int) -> tuple[int, ...]:
    """The goal after `moves` random slides of the blank (never straight back)."""
    board = preset(board_name)
    state = list(default_goal(board))
    rng = random.Random(seed)
    blank, previous = state.index(0), -1
    for _ in range(moves):
        target = rng.choice([v for v in board.neighbours[blank] if v != previous])
        state[blank], state[target] = state[target], 0
        blank, previous = target, blank
    return tuple(state)


def text(state: tuple[int, ...]) -> str:
    return " ".join(map(str, state))


# --- solve -------------------------------------------------------------------------

def test_solve_scrambled_ring_with_the_default_solver() -> None:
    start = scramble("ring", 14, seed=3)
    result = run("solve", "ring", "--start", text(start), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["status"], out["solver"], out["optimal"]) == ("SOLVED", "idastar", True)
    assert out["length"] == len(out["moves"]) <= 14
    assert verify(SliderProblem(preset("ring"), start, default_goal(preset("ring"))), out["moves"]) == []
    bfs = json.loads(run("solve", "ring", "--start", text(start), "--solver", "bfs", "--json").stdout)
    assert bfs["length"] == out["length"]


def test_solve_plain_output_with_cpsat() -> None:
    start = scramble("grid:2x3", 7, seed=1)
    result = run("solve", "grid:2x3", "--start", text(start), "--solver", "cpsat")
    assert result.exit_code == 0, result.output
    first, start_line, goal_line, moves_line, _stats = result.stdout.splitlines()
    assert first.startswith("SOLVED by cpsat") and "(optimal)" in first
    assert start_line == f"start: {text(start)}" and goal_line == "goal:  0 1 2 3 4 5"
    moves = [int(m) for m in moves_line.removeprefix("moves: ").split()]
    assert verify(SliderProblem(preset("grid:2x3"), start, default_goal(preset("grid:2x3"))), moves) == []


def test_solve_with_two_blanks_prints_from_to_pairs() -> None:
    result = run("solve", "grid:2x3", "--start", "0 2 0 3 4 5", "--blanks", "2", "--solver", "cpsat", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["moves"] == [[1, 2]] and out["optimal"] is True


def test_solve_unreachable_is_decided_before_any_search() -> None:
    start = (0, 2, 1, 3, 4, 5, 6, 7, 8)
    result = run("solve", "grid:3x3", "--start", text(start), "--solver", "cpsat", "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert (out["status"], out["solver"], out["moves"], out["optimal"]) == ("UNREACHABLE", "group", None, False)
    assert out["reason"] == "tile permutation is odd but the puzzle group is A8"


def test_solve_timeout_exits_3() -> None:
    start = scramble("grid:3x3", 30, seed=5)
    result = run("solve", "grid:3x3", "--start", text(start), "--solver", "cpsat", "--time-limit", "0.001", "--json")
    assert result.exit_code == 3, result.output
    out = json.loads(result.stdout)
    assert (out["status"], out["moves"], out["optimal"]) == ("TIMEOUT", None, False)


class WrongMovesSolver(SolverBase):
    """A solver that claims success with a move along no edge."""

    name = "wrong"

    def solve(self, problem: SliderProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        return SolveResult(Status.SOLVED, [problem.board.n - 1], self.name, 0.0, optimal=True)


def test_invalid_solution_is_never_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slider_cli, "get_solver", lambda family, spec: WrongMovesSolver())
    result = run("solve", "grid:3x3", "--start", "1 0 2 3 4 5 6 7 8")
    assert result.exit_code == 4
    assert result.stdout == ""
    assert "internal error: solver wrong" in result.stderr and "no edge" in result.stderr


# --- check -----------------------------------------------------------------------------

def test_check_reachable_and_unreachable() -> None:
    reachable = run("check", "theta0", "--start", text(scramble("theta0", 9, seed=2)), "--json")
    assert reachable.exit_code == 0
    assert json.loads(reachable.stdout)["reachable"] is True
    unreachable = run("check", "theta0", "--start", "0 2 3 1 4 5 6")
    assert unreachable.exit_code == 1
    assert unreachable.stdout.startswith("unreachable: tile permutation is not in the puzzle group PGL(2,5)")


def test_check_with_an_explicit_goal() -> None:
    result = run("check", "path:4", "--start", "1 2 0 3", "--goal", "1 2 3 0", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["reachable"] is True


# --- inspect ---------------------------------------------------------------------------------

def test_inspect_json_theta0() -> None:
    result = run("inspect", "theta0", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "vertices": 7, "edges": 8, "two_connected": True, "bipartite": False, "blocks": 1, "cut_vertices": 0,
        "group": "PGL(2,5)", "group_order": 120, "reachable_configurations": 840, "components": 6,
        "closed_form": {"group_order": "120", "reachable_configurations": "120 × 7", "components": "6!/120"},
        "isomorphic_to": ["theta0"],
    }


def test_inspect_json_grid_3x3() -> None:
    out = json.loads(run("inspect", "grid:3x3", "--json").stdout)
    assert (out["group"], out["reachable_configurations"], out["components"]) == ("A8", 181_440, 2)
    assert out["isomorphic_to"] == ["ring", "grid:3x3"]


def test_inspect_plain_on_a_board_file(tmp_path: Path) -> None:
    # The 3x3 grid with its vertices renamed: still the 8-puzzle.
    rename = [4, 0, 8, 2, 6, 1, 3, 7, 5]
    edges = "\n".join(f"{rename[u]} {rename[v]}" for u, v in preset("grid:3x3").edges)
    path = tmp_path / "disguised.txt"
    path.write_text(edges + "\n", encoding="utf-8")
    result = run("inspect", str(path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "board: disguised"
    assert "puzzle group: A8 (order 20,160)" in lines
    assert lines[-1] == "isomorphic to: ring, grid:3x3"


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["inspect", "hexagon"], "unknown board 'hexagon'"),
    (["check", "grid:3x3", "--start", "0 1 2 3"], "start has 4 entries"),
    (["solve", "ring", "--start", "0 1 2 3 4 5 6 7 8", "--solver", "dfs"], "unknown slider solver 'dfs'"),
    (["inspect", "{disconnected}"], "graph is disconnected"),
])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    disconnected = tmp_path / "two.txt"
    disconnected.write_text("0 1\n2 3\n", encoding="utf-8")
    args = [str(disconnected) if a == "{disconnected}" else a for a in args]
    done = subprocess.run([sys.executable, "-m", "mobius", "slider", *args], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("mobius: error: ") and message in done.stderr
