"""Crossword packs: one job = a planned pattern, filled, polished and checked.

Covers: `CrosswordPackSpec` — the parameters of `mobius pack crossword` —
its plan (`crossword.plan.CrosswordPlan`: patterns, repeat policy, what each
job may use) and its job: fill the pattern the plan gives with a registered
solver (the reference solver with a seeded choice among the best words, so
one grid yields many fills; the words the plan bars excluded; its soft
preferences as penalties, and the `--difficulty` level's added to them),
raise its worst answer (`worst_answer.py`, recorded under `worst_answer`),
polish the fill with CP-SAT (`polish.py`) keeping that floor, and build the
puzzle JSON with its quality report and difficulty estimate, its clues
chosen at the level (`difficulty.py`; an easy pack's words also keep to the
level's floor). Words under `PRINT_SCORE` (where the floor is lower: asked
for, given grids, or a Sunday's reach, `american.reach_floor`) lose the
points they fall short by, so a fill uses them only where its grid needs
them. A job that finds no fill within its deterministic budget raises
`PuzzleFailed` and the plan gives the next attempt another grid; a job
given a fill refused for answers taken meanwhile mends it instead
(`polish.repair`) and fills afresh only if that fails. Also the
independent re-check of a finished puzzle from its JSON alone (pattern rules, lights, dictionary words, no
repeats, its quality figures). The spec carries its word list in a form
every machine can load: an embedded list's name, or any other list's
content (`mobius.dictionaries.portable`), so a worker elsewhere never reads the
user's path.

Leaves out: running jobs and writing files (`generators/pack.py`), what puzzles share
across the pack (`crossword/plan.py`), formats (`export/`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from mobius.cpmodel.crossword.grid import BLOCK, Grid, make_grid
from mobius.cpmodel.crossword.problem import Fill, FillProblem, FillRules, WordCap
from mobius.cpmodel.crossword.verify import verify
from mobius.cpmodel.solver import SolveResult, Solver, Status, budget_spent, get_solver, parse_spec, require_usable
from mobius.cpmodel.surface import surface as find_surface
from mobius.dictionaries import ListContent, WordList, load, portable
from mobius.dictionaries.clue_usage import is_s_plural
from mobius.generators.crossword.american import SUNDAY_FLOOR, american_rules, reach_floor
from mobius.generators.crossword.clues import ClueBank, ClueLines, load_bank
from mobius.generators.crossword.plan import OUT_OF_BUDGET, OUT_OF_TIME, SHARES, CrosswordJob, CrosswordPlan, pattern_of
from mobius.generators.crossword.difficulty import (DEFAULT_LEVEL, LEVELS, Level, LevelledClues, add_penalties, answer_penalties,
                                   puzzle_difficulty)
from mobius.generators.executors import Executor, PuzzleFailed
from mobius.generators.crossword.fill_words import WordUse, fill_words
from mobius.generators.rounds import Avoid
from mobius.generators.crossword.pattern_check import check_pattern
from mobius.generators.crossword.pattern_rules import DEFAULT_DENSITY, PatternSpec
from mobius.generators.crossword.polish import polish, repair
from mobius.generators.puzzles import Credits, crossword_puzzle, grid_clues, surface_title
from mobius.generators.crossword.quality import PLURAL_S, puzzle_quality, worst_answer_agrees
from mobius.generators.crossword.word_family import family_pair
from mobius.generators.crossword.word_policy import share_bonus
from mobius.generators.crossword.worst_answer import WorstAnswer, floored, raise_worst

# Why each value: benchmarks/RESULTS.md, "Figures behind constants".
# Fill budgets that are the same on every machine, so that which attempts fail — and so the pack's
# bytes — never depend on its speed or load (the wall-clock --time-limit stays as a backstop); a grid
# that fails costs the whole budget, so a failure is cut short and the plan moves on to another grid.
# Each value sets the option its solver names as its budget (`Budget.option`: max_backtracks, deterministic_time).
DETERMINISTIC_BUDGETS = {"reference": 1000, "cpsat": 5.0}
# The reference solver's budget is set for the 11×5 strip's cells; a grid of more cells gets it times the
# square of their ratio (a 15×15 about 17,000 backtracks, a 21×21 about 64,000): a search's dead ends
# grow with the lights and with how far back a wrong word sits. What a fill costs at each budget, and how
# often it fills: benchmarks/RESULTS.md, "Grids drawn for fill".
BUDGET_CELLS = 55
# A maximising CP-SAT fill (`--solver cpsat:maximize=true`), unless the spec says otherwise: first-fail
# on the letters, so the search is a branch and bound from the first fill, within a fifth of the plain
# budget. With one worker CP-SAT runs none of its LNS, and its own objective-led search found no fill of
# some 11×5 grids within 5 deterministic seconds, where first-fail found better ones within 1; 30-packs
# took 11–12× the default pack's time, and 2.3–3.8× this way with a mean score 0.5–1.5 points higher
# (benchmarks/RESULTS.md, "Maximising CP-SAT fills in packs").
MAXIMIZE_OPTIONS = {"search": "first-fail", "deterministic_time": "1.0"}
# Solvers whose budget a puzzle's first tries get only a share of (`CrosswordJob.budget_share`): the
# reference solver's cost grows with how hard the grid is; CP-SAT's is its model's size whatever the grid.
SHARED_BUDGETS = frozenset({"reference"})
# Options a pack gives CP-SAT fills unless the spec says otherwise: in the job's own process, since the pack
# kills its workers whole when it stops and the deterministic budget bounds the search; a child process per
# fill cost 0.2–0.3 s of a maximising fill's 1.6 s (benchmarks/RESULTS.md, "CP-SAT packs: fills in the
# worker's own process").
CPSAT_IN_PACK = {"child": "false"}
BACKSTOP_S = 120.0
# The manifest's name for the embedded clue bank among the inputs (an option names the others).
EMBEDDED_BANK = "clue bank"
# The reference solver chooses among this many best words at each step: one
# grid gives many different fills, all near the best (the polish then
# lifts the weakest entries).
FILL_CHOICES = 8
# CP-SAT deterministic seconds of polish per puzzle by default: twenty
# neighbourhoods (`polish.ROUND_CHARGE`), a tenth of a second on an 11×5 grid.
DEFAULT_POLISH = 0.2
# Backtracks per puzzle spent raising its worst answer (`worst_answer.py`: one
# compiled search cut at each fill, about 22 µs a backtrack) before the polish;
# a puzzle whose optimum is proven stops there. On default 30-packs of nine
# seeds the optimum was proven on 243 of 270 puzzles (12,000: 218; on five of
# the seeds, 6,000: 72 of 150) at 1.36–1.75 times the wall time of packs
# without the stage, median 1.55 (12,000: the same median; the stage before
# the cut, at 6,000: 84 of 270 at a median 1.39): benchmarks/RESULTS.md, "The
# worst answer: one search, cut at each fill". With rounds of four
# (`rounds.ROUND_SIZE`), 241 of 270 at 1.07–1.73 times, median 1.42 ("Rounds of four").
DEFAULT_WORST = 16000
# Lights across the seam every puzzle on a glued surface has by default.
DEFAULT_SEAM_LIGHTS = 2
# Words met in print: the packs' floor by default; below it the embedded list has obscure entries
# (UCA, NEESE). Where a pack's floor is lower, words under it are used only where the grid needs them.
PRINT_SCORE = 30
# The share of a puzzle's lights (so of a pack's entries) that may have three letters.
DEFAULT_THREE_SHARE = 0.25
# New fills of a grid a job may make, each without one more word, when two answers of one family
# cannot be parted by mending the fill (`_one_of_a_family`).
FAMILY_REFILLS = 2
# Plural-S entries (VETS, STEALS: a word with an S added to one of its lemmas) a drawn grid may have by
# default: one per this many cells, and never fewer than MIN_PLURALS — 2 on an 11×5 strip or a mini, 6 on a
# daily. A fill leaning on them reads as padding to an editor; the fill keeps the cap as a rule
# (`FillRules.cap`), so a grid that cannot keep it is another attempt.
PLURAL_CELLS = 36
MIN_PLURALS = 2
# Blocks per cell of a pack's grids of `DENSE_FROM_CELLS` cells or more: the grids packs fill sit near
# the ceiling (pattern_rules.DEFAULT_DENSITY's 30 %), so sparser draws are mostly wasted; smaller
# grids keep the whole range, as their small space is needed whole.
PACK_DENSITY = (0.18, 0.30)
DENSE_FROM_CELLS = 60


@dataclass(frozen=True)
class CrosswordPackSpec:
    count: int
    width: int
    height: int
    surface: str = "mobius"
    dictionary: str = "en"
    # The least score an answer may have; None: `PRINT_SCORE`, or for given grids and on an American grid of
    # the Sunday's size the floor their fill may reach down to (`floor`).
    min_score: int | None = None
    solver: str = "reference"
    seed: int = 0
    # Wall-clock seconds per fill attempt: only a backstop, well above what
    # the deterministic budgets cost (a CP-SAT fill of 5 deterministic
    # seconds took up to 45 s on a loaded 2-core machine; at 10 s every CP-SAT
    # attempt of a 7×5 pack was killed and the pack never finished).
    time_limit: float | None = BACKSTOP_S
    allow_repeats: bool = False  # answers may recur across the pack (never within a puzzle)
    min_length: int = 3
    checked: bool = True
    # None: no symmetry on a glued surface, rot180 on the plane. At the pack
    # sizes of the glued surfaces a symmetric rule leaves a few dozen grids
    # (43 on the 11×5 Möbius strip under rot180), too few for packs of
    # different seeds to stay apart, while the free space holds about a
    # thousand; and the glue hides the rectangle's symmetry on the surface
    # itself. Plane grids keep the American rules (`american.py`), rot180
    # among them. --symmetry none|rot180|mirror asks for another.
    symmetry: str | None = None
    max_seam_crossings: int | None = 1
    # Longest light; None = the grid's longer side, which keeps entries
    # readable and fillable (a wrapped light could otherwise run to 2W − 1);
    # on the plane the American default (`american.LONGEST_LIGHT`).
    max_length: int | None = None
    # Most words a grid may have; None = the American cap by area on the plane, no cap elsewhere.
    max_words: int | None = None
    # Most blocks per cell of a grid; None = the default by size on a glued surface (`PACK_DENSITY`,
    # `DEFAULT_DENSITY`), the American share on the plane. The floor follows a ceiling below it.
    max_blocks: float | None = None
    # Lights across the seam per puzzle; None = DEFAULT_SEAM_LIGHTS on a surface with a seam, 0 on the plane.
    min_seam_lights: int | None = None
    max_three_share: float = DEFAULT_THREE_SHARE
    # Most plural-S entries a grid may have (--max-plurals); None = one per PLURAL_CELLS cells of a drawn
    # grid and no cap on the publisher's own (--patterns, which cannot be redrawn to suit it); < 0 = no cap.
    max_plurals: int | None = None
    polish: float = DEFAULT_POLISH  # CP-SAT deterministic seconds per puzzle; 0 = no polish
    worst: int = DEFAULT_WORST  # backtracks per puzzle raising its worst answer; 0 = none
    # Clues on: every entry gets one from the embedded bank (or extra_clues,
    # the lines of --clues FILE, which replace a word's embedded clues), and
    # the fill uses only words with a clue. Off (--no-clues): any word, no clue.
    clues: bool = True
    extra_clues: ClueLines = ()
    ban: frozenset[str] = frozenset()  # words never used (--ban FILE)
    allow: frozenset[str] = frozenset()  # words added to the dictionary (--allow FILE)
    credits: Credits = Credits()  # --title, --author, --copyright
    spelling: str = "american"  # the embedded list's spelling (--spelling)
    # --difficulty (`difficulty.LEVELS`): the answers' floor and preferences and the clues' kinds.
    difficulty: str = DEFAULT_LEVEL
    # The publisher's own grids (--patterns, `given_grids.py`), the rows of each: the pack fills these
    # instead of drawing grids, and its pattern rules do not apply to them.
    patterns: tuple[tuple[str, ...], ...] = ()
    pattern_files: tuple[str, ...] = field(default=(), compare=False)  # the file of each, for messages only
    kind: str = "crossword"
    # The dictionary as jobs load it, filled in from `dictionary` when the spec
    # is made (on the machine that can read the file): an embedded list's name,
    # or the content of any other list. Jobs run where the file may be absent,
    # and read the list the pack started with even if the file changes meanwhile.
    word_source: str | ListContent | None = None
    # The files the clue, ban and allow lines were read from, by option
    # ("--clues" → path), for messages only: two specs of the same content are equal.
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.word_source is None:
            object.__setattr__(self, "word_source", portable(self.dictionary))

    @property
    def solver_spec(self) -> str:
        """The solver spec with its deterministic budget (and, for the reference
        solver, the pack's value order) unless given."""
        return self._solver_spec(1.0)

    def _solver_spec(self, share: float, plain: bool = False) -> str:
        """The solver spec with `share` of its deterministic budget; with `plain`, the reference solver's
        plain best-first order (one choice) unless --solver sets the choices: it fills a hard grid more
        often than a seeded choice among the best, but gives the same fill each time."""
        name, options = parse_spec(self.solver)
        if name == "cpsat":
            maximizing = getattr(get_solver("crossword", self.solver), "maximize", False)
            options = {**CPSAT_IN_PACK, **(MAXIMIZE_OPTIONS if maximizing else {}), **options}
        if name in DETERMINISTIC_BUDGETS:
            key, value = type(get_solver("crossword", name)).budget.option, DETERMINISTIC_BUDGETS[name]
            if name in SHARED_BUDGETS:
                value = round(value * max(1.0, self.width * self.height / BUDGET_CELLS) ** 2)
            options.setdefault(key, str(value))
            if share < 1.0 and name in SHARED_BUDGETS:
                kind = type(value)
                options[key] = str(max(kind(1), kind(float(options[key]) * share)))
        if name == "reference":
            options.setdefault("choices", "1" if plain else str(FILL_CHOICES))
        return _spec_string(name, options)

    @property
    def seam_lights(self) -> int:
        if self.min_seam_lights is not None:
            return self.min_seam_lights
        return DEFAULT_SEAM_LIGHTS if find_surface(self.surface).has_seam else 0

    def parameters(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "width": self.width, "height": self.height,
                "surface": self.surface, "dictionary": self.dictionary, "min_score": self.floor,
                "solver": self.solver_spec, "seed": self.seed, "time_limit": self.time_limit,
                "allow_repeats": self.allow_repeats, "min_length": self.min_length, "checked": self.checked,
                "symmetry": self.pattern_spec().symmetry, **self._seam_parameters(),
                "max_length": self.pattern_spec().max_length,
                "max_three_share": self.max_three_share, "max_plurals": self.plural_cap, "polish": self.polish,
                "worst": self.worst,
                "clues": self.clues, "extra_clues": len(self.extra_clues), "ban": sorted(self.ban),
                "allow": sorted(self.allow), "spelling": self.spelling, **self.credits.given(),
                **self._american_parameters(), **({"patterns": len(self.patterns)} if self.patterns else {}),
                # only when asked: the parameters of a medium pack stay those of packs made before levels
                **({"difficulty": self.difficulty} if self.difficulty != DEFAULT_LEVEL else {})}

    def _seam_parameters(self) -> dict[str, Any]:
        """The seam rules, which the plane, with no seam, leaves out."""
        if self.surface == "plane":
            return {}
        return {"max_seam_crossings": self.max_seam_crossings, "min_seam_lights": self.seam_lights}

    def _american_parameters(self) -> dict[str, Any]:
        """The rules only plane packs have (other packs' parameters stay as they were), and --max-blocks
        if given (so a pack resumed with another ceiling is refused)."""
        given = {} if self.max_blocks is None else {"max_blocks": self.max_blocks}
        if not self.american:
            return {**({} if self.max_words is None else {"max_words": self.max_words}), **given}
        spec = self.pattern_spec()
        return {"max_words": spec.max_words, "max_block_squares": spec.max_block_squares, **given}

    def describe(self) -> dict[str, Any]:
        words = self.words()
        bank = self.clue_bank()
        return {"dictionary": {"name": self.dictionary, "sha256": words.content_hash, "words": len(words)},
                "clue_bank": {"sha256": bank.sha256, "words": len(bank)} if bank else None,
                "words": self.word_use().to_json(), "difficulty": self.difficulty,
                **self.credits.of_pack(f"{surface_title(self.surface)} crosswords {self.width}×{self.height}")}

    def inputs(self) -> dict[str, dict[str, str]]:
        """The sha256 of each input's content as the pack reads it (a list's normalised
        words and scores, the clue lines, the ban and allow words), by option."""
        source = self.word_source or self.dictionary
        words = source.sha256 if isinstance(source, ListContent) else load(source).content_hash
        files = dict(self.sources)
        found = {"--dict": {"source": self.dictionary, "sha256": words}}
        if self.clues:  # the embedded bank changes with the tool: a pack never mixes two banks' clues
            found[EMBEDDED_BANK] = {"source": "(embedded in this version)", "sha256": load_bank().sha256}
        lines = {"--clues": [f"{word}\t{clue}" for word, clue in self.extra_clues],
                 "--ban": sorted(self.ban), "--allow": sorted(self.allow)}
        if self.patterns:  # the grids themselves: a file changed since, or another grid given, is another pack
            lines["--patterns"] = ["/".join(rows) for rows in self.patterns]
        for option, content in lines.items():
            if content or option in files:
                found[option] = {"source": files.get(option, "(lines)"), "sha256": _sha256_lines(content)}
        return found

    # -- the rules ----------------------------------------------------------------------

    @property
    def american(self) -> bool:
        """Whether the pack keeps the American rules: plane packs do."""
        return not find_surface(self.surface).has_seam

    def pattern_spec(self) -> PatternSpec:
        density = PACK_DENSITY if self.width * self.height >= DENSE_FROM_CELLS else DEFAULT_DENSITY
        rules: dict[str, Any] = {"symmetry": "none", "density": density,
                                 "max_length": max(self.width, self.height), "max_short_share": self.max_three_share,
                                 "allow_clutter": False}
        if self.american:
            rules.update(american_rules(self.width, self.height))
        if self.max_blocks is not None:
            rules["density"] = (min(rules["density"][0], self.max_blocks), self.max_blocks)
        given = {"symmetry": self.symmetry, "max_length": self.max_length, "max_words": self.max_words}
        rules.update((name, value) for name, value in given.items() if value)
        return PatternSpec(self.width, self.height, self.surface, min_length=self.min_length, checked=self.checked,
                           max_seam_crossings=self.max_seam_crossings, min_seam_lights=self.seam_lights,
                           **rules)

    @property
    def floor(self) -> int:
        """--min-score, or its default: `PRINT_SCORE`, lower for given grids and where an American grid's fill
        may reach down."""
        if self.min_score is not None:
            return self.min_score
        if self.patterns:
            # A given grid cannot be redrawn to suit the words, as a drawn one is: its fill reaches down as
            # a Sunday's does. At 30 alone the van Beek dailies 15.01–15.10 filled 6 of 10 and a pack of 20
            # from them made 17 or 18, its three-letter answers recurring; reaching to 25, all ten fill and
            # every pack of 20 was made with no answer twice (benchmarks/RESULTS.md, "`--patterns` at the
            # Sunday's floor").
            return SUNDAY_FLOOR
        reach = reach_floor(self.width, self.height) if self.american else None
        return PRINT_SCORE if reach is None else reach

    @property
    def level(self) -> Level:
        """The --difficulty level, preferring the words met in print where the floor is lower."""
        level = LEVELS[self.difficulty]
        if max(self.floor, level.floor) < PRINT_SCORE:
            level = dataclasses.replace(level, prefer=max(level.prefer or 0, PRINT_SCORE))
        return level

    @property
    def fill_min_score(self) -> int:
        """The least score an answer may have: the floor, or the level's if higher (easy)."""
        return max(self.floor, self.level.floor)

    @property
    def plural_cap(self) -> int | None:
        """Most plural-S entries a grid may have, None for no cap (`max_plurals`)."""
        if self.max_plurals is not None:
            return None if self.max_plurals < 0 else self.max_plurals
        if self.patterns:
            return None
        return max(MIN_PLURALS, self.width * self.height // PLURAL_CELLS)

    def rules(self, excluded: frozenset[str] = frozenset()) -> FillRules:
        # A given grid's lights are as they are: a seam rule of the pack's own grids does not bind them.
        most = self.plural_cap
        return FillRules(min_length=self.min_length, allow_repeats=False,
                         max_seam_crossings=None if self.patterns else self.max_seam_crossings,
                         min_score=self.fill_min_score,
                         excluded=excluded,
                         cap=None if most is None else WordCap(_plurals(self), most, PLURAL_S))

    def clue_bank(self) -> ClueBank | None:
        """The clues entries get (loaded once per process), or None with clues off."""
        return load_bank(self.extra_clues) if self.clues else None

    def words(self) -> WordList:
        """The fill's words: the dictionary with --allow added, --ban removed and,
        with clues on, only the words the clue bank can clue."""
        return self.word_use().words

    def word_use(self) -> WordUse:
        """The fill's words with the account of the list's others. With clues on a pack keeps to the
        clued words, since every entry of the product needs a clue; the manifest and the summary say so."""
        source = self.word_source or self.dictionary  # always the former: __post_init__ sets it
        bank = self.clue_bank()
        return fill_words(source, self.dictionary, min_score=self.fill_min_score, allow=self.allow, ban=self.ban,
                          spelling=self.spelling,
                          bank=bank, clued_only=bank is not None)

    # -- the plan and the job ---------------------------------------------------------------

    def plan(self, runner: Executor | None = None) -> CrosswordPlan:
        return CrosswordPlan(self, self.words(), runner)

    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]:
        job: CrosswordJob = avoid.assignment
        words = self.words()
        penalties = {**_share_bonus(self, job.share), **job.penalties}  # an earlier use outweighs the share
        penalties = add_penalties(penalties, _answer_penalties(self))  # the level's preference adds to both
        problem = FillProblem(make_grid(job.rows, self.surface), words, self.rules(job.excluded), penalties)
        mended = self._mend(problem, job)
        raised: WorstAnswer | None = None
        # A mended fill (the job's refused fill with its taken answers replaced) is
        # raised and polished like a new one: the answers replaced may be weak, and
        # the bound proven for the refused fill does not hold under the new exclusions.
        fill, stats = mended if mended is not None else self._fill(problem, job)
        problem, fill, stats = self._one_of_a_family(problem, fill, stats, job)
        budget = round(self.worst * self.level.worst_share)
        if budget > 0:
            raised = raise_worst(problem, fill, budget=budget)
            fill = raised.fill
            stats.update(worst_fills=raised.fills, worst_backtracks=raised.backtracks,
                         worst_score_before=raised.score_before)
        if self.polish > 0:
            kept = floored(problem, raised.score) if raised else problem  # the polish keeps the floor
            polished = polish(kept, fill, budget=self.polish, seed=job.fill_seed)
            fill = polished.fill
            stats.update(polish_rounds=polished.rounds, polish_improved=polished.improved,
                         score_before_polish=polished.score_before, score_after_polish=polished.score_after)
        pair = family_pair(problem.entries(fill))
        if pair is not None:  # brought back by the worst-answer stage or the polish: another attempt
            raise PuzzleFailed(f"two answers of one family ({pair[0]}, {pair[1]})")
        bank = self.clue_bank()
        puzzle = crossword_puzzle(problem, fill, puzzle_id=f"{index + 1:04d}", solver=parse_spec(self.solver)[0],
                                  stats=stats, seed=job.fill_seed,
                                  clues=LevelledClues(bank, self.level) if bank is not None else None,
                                  credits=self.credits)
        puzzle["rejected"] = avoid.attempt
        if raised is not None:
            puzzle["worst_answer"] = raised.record(problem, fill)
        puzzle["quality"] = puzzle_quality(puzzle)
        puzzle["difficulty"] = puzzle_difficulty(puzzle["entries"], self.difficulty)
        return puzzle

    def reclued(self, puzzle: dict[str, Any], given: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """`puzzle` with its clues chosen again (`grid_clues`, the puzzle's own seed) knowing the clues
        `given` to each answer by the puzzles before it in the pack, so a recurring answer gets a clue
        it has not had; the same object when no clue changes (a puzzle read back on --resume)."""
        bank = self.clue_bank()
        if bank is None:
            return puzzle
        entries = puzzle["entries"]
        clues = grid_clues(LevelledClues(bank, self.level, given), [e["answer"] for e in entries], puzzle["seed"])
        if clues == [e["clue"] for e in entries]:
            return puzzle
        reclued = {**puzzle, "entries": [{**e, "clue": clue} for e, clue in zip(entries, clues)]}
        reclued["difficulty"] = puzzle_difficulty(reclued["entries"], self.difficulty)  # the clue kinds changed
        return reclued

    def _mend(self, problem: FillProblem, job: CrosswordJob) -> tuple[Fill, dict[str, int | float]] | None:
        """The job's refused fill with its taken answers replaced (`polish.repair`),
        or None if it has none or it cannot be mended."""
        if job.start is None:
            return None
        start = fill_of(job.start)
        fill = repair(problem, start, seed=job.fill_seed)
        if fill is None:
            return None
        changed = sum(a != b for a, b in zip(problem.entries(start), problem.entries(fill)))
        return fill, {"mended_entries": changed}

    def _one_of_a_family(self, problem: FillProblem, fill: Fill, stats: dict[str, int | float],
                         job: CrosswordJob) -> tuple[FillProblem, Fill, dict[str, int | float]]:
        """`fill` with no two answers of one family (LET and LETS): the less familiar of a pair is
        excluded and its lights solved again (`polish.repair`), with the problem that excludes it. A pair
        the mend cannot part gets a new fill of the grid without the word (up to `FAMILY_REFILLS`): a
        solver whose fill of a grid is the same at every seed (CP-SAT) would otherwise meet the same
        pair at every attempt. PuzzleFailed when no new fill is left to try."""
        refills = 0
        while (pair := family_pair(problem.entries(fill))) is not None:
            drop = min(pair, key=lambda word: (problem.words.score(word), word))
            problem = dataclasses.replace(problem, rules=dataclasses.replace(
                problem.rules, excluded=problem.rules.excluded | {drop}))
            mended = repair(problem, fill, seed=job.fill_seed)
            if mended is not None:
                fill = mended
                continue
            if refills == FAMILY_REFILLS:
                raise PuzzleFailed(f"two answers of one family ({pair[0]}, {pair[1]}) and no mend of either")
            refills += 1
            fill, stats = self._fill(problem, job)
        return problem, fill, stats

    def _fill(self, problem: FillProblem, job: CrosswordJob) -> tuple[Fill, dict[str, int | float]]:
        """A fill of the job's grid by the pack's solver, within its deterministic budget."""
        solver = get_solver("crossword", self._solver_spec(job.budget_share, job.plain))
        require_usable(solver, problem)
        result = solver.solve(problem, time_limit=self.time_limit, seed=job.fill_seed)
        if result.status is not Status.SOLVED:
            raise PuzzleFailed(f"no fill of its grid from {self.word_use().source} ({_ending(solver, result)})",
                               proven=result.status is Status.UNSAT)
        return result.solution, dict(result.stats)

    # -- what the runner needs -------------------------------------------------------------

    def _pattern_problems(self, grid: Grid) -> list[str]:
        """The puzzle's grid checked: one of the grids given, or a grid that keeps the pack's rules."""
        if not self.patterns:
            return check_pattern(grid, self.pattern_spec())
        return [] if grid.rows in self.patterns else ["its grid is none of the grids given by --patterns"]

    def key(self, puzzle: Mapping[str, Any]) -> str:
        return "/".join(puzzle["rows"])

    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]:
        return frozenset(e["answer"] for e in puzzle["entries"])

    def verify(self, puzzle: Mapping[str, Any]) -> list[str]:
        """Re-check a puzzle from its JSON: pattern rules, lights, fill and quality figures."""
        try:
            grid = pattern_of(puzzle)
            fill = fill_of(puzzle["rows"])
        except (KeyError, TypeError, ValueError) as exc:
            return [f"malformed puzzle JSON: {exc}"]
        if (grid.width, grid.height, grid.surface.name) != (self.width, self.height, self.surface):
            return [f"puzzle is {grid.width}x{grid.height} {grid.surface.name}, the pack asks for "
                    f"{self.width}x{self.height} {self.surface}"]
        problems = self._pattern_problems(grid)
        problem = FillProblem(grid, self.words(), self.rules())
        problems += verify(problem, fill)
        listed = [(e["number"], e["direction"], [tuple(c) for c in e["cells"]], e["answer"])
                  for e in puzzle["entries"]]
        actual = [(light.number, light.direction, list(light.cells), word)
                  for light, word in zip(problem.lights.lights, problem.entries(fill))]
        if listed != actual:
            problems.append("the entries listed do not match the grid's lights and letters")
        elif puzzle.get("quality") != puzzle_quality(puzzle):
            problems.append("the quality figures do not match the entries")
        elif puzzle.get("difficulty") != puzzle_difficulty(puzzle["entries"], self.difficulty):
            problems.append(f"the difficulty figures do not match the entries and the level {self.difficulty}")
        elif not worst_answer_agrees(puzzle):
            problems.append("the worst answer recorded does not match the entries or its bound")
        elif pair := family_pair(e["answer"] for e in puzzle["entries"]):
            problems.append(f"two answers of one family: {pair[0]} and {pair[1]}")
        return problems


def _ending(solver: Solver, result: SolveResult) -> str:
    """How a fill that found nothing ended, as the plan counts it (`plan.OUT_OF_BUDGET`, `OUT_OF_TIME`)."""
    if result.status is Status.UNSAT:
        return "proven: none exists"
    if budget_spent(solver, result):
        return OUT_OF_BUDGET
    if result.status is Status.TIMEOUT:
        return OUT_OF_TIME
    return result.status.value.lower()


def _sha256_lines(lines: Sequence[str]) -> str:
    return hashlib.sha256("".join(f"{line}\n" for line in lines).encode("utf-8")).hexdigest()


def fill_of(rows: Sequence[str]) -> Fill:
    """The letters of a filled grid's rows, by cell (blocks left out)."""
    return {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != BLOCK}


@lru_cache(maxsize=2 * SHARES)
def _share_bonus(spec: CrosswordPackSpec, share: int) -> dict[str, int]:
    return share_bonus(spec.words().words, share, SHARES)


@lru_cache(maxsize=2)
def _plurals(spec: CrosswordPackSpec) -> frozenset[str]:
    """The fill's plural-S words, one set per pack (the fills' caps share it: `propagation.capped_masks`)."""
    return frozenset(word for word in spec.words().words if is_s_plural(word))


@lru_cache(maxsize=2)
def _answer_penalties(spec: CrosswordPackSpec) -> dict[str, int]:
    return answer_penalties(spec.words(), spec.level, spec.fill_min_score, spec.clue_bank())


def _spec_string(name: str, options: dict[str, str]) -> str:
    """A solver spec, its options in name order: `name:key=value,...`."""
    return name + ":" + ",".join(f"{k}={v}" for k, v in sorted(options.items())) if options else name
