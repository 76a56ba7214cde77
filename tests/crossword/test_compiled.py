"""The compiled search against the pure-Python reference search it mirrors:
the same status, fill, nodes, backtracks and revisions, with the best word
first and with a seeded pick among the few best, on random problems
of every surface (with repeats allowed or not, excluded words, score floors,
penalties and backtrack budgets) and on a Möbius strip filled from the
embedded list at the thresholds the worst-answer stage probes; a search run
in pieces ends where one run ends, going on after each fill lists
every fill of a brute-force enumeration once, and a search cut to a higher
floor after each fill ends on the best worst answer; a damaged kernel cache
is rebuilt, not believed; the default search loads the kernels only once the
pure-Python search has cost as much, and answers alike either way."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.compiled import Search
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules, WordCap
from mobius.cpmodel.crossword.propagation import Network, build_network, initial_domains
from mobius.cpmodel.crossword.reference import ReferenceSolver, penalty_tiers, read_fill
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import SolveResult, Status
from mobius.cpmodel.surface import SURFACES
from mobius.dictionaries import WordList, from_words, load
from tests.generators.test_worst_answer import every_fill


def both(problem: FillProblem, max_backtracks: int | None = None) -> tuple[SolveResult, SolveResult]:
    python = ReferenceSolver(max_backtracks=max_backtracks, compiled=False).solve(problem)
    numba = ReferenceSolver(max_backtracks=max_backtracks, compiled=True).solve(problem)
    return python, numba


def assert_same_search(python: SolveResult, numba: SolveResult, problem: FillProblem) -> None:
    assert numba.status is python.status
    assert numba.solution == python.solution
    for key in ("nodes", "backtracks", "revisions", "initial_domain"):
        assert numba.stats[key] == python.stats[key], key
    if numba.status is Status.SOLVED:
        assert verify(problem, numba.solution) == []


@st.composite
def caps(draw: st.DrawFn, listed: list[str]) -> WordCap | None:
    """No cap, or at most 0–2 lights reading a word that ends in one letter (as an S-plural does)."""
    most = draw(st.sampled_from([None, None, 0, 1, 2]))
    if most is None:
        return None
    end = draw(st.sampled_from("ABCD"))
    return WordCap(frozenset(w for w in listed if w.endswith(end)), most, f"words ending in {end}")


@st.composite
def instances(draw: st.DrawFn) -> tuple[FillProblem, int | None]:
    w, h = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    rows = ["".join(draw(st.lists(st.sampled_from("....#"), min_size=w, max_size=w))) for _ in range(h)]
    grid = make_grid(rows, draw(st.sampled_from(sorted(SURFACES))))
    # A four-letter alphabet mixes SAT and UNSAT; scores and penalties make the value order matter.
    word = st.text(alphabet="ABCD", min_size=2, max_size=2 * max(w, h))
    listed = draw(st.lists(word, min_size=1, max_size=120, unique=True))
    scores = draw(st.lists(st.integers(0, 100), min_size=len(listed), max_size=len(listed)))
    words = from_words(listed, scores)
    excluded = frozenset(draw(st.lists(st.sampled_from(listed), max_size=5)))
    rules = FillRules(allow_repeats=draw(st.booleans()), min_score=draw(st.sampled_from([0, 0, 30, 60])),
                      excluded=excluded, cap=draw(caps(listed)))
    penalties = dict(draw(st.lists(st.tuples(st.sampled_from(listed), st.integers(0, 3)), max_size=8)))
    budget = draw(st.sampled_from([None, None, 0, 1, 5, 40]))
    return FillProblem(grid, words, rules, penalties), budget


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_the_compiled_search_expands_the_reference_nodes(instance: tuple[FillProblem, int | None]) -> None:
    problem, budget = instance
    assert_same_search(*both(problem, budget), problem)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.integers(2, 9), st.integers(-2**70, 2**70))
def test_a_seeded_pick_among_the_best_words_expands_the_same_nodes(instance: tuple[FillProblem, int | None],
                                                                   choices: int, seed: int) -> None:
    problem, budget = instance
    python = ReferenceSolver(max_backtracks=budget, choices=choices, compiled=False).solve(problem, seed=seed)
    numba = ReferenceSolver(max_backtracks=budget, choices=choices, compiled=True).solve(problem, seed=seed)
    assert_same_search(python, numba, problem)


def test_seeded_picks_differ_by_seed_on_a_pack_grid() -> None:
    """Many fills of one grid, as a pack asks for: the seed changes the fill, compiled or not."""
    problem = FillProblem(make_grid([".##.....##.", ".#......#..", "........#..", "...#....#..", "...#....#.."],
                                    "mobius"), load("en"), FillRules(min_score=30))
    fills = set()
    for seed in range(4):
        python = ReferenceSolver(max_backtracks=1000, choices=8, compiled=False).solve(problem, seed=seed)
        numba = ReferenceSolver(max_backtracks=1000, choices=8, compiled=True).solve(problem, seed=seed)
        assert_same_search(python, numba, problem)
        if numba.status is Status.SOLVED:
            fills.add(tuple(sorted(numba.solution.items())))
    assert len(fills) >= 3


def searches(problem: FillProblem) -> tuple[Search, Search, Network]:
    """Two searches of `problem`, not yet run, and its network."""
    net = build_network(problem)
    return (Search(net, initial_domains(problem, net), penalty_tiers(problem)),
            Search(net, initial_domains(problem, net), penalty_tiers(problem)), net)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.lists(st.integers(0, 30), min_size=1, max_size=6))
def test_a_search_run_in_pieces_ends_where_one_run_ends(instance: tuple[FillProblem, int | None],
                                                        pieces: list[int]) -> None:
    problem, _ = instance
    whole, split, _ = searches(problem)
    expected = whole.run(sum(pieces))
    for piece in pieces:
        status = split.run(piece)
        if status != "TIMEOUT":
            break
    assert (status, split.domains, split.nodes, split.backtracks, split.revisions) == \
        (expected, whole.domains, whole.nodes, whole.backtracks, whole.revisions)


GRIDS = [(["...", "...", "..."], "plane"), (["...#", "....", "#..."], "mobius"), (["....", "....", "...."], "torus")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GRIDS), st.lists(st.text(alphabet="ABE", min_size=3, max_size=4), min_size=4, max_size=60,
                                        unique=True))
def test_fills_come_one_by_one_each_once_then_unsat(grid: tuple[list[str], str], listed: list[str]) -> None:
    """Going on after each fill lists every fill of a brute-force enumeration, once each."""
    rows, surface = grid
    problem = FillProblem(make_grid(rows, surface), from_words(listed), FillRules(min_length=3))
    search, _, net = searches(problem)
    found = []
    while search.run() == "SOLVED":
        found.append(frozenset(read_fill(problem, net, search.domains).items()))
    assert search.run() == "UNSAT"
    assert len(found) == len(set(found))
    assert set(found) == {frozenset(fill.items()) for fill in every_fill(problem)}


ABE_WORDS = ["".join(letters) for n in (3, 4) for letters in itertools.product("ABE", repeat=n)]


def assert_cuts_end_at_the_best_worst_answer(grid: tuple[list[str], str], words: WordList) -> None:
    """A branch and bound: after each fill only words scored above its worst answer are kept
    (`Search.cut`); every later fill keeps the rules and beats the one before, and the search
    ends UNSAT on the best worst answer of all the fills, each listed by a plain search."""
    rows, surface = grid
    problem = FillProblem(make_grid(rows, surface), words, FillRules(min_length=3))
    plain, cut, net = searches(problem)
    fills = []
    while plain.run() == "SOLVED":
        fills.append(read_fill(problem, net, plain.domains))
    worst = [min(words.score(w) for w in problem.entries(fill)) for fill in fills]
    found = []
    while cut.run() == "SOLVED":
        fill = read_fill(problem, net, cut.domains)
        assert verify(problem, fill) == []
        found.append(min(words.score(w) for w in problem.entries(fill)))
        cut.cut([index.allowed(found[-1] + 1).bit_length() for index in net.index])
    assert cut.run() == "UNSAT"
    assert found == sorted(set(found))  # each fill beats the one before
    assert found[-1:] == ([max(worst)] if worst else [])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GRIDS), st.lists(st.tuples(st.sampled_from(ABE_WORDS), st.integers(0, 100)),
                                        min_size=12, max_size=80, unique_by=lambda pair: pair[0]))
def test_a_search_cut_after_each_fill_ends_at_the_best_worst_answer(grid: tuple[list[str], str],
                                                                    scored: list[tuple[str, int]]) -> None:
    assert_cuts_end_at_the_best_worst_answer(grid, from_words([w for w, _ in scored], [n for _, n in scored]))


def test_cuts_on_long_seeded_lists_end_at_the_best_worst_answer() -> None:
    """Lists of most of the 108 words, where fills are many and cuts leave lights empty
    on the way back: states the drawn lists above seldom reach."""
    for seed in range(12):
        rng = random.Random(seed)
        listed = rng.sample(ABE_WORDS, rng.randint(60, len(ABE_WORDS)))
        words = from_words(listed, [rng.randint(0, 100) for _ in listed])
        assert_cuts_end_at_the_best_worst_answer(GRIDS[seed % len(GRIDS)], words)


def test_probes_at_the_worst_answer_thresholds_of_a_pack_grid_agree() -> None:
    """An 11×5 Möbius grid of a default pack, filled from the embedded list
    with every answer scored t or more: fills, proofs and budgets run out."""
    rows = ["#...#....#.", "....#....#.", "....#......", "...##.....#", "...###....#"]
    words = load("en")
    outcomes = set()
    for threshold in (40, 45, 55, 60):
        problem = FillProblem(make_grid(rows, "mobius"), words, FillRules(min_score=threshold))
        python, numba = both(problem, max_backtracks=400)
        assert_same_search(python, numba, problem)
        outcomes.add(numba.status)
    assert outcomes == {Status.SOLVED, Status.UNSAT, Status.TIMEOUT}


SOLVE_COMPILED = """
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.reference import ReferenceSolver
from mobius.dictionaries import from_words
problem = FillProblem(make_grid(["...", "...", "..."]), from_words(["ABC", "DEF", "GHI", "ADG", "BEH", "CFI"]))
print(ReferenceSolver(compiled=True).solve(problem).status.value)
"""


def test_a_damaged_kernel_cache_is_rebuilt_not_believed(tmp_path: Path) -> None:
    """Numba's cache files overwritten with garbage: the next run compiles afresh and fills. The
    warm-up loads every kernel, the worst-answer stage's cut included, so none is met damaged later."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", SOLVE_COMPILED], env=env, capture_output=True, text=True,
                              timeout=300)

    assert run().stdout.strip() == "SOLVED"
    cached = [path for path in tmp_path.rglob("*") if path.suffix in (".nbi", ".nbc")]
    assert any("_search" in path.name for path in cached) and any("_cut" in path.name for path in cached)
    for path in cached:
        path.write_bytes(b"not a cache")
    damaged = run()
    assert (damaged.returncode, damaged.stdout.strip(), damaged.stderr) == (0, "SOLVED", "")
    assert run().stdout.strip() == "SOLVED"


