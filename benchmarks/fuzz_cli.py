"""Fuzz the real command line with malformed input across all its parsers.

Covers: seeded generators of malformed input for every parser the CLI has —
crossword grids (text, JSON, Qxw), word lists (plain, scored, gzip), clue
files, puzzle JSON for `mobius render`, pack and bench options, solver specs,
and the slider board, start and depth parsers — run in-process through
typer's CliRunner (the same error policy as the console script; the CLI's
own `mobius.fuzz` does that, as this layer does not import the CLI) and, for
a sample, as real `python -m mobius` processes under an address-space limit
and a timeout. Each run is classified (`classify`): a traceback, an exit
code the command does not document, an error that is not exactly one line,
a hang (past the timeout) or a memory blow-up (MemoryError, or killed under
the limit). The test suite's hypothesis fuzz tests use `classify` too.

Leaves out: fixing what it finds, and valid-input coverage (the tests).
"""

from __future__ import annotations

import gzip
import json
import random
import resource
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRID_TEXT = (ROOT / "generators" / "examples" / "mobius-8x4.txt").read_text()
QXW_TEXT = (ROOT / "tests" / "crossword" / "fixtures" / "mobius-5x3.qxw").read_text()
TINY_GRID = "surface: plane\n...\n.#.\n...\n"
RING_START = "1 0 2 3 4 5 6 7 8"
# Exit codes the commands document: 0 done, 1 no fill / unreachable, 2 bad
# input, 3 timeout, 130 interrupted.
DOCUMENTED_EXITS = {0, 1, 2, 3}
# Per in-process case: long enough for any honest refusal, short enough that
# a parser stuck on its input shows as a hang rather than stalling the run.
CASE_TIMEOUT_S = 10
PROCESS_TIMEOUT_S = 30
# Address space of a fuzzed process: the tool needs well under 2 GiB for any
# of these inputs; ortools and numpy reserve some virtual memory up front.
PROCESS_MEMORY_BYTES = 3 << 30
IN_PROCESS_MEMORY_BYTES = 6 << 30

JUNK = ["", " ", "-1", "0", "abc", "nan", "inf", "1e999", "9" * 30, "9" * 5000, "x" * 100_000, "\x00", "\u2028",
        "1..", "..", "3..1", "-5..-1", "1.5", "0x10", "١٢", "🙂", "'", '"', "{}", "[]", "%s%n", "../../etc/passwd"]
CONTROL = ["\v", "\f", "\x1c", "\x85", "\u2028", "\u2029", "\x00", "\r", "\t", "\x1b[2J", "\ufeff"]


@dataclass(frozen=True)
class Case:
    parser: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    case: Case
    code: int | None  # None: timed out
    stderr: str
    problem: str | None  # None when the tool kept its promise
    seconds: float


class CaseTimeout(Exception):
    """A case ran past CASE_TIMEOUT_S."""


def classify(code: int | None, stderr: str, *, exception: BaseException | None = None,
             killed: bool = False) -> str | None:
    """What promise a run broke, if any: traceback, memory, hang, exit, multi-line."""
    if code is None or isinstance(exception, CaseTimeout):
        return "hang"
    if isinstance(exception, MemoryError) or "MemoryError" in stderr or killed:
        return "memory"
    if exception is not None and not isinstance(exception, SystemExit) or "Traceback" in stderr:
        return "traceback"
    if code not in DOCUMENTED_EXITS:
        return "exit"
    if code == 2 and len(stderr.strip().splitlines()) != 1:
        return "multi-line"
    return None


