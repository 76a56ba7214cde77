"""The crossword pack's walk through its grids: which grid each attempt gets,
and what each grid has done so far.

Covers: `GridWalk`. Patterns come from the pack's `PatternSurvey` (distinct
grids, the pack's lane of the space first): each attempt moves the walk on
by a few grids (`window_of`: `MAX_WINDOW`, fewer in a space with less room)
and takes, of the grids drawn and not yet taken, the one expected to fill
most often from the words it may use (`fill_estimate`), so no two puzzles
share a grid while the space lasts and a late puzzle chooses from as many
fresh grids as an early one. While no grid drawn is easy the walk goes on a
little further; grids expected to fill very rarely (`HOPELESS_LOG_FILLS`)
are taken only while none has filled (a grid given to the pack always); in a space with little room, an
attempt that draws `DRY_LANE_DRAWS` without finding any other takes the
pack's lane as dry, and the other lanes' grids follow. Once the walk is used up each new
attempt takes, of the grids that filled before, the one used least so far
(not one another attempt in flight has, nor one failing more than
`LAST_RESORT_FAILURES` times a fill, then the one that filled most
reliably), so repeats are spread evenly over the grids that fill. A grid
that fails too often (more than one try in `RETIRE_RATIO` + 1) is retired:
not handed out again while others are left; a grid given to the pack that
has filled is retired only when proven to have no fill.

Its public face: `next_grid` hands a grid to an attempt, `accepted`,
`clashed` and `failed` tell it how the attempt ended, and `current`,
`fills`, `retired`, `exhausted`, `drawn` and `waiting` read its state. A
grid drawn for fill that did not fill is tried once more, with another
seed, by the same puzzle's next attempt (`ANNEALED_TRIES`); a grid given
to the pack, twice more (`GIVEN_TRIES`), the last time in the solver's
plain order (`last_try`).

Leaves out: the words (`word_policy`), the budget and seeds of a job and
judging puzzles (`crossword/plan.py`), drawing grids (`pattern_space.py`).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable, Mapping

from mobius.generators.crossword.fill_estimate import FillEstimate
from mobius.generators.crossword.pattern_rules import PatternSpec, annealed
from mobius.generators.crossword.pattern_space import PATTERN_LANES, PatternSurvey

# Why each value: benchmarks/RESULTS.md, "Figures behind constants".
# A grid that fails more than about one try in RETIRE_RATIO + 1 is retired: how hard a grid is to
# fill hardly depends on the seed; a retired grid that did fill comes back when no other is left.
RETIRE_RATIO = 3
# Once the walk is used up, a grid that failed more than this many times a fill is taken only when no
# other is left: with every grid retired, the one used least would otherwise be the one that never fills.
LAST_RESORT_FAILURES = 4
# ln E below which a grid is *hard*: the walk goes on a little further while the best it holds is one.
EASY_LOG_FILLS = 12.0
# ln E below which a hard grid is tried only while no grid has filled: filling a grid again does better.
HOPELESS_LOG_FILLS = 8.0
# Grids each attempt moves the walk on by, at most, before taking the most promising one; only a
# space with room for MIN_ROOM grids per puzzle or more in the pack's lane moves on by more than one.
MAX_WINDOW = 8
MIN_ROOM = 5
# Tries a grid drawn for fill (`pattern_rules.annealed`) gets, each with another seed, before the walk
# moves on: such a draw costs more than a failed fill, and a fill's cost has a heavy tail, so another
# seed on the same grid is the cheaper way on (benchmarks/RESULTS.md, "Grids drawn for fill").
ANNEALED_TRIES = 2
# Tries a grid given to the pack (--patterns) gets, each with another seed, before the walk takes it for one
# it cannot fill: the user's grids are few and each one counts (van Beek's 15.07 fills at 1 seed in 8 at the
# pack's budget). Its last try takes the solver's plain order (`last_try`).
GIVEN_TRIES = 3
# Draws the walk may spend looking for an easy grid before it takes its best hard one: about what a
# failed fill costs.
DRAW_PATIENCE = 32
# Draws one attempt may spend, in a space with little room and once a grid has filled, without
# finding a grid worth trying (every one hopeless): then the pack's lane is taken as dry and the grids
# of the other lanes, drawn already, follow (`PatternSurvey.stop_drawing`). Without it a lane short of
# fillable grids was drawn on to the survey's limit (20,000 draws, 70 s of CPU, on one seed of a
# 60-puzzle 11×5 pack against 9,000 on another).
DRY_LANE_DRAWS = 8 * DRAW_PATIENCE


def window_of(survey: PatternSurvey, pattern_spec: PatternSpec, count: int) -> int:
    """Grids each attempt moves the walk on by: a space with room for many more grids than
    the pack needs lets each attempt choose among several."""
    room = survey.estimate() // (PATTERN_LANES * count)
    # Where a draw is annealed for the fill (`pattern_rules.annealed`), the walk takes the grids as they
    # come: a draw costs about what a failed fill does.
    return min(MAX_WINDOW, room) if room >= MIN_ROOM and not annealed(pattern_spec) else 1


class GridWalk:
    """See the module docstring. `note` receives the one line the walk says
    when it is used up (grids repeat from then on)."""

    def __init__(self, survey: PatternSurvey, estimate: FillEstimate, min_length: int, window: int,
                 note: Callable[[str], None]) -> None:
        self.survey = survey
        self.window = window
        self._estimate = estimate
        self._min_length = min_length
        self._note = note
        self._next = 0  # the next position of the survey's walk to draw
        # grids of the walk drawn and not yet handed out: (-ln E, walk position, key), the most promising first
        self._pool: list[tuple[float, int, str]] = []
        self._uses: Counter[str] = Counter()  # grid -> puzzles accepted with it
        self._fills: Counter[str] = Counter()  # grid -> fills it gave (accepted or not)
        self._failures: Counter[str] = Counter()
        self._retired: set[str] = set()
        self._pending: dict[int, str] = {}  # index -> the grid of its current attempt
        self._tried: dict[int, set[str]] = {}
        self._retry: dict[int, str] = {}  # index -> the grid its next attempt tries again, with another seed
        self._reused = False

    # -- reading ------------------------------------------------------------------------

    def current(self, index: int) -> str | None:
        """The grid of the attempt of `index` in flight, if any."""
        return self._pending.get(index)

    def fills(self, key: str) -> int:
        """Fills the grid `key` has given (accepted or not)."""
        return self._fills[key]

    def last_try(self, key: str) -> bool:
        """Whether the next attempt on `key` is the last it gets unless it fills: a grid given to the pack
        that has not filled, on its `GIVEN_TRIES`-th try."""
        return self.survey.given and not self._fills[key] and self._failures[key] == GIVEN_TRIES - 1

    @property
    def retired(self) -> frozenset[str]:
        """Grids not handed out again while others are left."""
        return frozenset(self._retired)

    @property
    def exhausted(self) -> bool:
        """Whether the walk is used up and grids now repeat."""
        return self._reused

    @property
    def drawn(self) -> int:
        """Grids of the walk drawn so far."""
        return self._next

    def waiting(self) -> list[float]:
        """ln E of the grids drawn and not yet handed out, as estimated when each was drawn."""
        return [-neg for neg, _, _ in self._pool]

    # -- an attempt starts ----------------------------------------------------------------

    def next_grid(self, index: int, barred: frozenset[str], *, again: bool = False) -> str | None:
        """The grid of the next attempt of `index`: with `again`, the one it has (its
        fill is to be mended); else the next of the walk (`_choose`). None: none is left.
        `barred`: the words the puzzle may not use, which make a grid harder."""
        key = self._pending.get(index) if again else self._retry.pop(index, None)
        if key is None:
            key = self._choose(index, barred)
            if key is None:
                return None
        self._pending[index] = key
        self._tried.setdefault(index, set()).add(key)
        return key

    def _choose(self, index: int, barred: frozenset[str]) -> str | None:
        """The most promising grid of the walk not yet handed out, the walk
        moved on by `window` grids first (and further, up to `DRAW_PATIENCE`
        draws, while none is easy), unless even the best is hopeless; once
        those are used, a grid that has filled before, the one used least."""
        per_length = Counter(len(word) for word in barred)
        start = self.survey.draws
        patience = start + DRAW_PATIENCE
        target = self._next + self.window
        while True:
            best = self._best(per_length)
            more = self._next < target or best < EASY_LOG_FILLS and (self.survey.draws < patience
                                                                     or best < HOPELESS_LOG_FILLS)
            if more and best < HOPELESS_LOG_FILLS and self.survey.draws - start >= DRY_LANE_DRAWS:
                self._leave_dry_lane()
            if not more or (found := self.survey.get(self._next)) is None:
                break
            self._next += 1
            key, grid = found
            if key not in self._retired:
                heapq.heappush(self._pool, (-self._estimate.log_fills(grid, self._min_length, per_length),
                                            self._next, key))
        # A grid the pack was given is tried however rarely it is expected to fill: it was asked for.
        if self._pool and (best >= HOPELESS_LOG_FILLS or not any(self._fills.values()) or self.survey.given):
            return heapq.heappop(self._pool)[2]
        if not self._reused:
            self._reused = True
            left = sum(1 for _, _, key in self._pool if key not in self._retired)
            tried = set().union(*self._tried.values())
            self._note(f"every grid likely to fill has been tried ({len(tried)}, of which "
                       f"{sum(1 for key in tried if self._fills[key])} filled"
                       + (f"; {left} others are expected to fill too rarely" if left else "")
                       + "): grids now repeat, each with a new fill")
        return self._reuse(index)

    def _leave_dry_lane(self) -> None:
        """In a space with little room, once a grid has filled: stop drawing and let the grids of the
        other lanes follow (see `DRY_LANE_DRAWS`); a large space or one whose draws are annealed
        keeps drawing, as no grid has filled yet."""
        if self.survey.complete or self.window > 1 or annealed(self.survey.spec) or not any(self._fills.values()):
            return
        self._note(f"the pack's share of the grids ran dry after {self.survey.draws:,} draws ({DRY_LANE_DRAWS} "
                   "in a row without a grid likely to fill): the other shares' grids follow")
        self.survey.stop_drawing()

    def _reuse(self, index: int) -> str | None:
        """Once the walk is used up: of the grids that filled before, the one used least."""
        busy = set(self._pending.values())
        # Grids that filled before and this puzzle has not tried first; then, with new seeds, those it
        # has; grids not yet known to fill only while none is (early in a pack of a small space).
        tried = self._tried.get(index, set())
        usable = [k for k in self.survey.order if k not in self._retired]
        usable = [k for k in usable if self._fills[k]] or usable
        live = [k for k in usable if k not in tried] or usable or [k for k in self.survey.order if self._fills[k]]
        if not live:
            return None
        position = {k: n for n, k in enumerate(self.survey.order)}
        # A grid twice in one round would likely get the same long answers twice: one of them redone.
        # A grid failing more than LAST_RESORT_FAILURES times a fill comes last, so that one whose fills keep
        # being refused (a solver that gives one grid the same fill each time) is not the least used forever.
        return min(live, key=lambda k: (k in busy, k in tried,
                                        self._failures[k] > LAST_RESORT_FAILURES * max(self._fills[k], 1),
                                        self._uses[k], self._failures[k] - self._fills[k], position[k]))

    def _best(self, per_length: Mapping[int, int]) -> float:
        """ln E of the best grid of the pool with the words barred now
        (`per_length`). The pool's values were taken when each grid was
        drawn and the barred words grow (but for recurring lengths, whose
        words come back), so a grid only loses ground: the best is found by
        estimating afresh only the grids that come to the top."""
        while self._pool:
            stale, position, key = self._pool[0]
            if key in self._retired:
                heapq.heappop(self._pool)
                continue
            fresh = -self._estimate.log_fills(self.survey.grids[key], self._min_length, per_length)
            if fresh <= stale:  # no worse than when it was drawn: still the best
                return -fresh
            heapq.heapreplace(self._pool, (fresh, position, key))
            if self._pool[0][2] == key:
                return -fresh
        return -math.inf

    # -- an attempt ends ------------------------------------------------------------------

    def accepted(self, index: int) -> None:
        """The attempt of `index` made a puzzle the pack keeps."""
        key = self._pending.pop(index)
        self._uses[key] += 1
        self._fills[key] += 1

    def clashed(self, index: int) -> None:
        """The attempt of `index` filled its grid, but the fill was refused: the next keeps the grid."""
        self._fills[self._pending[index]] += 1

    def failed(self, index: int, *, proven: bool) -> None:
        """The attempt of `index` found no fill (`proven`: none exists); its grid may retire, or, given to
        the pack or drawn for fill and not yet tried `GIVEN_TRIES` or `ANNEALED_TRIES` times, be tried again
        by the next attempt of `index`."""
        key = self._pending.pop(index)
        self._failures[key] += 1
        tries = GIVEN_TRIES if self.survey.given else ANNEALED_TRIES if annealed(self.survey.spec) else 1
        # A grid given that has filled stays in the walk until proven to have no fill: it was asked for,
        # and its failures only put it after the others (`_reuse`).
        kept = self.survey.given and self._fills[key] > 0
        if not proven and not self._fills[key] and self._failures[key] < tries:
            self._retry[index] = key
        elif proven or not kept and self._failures[key] > self._fills[key] // RETIRE_RATIO + (self._fills[key] > 0):
            self._retired.add(key)
