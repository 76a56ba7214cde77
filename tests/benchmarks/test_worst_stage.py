"""The worst-stage benchmark rebuilds each puzzle's problem from a pack and raises it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobius.benchmarks import worst_stage
from mobius.cpmodel.crossword.verify import verify
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import build_pack


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


def test_a_folder_without_puzzles_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no puzzles"):
        worst_stage.main([str(tmp_path)])
