"""Benchmark suites: named lists of instances, with expected answers where known.

Covers: `Instance` (a picklable, JSON-able description of one problem — the
grid rows or the slider start travel with it, so a child process rebuilds the
problem without reading the suite again), `Suite` (its instances, default
solvers and time limit), the suites themselves (`SUITES`), and per family
how to build the problem, verify an answer and summarise it (`FAMILIES`).

The suites:

- ``xw-vanbeek``: the 72 van Beek grids (as bundled with Gecode's crossword
  example, whose slots are all runs of two or more white cells, hence
  minimum light length 2) with the `words` list (Debian wamerican). No word
  may repeat (the project's default rule, and Qxw's). Expected answers are
  only those that hold for this list: see `VANBEEK_EXPECTED`.
- ``xw-mobius``: seeded Möbius patterns from `mobius.generators.crossword.patterns`, 5×8 to
  15×7, with `en`; ``xw-surfaces``: the same sizes on the cylinder, torus
  and Klein bottle. Satisfiability is not known in advance: the solvers must
  agree with one another.
- ``slider-ring``, ``slider-3x3``: seeded random walks of fixed lengths from
  the goal. Solvable by construction; the walk length bounds the optimal
  length from above, and the optimal solvers must agree on it.
- ``slider-korf``: Korf's 100 15-puzzle instances with their published
  optimal lengths, IDA* compiled (7-8 and 6-6-3 tables) against the
  pure-Python reference; ``slider-korf10``: the first ten.
- ``slider-cpsat``: the CP-SAT model on the two depth-31 8-puzzle states
  (the antipodes of the goal), one ring state from each of the five deepest
  distance layers and Korf #55 (41 moves), with one and two workers;
  ``slider-cpsat-ablation``: one antipode and one depth-31 ring state, each
  search trick switched from its default in turn. Distances come from the
  exact table of `reference_pdb.distance_table`.
- ``slider-pdb-build``: Korf #1 with an empty table store (``"tables":
  "cold"``), so each solver's set-up time is building its tables;
  ``slider-limits``: Korf #60 (66 moves) under a 5 s limit with warm and cold
  tables, for every slider solver: how far past the limit each stops.
- ``quick``: a few instances of each kind, for the tests (about a minute).

`starts_suite` makes one of a user's slider starts on a board (``mobius
bench --board B --starts FILE``), with known optimal lengths where the file
gives them. `grid_suite` makes a suite of a user's own grids (files and directories of
grid files, any format `crossword fill` reads) with a user's list, minimum
light length and surface: ``mobius bench --grids``. Nothing is known of
them in advance: the solvers must agree with one another.

Leaves out: running anything (`harness.py`) and reporting (`report.py`).
"""

from __future__ import annotations

import fnmatch
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mobius.benchmarks.datasets import korf_table, vanbeek_paths
from mobius.cpmodel.crossword import verify as crossword_verify
from mobius.cpmodel.crossword.grid import Grid, from_json, read_grid, to_json
from mobius.cpmodel.crossword.problem import Fill, FillProblem, FillRules
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider import verify as slider_verify
from mobius.cpmodel.inputs import parse_whole_number
from mobius.cpmodel.slider.board import (SliderProblem, default_goal, load_board, parse_state, preset, random_walk,
                                         start_lines)
from mobius.dictionaries import load
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import derive_seed
from mobius.generators.crossword.patterns import generate_pattern

CROSSWORD, SLIDER = "crossword", "slider"
SOLVED, UNSAT = "SOLVED", "UNSAT"  # the expected answers, spelt as `Status` values

