"""The hand-written reference crossword filler: backtracking over lights.

Covers: `ReferenceSolver`, a classic CSP search in the style of aima-python's
`csp.py`. Variables are the lights, a light's domain is the set of words of
its length allowed by the minimum score, the rules' excluded words and the
prefilled letters, and every shared cell (`Lights.crossings`, so several
crossings between the same two lights on a torus and cyclic lights need no
special case) is a binary constraint. Search is depth-first with two-way
branching (light = word, then light ≠ word); variables are chosen by `mrv`
or `dom_wdeg`, values best score first (`best_score_first`, or
`seeded_near_best` when randomised, or `seeded_among` — a seeded choice
among the few best — with ``choices=N``), always from the least penalised
words left when the problem carries soft penalties (`penalty_tiers`), and
each choice is followed by `forward_check` or by `ac3` (maintained arc
consistency). When repeats are forbidden a light fixed to a word removes that
word from every other light of its length (`exclude_word`), which also catches
two lights forced to the same word. Optional Luby restarts on a backtrack
budget. A hard deadline is checked at every node and every few hundred arc
revisions.

Speed comes from representation: the words of each length are numbered best
score first and a domain is a Python int used as a bitset over them, with
precomputed masks "words with letter L at position p" (`LengthIndex`, cached
per WordList object so many grids with one list build them once). Each
crossing end also remembers the set of letters its light can still place in
the shared cell, so revising an arc costs one AND per surviving letter and is
skipped outright when that letter set did not change.

Leaves out: clue quality and fill scoring beyond the value order, other
puzzle families, and any CP-SAT model (`cpsat.py`).
"""

from __future__ import annotations

import bisect
import math
import random
import time
import weakref
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from cpmodel.crossword.problem import Fill, FillProblem
from cpmodel.solver import SolveResult, SolverBase, Status, option
from dictionaries import WordList

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALL_LETTERS = (1 << len(ALPHABET)) - 1
# Reading the clock costs about as much as one revision; looking every 256
# revisions keeps that below 1% while overshooting a deadline by a few ms.
DEADLINE_CHECK_REVISIONS = 256
# Luby restarts allow unit × luby(i) backtracks in run i. A hundred lets a run
# get past the first few levels of a 15×15 grid; smaller units thrash.
RESTART_UNIT_BACKTRACKS = 100
# A light with at most this many words left finds the letters it can place
# by reading the words; above it, one AND per candidate letter is cheaper.
FEW_WORDS = 4
# Randomised value order picks among this many best words: enough to send
# restarts down different paths, few enough to keep the value order's sense.
RANDOM_CHOICES = 3
# MRV breaks ties between equal domain sizes by degree; degrees stay below this.
DEGREE_SPAN = 1 << 12
# Letter sets each memo of a word index keeps per position before it starts
# afresh. An index lives as long as its word list — a whole pack in a
# worker — and the letter sets a long run meets have no bound: unbounded
# memos grew pack workers to 6 GB by puzzle 400. One fill meets a few
# hundred sets; this keeps a memo under ~2 MB (a union is one bit a word).
MEMO_LIMIT = 2048



# --- the word index -----------------------------------------------------------

