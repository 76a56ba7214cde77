"""Crossword domains and arc consistency: what every fill solver starts from.

Covers: the words of each length as bitsets (`LengthIndex`, cached per
WordList object so that many grids with one list build them once), the
constraint network of a `FillProblem` (`Network`: lights, and every shared
cell of `Lights.crossings` as a binary constraint, so several crossings
between the same two lights on a torus and cyclic lights need no special
case), each light's first domain (`initial_domains`: length, minimum score,
the rules' excluded words, prefilled letters), and propagation over a
trailed `State`: `revise` one arc, `exclude_word` (when repeats are
forbidden a light down to one word removes it from every other light of its
length, which also catches two lights forced to the same word), `keep_cap`
(the rules' `WordCap`: once as many lights as it allows are down to one
capped word, every other light loses its capped words; one more is a
wipeout) and `ac3`,
which returns the `Wipeout` it met instead of acting on it, so that a search
can weigh the blame. `candidate_words` is the pre-pass every solver shares
(the reference search, the CP-SAT model, the table backends): the project
has one arc-consistency code.

Speed comes from representation: the words of each length are numbered best
score first and a domain is a Python int used as a bitset over them, with
precomputed masks "words with letter L at position p". Each crossing end
also remembers the set of letters its light can still place in the shared
cell, so revising an arc costs one AND per surviving letter and is skipped
outright when that letter set did not change.

Leaves out: search (variable and value order, branching, restarts:
`reference.py`), modelling for an outside solver (`cpsat.py`, `tables.py`).
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
import threading
import weakref
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.deadline import check_deadline
from mobius.dictionaries import WordList

# The letters of every word list and grid (lists are upper-cased A-Z words).
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALL_LETTERS = (1 << len(ALPHABET)) - 1
# Reading the clock costs about as much as one revision; looking every 256
# revisions keeps that below 1% while overshooting a deadline by a few ms.
DEADLINE_CHECK_REVISIONS = 256
# A light with at most this many words left finds the letters it can place
# by reading the words; above it, one AND per candidate letter is cheaper.
FEW_WORDS = 4
# Letter sets each memo of a word index keeps per position before it starts
# afresh. An index lives as long as its word list — a whole pack in a
# worker — and the letter sets a long run meets have no bound: unbounded
# memos grew pack workers to 6 GB by puzzle 400. One fill meets a few
# hundred sets; this keeps a memo under ~2 MB (a union is one bit a word).
MEMO_LIMIT = 2048
# `Network.cap_most` of a problem without a cap.
NO_CAP = -1
# What a LengthIndex is for given words and scores changes only with this
# number: stored indexes (`word_cache`) are keyed by it. Bump it with any
# change to the ranking (`friendliness`, the sort key) or to the masks.
INDEX_VERSION = 1


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
        ranked = tuple(sorted(words, key=lambda w: (-score(w), -friendly[w], w)))
        # masks[pos][letter]: one column of letters read as a binary number,
        # reversed so that word 0 is the lowest bit; str.translate keeps it in C.
        masks = tuple(
            tuple(int(column.translate(_ONLY[letter]), 2) if column else 0 for letter in range(len(ALPHABET)))
            for column in ("".join(w[pos] for w in reversed(ranked)) for pos in range(length)))
        self._fill(ranked, tuple(score(w) for w in ranked), masks)

    @classmethod
    def from_parts(cls, ranked: tuple[str, ...], scores: tuple[int, ...],
                   masks: tuple[tuple[int, ...], ...]) -> LengthIndex:
        """The index whose ranked words, scores and masks another built (a stored index,
        `mobius.cpmodel.crossword.word_cache`): nothing is ranked or counted again."""
        index = cls.__new__(cls)
        index._fill(ranked, scores, masks)
        return index

    def _fill(self, ranked: tuple[str, ...], scores: tuple[int, ...], masks: tuple[tuple[int, ...], ...]) -> None:
        length = len(masks)
        self.words: tuple[str, ...] = ranked
        self.scores: tuple[int, ...] = scores
        self._neg_scores = tuple(map(operator.neg, self.scores))  # ascending, for bisect
        self.full = (1 << len(ranked)) - 1
        self.masks: tuple[tuple[int, ...], ...] = masks
        # unions[pos][letters]: OR of masks[pos][L] over the letter set, filled on demand.
        self.unions: tuple[dict[int, int], ...] = tuple({ALL_LETTERS: self.full} for _ in range(length))
        # tests[pos][letters]: (letter bit, mask) for the letters of the set that
        # some word has at pos; filled on demand, so revising loops over a tuple.
        self.tests: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple({} for _ in range(length))
        self._position: dict[str, int] | None = None  # word -> bit, built when first asked for
        # ends of the runs of equal scores, for tie-breaking inside a run
        # (by runs, not word by word: a plain list is one run, and an index is made at every start-up)
        self.group_ends: tuple[int, ...] = tuple(itertools.accumulate(
            len(list(run)) for _, run in itertools.groupby(self.scores)))

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
# id(WordList) -> where its indexes come from when they were built before
# (`provide_indexes`); None from it means "build it here".
_INDEX_SOURCES: dict[int, Callable[[int], LengthIndex | None]] = {}


def length_index(words: WordList, length: int) -> LengthIndex:
    """The (cached) index of the words of `length` in `words`."""
    per_list = _INDEX_CACHE.get(id(words))
    if per_list is None:
        per_list = _INDEX_CACHE[id(words)] = {}
        weakref.finalize(words, _INDEX_CACHE.pop, id(words), None)
    index = per_list.get(length)
    if index is None:
        source = _INDEX_SOURCES.get(id(words))
        index = source(length) if source is not None else None
        if index is None:
            index = LengthIndex(words.by_length(length), words.score, length)
        per_list[length] = index
    return index


def provide_indexes(words: WordList, source: Callable[[int], LengthIndex | None]) -> None:
    """Let `length_index` take the indexes of `words` from `source` (by length), as long as the list lives.

    The caller vouches that `source` gives what `LengthIndex(words.by_length(n), words.score, n)` would."""
    _INDEX_SOURCES[id(words)] = source
    weakref.finalize(words, _INDEX_SOURCES.pop, id(words), None)


T = TypeVar("T")


class LastMemo(Generic[T]):
    """The value last made from some objects, per thread, reused while the
    same objects (by identity) come back: the rounds of one polish and the
    fills of one job build many problems from one word list, one set of
    excluded words and one penalty table, which are costly to hash (a late
    pack job excludes thousands of words) but cheap to recognise. The memo
    holds the objects, so their ids cannot pass to others while it is kept;
    threads keep their own (Dask runs jobs in threads)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def get(self, keys: tuple[object, ...], make: Callable[[], T]) -> T:
        last = getattr(self._local, "last", None)
        if last is None or any(a is not b for a, b in zip(last[0], keys, strict=True)):
            last = self._local.last = (keys, make())
        return last[1]


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
    # The rules' cap: per light, the bitset of its capped words, and how many lights may hold one
    # (NO_CAP: no cap, every mask 0).
    cap_masks: tuple[int, ...]
    cap_most: int


