"""Slider packs: starts at an exact optimal distance, spread over a depth range.

Covers: `SliderPackSpec` — the parameters of `mobius pack slider`, checked
when the spec is made — and its job. Puzzle i of N gets depth
MIN + round(i·(MAX − MIN)/(N − 1)), so the pack runs from MIN to MAX and
every depth gets its share. A breadth-first census from the goal (stopped
after `CENSUS_CELLS` tile entries) counts the distinct starts at each depth:
a depth bin that needs more puzzles than there are starts, or a depth past
the farthest state, is refused before anything starts. Where the census
knows a depth exactly, the start is drawn from it; deeper, a seeded random
walk from the goal gives a start that is solvable by construction. A
registered optimal solver gives the exact distance and solution, and the
start is kept only when that distance is the depth asked for. The
independent re-check replays the solution, asks the group test (one blank)
and checks the length. A board read from a file travels with the spec as
its JSON, so a worker elsewhere never reads the user's path; presets travel
by name. `prepare_tables` builds the solver's pattern tables in this
machine's cache before the jobs (the 15-puzzle's take minutes), with
progress. Leaves out: running jobs and writing files (`generators/pack.py`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import parse_whole_number, shown
from mobius.cpmodel.slider.board import (
    BLANK,
    Board,
    SliderProblem,
    State,
    board_from_json,
    default_goal,
    load_board,
    random_walk,
    validate_state,
)
from mobius.cpmodel.slider.drawing import with_layout
from mobius.cpmodel.slider.verify import verify
from mobius.cpmodel.solver import Status, default_slider_solver, get_solver, parse_spec, require_usable
from mobius.cpmodel.store import attach_tables
from mobius.generators.cache import user_store
from mobius.generators.pack import PackError, derive_seed
from mobius.generators.rounds import Avoid
from mobius.generators.puzzles import Credits, slider_puzzle

# Random walks rarely end at the deepest distances (the 8-puzzle has 2 states
# at distance 31 of 181,440); past this many tries the depth is reported as
# out of reach rather than searched for ever.
MAX_START_ATTEMPTS = 400
# Walks a little longer than the target depth reach it more often, since
# walks fold back on themselves; the excess grows with failed attempts.
WALK_EXCESS_STEP = 2
# The census stops expanding once it holds this many tile entries (states ×
# vertices): the whole 8-puzzle or ring component (181,440 states of 9 =
# 1.6 M) in about half a second and 40 MB, the first levels of anything
# larger (the last level expanded can triple the count).
CENSUS_CELLS = 2_000_000
# Optimal depths asked of a pack: the 15-puzzle's hardest start is 80 moves,
# the 24-puzzle's about 200; no optimal solver here goes further.
MAX_PACK_DEPTH = 1000
# Puzzles in one pack.
MAX_PACK_COUNT = 100_000


def parse_depths(text: str) -> tuple[int, int]:
    """`MIN..MAX` or a single depth, each at most `MAX_PACK_DEPTH`."""
    low, dots, high = text.partition("..")
    what = f"--depth {shown(text)}"
    lo = parse_whole_number(low.strip(), f"{what}, MIN", high=MAX_PACK_DEPTH)
    hi = parse_whole_number(high.strip(), f"{what}, MAX", high=MAX_PACK_DEPTH) if dots else lo
    if lo > hi:
        raise InputError(f"{what}: expected MIN..MAX with MIN <= MAX, e.g. 8..14")
    return lo, hi


# --- the census -------------------------------------------------------------------------

@dataclass(frozen=True)
class Census:
    """layers[d] = every state at optimal distance d from the goal; `complete`: nothing lies deeper."""

    layers: tuple[tuple[State, ...], ...]
    complete: bool


def _neighbours_of(state: State, board: Board) -> list[State]:
    """Every state one slide away: a tile next to a blank moves into it."""
    found = []
    for blank, tile in enumerate(state):
        if tile != BLANK:
            continue
        for vertex in board.neighbours[blank]:
            if state[vertex] != BLANK:
                child = list(state)
                child[blank], child[vertex] = state[vertex], BLANK
                found.append(tuple(child))
    return found


def census(board: Board, goal: State, cells: int = CENSUS_CELLS) -> Census:
    """Breadth-first from `goal`, one whole level at a time, until `cells` tile entries are held."""
    seen = {goal}
    layers = [(goal,)]
    while layers[-1] and len(seen) * board.n < cells:
        level = []
        for state in layers[-1]:
            for child in _neighbours_of(state, board):
                if child not in seen:
                    seen.add(child)
                    level.append(child)
        layers.append(tuple(level))
    complete = not layers[-1]
    return Census(tuple(layers[:-1]) if complete else tuple(layers), complete)


@lru_cache(maxsize=4)
def _board(board_spec: str, board_json: str | None) -> Board:
    """The pack's board: from the JSON the spec carries (a board file), else from its preset name."""
    return board_from_json(json.loads(board_json), board_spec) if board_json is not None else load_board(board_spec)


