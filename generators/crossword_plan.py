"""The plan of a crossword pack: which pattern each puzzle gets, which words
it may use, and whether a finished puzzle may join the pack.

Covers: `CrosswordPlan`, the `PackPlan` of `mobius pack crossword`, and
`CrosswordJob`, the input it gives each job.

- Patterns come from the pack's `PatternSurvey` (distinct grids, the pack's
  lane of the space first): each puzzle moves the walk on by a few grids
  (`MAX_WINDOW`, fewer in a space with less room) and takes, of the grids
  drawn and not yet taken, the one expected to fill most often from the
  words it may use (`fill_estimate`), so no two puzzles share a grid while
  the space lasts and a late puzzle chooses from as many fresh grids as an
  early one. While no grid drawn is easy the walk goes on a little further;
  grids expected to fill very rarely (`HOPELESS_LOG_FILLS`) are taken only
  while none has filled. Once the walk is used up — the rules allow fewer grids
  than the pack has puzzles, which the plan says up front when it knows —
  each new puzzle takes, of the grids that filled before, the one used least
  so far (not one another job of the round has, then the one that
  filled most reliably), so repeats are spread evenly, each time with
  another fill.
- A job that cannot fill its grid within its budget is tried again with
  another grid (in a space too large to list, a puzzle's first attempts get
  only `FIRST_TRY_SHARE` of the budget: other grids are plentiful); a grid that
  fails too often (more than one try in `RETIRE_RATIO` + 1) is not handed
  out again while others are left. A job whose puzzle clashes with one
  accepted before it keeps its grid, and its fill is mended: the
  lights holding the answers taken are solved again with their crossings
  (`polish.repair`), and only if that fails is the grid filled anew. A
  puzzle is given up (and reported) only when no grid the rules allow has
  ever filled, or after `MAX_TRIES` attempts.
- Words follow `word_policy`, whose demand is re-estimated from the puzzles
  made after every round's worth (and the policy widened if they need more):
  the job may not use the words the ledger bars, prefers unused ones, and, to keep the jobs of one round apart, the words
  of its own share of the list.
- `final_problems` re-checks the finished pack from its puzzle files alone:
  no fill twice, no grid twice unless the walk was used up, and the repeat
  policy over every answer.

Leaves out: making a puzzle (`crossword_pack.py`), running rounds
(`pack.py`).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cpmodel.crossword.grid import Grid, make_grid
from cpmodel.crossword.lights import find_lights
from dictionaries import WordList
from generators.fill_estimate import FillEstimate
from generators.fill_words import WordUse
from generators.pack import PackError, derive_seed
from generators.rounds import ROUND_SIZE, ROUNDS_IN_FLIGHT, Avoid
from generators.pattern_space import PATTERN_LANES, PatternSurvey, canonical_key, lane_of
from generators.pattern_rules import PatternSpec, by_model
from generators.quality import pack_quality
from generators.word_policy import (AnswerLedger, count_recurrences, decide_policy, policy_problems,
                                    widen_policy)

if TYPE_CHECKING:
    from generators.executors import Executor

# Patterns drawn before the first round to estimate how many lights of each
# length the pack needs (the repeat policy's demand).
DEMAND_SAMPLE = 24
# A grid is not handed out again once it fails more than about one try in
# RETIRE_RATIO + 1: how hard a grid is to fill hardly depends on the seed (on
# the 11×5 Möbius strip three seeds of one grid need about the same
# backtracks), so a grid that never filled is not tried twice, and one that
# fails more often costs more than a reliable grid. A retired grid that did
# fill comes back when no other grid is left.
RETIRE_RATIO = 3
# The share of the fill budget a puzzle's first attempts get (up to
# FULL_BUDGET_AFTER), when the space is too large to list: grids are
# plentiful there, so a grid that does not fill quickly is dropped for the
# next. On the 9×7 torus a third of the grids fill within 300 backtracks and
# only a twelfth more within 1,000. Grids that filled before get no more:
# late in a 1,000-puzzle 11×5 pack every puzzle takes such a grid, and with
# the whole budget each failure there cost three early ones (260 s for the
# pack and its last hundred puzzles 1.55× its first by mean; with this
# share, 221 s and 1.13×).
FIRST_TRY_SHARE = 0.3
# Attempts of one puzzle after which its grids get the whole budget: late in
# a large pack the best words are used and few fills come quickly, so a
# puzzle that keeps failing is given the time it needs rather than failing
# the pack (a grid that fails at 300 backtracks there fills at 1,000 about
# one time in eight).
FULL_BUDGET_AFTER = 8
# Attempts of one puzzle after which it is made relaxed (`word_policy`): the
# gaps of recurring lengths no longer bind it. In a 1,000-puzzle 11×5 pack, 7
# puzzles otherwise failed all MAX_TRIES attempts, each later than its
# neighbours and so seeing their words barred on both sides.
RELAX_AFTER = 16
# Attempts of one puzzle before it is given up and reported.
MAX_TRIES = 60
# Grids whose estimated number of fills (`fill_estimate`: ln E, with the
# words the ledger bars taken off) is below this are *hard*: the walk goes
# on a little further while the best grid it holds is one. Without the
# estimate (a rule on long lights instead) a 60-puzzle 11×5 pack failed 71
# fills and a 20-puzzle 15×7 pack 219; with it, 37 and 82, and they took
# 0.6 and 0.3 times as long (single process).
# A stricter bar (15) costs the small 11×5 space more draws than it saves
# fills; a looser one (10) lets through 15×7 grids that seldom fill.
EASY_LOG_FILLS = 12.0
# Hard grids estimated below this are tried only while no grid has filled:
# of 66 fresh 11×5 grids below it one filled within 1,000 backtracks (of 32
# between 8 and 10, 17). Once the grids above it are used, a pack does better
# to fill a grid again than to spend a failed attempt on each of these.
HOPELESS_LOG_FILLS = 8.0
# Grids of the walk (of the pack's lane) each attempt moves it on by, at
# most, before it takes the most promising grid not yet taken: on the 15×7
# strip the best of 16 fresh grids filled 13 times in 20 (the first easy one
# of the walk 15 in 30), and on the 9×7 torus a 200-puzzle pack redid 215
# attempts instead of 305. Only a space with room in the pack's lane for
# `MIN_ROOM` grids per puzzle or more moves on by more than one: in a
# smaller one new grids grow rare as the lane is used up, and moving on
# costs more draws than the choice saves (seed 1 of a 60-puzzle 11×5 pack,
# room for 2, drew 3,955 grids and failed 53 fills moving on by 2, and took
# 29 s; moving on by one, it redid 68 attempts instead of 86 in 18 s).
MAX_WINDOW = 8
MIN_ROOM = 5
# Draws the walk may spend looking for an easy grid before the best hard one
# it holds is taken instead: about what a failed fill costs (on the 11×5
# strip a draw takes 5 ms and a failed first try 200 ms; on 15×7, 10 and 330
# ms). In a small space most draws repeat grids seen before, and without this
# bound a pack spends longer drawing than filling.
DRAW_PATIENCE = 32
# Shares of the word list the jobs running at once prefer, one each.
SHARES = ROUND_SIZE * ROUNDS_IN_FLIGHT
# Recurring words listed in the manifest (most recurrent first).
LISTED_RECURRENCES = 20


class PlanSpec(Protocol):
    """What the plan reads of its pack's parameters (`crossword_pack.CrosswordPackSpec`,
    which makes the plan: the plan names only this, so it never imports the pack)."""

    @property
    def count(self) -> int: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def surface(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def min_length(self) -> int: ...
    @property
    def allow_repeats(self) -> bool: ...
    def pattern_spec(self) -> PatternSpec: ...
    def word_use(self) -> WordUse: ...


@dataclass(frozen=True)
class CrosswordJob:
    """What one crossword job is given."""

    rows: tuple[str, ...]  # the pattern
    pattern: str  # its canonical key
    fill_seed: int
    share: int  # the share of the word list this job prefers (its slot in the round)
    excluded: frozenset[str]  # words it may not use
    penalties: Mapping[str, int]  # points off words it should rather not use
    budget_share: float = 1.0  # of the solver's deterministic budget
    start: tuple[str, ...] | None = None  # a fill of this grid refused for its answers: mend it first


class CrosswordPlan:
    """See the module docstring."""

    def __init__(self, spec: PlanSpec, words: WordList, runner: Executor | None = None) -> None:
        self.spec = spec
        pattern_spec = spec.pattern_spec()
        # The survey draws ahead where the jobs run (`runner`): in the main process the draws
        # of a large pack otherwise cost as much as the fills, which the workers wait for.
        self.survey = PatternSurvey(pattern_spec, spec.seed, lambda j: derive_seed(spec.seed, "pattern", j),
                                    runner)
        first = self.survey.get(0)
        if first is None:
            raise PackError(f"no {pattern_spec.describe()} exists"
                            + (f": {self.survey.failure}" if self.survey.failure else "")
                            + "; try another size, surface or fewer rules (e.g. --min-seam-lights)")
        supply = {length: len(words.by_length(length)) for length in words.lengths()}
        self.policy = decide_policy(self._demand(), supply, spec.count, spec.allow_repeats)
        self.ledger = AnswerLedger(self.policy)
        self.lights_made: Counter[int] = Counter()  # answers per length in the puzzles accepted so far
        self.notes: list[str] = self._space_notes() + [self.policy.describe()]
        self.walk_next = 0  # the next position of the survey's walk to hand out
        self.estimate = FillEstimate(words)
        # grids of the walk drawn and not yet handed out: (-ln E, walk position, key), the most promising first
        self.pool: list[tuple[float, int, str]] = []
        # A space with room for many more grids than the pack needs lets each attempt choose among several.
        room = self.survey.estimate() // (PATTERN_LANES * spec.count)
        # Where a draw is a CP-SAT solve aimed at the fill (`pattern_rules.by_model`), the walk takes the grids
        # as they come: a draw costs about what a failed fill does.
        self.window = min(MAX_WINDOW, room) if room >= MIN_ROOM and not by_model(pattern_spec) else 1
        self.uses: Counter[str] = Counter()  # pattern -> puzzles accepted with it
        self.fills: Counter[str] = Counter()  # pattern -> fills it gave (accepted or not)
        self.failures: Counter[str] = Counter()
        self.retired: set[str] = set()
        self.pending: dict[int, str] = {}  # index -> the pattern of its current attempt
        self.tried: dict[int, set[str]] = {}
        # indices whose next attempt keeps its grid (a clash, not a failure) -> the refused fill
        self.keep: dict[int, tuple[str, ...]] = {}
        self.fill_keys: set[str] = set()
        self.reused = False
        self.why_not: dict[int, str] = {}

    # -- up front --------------------------------------------------------------------

    def _demand(self) -> dict[int, int]:
        """Lights per length the pack needs, from the first patterns of its walk."""
        sample = [found[1] for n in range(min(self.spec.count, DEMAND_SAMPLE))
                  if (found := self.survey.get(n)) is not None]
        lengths = Counter(light.length for grid in sample for light in find_lights(grid, self.spec.min_length).lights)
        return {n: round(k * self.spec.count / len(sample)) for n, k in lengths.items()}

    def _space_notes(self) -> list[str]:
        spec, survey = self.spec, self.survey
        shape = f"{spec.width}x{spec.height} {spec.surface}"
        if not survey.exact:
            estimate = survey.estimate()
            return [f"the {shape} rules allow about {estimate:,} distinct grid{'s' if estimate != 1 else ''} or more "
                    f"(estimated from {survey.draws} draws); this pack draws from its share "
                    f"(seed {spec.seed} mod {PATTERN_LANES})"]
        found, own = survey.found, sum(1 for k in survey.order if lane_of(k) == survey.lane)
        notes = [f"the {shape} rules allow exactly {found} distinct grid{'s' if found != 1 else ''} (counted by enumeration)"]
        if found < spec.count:
            notes.append(f"the pattern space is exhausted: {spec.count} puzzles use each grid about "
                         f"{spec.count / found:.1f} times, each time with a different fill")
        elif own < spec.count:
            notes.append(f"this seed's share of the space has {own} grids, fewer than {spec.count}: packs with "
                         f"another seed (mod {PATTERN_LANES}) may share grids with this one")
        return notes

    # -- the plan protocol --------------------------------------------------------------

    def job_input(self, index: int, attempt: int) -> Avoid | None:
        if attempt >= MAX_TRIES:
            self.why_not[index] = f"no fill from {self.spec.word_use().source} accepted in {MAX_TRIES} attempts"
            return None
        start = self.keep.pop(index, None)
        key = self.pending.get(index) if start is not None else None
        barred = self.ledger.forbidden(index)
        if key is None:
            key = self._next_pattern(index, barred)
            if key is None:
                self.why_not[index] = f"no grid the rules allow could be filled from {self.spec.word_use().source}"
                return None
        self.pending[index] = key
        self.tried.setdefault(index, set()).add(key)
        # A small space needs every grid that fills at all; a large one has others to try, even late in
        # a pack when they are grids that filled before.
        share = 1.0 if self.survey.exact or attempt >= FULL_BUDGET_AFTER else FIRST_TRY_SHARE
        relaxed = attempt >= RELAX_AFTER
        job = CrosswordJob(self.survey.grids[key].rows, key, derive_seed(self.spec.seed, "fill", index, attempt),
                           index % SHARES, self.ledger.forbidden(index, True) if relaxed else barred,
                           self.ledger.penalties(index, relaxed), share, start)
        return Avoid(attempt=attempt, assignment=job)

    def _next_pattern(self, index: int, barred: frozenset[str]) -> str | None:
        """The most promising grid of the walk not yet handed out, the walk
        moved on by `window` grids first (and further, up to `DRAW_PATIENCE`
        draws, while none is easy), unless even the best is hopeless; once
        those are used, a grid that has filled before, the one used least.
        `barred`: the words the puzzle may not use, which make a grid harder."""
        per_length = Counter(len(word) for word in barred)
        patience = self.survey.draws + DRAW_PATIENCE
        target = self.walk_next + self.window
        while True:
            best = self._best(per_length)
            more = self.walk_next < target or best < EASY_LOG_FILLS and (self.survey.draws < patience
                                                                        or best < HOPELESS_LOG_FILLS)
            if not more or (found := self.survey.get(self.walk_next)) is None:
                break
            self.walk_next += 1
            key, grid = found
            if key not in self.retired:
                heapq.heappush(self.pool, (-self.estimate.log_fills(grid, self.spec.min_length, per_length),
                                           self.walk_next, key))
        if self.pool and (best >= HOPELESS_LOG_FILLS or not any(self.fills.values())):
            return heapq.heappop(self.pool)[2]
        if not self.reused:
            self.reused = True
            left = sum(1 for _, _, key in self.pool if key not in self.retired)
            tried = set().union(*self.tried.values())
            self.notes.append(f"every grid likely to fill has been tried ({len(tried)}, of which "
                              f"{sum(1 for key in tried if self.fills[key])} filled"
                              + (f"; {left} others are expected to fill too rarely" if left else "")
                              + "): grids now repeat, each with a new fill")
        busy = set(self.pending.values())
        # Grids that filled before and this puzzle has not tried first; then, with new seeds, those it
        # has; grids not yet known to fill only while none is (early in a pack of a small space).
        tried = self.tried.get(index, set())
        usable = [k for k in self.survey.order if k not in self.retired]
        usable = [k for k in usable if self.fills[k]] or usable
        live = [k for k in usable if k not in tried] or usable or [k for k in self.survey.order if self.fills[k]]
        if not live:
            return None
        position = {k: n for n, k in enumerate(self.survey.order)}
        # A grid twice in one round would likely get the same long answers twice: one of them redone.
        return min(live, key=lambda k: (k in busy, k in tried, self.uses[k], self.failures[k] - self.fills[k],
                                        position[k]))

    def _best(self, per_length: Mapping[int, int]) -> float:
        """ln E of the best grid of the pool with the words barred now
        (`per_length`). The pool's values were taken when each grid was
        drawn and the barred words grow (but for recurring lengths, whose
        words come back), so a grid only loses ground: the best is found by
        estimating afresh only the grids that come to the top."""
        while self.pool:
            stale, position, key = self.pool[0]
            if key in self.retired:
                heapq.heappop(self.pool)
                continue
            fresh = -self.estimate.log_fills(self.survey.grids[key], self.spec.min_length, per_length)
            if fresh <= stale:  # no worse than when it was drawn: still the best
                return -fresh
            heapq.heapreplace(self.pool, (fresh, position, key))
            if self.pool[0][2] == key:
                return -fresh
        return -math.inf

    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None:
        if "/".join(puzzle["rows"]) in self.fill_keys:
            return "the same fill as an earlier puzzle"
        clash = self.ledger.conflicts(index, (e["answer"] for e in puzzle["entries"]), _relaxed(puzzle))
        if clash:
            return f"answers used by an earlier puzzle: {', '.join(clash[:5])}"
        return None

    def record(self, index: int, puzzle: Mapping[str, Any]) -> None:
        key = self.pending.pop(index)
        self.uses[key] += 1
        self.fills[key] += 1
        self.fill_keys.add("/".join(puzzle["rows"]))
        self.ledger.add(index, (e["answer"] for e in puzzle["entries"]))
        self.lights_made.update(len(e["answer"]) for e in puzzle["entries"])
        if len(self.fill_keys) % ROUND_SIZE == 0:  # one fill key per puzzle accepted
            self._widen_policy()

    def _widen_policy(self) -> None:
        """Widen the repeat policy to the lights the puzzles made so far need,
        scaled to the whole pack (`word_policy.widen_policy`)."""
        count = self.spec.count
        demand = {n: round(k * count / len(self.fill_keys)) for n, k in self.lights_made.items()}
        widened = widen_policy(self.policy, demand, count)
        for length in sorted(widened.gaps.keys() - self.policy.gaps.keys()):
            self.notes.append(f"{length}-letter answers may now recur {widened.gaps[length]}+ puzzles apart: the "
                              f"grids in use need {widened.demand[length]:,} of the list's "
                              f"{widened.supply.get(length, 0):,}")
        self.policy = self.ledger.policy = widened

    def failed(self, index: int, reason: str, *, puzzle: Mapping[str, Any] | None, proven: bool) -> None:
        key = self.pending[index]
        if puzzle is not None:  # filled, but clashed: mend that fill, now seeing more of the pack
            self.fills[key] += 1
            self.keep[index] = tuple(puzzle["rows"])
            return
        self.failures[key] += 1
        if proven or self.failures[key] > self.fills[key] // RETIRE_RATIO + (self.fills[key] > 0):
            self.retired.add(key)
        del self.pending[index]

    def gave_up(self, index: int) -> str:
        return self.why_not.get(index, "nothing left to try")

    def attempt_of(self, puzzle: Mapping[str, Any]) -> int | None:
        return int(puzzle["rejected"])

    # -- the whole pack ---------------------------------------------------------------

    def final_problems(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[int, str]:
        """The pack checked afresh from its puzzles: no fill twice, no grid twice
        unless the walk was used up, the repeat policy over all answers."""
        problems: dict[int, str] = {}
        fills: dict[str, int] = {}
        grids: dict[str, int] = {}
        for index in sorted(puzzles):
            puzzle = puzzles[index]
            fill = "/".join(puzzle["rows"])
            if fill in fills:
                problems[index] = f"the same fill as puzzle {fills[fill] + 1}"
            fills.setdefault(fill, index)
            pattern = canonical_key(pattern_of(puzzle))
            if pattern in grids and not self.reused:
                problems.setdefault(index, f"the same grid as puzzle {grids[pattern] + 1}, while unused grids remain")
            grids.setdefault(pattern, index)
        answers = {i: [e["answer"] for e in p["entries"]] for i, p in puzzles.items()}
        relaxed = {i for i, p in puzzles.items() if _relaxed(p)}
        for index, why in policy_problems(answers, self.policy, relaxed).items():
            problems.setdefault(index, why)
        return problems

    def report(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
        answers = {i: [e["answer"] for e in p["entries"]] for i, p in puzzles.items()}
        recurrences = count_recurrences(answers)
        survey = self.survey
        return {
            "notes": list(self.notes),
            "patterns": {"space": {"counted_exactly": survey.exact, "grids_found": survey.found,
                                   "estimate": survey.estimate(), "draws": survey.draws,
                                   "exhausted": self.reused, "lane": survey.lane, "lanes": PATTERN_LANES},
                         "distinct_in_pack": len({canonical_key(pattern_of(p)) for p in puzzles.values()}),
                         "retired": len(self.retired)},
            "repeats": {**self.policy.to_json(), "recurrences": sum(recurrences.values()),
                        "most_recurrent": dict(recurrences.most_common(LISTED_RECURRENCES)),
                        # puzzles made relaxed: their short words may come back sooner than the gap
                        "relaxed_puzzles": [f"{i + 1:04d}" for i in sorted(puzzles) if _relaxed(puzzles[i])]},
            "quality": pack_quality([puzzles[i] for i in sorted(puzzles)]),
        }


def pattern_of(puzzle: Mapping[str, Any]) -> Grid:
    """The block pattern of a crossword puzzle file (its rows without the letters)."""
    rows = ["".join("#" if ch == "#" else "." for ch in row) for row in puzzle["rows"]]
    return make_grid(rows, puzzle["surface"], bars_right=[tuple(c) for c in puzzle.get("bars_right", [])],
                     bars_below=[tuple(c) for c in puzzle.get("bars_below", [])])


def _relaxed(puzzle: Mapping[str, Any]) -> bool:
    """Whether the puzzle was made relaxed: its file says after how many attempts it was made."""
    return int(puzzle["rejected"]) >= RELAX_AFTER
