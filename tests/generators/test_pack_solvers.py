"""Packs filled by CP-SAT finish within their deterministic budgets, through
the CLI, and every puzzle records its worst answer: checked here against the
word list and the independent verifier (`mobius.cpmodel.crossword.verify`), never
with the generator's own figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import get_solver
from mobius.dictionaries import load
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import build_pack


def _pack(out: Path, solver: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mobius", "pack", "crossword", "--count", "2", "--width", "7", "--height", "5",
               "--solver", solver, "--workers", "1", "--out", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, env={**os.environ})


@pytest.mark.parametrize("solver", ["cpsat", "cpsat:maximize=true"])
def test_a_cpsat_pack_completes_verifies_and_records_each_worst_answer(tmp_path: Path, solver: str) -> None:
    out = tmp_path / "pack"
    result = _pack(out, solver)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["counts"]["written"] == 2
    assert manifest["parameters"]["solver"].startswith("cpsat:")
    # A maximising fill searches first-fail (a branch and bound from the first fill) on a budget of its own.
    maximising = "maximize=true" in solver
    assert ("search=first-fail" in manifest["parameters"]["solver"]) == maximising
    assert ("deterministic_time=1.0" in manifest["parameters"]["solver"]) == maximising
    words = load("en", min_score=30)
    by_puzzle = manifest["quality"]["lowest_by_puzzle"]
    worst_of_pack = None
    for path in sorted((out / "puzzles").glob("*.json")):
        puzzle = json.loads(path.read_text())
        rows = puzzle["rows"]
        grid = make_grid(["".join("#" if c == "#" else "." for c in row) for row in rows], puzzle["surface"])
        fill = {(x, y): c for y, row in enumerate(rows) for x, c in enumerate(row) if c != "#"}
        assert verify(FillProblem(grid, words, FillRules(min_length=3, min_score=30)), fill) == []
        scores = {e["answer"]: words.score(e["answer"]) for e in puzzle["entries"]}
        lowest = min(scores.values())
        worst = puzzle["quality"]["lowest"]
        assert worst["score"] == lowest and scores[worst["answer"]] == lowest
        assert by_puzzle[puzzle["id"]] == worst
        worst_of_pack = lowest if worst_of_pack is None else min(worst_of_pack, lowest)
    assert set(by_puzzle) == {"0001", "0002"}
    assert manifest["quality"]["lowest"]["score"] == worst_of_pack


def test_the_progress_line_names_the_attempt_the_pack_waits_for(tmp_path: Path) -> None:
    seen: list[str] = []
    spec = CrosswordPackSpec(count=2, width=7, height=5, polish=0.0)
    build_pack(spec, tmp_path / "p", exports=False, on_progress=lambda p: seen.append(p.working))
    assert "puzzle 1 (attempt 1, reference)" in seen
    assert all(w == "" or (w.startswith("puzzle ") and w.endswith(", reference)")) for w in seen)


@pytest.mark.parametrize(("solver", "spec"), [
    # CP-SAT fills in the job's process unless the user chose; a maximising one gets first-fail likewise.
    ("cpsat", "cpsat:child=false,deterministic_time=5.0"),
    ("cpsat:child=true", "cpsat:child=true,deterministic_time=5.0"),
    ("cpsat:maximize=yes", "cpsat:child=false,deterministic_time=1.0,maximize=yes,search=first-fail"),
    ("cpsat:maximize=true,search=cpsat,deterministic_time=3",
     "cpsat:child=false,deterministic_time=3,maximize=true,search=cpsat"),
    ("cpsat:maximize=false", "cpsat:child=false,deterministic_time=5.0,maximize=false"),
    # A reference fill runs compiled (the solver's own default) unless the spec names a strategy only the
    # Python search has, or asks for it.
    ("reference", "reference:choices=8,max_backtracks=1000"),
    ("reference:choices=3", "reference:choices=3,max_backtracks=1000"),
    ("reference:compiled=false", "reference:choices=8,compiled=false,max_backtracks=1000"),
    ("reference:randomize=true", "reference:choices=8,max_backtracks=1000,randomize=true"),
    ("reference:select=mrv", "reference:choices=8,max_backtracks=1000,select=mrv"),
    ("reference:select=domwdeg", "reference:choices=8,max_backtracks=1000,select=domwdeg"),
])
def test_the_pack_completes_each_solver_spec_with_its_budget_and_defaults(solver: str, spec: str) -> None:
    assert CrosswordPackSpec(count=1, width=7, height=5, solver=solver).solver_spec == spec
    taken = get_solver("crossword", spec)  # a spec the solver takes
    if solver.startswith("reference"):
        assert taken.runs_compiled == ("compiled=false" not in spec and "select=mrv" not in spec
                                       and "randomize" not in spec)
