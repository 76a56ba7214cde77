"""The plan of a crossword pack: which pattern each puzzle gets, which words
it may use, and whether a finished puzzle may join the pack.

Covers: `CrosswordPlan`, the `PackPlan` of `mobius pack crossword`, and
`CrosswordJob`, the input it gives each job.

- Grids come from the pack's `GridWalk` (`grid_walk.py`) — over the grids the
  pack was given (`--patterns`) if any, a listed space — : each attempt takes
  the most promising grid of the walk not yet taken, and once the walk is used
  up a grid that filled before, the one used least, so repeats are spread
  evenly, each time with another fill.
- A job that cannot fill its grid within its budget is tried again with
  another grid (in a space too large to list, a puzzle's first attempts get
  only `FIRST_TRY_SHARE` of the budget: other grids are plentiful); a grid that
  fails too often is retired by the walk. A job whose puzzle clashes with one
  accepted before it keeps its grid, and its fill is mended: the
  lights holding the answers taken are solved again with their crossings
  (`polish.repair`), and only if that fails is the grid filled anew; a
  fill the pack already has (nothing barred in it when answers may repeat)
  bars its worst answer from the puzzle's next attempts, so the mend and a
  new fill come out different. A
  puzzle is given up (and reported) only when no grid the rules allow has
  ever filled, or after `MAX_TRIES` attempts; the report says whether its
  grids are proven to have no fill (the solver said UNSAT of each) or ran out
  of the fill budget (naming it, and the `--solver` option that raises it)
  or of the `--time-limit`.
- Words follow `word_policy`, whose demand is re-estimated from the puzzles
  made after every round's worth (and the policy widened if they need more;
  not for given grids, whose demand is read from all of them up front):
  the job may not use the words the ledger bars, prefers unused ones, and, to keep the jobs of one round apart, the words
  of its own share of the list.
- `final_problems` re-checks the finished pack from its puzzle files alone:
  no fill twice, no grid twice unless the walk was used up, and the repeat
  policy over every answer.

Leaves out: making a puzzle (`crossword/pack.py`), choosing grids
(`grid_walk.py`), running rounds (`generators/pack.py`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mobius.cpmodel.crossword.grid import Grid, make_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.cpmodel.solver import budget_text, get_solver
from mobius.dictionaries import WordList
from mobius.generators.crossword.fill_estimate import FillEstimate
from mobius.generators.crossword.fill_words import WordUse
from mobius.generators.crossword.grid_walk import GridWalk, window_of
from mobius.generators.memo import WorkMemo, digest
from mobius.generators.pack import PackError, derive_seed, tool_version
from mobius.generators.rounds import ROUND_SIZE, ROUNDS_IN_FLIGHT, Avoid
from mobius.generators.crossword.pattern_space import PATTERN_LANES, PatternSurvey, canonical_key, lane_of
from mobius.generators.crossword.pattern_rules import PatternSpec, annealed
from mobius.generators.crossword.quality import lowest_entry, pack_quality
from mobius.generators.crossword.word_family import family_of, relatives_in
from mobius.generators.crossword.word_policy import (AnswerLedger, count_recurrences, decide_policy, policy_problems,
                                    widen_policy)

if TYPE_CHECKING:
    from mobius.generators.executors import Executor

# Patterns drawn before the first round to estimate how many lights of each
# length the pack needs (the repeat policy's demand).
DEMAND_SAMPLE = 24
# Why each value: benchmarks/RESULTS.md, "Figures behind constants".
# The share of the fill budget a puzzle's first attempts get (up to FULL_BUDGET_AFTER) in a space
# too large to list: grids are plentiful there, so one that does not fill quickly is dropped.
FIRST_TRY_SHARE = 0.3
# Attempts of one puzzle after which its grids get the whole budget: late in a large pack few fills
# come quickly, and a puzzle that keeps failing is given the time it needs rather than failing the pack.
FULL_BUDGET_AFTER = 8
# Attempts of one puzzle after which it is made relaxed (`word_policy`): the gaps of recurring
# lengths no longer bind it, so a puzzle late among its neighbours is not barred their words on both sides.
RELAX_AFTER = 16
# Attempts of one puzzle before it is given up and reported.
MAX_TRIES = 60
# Shares of the word list the jobs running at once prefer, one each.
SHARES = ROUND_SIZE * ROUNDS_IN_FLIGHT
# How a job's failure ends (`crossword/pack.py` `_fill`), which the plan counts to say why a puzzle
# was given up: out of the solver's deterministic budget, or stopped by the wall-clock time limit.
OUT_OF_BUDGET = "ran out of the fill budget"
OUT_OF_TIME = "stopped at the --time-limit"
# Why a puzzle whose fill an earlier puzzle has is refused (`judge`), which `failed` acts on.
SAME_FILL = "the same fill as an earlier puzzle"
# Recurring words listed in the manifest (most recurrent first).
LISTED_RECURRENCES = 20


class PlanSpec(Protocol):
    """What the plan reads of its pack's parameters (`crossword.pack.CrosswordPackSpec`,
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
    @property
    def solver(self) -> str: ...  # as the user gave it
    @property
    def solver_spec(self) -> str: ...  # with the pack's budget and defaults
    @property
    def time_limit(self) -> float | None: ...
    # the puzzle with its clues chosen knowing the clues given to each answer before it
    def reclued(self, puzzle: dict[str, Any], given: Mapping[str, Sequence[str]]) -> dict[str, Any]: ...
    @property
    def patterns(self) -> tuple[tuple[str, ...], ...]: ...  # the grids given, if any
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
    plain: bool = False  # the solver's plain value order, not a seeded choice among the best (`GridWalk.last_try`)