class LengthIndex:
    """The words of one length as bit positions: bit k stands for `words[k]`.

    Words are numbered by score descending, so the lowest set bit of a domain
    is its best word and "score at least s" is a prefix. Equal scores (every
    word of a plain list) are ranked by `friendliness`, then alphabetically.
    """

    def __init__(self, words: Iterable[str], score: Callable[[str], int], length: int) -> None:
        words = tuple(words)
        friendly = friendliness(words, length)
        ranked = sorted(words, key=lambda w: (-score(w), -friendly[w], w))
        self.words: tuple[str, ...] = tuple(ranked)
        self.scores: tuple[int, ...] = tuple(score(w) for w in ranked)
        self._neg_scores = tuple(-s for s in self.scores)  # ascending, for bisect
        self.full = (1 << len(ranked)) - 1
        # masks[pos][letter]: one column of letters read as a binary number,
        # reversed so that word 0 is the lowest bit; str.translate keeps it in C.
        self.masks: tuple[tuple[int, ...], ...] = tuple(
            tuple(int(column.translate(_ONLY[letter]), 2) if column else 0 for letter in range(len(ALPHABET)))
            for column in ("".join(w[pos] for w in reversed(ranked)) for pos in range(length)))
        # unions[pos][letters]: OR of masks[pos][L] over the letter set, filled on demand.
        self.unions: tuple[dict[int, int], ...] = tuple({ALL_LETTERS: self.full} for _ in range(length))
        # tests[pos][letters]: (letter bit, mask) for the letters of the set that
        # some word has at pos; filled on demand, so revising loops over a tuple.
        self.tests: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple({} for _ in range(length))
        self._position: dict[str, int] | None = None  # word -> bit, built when first asked for
        # ends of the runs of equal scores, for tie-breaking inside a run
        self.group_ends: tuple[int, ...] = tuple(
            k + 1 for k in range(len(ranked)) if k + 1 == len(ranked) or self.scores[k + 1] != self.scores[k])

    def allowed(self, min_score: int) -> int:
        """The bitset of words scored at least `min_score` (a prefix)."""
        return (1 << bisect.bisect_right(self._neg_scores, -min_score)) - 1

    def union(self, pos: int, letters: int) -> int:
        """Words with any letter of the set `letters` at `pos`."""
        cached = self.unions[pos].get(letters)
        if cached is None:
            masks = self.masks[pos]
            cached = 0
            rest = letters
            while rest:
                low = rest & -rest
                cached |= masks[low.bit_length() - 1]
                rest ^= low
            _remember(self.unions[pos], letters, cached)
        return cached

    def letter_tests(self, pos: int, letters: int) -> tuple[tuple[int, int], ...]:
        """(1 << L, masks[pos][L]) for each letter L of the set that occurs at pos."""
        cached = self.tests[pos].get(letters)
        if cached is None:
            cached = tuple((1 << L, mask) for L, mask in enumerate(self.masks[pos]) if mask and letters >> L & 1)
            _remember(self.tests[pos], letters, cached)
        return cached

    def group_end(self, k: int) -> int:
        """One past the last word scored the same as word k."""
        return self.group_ends[bisect.bisect_right(self.group_ends, k)]

    def mask_of(self, words: Iterable[str]) -> int:
        """The bitset of those of `words` that are in this index."""
        if self._position is None:
            self._position = {w: k for k, w in enumerate(self.words)}
        position = self._position
        mask = 0
        for word in words:
            k = position.get(word)
            if k is not None:
                mask |= 1 << k
        return mask


def friendliness(words: tuple[str, ...], length: int) -> dict[str, float]:
    """How easy each word makes its crossings: the sum over positions of the
    log of how many words of this length have the same letter there. A word
    of common letters in common places (SERES) leaves crossing lights many
    words; one of rare ones (JUJUS) starves them, so it is tried late."""
    counts = [Counter(w[pos] for w in words) for pos in range(length)]
    logs = [{letter: math.log(n) for letter, n in c.items()} for c in counts]
    return {w: sum(logs[pos][letter] for pos, letter in enumerate(w)) for w in words}


_ORD_A = ord(ALPHABET[0])
_ONLY = [str.maketrans({c: ("1" if c == letter else "0") for c in ALPHABET}) for letter in ALPHABET]

# id(WordList) -> length -> index. Keyed by identity, not content, because
# hashing a WordList hashes every word; a finaliser drops the entry when the
# list dies, before its id can be reused.
_INDEX_CACHE: dict[int, dict[int, LengthIndex]] = {}


