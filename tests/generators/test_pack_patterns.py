"""`mobius pack crossword --patterns FILE_OR_DIR`: the pack fills the grids it is given, with every
guarantee a pack has (distinct fills, no repeated answer, clues, resume with the inputs fingerprinted),
and refuses in one line (exit 2) what cannot be a pack's grids."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mobius.cli import app
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.verify import verify
from mobius.generators.crossword import pack as crossword_pack
from mobius.generators.crossword.american import SUNDAY_FLOOR
from mobius.generators.crossword.fill_estimate import FillEstimate
from mobius.generators.crossword.given_grids import read_given
from mobius.generators.crossword.grid_walk import (EASY_LOG_FILLS, GIVEN_TRIES, HOPELESS_LOG_FILLS,
                                                   LAST_RESORT_FAILURES, GridWalk)
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.crossword.pattern_space import canonical_key
from mobius.generators.crossword.plan import CrosswordJob, pattern_of
from mobius.generators.executors import PuzzleFailed
from mobius.generators.pack import build_pack
from mobius.generators.rounds import ROUND_SIZE

VANBEEK = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "crossword" / "vanbeek"
GRIDS = {"a.txt": "....#\n.....\n.....\n.....\n#....\n", "b.txt": "...##\n....#\n.....\n#....\n##...\n"}


def grids_dir(tmp_path: Path, grids: dict[str, str] = GRIDS) -> Path:
    folder = tmp_path / "grids"
    folder.mkdir()
    for name, text in grids.items():
        (folder / name).write_text(text)
    (folder / "notes.md").write_text("not a grid\n")  # a file of another kind is left out
    return folder


def pack(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["pack", "crossword", *map(str, args)])
    return result.exit_code, result.stderr.strip()


def test_a_pack_of_given_grids_uses_only_them_and_repeats_no_answer(tmp_path: Path) -> None:
    folder = grids_dir(tmp_path)
    out = tmp_path / "pack"
    run = subprocess.run([sys.executable, "-m", "mobius", "pack", "crossword", "--patterns", str(folder),
                          "--count", "4", "--workers", "1", "--out", str(out)], capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    assert "note: the pack fills the 2 5x5 plane grids given (--patterns, 2 distinct)" in run.stderr
    puzzles = [json.loads(p.read_text()) for p in sorted((out / "puzzles").glob("*.json"))]
    given = {tuple(text.split()) for text in GRIDS.values()}
    assert len(puzzles) == 4 and {tuple(pattern_of(p).rows) for p in puzzles} == given  # each grid, no other
    answers = [e["answer"] for p in puzzles for e in p["entries"]]
    assert len(answers) == len(set(answers)) and all(e["clue"] for p in puzzles for e in p["entries"])
    assert len({"/".join(p["rows"]) for p in puzzles}) == 4
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["inputs"]["--patterns"]["source"] == str(folder)
    assert [g["puzzles"] for g in manifest["patterns"]["given"]] in ([2, 2], [1, 3], [3, 1])
    assert all(g["outcome"].startswith("filled ") for g in manifest["patterns"]["given"])
    (folder / "b.txt").write_text("....#\n.....\n.....\n.....\n#....\n")  # the file changed since
    code, line = pack("--patterns", folder, "--count", "4", "--workers", "1", "--out", out, "--resume")
    assert code == 2 and f"--patterns {folder} changed since the pack was started" in line


def test_a_puzzle_whose_grid_was_not_given_fails_the_check(tmp_path: Path) -> None:
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=1, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows[:1])
    puzzle = build_pack(spec, tmp_path / "p", exports=False)[0]
    assert spec.verify(puzzle) == []
    other = CrosswordPackSpec(count=1, width=5, height=5, surface="plane", patterns=given.rows[1:])
    assert "its grid is none of the grids given by --patterns" in other.verify(puzzle)


def test_the_shortest_light_is_three_unless_a_grid_has_shorter_runs(tmp_path: Path) -> None:
    assert read_given([VANBEEK / "15.01.txt", VANBEEK / "15.10.txt"]).min_length == 3
    twos = tmp_path / "twos.txt"
    twos.write_text("..#..\n.....\n#...#\n.....\n..#..\n")
    assert read_given([VANBEEK / "05.01.txt", twos]).min_length == 2


@pytest.mark.parametrize(("grids", "expected"), [
    ({"a.txt": ".....\n.....\n.....\n.....\n.....\n", "b.txt": "...\n...\n...\n"},
     "b.txt: a 3x3 plane grid, where {folder}/a.txt is 5x5 plane: the grids of --patterns share one size and surface"),
    ({"a.txt": "CAT..\n.....\n.....\n.....\n.....\n"}, "a.txt: row 1 has letters; --patterns takes empty grids"),
    ({"a.txt": ".#...\n#....\n.....\n.....\n.....\n"},
     "a.txt: the white cell at column 1, row 1 is in no light"),
])
def test_grids_that_cannot_be_a_packs_are_refused_in_one_line(tmp_path: Path, grids: dict[str, str],
                                                              expected: str) -> None:
    folder = grids_dir(tmp_path, grids)
    code, line = pack("--patterns", folder, "--out", tmp_path / "p")
    assert code == 2 and "\n" not in line
    assert expected.format(folder=folder) in line
    assert not (tmp_path / "p").exists()


def test_a_directory_without_grids_and_a_conflicting_size_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, line = pack("--patterns", empty, "--out", tmp_path / "p")
    assert code == 2 and line == f"mobius: error: {empty}: no grid file in this directory (expected names ending " \
                                 ".txt, .json, .qxw)"
    code, line = pack("--patterns", VANBEEK / "05.01.txt", "--width", "7", "--out", tmp_path / "p")
    assert code == 2 and "--width 7 conflicts with the grids of --patterns, which are 5x5 plane" in line
    code, line = pack("--patterns", VANBEEK / "05.01.txt", "--surface", "torus", "--out", tmp_path / "p")
    assert code == 2 and "--surface torus conflicts" in line


def test_a_given_grid_expected_to_fill_too_rarely_is_still_tried(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=2, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows)
    plan = spec.plan()
    keys = plan.survey.order
    estimate = FillEstimate(spec.words())
    # the walk's first grid fills; the other is hopeless, which a drawn grid would not be tried for
    monkeypatch.setattr(estimate, "log_fills", lambda grid, *_: EASY_LOG_FILLS if canonical_key(grid) == keys[0]
                        else HOPELESS_LOG_FILLS - 1)
    walk = GridWalk(plan.survey, estimate, spec.min_length, 1, lambda note: None)
    assert walk.next_grid(0, frozenset()) == keys[0]
    walk.accepted(0)
    assert walk.next_grid(1, frozenset()) == keys[1] and not walk.exhausted


def test_each_given_grid_says_how_it_fared(tmp_path: Path) -> None:
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=3, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows, solver="reference:max_backtracks=500")
    plan = spec.plan()
    tried = []  # the grid of each attempt: one ran out of its budget, the other was proven to have no fill
    for index, (reason, proven) in enumerate([("no fill of its grid from en (ran out of the fill budget)", False),
                                              ("no fill of its grid from en (proven: none exists)", True)]):
        tried.append(plan.job_input(index, 0).assignment.pattern)
        plan.failed(index, reason, puzzle=None, proven=proven)
    report = {canonical_key(pattern_of({"rows": rows, "surface": "plane"})): grid
              for rows, grid in zip(given.rows, plan.report({})["patterns"]["given"])}
    budget, proven = (report[key] for key in tried)
    assert budget["outcome"] == ("no fill in 1 attempt: 1 attempt found no fill within the fill budget, at most "
                                 "500 backtracks (--solver reference:max_backtracks=1000 raises it)")
    assert budget["failed"] == {"budget": 1}
    assert proven["outcome"].startswith("proven to have no fill from ") and proven["failed"] == {"proven": 1}


def test_a_grid_whose_fills_keep_being_refused_is_not_reused_forever(tmp_path: Path) -> None:
    # Two given grids: one fills at every other attempt, the other once and then never (a solver whose
    # fill of it is the same each time, refused each time). Neither is retired (a given grid that filled
    # is retired only when proven to have no fill), yet most attempts must go to the one that goes on
    # filling: the other comes last once it fails more than LAST_RESORT_FAILURES times a fill.
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=30, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows)
    walk = GridWalk(spec.plan().survey, FillEstimate(spec.words()), spec.min_length, 1, lambda note: None)
    first = walk.next_grid(0, frozenset())
    walk.accepted(0)
    second = walk.next_grid(1, frozenset())
    walk.accepted(1)
    refused = made = 0
    for index in range(2, 42):
        key = walk.next_grid(index, frozenset())
        assert key in (first, second)
        if key == first or index % 2 == 0:
            walk.failed(index, proven=False)
            refused += key == first
        else:
            walk.accepted(index)
            made += 1
    assert not walk.retired
    assert refused <= LAST_RESORT_FAILURES + 1 and made >= 12


def test_a_family_pair_no_mend_can_part_gets_a_new_fill_without_the_word(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=1, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows)
    problem = FillProblem(make_grid(given.rows[0], "plane"), spec.words(), spec.rules())
    job = CrosswordJob(given.rows[0], "", fill_seed=3, share=0, excluded=frozenset(), penalties={})
    fill, stats = spec._fill(problem, job)
    one, two = sorted(problem.entries(fill))[:2]  # taken for one family
    monkeypatch.setattr(crossword_pack, "family_pair",
                        lambda answers: (one, two) if {one, two} <= set(answers) else None)
    monkeypatch.setattr(crossword_pack, "repair", lambda *args, **kwargs: None)  # no mend parts them
    mended_problem, mended, _ = spec._one_of_a_family(problem, fill, stats, job)
    dropped = min((one, two), key=lambda word: (problem.words.score(word), word))
    assert dropped in mended_problem.rules.excluded and dropped not in problem.entries(mended)
    assert verify(mended_problem, mended) == []
    monkeypatch.setattr(crossword_pack, "FAMILY_REFILLS", 0)
    with pytest.raises(PuzzleFailed, match="no mend of either"):
        spec._one_of_a_family(problem, fill, stats, job)


def test_a_given_grid_gets_its_tries_the_last_in_the_plain_order_before_the_walk_moves_on(tmp_path: Path) -> None:
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=2, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows)
    plan = spec.plan()
    jobs = []
    for attempt in range(GIVEN_TRIES + 1):
        jobs.append(plan.job_input(0, attempt).assignment)
        plan.failed(0, "no fill of its grid from en (ran out of the fill budget)", puzzle=None, proven=False)
    first = jobs[0].pattern
    assert [job.pattern for job in jobs[:GIVEN_TRIES]] == [first] * GIVEN_TRIES and jobs[-1].pattern != first
    assert [job.plain for job in jobs] == [False] * (GIVEN_TRIES - 1) + [True, False]
    assert len({job.fill_seed for job in jobs}) == len(jobs)
    assert "choices=1," in spec._solver_spec(1.0, plain=True) and "choices=8," in spec.solver_spec


def test_given_grids_reach_down_to_the_sundays_floor_preferring_the_words_met_in_print(tmp_path: Path) -> None:
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=1, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows)
    assert (spec.fill_min_score, spec.level.prefer, spec.parameters()["min_score"]) == (SUNDAY_FLOOR, 30, 25)
    asked = dataclasses.replace(spec, min_score=30)  # --min-score given holds everywhere
    assert (asked.fill_min_score, asked.level.prefer) == (30, None)


def test_given_grids_keep_the_demand_they_set_whatever_the_fills_made(tmp_path: Path) -> None:
    # The policy of a given-grid pack is decided from every grid given; fills heavy in three-letter
    # answers do not widen it to let them recur (a drawn pack's would be: its first draws are a sample).
    given = read_given([grids_dir(tmp_path)])
    spec = CrosswordPackSpec(count=ROUND_SIZE, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows)
    plan = spec.plan()
    unique = plan.policy
    assert not unique.gaps
    short = sorted(word for word in spec.words().words if len(word) == 3)
    for index in range(ROUND_SIZE):  # each "puzzle" holds every three-letter word: far beyond half the supply
        plan.job_input(index, 0)
        plan.record(index, {"rows": [f"fill {index}"], "entries": [{"answer": word, "clue": ""} for word in short]})
    assert plan.policy == unique


@pytest.mark.parametrize("seed", range(4))
def test_given_grids_are_walked_hardest_first_whatever_the_seed(tmp_path: Path, seed: int) -> None:
    # 5x5 grids from open (the hardest: ten lights of five letters) to blocked corners (the easiest)
    grids = {"a.txt": "....#\n.....\n.....\n.....\n#....\n", "b.txt": ".....\n.....\n.....\n.....\n.....\n",
             "c.txt": "...##\n....#\n.....\n#....\n##...\n"}
    given = read_given([grids_dir(tmp_path, grids)])
    spec = CrosswordPackSpec(count=3, width=5, height=5, surface="plane", min_length=given.min_length,
                             patterns=given.rows, seed=seed)
    plan = spec.plan()
    estimate = FillEstimate(spec.words())
    walked = [plan.survey.get(n)[1] for n in range(3)]
    assert [grid.rows for grid in walked] == [given.rows[1], given.rows[0], given.rows[2]]
    assert sorted(walked, key=lambda grid: estimate.log_fills(grid, spec.min_length)) == walked
