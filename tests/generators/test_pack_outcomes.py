"""A puzzle a crossword pack gives up is reported honestly: "proven" only when the solver proved
every grid it tried to have no fill; otherwise what its fills ran out of (the fill budget, named with
the `--solver` option that raises it, or the time limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobius.dictionaries import load
from mobius.generators.crossword.clues import load_bank
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import PackError, build_pack


def clued_words(tmp_path: Path, per_length: int) -> str:
    """A list of the first `per_length` clued words of each length from 3 to 7."""
    bank, en = load_bank(), load("en")
    words = [w for n in range(3, 8) for w in [w for w in en.by_length(n) if w in bank][:per_length]]
    path = tmp_path / f"words-{per_length}.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return str(path)


def failure(spec: CrosswordPackSpec, out: Path) -> str:
    with pytest.raises(PackError) as refused:
        build_pack(spec, out, exports=False)
    return str(refused.value)


def test_grids_that_no_list_word_fits_are_reported_as_proven(tmp_path: Path) -> None:
    words = clued_words(tmp_path, 5)
    line = failure(CrosswordPackSpec(count=1, width=7, height=5, dictionary=words), tmp_path / "p")
    assert "puzzle 1: proven: each of the " in line
    assert f"grids it tried has no fill from the clued words of {words} (the solver proved it)" in line
    assert "budget" not in line


def test_fills_that_ran_out_of_budget_are_not_reported_as_proven(tmp_path: Path) -> None:
    words = clued_words(tmp_path, 600)
    spec = CrosswordPackSpec(count=1, width=7, height=5, dictionary=words, solver="reference:max_backtracks=0")
    line = failure(spec, tmp_path / "p")
    assert f"puzzle 1: no grid the rules allow was filled from the clued words of {words}: " in line
    assert ("attempts found no fill within the fill budget, at most 0 backtracks (--solver "
            "reference:max_backtracks=1 raises it)") in line
    assert "puzzle 1: proven" not in line