# Gecode's crossword example, the usual carrier of these grids, makes every
# run of two or more white cells a slot.
VANBEEK_MIN_LENGTH = 2
VANBEEK_DICTIONARY = "words"
# Samaras & Stergiou (JAIR 24, 2005) give 15.02, 15.07, 19.02, 19.08 SAT
# with their `words` list, and 23.01 has 23-letter slots, a length with no
# word in wamerican. Their UNSAT grids 15.04, 19.05 and 19.10 are *not*
# listed: today's wamerican (73,674 entries) fills them — the reference
# solver finds fills that the independent verifier accepts — so the
# published status belongs to another dictionary.
VANBEEK_EXPECTED = {"15.02": SOLVED, "15.07": SOLVED, "19.02": SOLVED, "19.08": SOLVED, "23.01": UNSAT}
VANBEEK_NOTES = {name: "published UNSAT with the 2005 `words` list; that does not carry over to wamerican"
                 for name in ("15.04", "19.05", "19.10")}

GENERATED_SIZES = ((5, 8), (7, 5), (9, 5), (11, 5), (11, 7), (13, 7), (15, 7))  # (width, height)
GENERATED_SEEDS_PER_SIZE = 3
GENERATED_DICTIONARY = "en"
OTHER_SURFACES = ("cylinder", "torus", "klein")

COLD_TABLES = "cold"  # params["tables"]: run with an empty table store (see harness.table_store)

RING_DEPTHS = (8, 16, 24, 32)
GRID3_DEPTHS = (10, 20, 30, 40, 60)
SCRAMBLES_PER_DEPTH = 3
KORF_BOARD = "grid:4x4"  # Korf's goal 0 1 … 15 (blank top-left) is this board's default goal

CROSSWORD_SOLVERS = ("reference", "cpsat", "qxw")
SMALL_SLIDER_SOLVERS = ("bfs", "astar", "idastar", "cpsat")
# Breadth-first search and the time-expanded CP-SAT model cannot reach the
# 15-puzzle's depths of 41-66 moves; IDA* can. Compiled with the 7-8 and
# the 6-6-3 tables, and the pure-Python reference with 6-6-3: the last two
# expand the same nodes, so their ratio is the cost per node.
KORF_SOLVERS = ("idastar", "idastar:partition=6-6-3", "idastar:engine=python")
CPSAT_SOLVERS = ("cpsat", "cpsat:workers=2")
CPSAT_KORF = (55,)  # the shortest of Korf's 100 (41 moves); 42 moves already take CP-SAT over 300 s
RING_DEEPEST_LAYERS = 5
# One trick switched from its default at a time ("cpsat" alone is the
# default: every trick on except the distance sums).
CPSAT_ABLATION = ("cpsat", "cpsat:prune=false", "cpsat:budget=false", "cpsat:symmetry=false",
                  "cpsat:parity=false", "cpsat:search=false", "cpsat:sums=true", "cpsat:sums=true,budget=false")
CPSAT_TIME_LIMIT_S = 300.0
BUILD_SOLVERS = ("idastar", "idastar:partition=6-6-3", "idastar:engine=python")
BUILD_KORF = 1
# The 7-8 tables take minutes to build on 2 busy cores.
BUILD_TIME_LIMIT_S = 1800.0
# Every solver with its default engine, plus IDA* with the distance sum,
# which cannot finish Korf #60 in 5 s even with its (trivial) tables loaded.
LIMIT_SOLVERS = ("bfs", "astar", "idastar", "idastar:heuristic=distance", "idastar:engine=python", "cpsat")
LIMIT_KORF = 60  # the longest of Korf's 100 (66 moves)
LIMIT_TIME_S = 5.0

# Per-run limits: a generous one for the real suites, and one for `quick`
# short enough to finish in about a minute yet long enough on a busy
# 2-core machine for most solvers to decide its small instances (a timeout
# is no failure: only disagreements are).
DEFAULT_TIME_LIMIT_S = 60.0
QUICK_TIME_LIMIT_S = 10.0