class CrosswordPlan:
    """See the module docstring."""

    def __init__(self, spec: PlanSpec, words: WordList, runner: Executor | None = None) -> None:
        self.spec = spec
        pattern_spec = spec.pattern_spec()
        # The survey draws ahead where the jobs run (`runner`): in the main process the draws
        # of a large pack otherwise cost as much as the fills, which the workers wait for.
        # Annealed draws cost seconds each: they are kept for the next run of these rules (`memo.py`).
        estimate = FillEstimate(words)
        # Grids given are walked hardest first: each is tried before any is filled again, and a hard
        # grid needs the words the first puzzles of a pack would otherwise take.
        given = sorted((make_grid(rows, spec.surface) for rows in spec.patterns),
                       key=lambda grid: estimate.log_fills(grid, spec.min_length)) or None
        memo = WorkMemo("draws-" + digest(pattern_spec, tool_version())) \
            if annealed(pattern_spec) and given is None else None
        self.survey = PatternSurvey(pattern_spec, spec.seed, lambda j: derive_seed(spec.seed, "pattern", j),
                                    runner, memo, given)
        first = self.survey.get(0)
        if first is None:
            raise PackError(f"no {pattern_spec.width}x{pattern_spec.height} {pattern_spec.surface} grid keeps the "
                            "pack's rules" + (f": {self.survey.failure}" if self.survey.failure else "")
                            + "; try another size, surface or fewer rules (e.g. --min-seam-lights)")
        supply = {length: len(words.by_length(length)) for length in words.lengths()}
        relatives = relatives_in(words.words)
        kin = {n: sum(len(relatives(word)) for word in words.by_length(n)) / have for n, have in supply.items() if have}
        self.policy = decide_policy(self._demand(), supply, spec.count, spec.allow_repeats, kin)
        self.ledger = AnswerLedger(self.policy, relatives)
        self.lights_made: Counter[int] = Counter()  # answers per length in the puzzles accepted so far
        self.notes: list[str] = self._space_notes() + [self.policy.describe()]
        self.walk = GridWalk(self.survey, estimate, spec.min_length,
                             window_of(self.survey, pattern_spec, spec.count), self.notes.append)
        # indices whose next attempt keeps its grid (a clash, not a failure) -> the refused fill
        self.keep: dict[int, tuple[str, ...]] = {}
        self.fill_keys: set[str] = set()
        self.clues_given: dict[str, list[str]] = {}  # answer -> its clues in the puzzles recorded, in order
        self.refused: dict[int, set[str]] = {}  # index -> answers barred from it after it repeated a fill
        self.why_not: dict[int, str] = {}
        self.endings: dict[int, Counter[str]] = {}  # index -> its failed fills: proven, budget, time, other
        self.grid_endings: dict[str, Counter[str]] = {}  # grid -> the same, for the report of given grids

    # -- up front --------------------------------------------------------------------

    def _demand(self) -> dict[int, int]:
        """Lights per length the pack needs, from the first patterns of its walk (every grid given)."""
        sample = [found[1] for n in range(min(self.spec.count, DEMAND_SAMPLE))
                  if (found := self.survey.get(n)) is not None]
        lengths = Counter(light.length for grid in sample for light in find_lights(grid, self.spec.min_length).lights)
        return {n: round(k * self.spec.count / len(sample)) for n, k in lengths.items()}

    def _space_notes(self) -> list[str]:
        spec, survey = self.spec, self.survey
        shape = f"{spec.width}x{spec.height} {spec.surface}"
        if not survey.exact and not survey.lanes:
            return [f"the {shape} grids are drawn for fill, a new one for each attempt ({survey.draws} drawn so "
                    f"far, {survey.found} distinct)"]
        if not survey.exact:
            estimate = survey.estimate()
            return [f"the {shape} rules allow about {estimate:,} distinct grid{'s' if estimate != 1 else ''} or more "
                    f"(estimated from {survey.draws} draws); this pack draws from its share "
                    f"(seed {spec.seed} mod {PATTERN_LANES})"]
        found, own = survey.found, sum(1 for k in survey.order if lane_of(k) == survey.lane)
        notes = [f"the {shape} rules allow exactly {found} distinct grid{'s' if found != 1 else ''} (counted by enumeration)"]
        if spec.patterns:
            given = len(spec.patterns)
            notes = [f"the pack fills the {given} {shape} grid{'s' if given != 1 else ''} given (--patterns, "
                     f"{found} distinct), with lights of {spec.min_length}+ letters"]
            own = found  # no lanes: every grid given is this pack's
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
            self.why_not[index] = (f"no fill from {self.spec.word_use().source} accepted in {MAX_TRIES} attempts"
                                   + self._shortfall(self.endings.get(index, Counter())))
            return None
        start = self.keep.pop(index, None)
        barred = self.ledger.forbidden(index)
        key = self.walk.next_grid(index, barred, again=start is not None)
        if key is None:
            self.why_not[index] = self._no_grid(index)
            return None
        # A small space needs every grid that fills at all; a large one has others to try, even late in
        # a pack when they are grids that filled before — but not where a grid costs about what its
        # whole fill budget does (annealed draws).
        cheap_grids = not (self.survey.exact or annealed(self.survey.spec))
        share = FIRST_TRY_SHARE if cheap_grids and attempt < FULL_BUDGET_AFTER else 1.0
        relaxed = attempt >= RELAX_AFTER
        excluded = (self.ledger.forbidden(index, True) if relaxed else barred) | self.refused.get(index, set())
        job = CrosswordJob(self.survey.grids[key].rows, key, derive_seed(self.spec.seed, "fill", index, attempt),
                           index % SHARES, frozenset(excluded),
                           self.ledger.penalties(index, relaxed), share, start, self.walk.last_try(key))
        return Avoid(attempt=attempt, assignment=job)

    def _no_grid(self, index: int) -> str:
        """Why no grid is left for puzzle `index`: proven, when the solver proved every grid it tried to
        have no fill; else what its fills ran out of."""
        source, endings = self.spec.word_use().source, self.endings.get(index, Counter())
        if endings["proven"] and endings["proven"] == endings.total():
            tried = endings["proven"]
            other = "no other grid was given" if self.spec.patterns else "the rules allow no other"
            return (f"proven: {'the grid' if tried == 1 else f'each of the {tried} grids'} it tried has no fill "
                    f"from {source} (the solver proved it), and {other}")
        which = "grid given" if self.spec.patterns else "grid the rules allow"
        return f"no {which} was filled from {source}" + self._shortfall(self.endings.get(index, Counter()))

    def _shortfall(self, endings: Counter[str]) -> str:
        """": " and what the failed fills counted in `endings` ran out of, with what raises it ("" if they ran
        out of nothing)."""
        parts = []
        if endings["budget"]:
            budget = budget_text(get_solver("crossword", self.spec.solver_spec), self.spec.solver)
            parts.append(f"{endings['budget']} attempt{'s' if endings['budget'] > 1 else ''} found no fill "
                         f"within the fill budget, at most {budget}")
        if endings["time"]:
            parts.append(f"{endings['time']} stopped at the --time-limit of {self.spec.time_limit:g} s "
                         "(a longer one raises it)")
        if endings["proven"]:
            parts.append(f"{endings['proven']} proven to have no fill")
        return f": {'; '.join(parts)}" if parts else ""

    def judge(self, index: int, puzzle: Mapping[str, Any]) -> str | None:
        if "/".join(puzzle["rows"]) in self.fill_keys:
            return SAME_FILL
        clash = self.ledger.conflicts(index, (e["answer"] for e in puzzle["entries"]), _relaxed(puzzle))
        if clash:
            return f"answers used by an earlier puzzle: {', '.join(clash[:5])}"
        return None

    def settle(self, index: int, puzzle: dict[str, Any]) -> dict[str, Any]:
        """The puzzle as it joins the pack: its clues chosen again knowing every puzzle recorded before
        it, those of its own round included, which its job could not know (`reclued`)."""
        return self.spec.reclued(puzzle, self.clues_given)

    def record(self, index: int, puzzle: Mapping[str, Any]) -> None:
        for entry in puzzle["entries"]:
            if entry["clue"]:
                self.clues_given.setdefault(entry["answer"], []).append(entry["clue"])
        self.walk.accepted(index)
        self.fill_keys.add("/".join(puzzle["rows"]))
        self.ledger.add(index, (e["answer"] for e in puzzle["entries"]))
        self.lights_made.update(len(e["answer"]) for e in puzzle["entries"])
        # Given grids set the demand themselves (`_demand` reads them all): the fills made are no better
        # sample of it, and widening to them let the three-letter answers of a van Beek pack recur where
        # the grids need only 268 of the 603 (benchmarks/RESULTS.md, "`--patterns` at the Sunday's floor").
        if not self.spec.patterns and len(self.fill_keys) % ROUND_SIZE == 0:  # one fill key per puzzle
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
        if puzzle is not None:  # filled, but clashed: mend that fill, now seeing more of the pack
            self.walk.clashed(index)
            self.keep[index] = tuple(puzzle["rows"])
            if reason == SAME_FILL:
                # Nothing the pack bars is in a fill it already has (answers may repeat, or every answer
                # is its own again), so the mend would change nothing and a new fill of the grid come out
                # the same: the fill's worst answer is barred from the next attempts of this puzzle.
                worst = lowest_entry(puzzle["entries"])
                if worst is not None:
                    self.refused.setdefault(index, set()).add(worst["answer"])
            return
        ending = "proven" if proven else "budget" if OUT_OF_BUDGET in reason else "time" if OUT_OF_TIME in reason \
            else "other"
        self.endings.setdefault(index, Counter())[ending] += 1
        self.grid_endings.setdefault(self.walk.current(index) or "", Counter())[ending] += 1
        self.walk.failed(index, proven=proven)

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
            if pattern in grids and not self.walk.exhausted:
                problems.setdefault(index, f"the same grid as puzzle {grids[pattern] + 1}, while unused grids remain")
            grids.setdefault(pattern, index)
        answers = {i: [e["answer"] for e in p["entries"]] for i, p in puzzles.items()}
        relaxed = {i for i, p in puzzles.items() if _relaxed(p)}
        for index, why in policy_problems(answers, self.policy, relaxed, family_of).items():
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
                                   "exhausted": self.walk.exhausted, "lane": survey.lane, "lanes": PATTERN_LANES},
                         "distinct_in_pack": len({canonical_key(pattern_of(p)) for p in puzzles.values()}),
                         "retired": len(self.walk.retired), **self._given_report(puzzles)},
            "repeats": {**self.policy.to_json(), "recurrences": sum(recurrences.values()),
                        "most_recurrent": dict(recurrences.most_common(LISTED_RECURRENCES)),
                        # puzzles made relaxed: their short words may come back sooner than the gap
                        "relaxed_puzzles": [f"{i + 1:04d}" for i in sorted(puzzles) if _relaxed(puzzles[i])]},
            "quality": pack_quality([puzzles[i] for i in sorted(puzzles)]),
        }


    def _given_report(self, puzzles: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
        """How each grid given (--patterns) fared, in the order given: puzzles made with it, its fills
        (accepted or not), its failed attempts by how they ended, and `outcome`, that said in words."""
        if not self.spec.patterns:
            return {}
        used = Counter(canonical_key(pattern_of(p)) for p in puzzles.values())
        keys = [canonical_key(make_grid(rows, self.spec.surface)) for rows in self.spec.patterns]
        return {"given": [{"puzzles": used[key], "fills": self.walk.fills(key),
                           "failed": dict(sorted(self.grid_endings.get(key, Counter()).items())),
                           "outcome": self._outcome(key)} for key in keys]}

    def _outcome(self, key: str) -> str:
        """How a grid given fared, in words: filled, never tried, proven to have no fill, or what its
        fills ran out of."""
        endings, fills = self.grid_endings.get(key, Counter()), self.walk.fills(key)
        if fills:
            return f"filled {fills} time{'s' if fills > 1 else ''}"
        if not endings:
            return "not tried"
        if endings["proven"] == endings.total():
            return (f"proven to have no fill from {self.spec.word_use().source} (with the words its attempts "
                    "could use)")
        tries = endings.total()
        return f"no fill in {tries} attempt{'s' if tries > 1 else ''}" + self._shortfall(endings)


def pattern_of(puzzle: Mapping[str, Any]) -> Grid:
    """The block pattern of a crossword puzzle file (its rows without the letters)."""
    rows = ["".join("#" if ch == "#" else "." for ch in row) for row in puzzle["rows"]]
    return make_grid(rows, puzzle["surface"], bars_right=[tuple(c) for c in puzzle.get("bars_right", [])],
                     bars_below=[tuple(c) for c in puzzle.get("bars_below", [])])


def _relaxed(puzzle: Mapping[str, Any]) -> bool:
    """Whether the puzzle was made relaxed: its file says after how many attempts it was made."""
    return int(puzzle["rejected"]) >= RELAX_AFTER