@lru_cache(maxsize=4)
def _board_census(board_spec: str, board_json: str | None, blanks: int) -> Census:
    # Once per process and board: the parent checks the bins, each worker draws starts.
    board = _board(board_spec, board_json)
    return census(board, default_goal(board, blanks))


@dataclass(frozen=True)
class SliderPackSpec:
    count: int
    board: str = "ring"
    depth_min: int = 4
    depth_max: int = 12
    blanks: int = 1
    solver: str = ""  # empty: the registry's default for the number of blanks
    seed: int = 0
    time_limit: float | None = 60.0
    credits: Credits = Credits()  # --title, --author, --copyright
    kind: str = "slider"
    # A board file's board as JSON (with its name), filled in when the spec is
    # made on the machine that can read the file; None for a preset, which
    # every machine builds from its name.
    board_json: str | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_PACK_COUNT:
            raise InputError(f"--count: expected 1 to {MAX_PACK_COUNT:,} puzzles, got {self.count:,}")
        if not 0 <= self.depth_min <= self.depth_max <= MAX_PACK_DEPTH:
            raise InputError(f"--depth {self.depth_min}..{self.depth_max}: expected 0 <= MIN <= MAX <= "
                             f"{MAX_PACK_DEPTH}")
        if self.board_json is None and Path(self.board).exists():  # a file: load_board's own test
            # Drawn here, once, when the file has no layout: every export draws the board, so a
            # missing layout must not first show when the finished puzzles are exported.
            board = with_layout(load_board(self.board))
            object.__setattr__(self, "board_json", json.dumps({"name": board.label, **board.to_json()}))
        self.check_depth_bins()
        self.check_exports()

    @property
    def solver_spec(self) -> str:
        return self.solver or default_slider_solver(self.blanks)

    def parameters(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "board": self.board, "depth": [self.depth_min, self.depth_max],
                "blanks": self.blanks, "solver": self.solver_spec, "seed": self.seed, "time_limit": self.time_limit,
                **self.credits.given()}

    def describe(self) -> dict[str, Any]:
        board = self.load_board()
        return {"board": board.to_json(), **self.credits.of_pack(f"Slider puzzles: {board.label}")}

    def inputs(self) -> dict[str, dict[str, str]]:
        """The sha256 of the board (its JSON, preset or file), the pack's one input."""
        text = json.dumps(self.load_board().to_json(), sort_keys=True)
        return {"--board": {"source": self.board, "sha256": hashlib.sha256(text.encode()).hexdigest()}}

    def load_board(self) -> Board:
        return _board(self.board, self.board_json)

    def depth_of(self, index: int) -> int:
        """MIN + round(index·(MAX − MIN)/(count − 1)): the first puzzle at MIN, the last at MAX."""
        span = self.depth_max - self.depth_min
        if self.count == 1:
            return self.depth_min
        return self.depth_min + (2 * index * span + self.count - 1) // (2 * (self.count - 1))

    def check_depth_bins(self) -> None:
        """Refuse, before any job starts, depth bins the board cannot fill with distinct starts."""
        board = self.load_board()  # a bad board or blank count fails here, first
        validate_state(board, default_goal(board, self.blanks), "goal", self.blanks)
        found = _board_census(self.board, self.board_json, self.blanks)
        depths = f"--depth {self.depth_min}..{self.depth_max}"
        needed = Counter(self.depth_of(i) for i in range(self.count))
        for depth, puzzles in sorted(needed.items()):
            if depth < len(found.layers) and len(found.layers[depth]) < puzzles:
                starts = len(found.layers[depth])
                raise InputError(f"{depths} with --count {self.count}: {self.board} has {starts} distinct "
                                 f"start{'' if starts == 1 else 's'} at depth {depth}, and the pack puts {puzzles} "
                                 f"puzzles there")
            if depth >= len(found.layers) and found.complete:
                raise InputError(f"{depths}: no start on {self.board} is {depth} moves from the goal; the farthest "
                                 f"is {len(found.layers) - 1}")

    def check_exports(self) -> None:
        """Export the board once, at its goal, as every finished puzzle will be exported: whatever
        an export needs of the board is refused here, before any job, not after the puzzles."""
        from mobius.generators.export.bundle import export_all  # the exporters load only for a pack

        board = self.load_board()
        goal = default_goal(board, self.blanks)
        trial = slider_puzzle(SliderProblem(board, goal, goal, self.blanks), [], puzzle_id="0000", solver="",
                              stats={}, seed=self.seed)
        try:
            export_all(trial)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"the board cannot be exported: {shown(str(exc))}", source=self.board) from None

    # -- the job -------------------------------------------------------------------------

    def _start(self, board: Board, goal: State, target: int, attempt: int, avoid: Avoid,
               rng: random.Random) -> State | None:
        """A start for `target`: drawn from the census layer when known, else a random walk's end."""
        layers = _board_census(self.board, self.board_json, self.blanks).layers
        if target < len(layers):
            free: Sequence[State] = layers[target]
            if avoid.keys:
                free = [state for state in free if _key(state) not in avoid.keys]
            return rng.choice(free) if free else None
        start = random_walk(board, goal, target + WALK_EXCESS_STEP * (attempt // 20), rng)
        return None if _key(start) in avoid.keys else start

    def prepare_tables(self, progress: Any = None) -> str | None:
        """Build the pattern tables the pack's solver reads into this machine's cache before any job starts,
        reporting a table build's progress to `progress` (see `pdb_build.ProgressFn`), so no job spends its
        time limit on a build of minutes; the heuristic's name, or None if the solver reads no table."""
        from mobius.cpmodel.slider.heuristics import MAX_PDB_VERTICES, make_heuristic, resolve_partition

        solver = get_solver("slider", self.solver_spec)
        board = self.load_board()
        if (getattr(solver, "heuristic", None) != "pdb" or not getattr(solver, "cache", False) or self.blanks != 1
                or board.n > MAX_PDB_VERTICES):
            return None
        goal = default_goal(board, self.blanks)
        partition = resolve_partition(board, goal, solver.partition, solver.engine)
        return make_heuristic("pdb", board, goal, engine=solver.engine, partition=partition, store=user_store(),
                              progress=progress).name

    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]:
        board = self.load_board()
        goal = default_goal(board, self.blanks)
        target = self.depth_of(index)
        solver = attach_tables(get_solver("slider", self.solver_spec), user_store())  # this machine's cache
        for attempt in range(MAX_START_ATTEMPTS):
            seed = derive_seed(self.seed, index, attempt)
            start = self._start(board, goal, target, attempt, avoid, random.Random(seed))
            if start is None:
                continue
            problem = SliderProblem(board, start, goal, self.blanks)
            require_usable(solver, problem)
            result = solver.solve(problem, time_limit=self.time_limit, seed=seed)
            # The depth is exact only for a proven optimum.
            if result.status is not Status.SOLVED or result.optimal is not True or len(result.solution) != target:
                continue
            puzzle = slider_puzzle(problem, list(result.solution), puzzle_id=f"{index + 1:04d}",
                                   solver=parse_spec(self.solver_spec)[0], stats=result.stats, seed=seed,
                                   credits=self.credits)
            puzzle["rejected"] = attempt
            return puzzle
        raise PackError(f"puzzle {index + 1}: no start at optimal depth {target} on {self.board} found in "
                        f"{MAX_START_ATTEMPTS} attempts")

    # -- what the runner needs ----------------------------------------------------------------

    def key(self, puzzle: Mapping[str, Any]) -> str:
        return _key(puzzle["start"])

    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]:
        return frozenset()

    def verify(self, puzzle: Mapping[str, Any]) -> list[str]:
        try:
            board = board_from_json(puzzle["board"], "puzzle")
            problem = SliderProblem(board, tuple(puzzle["start"]), tuple(puzzle["goal"]), puzzle["blanks"])
            moves = [tuple(m) if isinstance(m, list) else m for m in puzzle["solution"]]
        except (KeyError, TypeError, ValueError) as exc:
            return [f"malformed puzzle JSON: {exc}"]
        problems = verify(problem, moves)
        if puzzle["length"] != len(moves):
            problems.append(f"length {puzzle['length']} but {len(moves)} moves")
        if not self.depth_min <= len(moves) <= self.depth_max:
            problems.append(f"length {len(moves)} outside {self.depth_min}..{self.depth_max}")
        if problem.blanks == 1:
            from mobius.cpmodel.slider.group import is_reachable

            reachable, reason = is_reachable(problem)
            if not reachable:
                problems.append(f"the group test says the goal is unreachable: {reason}")
        return problems


def _key(start: Any) -> str:
    return " ".join(map(str, start))