@dataclass(frozen=True)
class Instance:
    """One problem of a suite. `params` is JSON-able; see `FAMILIES[family].build`."""

    suite: str
    name: str
    family: str
    params: Mapping[str, Any]
    expected: str | None = None  # SOLVED / UNSAT where known
    expected_length: int | None = None  # optimal slider length where known
    max_length: int | None = None  # an upper bound on the optimal length (a random walk's length)
    note: str = ""


@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    build: Callable[[int], list[Instance]]  # seed -> instances
    solvers: Mapping[str, tuple[str, ...]]  # family -> default solver specs
    time_limit: float = DEFAULT_TIME_LIMIT_S


# --- the families: build, verify, summarise --------------------------------------

@dataclass(frozen=True)
class Family:
    build: Callable[[Mapping[str, Any]], Any]  # params -> problem
    verify: Callable[[Any, Any], list[str]]  # (problem, solution) -> problems found
    length: Callable[[Any], int | None]  # solution -> its length, where lengths are compared
    encode: Callable[[Any, Any], Any]  # (problem, solution) -> JSON-able form


def build_crossword(params: Mapping[str, Any]) -> FillProblem:
    grid = from_json(params["grid"], source="instance grid")
    words = load(params["dictionary"])
    return FillProblem(grid, words, FillRules(min_length=params["min_length"]))


def encode_fill(problem: FillProblem, fill: Fill) -> list[str]:
    """The filled grid's rows: compact, and readable in records.json."""
    return list(problem.grid.with_letters(fill).rows)


def build_slider(params: Mapping[str, Any]) -> SliderProblem:
    board = load_board(params["board"])  # a preset's name, or a board file's absolute path
    blanks = params.get("blanks", 1)
    goal = tuple(params["goal"]) if params.get("goal") else default_goal(board, blanks)
    return SliderProblem(board, tuple(params["start"]), goal, blanks)


FAMILIES: dict[str, Family] = {
    CROSSWORD: Family(build_crossword, crossword_verify.verify, lambda fill: None, encode_fill),
    SLIDER: Family(build_slider, slider_verify.verify, len, lambda problem, moves: list(moves)),
}


def build_problem(instance: Instance) -> Any:
    return FAMILIES[instance.family].build(instance.params)


# --- crossword suites -----------------------------------------------------------

def crossword_params(grid: Grid, dictionary: str, min_length: int) -> dict[str, Any]:
    return {"grid": to_json(grid), "dictionary": dictionary, "min_length": min_length}


def vanbeek_instances(suite: str, names: Sequence[str] | None = None) -> list[Instance]:
    chosen = [p for p in vanbeek_paths() if names is None or p.stem in names]
    return [Instance(suite, p.stem, CROSSWORD,
                     crossword_params(read_grid(p), VANBEEK_DICTIONARY, VANBEEK_MIN_LENGTH),
                     expected=VANBEEK_EXPECTED.get(p.stem), note=VANBEEK_NOTES.get(p.stem, ""))
            for p in chosen]


def generated_instance(suite: str, surface: str, width: int, height: int, index: int, seed: int) -> Instance:
    """A seeded pattern as the pack generator makes them (lights of 3 up to the
    longer side, all checked, rot180, at most one seam crossing per light)."""
    spec = CrosswordPackSpec(count=1, width=width, height=height, surface=surface).pattern_spec()
    pattern_seed = derive_seed(seed, "pattern", surface, width, height, index)
    grid = generate_pattern(spec, pattern_seed)
    params = crossword_params(grid, GENERATED_DICTIONARY, spec.min_length)
    params["pattern_seed"] = pattern_seed
    return Instance(suite, f"{surface}-{width}x{height}-{index}", CROSSWORD, params)


def generated_instances(suite: str, surfaces: Sequence[str], seed: int) -> list[Instance]:
    return [generated_instance(suite, surface, w, h, k, seed)
            for surface in surfaces for w, h in GENERATED_SIZES for k in range(GENERATED_SEEDS_PER_SIZE)]


# --- slider suites --------------------------------------------------------------