def length_index(words: WordList, length: int) -> LengthIndex:
    """The (cached) index of the words of `length` in `words`."""
    per_list = _INDEX_CACHE.get(id(words))
    if per_list is None:
        per_list = _INDEX_CACHE[id(words)] = {}
        weakref.finalize(words, _INDEX_CACHE.pop, id(words), None)
    index = per_list.get(length)
    if index is None:
        index = per_list[length] = LengthIndex(words.by_length(length), words.score, length)
    return index


def _remember(memo: dict[int, Any], key: int, value: Any) -> None:
    """Store in a bounded memo: a full one starts afresh (cheaper than LRU bookkeeping in the inner loop)."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


# --- the constraint network ---------------------------------------------------

@dataclass(frozen=True)
class Network:
    """Lights and crossings, flattened into arrays for the inner loops.

    Each crossing c has two *ends*, 2c and 2c+1: a light position and the
    light position it shares a cell with. Revising end e makes the partner's
    domain agree with the letters e's light can still place there.
    """

    index: tuple[LengthIndex, ...]  # per light
    ends: tuple[tuple[int, ...], ...]  # per light: its crossing ends
    end_light: tuple[int, ...]  # per end
    end_pos: tuple[int, ...]
    partner: tuple[int, ...]  # per end: the light across the crossing
    partner_pos: tuple[int, ...]
    same_length: tuple[tuple[int, ...], ...]  # per light: the other lights of its length
    degree: tuple[int, ...]  # per light: number of crossings
    allow_repeats: bool


def build_network(problem: FillProblem, deadline: float = math.inf) -> Network:
    """The network of `problem`; raises DeadlineReached if building its word
    indexes (a second or more for a large list, the first time) runs past `deadline`."""
    lights = problem.lights.lights
    built: dict[int, LengthIndex] = {}
    for light in lights:
        if light.length not in built:
            if time.perf_counter() > deadline:
                raise DeadlineReached
            built[light.length] = length_index(problem.words, light.length)
    index = tuple(built[light.length] for light in lights)
    end_light, end_pos, partner, partner_pos = [], [], [], []
    for c in problem.lights.crossings:
        end_light += [c.light_a, c.light_b]
        end_pos += [c.pos_a, c.pos_b]
        partner += [c.light_b, c.light_a]
        partner_pos += [c.pos_b, c.pos_a]
    ends: list[list[int]] = [[] for _ in lights]
    for e, v in enumerate(end_light):
        ends[v].append(e)
    by_length: dict[int, list[int]] = {}
    for v, light in enumerate(lights):
        by_length.setdefault(light.length, []).append(v)
    return Network(
        index=index,
        ends=tuple(map(tuple, ends)),
        end_light=tuple(end_light),
        end_pos=tuple(end_pos),
        partner=tuple(partner),
        partner_pos=tuple(partner_pos),
        same_length=tuple(tuple(u for u in by_length[light.length] if u != v) for v, light in enumerate(lights)),
        degree=tuple(len(e) for e in ends),
        allow_repeats=problem.rules.allow_repeats,
    )


def penalty_tiers(problem: FillProblem) -> tuple[tuple[int, ...], ...]:
    """Per light: bitsets of its words by penalty, least penalised first
    (unpenalised words at penalty 0; empty for a length without penalties);
    () when the problem has no penalties. The value order takes its words
    from the first group with any left."""
    if not problem.penalties:
        return ()
    groups: dict[int, dict[int, list[str]]] = {}
    for word, penalty in problem.penalties.items():
        if penalty:
            groups.setdefault(len(word), {}).setdefault(penalty, []).append(word)
    tiers = {}
    for length, by_penalty in groups.items():
        index = length_index(problem.words, length)
        masks = {penalty: index.mask_of(words) for penalty, words in by_penalty.items()}
        penalised = 0
        for mask in masks.values():
            penalised |= mask
        masks[0] = index.full & ~penalised
        tiers[length] = tuple(masks[p] for p in sorted(masks) if masks[p])
    return tuple(tiers.get(light.length, ()) for light in problem.lights.lights)


def excluded_masks(problem: FillProblem) -> dict[int, int]:
    """Per length, the bitset of the words the rules exclude."""
    by_length: dict[int, list[str]] = {}
    for word in problem.rules.excluded:
        by_length.setdefault(len(word), []).append(word)
    return {length: length_index(problem.words, length).mask_of(words) for length, words in by_length.items()}


def initial_domains(problem: FillProblem, net: Network) -> list[int]:
    """Words of the right length, scored high enough, not excluded, agreeing with prefilled letters."""
    prefilled = problem.grid.letters
    excluded = excluded_masks(problem) if problem.rules.excluded else {}
    domains = []
    for light, index in zip(problem.lights.lights, net.index):
        domain = index.allowed(problem.rules.min_score) & ~excluded.get(light.length, 0)
        for pos, cell in enumerate(light.cells):
            if cell in prefilled:
                domain &= index.masks[pos][ALPHABET.index(prefilled[cell])]
        domains.append(domain)
    return domains


# --- search state -------------------------------------------------------------

class DeadlineReached(Exception):
    """Raised inside propagation or search when the time limit or the backtrack budget is spent."""


class State:
    """Everything search changes: domains, end letter sets, the undo trail, counters."""

    def __init__(self, net: Network, domains: list[int], deadline: float, rng: random.Random,
                 max_backtracks: float = math.inf) -> None:
        self.dom = domains
        # Letters each end's light may still place in the shared cell: always a
        # superset of the truth, and the partner's domain already agrees with it.
        self.letters = [ALL_LETTERS] * len(net.end_light)
        self.trail: list[tuple[list[int], int, int]] = []  # (array, slot, old value)
        self.assigned = [False] * len(domains)
        self.weight = [1] * (len(net.end_light) // 2)  # dom/wdeg: failures per crossing
        self.order = list(range(len(domains)))  # variable tie-break order
        self.deadline = deadline
        self.max_backtracks = max_backtracks
        self.rng = rng
        self.nodes = self.backtracks = self.revisions = self.restarts = 0
        self.next_check = DEADLINE_CHECK_REVISIONS
        self.tiers: tuple[tuple[int, ...], ...] = ()  # `penalty_tiers`, when the value order weighs penalties

    def set_domain(self, v: int, domain: int) -> None:
        self.trail.append((self.dom, v, self.dom[v]))
        self.dom[v] = domain

    def undo(self, mark: int) -> None:
        trail = self.trail
        while len(trail) > mark:
            array, slot, old = trail.pop()
            array[slot] = old

    def check_deadline(self) -> None:
        # The backtrack budget is the limit that is the same on every machine.
        if self.backtracks > self.max_backtracks or time.perf_counter() > self.deadline:
            raise DeadlineReached


# --- inference ----------------------------------------------------------------

def revise(net: Network, st: State, e: int) -> bool:
    """Arc partner(e) → light(e): keep the partner's words whose letter in the
    shared cell the light can still place. True if the partner's domain shrank."""
    st.revisions += 1
    d = st.dom[net.end_light[e]]
    old = st.letters[e]
    if d.bit_count() <= FEW_WORDS:
        words, pos = net.index[net.end_light[e]].words, net.end_pos[e]
        new = 0
        rest = d
        while rest:
            low = rest & -rest
            new |= 1 << (ord(words[low.bit_length() - 1][pos]) - _ORD_A)
            rest ^= low
    else:
        new = 0
        for bit, mask in net.index[net.end_light[e]].letter_tests(net.end_pos[e], old):
            if d & mask:
                new |= bit
    if new == old:
        return False
    st.trail.append((st.letters, e, old))
    st.letters[e] = new
    w = net.partner[e]
    dw = st.dom[w]
    narrowed = dw & net.index[w].union(net.partner_pos[e], new)
    if narrowed == dw:
        return False
    st.set_domain(w, narrowed)
    return True


