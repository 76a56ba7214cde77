"""The reference solver's search (dom/wdeg, MAC), compiled: the same nodes, ten to twenty times faster.

Covers: `Search`, which runs maintained arc consistency with dom/wdeg and
the best word first, or a seeded pick among the few best (`ReferenceSolver`
with its default strategies or ``choices=N``, no randomising, no restarts)
in numba, over the network and first domains
`propagation.py` builds (its rules too: no word twice, and the cap on words
of one kind, `propagation.keep_cap`). Domains are bitsets held as rows of 64-bit words,
every change goes on a trail kept in arrays, and the search is an explicit
stack, so it runs in bounded chunks and resumes where it stopped: the
deadline is checked (and Ctrl-C lands) between chunks, a search out of its
backtrack budget goes on later with more, and after a fill it goes on to
the next fill, or, cut to a higher score floor (`Search.cut`: each light's
words ranked below the floor dropped from its domain and from every state
on the trail), to the next fill above the floor — a branch and bound for
the worst-answer stage. It expands exactly the nodes the pure-Python search expands
— same queue order in AC-3, same ties, same blame for a wipeout, same
backtrack count at a budget — so the two give the same fill, status and
statistics (`tests/crossword/test_compiled.py` checks that node for node
on random problems); a seeded pick draws the same splitmix64 stream as the
Python search's (`picks.py`). `ReferenceSolver(compiled=True)`
runs it; packs fill with it, and the worst-answer stage
(`generators/crossword/worst_answer.py`) runs its probes on it: on 11×5
pack grids a backtrack costs about 22 µs against 0.3 ms (`python -m
mobius.benchmarks.probe_speed`: 7.5 times faster in the median probe, 12–13
times on the long ones; a pack's fills of 15×7 grids 10–20 times).

Where the time goes, and why the code is shaped so: the kernels take
plain arrays and are compiled without numba's reference counting
(``_nrt=False``: nothing is allocated inside), since counting the ~30
arrays every inner call passes took over half the time; a revision first
checks each letter's residual support (the chunk where it last had a
word) and scans the domain chunk by chunk only for the letters missing
there (a chunk's 26 letter masks lie side by side); and
a light's bitset only spans the words its first domain can hold (a probe
floored at a high score keeps a short prefix of the ranked words), and a
cut shortens it to the words it keeps (2–7 % of the stage's time).
`warm_up` compiles the kernels (about 3 s), or loads them from numba's
cache (``cache=True``, in ``__pycache__`` beside this file; 0.3 s), on a
tiny grid: a solver with a time limit calls it before its clock starts.

Leaves out: the network, first domains and penalty tiers (`propagation.py`,
`reference.py`), other strategies (MRV, forward checking, the randomised
value order and restarts stay in `reference.py`), and reading the fill.
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from mobius.cpmodel.crossword.propagation import ALPHABET, LengthIndex, Network
from mobius.cpmodel.crossword.picks import SEED_MASK, SPLITMIX
from mobius.cpmodel import kernel_cache
from mobius.cpmodel.deadline import DeadlineExceeded

# Loop turns (nodes and backtracks) per compiled call: a few milliseconds,
# so a deadline is overshot by that at most.
CHUNK_STEPS = 1 << 12
# A light with at most this many words left finds the letters it can place
# by reading its words (as `propagation.revise` does; the answer is the same).
FEW_WORDS = 4
SOLVED, UNSAT, TIMEOUT, PAUSED = range(4)
# Slots of the control array: the search's state and counters, then the seeded value order's
# choices, seed and picks drawn (`reference.seeded_among`).
FAILED, FRAMES, DOM_TRAIL, LET_TRAIL, NODES, BACKTRACKS, REVISIONS, MAX_BACKTRACKS, CHOICES, SEED, PICKS = range(11)
# splitmix64's constants (`picks.pick_index`), as the kernels' unsigned arithmetic takes them.
_GOLDEN, _MIX1, _MIX2 = (np.uint64(c) for c in SPLITMIX)
NO_WIPEOUT, EXCLUSION_WIPEOUT = -2, -1
NO_LIMIT = 1 << 62
# Where the domain trail and the search frames start in `Search`'s state (the arguments of `_search`).
STATE_TRAIL, STATE_FRAMES = 27, 32


@intrinsic
def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """The number of set bits of a uint64 (one machine instruction)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