def scramble_instance(suite: str, board_name: str, depth: int, index: int, seed: int) -> Instance:
    """The goal after a seeded random walk of `depth` slides: solvable, optimal length ≤ depth."""
    board = preset(board_name)
    rng_seed = derive_seed(seed, "scramble", board_name, depth, index)
    start = random_walk(board, default_goal(board), depth, random.Random(rng_seed))
    params = {"board": board_name, "start": list(start), "walk_seed": rng_seed}
    label = board.label.removeprefix("grid:")  # "3x3-d14-0" rather than "grid:3x3-d14-0"
    return Instance(suite, f"{label}-d{depth}-{index}", SLIDER, params, expected=SOLVED, max_length=depth)


def scramble_instances(suite: str, board_name: str, depths: Sequence[int], seed: int) -> list[Instance]:
    return [scramble_instance(suite, board_name, d, k, seed) for d in depths for k in range(SCRAMBLES_PER_DEPTH)]


def korf_instances(suite: str, count: int | None = None) -> list[Instance]:
    return [korf_instance(suite, i) for i in range(1, len(korf_table()[:count]) + 1)]


def korf_instance(suite: str, number: int, tables: str | None = None) -> Instance:
    """Korf's instance `number` (1-based); `tables` = COLD_TABLES runs it with an empty table store."""
    tiles, length = korf_table()[number - 1]
    params: dict[str, Any] = {"board": KORF_BOARD, "start": list(tiles)}
    if tables is not None:
        params["tables"] = tables
    return Instance(suite, f"korf-{number:03d}" + (f"-{tables}" if tables else ""), SLIDER, params,
                    expected=SOLVED, expected_length=length)


def layer_instances(suite: str, board_name: str, layers: int, per_layer: int | None, seed: int) -> list[Instance]:
    """States from the `layers` deepest distance layers of the board's default goal: all of each layer
    (`per_layer` None) or a seeded pick of `per_layer`; exact distances from the full distance table."""
    from mobius.cpmodel.slider.reference_pdb import distance_table

    board = preset(board_name)
    goal = default_goal(board)
    dist = distance_table(board, goal)
    deepest = int(dist.max())
    rng = random.Random(derive_seed(seed, "layers", board_name))
    instances = []
    for depth in range(deepest, deepest - layers, -1):
        ranks = [int(r) for r in np.flatnonzero(dist == depth)]
        chosen = ranks if per_layer is None else sorted(rng.sample(ranks, per_layer))
        for rank in chosen:
            start = unrank_permutation(rank, board.n)
            label = board.label.removeprefix("grid:")
            instances.append(Instance(suite, f"{label}-{''.join(map(str, start))}", SLIDER,
                                      {"board": board_name, "start": list(start)}, expected=SOLVED,
                                      expected_length=depth))
    return instances


def unrank_permutation(rank: int, n: int) -> tuple[int, ...]:
    """The permutation of 0…n−1 with lexicographic rank `rank` (the order of `distance_table`)."""
    items = list(range(n))
    out = []
    for i in range(n - 1, -1, -1):
        digit, rank = divmod(rank, math.factorial(i))
        out.append(items.pop(digit))
    return tuple(out)


def cpsat_instances(seed: int) -> list[Instance]:
    suite = "slider-cpsat"
    return [*layer_instances(suite, "grid:3x3", 1, None, seed),
            *layer_instances(suite, "ring", RING_DEEPEST_LAYERS, 1, seed),
            *(korf_instance(suite, number) for number in CPSAT_KORF)]


def ablation_instances(seed: int) -> list[Instance]:
    # One state of each board at depth 31: some tricks switched off cost minutes.
    suite = "slider-cpsat-ablation"
    return [layer_instances(suite, "grid:3x3", 1, None, seed)[0], *layer_instances(suite, "ring", 1, 1, seed)]


# --- quick ----------------------------------------------------------------------

