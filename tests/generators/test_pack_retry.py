"""A pack that made no puzzle: it leaves nothing that blocks a retry with other options (its folder
is removed, and a folder an older run left holding only a manifest is taken over), while the work it
did stays in the user's cache, so that running it again does not start over (`generators/memo.py`):
its jobs' results by their input, and a crossword pack's annealed draws by their seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mobius.generators.crossword.pattern_space import PatternSurvey
from mobius.generators.crossword.pattern_rules import PatternSpec
from mobius.generators.executors import PuzzleFailed
from mobius.generators.memo import WorkMemo
from mobius.generators.pack import PackError, build_pack, derive_seed, memo_name
from mobius.generators.rounds import Avoid
from mobius.generators.slider.pack import SliderPackSpec


def slider(seed: int) -> SliderPackSpec:
    return SliderPackSpec(count=1, board="ring", depth_min=3, depth_max=8, seed=seed)


def never(self: SliderPackSpec, index: int, avoid: Avoid) -> dict[str, Any]:
    raise PuzzleFailed("no start found")


def test_a_failed_pack_leaves_nothing_and_a_retry_with_other_options_is_accepted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "plane" / "p7"
    with monkeypatch.context() as patched:
        patched.setattr(SliderPackSpec, "run_job", never)
        with pytest.raises(PackError, match="1 of 1 puzzles could not be made .*no puzzle was written"):
            build_pack(slider(101), out, exports=False)
    assert not (tmp_path / "plane").exists()  # the folders it made included
    assert len(build_pack(slider(102), out, exports=False)) == 1  # other options, the same place


def test_a_folder_an_older_failed_run_left_with_only_its_manifest_is_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "p7"
    (out / "puzzles").mkdir(parents=True)
    (out / "manifest.json").write_text(json.dumps({"kind": "slider", "inputs": {}, "puzzle_sha256": {},
                                                   "parameters": {"seed": 1}, "status": "incomplete"}))
    assert len(build_pack(slider(103), out, exports=False)) == 1
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_a_pack_with_a_puzzle_is_still_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "p"
    build_pack(slider(104), out, exports=False)
    with pytest.raises(PackError, match="already holds a pack"):
        build_pack(slider(105), out, exports=False)


def test_a_pack_stopped_before_its_first_puzzle_keeps_its_work_for_the_next_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, out = slider(106), tmp_path / "p"
    attempts: list[int] = []

    def failed_then_stopped(self: SliderPackSpec, index: int, avoid: Avoid) -> dict[str, Any]:
        attempts.append(avoid.attempt)
        if avoid.attempt == 0:
            raise PuzzleFailed("no start within the budget")
        raise KeyboardInterrupt  # Ctrl-C during the second attempt

    real = SliderPackSpec.run_job
    with monkeypatch.context() as patched:
        patched.setattr(SliderPackSpec, "run_job", failed_then_stopped)
        with pytest.raises(KeyboardInterrupt):
            build_pack(spec, out, exports=False)
    assert attempts == [0, 1] and not out.exists()
    memo = WorkMemo(memo_name(spec, spec.inputs()))
    assert memo.path.is_file()

    def counted(self: SliderPackSpec, index: int, avoid: Avoid) -> dict[str, Any]:
        attempts.append(avoid.attempt)
        return real(self, index, avoid)

    attempts.clear()
    monkeypatch.setattr(SliderPackSpec, "run_job", counted)
    assert len(build_pack(spec, out, exports=False)) == 1
    assert attempts == [1]  # the first attempt's failure is replayed, not run again
    assert not memo.path.exists()  # a complete pack holds its work itself


def test_a_memo_line_cut_short_by_a_kill_is_done_again(tmp_path: Path) -> None:
    memo = WorkMemo("cut", tmp_path)
    memo.put("a", {"n": 1})
    memo.put("b", {"n": 2})
    data = memo.path.read_bytes()
    memo.path.write_bytes(data[:-5])
    assert WorkMemo("cut", tmp_path).entries == {"a": {"n": 1}}


def test_a_survey_given_a_memo_draws_nothing_it_drew_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = PatternSpec(9, 7, "torus", max_seam_crossings=1, max_length=9, min_seam_lights=2, max_short_share=0.25,
                       allow_clutter=False)

    def survey() -> PatternSurvey:
        return PatternSurvey(spec, 3, lambda j: derive_seed(3, "pattern", j), memo=WorkMemo("draws", tmp_path))

    first = survey()
    keys = [first.get(n)[0] for n in range(6)]
    drawn: list[int] = []
    monkeypatch.setattr("mobius.generators.crossword.pattern_space.draw_patterns",
                        lambda spec, seeds: drawn.extend(seeds) or [])
    again = survey()
    assert [again.get(n)[0] for n in range(6)] == keys and drawn == [] and again.draws == first.draws


def test_a_kept_draw_that_breaks_the_rules_is_drawn_again(tmp_path: Path) -> None:
    spec = PatternSpec(9, 7, "torus", max_seam_crossings=1, max_length=9, min_seam_lights=2, max_short_share=0.25,
                       allow_clutter=False)
    seed = derive_seed(3, "pattern", 0)
    WorkMemo("draws", tmp_path).put(str(seed), {"rows": ["." * 9] * 7, "bars_right": [], "bars_below": []})
    survey = PatternSurvey(spec, 3, lambda j: derive_seed(3, "pattern", j), memo=WorkMemo("draws", tmp_path))
    survey.get(0)
    assert survey.grids and all(grid.blocks for grid in survey.grids.values())  # the open grid kept is not taken
