"""The reference filler finds fills `verify` accepts, proves by-hand UNSAT
cases, keeps the rules (prefilled letters, no repeats, minimum score), agrees
with itself across every strategy, is deterministic per seed and stops at its
deadline."""

from __future__ import annotations

import itertools
import random

import pytest

from mobius.cpmodel.crossword import reference
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.picks import pick_index
from mobius.cpmodel.crossword.problem import Fill, FillProblem, FillRules
from mobius.cpmodel.crossword.propagation import Wipeout, build_network, initial_domains, length_index
from mobius.cpmodel.crossword.reference import ReferenceSolver, luby
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import Status, get_solver
from mobius.dictionaries import from_words

STRATEGIES = [{"select": s, "inference": i, "randomize": r, "restarts": t}
              for s, i, r, t in itertools.product(("mrv", "domwdeg"), ("fc", "ac3"), (False, True), (False, True))]


def make_problem(rows: list[str], words: list[str], surface: str = "plane", scores: list[int] | None = None,
                 **rules: object) -> FillProblem:
    return FillProblem(make_grid(rows, surface), from_words(words, scores), FillRules(**rules))


def entries_of(rows: list[str], surface: str = "plane") -> list[str]:
    """The words a fully lettered grid reads, light by light."""
    grid = make_grid(rows, surface)
    lettered = FillProblem(grid, from_words(["A"]))
    return lettered.entries(grid.letters)


def solve_checked(problem: FillProblem, **options: object) -> Fill | None:
    """Solve; a SOLVED fill must pass `verify`, anything else must be UNSAT."""
    result = ReferenceSolver(**options).solve(problem, time_limit=20)
    if result.status is Status.SOLVED:
        assert verify(problem, result.solution) == []
        return result.solution
    assert result.status is Status.UNSAT and result.solution is None
    return None


def parity_problem(width: int, height: int) -> FillProblem:
    """An open grid over {A, B}: rows are the words with an odd number of B,
    columns those with an even number. Counting the B's by rows gives
    `height` odd numbers, by columns even ones: when `height` is odd no fill
    exists, but arc consistency cannot see it, so search must exhaust it."""
    def words(length: int, parity: int) -> list[str]:
        return ["".join(w) for w in itertools.product("AB", repeat=length) if w.count("B") % 2 == parity]
    return make_problem(["." * width] * height, words(width, 1) + words(height, 0), allow_repeats=True)


# --- small cases with known answers -----------------------------------------------

def test_plane_word_square_is_found() -> None:
    fill = solve_checked(make_problem(["..", ".."], ["AB", "CD", "AC", "BD", "XY"]))
    square = {(0, 0): "A", (1, 0): "B", (0, 1): "C", (1, 1): "D"}
    assert fill in (square, {(y, x): letter for (x, y), letter in square.items()})


def test_plane_without_fitting_down_words_is_unsat() -> None:
    assert solve_checked(make_problem(["..", ".."], ["AB", "CD", "XY"])) is None


def test_mobius_loop_and_double_crossings_are_filled() -> None:
    # On a 4×3 Möbius strip rows 0 and 2 form one cyclic light of 8 cells,
    # which shares two cells with every down light; row 1 is a loop of 4.
    rows = ["CATS", "AREA", "TEND"]
    words = entries_of(rows, "mobius")
    assert sorted(words) == ["ARE", "AREA", "CAT", "CATSTEND", "SAD", "TEN"]
    problem = make_problem(["....", "....", "...."], [*words, "DOGS", "SEA", "ERA"], "mobius")
    assert any(light.cyclic and light.length == 8 for light in problem.lights.lights)
    fill = solve_checked(problem)
    assert fill == {(x, y): rows[y][x] for x in range(4) for y in range(3)}


def test_mobius_with_no_consistent_loop_word_is_unsat() -> None:
    # Row 1 forces the columns to CAT/SAD, ARE, TEN, so the loop must read
    # CATSTEND or SATCDENT; neither is in the list.
    problem = make_problem(["....", "....", "...."], ["CATSTENT", "AREA", "CAT", "ARE", "TEN", "SAD"], "mobius")
    assert solve_checked(problem) is None


def test_torus_fill_wraps_round_both_ways() -> None:
    # The torus joins row 0's (2,0),(3,0) to (0,0) across the seam (ASP);
    # columns 0, 2, 3 and rows 1, 2 are loops. On the plane row 0 would need
    # a 2-letter word AS, which the list lacks.
    rows = ["P#AS", "IRON", "EARS"]
    words = entries_of(rows, "torus")
    assert words == ["PIE", "ASP", "AOR", "SNS", "IRON", "RA", "EARS"]
    problem = make_problem([".#..", "....", "...."], words, "torus")
    assert solve_checked(problem) == {cell: letter for cell, letter in make_grid(rows).letters.items()}
    assert solve_checked(make_problem([".#..", "....", "...."], words, "plane")) is None