QUICK_VANBEEK = ("05.05", "23.01")  # a small SAT grid and the UNSAT one


def quick_instances(seed: int) -> list[Instance]:
    suite = "quick"
    return [*vanbeek_instances(suite, QUICK_VANBEEK),
            generated_instance(suite, "mobius", 7, 5, 0, seed),
            generated_instance(suite, "torus", 7, 5, 0, seed),
            scramble_instance(suite, "ring", 12, 0, seed),
            scramble_instance(suite, "grid:3x3", 14, 0, seed)]


# --- the table ------------------------------------------------------------------

SUITES: dict[str, Suite] = {s.name: s for s in (
    Suite("xw-vanbeek", "72 van Beek grids, `words` list, lights of 2+",
           lambda seed: vanbeek_instances("xw-vanbeek"), {CROSSWORD: CROSSWORD_SOLVERS}),
    Suite("xw-mobius", "seeded Möbius patterns 5x8 to 15x7, `en`",
           lambda seed: generated_instances("xw-mobius", ("mobius",), seed), {CROSSWORD: CROSSWORD_SOLVERS}),
    Suite("xw-surfaces", "the xw-mobius sizes on cylinder, torus and Klein bottle, `en`",
           lambda seed: generated_instances("xw-surfaces", OTHER_SURFACES, seed), {CROSSWORD: CROSSWORD_SOLVERS}),
    Suite("slider-ring", "ring board, random walks of 8-32 slides",
           lambda seed: scramble_instances("slider-ring", "ring", RING_DEPTHS, seed), {SLIDER: SMALL_SLIDER_SOLVERS}),
    Suite("slider-3x3", "8-puzzle, random walks of 10-60 slides",
           lambda seed: scramble_instances("slider-3x3", "grid:3x3", GRID3_DEPTHS, seed),
           {SLIDER: SMALL_SLIDER_SOLVERS}),
    Suite("slider-korf", "Korf's 100 15-puzzles with published optimal lengths, compiled and pure IDA*",
           lambda seed: korf_instances("slider-korf"), {SLIDER: KORF_SOLVERS}),
    Suite("slider-korf10", "the first ten of Korf's 100",
           lambda seed: korf_instances("slider-korf10", 10), {SLIDER: KORF_SOLVERS}),
    Suite("slider-cpsat", "CP-SAT on the depth-31 8-puzzles, the deepest ring states and Korf #55",
           cpsat_instances, {SLIDER: CPSAT_SOLVERS}, CPSAT_TIME_LIMIT_S),
    Suite("slider-cpsat-ablation", "CP-SAT with each search trick switched in turn, two depth-31 states",
           ablation_instances, {SLIDER: CPSAT_ABLATION}, CPSAT_TIME_LIMIT_S),
    Suite("slider-pdb-build", "Korf #1 with empty table stores: building the pattern databases",
           lambda seed: [korf_instance("slider-pdb-build", BUILD_KORF, COLD_TABLES)], {SLIDER: BUILD_SOLVERS},
           BUILD_TIME_LIMIT_S),
    Suite("slider-limits", "Korf #60 under a 5 s limit, warm and cold tables: how far each solver overshoots",
           lambda seed: [korf_instance("slider-limits", LIMIT_KORF),
                         korf_instance("slider-limits", LIMIT_KORF, COLD_TABLES)],
           {SLIDER: LIMIT_SOLVERS}, LIMIT_TIME_S),
    Suite("quick", "a few of each kind, about a minute (used by the tests)", quick_instances,
           {CROSSWORD: CROSSWORD_SOLVERS, SLIDER: SMALL_SLIDER_SOLVERS}, QUICK_TIME_LIMIT_S),
)}


def select_instances(instances: Sequence[Instance], patterns: Sequence[str]) -> list[Instance]:
    """The instances whose name matches one of the shell-style `patterns` (all if there are none)."""
    if not patterns:
        return list(instances)
    chosen = [i for i in instances if any(fnmatch.fnmatchcase(i.name, p) for p in patterns)]
    if not chosen:
        raise InputError(f"no instance matches {', '.join(patterns)}; names look like {instances[0].name!r}")
    return chosen


