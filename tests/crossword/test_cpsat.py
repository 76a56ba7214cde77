"""Tests for mobius.cpmodel.crossword.cpsat: the CP-SAT fill solver.

Small grids on the plane, Möbius strip, torus and Klein bottle with tiny
hand-made dictionaries. Every fill is checked with the independent `verify`;
SAT/UNSAT answers are checked by hand or against a brute-force enumeration
written here, which shares no code with the solver.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from ortools.sat.python import cp_model

from mobius.cpmodel.crossword import cpsat
from mobius.cpmodel.crossword.cpsat import SEARCHES, CpSatFillSolver
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import Fill, FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import SolveResult, Status, get_solver
from mobius.dictionaries import from_words, load

PREPASSES = ("ac3", "none")
STATS_KEYS = {"conflicts", "branches", "presolve_s", "table_rows", "table_rows_initial", "build_s"}


def problem(rows: list[str], words: list[str], surface: str = "plane", scores: list[int] | None = None,
            **rules: object) -> FillProblem:
    return FillProblem(make_grid(rows, surface), from_words(words, scores, name="test"), FillRules(**rules))


def all_fills(prob: FillProblem) -> Iterator[Fill]:
    """Every fill, by trying each allowed word in each light in turn."""
    lights = prob.lights.lights
    grid = prob.grid
    candidates = {light.length: [w for w in prob.words.by_length(light.length)
                                 if prob.words.score(w) >= prob.rules.min_score] for light in lights}

    def extend(index: int, fill: Fill, used: list[str]) -> Iterator[Fill]:
        if index == len(lights):
            yield {**grid.letters, **fill}
            return
        cells = lights[index].cells
        for word in candidates[lights[index].length]:
            if not prob.rules.allow_repeats and word in used:
                continue
            if any(fill.get(c, ch) != ch or grid.letter(c) not in (None, ch) for c, ch in zip(cells, word)):
                continue
            yield from extend(index + 1, {**fill, **dict(zip(cells, word))}, [*used, word])

    yield from extend(0, {}, [])


def total_score(prob: FillProblem, fill: Fill) -> int:
    return sum(prob.words.score(word) for word in prob.entries(fill))


def rows_of(fill: Fill, size: int) -> list[str]:
    return ["".join(fill[(x, y)] for x in range(size)) for y in range(size)]


def solve(prob: FillProblem, hint: Fill | None = None, **options: object) -> SolveResult:
    result = CpSatFillSolver(**options).solve(prob, time_limit=10, hint=hint)
    assert STATS_KEYS <= result.stats.keys()
    if result.status is Status.SOLVED:
        assert verify(prob, result.solution) == []
    return result


# --- hand-made cases -------------------------------------------------------------------


@pytest.mark.parametrize("prepass", PREPASSES)
def test_plane_two_by_two(prepass: str) -> None:
    prob = problem(["..", ".."], ["AB", "CD", "AC", "BD"])
    result = solve(prob, prepass=prepass)
    assert result.status is Status.SOLVED
    assert result.solver == "cpsat"
    assert sorted(prob.entries(result.solution)) == ["AB", "AC", "BD", "CD"]


@pytest.mark.parametrize("prepass", PREPASSES)
def test_plane_unsat(prepass: str) -> None:
    # Rows and columns must be two disjoint pairs of words: {AB, CD, AC} cannot.
    result = solve(problem(["..", ".."], ["AB", "CD", "AC"]), prepass=prepass)
    assert result.status is Status.UNSAT
    assert result.solution is None


@pytest.mark.parametrize("prepass", PREPASSES)
def test_mobius_loop_reads_both_rows(prepass: str) -> None:
    # On a 3x2 Möbius strip the across light is one loop: row 0 then row 1.
    prob = problem(["...", "..."], ["ABCDEF", "AD", "BE", "CF"], "mobius")
    result = solve(prob, prepass=prepass)
    assert result.status is Status.SOLVED
    assert [result.solution[(x, y)] for y in range(2) for x in range(3)] == list("ABCDEF")


@pytest.mark.parametrize("prepass", PREPASSES)
def test_mobius_unsat(prepass: str) -> None:
    result = solve(problem(["...", "..."], ["ABCDEF", "AD", "BE", "CG"], "mobius"), prepass=prepass)
    assert result.status is Status.UNSAT


@pytest.mark.parametrize("prepass", PREPASSES)
def test_repeat_needed(prepass: str) -> None:
    # The only fill is the symmetric word square: every word twice.
    words = ["CAT", "ARE", "TEN"]
    assert solve(problem(["...", "...", "..."], words), prepass=prepass).status is Status.UNSAT
    result = solve(problem(["...", "...", "..."], words, allow_repeats=True), prepass=prepass)
    assert result.status is Status.SOLVED
    assert rows_of(result.solution, 3) == ["CAT", "ARE", "TEN"]


def test_prefilled_letters_are_kept() -> None:
    words = ["AB", "CD", "AC", "BD"]
    result = solve(problem(["AC", ".."], words))
    assert result.status is Status.SOLVED
    assert rows_of(result.solution, 2) == ["AC", "BD"]
    assert solve(problem(["Z.", ".."], words)).status is Status.UNSAT


def test_prefilled_letter_outside_any_light_is_in_the_fill() -> None:
    prob = problem(["A#", "##"], ["AB"])
    result = solve(prob)
    assert result.status is Status.SOLVED
    assert result.solution == {(0, 0): "A"}


def test_min_score_removes_words() -> None:
    words, scores = ["AB", "CD", "AC", "BD"], [90, 90, 90, 10]
    assert solve(problem(["..", ".."], words, scores=scores, min_score=20)).status is Status.UNSAT
    assert solve(problem(["..", ".."], words, scores=scores, min_score=10)).status is Status.SOLVED


def test_arc_consistency_shrinks_tables() -> None:
    # No word starts with Z or ends with Q, so QZ fits no light of a 2x2
    # grid: AC-3 drops it everywhere, the unary pass keeps it.
    prob = problem(["..", ".."], ["AB", "CD", "AC", "BD", "QZ"])
    with_ac3 = solve(prob, prepass="ac3")
    without = solve(prob, prepass="none")
    assert with_ac3.status is without.status is Status.SOLVED
    assert with_ac3.stats["table_rows_initial"] == without.stats["table_rows_initial"] == 20
    assert without.stats["table_rows"] == 20
    assert with_ac3.stats["table_rows"] <= 16


def test_ac3_proves_unsat_before_cpsat() -> None:
    result = solve(problem(["..", ".."], ["AB", "CD", "XY"]), prepass="ac3")
    assert result.status is Status.UNSAT
    assert result.stats["table_rows"] == 0


# --- brute-force cross-checks on small surfaces -----------------------------------------

SURFACE_GRIDS = [
    ("plane", ["...", ".#.", "..."]),
    ("mobius", ["...", "..."]),
    ("torus", ["...", ".#.", "..."]),
    ("klein", ["..#", "..."]),
    ("cylinder", ["..", ".."]),
]


def random_words(rng: random.Random, lengths: set[int], count: int, alphabet: str) -> list[str]:
    return ["".join(rng.choice(alphabet) for _ in range(length)) for length in sorted(lengths) for _ in range(count)]


@pytest.mark.parametrize(("surface", "rows"), SURFACE_GRIDS)
@pytest.mark.parametrize("seed", range(4))
def test_matches_brute_force(surface: str, rows: list[str], seed: int) -> None:
    rng = random.Random(seed)
    lengths = {light.length for light in problem(rows, ["A"], surface).lights.lights}
    prob = problem(rows, random_words(rng, lengths, 6, "ABC"), surface)
    expected = next(all_fills(prob), None) is not None
    for prepass, search in itertools.product(PREPASSES, SEARCHES):
        result = solve(prob, prepass=prepass, search=search, workers=1)
        assert result.status is (Status.SOLVED if expected else Status.UNSAT), (surface, seed, prepass, search)
    # Tables cut to one word per light and grown: a fill is a fill, and UNSAT is still a proof.
    result = solve(prob, prepass=prepass, tables="grow", grow_from=1)
    assert result.status is (Status.SOLVED if expected else Status.UNSAT), (surface, seed, "grow")


def test_grown_tables_reach_words_beyond_the_first_cut() -> None:
    """The best-scored words cannot fill the grid, so the cut grows until the fill's words are in."""
    prob = problem(["..", ".."], ["AA", "BB", "AB", "CD", "AC", "BD"], scores=[90, 90, 10, 10, 10, 10])
    result = solve(prob, tables="grow", grow_from=1)
    assert result.status is Status.SOLVED
    assert result.stats["grow_rounds"] >= 2 and result.stats["grow_cap"] >= 2
    assert sorted(prob.entries(result.solution)) == ["AB", "AC", "BD", "CD"]