def test_parity_grid_is_unsat_after_search() -> None:
    result = ReferenceSolver().solve(parity_problem(4, 3), time_limit=20)
    assert result.status is Status.UNSAT
    assert result.stats["nodes"] > 0  # not caught by the initial AC-3


def test_light_length_without_words_is_unsat_not_an_error() -> None:
    result = ReferenceSolver().solve(make_problem(["...", "..."], ["AB", "CD"]))
    assert result.status is Status.UNSAT


def test_grid_without_lights_is_solved_with_its_prefilled_letters() -> None:
    problem = FillProblem(make_grid(["A#", "#."]), from_words(["AB"]))
    result = ReferenceSolver().solve(problem)
    assert result.status is Status.SOLVED and result.solution == {(0, 0): "A"}


# --- rules ---------------------------------------------------------------------------

def test_prefilled_letters_are_kept() -> None:
    words = ["AB", "CD", "AC", "BD", "EF", "GH", "EG", "FH"]
    assert solve_checked(make_problem(["..", ".."], words))[(0, 0)] == "A"
    fill = solve_checked(make_problem(["..", ".H"], words))
    assert (fill[(0, 0)], fill[(1, 1)]) == ("E", "H")


def test_fill_only_possible_with_a_repeat_needs_allow_repeats() -> None:
    # Across AB/BC forces down AB/BC: the symmetric square is the only fill.
    assert solve_checked(make_problem(["..", ".."], ["AB", "BC"])) is None
    fill = solve_checked(make_problem(["..", ".."], ["AB", "BC"], allow_repeats=True))
    assert fill == {(0, 0): "A", (1, 0): "B", (0, 1): "B", (1, 1): "C"}


def test_two_lights_forced_to_the_same_word() -> None:
    rows = ["...", "###", "..."]
    assert solve_checked(make_problem(rows, ["CAT"])) is None
    assert solve_checked(make_problem(rows, ["CAT", "DOG"])) is not None
    assert solve_checked(make_problem(rows, ["CAT"], allow_repeats=True)) is not None


def test_min_score_excludes_low_words() -> None:
    words, scores = ["AB", "CD", "AC", "BD", "EF", "GH", "EG", "FH"], [90, 90, 90, 10, 50, 50, 50, 50]
    assert solve_checked(make_problem(["..", ".."], words, scores=scores))[(0, 0)] == "A"
    assert solve_checked(make_problem(["..", ".."], words, scores=scores, min_score=20))[(0, 0)] == "E"
    assert solve_checked(make_problem(["..", ".."], words, scores=scores, min_score=60)) is None


def test_best_scored_word_comes_first() -> None:
    problem = make_problem(["..."], ["ZZZ", "CAT", "DOG"], scores=[10, 60, 80])
    assert problem.entries(solve_checked(problem)) == ["DOG"]


# --- strategies, determinism, deadline ---------------------------------------------

CASES = [
    (["..", ".."], ["AB", "CD", "AC", "BD"], "plane", True),
    (["..", ".."], ["AB", "BC"], "plane", False),
    (["....", "....", "...."], ["CATSTEND", "AREA", "CAT", "ARE", "TEN", "SAD", "SEA"], "mobius", True),
    (["....", "....", "...."], ["CATSTENT", "AREA", "CAT", "ARE", "TEN", "SAD"], "mobius", False),
    ([".#..", "....", "...."], ["PIE", "ASP", "AOR", "SNS", "IRON", "RA", "EARS", "SAP"], "torus", True),
    ([".#..", "....", "...."], ["PIE", "ASP", "AOR", "SNS", "IRON", "RA", "EARS"], "plane", False),
]


@pytest.mark.parametrize("options", STRATEGIES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_strategy_gives_the_same_answers(options: dict[str, object]) -> None:
    for rows, words, surface, satisfiable in CASES:
        assert (solve_checked(make_problem(rows, words, surface), **options) is not None) == satisfiable
    assert solve_checked(parity_problem(4, 3), **options) is None
    assert solve_checked(parity_problem(4, 2), **options) is not None


def test_restarts_keep_the_search_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "RESTART_UNIT_BACKTRACKS", 1)
    for select in ("mrv", "domwdeg"):
        result = ReferenceSolver(select=select, randomize=True, restarts=True).solve(parity_problem(4, 3))
        assert result.status is Status.UNSAT and result.stats["restarts"] > 0


def test_same_seed_same_fill_and_seeds_vary_randomised_choices() -> None:
    words = [a + b + c for a, b, c in itertools.product("ABCDE", repeat=3)]
    problem = make_problem(["...", "...", "..."], words)
    solver = ReferenceSolver(select="domwdeg", randomize=True, restarts=True)
    assert solver.solve(problem, seed=7).solution == solver.solve(problem, seed=7).solution
    fills = {tuple(sorted(solver.solve(problem, seed=seed).solution.items())) for seed in range(10)}
    assert len(fills) > 1
    plain = ReferenceSolver()
    assert plain.solve(problem, seed=1).solution == plain.solve(problem, seed=2).solution