@intrinsic
def _lowest(typingctx, x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of a nonzero uint64 (one machine instruction)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


@njit(cache=True, inline="always", _nrt=False)
def _set_chunk(dom, size, v, c, value, trail_v, trail_c, trail_old, ctl):
    """Set one chunk of light v's domain, on the trail; `size` keeps each light's word count."""
    if dom[v, c] != value:
        t = ctl[DOM_TRAIL]
        trail_v[t], trail_c[t], trail_old[t] = v, c, dom[v, c]
        ctl[DOM_TRAIL] = t + 1
        size[v] += _popcount(value) - _popcount(dom[v, c])
        dom[v, c] = value


@njit(cache=True, _nrt=False)
def _undo(dom, size, letters, trail_v, trail_c, trail_old, let_e, let_old, ctl, dom_mark, let_mark):
    t = ctl[DOM_TRAIL]
    while t > dom_mark:
        t -= 1
        v, c = trail_v[t], trail_c[t]
        size[v] += _popcount(trail_old[t]) - _popcount(dom[v, c])
        dom[v, c] = trail_old[t]
    ctl[DOM_TRAIL] = t
    t = ctl[LET_TRAIL]
    while t > let_mark:
        t -= 1
        letters[let_e[t]] = let_old[t]
    ctl[LET_TRAIL] = t


@njit(cache=True, inline="always", _nrt=False)
def _revise(e, dom, size, letters, support, chunks, slot, masks, word_letters, end_light, end_pos,
            partner, partner_pos, trail_v, trail_c, trail_old, let_e, let_old, ctl):
    """`propagation.revise`: True if the partner's domain shrank."""
    ctl[REVISIONS] += 1
    v, pos = end_light[e], end_pos[e]
    s = slot[v]
    old = letters[e]
    # Most revisions change nothing: each letter's residual support (the
    # chunk where it last had a word) usually still has one.
    new = missing = 0
    rest = np.uint64(old)
    while rest:
        letter = _lowest(rest)
        rest &= rest - np.uint64(1)
        c = support[e, letter]
        if dom[v, c] & masks[s, pos, c, letter]:
            new |= 1 << letter
        else:
            missing |= 1 << letter
    if not missing:
        return False
    if size[v] <= FEW_WORDS:
        new = 0
        for c in range(chunks[v]):
            words = dom[v, c]
            while words:
                new |= 1 << word_letters[s, c * 64 + _lowest(words), pos]
                words &= words - np.uint64(1)
    else:
        # Chunk by chunk, the letters still missing: a chunk's masks lie side
        # by side, and the scan stops once every letter has been found.
        for c in range(chunks[v]):
            d = dom[v, c]
            if not d:
                continue
            rest = np.uint64(missing)
            while rest:
                letter = _lowest(rest)
                rest &= rest - np.uint64(1)
                if d & masks[s, pos, c, letter]:
                    new |= 1 << letter
                    missing ^= 1 << letter
                    support[e, letter] = c
            if not missing:
                break
    if new == old:
        return False
    t = ctl[LET_TRAIL]
    let_e[t], let_old[t] = e, old
    ctl[LET_TRAIL] = t + 1
    letters[e] = new
    w, wpos = partner[e], partner_pos[e]
    ws = slot[w]
    # The partner's words all have a letter of `old` there, so keeping those
    # with a letter of `new` is dropping those with a letter now gone.
    gone = old & ~new
    shrank = False
    for c in range(chunks[w]):
        d = dom[w, c]
        if not d:
            continue
        drop = np.uint64(0)
        rest = np.uint64(gone)
        while rest:
            drop |= masks[ws, wpos, c, _lowest(rest)]
            rest &= rest - np.uint64(1)
        if d & drop:
            _set_chunk(dom, size, w, c, d & ~drop, trail_v, trail_c, trail_old, ctl)
            shrank = True
    return shrank


@njit(cache=True, inline="always", _nrt=False)
def _exclude_word(v, dom, size, chunks, same_start, same_list, changed, trail_v, trail_c, trail_old, ctl):
    """`propagation.exclude_word`: light v holds one word; the light left
    with none, or -1, and the number of lights put in `changed`."""
    c = 0
    while not dom[v, c]:
        c += 1
    word = dom[v, c]
    n = 0
    for i in range(same_start[v], same_start[v + 1]):
        u = same_list[i]
        if c < chunks[u] and dom[u, c] & word:
            _set_chunk(dom, size, u, c, dom[u, c] ^ word, trail_v, trail_c, trail_old, ctl)
            if size[u] == 0:
                return u, n
            changed[n] = u
            n += 1
    return -1, n


@njit(cache=True, inline="always", _nrt=False)
def _holds_capped(dom, v, chunks, slot, cap_rows):
    """Does light v still have a word the cap counts?"""
    for c in range(chunks[v]):
        if dom[v, c] & cap_rows[slot[v], c]:
            return True
    return False


@njit(cache=True, _nrt=False)
def _keep_cap(dom, size, chunks, slot, cap_rows, cap_most, changed, trail_v, trail_c, trail_old, ctl):
    """`propagation.keep_cap`: the light left with no word, or -1, and the number of lights put in `changed`."""
    held, last = 0, -1
    for v in range(dom.shape[0]):
        if size[v] == 1 and _holds_capped(dom, v, chunks, slot, cap_rows):
            held += 1
            last = v
    if held > cap_most:
        return last, 0
    n = 0
    if held == cap_most:
        for u in range(dom.shape[0]):
            if size[u] > 1 and _holds_capped(dom, u, chunks, slot, cap_rows):
                for c in range(chunks[u]):
                    _set_chunk(dom, size, u, c, dom[u, c] & ~cap_rows[slot[u], c], trail_v, trail_c, trail_old, ctl)
                if size[u] == 0:
                    return u, n
                changed[n] = u
                n += 1
    return -1, n


@njit(cache=True, inline="always", _nrt=False)
def _enqueue(changed, k, queue, queued, tail):
    """Queue the first k lights of `changed` that are not queued yet; the queue's new tail."""
    n = queue.shape[0]
    for i in range(k):
        u = changed[i]
        if not queued[u]:
            queued[u] = True
            queue[tail % n] = u
            tail += 1
    return tail


@njit(cache=True, _nrt=False)
def _ac3(first, count, dom, size, letters, support, assigned, chunks, slot, masks, word_letters,
         end_light, end_pos, partner, partner_pos, crossing, end_start, same_start, same_list, allow_repeats,
         cap_rows, cap_most, queue, queued, changed, trail_v, trail_c, trail_old, let_e, let_old, ctl):
    """`propagation.ac3` from the lights first … first + count − 1: NO_WIPEOUT, the
    crossing whose revision emptied a light, or EXCLUSION_WIPEOUT."""
    n = queue.shape[0]
    head = tail = 0
    for v in range(first, first + count):
        queue[tail % n] = v
        queued[v] = True
        tail += 1
    result = NO_WIPEOUT
    while head < tail:
        v = queue[head % n]
        head += 1
        queued[v] = False
        for e in range(end_start[v], end_start[v + 1]):
            w = partner[e]
            if not assigned[w] and _revise(e, dom, size, letters, support, chunks, slot, masks, word_letters,
                                           end_light, end_pos, partner, partner_pos, trail_v, trail_c, trail_old,
                                           let_e, let_old, ctl):
                if size[w] == 0:
                    result = crossing[e]
                    break
                if not queued[w]:
                    queued[w] = True
                    queue[tail % n] = w
                    tail += 1
        if result != NO_WIPEOUT:
            break
        if not allow_repeats and size[v] == 1:
            emptied, k = _exclude_word(v, dom, size, chunks, same_start, same_list, changed, trail_v, trail_c,
                                       trail_old, ctl)
            if emptied >= 0:
                result = EXCLUSION_WIPEOUT
                break
            tail = _enqueue(changed, k, queue, queued, tail)
        if cap_most >= 0 and size[v] == 1 and _holds_capped(dom, v, chunks, slot, cap_rows):
            emptied, k = _keep_cap(dom, size, chunks, slot, cap_rows, cap_most, changed, trail_v, trail_c,
                                   trail_old, ctl)
            if emptied >= 0:
                result = EXCLUSION_WIPEOUT
                break
            tail = _enqueue(changed, k, queue, queued, tail)
    while head < tail:  # leave the flags clear for the next call
        queued[queue[head % n]] = False
        head += 1
    return result


@njit(cache=True, _nrt=False)
def _dom_wdeg(dom, size, assigned, weight, chunks, end_start, partner, crossing):
    """`reference.dom_wdeg`: the unassigned light minimising size / weighted degree; -1 if none."""
    best, best_key = -1, math.inf
    for v in range(assigned.shape[0]):
        if assigned[v]:
            continue
        wdeg = 0
        for e in range(end_start[v], end_start[v + 1]):
            if not assigned[partner[e]]:
                wdeg += weight[crossing[e]]
        key = size[v] / wdeg if wdeg else math.inf
        if key < best_key or best < 0:
            best, best_key = v, key
    return best


@njit(cache=True, inline="always", _nrt=False)
def _best_word(dom, v, chunks, slot, tiers, n_tiers, hint, ctl):
    """The light's hinted word while it is left; otherwise, in the least penalised tier that has
    any word left, the best word (`reference.best_score_first`) or, with choices, the seeded
    pick among its best (`reference.seeded_among`)."""
    k = hint[v]
    if k >= 0 and k >> 6 < chunks[v] and dom[v, k >> 6] >> np.uint64(k & 63) & np.uint64(1):
        return k
    s = slot[v]
    for t in range(n_tiers[s]):
        for c in range(chunks[v]):
            if dom[v, c] & tiers[s, t, c]:
                return _pick(dom, v, chunks, tiers, s, t, ctl)
    return _pick(dom, v, chunks, tiers, s, -1, ctl)


@njit(cache=True, inline="always", _nrt=False)
def _pick(dom, v, chunks, tiers, s, t, ctl):
    """Among the words left of light v (in tier t, unless t < 0), the lowest bit, or with
    ctl[CHOICES] > 1 the seeded pick among that many lowest (`reference._seeded_pick`); -1 if none."""
    choices, count = ctl[CHOICES], 0
    for c in range(chunks[v]):
        count += _popcount(_words(dom, v, c, tiers, s, t))
        if count >= choices:
            break
    if count == 0:
        return -1
    r = 0
    if choices > 1:
        r = _pick_index(ctl[SEED], ctl[PICKS], min(count, choices))
        ctl[PICKS] += 1
    for c in range(chunks[v]):
        x = _words(dom, v, c, tiers, s, t)
        while x:
            if r == 0:
                return c * 64 + _lowest(x)
            r -= 1
            x &= x - np.uint64(1)
    return -1


@njit(cache=True, inline="always", _nrt=False)
def _words(dom, v, c, tiers, s, t):
    """Chunk c of light v's words left, those of tier t only unless t < 0."""
    return dom[v, c] & tiers[s, t, c] if t >= 0 else dom[v, c]


@njit(cache=True, inline="always", _nrt=False)
def _pick_index(seed, count, n):
    """`picks.pick_index` in unsigned 64-bit arithmetic, which wraps as its masks do."""
    z = np.uint64(seed) + np.uint64(count + 1) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


@njit(cache=True, _nrt=False)
def _search(dom, size, letters, support, assigned, weight, chunks, slot, masks, word_letters, tiers,
            n_tiers, hint, end_light, end_pos, partner, partner_pos, crossing, end_start, same_start, same_list,
            allow_repeats, cap_rows, cap_most, queue, queued, changed, trail_v, trail_c, trail_old, let_e, let_old,
            frame_light, frame_node, frame_value, frame_word, ctl, steps):
    """`reference.backtrack` with two-way branching, for at most `steps` loop turns (then PAUSED)."""
    failed = ctl[FAILED]
    for _ in range(steps):
        f = ctl[FRAMES]
        if not failed:
            v = _dom_wdeg(dom, size, assigned, weight, chunks, end_start, partner, crossing)
            if v < 0:
                return SOLVED
            if size[v] == 0:
                # Only after a cut, which empties domains without propagating: the words on the path fail.
                failed = True
                continue
            ctl[NODES] += 1
            frame_light[f] = v
            frame_node[f, 0], frame_node[f, 1] = ctl[DOM_TRAIL], ctl[LET_TRAIL]
            ctl[FRAMES] = f = f + 1
        else:
            # The word on top failed: withdraw it, then refute it with the
            # light unassigned, so that the refutation propagates to it.
            if f == 0:
                return UNSAT
            if ctl[BACKTRACKS] >= ctl[MAX_BACKTRACKS]:
                # Out of budget, the state untouched: a later run takes this backtrack.
                ctl[FAILED] = 1
                return TIMEOUT
            v = frame_light[f - 1]
            _undo(dom, size, letters, trail_v, trail_c, trail_old, let_e, let_old, ctl, frame_value[f - 1, 0],
                  frame_value[f - 1, 1])
            assigned[v] = False
            ctl[BACKTRACKS] += 1
            k = frame_word[f - 1]
            c = k >> 6
            # Clear, not flip: a cut (`Search.cut`) may have taken the word already.
            _set_chunk(dom, size, v, c, dom[v, c] & ~(np.uint64(1) << np.uint64(k & 63)), trail_v, trail_c,
                       trail_old, ctl)
            refuted = size[v] > 0
            if refuted:
                wipeout = _ac3(v, 1, dom, size, letters, support, assigned, chunks, slot, masks,
                               word_letters, end_light, end_pos, partner, partner_pos, crossing, end_start,
                               same_start, same_list, allow_repeats, cap_rows, cap_most, queue, queued, changed,
                               trail_v, trail_c, trail_old, let_e, let_old, ctl)
                if wipeout >= 0:
                    weight[wipeout] += 1
                refuted = wipeout == NO_WIPEOUT
            if not refuted:
                _undo(dom, size, letters, trail_v, trail_c, trail_old, let_e, let_old, ctl, frame_node[f - 1, 0],
                      frame_node[f - 1, 1])
                ctl[FRAMES] = f - 1
                continue
        v = frame_light[f - 1]
        k = _best_word(dom, v, chunks, slot, tiers, n_tiers, hint, ctl)
        frame_word[f - 1] = k
        frame_value[f - 1, 0], frame_value[f - 1, 1] = ctl[DOM_TRAIL], ctl[LET_TRAIL]
        assigned[v] = True
        for c in range(chunks[v]):
            _set_chunk(dom, size, v, c, (np.uint64(1) << np.uint64(k & 63)) if c == k >> 6 else np.uint64(0),
                       trail_v, trail_c, trail_old, ctl)
        wipeout = _ac3(v, 1, dom, size, letters, support, assigned, chunks, slot, masks, word_letters,
                       end_light, end_pos, partner, partner_pos, crossing, end_start, same_start, same_list,
                       allow_repeats, cap_rows, cap_most, queue, queued, changed, trail_v, trail_c, trail_old, let_e,
                       let_old, ctl)
        if wipeout >= 0:
            weight[wipeout] += 1
        failed = wipeout != NO_WIPEOUT
    ctl[FAILED] = failed
    return PAUSED


@njit(cache=True, _nrt=False)
def _cut(dom, size, assigned, chunks, keep, trail_v, trail_c, trail_old, frame_light, frame_word, ctl):
    """Keep only each light's first keep[v] words, now and in every state the search can go back to
    (the trail's saved chunks), and leave the stack at the first frame whose word is cut, failed;
    False if no word on the stack is cut (the search then goes on as after any fill)."""
    for t in range(ctl[DOM_TRAIL]):
        trail_old[t] &= _prefix_chunk(keep[trail_v[t]], trail_c[t])
    for v in range(dom.shape[0]):
        size[v] = 0
        for c in range(chunks[v]):
            dom[v, c] &= _prefix_chunk(keep[v], c)
            size[v] += _popcount(dom[v, c])
        # The chunks past the kept words are empty in every state now: the loops over a domain stop before them.
        chunks[v] = min(chunks[v], max(1, -(-keep[v] // 64)))
    for f in range(ctl[FRAMES]):
        if frame_word[f] >= keep[frame_light[f]]:
            for g in range(f + 1, ctl[FRAMES]):
                assigned[frame_light[g]] = False  # the frames above are dropped with their words
            ctl[FRAMES] = f + 1
            return True
    return False


@njit(cache=True, inline="always", _nrt=False)
def _prefix_chunk(n, c):
    """Chunk c of the bitset of the first n words."""
    if c < n >> 6:
        return ~np.uint64(0)
    if c == n >> 6:
        return (np.uint64(1) << np.uint64(n & 63)) - np.uint64(1)
    return np.uint64(0)


@functools.lru_cache(maxsize=64)
def _index_arrays(index: LengthIndex) -> tuple[np.ndarray, np.ndarray]:
    """A word index as the kernel reads it: masks[pos, chunk, letter], the
    words with that letter there as 64-bit chunks, and each word's letters (0-25); made once per index, as
    the probes of a pack's puzzles all read the same few."""
    chunks = max(1, -(-len(index.words) // 64))
    masks = np.array([[_rows(mask, chunks) for mask in by_letter] for by_letter in index.masks], dtype=np.uint64)
    masks = masks.reshape(len(index.masks), len(ALPHABET), chunks).transpose(0, 2, 1).copy()
    letters = np.frombuffer("".join(index.words).encode("ascii"), dtype=np.uint8).reshape(
        len(index.words), len(index.masks)) - ord(ALPHABET[0])
    return masks, letters


def _rows(value: int, chunks: int) -> np.ndarray:
    return np.frombuffer(value.to_bytes(chunks * 8, "little"), dtype="<u8")


class Search:
    """One search, resumable: `run` spends more backtracks on it; after a
    fill, `run` goes on to the next one (the fill's last word refuted), so
    the fills of a problem come one by one and UNSAT then means "no other"."""

    def __init__(self, net: Network, domains: list[int], tiers: tuple[tuple[int, ...], ...], *,
                 choices: int = 1, seed: int = 0) -> None:
        """The search of `net` from the first `domains` (`propagation.initial_domains`),
        with the penalty `tiers` of `reference.penalty_tiers`, taking the best word or, with
        `choices` > 1, a pick by `seed` among that many best; the first AC-3 runs here."""
        n = self.lights = len(domains)
        self.status = "UNSAT" if not all(domains) else ""
        self.initial_domain = sum(d.bit_count() for d in domains)  # words left after the first AC-3
        self._ctl = np.zeros(11, dtype=np.int64)
        self._ctl[CHOICES], self._ctl[SEED] = max(1, choices), seed & SEED_MASK
        self._first = list(domains)  # the domains while no search state is built
        self._hint = np.full(n, -1, dtype=np.int64)
        self._dom: np.ndarray | None = None
        if self.status or not n:
            return
        # One slot per word length; a slot spans the words any of its lights can hold.
        slots: dict[int, int] = {}
        slot = np.zeros(n, dtype=np.int64)
        span: list[int] = []
        for v, index in enumerate(net.index):
            s = slots.setdefault(len(index.masks), len(slots))
            if s == len(span):
                span.append(0)
            slot[v] = s
            span[s] = max(span[s], domains[v].bit_length())
        slot_index = [next(net.index[v] for v in range(n) if slot[v] == s) for s in range(len(slots))]
        slot_chunks = [max(1, -(-bits // 64)) for bits in span]
        width = max(slot_chunks)
        length = max(len(index.masks) for index in slot_index)
        chunks = self._chunks = np.array([slot_chunks[s] for s in slot], dtype=np.int64)
        masks = np.zeros((len(slots), length, width, len(ALPHABET)), dtype=np.uint64)
        word_letters = np.zeros((len(slots), width * 64, length), dtype=np.uint8)
        n_tiers = np.zeros(len(slots), dtype=np.int64)
        tier_rows = np.zeros((len(slots), max((len(t) for t in tiers), default=0), width), dtype=np.uint64)
        cap_rows = np.zeros((len(slots), width), dtype=np.uint64)
        for s, index in enumerate(slot_index):
            # Bits past the span stand for words no domain holds: harmless, so no mask is cut.
            index_masks, index_letters = _index_arrays(index)
            c = min(slot_chunks[s], index_masks.shape[1])
            masks[s, :len(index.masks), :c] = index_masks[:, :c]
            k = min(c * 64, len(index.words))
            word_letters[s, :k, :len(index.masks)] = index_letters[:k]
            light_tiers = tiers[next(v for v in range(n) if slot[v] == s)] if tiers else ()
            n_tiers[s] = len(light_tiers)
            for t, tier in enumerate(light_tiers):
                tier_rows[s, t, :slot_chunks[s]] = _rows(tier & ((1 << span[s]) - 1), slot_chunks[s])
            capped = net.cap_masks[next(v for v in range(n) if slot[v] == s)]
            cap_rows[s, :slot_chunks[s]] = _rows(capped & ((1 << span[s]) - 1), slot_chunks[s])
        dom = self._dom = np.zeros((n, width), dtype=np.uint64)
        for v, domain in enumerate(domains):
            dom[v, :chunks[v]] = _rows(domain, int(chunks[v]))
        size = np.array([domain.bit_count() for domain in domains], dtype=np.int64)

        # The kernel numbers ends light by light (a light's ends are one run), in the
        # network's order within a light; end_order maps them back to the network's.
        end_order = np.array([e for light_ends in net.ends for e in light_ends], dtype=np.int64)
        end_start = np.zeros(n + 1, dtype=np.int64)
        end_start[1:] = np.cumsum([len(e) for e in net.ends])
        same_start = np.zeros(n + 1, dtype=np.int64)
        same_start[1:] = np.cumsum([len(s) for s in net.same_length])
        same_list = np.array([u for s in net.same_length for u in s], dtype=np.int64)
        end_light, end_pos, partner, partner_pos = (np.array(a, dtype=np.int64)[end_order] for a in
                                                    (net.end_light, net.end_pos, net.partner, net.partner_pos))
        # Blame goes to the crossing an end belongs to: the network's end e is on crossing e >> 1.
        crossing = end_order >> 1
        n_ends = len(end_order)
        letters = np.full(n_ends, (1 << len(ALPHABET)) - 1, dtype=np.int64)
        support = np.zeros((n_ends, len(ALPHABET)), dtype=np.int64)
        # Along a path every trail entry removes a word (a letter), so these rooms are never outgrown.
        trail_room = sum(d.bit_count() for d in domains) + n * width + 1
        let_room = len(ALPHABET) * n_ends + 1
        self._state = (dom, size, letters, support, np.zeros(n, dtype=np.bool_),
                       np.ones(max(1, n_ends), dtype=np.int64), chunks, slot, masks, word_letters, tier_rows, n_tiers,
                       self._hint, end_light, end_pos, partner, partner_pos, crossing, end_start, same_start, same_list,
                       net.allow_repeats, cap_rows, net.cap_most, np.zeros(n, dtype=np.int64),
                       np.zeros(n, dtype=np.bool_),
                       np.zeros(n, dtype=np.int64), np.zeros(trail_room, dtype=np.int64),
                       np.zeros(trail_room, dtype=np.int64), np.zeros(trail_room, dtype=np.uint64),
                       np.zeros(let_room, dtype=np.int64), np.zeros(let_room, dtype=np.int64),
                       np.zeros(n + 1, dtype=np.int64), np.zeros((n + 1, 2), dtype=np.int64),
                       np.zeros((n + 1, 2), dtype=np.int64), np.zeros(n + 1, dtype=np.int64), self._ctl)
        (dom, size, letters, support, assigned, _, chunks, slot, masks, word_letters, _, _, _, *network,
         queue, queued, changed, trail_v, trail_c, trail_old, let_e, let_old) = self._state[:STATE_FRAMES]
        wipeout = _ac3(0, n, dom, size, letters, support, assigned, chunks, slot, masks, word_letters,
                       *network, queue, queued, changed, trail_v, trail_c, trail_old, let_e, let_old, self._ctl)
        self.initial_domain = int(size.sum())
        if wipeout != NO_WIPEOUT:
            self.status = "UNSAT"

    def run(self, backtracks: float = math.inf, deadline: float = math.inf) -> str:
        """Search on for at most `backtracks` more: "SOLVED" (`domains` holds the
        fill), "UNSAT" (no fill, or no fill other than those returned before) or
        "TIMEOUT". Raises DeadlineExceeded past `deadline` (checked between chunks)."""
        if not self.lights:  # filled as it stands, once; then no other fill
            self.status = "UNSAT" if self.status else "SOLVED"
        if self.status == "UNSAT" or not self.lights:
            return self.status
        ctl = self._ctl
        if self.status == "SOLVED":
            ctl[FAILED] = 1  # refute the fill's last word: the next fill, if any
        # After a cut the stack already stands at the failed frame (`cut`).
        ctl[MAX_BACKTRACKS] = NO_LIMIT if backtracks == math.inf else ctl[BACKTRACKS] + int(backtracks)
        while True:
            status = _search(*self._state, CHUNK_STEPS)
            if status != PAUSED:
                self.status = ("SOLVED", "UNSAT", "TIMEOUT")[status]
                return self.status
            if time.perf_counter() > deadline:
                raise DeadlineExceeded

    def cut(self, keep: list[int]) -> None:
        """After a fill, keep only each light's first `keep[v]` words (for words
        ranked best first, a higher floor on the score) and go on with the same
        search: a branch and bound, where the subtrees already refuted stay
        refuted. The words are taken from every state the search can go back
        to, and from the stack the first frame whose word is cut on; lights
        they leave empty fail when the search meets them. `run` then gives the
        next fill within the cut, or "UNSAT" when there is none."""
        if self.status != "SOLVED" or self._dom is None:
            raise ValueError("a search is cut after a fill")
        (dom, size, _, _, assigned, _, chunks, *_rest) = self._state
        trail_v, trail_c, trail_old = self._state[STATE_TRAIL:STATE_TRAIL + 3]
        frame_light, _, _, frame_word = self._state[STATE_FRAMES:STATE_FRAMES + 4]
        keep_at = np.array(keep, dtype=np.int64)
        if _cut(dom, size, assigned, chunks, keep_at, trail_v, trail_c, trail_old, frame_light, frame_word,
                self._ctl):
            self._ctl[FAILED] = 1
            self.status = "CUT"

    def hint(self, words: list[int]) -> None:
        """Try these words first (a bit per light, as in `domains`; 0 for none),
        each while its light can still take it: a search for a fill near a
        fill already known. Without a hint the search is the reference solver's."""
        self._hint[:] = [w.bit_length() - 1 for w in words]

    @property
    def domains(self) -> list[int]:
        """Each light's domain now, as a Python bitset (one word each after "SOLVED")."""
        if self._dom is None:
            return self._first
        return [int.from_bytes(self._dom[v, :self._chunks[v]].tobytes(), "little") for v in range(self.lights)]

    @property
    def nodes(self) -> int:
        return int(self._ctl[NODES])

    @property
    def backtracks(self) -> int:
        """Backtracks taken; a run that ran out of budget also counts the one it
        stopped at, as `reference.py` does (which a later run then takes)."""
        return int(self._ctl[BACKTRACKS]) + (self.status == "TIMEOUT")

    @property
    def revisions(self) -> int:
        return int(self._ctl[REVISIONS])


@functools.cache
def warm_up() -> None:
    """Compile (or load) every kernel, once per process, on a 3×3 grid that
    fills and is cut, so that no later search pays for it; a damaged cache is
    rebuilt (`kernel_cache.warmed`)."""
    kernel_cache.warmed(_warm)


def _warm() -> None:
    from mobius.cpmodel.crossword.grid import make_grid
    from mobius.cpmodel.crossword.problem import FillProblem
    from mobius.cpmodel.crossword.propagation import build_network, initial_domains
    from mobius.dictionaries import from_words

    problem = FillProblem(make_grid(["...", "...", "..."]), from_words(["ABC", "DEF", "GHI", "ADG", "BEH", "CFI"]))
    net = build_network(problem)
    search = Search(net, initial_domains(problem, net), ())
    search.run()
    search.cut([len(index.words) for index in net.index])  # the cut's kernel too, every word kept