def build_network(problem: FillProblem, deadline: float = math.inf) -> Network:
    """The network of `problem`; raises DeadlineExceeded if building its word
    indexes (a second or more for a large list, the first time) runs past `deadline`."""
    lights = problem.lights.lights
    built: dict[int, LengthIndex] = {}
    for light in lights:
        if light.length not in built:
            check_deadline(deadline)
            built[light.length] = length_index(problem.words, light.length)
    index = tuple(built[light.length] for light in lights)
    capped = capped_masks(problem)
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
        cap_masks=tuple(capped.get(light.length, 0) for light in lights),
        cap_most=NO_CAP if problem.rules.cap is None else problem.rules.cap.most,
    )


def capped_masks(problem: FillProblem) -> dict[int, int]:
    """Per length, the bitset of the words the rules' cap counts (none without a cap; remembered
    as `excluded_masks` are: the fills of a pack share one cap)."""
    cap = problem.rules.cap
    if cap is None:
        return {}
    lengths = {light.length for light in problem.lights.lights}
    masks = _CAPPED_MASKS.get((problem.words, cap.words), dict)
    for length in lengths - masks.keys():
        masks[length] = length_index(problem.words, length).mask_of(w for w in cap.words if len(w) == length)
    return masks


def excluded_masks(problem: FillProblem) -> dict[int, int]:
    """Per length, the bitset of the words the rules exclude (the last list
    and excluded set are remembered: a polish builds twenty problems from
    them, and a late pack job excludes thousands of words)."""
    def make() -> dict[int, int]:
        by_length: dict[int, list[str]] = {}
        for word in problem.rules.excluded:
            by_length.setdefault(len(word), []).append(word)
        return {length: length_index(problem.words, length).mask_of(words) for length, words in by_length.items()}
    return _EXCLUDED_MASKS.get((problem.words, problem.rules.excluded), make)


_EXCLUDED_MASKS: LastMemo[dict[int, int]] = LastMemo()
_CAPPED_MASKS: LastMemo[dict[int, int]] = LastMemo()


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


# --- propagation state and inference -------------------------------------------