def exclude_word(net: Network, st: State, v: int, changed: list[int]) -> bool:
    """Light v is down to one word: no other light may use it. Lights whose
    domain shrank go into `changed`; False if one is left with no word."""
    word = st.dom[v]
    for u in net.same_length[v]:
        du = st.dom[u]
        if du & word:
            st.set_domain(u, du ^ word)
            if du == word:  # both forced to the same word
                return False
            changed.append(u)
    return True


def forward_check(net: Network, st: State, v: int) -> bool:
    """After assigning v: revise its neighbours once, without propagating further."""
    assigned = st.assigned
    for e in net.ends[v]:
        # An assigned partner already agrees with every word left here.
        if not assigned[net.partner[e]] and revise(net, st, e) and not st.dom[net.partner[e]]:
            st.weight[e >> 1] += 1
            return False
    return net.allow_repeats or exclude_word(net, st, v, [])


def ac3(net: Network, st: State, lights: Iterable[int]) -> bool:
    """Propagate changes of `lights` until every arc is consistent; False on a wipeout."""
    queue = deque(lights)
    queued = set(queue)
    changed: list[int] = []
    assigned, partner = st.assigned, net.partner
    while queue:
        v = queue.popleft()
        queued.discard(v)
        for e in net.ends[v]:
            # An assigned light's word was propagated when it was assigned, so
            # every word left here already agrees with it: skip the revision.
            if not assigned[partner[e]] and revise(net, st, e):
                w = partner[e]
                if not st.dom[w]:
                    st.weight[e >> 1] += 1
                    return False
                if w not in queued:
                    queued.add(w)
                    queue.append(w)
        if not net.allow_repeats and st.dom[v].bit_count() == 1:
            if not exclude_word(net, st, v, changed):
                return False
            for u in changed:
                if u not in queued:
                    queued.add(u)
                    queue.append(u)
            changed.clear()
        if st.revisions >= st.next_check:
            st.next_check = st.revisions + DEADLINE_CHECK_REVISIONS
            st.check_deadline()
    return True


