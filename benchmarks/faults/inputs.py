"""Fault family `inputs`: malformed input of every kind through every command, as real processes.

Covers: seeded cases, each one `python -m mobius …` under the fuzzer's memory
limit and timeout (`mobius.benchmarks.fuzz_cli.run_in_child`), of these kinds:
- `board-pack`: a random connected edge-list board with no layout (a bare
  edge list, or JSON without "layout"), sometimes mutated, packed by
  `mobius pack slider` — a finished pack must hold index.html, pack.pdf and
  a picture per puzzle;
- `board-file`: board JSON (with a layout, without, with two vertices on one
  point) mutated, through `slider inspect|check`;
- `choice`: an unknown or junk value for a choice-like option of each command
  (`--engine`, `--surface`, `--format`, `--symmetry`, `--executor`,
  `--solver`, `--suite`, `--partition`);
- `qxw-cell`: a Qxw save file whose `SQ` or `SQCT` letter is a digit,
  non-ASCII, several characters or junk;
- `repeated-key`: grid, board and puzzle JSON with a key given twice in one
  object, and text grids with a second or late `surface:` line;
- `time-limit`: junk `--time-limit` values (inf, nan, 0, negatives, huge)
  for every command that has one;
- `mutation`: the fuzzer's own generators (`fuzz_cli.GENERATORS`) — edits of
  valid grids (text, JSON, Qxw), word lists, clue files, slider boards and
  states, solver specs, pack and bench options and puzzle JSON for `render`.
A case is right when the command exits 0, 1, 2 or 3 with at most one line on
stderr and no traceback (and, for a pack that finished, its files exist).

Leaves out: the fuzzer's in-process run and its hypothesis tests
(`benchmarks/fuzz_cli.py`, `tests/test_cli_fuzz.py`), which this reuses.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable
from pathlib import Path

from mobius.benchmarks.faults import Outcome
from mobius.benchmarks.fuzz_cli import (
    CONTROL,
    DOCUMENTED_EXITS,
    GENERATORS,
    GRID_TEXT,
    QXW_TEXT,
    RING_START,
    TINY_GRID,
    Inputs,
    run_in_child,
    sample_puzzles,
)

NAME = "inputs"
DESCRIPTION = ("malformed grids, boards, Qxw cells, repeated JSON keys, option values and mutated files "
               "through every command")

Args = tuple[str, ...]
# A pack is the slowest case (a census, a solve per puzzle, every export):
# one in this many cases, so a run of 50 stays within a few minutes.
PACK_EVERY = 10
BOGUS = ["bogus", "", " ", "COMPILED", "compiled ", "0", "-1", "🙂", "é", "\x1b[2J", "x" * 300]


# --- boards ------------------------------------------------------------------------------------------

def random_board(rng: random.Random, vertices: int) -> list[tuple[int, int]]:
    """A connected graph on 0…n−1: a random tree plus a few extra edges, no two the same."""
    edges = {(rng.randrange(v), v) for v in range(1, vertices)}
    for _ in range(rng.randint(0, vertices)):
        u, v = sorted(rng.sample(range(vertices), 2))
        edges.add((u, v))
    return sorted(edges)


def board_text(rng: random.Random, edges: list[tuple[int, int]], vertices: int) -> tuple[str, str]:
    """The board as a bare edge list or as JSON without a layout: (text, suffix)."""
    if rng.random() < 0.5:
        return "".join(f"{u} {v}\n" for u, v in edges), ".txt"
    return json.dumps({"vertices": vertices, "edges": [list(e) for e in edges]}), ".json"


def board_pack_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    rng = inp.rng
    vertices = rng.randint(4, 9)
    text, suffix = board_text(rng, random_board(rng, vertices), vertices)
    if rng.random() < 0.3:
        text = inp.mutate(text)
    out = inp.dir / f"pack{inp.count}"
    return "board-pack", ("pack", "slider", "--board", inp.file(text, suffix), "--depth", "1..2", "--count", "2",
                          "--workers", "1", "--out", str(out)), out


def board_file_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    rng = inp.rng
    vertices = rng.randint(3, 9)
    data: dict[str, object] = {"vertices": vertices, "edges": [list(e) for e in random_board(rng, vertices)]}
    layout = rng.choice(["none", "distinct", "shared"])
    if layout != "none":
        points = [[i, i % 3] for i in range(vertices)]
        if layout == "shared":
            points[-1] = list(points[0])
        data["layout"] = points
    text = json.dumps(data) if rng.random() < 0.4 else inp.mutate(json.dumps(data))
    start = " ".join(map(str, rng.sample(range(vertices), vertices)))
    command = rng.choice([("slider", "inspect"), ("slider", "check")])
    extra = ("--start", start) if command[1] == "check" else ()
    return "board-file", (*command, inp.file(text, ".json"), *extra), None


# --- option values ---------------------------------------------------------------------------------------

def _choice_commands(inp: Inputs) -> list[tuple[Args, str]]:
    """(command, option) for every choice-like option; the command stops early on a good value."""
    grid = inp.file(GRID_TEXT)
    puzzle = inp.file(json.dumps(inp.puzzles["slider"]), ".json")
    return [
        (("slider", "prepare", "ring", "--time-limit", "5"), "--engine"),
        (("slider", "prepare", "grid:3x3", "--time-limit", "5"), "--partition"),
        (("slider", "solve", "ring", "--start", RING_START, "--time-limit", "5"), "--solver"),
        (("crossword", "lights", grid), "--surface"),
        (("crossword", "fill", inp.file(TINY_GRID), "--dict", "en-small", "--time-limit", "5"), "--solver"),
        (("export-instance", grid, "--out", str(inp.dir / "instance")), "--format"),
        (("render", puzzle, "--out", str(inp.dir / "page.html")), "--format"),
        (("pack", "crossword", "--out", str(inp.foreign), "--count", "1"), "--symmetry"),
        (("pack", "crossword", "--out", str(inp.foreign), "--count", "1"), "--surface"),
        (("pack", "slider", "--out", str(inp.foreign), "--count", "1"), "--executor"),
        (("bench", "--out", str(inp.dir / "bench"), "--instances", "zz-none"), "--suite"),
    ]


def choice_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    command, option = inp.rng.choice(_choice_commands(inp))
    value = inp.rng.choice(BOGUS + [inp.junk()])
    return "choice", (*command, option, value), None


TIME_LIMITED: list[Args] = [
    ("slider", "solve", "ring", "--start", RING_START),
    ("slider", "prepare", "ring"),
    ("crossword", "fill", "{grid}", "--dict", "en-small"),
    ("pack", "slider", "--out", "{foreign}", "--count", "1"),
    ("pack", "crossword", "--out", "{foreign}", "--count", "1"),
    ("bench", "--suite", "quick", "--out", "{dir}/bench", "--instances", "zz-none"),
]


def time_limit_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    rng = inp.rng
    names = {"grid": inp.file(TINY_GRID), "foreign": str(inp.foreign), "dir": str(inp.dir)}
    command = tuple(part.format(**names) for part in rng.choice(TIME_LIMITED))
    value = rng.choice(["inf", "-inf", "nan", "0", "-0", "-1", "1e999", "86401", "1e-400", inp.junk()])
    return "time-limit", (*command, "--time-limit", value), None


# --- files with one fault ---------------------------------------------------------------------------------

_CELL_LINE = re.compile(r'^(SQCT \d+ \d+ 0 )""$|^(SQ \d+ \d+ \d+ \d+ 0 )\.$', re.MULTILINE)


def qxw_cell_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    rng = inp.rng
    lines = list(_CELL_LINE.finditer(QXW_TEXT))
    chosen = rng.choice(lines)
    content = rng.choice(["7", "0", "É", "ß", "ж", "AB", "?", "-", rng.choice(CONTROL), inp.junk()])
    if chosen.group(1):
        replacement = chosen.group(1) + json.dumps(content, ensure_ascii=False)
    else:
        replacement = chosen.group(2) + (content.split()[0] if content.split() else "7")
    text = QXW_TEXT[:chosen.start()] + replacement + QXW_TEXT[chosen.end():]
    command = rng.choice([("crossword", "show"), ("crossword", "lights")])
    return "qxw-cell", (*command, inp.file(text, ".qxw")), None


def _repeat_a_key(rng: random.Random, data: dict[str, object]) -> str:
    """`data` as JSON with one of its keys written a second time (another value or the same)."""
    key = rng.choice(sorted(data))
    again = rng.choice([data[key], None, 0, "x", []])
    body = json.dumps(data)[1:-1]
    return "{" + body + f", {json.dumps(key)}: {json.dumps(again)}" + "}" if rng.random() < 0.5 else \
        "{" + f"{json.dumps(key)}: {json.dumps(again)}, " + body + "}"


def repeated_key_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    rng = inp.rng
    kind = rng.randrange(4)
    if kind == 0:
        grid = {"width": 3, "height": 3, "surface": "mobius", "rows": ["...", ".#.", "..."]}
        return "repeated-key", ("crossword", "show", inp.file(_repeat_a_key(rng, grid), ".json")), None
    if kind == 1:
        board = {"vertices": 4, "edges": [[0, 1], [1, 2], [2, 3]], "layout": [[0, 0], [1, 0], [2, 0], [3, 0]]}
        return "repeated-key", ("slider", "inspect", inp.file(_repeat_a_key(rng, board), ".json")), None
    if kind == 2:
        puzzle = inp.puzzles[rng.choice(sorted(inp.puzzles))]
        return "repeated-key", ("render", inp.file(_repeat_a_key(rng, puzzle), ".json"), "--out",
                                str(inp.dir / f"page{inp.count}.html")), None
    rows = TINY_GRID.splitlines()
    rows.insert(rng.randint(0, len(rows)), rng.choice(["surface: torus", "surface: mobius", "Surface:plane"]))
    return "repeated-key", ("crossword", "lights", inp.file("\n".join(rows) + "\n")), None


def mutation_case(inp: Inputs) -> tuple[str, Args, Path | None]:
    make = GENERATORS[inp.rng.choice(sorted(GENERATORS))]
    case = next(iter(make(inp)))
    return f"mutation: {case.parser}", case.args, None


KINDS: list[Callable[[Inputs], tuple[str, Args, Path | None]]] = [
    board_file_case, choice_case, time_limit_case, qxw_cell_case, repeated_key_case, mutation_case, mutation_case,
]


# --- judging -----------------------------------------------------------------------------------------------

def judge(code: int | None, stderr: str, problem: str | None, pack: Path | None) -> str | None:
    """What is wrong with a run, or None: a documented exit, at most one stderr line, no traceback,
    and a finished pack's index, booklet and pictures."""
    if problem is not None:
        return problem
    if code not in DOCUMENTED_EXITS:
        return f"exit {code}"
    lines = stderr.strip().splitlines()
    if len(lines) > 1:
        return f"{len(lines)} lines on stderr"
    if pack is not None and code == 0:
        missing = [name for name in ("index.html", "pack.pdf", "puzzles/0001.svg", "puzzles/0002.svg")
                   if not (pack / name).is_file()]
        if missing:
            return f"finished pack without {', '.join(missing)}"
    return None


def _next_case(inp: Inputs, number: int) -> tuple[str, Args, Path | None]:
    """The case numbered `number`; drawn again while an argument holds a NUL, which no process can be given."""
    while True:
        make = board_pack_case if number % PACK_EVERY == 0 else inp.rng.choice(KINDS)
        case, args, pack = make(inp)
        if not any("\0" in a for a in args):
            return case, args, pack


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    # Tables the commands build (a pack's, a prepare that gets past its options) go to a cache of
    # this run, never the user's; every command below inherits it, and the next family does not.
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(workdir / "cache")
    try:
        return _run_cases(cases, seed, workdir)
    finally:
        if previous is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = previous


def _run_cases(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    inp = Inputs(random.Random(seed), workdir, sample_puzzles(workdir))
    outcomes = []
    for number in range(cases):
        case, args, pack = _next_case(inp, number)
        code, stderr, problem = run_in_child(args)
        wrong = judge(code, stderr, problem, pack)
        last = (stderr.strip().splitlines() or [""])[-1][:160]
        detail = f"{wrong}: mobius {' '.join(a[:60] for a in args)}: {last}" if wrong else last
        outcomes.append(Outcome(NAME, case, code, wrong is None, detail))
    return outcomes