# The name records and reports give a suite of the user's own grids.
GRID_SUITE = "grids"


def file_or_name(value: str, base: Path = Path(".")) -> str:
    """`value` as the run's children read it wherever they run: a file's absolute path (relative to
    `base`), or, where no such file exists, `value` itself (an embedded list's or a preset board's name)."""
    path = base / value
    return str(path.resolve()) if path.is_file() else value


def grid_suite(places: Sequence[str], dictionary: str, min_length: int, surface: str | None) -> Suite:
    """A suite of the grids in `places` (files, and directories of grid files), each read now, so that a bad
    file is refused in one line naming it before anything runs; instances are named by file stem."""
    from mobius.generators.crossword.given_grids import grid_files

    paths = [path for place in places for path in grid_files(Path(place))]
    named: dict[str, Path] = {}
    for path in paths:
        if path.stem in named:
            raise InputError(f"two grids named {path.stem!r}: {named[path.stem]} and {path}; instance names "
                             "come from file names", source=str(path))
        named[path.stem] = path
    load(dictionary)  # refused here, in one line, rather than in every run's child
    dictionary = file_or_name(dictionary)
    instances = [Instance(GRID_SUITE, name, CROSSWORD, crossword_params(read_grid(path, surface), dictionary,
                                                                        min_length))
                 for name, path in named.items()]
    return Suite(GRID_SUITE, f"{len(instances)} grids of the user's, {dictionary}, lights of {min_length}+",
                 lambda seed: instances, {CROSSWORD: CROSSWORD_SOLVERS})


# The name records and reports give a suite of the user's own slider starts.
STARTS_SUITE = "starts"
# Boards of at most this many vertices get every slider solver by default; larger ones only the searches
# with pattern tables or a heuristic (breadth-first search and the time-expanded model cannot reach their
# depths).
SMALL_BOARD_VERTICES = 12
LARGE_SLIDER_SOLVERS = ("idastar", "astar")


def starts_suite(board_spec: str, starts: str) -> Suite:
    """A suite of the starts in the file `starts` (one state a line, optionally `= N`, its known optimal
    length) on the board `board_spec` (a preset's name or a board file), each reaching the default goal;
    every line is read now, so a bad one is refused in one line naming it before anything runs."""
    board = load_board(board_spec)
    reference = file_or_name(board_spec)
    instances = []
    for number, line in start_lines(starts):
        state, eq, known = line.partition("=")
        where = f"{starts}, line {number}"
        tiles = parse_state(state, board, f"{where}: start", 1)
        length = parse_whole_number(known.strip(), f"{where}: the optimal length after '='", high=10**6) \
            if eq else None
        instances.append(Instance(STARTS_SUITE, f"start-{number}", SLIDER, {"board": reference, "start": list(tiles)},
                                  expected_length=length))
    if not instances:
        raise InputError("no start in the file (expected one state a line)", source=starts)
    solvers = SMALL_SLIDER_SOLVERS if board.n <= SMALL_BOARD_VERTICES else LARGE_SLIDER_SOLVERS
    return Suite(STARTS_SUITE, f"{len(instances)} starts of the user's on {board_spec}", lambda seed: instances,
                 {SLIDER: solvers})


# The keys a suite file may hold, with what each is.
SUITE_FILE_KEYS = {"grids": "grid files or folders (a list, or one)", "dict": "the word list", "min_length":
                   "the shortest light", "surface": "every grid's surface", "board": "the slider board",
                   "starts": "the slider starts file"}
MAX_SUITE_FILE_BYTES = 1 << 20