def maintain_arc_consistency(net: Network, st: State, v: int) -> bool:
    return ac3(net, st, (v,))


def no_inference(net: Network, st: State, v: int) -> bool:
    return True


# --- variable and value order ---------------------------------------------------

def mrv(net: Network, st: State) -> int:
    """The unassigned light with the fewest words left (most crossings on ties); -1 if none."""
    best, best_key = -1, math.inf
    dom, assigned, degree = st.dom, st.assigned, net.degree
    for v in st.order:
        if not assigned[v]:
            key = dom[v].bit_count() * DEGREE_SPAN - degree[v]
            if key < best_key:
                best, best_key = v, key
    return best


def dom_wdeg(net: Network, st: State) -> int:
    """The unassigned light minimising domain size / weighted degree, where each
    crossing with another unassigned light weighs 1 + the wipeouts it caused."""
    best, best_key = -1, math.inf
    dom, assigned, weight, partner = st.dom, st.assigned, st.weight, net.partner
    for v in st.order:
        if assigned[v]:
            continue
        wdeg = sum(weight[e >> 1] for e in net.ends[v] if not assigned[partner[e]])
        # A light crossing nothing unassigned is free: leave it for last.
        key = dom[v].bit_count() / wdeg if wdeg else math.inf
        if key < best_key or best < 0:
            best, best_key = v, key
    return best


def preferred(st: State, v: int, domain: int) -> int:
    """The words of `domain` in the least penalised group that has any."""
    if st.tiers:
        for tier in st.tiers[v]:
            if domain & tier:
                return domain & tier
    return domain


def best_score_first(net: Network, st: State, v: int, domain: int) -> int:
    """The best word left in `LengthIndex` order (score, then friendliness)
    among the least penalised ones, as a one-bit set."""
    words = preferred(st, v, domain)
    return words & -words


def seeded_near_best(net: Network, st: State, v: int, domain: int) -> int:
    """One of the RANDOM_CHOICES best words left, chosen by the seed, among
    those sharing the best score (of the least penalised); as a one-bit set."""
    words = preferred(st, v, domain)
    end_of_score = (1 << net.index[v].group_end((words & -words).bit_length() - 1)) - 1
    return _seeded_pick(st, words & end_of_score, RANDOM_CHOICES)