class State:
    """What propagation changes: domains, end letter sets, the undo trail, the
    revision counter. A search extends it with its own counters and order."""

    def __init__(self, net: Network, domains: list[int], deadline: float) -> None:
        self.dom = domains
        # Letters each end's light may still place in the shared cell: always a
        # superset of the truth, and the partner's domain already agrees with it.
        self.letters = [ALL_LETTERS] * len(net.end_light)
        self.trail: list[tuple[list[int], int, int]] = []  # (array, slot, old value)
        self.assigned = [False] * len(domains)
        self.deadline = deadline
        self.revisions = 0
        self.next_check = DEADLINE_CHECK_REVISIONS

    def set_domain(self, v: int, domain: int) -> None:
        self.trail.append((self.dom, v, self.dom[v]))
        self.dom[v] = domain

    def undo(self, mark: int) -> None:
        trail = self.trail
        while len(trail) > mark:
            array, slot, old = trail.pop()
            array[slot] = old

    def check_deadline(self) -> None:
        """Raise DeadlineExceeded past the deadline (a search adds its own budgets)."""
        check_deadline(self.deadline)


@dataclass(frozen=True)
class Wipeout:
    """Why propagation failed: `light` was left with no word, by revising
    `crossing` (its index in `Lights.crossings`), or with `crossing` None
    because it and another light were forced to the same word."""

    light: int
    crossing: int | None


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


def exclude_word(net: Network, st: State, v: int, changed: list[int]) -> int | None:
    """Light v is down to one word: no other light may use it. Lights whose
    domain shrank go into `changed`; returns the light left with no word, if one is."""
    word = st.dom[v]
    for u in net.same_length[v]:
        du = st.dom[u]
        if du & word:
            st.set_domain(u, du ^ word)
            if du == word:  # both forced to the same word
                return u
            changed.append(u)
    return None


def keep_cap(net: Network, st: State, changed: list[int]) -> int | None:
    """A light just came down to one capped word: count the lights down to one (theirs are their
    words); past the cap, the light it fails on, the last of them; at it, every other light
    loses its capped words, the lights that shrank going into `changed`, and one left with no
    word is returned. Stateless, so a search's undo needs nothing more: domains only shrink,
    and once the cap is full no light can come down to a capped word again."""
    dom, masks = st.dom, net.cap_masks
    held = [v for v, d in enumerate(dom) if d & masks[v] and d.bit_count() == 1]
    if len(held) > net.cap_most:
        return held[-1]
    if len(held) == net.cap_most:
        for u, du in enumerate(dom):
            if du & masks[u] and du.bit_count() > 1:
                st.set_domain(u, du & ~masks[u])
                if not st.dom[u]:
                    return u
                changed.append(u)
    return None


def singleton_rules(net: Network, st: State, v: int, changed: list[int]) -> Iterator[int | None]:
    """Light v is down to one word: the rules that then act, one by one (the word used no
    more, the cap), each yielding the light it left with no word, or None with the lights it
    shrank in `changed`; the caller stops at the first wipeout."""
    if not net.allow_repeats:
        yield exclude_word(net, st, v, changed)
    if st.dom[v] & net.cap_masks[v]:
        yield keep_cap(net, st, changed)


def ac3(net: Network, st: State, lights: Iterable[int]) -> Wipeout | None:
    """Propagate changes of `lights` until every arc is consistent (None) or
    a light has no word left (the `Wipeout`, for the caller to weigh)."""
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
                    return Wipeout(w, e >> 1)
                if w not in queued:
                    queued.add(w)
                    queue.append(w)
        if st.dom[v].bit_count() == 1:
            for emptied in singleton_rules(net, st, v, changed):
                if emptied is not None:
                    return Wipeout(emptied, None)
                for u in changed:
                    if u not in queued:
                        queued.add(u)
                        queue.append(u)
                changed.clear()
        if st.revisions >= st.next_check:
            st.next_check = st.revisions + DEADLINE_CHECK_REVISIONS
            st.check_deadline()
    return None


# --- the shared pre-pass ------------------------------------------------------

@dataclass(frozen=True)
class Candidates:
    """The words one light may still take: bit k of `domain` stands for `words[k]`."""

    words: tuple[str, ...]  # every word of the light's length, in bit order
    scores: tuple[int, ...]  # parallel to `words`
    domain: int


def candidate_words(problem: FillProblem, *, arc_consistent: bool = True,
                    deadline: float = math.inf) -> list[Candidates] | None:
    """Each light's words after the unary filters (length, score, prefilled
    letters) and, with `arc_consistent`, after AC-3 over every crossing; None
    when a light has no word left. The pre-pass other solvers share, so that
    the project has one arc-consistency code. Raises DeadlineExceeded past
    `deadline`."""
    net = build_network(problem, deadline)
    domains = initial_domains(problem, net)
    if arc_consistent:
        st = State(net, domains, deadline)
        if not all(domains) or ac3(net, st, range(len(domains))) is not None:
            return None
        domains = st.dom
    if not all(domains):
        return None
    return [Candidates(index.words, index.scores, domain) for index, domain in zip(net.index, domains)]
