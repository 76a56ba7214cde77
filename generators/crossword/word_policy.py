"""Which answers a puzzle of a crossword pack may use: the repeat policy.

Covers: `RepeatPolicy`, decided once per pack from what it needs and what
the word list holds, and `AnswerLedger`, the answers of the puzzles made so
far, which says for a new puzzle which words it may not use (hard) and which
it should rather not use (soft penalties), and for a finished one which of
its answers break the policy.

Within one puzzle no word appears twice, nor two words of one family
(`word_family.family_pair`: LET and LETS, SIT and SAT, ONE and ONES — words
lemminflect gives a lemma in common — and ODD and ODDS, a word and itself
with an S added), as a published grid never has them.

The policy across a pack, per answer length n:

- the pack's demand D(n) — how many lights of n letters its patterns hold —
  is compared with the supply S(n), the list's words of n letters;
- if D(n) ≤ `UNIQUE_SHARE` · S(n), length n is *unique*: no word of n
  letters is used twice in the pack. The default 30-puzzle 11×5 pack needs
  at most a tenth of any length, so nothing repeats there;
- otherwise (a pack of a thousand 11×5 puzzles needs about 2,300 answers of
  three letters, from some 1,200) length n *recurs*: a word may come back,
  but only `gap(n)` puzzles or more after its last use, where the gap keeps
  the words barred as recently used to `RECENT_SHARE` of the supply — so a
  late puzzle has as many words to choose from as an early one and the cost
  per puzzle stays flat — and it is used only after the fresh words:
  `USED_PENALTY` per use beyond the word's fair share so far (`fair_uses`,
  the uses of its length spread evenly over the list) steers every solver to
  unused words and, once all have come round, away from the ones used more
  than the others. Every recurrence is counted in the manifest.

A puzzle the plan could not make within the policy after many attempts is
made *relaxed*: the gaps of recurring lengths no longer bind it (its words
of those lengths are only penalised), while unique lengths stay barred. The
late puzzles of a large pack meet the best words used on both sides of
them, and a pack that gives up a puzzle is worse than a short word back
sooner than its gap. Which puzzles are relaxed is part of their files (their
attempt count), so the whole-pack check knows them too.

A word family counts as one answer (USE, USED and USES: the words sharing
the word or a lemma, `word_family.family_of`): an answer is a use of every
word of the list in its family (`word_family.relatives_in`). A word of a
*family length* — unique, and with what the pack needs of it, its relatives
counted (the list's mean relatives of a word, `kin`: about 1.5), still
within `UNIQUE_SHARE` of its supply — and any word of its family are not
both answers of the pack; other relatives are only penalised, as a used word is
(a 120-puzzle 7×5 pack barring every length's families could not make its
last six puzzles). Soft preferences alone let families back in: on the
default 11×5 pack of seed 0, with a penalty of 40 points per use of a
family, 34 families stood in two puzzles (38 without): 21 in the first
fills, the rest brought in by the worst-answer stage, whose aim is the
lowest plain score. The pack's report lists the families used twice
(`quality.pack_quality`).

With `allow_repeats` only the soft preference for unused words is kept.
The demand is first estimated from the pack's first patterns; the pack
then widens the policy as its puzzles show what its grids really need
(`widen_policy`: the easy grids it hands out hold more short lights than a
sample of all grids), never narrowing it. Everything is a function of the
puzzles' indices and answers, so it is the same for any number of workers.

Leaves out: where the demand comes from (the pack plan counts its patterns'
lights) and running jobs.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field

# A length whose demand stays within half its supply never repeats: the
# last puzzle still draws from at least half the words.
UNIQUE_SHARE = 0.5
# For recurring lengths, the share of the supply that may be barred as
# recently used. The words a pack uses first are those its grids need most,
# so a share barred costs far more fills than its size: at puzzle 150 of a
# 200-puzzle 15×7 strip pack, of 60 fresh grids (the best of 7 each, 300
# backtracks) 5 filled with a quarter of the three- and four-letter words
# barred, 8 with 12 %, 14 with 6 % (20 at puzzle 20). With 12 % that pack
# took 175 s instead of 266 and its last hundred puzzles cost 1.23× its
# first instead of 1.81×; its mean entry score rose (55.2 against 55.0),
# the common short words coming back sooner and the awkward ones needed
# less. 6 % would bring ERA back every fifth puzzle.
RECENT_SHARE = 0.12
# Points off a word's score per earlier use in the pack beyond its fair
# share: more than the gap between a good word and a passable one, so a used
# word comes last. Not per use: the reference solver tries a light's least
# penalised words first, and late in a 1,000-puzzle 11×5 pack, where every
# three-letter word had been used about six times, the few used least were
# then the first choice of all sixteen puzzles made side by side, so they
# took the same ones: its last 300 puzzles were refused 237 times for a
# clash. With the fair share, 157 times; the pack redid 1,339 attempts, not
# 1,518, and its mean entry score rose from 55.0 to 55.5.
USED_PENALTY = 25
# Points added to the words of a job's own share of the list (see
# `share_bonus`): enough to be tried first and kept by the polish unless
# another word is clearly better; less than USED_PENALTY.
SHARE_BONUS = 10


@dataclass(frozen=True)
class RepeatPolicy:
    allow_repeats: bool
    demand: Mapping[int, int] = field(default_factory=dict)  # per length, for the whole pack
    supply: Mapping[int, int] = field(default_factory=dict)
    gaps: Mapping[int, int] = field(default_factory=dict)  # recurring lengths -> puzzles between two uses
    kin: Mapping[int, float] = field(default_factory=dict)  # per length, the list's mean relatives of a word
    # unique lengths whose words stand in the pack with no other word of their family (`family_bound`)
    family_lengths: frozenset[int] = frozenset()

    def recurring(self, length: int) -> bool:
        return self.allow_repeats or length in self.gaps

    def family_bound(self, word: str, other: str) -> bool:
        """Whether two words of one family may not both be answers of the pack: one is of a family length.
        Either way round, so the order puzzles are accepted in does not matter."""
        return len(word) in self.family_lengths or len(other) in self.family_lengths

    def to_json(self) -> dict[str, object]:
        return {"allow_repeats": self.allow_repeats,
                "recurring_lengths": {str(n): {"demand": self.demand[n], "supply": self.supply.get(n, 0),
                                               "gap": gap} for n, gap in sorted(self.gaps.items())},
                "unique_lengths": sorted(n for n in self.demand if n not in self.gaps),
                "family_lengths": sorted(self.family_lengths)}

    def describe(self) -> str:
        if self.allow_repeats:
            return "answers may repeat (--allow-repeats); unused words are preferred"
        families = f"; nor a word family, at {_lengths(self.family_lengths)} letters" if self.family_lengths else ""
        if not self.gaps:
            return "no answer repeats in the pack" + families
        parts = [f"{n}-letter answers (the pack needs {self.demand[n]:,}, the list has {self.supply.get(n, 0):,}) "
                 f"may recur {gap}+ puzzles apart" for n, gap in sorted(self.gaps.items())]
        return "answers of other lengths never repeat; " + "; ".join(parts) + families


def _lengths(lengths: Iterable[int]) -> str:
    return ", ".join(map(str, sorted(lengths)))


def decide_policy(demand: Mapping[int, int], supply: Mapping[int, int], count: int, allow_repeats: bool,
                  kin: Mapping[int, float] | None = None) -> RepeatPolicy:
    """The policy for a pack of `count` puzzles needing `demand` lights per length; `kin`: the list's
    mean relatives of a word per length (`word_family.relatives_in`), where families count as one."""
    gaps = {}
    for length, needed in demand.items():
        have = supply.get(length, 0)
        if needed > UNIQUE_SHARE * have:
            per_puzzle = needed / max(count, 1)
            gaps[length] = max(1, math.floor(RECENT_SHARE * have / per_puzzle)) if per_puzzle else 1
    # An answer bars its relatives too: a length keeps that bar while what the pack needs of it, its
    # relatives counted, stays within UNIQUE_SHARE of its supply.
    families = frozenset(n for n, needed in demand.items() if kin is not None and n not in gaps
                         and needed * (1 + kin.get(n, 0.0)) <= UNIQUE_SHARE * supply.get(n, 0))
    return RepeatPolicy(allow_repeats, dict(demand), dict(supply), gaps, dict(kin or {}), families)


def widen_policy(policy: RepeatPolicy, demand: Mapping[int, int], count: int) -> RepeatPolicy:
    """`policy` for a pack found to need `demand` lights per length, where that
    is more than it was decided for: a length now needing more than
    `UNIQUE_SHARE` of its supply starts to recur, and a recurring length's gap
    may shrink but never grow, so every puzzle made under the old policy
    keeps the new one."""
    merged = {n: max(policy.demand.get(n, 0), demand.get(n, 0)) for n in {*policy.demand, *demand}}
    fresh = decide_policy(merged, policy.supply, count, policy.allow_repeats, policy.kin)
    gaps = {n: min(gap, policy.gaps.get(n, gap)) for n, gap in fresh.gaps.items()}
    return RepeatPolicy(policy.allow_repeats, merged, policy.supply, gaps, policy.kin,
                        fresh.family_lengths & policy.family_lengths)


class AnswerLedger:
    """The answers of a pack's puzzles so far: word -> indices of the puzzles using it; given
    `relatives` (`word_family.relatives_in` of the pack's list), an answer also counts as a use of every
    word of its family, barred at the policy's family lengths (see the module docstring)."""

    def __init__(self, policy: RepeatPolicy, relatives: Callable[[str], Iterable[str]] | None = None) -> None:
        self.policy = policy
        self.uses: dict[str, list[int]] = {}
        self.relatives = relatives
        # word -> (index, answer) of each puzzle using another of its family
        self.kin_uses: dict[str, list[tuple[int, str]]] = {}

    def add(self, index: int, answers: Iterable[str]) -> None:
        for word in answers:
            self.uses.setdefault(word, []).append(index)
            for kin in self.relatives(word) if self.relatives is not None else ():
                self.kin_uses.setdefault(kin, []).append((index, word))

    def _uses_of(self, word: str) -> list[int]:
        """The puzzles using the word or another of its family."""
        return self.uses.get(word, []) + [j for j, _ in self.kin_uses.get(word, ())]

    def barred(self, word: str, index: int, relaxed: bool = False) -> bool:
        """Whether puzzle `index` may not use `word`, given the puzzles so far
        (`relaxed`: the gaps of recurring lengths do not bind it)."""
        if self.policy.allow_repeats:
            return False
        if any(self.policy.family_bound(word, other) for _, other in self.kin_uses.get(word, ())):
            return True
        uses = self.uses.get(word)
        if not uses:
            return False
        gap = self.policy.gaps.get(len(word))
        return gap is None or (not relaxed and any(abs(index - j) < gap for j in uses))

    def forbidden(self, index: int, relaxed: bool = False) -> frozenset[str]:
        """The words puzzle `index` may not use."""
        return frozenset(word for word in {*self.uses, *self.kin_uses} if self.barred(word, index, relaxed))

    def penalties(self, index: int, relaxed: bool = False) -> dict[str, int]:
        """Soft: points off each used word that puzzle `index` may still use,
        per use (its own or its family's) beyond its fair share so far (`fair_uses`)."""
        fair = self.fair_uses()
        points = {word: USED_PENALTY * (len(self._uses_of(word)) - fair.get(len(word), 0))
                  for word in {*self.uses, *self.kin_uses} if not self.barred(word, index, relaxed)}
        return {word: p for word, p in points.items() if p > 0}

    def fair_uses(self) -> dict[int, int]:
        """Per length, the uses every word of the list would have had by now
        were the answers so far spread evenly over them (rounded down)."""
        totals: Counter[int] = Counter()
        for word, uses in self.uses.items():
            totals[len(word)] += len(uses)
        return {n: total // self.policy.supply[n] for n, total in totals.items() if self.policy.supply.get(n)}

    def conflicts(self, index: int, answers: Iterable[str], relaxed: bool = False) -> list[str]:
        """The answers of a finished puzzle that the policy bars."""
        return sorted(word for word in set(answers) if self.barred(word, index, relaxed))


def share_of(word: str, shares: int) -> int:
    """Which of `shares` parts of the word list a word falls in (a stable hash)."""
    return zlib.crc32(word.encode()) % shares


def share_bonus(words: Iterable[str], share: int, shares: int) -> dict[str, int]:
    """Soft: a bonus (a negative penalty) for the words of one share of the list.

    The puzzles made side by side in one round each get a different share,
    so that where their value orders and polish could take the same word they
    tend to take different ones, and fewer are redone for an in-round clash."""
    return {word: -SHARE_BONUS for word in words if share_of(word, shares) == share}


def policy_problems(puzzles: Mapping[int, Iterable[str]], policy: RepeatPolicy,
                    relaxed: Container[int] = (),
                    family: Callable[[str], Iterable[str]] = lambda word: (word,)) -> dict[int, str]:
    """The whole pack checked afresh, puzzle by puzzle in index order: the
    later puzzle of each pair that breaks the policy, with the reason (a
    relaxed puzzle is bound by the unique lengths only). `family`: the keys
    an answer shares with the others of its family (`word_family.family_of`),
    by which two answers of one family count as one where the policy says so
    (`RepeatPolicy.family_bound`); by default, the answer alone."""
    if policy.allow_repeats:
        return {}
    seen: dict[str, list[tuple[int, str]]] = {}  # family key -> (puzzle, answer) using it
    problems: dict[int, str] = {}
    for index in sorted(puzzles):
        answers = sorted(set(puzzles[index]))
        found = {word: [used for key in set(family(word)) for used in seen.get(key, ())] for word in answers}
        for word in answers:
            gap = policy.gaps.get(len(word))
            clash = [(j, other) for j, other in found[word] if other != word and policy.family_bound(word, other)]
            clash += [(j, other) for j, other in found[word] if other == word and
                      (gap is None or (index - j < gap and index not in relaxed and j not in relaxed))]
            if clash:
                j, other = min(clash)
                what = "is also in" if other == word else f"is of one family with {other} in"
                problems.setdefault(index, f"answer {word} {what} puzzle {j + 1}"
                                           + (f" (less than {gap} puzzles apart)" if gap else ""))
        for word in answers:
            for key in set(family(word)):
                seen.setdefault(key, []).append((index, word))
    return problems


def count_recurrences(puzzles: Mapping[int, Iterable[str]]) -> Counter[str]:
    """How many times each answer comes back in the pack (uses − 1, if more than one)."""
    uses = Counter(word for answers in puzzles.values() for word in set(answers))
    return Counter({word: n - 1 for word, n in uses.items() if n > 1})