def seeded_among(choices: int) -> Pick:
    """A value order choosing, by the seed, one of the `choices` best words
    left (of the least penalised): one grid gets many different fills while
    every word tried is still near the top."""
    def pick(net: Network, st: State, v: int, domain: int) -> int:
        return _seeded_pick(st, preferred(st, v, domain), choices)
    return pick


def _seeded_pick(st: State, words: int, choices: int) -> int:
    """One of the first `choices` set bits of `words`, chosen by the seed."""
    found = []
    rest = words
    while rest and len(found) < choices:
        low = rest & -rest
        found.append(low)
        rest ^= low
    return st.rng.choice(found)


# --- search -------------------------------------------------------------------

Select = Callable[[Network, State], int]
Infer = Callable[[Network, State, int], bool]
Pick = Callable[[Network, State, int, int], int]


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 …"""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@dataclass
class Frame:
    light: int
    node_mark: int  # trail length before this light was chosen
    value_mark: int = 0  # trail length before its current word was tried
    value: int = 0  # the current word, as a one-bit set


def backtrack(net: Network, st: State, select: Select, infer: Infer, refute: Infer, pick: Pick,
              budget: float) -> Status | None:
    """Depth-first search from the current state with two-way branching.

    Returns SOLVED (the domains are all singletons), UNSAT (the subtree is
    exhausted) or None when `budget` backtracks were spent (restart).
    """
    frames: list[Frame] = []
    spent = 0
    failed = False
    while True:
        if not failed:
            v = select(net, st)
            if v < 0:
                return Status.SOLVED
            st.nodes += 1
            st.check_deadline()
            frames.append(Frame(v, len(st.trail)))
        else:
            # The word on top of the stack failed: withdraw it, then refute it
            # with the light unassigned, so that the refutation propagates to it.
            if not frames:
                return Status.UNSAT
            frame = frames[-1]
            st.undo(frame.value_mark)
            st.assigned[frame.light] = False
            st.backtracks += 1
            st.check_deadline()
            spent += 1
            if spent > budget:
                return None
            rest = st.dom[frame.light] ^ frame.value
            st.set_domain(frame.light, rest)
            if not rest or not refute(net, st, frame.light):
                st.undo(frame.node_mark)
                frames.pop()
                continue
        frame = frames[-1]
        frame.value = pick(net, st, frame.light, st.dom[frame.light])
        frame.value_mark = len(st.trail)
        st.assigned[frame.light] = True
        st.set_domain(frame.light, frame.value)
        failed = not infer(net, st, frame.light)


def restarting(net: Network, st: State, select: Select, infer: Infer, refute: Infer, pick: Pick,
               restarts: bool) -> Status:
    """Run `backtrack`, restarting on a Luby backtrack budget when asked.

    Each restart returns to the state after the initial AC-3, keeps the
    dom/wdeg weights and reshuffles the variable tie-break order.
    """
    root = len(st.trail)
    run = 1
    while True:
        budget = RESTART_UNIT_BACKTRACKS * luby(run) if restarts else math.inf
        status = backtrack(net, st, select, infer, refute, pick, budget)
        if status is not None:
            return status
        st.undo(root)
        st.assigned = [False] * len(st.assigned)
        st.restarts += 1
        st.rng.shuffle(st.order)
        run += 1


# --- the solver ---------------------------------------------------------------

SELECTIONS: dict[str, Select] = {"mrv": mrv, "domwdeg": dom_wdeg}
# inference name -> (after assigning a word, after refuting one)
INFERENCES: dict[str, tuple[Infer, Infer]] = {
    "fc": (forward_check, no_inference),
    "ac3": (maintain_arc_consistency, maintain_arc_consistency),
}


@dataclass(frozen=True)
class ReferenceSolver(SolverBase):
    """Backtracking fill with MRV or dom/wdeg, forward checking or MAC."""

    name: ClassVar[str] = "reference"

    select: str = option("domwdeg", choices=SELECTIONS, help="variable choice")
    inference: str = option("ac3", choices=INFERENCES, help="ac3 (maintained arc consistency) or fc")
    randomize: bool = option(False, help="seeded near-best word order and tie-breaks")
    restarts: bool = option(False, help="Luby restarts")
    # A deterministic budget: the pack generator uses it so that which
    # patterns get rejected does not depend on the machine's speed.
    max_backtracks: int | None = option(None, minimum=0, help="give up (TIMEOUT) after this many backtracks")
    # Packs use it to get many fills of one grid, each near the best.
    choices: int | None = option(None, minimum=1, help="seeded choice among this many best words at each step")

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        deadline = started + time_limit if time_limit is not None else math.inf
        rng = random.Random(seed)

        budget = math.inf if self.max_backtracks is None else self.max_backtracks
        st: State | None = None
        initial_domain = 0
        try:
            # Model: one variable per light, its domain the words that fit it
            # (set-up counts against the time limit too).
            net = build_network(problem, deadline)
            st = State(net, initial_domains(problem, net), deadline, rng, budget)
            st.tiers = penalty_tiers(problem)
            if self.randomize:
                rng.shuffle(st.order)
            # Initial AC-3 on the whole network proves many grids UNSAT alone.
            consistent = all(st.dom) and ac3(net, st, range(len(st.dom)))
            initial_domain = sum(d.bit_count() for d in st.dom)
            if not consistent:
                status = Status.UNSAT
            else:
                # Search: two-way branching with the chosen strategies.
                infer, refute = INFERENCES[self.inference]
                pick = seeded_among(self.choices) if self.choices else \
                    seeded_near_best if self.randomize else best_score_first
                status = restarting(net, st, SELECTIONS[self.select], infer, refute, pick, self.restarts)
        except DeadlineReached:
            status = Status.TIMEOUT

        # Statistics and the answer.
        stats = {"nodes": 0, "backtracks": 0, "revisions": 0, "restarts": 0} if st is None else \
            {"nodes": st.nodes, "backtracks": st.backtracks, "revisions": st.revisions, "restarts": st.restarts}
        stats["initial_domain"] = initial_domain
        # SOLVED is only reached with the network and state built.
        fill = read_fill(problem, net, st.dom) if status is Status.SOLVED and st is not None else None
        return SolveResult(status, fill, self.name, time.perf_counter() - started, stats)


@dataclass(frozen=True)
class Candidates:
    """The words one light may still take: bit k of `domain` stands for `words[k]`."""

    words: tuple[str, ...]  # every word of the light's length, in bit order
    scores: tuple[int, ...]  # parallel to `words`
    domain: int


def candidate_words(problem: FillProblem, *, arc_consistent: bool = True, deadline: float = math.inf,
                    seed: int = 0) -> list[Candidates] | None:
    """Each light's words after the unary filters (length, score, prefilled
    letters) and, with `arc_consistent`, after AC-3 over every crossing; None
    when a light has no word left. The pre-pass other solvers share, so that
    the project has one arc-consistency code. Raises DeadlineReached past
    `deadline`."""
    net = build_network(problem, deadline)
    domains = initial_domains(problem, net)
    if arc_consistent:
        st = State(net, domains, deadline, random.Random(seed))
        if not all(domains) or not ac3(net, st, range(len(domains))):
            return None
        domains = st.dom
    if not all(domains):
        return None
    return [Candidates(index.words, index.scores, domain) for index, domain in zip(net.index, domains)]


def read_fill(problem: FillProblem, net: Network, domains: list[int]) -> Fill:
    """The letters of the one word left in each light, plus the prefilled cells."""
    fill: Fill = dict(problem.grid.letters)
    for light, index, domain in zip(problem.lights.lights, net.index, domains):
        word = index.words[domain.bit_length() - 1]
        fill.update(zip(light.cells, word))
    return fill
