"""The hand-written reference crossword filler: backtracking over lights.

Covers: `ReferenceSolver`, a classic CSP search in the style of aima-python's
`csp.py`, over the network and domains of `propagation.py` (variables are the
lights, a light's domain the words that fit it, every shared cell a binary
constraint). Search is depth-first with two-way branching (light = word,
then light ≠ word); variables are chosen by `mrv` or `dom_wdeg` (whose
crossing weights grow with each `Wipeout` propagation reports), values best
score first (`best_score_first`, or `seeded_near_best` when randomised, or
`seeded_among` — a seeded choice among the few best — with ``choices=N``),
always from the least penalised words left when the problem carries soft
penalties (`penalty_tiers`), and each choice is followed by `forward_check`
or by `ac3` (maintained arc consistency). Optional Luby restarts on a
backtrack budget. A hard deadline is checked at every node and every few
hundred arc revisions. Wherever its options allow (dom/wdeg, MAC, no
randomize or restarts), the same search runs compiled (`compiled.py`: node
for node this one) unless ``compiled=false`` asks for this pure-Python one.

Leaves out: the word index, the network and arc consistency
(`propagation.py`), clue quality and fill scoring beyond the value order,
other puzzle families, and any CP-SAT model (`cpsat.py`).
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from mobius.cpmodel.crossword.picks import SEED_MASK, pick_index
from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.crossword.propagation import (Network, State, Wipeout, ac3, build_network, initial_domains,
                                           length_index, revise, singleton_rules)
from mobius.cpmodel.deadline import DeadlineExceeded
from mobius.cpmodel.solver import Budget, SolveResult, SolverBase, Status, option

# Luby restarts allow unit × luby(i) backtracks in run i. A hundred lets a run
# get past the first few levels of a 15×15 grid; smaller units thrash.
RESTART_UNIT_BACKTRACKS = 100
# Randomised value order picks among this many best words: enough to send
# restarts down different paths, few enough to keep the value order's sense.
RANDOM_CHOICES = 3
# MRV breaks ties between equal domain sizes by degree; degrees stay below this.
DEGREE_SPAN = 1 << 12


# --- value order: penalties ---------------------------------------------------

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


# --- search state -------------------------------------------------------------

class SearchState(State):
    """Propagation's state plus what search changes: the dom/wdeg weights,
    the tie-break order, the seeded generator, the counters and budgets."""

    def __init__(self, net: Network, domains: list[int], deadline: float, rng: random.Random,
                 max_backtracks: float = math.inf, seed: int = 0) -> None:
        super().__init__(net, domains, deadline)
        self.weight = [1] * (len(net.end_light) // 2)  # dom/wdeg: failures per crossing
        self.order = list(range(len(domains)))  # variable tie-break order
        self.max_backtracks = max_backtracks
        self.rng = rng  # the shuffles of the tie-break order (randomize, restarts)
        self.seed = seed & SEED_MASK  # the seeded picks' stream (`pick_index`)
        self.picks = 0
        self.nodes = self.backtracks = self.restarts = 0
        self.tiers: tuple[tuple[int, ...], ...] = ()  # `penalty_tiers`, when the value order weighs penalties

    def check_deadline(self) -> None:
        # The backtrack budget is the limit that is the same on every machine.
        if self.backtracks > self.max_backtracks:
            raise DeadlineExceeded
        super().check_deadline()


# --- inference ----------------------------------------------------------------

def forward_check(net: Network, st: SearchState, v: int) -> bool:
    """After assigning v: revise its neighbours once, without propagating further."""
    assigned = st.assigned
    for e in net.ends[v]:
        # An assigned partner already agrees with every word left here.
        if not assigned[net.partner[e]] and revise(net, st, e) and not st.dom[net.partner[e]]:
            st.weight[e >> 1] += 1
            return False
    return all(emptied is None for emptied in singleton_rules(net, st, v, []))


def maintain_arc_consistency(net: Network, st: SearchState, v: int) -> bool:
    """After assigning or refuting v: AC-3 from v; a wipeout by a crossing
    weighs that crossing one more for dom/wdeg."""
    return consistent_or_blamed(st, ac3(net, st, (v,)))


def consistent_or_blamed(st: SearchState, failure: Wipeout | None) -> bool:
    """True when propagation met no wipeout; otherwise charge the crossing that caused it."""
    if failure is None:
        return True
    if failure.crossing is not None:
        st.weight[failure.crossing] += 1
    return False


def no_inference(net: Network, st: SearchState, v: int) -> bool:
    return True


# --- variable and value order ---------------------------------------------------

def mrv(net: Network, st: SearchState) -> int:
    """The unassigned light with the fewest words left (most crossings on ties); -1 if none."""
    best, best_key = -1, math.inf
    dom, assigned, degree = st.dom, st.assigned, net.degree
    for v in st.order:
        if not assigned[v]:
            key = dom[v].bit_count() * DEGREE_SPAN - degree[v]
            if key < best_key:
                best, best_key = v, key
    return best


def dom_wdeg(net: Network, st: SearchState) -> int:
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


def preferred(st: SearchState, v: int, domain: int) -> int:
    """The words of `domain` in the least penalised group that has any."""
    if st.tiers:
        for tier in st.tiers[v]:
            if domain & tier:
                return domain & tier
    return domain


def best_score_first(net: Network, st: SearchState, v: int, domain: int) -> int:
    """The best word left in `LengthIndex` order (score, then friendliness)
    among the least penalised ones, as a one-bit set."""
    words = preferred(st, v, domain)
    return words & -words


def seeded_near_best(net: Network, st: SearchState, v: int, domain: int) -> int:
    """One of the RANDOM_CHOICES best words left, chosen by the seed, among
    those sharing the best score (of the least penalised); as a one-bit set."""
    words = preferred(st, v, domain)
    end_of_score = (1 << net.index[v].group_end((words & -words).bit_length() - 1)) - 1
    return _seeded_pick(st, words & end_of_score, RANDOM_CHOICES)


def seeded_among(choices: int) -> Pick:
    """A value order choosing, by the seed, one of the `choices` best words
    left (of the least penalised): one grid gets many different fills while
    every word tried is still near the top."""
    def pick(net: Network, st: SearchState, v: int, domain: int) -> int:
        return _seeded_pick(st, preferred(st, v, domain), choices)
    return pick


def _seeded_pick(st: SearchState, words: int, choices: int) -> int:
    """One of the first `choices` set bits of `words`, chosen by the seed."""
    found = []
    rest = words
    while rest and len(found) < choices:
        low = rest & -rest
        found.append(low)
        rest ^= low
    st.picks += 1
    return found[pick_index(st.seed, st.picks - 1, len(found))]


# --- search -------------------------------------------------------------------

Select = Callable[[Network, SearchState], int]
Infer = Callable[[Network, SearchState, int], bool]
Pick = Callable[[Network, SearchState, int, int], int]


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


def backtrack(net: Network, st: SearchState, select: Select, infer: Infer, refute: Infer, pick: Pick,
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


def restarting(net: Network, st: SearchState, select: Select, infer: Infer, refute: Infer, pick: Pick,
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


# Seconds of pure-Python search a process spends, under the default, before it loads the compiled kernels
# (numba imported, the kernels read from their cache): about what loading them costs.
LOAD_ALLOWANCE_S = 0.6
COMPILED_MODULE = "mobius.cpmodel.crossword.compiled"


@dataclass
class Tiers:
    """When the default search loads the compiled kernels in this process: a one-off cost (about
    `LOAD_ALLOWANCE_S`) that pays for itself only over enough search. The pure-Python search runs until
    the process has spent the allowance in it; a search cut short there starts again compiled (node for
    node the same search, so the same answer and counters) and every later one runs compiled. A command
    that fills one easy grid never loads numba, a long run loads it once, and neither pays more than
    the allowance on top of the better choice in hindsight."""

    spent_s: float = 0.0
    bought: bool = False

    def loaded(self) -> bool:
        """Whether the kernels are loaded or being used in this process (the worst-answer probes load
        them too): then every search runs compiled."""
        return self.bought or COMPILED_MODULE in sys.modules

    def allowance(self) -> float:
        return max(0.0, LOAD_ALLOWANCE_S - self.spent_s)

    def spend(self, seconds: float) -> None:
        self.spent_s += seconds


_TIERS = Tiers()


@dataclass(frozen=True)
class ReferenceSolver(SolverBase):
    """Backtracking fill with MRV or dom/wdeg, forward checking or MAC."""

    name: ClassVar[str] = "reference"
    budget: ClassVar[Budget] = Budget("max_backtracks", "backtracks", "backtracks")

    select: str = option("domwdeg", choices=SELECTIONS, help="variable choice")
    inference: str = option("ac3", choices=INFERENCES, help="ac3 (maintained arc consistency) or fc")
    randomize: bool = option(False, help="seeded near-best word order and tie-breaks")
    restarts: bool = option(False, help="Luby restarts")
    # A deterministic budget: the pack generator uses it so that which
    # patterns get rejected does not depend on the machine's speed.
    max_backtracks: int | None = option(None, minimum=0, help="give up (TIMEOUT) after this many backtracks")
    # Packs use it to get many fills of one grid, each near the best.
    choices: int | None = option(None, minimum=1, help="seeded choice among this many best words at each step")
    # The same search in numba (`compiled.py`): same nodes, same answer, a backtrack in tens of
    # microseconds against a third of a millisecond; for dom/wdeg with MAC, without randomize or restarts.
    # Unset, it is the default wherever the other options allow it (once the process has spent enough in
    # the pure-Python search to pay for loading it: `Tiers`), since a user who takes the defaults should
    # get the fastest correct search; compiled=false keeps the pure-Python search, the reference the
    # compiled one is tested against.
    compiled: bool | None = option(None, help="run the search compiled (domwdeg, ac3; choices allowed); "
                                              "unset: compiled wherever the other options allow it")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.compiled and not self.compilable:
            raise ValueError("compiled=true runs only select=domwdeg, inference=ac3, "
                             "without randomize or restarts")

    @property
    def compilable(self) -> bool:
        """Whether the compiled search runs these options: dom/wdeg with MAC, without randomize or restarts."""
        return (self.select, self.inference, self.randomize, self.restarts) == ("domwdeg", "ac3", False, False)

    @property
    def runs_compiled(self) -> bool:
        """Whether `solve` runs the compiled search: as `compiled` says, or, unset, wherever it can."""
        return self.compilable if self.compiled is None else self.compiled

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        deadline = started + time_limit if time_limit is not None else math.inf
        budget = math.inf if self.max_backtracks is None else self.max_backtracks
        if self.compiled is None and self.compilable and not _TIERS.loaded():
            # Compiled by default, but the kernels' loading is bought only once the pure-Python search
            # has cost the process as much (`Tiers`): the same search either way, so the same answer.
            switch = started + _TIERS.allowance()
            result = self._solve_python(problem, min(deadline, switch), budget, seed, started)
            _TIERS.spend(time.perf_counter() - started)
            if result.status is not Status.TIMEOUT or time.perf_counter() < switch or \
                    time.perf_counter() >= deadline:
                return result
            _TIERS.bought = True
        if not self.runs_compiled:
            return self._solve_python(problem, deadline, budget, seed, started)
        from mobius.cpmodel.crossword import compiled  # numba loads only for the runs that ask for it

        loading = time.perf_counter()
        compiled.warm_up()  # loading the kernels is start-up: not part of the time limit
        return self._solve_compiled(problem, started, deadline + time.perf_counter() - loading, budget, seed)

    def _solve_python(self, problem: FillProblem, deadline: float, budget: float, seed: int,
                      started: float) -> SolveResult:
        """The pure-Python search, out of time (TIMEOUT) at `deadline`."""
        rng = random.Random(seed)
        st: SearchState | None = None
        initial_domain = 0
        try:
            # Model: one variable per light, its domain the words that fit it
            # (set-up counts against the time limit too).
            net = build_network(problem, deadline)
            st = SearchState(net, initial_domains(problem, net), deadline, rng, budget, seed)
            st.tiers = penalty_tiers(problem)
            if self.randomize:
                rng.shuffle(st.order)
            # Initial AC-3 on the whole network proves many grids UNSAT alone.
            consistent = all(st.dom) and consistent_or_blamed(st, ac3(net, st, range(len(st.dom))))
            initial_domain = sum(d.bit_count() for d in st.dom)
            if not consistent:
                status = Status.UNSAT
            else:
                # Search: two-way branching with the chosen strategies.
                infer, refute = INFERENCES[self.inference]
                pick = seeded_among(self.choices) if self.choices else \
                    seeded_near_best if self.randomize else best_score_first
                status = restarting(net, st, SELECTIONS[self.select], infer, refute, pick, self.restarts)
        except DeadlineExceeded:
            status = Status.TIMEOUT

        # Statistics and the answer.
        stats = search_stats(initial_domain=initial_domain) if st is None else \
            search_stats(st.nodes, st.backtracks, st.revisions, st.restarts, initial_domain)
        # SOLVED is only reached with the network and state built.
        fill = read_fill(problem, net, st.dom) if status is Status.SOLVED and st is not None else None
        return SolveResult(status, fill, self.name, time.perf_counter() - started, stats)

    def _solve_compiled(self, problem: FillProblem, started: float, deadline: float, budget: float,
                        seed: int) -> SolveResult:
        from mobius.cpmodel.crossword import compiled
        try:
            net = build_network(problem, deadline)
            search = compiled.Search(net, initial_domains(problem, net), penalty_tiers(problem),
                                     choices=self.choices or 1, seed=seed)
            status = Status[search.run(budget, deadline)]
        except DeadlineExceeded:
            return SolveResult(Status.TIMEOUT, None, self.name, time.perf_counter() - started, search_stats())
        stats = search_stats(search.nodes, search.backtracks, search.revisions, 0, search.initial_domain)
        fill = read_fill(problem, net, search.domains) if status is Status.SOLVED else None
        return SolveResult(status, fill, self.name, time.perf_counter() - started, stats)


def search_stats(nodes: int = 0, backtracks: int = 0, revisions: int = 0, restarts: int = 0,
                 initial_domain: int = 0) -> dict[str, int | float]:
    """The counters a reference fill reports, compiled or not."""
    return {"nodes": nodes, "backtracks": backtracks, "revisions": revisions, "restarts": restarts,
            "initial_domain": initial_domain}


def read_fill(problem: FillProblem, net: Network, domains: list[int]) -> Fill:
    """The letters of the one word left in each light, plus the prefilled cells."""
    fill: Fill = dict(problem.grid.letters)
    for light, index, domain in zip(problem.lights.lights, net.index, domains):
        word = index.words[domain.bit_length() - 1]
        fill.update(zip(light.cells, word))
    return fill