def test_grown_tables_prove_unsat_only_once_whole() -> None:
    """Without the pre-pass every light keeps all four words: the UNSAT answer comes from the uncut round."""
    prob = problem(["..", ".."], ["AB", "CD", "AC", "BE"])
    result = solve(prob, prepass="none", tables="grow", grow_from=1)
    assert result.status is Status.UNSAT
    assert result.stats["grow_cap"] >= 4


def test_a_maximising_fill_of_a_cut_table_is_not_called_optimal() -> None:
    three = [w for w in load("en-small").words if len(w) == 3][:300]
    prob = FillProblem(make_grid(["...", "...", "..."], "plane"), from_words(three, name="three"))
    cut = solve(prob, maximize=True, tables="grow", grow_from=8)
    assert cut.status is Status.SOLVED and cut.stats["grow_cap"] < 300 and cut.optimal is False
    assert solve(prob, maximize=True).optimal is True


def test_auto_grows_only_plain_fills_above_the_row_count(monkeypatch: pytest.MonkeyPatch) -> None:
    prob = problem(["..", ".."], ["AB", "CD", "AC", "BD"])
    assert "grow_rounds" not in solve(prob).stats
    monkeypatch.setattr(cpsat, "GROW_ABOVE_ROWS", 3)
    assert solve(prob).stats["grow_rounds"] >= 1
    assert "grow_rounds" not in solve(prob, maximize=True).stats