def test_deadline_gives_timeout() -> None:
    result = ReferenceSolver().solve(parity_problem(10, 9), time_limit=0.2)
    assert result.status is Status.TIMEOUT and result.solution is None


# --- plumbing --------------------------------------------------------------------------

def test_stats_count_the_work() -> None:
    result = ReferenceSolver().solve(parity_problem(4, 3))
    assert set(result.stats) >= {"nodes", "backtracks", "revisions", "restarts", "initial_domain"}
    # AC-3 removes nothing here: 3 rows × 8 words + 4 columns × 4 words.
    assert result.stats["initial_domain"] == 3 * 8 + 4 * 4
    assert result.stats["backtracks"] > 0 and result.stats["revisions"] > 0


def test_registry_builds_variants_and_rejects_unknown_strategies() -> None:
    solver = get_solver("crossword", "reference:select=domwdeg,inference=fc,restarts=true")
    assert (solver.name, solver.select, solver.inference, solver.restarts) == ("reference", "domwdeg", "fc", True)
    with pytest.raises(ValueError):
        ReferenceSolver(select="random")
    with pytest.raises(ValueError):
        ReferenceSolver(inference="pc")


def test_word_index_is_cached_per_list_and_ranks_by_score() -> None:
    words = from_words(["CAT", "DOG", "EMU"], [10, 90, 50])
    index = length_index(words, 3)
    assert length_index(words, 3) is index
    assert index.words == ("DOG", "EMU", "CAT")
    assert index.masks[0][ord("E") - ord("A")] == 0b010
    assert index.allowed(50) == 0b011


def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_seeded_picks_follow_splitmix64() -> None:
    # The published first outputs of splitmix64 from state 1234567; a pick is one of them modulo n.
    assert [pick_index(1234567, k, 2**64) for k in range(3)] == \
        [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert pick_index(1234567, 0, 8) == 6457827717110365317 % 8


def test_backtrack_budget_is_a_deterministic_limit() -> None:
    runs = [ReferenceSolver(max_backtracks=50).solve(parity_problem(10, 9)) for _ in range(2)]
    assert all(r.status is Status.TIMEOUT for r in runs)
    assert runs[0].stats == runs[1].stats
    assert runs[0].stats["backtracks"] == 51  # stops at the first backtrack over the budget


# --- excluded words, penalties and the seeded value order -------------------------------

def test_excluded_words_are_never_used() -> None:
    words = ["AB", "CD", "AC", "BD", "AD", "BC", "CA", "DB"]
    for excluded in (frozenset(), frozenset({"AB"}), frozenset({"AB", "CD"})):
        problem = make_problem(["..", ".."], words, excluded=excluded)
        fill = solve_checked(problem)  # verify refuses an excluded word
        assert fill is None or not set(problem.entries(fill)) & excluded
    assert solve_checked(make_problem(["..", ".."], ["AB", "CD", "AC", "BD"], excluded=frozenset({"BD"}))) is None


def test_penalised_words_are_tried_last() -> None:
    words = [a + b for a, b in itertools.product("ABCD", repeat=2)]
    problem = make_problem(["..", ".."], words, allow_repeats=True)
    best = ReferenceSolver().solve(problem).solution
    avoided = set(problem.entries(best))
    penalised = FillProblem(problem.grid, problem.words, problem.rules, {w: 10 for w in avoided})
    fill = ReferenceSolver().solve(penalised).solution
    assert verify(penalised, fill) == [] and not set(penalised.entries(fill)) & avoided
    # A bonus (a negative penalty) puts a word first.
    bonus = FillProblem(problem.grid, problem.words, problem.rules, {"DD": -5})
    assert "DD" in bonus.entries(ReferenceSolver().solve(bonus).solution)


def test_a_seeded_choice_among_the_best_gives_many_fills_of_one_grid() -> None:
    words = [a + b + c for a, b, c in itertools.product("ABCDE", repeat=3)]
    problem = make_problem(["...", "...", "..."], words)
    solver = ReferenceSolver(choices=8)
    assert solver.solve(problem, seed=3).solution == solver.solve(problem, seed=3).solution
    fills = {tuple(sorted(solver.solve(problem, seed=seed).solution.items())) for seed in range(12)}
    assert len(fills) >= 8
    assert all(verify(problem, dict(fill)) == [] for fill in fills)


def test_the_search_weighs_the_crossing_a_wipeout_blames() -> None:
    problem = make_problem(["...", "...", "..."], ["ABC", "DEF"], allow_repeats=True)
    net = build_network(problem)
    st = reference.SearchState(net, initial_domains(problem, net), float("inf"), random.Random(0))
    assert reference.consistent_or_blamed(st, None) and st.weight == [1] * len(st.weight)
    assert not reference.consistent_or_blamed(st, Wipeout(0, 2))
    assert not reference.consistent_or_blamed(st, Wipeout(1, None))  # no crossing to blame
    assert st.weight == [2 if c == 2 else 1 for c in range(len(st.weight))]
