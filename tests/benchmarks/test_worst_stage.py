"""The worst-stage benchmark rebuilds each puzzle's problem from a pack and raises it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobius.benchmarks import worst_stage
from mobius.cpmodel.crossword.verify import verify
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import build_pack
from mobius.generators.crossword.worst_answer import raise_worst


def test_the_stage_benchmark_reads_a_pack_and_reports_each_budget(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    spec = CrosswordPackSpec(count=2, width=7, height=5, seed=3, worst=0, polish=0)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    cases = worst_stage.pack_problems(tmp_path / "p")
    assert len(cases) == 2
    for (problem, fill), puzzle in zip(cases, puzzles.values()):
        assert verify(problem, fill) == []  # the fill keeps the rules, the other puzzle's answers excluded
        assert problem.rules.excluded >= {e["answer"] for p in puzzles.values() if p is not puzzle
                                          for e in p["entries"]}
    worst_stage.main([str(tmp_path / "p"), "--budget", "0", "--budget", "50"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [row.split("|")[1].strip() for row in rows] == ["0", "50"]
    assert rows[0].split("|")[2].strip() == "0/2"  # no budget, nothing proven


def test_the_split_sets_each_proof_against_the_whole_stage(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    build_pack(CrosswordPackSpec(count=3, width=7, height=5, seed=5, worst=0, polish=0), tmp_path / "p",
               exports=False)
    cases = worst_stage.pack_problems(tmp_path / "p")
    splits = [worst_stage.split(problem, fill, 100_000) for problem, fill in cases]
    assert any(s.optimal for s in splits) and all(s.proof == 0 for s in splits if not s.optimal)
    budgets = [0, 40, 100_000]
    worst_stage.main([str(tmp_path / "p"), "--split", "100000"] + [f"--budget={b}" for b in budgets])
    rows = [[cell.strip() for cell in line.split("|")[1:4]] for line in capsys.readouterr().out.splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    assert [row[0] for row in rows] == ["0", "40", "100,000"]
    for budget, (_, stage, proof) in zip(budgets, rows):
        # The stage's row is what the stage proves when given that budget.
        assert stage == f"{sum(raise_worst(p, f, budget=budget).optimal for p, f in cases)}/3"
        assert proof == f"{sum(s.optimal and s.proof <= budget for s in splits)}/3"


def test_a_folder_without_puzzles_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no puzzles"):
        worst_stage.main([str(tmp_path)])