def test_brute_force_cases_cover_sat_and_unsat() -> None:
    """The cross-check above is only worth something if it sees both answers."""
    answers = set()
    for surface, rows in SURFACE_GRIDS:
        lengths = {light.length for light in problem(rows, ["A"], surface).lights.lights}
        for seed in range(4):
            words = random_words(random.Random(seed), lengths, 6, "ABC")
            answers.add(next(all_fills(problem(rows, words, surface)), None) is not None)
    assert answers == {True, False}


@pytest.mark.parametrize("presolve", cpsat.PRESOLVES)
@pytest.mark.parametrize("surface", ["plane", "torus", "mobius"])
def test_maximize_finds_the_best_total_score(surface: str, presolve: str) -> None:
    rng = random.Random(7)
    lengths = {light.length for light in problem(["..", ".."], ["A"], surface).lights.lights}
    words = ["".join(letters) for n in sorted(lengths) for letters in itertools.product("ABC", repeat=n)]
    prob = problem(["..", ".."], words, surface, scores=[rng.randrange(0, 101) for _ in words])
    best = max(total_score(prob, fill) for fill in all_fills(prob))
    result = solve(prob, maximize=True, presolve=presolve)
    assert result.status is Status.SOLVED
    assert total_score(prob, result.solution) >= best
    assert result.stats["objective"] == total_score(prob, result.solution)
    assert result.optimal is True


# --- parameters ------------------------------------------------------------------------


def hard_problem(seed: int = 0) -> FillProblem:
    """A 5x5 open grid with 1,500 random five-letter words: slow to decide."""
    rng = random.Random(seed)
    return problem(["....."] * 5, random_words(rng, {5}, 1500, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))


def test_time_limit_gives_timeout() -> None:
    result = CpSatFillSolver().solve(hard_problem(), time_limit=0.3)
    assert result.status is Status.TIMEOUT
    assert result.solution is None


def test_seeded_runs_are_deterministic() -> None:
    rng = random.Random(3)
    prob = problem(["....", "....", "....", "...."], random_words(rng, {4}, 300, "ABCDE"))
    first = CpSatFillSolver(workers=1).solve(prob, seed=5)
    second = CpSatFillSolver(workers=1).solve(prob, seed=5)
    assert first.status is Status.SOLVED
    assert verify(prob, first.solution) == []
    assert first.solution == second.solution
    assert (first.stats["conflicts"], first.stats["branches"]) == (second.stats["conflicts"], second.stats["branches"])


