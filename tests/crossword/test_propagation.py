"""Arc consistency reports its failure instead of acting on it: `ac3` returns
None on a consistent network and otherwise the `Wipeout` (the emptied light,
and the crossing whose revision emptied it, or None when two lights were
forced to one word), and it touches nothing a search owns."""

from __future__ import annotations

import itertools
import math

import pytest

from mobius.cpmodel.crossword import propagation
from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.problem import FillProblem, FillRules, WordCap
from mobius.cpmodel.crossword.propagation import (State, Wipeout, ac3, build_network, candidate_words, initial_domains,
                                           length_index)
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import get_solver
from mobius.dictionaries import from_words


def propagate(rows: list[str], words: list[str], **rules: object) -> tuple[FillProblem, State, Wipeout | None]:
    problem = FillProblem(make_grid(rows), from_words(words), FillRules(**rules))
    net = build_network(problem)
    st = State(net, initial_domains(problem, net), math.inf)
    return problem, st, ac3(net, st, range(len(st.dom)))


def test_a_word_square_is_consistent() -> None:
    problem, st, failure = propagate(["..", ".."], ["AB", "BA", "AA"], allow_repeats=True)
    assert failure is None and all(st.dom)
    assert candidate_words(problem) is not None


def test_a_wipeout_names_the_emptied_light_and_its_crossing() -> None:
    # Across words ABC/DEF put A or D atop every column: no down word fits.
    problem, st, failure = propagate(["...", "...", "..."], ["ABC", "DEF"], allow_repeats=True)
    assert failure is not None and failure.crossing is not None
    assert st.dom[failure.light] == 0
    crossing = problem.lights.crossings[failure.crossing]
    assert failure.light in (crossing.light_a, crossing.light_b)
    assert candidate_words(problem) is None


def test_two_lights_forced_to_one_word_blame_no_crossing() -> None:
    problem, st, failure = propagate(["...", "###", "..."], ["ABC"])
    assert failure == Wipeout(1, None) and st.dom[1] == 0
    # The same grid with repeats allowed is consistent.
    assert propagate(["...", "###", "..."], ["ABC"], allow_repeats=True)[2] is None


def test_propagation_leaves_no_search_state_behind() -> None:
    """The dom/wdeg weights are the reference search's: AC-3 has none to bump."""
    _, st, failure = propagate(["...", "...", "..."], ["ABC", "DEF"], allow_repeats=True)
    assert failure is not None and not hasattr(st, "weight")


def test_the_word_index_memos_stay_bounded_and_right(monkeypatch: pytest.MonkeyPatch) -> None:
    """An index lives as long as its word list (a whole pack): its memos of
    letter sets must not grow without bound, and stay correct when renewed."""
    monkeypatch.setattr(propagation, "MEMO_LIMIT", 16)
    words = from_words(["".join(t) for t in itertools.product("ABCDEFGH", repeat=3)])
    index = length_index(words, 3)
    for letters in [*range(1, 1 << 8), *range(1, 1 << 8)]:  # every non-empty subset of A..H, twice
        for pos in range(3):
            in_set = [letters >> (ord(word[pos]) - ord("A")) & 1 for word in index.words]
            assert index.union(pos, letters) == sum(1 << k for k, hit in enumerate(in_set) if hit)
            tests = index.letter_tests(pos, letters)
            assert [bit for bit, _ in tests] == [1 << L for L in range(8) if letters >> L & 1]
            assert all(mask == index.masks[pos][bit.bit_length() - 1] for bit, mask in tests)
            assert len(index.unions[pos]) <= 16 and len(index.tests[pos]) <= 16


def test_excluded_words_are_masked_afresh_for_every_other_set() -> None:
    # The masks of the last list and excluded set are kept: the same objects
    # get them back, any other set (even an equal one) its own, never stale ones.
    words = from_words(["ABC", "ABD", "XYZ", "XYW"])
    grid = make_grid(["..."])
    first = FillProblem(grid, words, FillRules(excluded=frozenset({"ABC"})))
    masks = propagation.excluded_masks(first)
    assert propagation.excluded_masks(FillProblem(grid, words, first.rules)) is masks
    for excluded in ({"ABC"}, {"XYZ", "ABD"}, {"ABC"}):
        problem = FillProblem(grid, words, FillRules(excluded=frozenset(excluded)))
        index = length_index(words, 3)
        assert propagation.excluded_masks(problem) == {3: index.mask_of(excluded)}
        net = build_network(problem)
        kept = {index.words[k] for k in range(len(index.words)) if initial_domains(problem, net)[0] >> k & 1}
        assert kept == {"ABC", "ABD", "XYZ", "XYW"} - excluded


# --- the cap on words of one kind ------------------------------------------------

def test_a_full_cap_takes_the_capped_words_from_every_other_light() -> None:
    # The prefilled row AS holds the one S-word allowed: every other light loses its S-words (the
    # columns AS and SS, the row BS), and with none allowed the row is a wipeout of its own.
    words = ["AS", "BS", "SS", "AB", "AA", "SB", "BA"]
    capped = frozenset({"AS", "BS", "SS"})
    problem, st, failure = propagate(["AS", ".."], words, allow_repeats=True, cap=WordCap(capped, 1, "S-words"))
    assert failure is None
    net = build_network(problem)
    assert [bool(d & net.cap_masks[v]) for v, d in enumerate(st.dom)] == [
        light.cells == ((0, 0), (1, 0)) for light in problem.lights.lights]
    _, _, failure = propagate(["AS", ".."], words, allow_repeats=True, cap=WordCap(capped, 0, "S-words"))
    assert failure is not None and failure.crossing is None


def test_a_cap_left_room_takes_nothing() -> None:
    words = ["AS", "BS", "SS", "AB", "AA", "SB", "BA"]
    _, st, failure = propagate(["AS", ".."], words, allow_repeats=True,
                               cap=WordCap(frozenset({"AS", "BS", "SS"}), 2, "S-words"))
    _, uncapped, _ = propagate(["AS", ".."], words, allow_repeats=True)
    assert failure is None and st.dom == uncapped.dom


def test_the_verifier_counts_a_cap_without_the_solvers() -> None:
    problem = FillProblem(make_grid(["..", ".."]), from_words(["AS", "AS", "SS"]),
                          FillRules(allow_repeats=True, cap=WordCap(frozenset({"AS", "SS"}), 1, "S-words")))
    fill = {(0, 0): "A", (1, 0): "S", (0, 1): "S", (1, 1): "S"}  # AS, SS across; AS, SS down
    assert verify(problem, fill) == ["4 lights read S-words (AS, AS, SS, SS), at most 1 allowed"]
    loose = FillProblem(problem.grid, problem.words, FillRules(allow_repeats=True,
                                                               cap=WordCap(frozenset({"AS", "SS"}), 4, "S-words")))
    assert verify(loose, fill) == []


@pytest.mark.parametrize("spec", ["choco", "gecode", "sat", "qxw", "blacksquare"])
def test_a_solver_that_cannot_keep_a_cap_says_so_before_solving(spec: str) -> None:
    problem = FillProblem(make_grid(["..", ".."]), from_words(["AS", "SS"]),
                          FillRules(cap=WordCap(frozenset({"AS"}), 1, "S-words")))
    refusal = get_solver("crossword", spec).supports(problem)
    assert refusal is not None and "cap on S-words" in refusal
    assert get_solver("crossword", spec).supports(FillProblem(problem.grid, problem.words)) is None