def suite_file(path: str) -> Suite:
    """The suite a TOML file names: ``grids`` (with ``dict``, ``min_length``, ``surface``) or ``board`` and
    ``starts``; paths in it are relative to its folder. Three lines do:

        grids = ["my-grids"]
        dict = "words"
        min_length = 2
    """
    import tomllib

    from mobius.cpmodel.inputs import read_text_bounded

    try:
        data = tomllib.loads(read_text_bounded(path, MAX_SUITE_FILE_BYTES, "suite file"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not a TOML suite file: {exc}", source=path) from None
    unknown = sorted(set(data) - set(SUITE_FILE_KEYS))
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r}; a suite file holds "
                         + ", ".join(f"{k} ({what})" for k, what in SUITE_FILE_KEYS.items()), source=path)
    here = Path(path).resolve().parent

    def text(key: str, default: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is not None and not isinstance(value, str):
            raise InputError(f"{key} = {value!r}: expected a string", source=path)
        return value

    if ("grids" in data) == ("starts" in data):
        raise InputError("a suite file names grids (grids = [...]) or slider starts (board, starts), one of them",
                         source=path)
    if "starts" in data:
        board = text("board")
        if board is None:
            raise InputError("starts need their board (board = \"grid:3x3\" or a board file)", source=path)
        return starts_suite(file_or_name(board, here), str(here / str(text("starts"))))
    grids = data["grids"] if isinstance(data["grids"], list) else [data["grids"]]
    if not grids or not all(isinstance(g, str) for g in grids):
        raise InputError(f"grids = {data['grids']!r}: expected a path or a list of paths", source=path)
    min_length = data.get("min_length", 2)
    if not isinstance(min_length, int) or isinstance(min_length, bool) or min_length < 1:
        raise InputError(f"min_length = {min_length!r}: expected a whole number from 1", source=path)
    dictionary = file_or_name(str(text("dict", "en")), here)
    return grid_suite([str(here / g) for g in grids], dictionary, min_length, text("surface"))


# The file name ending each export format gets (ACE reads XCSP3 only from a file named .xml).
EXPORT_SUFFIXES = {"mzn": ".mzn", "dzn": ".dzn", "xcsp3": ".xml", "cnf": ".cnf"}


def export_suite(instances: Sequence[Instance], fmt: str, out: Path, force: bool) -> list[Path]:
    """Each instance written to `out` as NAME + the format's suffix, as `mobius export-instance` writes one (a
    slider start at its first horizon); an existing file is refused unless `force`, before any is written."""
    from mobius.cpmodel.files import write_atomic
    from mobius.cpmodel.instances import FORMATS, crossword_instance, first_horizon, slider_instance

    if fmt not in FORMATS:
        raise InputError(f"--export {fmt!r}: expected one of {', '.join(FORMATS)}")
    paths = [out / f"{instance.name}{EXPORT_SUFFIXES[fmt]}" for instance in instances]
    if out.exists() and not out.is_dir():
        raise InputError("not a directory: --out with --export names the directory the instance files go to",
                         source=str(out))
    taken = [path for path in paths if path.exists()]
    if taken and not force:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        raise InputError(f"{taken[0]} exists{more}; --force replaces it")
    out.mkdir(parents=True, exist_ok=True)
    for instance, path in zip(instances, paths):
        problem = FAMILIES[instance.family].build(instance.params)
        text = crossword_instance(problem, fmt) if instance.family == CROSSWORD else \
            slider_instance(problem, fmt, horizon=first_horizon(problem))
        write_atomic(path, text.encode("utf-8"))
    return paths


def get_suite(name: str) -> Suite:
    """A built-in suite by name, or the suite a TOML file at `name` describes (`suite_file`)."""
    if name not in SUITES and name.endswith(".toml") and Path(name).is_file():
        return suite_file(name)
    if name not in SUITES:
        raise InputError(f"unknown suite {name!r}; expected one of {', '.join(SUITES)}, or a suite file (.toml)")
    return SUITES[name]
