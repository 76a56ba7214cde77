"""Crossword fill with OR-Tools CP-SAT.

Covers: `CpSatFillSolver`, which models a `FillProblem` as one letter
variable (0..25) per cell in a light and one table constraint per light
(`add_allowed_assignments`) over its cells' letters; where repeats are
forbidden, each pair of same-length lights that could read the same word
must differ in some position; with ``maximize=True`` each table gains a score
column and the total score is maximised (a word weighing its score less its
penalty when the problem carries soft penalties); a cap on words of one kind
(`WordCap`) gives each table a 0/1 column summed under it. Fixing part of a fill is
prefilling its letters in the grid; a `hint` guides the search. Before the
model is built the tables are shrunk, because CP-SAT spends most of its time
expanding large tables in presolve: the unary filters (length, minimum
score, excluded words, prefilled letters) always, and with ``prepass="ac3"`` arc consistency over the
crossings, which also proves many grids UNSAT before CP-SAT starts. Both
filters are the project's one pre-pass (`propagation.candidate_words`), which
the reference solver starts from too. A plain fill of a big grid (`TABLES`)
goes further: each light's table is cut to its best-ranked words, arc
consistency runs over the cut tables, and the cut doubles while the cut
grid is UNSAT; a fill of cut tables is a fill of the grid, and UNSAT is
answered only by the round with no light cut, so the answer stays a proof.
A plain fill searches first-fail on the
letters (CP-SAT's fixed search; `SEARCHES` says why); a maximising one leaves
the search to CP-SAT. Counters
(table rows before and after, pre-pass, build and presolve times, conflicts,
branches, CP-SAT's deterministic time, the objective; summed over the rounds
of a growing fill, with its rounds and last cut) go into
`SolveResult.stats`. A time limit bounds the whole solve: the pre-pass and
the model building look at the clock as they go, and CP-SAT (presolve
included) gets what is left; CP-SAT runs in a forked child killed at the
deadline (`deadline.call_before`: its presolve does not look at its limit
while it expands big tables, and it never returns to Python for a Ctrl-C),
unless ``child=False`` says the caller bounds the solve itself.

Leaves out: the backtracking search of `reference.py`, arc consistency (`propagation.py`) and checking
fills (`verify.py`).
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
from ortools.sat.python import cp_model

from mobius.cpmodel.crossword.lights import Light
from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.crossword.propagation import (ALPHABET, Candidates, LastMemo, Network, State, ac3, build_network,
                                                 candidate_words, capped_masks)
from mobius.cpmodel.crossword.tables import letter_codes, set_bits
from mobius.cpmodel.deadline import ANSWER_GRACE_S, DeadlineExceeded, call_before, check_deadline
from mobius.cpmodel.solver import Budget, SolverBase, SolveResult, Status, cpsat_solver, option
from mobius.cpmodel.surface import Cell

PREPASSES = ("ac3", "none")
# CP-SAT's own ceiling on parallel workers is far above any machine here;
# past this a value is a typo, not a wish.
MAX_WORKERS = 256
# CP-SAT parameter sets for its presolve. Expanding the tables dominates the
# run time of fill models, and probing, symmetry detection, repeated presolve
# rounds, compressing tuples, the LP relaxation and the search for big
# linear overlaps do not pay off on word tables: "light" (the default) skips
# them, "off" skips presolve altogether, "full" is CP-SAT's own default
# (figures: benchmarks/RESULTS.md, "Figures behind constants" and "CP-SAT
# fills: first-fail on the letters"). "light" also skips the step that
# rewrites a maximising model's objective over the tables' row literals:
# its work grows with the square of a table's rows, it stops at its own
# limit without a rewrite on pack grids, and it was 0.6-0.7 s of a 1.4 s
# maximising fill (RESULTS.md, "Maximising fills: the objective step
# skipped"). OR-Tools 9.15 skips it only under `keep_symmetry_in_presolve`,
# which with symmetry_level 0 otherwise only turns off bounded variable
# addition in the SAT presolve (plain fills searched the same on all 93 grids
# of the Möbius and van Beek suites).
PRESOLVES: dict[str, dict[str, object]] = {
    "light": {"cp_model_probing_level": 0, "symmetry_level": 0, "max_presolve_iterations": 1,
              "table_compression_level": 0, "linearization_level": 0, "find_big_linear_overlap": False,
              "keep_symmetry_in_presolve": True},
    "off": {"cp_model_presolve": False, "linearization_level": 0},
    "full": {},
}
# Searches. "first-fail" branches on the letter of the cell with the fewest
# letters left, alphabet order, with CP-SAT's fixed search and no SAT
# inprocessing between restarts: CP-SAT's own search on these models makes
# thousands of decisions that each rule out one word (a 5x5 van Beek grid:
# 15,100 branches, 52 conflicts, 2.9 units of deterministic time, where
# first-fail takes 308 branches and 0.1), and its inprocessing re-probes the
# expanded tables at every restart. "cpsat" is CP-SAT's own; "auto" is
# first-fail for a plain fill and CP-SAT's own when maximising, where its
# objective-guided search and LNS are what find better fills. With one
# worker it runs no LNS, and on 11×5 pack grids first-fail's branch and
# bound found better fills sooner, so the pack generator asks for it.
SEARCHES = ("auto", "first-fail", "cpsat")
# Tables. "full" gives CP-SAT every word the pre-pass leaves; "grow" cuts
# each light's table to its best-ranked words and doubles the cut while the
# cut problem is UNSAT (`CpSatFillSolver._grow`); "auto" grows a plain fill
# whose tables hold more than GROW_ABOVE_ROWS rows in all. CP-SAT expands
# every row into a Boolean before it searches (about 25 s for the 0.8-1.2
# million rows of a 23x23 van Beek grid), while a fill of such a grid
# usually needs only common words. Measured (benchmarks/RESULTS.md, "CP-SAT
# fills: tables that grow"): above 550,000 rows (the 21x21 and 23x23 van
# Beek grids, the bigger 19x19 ones) whole tables rarely leave time for the
# search and growing decides grids they do not; from 300,000 to 550,000
# rows growing is faster on most grids but its search stalls on some (15.06,
# 15.10) that whole tables fill in 7-11 s, so whole tables stay there, as
# they do below (every Möbius suite grid and pack grid, under 160,000).
TABLES = ("auto", "full", "grow")
GROW_ABOVE_ROWS = 550_000
# The first cut, in words per light, and its growth per round: a cut of
# 1,000 is refuted by arc consistency in milliseconds where it is too small,
# and doubling keeps the rounds few (the last, uncut, one costs about as much
# as all before it).
GROW_FIRST_WORDS = 1000
GROW_FACTOR = 2
# CP-SAT reports no presolve time of its own; its log (kept in the response,
# never printed) stamps the moment search starts, and presolve is before it.
_SEARCH_START = re.compile(r"^Starting search at ([0-9.]+)s", re.MULTILINE)
_STATUS = {
    cp_model.OPTIMAL: Status.SOLVED,
    cp_model.FEASIBLE: Status.SOLVED,
    cp_model.INFEASIBLE: Status.UNSAT,
    cp_model.UNKNOWN: Status.TIMEOUT,
    cp_model.MODEL_INVALID: Status.ERROR,
}


@dataclass(frozen=True)
class Table:
    """The words still allowed in one light, one row per word."""

    letters: np.ndarray  # (rows, length) uint8 letter codes, 0 = 'A'
    ids: np.ndarray  # each word's number among the words of its length (the reference's ranking)
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class Domains:
    """The shrunk problem: a table per light and the letters left per cell."""

    cells: list[Cell]  # every cell in a light, in reading order
    cell_index: dict[Cell, int]
    allowed: np.ndarray  # (cells, 26) bool: letters some table still places in each cell
    tables: list[Table]  # parallel to problem.lights.lights
    light_cells: list[np.ndarray]  # cell indices of each light, in its order


@dataclass(frozen=True)
class CpSatFillSolver(SolverBase):
    """Fill a crossword with CP-SAT after shrinking its tables.

    `workers` is CP-SAT's `num_workers` (1 keeps runs deterministic for a
    seed); `maximize` asks for the fill of highest total word score instead of
    the first fill; `prepass` is "ac3" (arc consistency before modelling) or
    "none" (only the unary filters); `presolve` picks one of `PRESOLVES`;
    `search` one of `SEARCHES`; `child=False` runs CP-SAT in this process, for
    a caller that bounds the solve itself (a pack job, whose worker the pack
    kills whole; the polish's many small solves): a child per solve costs a
    fork, the pages it copies and a fresh heap, 0.2–0.3 s of a maximising
    fill's 1.6 s and several times a small solve.
    """

    name: ClassVar[str] = "cpsat"
    budget: ClassVar[Budget] = Budget("deterministic_time", "deterministic_time", "s of CP-SAT deterministic time")

    workers: int = option(1, minimum=1, maximum=MAX_WORKERS, help="CP-SAT search workers")
    maximize: bool = option(False, help="the fill of highest total word score")
    prepass: str = option("ac3", choices=PREPASSES, help="arc consistency before modelling, or none")
    presolve: str = option("light", choices=PRESOLVES, help="CP-SAT presolve level")
    search: str = option("auto", choices=SEARCHES, help="first-fail on letters, CP-SAT's own, or auto")
    tables: str = option("auto", choices=TABLES, help="whole tables, tables that grow from the best words, or auto")
    grow_from: int = option(GROW_FIRST_WORDS, minimum=1, maximum=10**9, help="words per light in a first cut table")
    # CP-SAT's deterministic time: a budget that is the same on every
    # machine (the pack generator uses it so that its output does not
    # depend on the machine's speed); None = no such budget.
    deterministic_time: float | None = option(None, minimum=0.001, help="CP-SAT deterministic-time budget")
    child: bool = option(True, help="run CP-SAT in a child process killed at the time limit (false: in this one)")

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0,
              hint: Fill | None = None) -> SolveResult:
        """Fill `problem`; `hint` (a whole or partial fill) guides CP-SAT's search.

        A maximising run that times out with a fill in hand returns it as
        SOLVED with ``optimal=False``. CP-SAT's presolve does not
        always carry a hint through; with ``presolve="off"`` a hint that is a
        whole fill is taken as the answer.
        """
        start = time.perf_counter()
        deadline = math.inf if time_limit is None else start + time_limit
        stats: dict[str, int | float] = {
            "table_rows_initial": sum(len(problem.words.by_length(light.length)) for light in problem.lights.lights),
            "table_rows": 0, "conflicts": 0, "branches": 0, "prepass_s": 0.0, "build_s": 0.0, "presolve_s": 0.0,
        }
        # Pre-pass: shrink every light's table before CP-SAT sees it.
        try:
            candidates = candidate_words(problem, arc_consistent=self.prepass == "ac3", deadline=deadline)
            failure = Status.UNSAT  # if a table is empty
        except DeadlineExceeded:
            candidates, failure = None, Status.TIMEOUT
        stats["prepass_s"] = time.perf_counter() - start
        if candidates is None:
            return self._result(failure, None, start, stats)
        stats["table_rows"] = sum(c.domain.bit_count() for c in candidates)
        if self._grows(stats["table_rows"]):
            status, fill, optimal = self._grow(problem, candidates, stats, seed=seed, hint=hint,
                                               deadline=deadline)
        else:
            domains = _tabulate(problem, candidates, narrow=self.prepass == "ac3")
            status, fill, optimal = self._solve_tables(problem, domains, stats, seed=seed, hint=hint,
                                                       deadline=deadline)
        return self._result(status, fill, start, stats, optimal if self.maximize else None)

    def _grows(self, rows: int) -> bool:
        """Whether this fill starts from cut tables (`TABLES`)."""
        return self.tables == "grow" or (self.tables == "auto" and not self.maximize and rows > GROW_ABOVE_ROWS)

    def _grow(self, problem: FillProblem, candidates: list[Candidates], stats: dict[str, int | float], *,
              seed: int, hint: Fill | None, deadline: float) -> tuple[Status, Fill | None, bool]:
        """Solve with each light cut to its best `cap` words, doubling `cap` while that is UNSAT.

        A fill of cut tables is a fill of the whole problem (every word is
        in its light's table). UNSAT is a proof only once no light is cut;
        before that it only says the cap is too small, and arc consistency
        over the cut tables usually says so before CP-SAT is needed.
        """
        cap = self.grow_from
        stats["grow_rounds"] = 0
        try:
            net = build_network(problem, deadline)
            while True:
                cut = [_best_words(c, cap) for c in candidates]
                stats["grow_rounds"] += 1
                stats["grow_cap"] = cap
                whole = all(c.domain == d for c, d in zip(candidates, cut))
                narrowed = _arc_consistent(net, cut, deadline)
                if narrowed is not None:
                    domains = _tabulate(problem, [replace(c, domain=d) for c, d in zip(candidates, narrowed)],
                                        narrow=True)
                    found = self._solve_tables(problem, domains, stats, seed=seed, hint=hint, deadline=deadline)
                    if whole:
                        return found
                    if found[0] is not Status.UNSAT:  # the best fill of a cut is no proven optimum
                        return found[0], found[1], False
                elif whole:
                    return Status.UNSAT, None, False
                cap *= GROW_FACTOR
        except DeadlineExceeded:
            return Status.TIMEOUT, None, False

    def _solve_tables(self, problem: FillProblem, domains: Domains, stats: dict[str, int | float], *,
                      seed: int, hint: Fill | None, deadline: float) -> tuple[Status, Fill | None, bool]:
        """Model `domains` and run CP-SAT on it; counters are added to `stats`.

        Returns the status, the fill if one was found, and whether CP-SAT
        proved it optimal.
        """
        # Model: variables and constraints (building big tables takes seconds: it is timed too).
        build_start = time.perf_counter()
        stats["table_rows"] = sum(len(t) for t in domains.tables)
        try:
            model, letter_vars = _build_model(problem, domains, self.maximize, deadline)
        except DeadlineExceeded:
            stats["build_s"] += time.perf_counter() - build_start
            return Status.TIMEOUT, None, False
        if hint:
            _add_hint(model, letter_vars, domains.cell_index, hint)
        if self._first_fail:
            model.add_decision_strategy(letter_vars, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
        stats["build_s"] += time.perf_counter() - build_start

        # Solve, within what is left of the time limit, in a child process
        # killed at the deadline: CP-SAT's presolve does not look at its limit
        # while it expands big tables, and CP-SAT never returns to Python for
        # a Ctrl-C before it stops (the child is killed at once then).
        solver = self._cp_solver(seed, None if math.isinf(deadline) else deadline - time.perf_counter(),
                                 spent=float(stats.get("deterministic_time", 0.0)))
        run = functools.partial(_run_cpsat, solver, model, letter_vars, self.maximize)
        outcome = call_before(run, deadline + ANSWER_GRACE_S) if self.child else run()
        if outcome is None:
            stats["killed_at_deadline"] = 1
            return Status.TIMEOUT, None, False

        # Statistics and the answer: counters add up over the rounds of a growing fill.
        for key, value in outcome.stats.items():
            stats[key] = stats.get(key, 0) + value
        if outcome.values is None:
            return outcome.status, None, False
        if self.maximize:
            stats["objective"] = outcome.objective
        fill = {**problem.grid.letters, **{cell: ALPHABET[v] for cell, v in zip(domains.cells, outcome.values)}}
        return outcome.status, fill, outcome.optimal

    def _result(self, status: Status, fill: Fill | None, start: float, stats: dict[str, int | float],
                optimal: bool | None = None) -> SolveResult:
        return SolveResult(status, fill, self.name, time.perf_counter() - start, stats, optimal=optimal)

    @property
    def _first_fail(self) -> bool:
        return self.search == "first-fail" or (self.search == "auto" and not self.maximize)

    def _cp_solver(self, seed: int, time_limit: float | None, spent: float = 0.0) -> cp_model.CpSolver:
        """CP-SAT's parameters; `spent` is the deterministic time earlier rounds of a growing fill took
        out of the budget."""
        solver = cpsat_solver(seed, self.workers)
        for key, value in PRESOLVES[self.presolve].items():
            setattr(solver.parameters, key, value)
        if self._first_fail:
            solver.parameters.search_branching = cp_model.FIXED_SEARCH
            solver.parameters.use_sat_inprocessing = False
        if self.deterministic_time is not None:
            solver.parameters.max_deterministic_time = max(self.deterministic_time - spent, 1e-3)
        if time_limit is not None:
            # A tiny positive limit rather than zero, which CP-SAT reads as "no limit".
            solver.parameters.max_time_in_seconds = max(time_limit, 1e-3)
        # The log stays in the response (solvers never print) for the presolve time.
        solver.parameters.log_search_progress = True
        solver.parameters.log_to_stdout = False
        solver.parameters.log_to_response = True
        return solver


# --- pre-pass -----------------------------------------------------------------------


def _tabulate(problem: FillProblem, candidates: list[Candidates], *, narrow: bool) -> Domains:
    """The table of each light from its candidate words, and the cells' letters.

    The candidates come from the shared pre-pass (`propagation.candidate_words`:
    length, minimum score and prefilled letters, then with arc consistency
    over every crossing); reusing it keeps one arc-consistency code in the
    project, and its bitset domains are cheap to turn into table rows.
    `narrow` restricts each cell to the letters its lights can place (true
    after arc consistency).
    """
    encoded: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    tables = []
    for light, cand in zip(problem.lights.lights, candidates):
        if light.length not in encoded:
            scores = np.array(cand.scores)
            if problem.penalties:  # the objective weighs a word at its score less its penalty
                scores = scores - _penalty_column(problem, light.length, cand.words)
            encoded[light.length] = (_codes(cand.words, light.length), scores)
        letters, scores = encoded[light.length]
        rows = set_bits(cand.domain, len(cand.words))
        tables.append(Table(letters[rows], rows, scores[rows]))
    return _domains(problem, tables, narrow=narrow)


def _best_words(candidates: Candidates, cap: int) -> int:
    """The domain cut to its `cap` best words: words are numbered best first,
    so these are its `cap` lowest bits."""
    bits = set_bits(candidates.domain, len(candidates.words))
    return candidates.domain if len(bits) <= cap else candidates.domain & ((1 << int(bits[cap])) - 1)


def _arc_consistent(net: Network, domains: list[int], deadline: float) -> list[int] | None:
    """`domains` after AC-3 over every crossing; None if a light empties."""
    state = State(net, list(domains), deadline)
    return None if ac3(net, state, range(len(domains))) is not None else state.dom


# Per length, the letter codes of the last word index seen: the rounds of a polish and the jobs of a
# pack worker share one index, whose words would otherwise be encoded again for every small problem.
_CODES: dict[int, tuple[tuple[str, ...], np.ndarray]] = {}


def _codes(words: tuple[str, ...], length: int) -> np.ndarray:
    """`tables.letter_codes(words)`, remembered while the same words (by identity) come back."""
    last = _CODES.get(length)
    if last is None or last[0] is not words:
        last = _CODES[length] = (words, letter_codes(words, length))
    return last[1]


# Many small problems share one penalty table (a polish solves twenty
# neighbourhoods of one grid): the columns of the last table seen are kept.
_PENALTY_COLUMNS: LastMemo[dict[int, np.ndarray]] = LastMemo()


def _penalty_column(problem: FillProblem, length: int, words: tuple[str, ...]) -> np.ndarray:
    """The penalty of each word of one length, in the order of `words`."""
    columns = _PENALTY_COLUMNS.get((problem.penalties, problem.words), dict)
    column = columns.get(length)
    if column is None:
        column = columns[length] = np.array([problem.penalties.get(w, 0) for w in words], dtype=np.int64)
    return column


def _domains(problem: FillProblem, tables: list[Table], *, narrow: bool) -> Domains:
    """Index the cells; if `narrow`, restrict each to the letters its lights can place."""
    lights = problem.lights
    cells = [c for c in problem.grid.cells() if lights.cell_lights.get(c)]
    cell_index = {c: i for i, c in enumerate(cells)}
    light_cells = [np.array([cell_index[c] for c in light.cells], dtype=np.intp) for light in lights.lights]
    allowed = _placeable(tables, light_cells, len(cells)) if narrow \
        else np.ones((len(cells), len(ALPHABET)), dtype=bool)
    return Domains(cells, cell_index, allowed, tables, light_cells)


def _placeable(tables: list[Table], light_cells: list[np.ndarray], num_cells: int) -> np.ndarray:
    """(cells, 26): the letters every light through a cell can place there.

    After arc consistency all lights through a cell agree, so no row is empty.
    """
    allowed = np.ones((num_cells, len(ALPHABET)), dtype=bool)
    for table, cell_ids in zip(tables, light_cells):
        for pos, cell_id in enumerate(cell_ids):
            placed = np.zeros(len(ALPHABET), dtype=bool)
            placed[table.letters[:, pos]] = True
            allowed[cell_id] &= placed
    return allowed


# --- model --------------------------------------------------------------------------


class _Model(cp_model.CpModel):
    """CP-SAT's model without the camelCase aliases OR-Tools sets on every new
    model (a few milliseconds each, as much as a polish round's solve); this
    module calls the snake_case names."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def _build_model(problem: FillProblem, domains: Domains, maximize: bool,
                 deadline: float = math.inf) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model and its letter variables, parallel to `domains.cells`.

    Raises `DeadlineExceeded` past `deadline`, looked at after each table.
    """
    model = _Model()
    lights = problem.lights.lights
    # Variables: one letter per cell, its domain already narrowed by the pre-pass.
    letter_vars = [
        model.new_int_var_from_domain(cp_model.Domain.from_values(np.flatnonzero(row).tolist()), f"cell_{x}_{y}")
        for (x, y), row in zip(domains.cells, domains.allowed)
    ]
    score_vars: list[cp_model.IntVar] = []
    capped = capped_masks(problem)
    capped_vars: list[cp_model.IntVar] = []
    # Constraints: one table per light over its letters (+ its word's score, + whether the cap counts it).
    for light, table, cell_ids in zip(lights, domains.tables, domains.light_cells):
        columns = [letter_vars[c] for c in cell_ids]
        rows = table.letters
        if maximize:
            score_vars.append(model.new_int_var(int(table.scores.min()), int(table.scores.max()),
                                                f"score_{light.label}"))
            columns.append(score_vars[-1])
            rows = np.hstack([rows, table.scores[:, None]])
        if capped.get(light.length):
            capped_vars.append(model.new_bool_var(f"capped_{light.label}"))
            columns.append(capped_vars[-1])
            rows = np.hstack([rows, _capped_column(capped[light.length], table.ids)[:, None]])
        _add_table(model, columns, rows)
        check_deadline(deadline)
    # Constraints: the cap on words of one kind.
    if problem.rules.cap is not None and capped_vars:
        model.add(sum(capped_vars) <= problem.rules.cap.most)
    # Constraints: no word twice.
    if not problem.rules.allow_repeats:
        for i, j in _may_repeat(lights, domains.tables):
            _add_differ(model, [letter_vars[c] for c in domains.light_cells[i]],
                        [letter_vars[c] for c in domains.light_cells[j]])
            check_deadline(deadline)
    # Objective: the total word score, if asked for.
    if maximize:
        model.maximize(sum(score_vars))
    return model, letter_vars


def _capped_column(mask: int, ids: np.ndarray) -> np.ndarray:
    """1 for each word (by its number among its length's words) the cap's bitset holds, else 0."""
    return np.isin(ids, set_bits(mask, mask.bit_length())).astype(np.int64)


def _add_table(model: cp_model.CpModel, columns: list[cp_model.IntVar], rows: np.ndarray) -> None:
    """`add_allowed_assignments`, written into the model's proto at once: the
    method takes the rows one Python list at a time (a second for 400,000
    rows, a tenth of that here)."""
    table = model.proto.constraints.add().table
    table.vars.extend(var.index for var in columns)
    table.values.extend(rows.ravel().tolist())


def _may_repeat(lights: tuple[Light, ...], tables: list[Table]) -> Iterable[tuple[int, int]]:
    """Pairs of lights that could read the same word: same length, and a word
    left in both tables. Words of different lengths never collide."""
    by_length: dict[int, list[int]] = {}
    for i, light in enumerate(lights):
        by_length.setdefault(light.length, []).append(i)
    for group in by_length.values():
        for k, i in enumerate(group):
            for j in group[k + 1:]:
                if np.intersect1d(tables[i].ids, tables[j].ids, assume_unique=True).size:
                    yield i, j


def _add_differ(model: cp_model.CpModel, first: list[cp_model.IntVar], second: list[cp_model.IntVar]) -> None:
    """The two lights read different words: some position holds different letters.

    Cheaper than a word-id column in each table with an all-different per
    length: that needs an integer per light with thousands of values, which
    CP-SAT encodes value by value in presolve (van Beek 15.04 with the 73k
    `words` list: 26 s of CPU against 7.8 s here, 6.4 s with repeats allowed).
    """
    differs = []  # empty (so infeasible) only for one cell read across and down
    for a, b in zip(first, second):
        if a is b:  # the lights cross here, at the same position: never differs
            continue
        differs.append(model.new_bool_var(""))
        model.add(a != b).only_enforce_if(differs[-1])
    model.add_bool_or(differs)


def _add_hint(model: cp_model.CpModel, letter_vars: list[cp_model.IntVar], cell_index: dict[Cell, int],
              hint: Fill) -> None:
    for cell, letter in hint.items():
        if cell in cell_index:
            model.add_hint(letter_vars[cell_index[cell]], ALPHABET.index(letter))


# --- solving and statistics -----------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    """What a CP-SAT run gives back (picklable, so that it can come from a child process)."""

    status: Status
    optimal: bool
    values: list[int] | None  # the letter of each cell, parallel to `Domains.cells`, if a fill was found
    objective: int | None
    stats: dict[str, int | float]


def _run_cpsat(solver: cp_model.CpSolver, model: cp_model.CpModel, letter_vars: list[cp_model.IntVar],
               maximize: bool) -> _Outcome:
    code = solver.solve(model)
    found = _STATUS[code] is Status.SOLVED
    return _Outcome(_STATUS[code], code == cp_model.OPTIMAL,
                    [int(solver.value(var)) for var in letter_vars] if found else None,
                    int(solver.objective_value) if found and maximize else None, _solver_stats(solver))


def _solver_stats(solver: cp_model.CpSolver) -> dict[str, int | float]:
    found = _SEARCH_START.search(solver.response_proto.solve_log)
    # No search line means presolve settled the model (or ran out of time).
    presolve_s = float(found.group(1)) if found else solver.wall_time
    return {"conflicts": solver.num_conflicts, "branches": solver.num_branches,
            "presolve_s": presolve_s, "cpsat_s": solver.wall_time,
            "deterministic_time": solver.response_proto.deterministic_time}
