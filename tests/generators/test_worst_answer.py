"""Raising a fill's worst answer: the optimum found and the bound proven
agree with a brute-force enumeration of every fill of tiny grids and, on
small grids of the embedded list, with an independent engine (the SAT
backend) run to completion, the fill
stays valid by the independent `verify`, the result never scores below the
fill given and is the same for the same seed; a pack records it in each
puzzle and in the manifest, and its check refuses a record that lies."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import Fill, FillProblem, FillRules
from mobius.cpmodel.crossword.reference import ReferenceSolver
from mobius.cpmodel.crossword.sat import SatFillSolver
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status
from mobius.dictionaries import load
from mobius.dictionaries.wordlist import from_words
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import build_pack
from mobius.generators.crossword.quality import worst_answer_agrees
from mobius.generators.crossword.worst_answer import Probe, floored, raise_worst, worst_of

GRIDS = [(["...", "...", "..."], "plane"), (["...#", "....", "#..."], "plane"), (["....", "....", "...."], "mobius")]
ALL_THREE = ["".join(w) for w in itertools.product("ABE", repeat=3)]
THREE_AND_FOUR = ALL_THREE + ["".join(w) for w in itertools.product("ABE", repeat=4)]


def every_fill(problem: FillProblem) -> list[Fill]:
    """Every fill of the problem, by plain enumeration of words light by light."""
    lights = problem.lights.lights
    found: list[Fill] = []

    def place(i: int, letters: Fill, used: set[str]) -> None:
        if i == len(lights):
            found.append(dict(letters))
            return
        for word in problem.words.by_length(lights[i].length):
            fits = all(letters.get(c, ch) == ch for c, ch in zip(lights[i].cells, word))
            if fits and word not in used and problem.words.score(word) >= problem.rules.min_score:
                place(i + 1, {**letters, **dict(zip(lights[i].cells, word))}, used | {word})

    place(0, {}, set())
    return found


def best_worst(problem: FillProblem, fills: list[Fill]) -> int:
    return max(worst_of(problem, fill)[1] for fill in fills)


@given(grid=st.sampled_from(GRIDS), data=st.data())
@settings(max_examples=25, deadline=None)
def test_the_proven_optimum_is_the_brute_force_optimum(grid: tuple[list[str], str], data: st.DataObject) -> None:
    rows, surface = grid
    chosen = data.draw(st.lists(st.sampled_from(THREE_AND_FOUR), min_size=6, max_size=60, unique=True))
    scores = data.draw(st.lists(st.integers(0, 100), min_size=len(chosen), max_size=len(chosen)))
    words = from_words(chosen, scores)
    problem = FillProblem(make_grid(rows, surface), words, FillRules(min_length=3))
    fills = every_fill(problem)
    if not fills:
        return
    start = min(fills, key=lambda f: worst_of(problem, f)[1])  # the weakest fill: room to raise
    raised = raise_worst(problem, start, budget=100_000)
    assert verify(problem, raised.fill) == []
    assert raised.optimal and raised.score == raised.bound == best_worst(problem, fills)
    assert raised.score_before == worst_of(problem, start)[1] <= raised.score
    assert raise_worst(problem, start, budget=100_000) == raised


@given(chosen=st.lists(st.sampled_from(ALL_THREE), min_size=8, max_size=14, unique=True),
       seed=st.integers(0, 1000), budget=st.integers(0, 40))
@settings(max_examples=25, deadline=None)
def test_a_small_budget_never_lowers_the_worst_answer_and_its_bound_holds(chosen: list[str], seed: int,
                                                                          budget: int) -> None:
    words = from_words(chosen, [(37 * i + seed) % 101 for i in range(len(chosen))])
    problem = FillProblem(make_grid(["...", "...", "..."]), words, FillRules(min_length=3))
    fills = every_fill(problem)
    if not fills:
        return
    start, best = fills[seed % len(fills)], best_worst(problem, fills)
    raised = raise_worst(problem, start, budget=budget)
    assert verify(problem, raised.fill) == []
    assert raised.score >= worst_of(problem, start)[1]
    assert raised.backtracks <= budget + 1  # a probe stops at the backtrack past its share
    assert raised.bound >= best >= raised.score
    assert raised.optimal == (raised.score == best == raised.bound)


def test_a_proven_bound_on_the_embedded_list_is_confirmed_by_the_sat_backend() -> None:
    """Grids too big to enumerate: CaDiCaL, which shares no search code with
    the probes, finds no fill whose every answer scores above the bound, and
    one (the raised fill) at the score reached."""
    words = load("en", min_score=30)
    for rows, surface in ((["#....", ".....", ".....", "....#"], "plane"), (["....#", ".....", "#...."], "mobius")):
        problem = FillProblem(make_grid(rows, surface), words, FillRules(min_score=30))
        start = ReferenceSolver().solve(problem, seed=1).solution
        assert start is not None
        for budget in (20, 100_000):  # a bound proven early, and the optimum
            raised = raise_worst(problem, start, budget=budget)
            assert verify(problem, raised.fill) == []
            assert raised.score >= worst_of(problem, start)[1]
            if raised.bound < 100:
                assert SatFillSolver().solve(floored(problem, raised.bound + 1)).status is Status.UNSAT
        assert raised.optimal  # the whole budget proves these small grids
        assert SatFillSolver().solve(floored(problem, raised.score)).status is Status.SOLVED


def test_a_pack_records_the_worst_answer_in_each_puzzle_and_the_manifest(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=2, width=7, height=5, surface="mobius", seed=2)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    raised = list(puzzles.values())
    assert all("worst_answer" in p for p in raised)  # a mended fill is raised too
    for puzzle in raised:
        record = puzzle["worst_answer"]
        assert (record["answer"], record["score"]) == (puzzle["quality"]["lowest"]["answer"],
                                                      puzzle["quality"]["lowest"]["score"])
        assert record["bound"] >= record["score"] >= spec.fill_min_score
        assert spec.verify(puzzle) == []
        assert spec.verify({**puzzle, "worst_answer": {**record, "bound": record["score"] - 1}})
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    quality = manifest["quality"]
    assert quality["worst_answer_raised"] == len(raised)
    assert quality["worst_answer_optimal"] == sum(p["worst_answer"]["optimal"] for p in raised)
    scores = sorted(p["quality"]["lowest"]["score"] for p in puzzles.values())
    assert quality["lowest_median"] == sum(scores) / 2


def test_a_record_that_misnames_the_worst_answer_or_its_optimality_is_refused() -> None:
    entries = [{"answer": "CAT", "score": 40}, {"answer": "DOG", "score": 55}]
    good = {"answer": "CAT", "score": 40, "bound": 48, "optimal": False}
    assert worst_answer_agrees({"entries": entries, "worst_answer": good})
    assert worst_answer_agrees({"entries": entries})
    for bad in ({**good, "answer": "DOG"}, {**good, "score": 41}, {**good, "optimal": True},
                {**good, "bound": 39}):
        assert not worst_answer_agrees({"entries": entries, "worst_answer": bad})


def test_a_probe_passes_over_fills_with_two_answers_of_one_family() -> None:
    """Both fills of this square (one the other's transpose) hold MAN and MEN,
    which a pack refuses: the probe goes on past each and ends UNSAT."""
    words = from_words(["MAN", "EXY", "NZQ", "MEN", "AXZ", "NYQ"])
    problem = FillProblem(make_grid(["...", "...", "..."]), words, FillRules(min_length=3))
    assert len(every_fill(problem)) == 2
    assert ReferenceSolver().solve(problem).status is Status.SOLVED
    status, fill, spent = Probe(problem, 0).run(1_000, {})
    assert (status, fill) == ("UNSAT", None) and 0 < spent < 1_000