@pytest.mark.parametrize("damage", ["fifo", "device_link", "sparse_terabyte"])
def test_a_kernel_cache_file_that_is_no_regular_file_of_its_size_is_one_warning_and_rebuilt(
        tmp_path: Path, damage: str) -> None:
    """A FIFO in place of a kernel's cache file would block numba's open for ever, a sparse terabyte
    be read whole: each is refused in one line naming it, that kernel compiled afresh and stored anew."""
    from mobius.benchmarks.faults import cache_entries

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", SOLVE_COMPILED], env=env, capture_output=True, text=True,
                              timeout=300)

    assert run().stdout.strip() == "SOLVED"
    (index,) = tmp_path.rglob("compiled._search-*.nbi")
    getattr(cache_entries, damage)(index)
    damaged = run()
    assert (damaged.returncode, damaged.stdout.strip()) == (0, "SOLVED")
    assert damaged.stderr.startswith(f"mobius: warning: {index}: ") and damaged.stderr.count("\n") == 1
    again = run()
    assert (again.returncode, again.stdout.strip(), again.stderr) == (0, "SOLVED", "") and index.is_file()


# A fresh process: the default search on the seed grid (easy: no numba), then, with the allowance cut to
# nothing by the caller, a search that is cut at once and starts again compiled. Prints, per search, the
# status, fill and counters, and whether numba was loaded.
DEFAULT_TIERS = """
import json, sys
from mobius.cpmodel.crossword import reference
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.dictionaries import load
reference.LOAD_ALLOWANCE_S = float(sys.argv[1])
problem = FillProblem(make_grid(["#....", ".....", ".....", ".....", "....#"], "mobius"), load("en-small"),
                      FillRules(min_length=3))
for solver in (reference.ReferenceSolver(max_backtracks=5000), reference.ReferenceSolver(max_backtracks=5000, compiled=False)):
    result = solver.solve(problem)
    print(json.dumps([result.status.value, sorted((result.solution or {}).items()), result.stats["nodes"],
                      result.stats["backtracks"], "numba" in sys.modules]))
"""


@pytest.mark.parametrize(("allowance", "compiled"), [("60", False), ("0", True)])
def test_the_default_search_loads_the_kernels_only_once_it_has_cost_as_much_and_answers_alike(
        allowance: str, compiled: bool) -> None:
    out = subprocess.run([sys.executable, "-c", DEFAULT_TIERS, allowance], capture_output=True, text=True,
                         check=True, timeout=300).stdout.splitlines()
    default, python = (json.loads(line) for line in out)
    assert default[:4] == python[:4]  # the same search, whichever engine ran it
    assert default[4] is compiled  # numba loaded only when the allowance was spent
