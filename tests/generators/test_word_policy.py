"""The repeat policy: lengths a pack needs little of never repeat, lengths it
needs more of than the list can give recur only far apart and after unused
words; the ledger bars exactly what the policy says, and the whole-pack check
(which shares nothing with the ledger) finds every breach."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.crossword.word_family import family_of, relatives_in
from mobius.generators.rounds import ROUND_SIZE
from mobius.generators.crossword.word_policy import (
    USED_PENALTY,
    AnswerLedger,
    count_recurrences,
    decide_policy,
    policy_problems,
    share_bonus,
    share_of,
    widen_policy,
)


def test_lengths_needing_more_than_half_the_list_recur_with_a_gap() -> None:
    policy = decide_policy({3: 2300, 5: 800, 10: 2800}, {3: 1200, 5: 3400, 10: 2300}, 1000, False)
    assert not policy.recurring(5) and policy.recurring(3) and policy.recurring(10)
    # The gap bars 12 % of the supply as recently used (RECENT_SHARE): 144 of the 1,200
    # three-letter words at 2.3 a puzzle, 276 of the 2,300 ten-letter ones at 2.8.
    assert policy.gaps[3] == 62 and policy.gaps[10] == 98
    assert "3-letter" in policy.describe() and "10-letter" in policy.describe()
    small = decide_policy({3: 70, 10: 80}, {3: 1200, 10: 2300}, 30, False)
    assert small.gaps == {} and small.describe() == "no answer repeats in the pack"


def test_the_ledger_bars_used_words_of_unique_lengths_and_recent_ones_of_recurring_lengths() -> None:
    policy = decide_policy({3: 900, 5: 10}, {3: 1000, 5: 1000}, 100, False)
    gap = policy.gaps[3]
    ledger = AnswerLedger(policy)
    ledger.add(10, ["ERA", "OCEAN"])
    assert ledger.barred("OCEAN", 500) and ledger.barred("ERA", 10 + gap - 1)
    assert not ledger.barred("ERA", 10 + gap) and not ledger.barred("TEA", 11)
    assert ledger.forbidden(11) == {"ERA", "OCEAN"} and ledger.forbidden(10 + gap) == {"OCEAN"}
    assert ledger.penalties(10 + gap) == {"ERA": USED_PENALTY}
    assert ledger.conflicts(12, ["TEA", "ERA", "OCEAN"]) == ["ERA", "OCEAN"]


def test_allow_repeats_bars_nothing_but_still_prefers_unused_words() -> None:
    ledger = AnswerLedger(decide_policy({3: 10}, {3: 1000}, 10, True))
    ledger.add(0, ["ERA"])
    ledger.add(1, ["ERA"])
    assert ledger.forbidden(2) == frozenset() and ledger.conflicts(2, ["ERA"]) == []
    assert ledger.penalties(2) == {"ERA": 2 * USED_PENALTY}


def test_once_a_lengths_words_have_all_come_round_only_uses_beyond_the_fair_share_cost() -> None:
    # Four three-letter words, ten uses: every word's fair share is two (rounded down), so the words
    # used twice are as welcome as unused ones and a word used three times costs one use.
    ledger = AnswerLedger(decide_policy({3: 900}, {3: 4}, 100, False))
    for index, word in enumerate(["ERA", "TEA", "ERA", "TEA", "ERA", "TEA", "OAR", "OAR", "EEL", "EEL"]):
        ledger.add(10 * index, [word])
    assert ledger.fair_uses() == {3: 2}
    assert ledger.penalties(1000) == {"ERA": USED_PENALTY, "TEA": USED_PENALTY}
    ledger.add(2000, ["OAR"])  # two puzzles more, twelve uses: the fair share becomes three
    ledger.add(2010, ["OAR"])
    assert ledger.penalties(3000) == {"OAR": USED_PENALTY}


WORDS = ["ERA", "ERAS", "TEA", "TEAS", "OCEAN", "OCEANS", "ABOUT", "SAT", "SIT"]


@given(uses=st.lists(st.tuples(st.integers(0, 40), st.sampled_from(WORDS)), max_size=30), families=st.booleans())
@settings(max_examples=80, deadline=None)
def test_the_whole_pack_check_agrees_with_the_ledger(uses: list[tuple[int, str]], families: bool) -> None:
    # With families, an answer counts as a use of every word of its family (ERA of ERAS, SAT of SIT):
    # the ledger learns them from the list (`relatives_in`), the check from each answer (`family_of`).
    policy = decide_policy({3: 900, 4: 10, 5: 10, 6: 10}, {3: 1000, 4: 1000, 5: 1000, 6: 1000}, 100, False,
                           kin={4: 1.0, 5: 1.0, 6: 1.0})
    assert policy.family_lengths == {4, 5, 6}  # 3 recurs: its words' relatives are only penalised
    puzzles: dict[int, list[str]] = {}
    ledger = AnswerLedger(policy, relatives_in(WORDS) if families else None)
    check = {"family": family_of} if families else {}
    accepted: dict[int, list[str]] = {}
    for index, word in uses:
        puzzles.setdefault(index, []).append(word)
    for index in sorted(puzzles):  # the pack's order: each puzzle judged against the ones before
        clash = ledger.conflicts(index, puzzles[index])
        if not clash:
            accepted[index] = puzzles[index]
            ledger.add(index, set(puzzles[index]))
    assert policy_problems(accepted, policy, **check) == {}
    # Every puzzle the ledger refused breaks the policy with an earlier accepted one.
    assert set(puzzles) - set(accepted) <= set(policy_problems(puzzles, policy, **check))


def test_a_pack_does_not_come_back_to_a_word_family() -> None:
    policy = decide_policy({3: 10, 4: 10}, {3: 1000, 4: 1000}, 30, False, kin={3: 1.5, 4: 1.5})
    assert policy.family_lengths == {3, 4} and "nor a word family, at 3, 4 letters" in policy.describe()
    ledger = AnswerLedger(policy, relatives_in(["USE", "USED", "USES", "USER", "ACT"]))
    ledger.add(0, ["USE"])
    assert ledger.forbidden(1) == {"USE", "USED", "USES"}  # USER is a word of its own
    assert ledger.conflicts(1, ["USES", "ACT"]) == ["USES"]
    assert policy_problems({0: ["USE"], 4: ["USED", "ACT"]}, policy, family=family_of) == \
        {4: "answer USED is of one family with USE in puzzle 1"}
    free = AnswerLedger(decide_policy({3: 10}, {3: 1000}, 30, True, kin={3: 1.5}), relatives_in(["USE", "USED"]))
    free.add(0, ["USE"])
    assert free.forbidden(1) == frozenset() and free.penalties(1)["USED"] == USED_PENALTY  # --allow-repeats


def test_a_length_whose_relatives_would_take_too_much_of_its_words_only_penalises_them() -> None:
    # 450 answers of 1,000 words keep under half, but not with 1.5 relatives barred for each
    policy = decide_policy({3: 10, 4: 450, 5: 450}, {3: 1000, 4: 1000, 5: 1000}, 30, False,
                           kin={3: 1.5, 4: 1.5, 5: 1.5})
    assert policy.family_lengths == {3} and not policy.gaps
    ledger = AnswerLedger(policy, relatives_in(["ACT", "ACTS", "BOOK", "BOOKS"]))
    ledger.add(0, ["ACTS", "BOOK"])
    assert ledger.forbidden(1) == {"ACTS", "BOOK", "ACT"}  # ACT is of a family length; BOOKS is penalised
    assert ledger.penalties(1) == {"BOOKS": USED_PENALTY}
    assert policy_problems({0: ["ACTS", "BOOK"], 3: ["BOOKS"], 4: ["ACT"]}, policy, family=family_of) == \
        {4: "answer ACT is of one family with ACTS in puzzle 1"}
    # either way round: the pack's check reads puzzles in index order, the ledger in the order they come
    assert policy_problems({0: ["ACT"], 2: ["ACTS"]}, policy, family=family_of) == \
        {2: "answer ACTS is of one family with ACT in puzzle 1"}
    wider = widen_policy(policy, {3: 600}, 30)  # a length found to need more loses its bar, never gains one
    assert wider.family_lengths == frozenset() and wider.kin == policy.kin


def test_recurrences_are_counted() -> None:
    assert count_recurrences({0: ["ERA", "TEA"], 5: ["ERA"], 9: ["ERA", "OCEAN"]}) == {"ERA": 2}


def test_shares_split_the_list_evenly_and_stably() -> None:
    words = [f"W{i:05d}" for i in range(16000)]
    sizes = [len(share_bonus(words, k, 16)) for k in range(16)]
    assert sum(sizes) == 16000 and min(sizes) > 900  # about a sixteenth each
    # the same share in every process: a golden value, which Python's salted hash() would not keep
    assert share_of("ERA", 16) == 9
    assert all(v < 0 for v in share_bonus(words, 3, 16).values())


def test_a_relaxed_puzzle_is_bound_by_the_unique_lengths_only() -> None:
    policy = decide_policy({3: 2000, 5: 10}, {3: 600, 5: 1000}, count=500, allow_repeats=False)
    gap = policy.gaps[3]
    ledger = AnswerLedger(policy)
    ledger.add(10, ["ERA", "OCEAN"])
    assert ledger.forbidden(11) == {"ERA", "OCEAN"} and ledger.forbidden(11, relaxed=True) == {"OCEAN"}
    assert ledger.penalties(11, relaxed=True) == {"ERA": USED_PENALTY}
    assert ledger.conflicts(11, ["ERA", "OCEAN"], relaxed=True) == ["OCEAN"]
    # The whole-pack check, from the answers and the relaxed indices alone.
    pack = {10: ["ERA", "OCEAN"], 11: ["ERA"]}
    assert 11 in policy_problems(pack, policy) and policy_problems(pack, policy, relaxed={11}) == {}
    assert 11 in policy_problems({10: ["OCEAN"], 11: ["OCEAN"]}, policy, relaxed={10, 11})
    assert gap > 1


def test_widening_makes_a_length_recur_and_never_lengthens_a_gap() -> None:
    policy = decide_policy({3: 100, 4: 100}, {3: 1000, 4: 300}, 50, False)
    assert policy.gaps == {}  # both within half their supply
    wider = widen_policy(policy, {4: 200}, 50)
    assert set(wider.gaps) == {4} and wider.demand == {3: 100, 4: 200}
    assert widen_policy(wider, {4: 100}, 50) == wider  # less demand narrows nothing
    more = widen_policy(wider, {4: 400}, 50)
    assert 1 <= more.gaps[4] <= wider.gaps[4]
    # answers kept apart by the wider gap keep the narrower policy too
    answers = {0: ["ABCD"], wider.gaps[4]: ["ABCD"]}
    assert policy_problems(answers, wider) == {} and policy_problems(answers, more) == {}


def test_a_pack_widens_its_policy_when_its_puzzles_need_more_short_answers() -> None:
    spec = CrosswordPackSpec(count=1000, width=11, height=5)
    plan = spec.plan()
    three = spec.words().by_length(3)
    plan.policy = plan.ledger.policy = decide_policy({}, plan.policy.supply, spec.count, False)
    for index in range(ROUND_SIZE):
        plan.job_input(index, 0)  # a grid handed out
        entries = [{"answer": three[10 * index + k], "clue": ""} for k in range(10)]
        plan.record(index, {"rows": [f"fill {index}"], "entries": entries})
    assert 3 in plan.policy.gaps and plan.ledger.policy is plan.policy
    assert any("3-letter answers may now recur" in note for note in plan.notes)
