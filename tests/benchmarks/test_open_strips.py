"""The open-strips benchmark reads each pack from its puzzle files and sets the caps side by side."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from mobius.benchmarks import open_strips
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import build_pack


def test_a_pack_is_read_from_its_files_with_its_block_share(tmp_path: Path) -> None:
    build_pack(CrosswordPackSpec(count=2, width=7, height=5, seed=3, worst=0, polish=0), tmp_path / "p", exports=False)
    run = open_strips.read_run("mobius-11x5", "0.30", 3, 3, tmp_path / "p", 1.0, True)
    rows = [json.loads(p.read_text())["rows"] for p in sorted((tmp_path / "p" / "puzzles").glob("*.json"))]
    shares = [sum(r.count("#") for r in grid) / 35 for grid in rows]
    assert (run.made, run.failed) == (2, 1)
    assert run.block_share_max == round(max(shares), 4)
    assert open_strips.read_run("mobius-11x5", "0.30", 3, 3, tmp_path / "none", 1.0, False).failed == 3


def test_the_default_cap_gives_no_option_and_a_cap_gives_its_share() -> None:
    assert "--max-blocks" not in open_strips.pack_command("mobius-11x5", "default", 0, 10, 2, Path("o"))
    command = open_strips.pack_command("torus-9x7", "0.22", 4, 10, 2, Path("o"))
    assert command[command.index("--max-blocks") + 1] == "0.22" and "torus" in command


def test_the_tables_set_each_cap_against_the_first_seed_by_seed(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    base = open_strips.Run("mobius-11x5", "0.30", 0, 10, 10, 10.0, True, 0.25, 0.29, 60.0, 45, 1.0, 0.2, 10)
    runs = [base, dataclasses.replace(base, cap="0.20", wall_s=30.0, made=9, finished=False),
            dataclasses.replace(base, seed=1, wall_s=20.0), dataclasses.replace(base, seed=1, cap="0.20", wall_s=20.0)]
    (tmp_path / open_strips.RESULTS).write_text(json.dumps([dataclasses.asdict(r) for r in runs]))
    open_strips.main(["--analyze", str(tmp_path)])
    rows = [line.split("|") for line in capsys.readouterr().out.splitlines() if line.startswith("| mobius")]
    curve = {row[2].strip(): row for row in rows[:2]}
    assert curve["0.20"][6].strip() == "2.00"  # the ratios 3 and 1: their median
    assert curve["0.20"][12].strip() == "1 (1)" and curve["0.30"][12].strip() == "0 (0)"
    assert sum("(stopped)" in "|".join(row) for row in rows[2:]) == 1