def test_child_false_solves_in_this_process_to_the_same_fill(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    prob = problem(["....", "....", "....", "...."], random_words(rng, {4}, 300, "ABCDE"))
    for maximize in (False, True):
        forked = CpSatFillSolver(workers=1, maximize=maximize).solve(prob, seed=2)
        with monkeypatch.context() as patched:
            patched.setattr(cpsat, "call_before", lambda *_: pytest.fail("child=False forked a child"))
            own = CpSatFillSolver(workers=1, maximize=maximize, child=False).solve(prob, seed=2)
            with pytest.raises(pytest.fail.Exception, match="forked a child"):
                CpSatFillSolver(workers=1, maximize=maximize).solve(prob, seed=2)
        assert own.status is forked.status is Status.SOLVED
        assert own.solution == forked.solution and verify(prob, own.solution) == []


def test_hint_is_followed_without_presolve() -> None:
    # CP-SAT's presolve may not carry a partial hint through (it returned the
    # other fill here), so only the presolve-free run is held to the hint.
    prob = problem(["..", ".."], ["AB", "CD", "AC", "BD"])
    for rows in (["AB", "CD"], ["AC", "BD"]):
        hint = {(x, y): rows[y][x] for y in range(2) for x in range(2)}
        assert CpSatFillSolver(presolve="off").solve(prob, hint=hint).solution == hint
        assert solve(prob, hint=hint).status is Status.SOLVED


def test_registry_builds_variants() -> None:
    solver = get_solver("crossword", "cpsat:workers=2,maximize=true,prepass=none")
    assert isinstance(solver, CpSatFillSolver)
    assert (solver.name, solver.workers, solver.maximize, solver.prepass) == ("cpsat", 2, True, "none")


@pytest.mark.parametrize("presolve", ["light", "off", "full"])
def test_presolve_settings_agree(presolve: str) -> None:
    assert solve(problem(["..", ".."], ["AB", "CD", "AC", "BD"]), presolve=presolve).status is Status.SOLVED
    assert solve(problem(["...", "..."], ["ABCDEF", "AD", "BE", "CG"], "mobius"), presolve=presolve,
                 prepass="none").status is Status.UNSAT


@pytest.mark.parametrize("presolve", ["light", "full"])
def test_light_presolve_leaves_out_the_objective_rewrite(presolve: str) -> None:
    """CP-SAT's log names each presolve step it runs: under "light" the objective's rewrite over a
    table's row literals (quadratic in the rows, 0.6 s of a pack grid's maximising fill) must not
    be among them, and under CP-SAT's own presolve it is, so the log is read right."""
    model = cp_model.CpModel()
    letter, score = model.new_int_var(0, 25, "letter"), model.new_int_var(0, 100, "score")
    model.add_allowed_assignments([letter, score], [(i, (7 * i) % 101) for i in range(26)])
    model.maximize(score)
    solver = CpSatFillSolver(maximize=True, presolve=presolve)._cp_solver(seed=0, time_limit=None)
    assert solver.solve(model) == cp_model.OPTIMAL and solver.value(score) == max((7 * i) % 101 for i in range(26))
    assert ("[ExpandObjective]" in solver.response_proto.solve_log) is (presolve == "full")


@pytest.mark.parametrize("options", [{"workers": 0}, {"prepass": "ac4"}, {"presolve": "heavy"},
                                     {"search": "dfs"}, {"tables": "some"}, {"grow_from": 0}])
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        CpSatFillSolver(**options)


def test_deterministic_time_budget_is_accepted_and_repeatable() -> None:
    """A search that needs thousands of branches: within the budget twice the same verified fill, and
    a budget too small for it is a timeout."""
    three = [w for w in load("en-small").words if len(w) == 3][:300]
    problem = FillProblem(make_grid(["...", "...", "..."], "plane"), from_words(three, name="three"))
    # CP-SAT's own search: the first-fail search fills this grid in a few branches
    runs = [get_solver("crossword", "cpsat:search=cpsat,deterministic_time=2.0").solve(problem, seed=3)
            for _ in range(2)]
    assert runs[0].status is runs[1].status is Status.SOLVED and runs[0].stats["branches"] > 0
    assert runs[0].solution == runs[1].solution and verify(problem, runs[0].solution) == []
    assert runs[0].stats["deterministic_time"] <= 2.0
    cut = get_solver("crossword", "cpsat:search=cpsat,deterministic_time=0.001").solve(problem, seed=3)
    assert cut.status is Status.TIMEOUT


# --- excluded words and penalties ---------------------------------------------------------


def test_excluded_words_are_never_used_and_can_make_a_grid_unsat() -> None:
    words = ["AB", "CD", "AC", "BD", "XY"]
    assert solve(problem(["..", ".."], words)).status is Status.SOLVED
    assert solve(problem(["..", ".."], words, excluded=frozenset({"AC"}))).status is Status.UNSAT


@pytest.mark.parametrize("surface", ["plane", "torus"])
def test_the_objective_weighs_scores_less_penalties(surface: str) -> None:
    rng = random.Random(11)
    lengths = {light.length for light in problem(["..", ".."], ["A"], surface).lights.lights}
    words = ["".join(letters) for n in sorted(lengths) for letters in itertools.product("ABC", repeat=n)]
    plain = problem(["..", ".."], words, surface, scores=[rng.randrange(0, 101) for _ in words])
    penalties = {w: rng.randrange(-20, 60) for w in words if rng.random() < 0.5}
    weighed = FillProblem(plain.grid, plain.words, plain.rules, penalties)

    def net(fill: Fill) -> int:
        return sum(plain.words.score(w) - penalties.get(w, 0) for w in plain.entries(fill))

    result = solve(weighed, maximize=True)
    assert result.status is Status.SOLVED and result.optimal is True
    assert net(result.solution) == max(net(fill) for fill in all_fills(plain)) == result.stats["objective"]