def run_in_child(args: tuple[str, ...]) -> tuple[int | None, str, str | None]:
    """The same as a real process: `python -m mobius ARGS` under a memory limit and a timeout."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (PROCESS_MEMORY_BYTES, PROCESS_MEMORY_BYTES))

    try:
        done = subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True,
                              errors="replace", timeout=PROCESS_TIMEOUT_S, preexec_fn=limit, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", "hang"
    killed = done.returncode < 0 and done.returncode != -signal.SIGINT
    return done.returncode, done.stderr, classify(done.returncode, done.stderr, killed=killed)


# --- input generators ----------------------------------------------------------------------

class Inputs:
    """Seeded malformed inputs; files go to a fresh name each (in-process caches key on path)."""

    def __init__(self, rng: random.Random, workdir: Path, puzzles: dict[str, dict]) -> None:
        self.rng = rng
        self.dir = workdir
        self.puzzles = puzzles
        self.count = 0
        self.foreign = workdir / "not-a-pack"  # pack runs that get past their options stop here
        self.foreign.mkdir(exist_ok=True)
        (self.foreign / "index.html").write_text("someone's page")

    def file(self, data: str | bytes, suffix: str = ".txt") -> str:
        self.count += 1
        path = self.dir / f"in{self.count:05d}{suffix}"
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        return str(path)

    def junk(self) -> str:
        return self.rng.choice(JUNK + [str(self.rng.randint(-10**6, 10**6)), self.rng.choice(CONTROL)])

    def mutate(self, text: str) -> str:
        """A few random edits: characters in, out and swapped, lines cut or repeated."""
        rng = self.rng
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            where = rng.randrange(len(chars) + 1)
            edit = rng.randrange(5)
            if edit == 0:
                chars.insert(where, rng.choice(CONTROL + list("#.AZaz09;|_+{}[]\",: -")))
            elif edit == 1 and chars:
                del chars[min(where, len(chars) - 1)]
            elif edit == 2:
                chars[where:where] = list(self.junk())
            elif edit == 3:
                chars = chars[:where]
            else:
                lines = "".join(chars).split("\n")
                pick = rng.randrange(len(lines))
                lines[pick:pick] = [lines[pick]] * rng.choice([2, 70, 5000])
                chars = list("\n".join(lines))
        return "".join(chars)

    def json_value(self, depth: int = 0) -> object:
        rng = self.rng
        choice = rng.randrange(9 if depth < 4 else 5)
        simple: list[object] = [None, True, -1, 10 ** rng.choice([2, 30, 200]), "x" * rng.choice([0, 3, 10_000]),
                                1.5, [], {}]
        if choice < 5:
            return rng.choice(simple)
        if choice < 7:
            return [self.json_value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(["rows", "width", "kind", "entries", "cells", "x"]): self.json_value(depth + 1)
                for _ in range(rng.randint(0, 4))}

    def deep_json(self) -> str:
        """JSON text that no value builds: nested very deep, or a number of 5,000 digits."""
        if self.rng.random() < 0.3:
            return '{"rows": ["..", ".."], "width": ' + "9" * 5000 + "}"
        depth = self.rng.choice([40, 1000, 100_000])
        return '{"rows": ' + "[" * depth + "]" * depth + "}"


def crossword_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    command = ["crossword", rng.choice(["show", "lights"])]
    kind = rng.randrange(7)
    if kind == 0:
        yield Case("grid-text", (*command, inp.file(inp.mutate(GRID_TEXT))))
    elif kind == 6:  # the grids a pack is given: read as `crossword` reads them, then checked as a pack's
        yield Case("pack-patterns", ("pack", "crossword", "--out", str(inp.foreign), "--count", "1", "--patterns",
                                     inp.file(inp.mutate(GRID_TEXT)) if rng.random() < 0.8 else str(inp.dir)))
    elif kind == 1:
        data = inp.deep_json() if rng.random() < 0.3 else json.dumps(
            {"rows": inp.json_value(), "width": inp.json_value(), "surface": inp.json_value(),
             "bars_right": inp.json_value()})
        yield Case("grid-json", (*command, inp.file(data, ".json")))
    elif kind == 2:
        yield Case("grid-qxw", (*command, inp.file(inp.mutate(QXW_TEXT), ".qxw")))
    elif kind == 3:
        yield Case("grid-file", (*command, rng.choice(["/dev/zero", "/dev/null", str(inp.dir), "/no/such",
                                                       inp.file(bytes(rng.randrange(256) for _ in range(64)))])))
    elif kind == 4:
        yield Case("grid-options", (*command, inp.file(GRID_TEXT), "--surface", inp.junk()))
    else:
        yield Case("grid-options", ("crossword", "lights", inp.file(GRID_TEXT), "--min-length", inp.junk()))


def word_list_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    grid = inp.file(TINY_GRID)
    kind = rng.randrange(5)
    if kind == 0:
        lines = [rng.choice(["CAT", "DOG", "ÉTÉ", "cat's", "a-b", "", " ", inp.junk()]) for _ in range(20)]
        data: bytes = "\n".join(lines).encode("utf-8", "surrogatepass")
    elif kind == 1:
        data = "\n".join(f"{rng.choice(['CAT', 'DOG', 'ABC', inp.junk()])};{inp.junk()}"
                         for _ in range(5)).encode("utf-8", "surrogatepass")
    elif kind == 2:
        data = gzip.compress(inp.mutate("ABC;50\nDEF;40\nAAA\n").encode("utf-8", "surrogatepass"))
        data = data[: rng.randrange(len(data) + 1)] if rng.random() < 0.5 else data
    elif kind == 3:
        data = gzip.compress(b"\n" * (rng.choice([1, 70, 100]) << 20), compresslevel=9)
    else:
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    yield Case("word-list", ("crossword", "fill", grid, "--dict", inp.file(data, ".gz" if kind >= 2 else ".txt"),
                             "--time-limit", "5"))


def solver_spec_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    name = rng.choice(["reference", "cpsat", "bfs", "astar", "idastar", "qxw", inp.junk()])
    option = rng.choice(["max_backtracks", "deterministic_time", "workers", "max_horizon", "heuristic", "select",
                         "randomize", inp.junk()])
    spec = f"{name}:{option}={inp.junk()}" if rng.random() < 0.8 else f"{name}{inp.junk()}"
    if rng.random() < 0.5:
        yield Case("solver-spec", ("crossword", "fill", inp.file(TINY_GRID), "--dict", "en", "--solver", spec,
                                   "--time-limit", "5"))
    else:
        yield Case("solver-spec", ("slider", "solve", "ring", "--start", RING_START, "--solver", spec,
                                   "--time-limit", "5"))


def clue_cases(inp: Inputs) -> Iterator[Case]:
    text = inp.mutate("CAT\tA pet\nDOG\tAnother pet\n# comment\n")
    yield Case("clue-file", ("pack", "crossword", "--out", str(inp.foreign), "--count", "1", "--width", "5",
                             "--height", "5", "--clues", inp.file(text)))


def render_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    puzzle = json.loads(json.dumps(inp.puzzles[rng.choice(sorted(inp.puzzles))]))
    for _ in range(rng.randint(1, 3)):
        target: object = puzzle
        keys: list[object] = []
        while isinstance(target, (dict, list)) and target and rng.random() < 0.7:
            key = rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
            keys.append(key)
            target = target[key]  # type: ignore[index]
        if keys:
            parent = puzzle
            for key in keys[:-1]:
                parent = parent[key]  # type: ignore[index]
            parent[keys[-1]] = inp.json_value()  # type: ignore[index]
    data = json.dumps(puzzle) if rng.random() < 0.85 else inp.mutate(json.dumps(puzzle))
    if rng.random() < 0.05:
        data = "[" * 100_000 + "]" * 100_000
    yield Case("render", ("render", inp.file(data, ".json"), "--format", rng.choice(["html", "svg"]),
                          "--out", str(inp.dir / f"out{inp.count}.html")))


PACK_OPTIONS = {"--count": "int", "--width": "int", "--height": "int", "--workers": "int", "--seed": "int",
                "--time-limit": "float", "--min-score": "int", "--max-seam-crossings": "int",
                "--max-length": "int", "--max-blocks": "float", "--surface": "str", "--dict": "str",
                "--executor": "str"}


def pack_option_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    option = rng.choice(sorted(PACK_OPTIONS))
    value = inp.junk() if rng.random() < 0.7 else str(rng.choice([-(10 ** 20), -2, 0, 10 ** 20, 26, 10_000]))
    if option == "--executor" and value in ("local", "dask"):
        value = "dusk"
    yield Case("pack-options", ("pack", "crossword", "--out", str(inp.foreign), option, value, "--count", "1")
               if option != "--count" else ("pack", "crossword", "--out", str(inp.foreign), option, value))


def bench_option_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    option, value = rng.choice([("--suite", inp.junk()), ("--time-limit", inp.junk()), ("--repeats", inp.junk()),
                                ("--jobs", inp.junk()), ("--seed", inp.junk()), ("--instances", "zz" + inp.junk())])
    suite = ["--suite", "quick"] if option != "--suite" else []
    extra = ["--instances", "zz-none"] if option != "--instances" else []
    yield Case("bench-options", ("bench", *suite, option, value, *extra, "--out", str(inp.dir / "bench")))


def slider_cases(inp: Inputs) -> Iterator[Case]:
    rng = inp.rng
    kind = rng.randrange(5)
    if kind == 0:
        kind_name = rng.choice(["grid", "cycle", "path", "ring", "petersen", "theta0", inp.junk()])
        size = rng.choice([inp.junk(), "3x", "x3", "3x3x3", "0x0", "1600", "10000x10000", "100000000"])
        yield Case("slider-board", ("slider", "inspect", f"{kind_name}:{size}"))
    elif kind == 1:
        data = json.dumps({"vertices": inp.json_value(), "edges": inp.json_value(), "names": inp.json_value()})
        yield Case("slider-board-file", ("slider", "inspect", inp.file(data, ".json")))
    elif kind == 2:
        edges = "\n".join(f"{rng.choice(['0', '1', '2', inp.junk(), '1000000000'])} {rng.choice(['1', '2', inp.junk()])}"
                          for _ in range(rng.randint(1, 6)))
        yield Case("slider-board-file", ("slider", "inspect", inp.file(edges)))
    elif kind == 3:
        start = rng.choice([inp.junk(), RING_START.replace("8", inp.junk()), "0 " * 9, "1 2 3"])
        yield Case("slider-start", ("slider", rng.choice(["check", "solve"]), "ring", "--start", start,
                                    "--time-limit", "5"))
    else:
        yield Case("slider-depth", ("pack", "slider", "--out", str(inp.foreign), "--depth", inp.junk(),
                                    "--count", "1"))


GENERATORS: dict[str, Callable[[Inputs], Iterator[Case]]] = {
    "crossword": crossword_cases, "word-list": word_list_cases, "solver-spec": solver_spec_cases,
    "clues": clue_cases, "render": render_cases, "pack": pack_option_cases, "bench": bench_option_cases,
    "slider": slider_cases,
}


def sample_puzzles(workdir: Path) -> dict[str, dict]:
    """One real crossword and one real slider puzzle, to mutate for `render`."""
    from mobius.generators.crossword.pack import CrosswordPackSpec
    from mobius.generators.pack import build_pack
    from mobius.generators.slider.pack import SliderPackSpec

    found = {}
    for name, spec in (("crossword", CrosswordPackSpec(count=1, width=7, height=5, seed=3)),
                       ("slider", SliderPackSpec(count=1, board="ring", depth_min=4, depth_max=4))):
        found[name] = build_pack(spec, workdir / f"sample-{name}")[0]
    return found


def cases(inp: Inputs, total: int) -> list[Case]:
    names = sorted(GENERATORS)
    return [case for i in range(total) for case in GENERATORS[names[i % len(names)]](inp)]


def report(outcomes: list[Outcome], title: str) -> str:
    lines = [f"{title}: {len(outcomes)} runs"]
    problems = Counter((o.case.parser, o.problem) for o in outcomes if o.problem)
    totals = Counter(o.problem for o in outcomes if o.problem)
    lines.append("  " + ", ".join(f"{kind}: {totals.get(kind, 0)}"
                                  for kind in ("traceback", "exit", "multi-line", "hang", "memory")))
    for (parser, problem), n in sorted(problems.items()):
        example = next(o for o in outcomes if o.case.parser == parser and o.problem == problem)
        args = " ".join(a if len(a) < 40 else a[:37] + "..." for a in example.case.args)
        lines.append(f"  {parser}: {n} {problem} — e.g. mobius {args}: "
                     f"{(example.stderr.strip().splitlines() or [''])[-1][:120]}")
    return "\n".join(lines)
