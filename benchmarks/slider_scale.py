"""Benchmark: `mobius slider check` and `inspect` from 10² to 10⁵ vertices.

Covers five board families — square grids, cycles, random 2-connected
graphs (a Hamiltonian cycle plus n/2 random chords), random trees (each
vertex joined to a random earlier one) and graphs with cut vertices (random
blocks of 3–12 vertices glued at random vertices, with pendant edges) —
each at sizes from about 10² to 10⁵ vertices. Every command runs as its own
process, as a user runs it (boards are edge-list files, starts a random
permutation in an @FILE), and is measured from outside: wall time, CPU
time and peak resident memory (`os.wait4`), the median of a few runs. The
start-up cost — `slider check cycle:3`, measured the same way — is
subtracted from the CPU time to give the compute beyond start-up (CPU, not
wall: on a shared 2-core machine the wall time of a one-second process
varies by seconds). The compute is also timed inside a process that has
already imported everything: the command's own CPU seconds, from reading the
board to printing the answer. With `--compare-with DIR`
(an unpacked older revision), the same commands run on that code too, side
by side, up to `--compare-max` vertices and a time limit.

Writes a Markdown table to stdout, the records to
`benchmarks/results/slider-scale.csv` and a log-log plot of time and
memory against size to `benchmarks/results/slider-scale.png`.

Run: ``python -m mobius.benchmarks.slider_scale [--repeats 3] [--max-vertices 100000]
[--compare-with DIR --compare-max 10000]``. Leaves out: solving (the search
benchmarks).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from mobius.benchmarks.harness import machine
from mobius.benchmarks.report import markdown_rows

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 14
# Side lengths of the square grids: n from 100 to 99,856, about half a decade apart.
GRID_SIDES = (10, 17, 32, 55, 100, 173, 316)
# Blocks of the cut-vertex family: small enough that the board has many of them.
BLOCK_SIZES = (3, 12)
# The older code needs minutes and gigabytes from 10⁴ vertices on; a run past
# this many seconds is recorded as a timeout.
COMPARE_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Record:
    code: str  # "new" or "old"
    family: str
    vertices: int
    edges: int
    command: str
    wall_s: float
    cpu_s: float
    cpu_beyond_startup_s: float
    compute_s: float  # CPU inside the process, imports done before the clock starts
    peak_mb: float
    exit_code: int


# --- boards --------------------------------------------------------------------------

def relabel(n: int, edges: list[tuple[int, int]], rng: random.Random) -> list[tuple[int, int]]:
    order = list(range(n))
    rng.shuffle(order)
    return [(order[u], order[v]) for u, v in edges]


def grid_edges(side: int) -> list[tuple[int, int]]:
    edges = []
    for r in range(side):
        for c in range(side):
            v = r * side + c
            edges += [(v, v + 1)] if c + 1 < side else []
            edges += [(v, v + side)] if r + 1 < side else []
    return edges


def random_two_connected(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """A Hamiltonian cycle (so 2-connected) plus n/2 random chords."""
    edges = {(i, i + 1) for i in range(n - 1)} | {(0, n - 1)}
    while len(edges) < n + n // 2:
        u, v = sorted(rng.sample(range(n), 2))
        edges.add((u, v))
    return relabel(n, sorted(edges), rng)


def random_tree(n: int, rng: random.Random) -> list[tuple[int, int]]:
    return relabel(n, [(rng.randrange(v), v) for v in range(1, n)], rng)


def random_block_tree(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """Random blocks (a cycle with a few chords) glued at random vertices, one in five a pendant edge."""
    edges: list[tuple[int, int]] = []
    size = 1
    while size < n:
        at = rng.randrange(size)
        k = min(n - size + 1, 2 if rng.random() < 0.2 else rng.randint(*BLOCK_SIZES))
        block = [at] + list(range(size, size + k - 1))
        ring = {(block[i], block[(i + 1) % k]) for i in range(k)} if k > 2 else {(block[0], block[1])}
        for _ in range(rng.randint(0, 2) if k > 3 else 0):
            a, b = rng.sample(block, 2)
            if (a, b) not in ring and (b, a) not in ring:
                ring.add((a, b))
        edges += sorted(ring)
        size += k - 1
    return relabel(n, edges, rng)


FAMILIES: dict[str, Callable[[int, random.Random], list[tuple[int, int]]]] = {
    "grid": lambda n, rng: grid_edges(math.isqrt(n)),
    "cycle": lambda n, rng: [(i, (i + 1) % n) for i in range(n)],
    "random 2-connected": random_two_connected,
    "tree": random_tree,
    "cut vertices": random_block_tree,
}


# --- measuring -------------------------------------------------------------------------

def measure(args: Sequence[str], pythonpath: str | None, timeout: float) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak MB, exit code) of `python -m mobius ARGS` in its own process."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "mobius", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env, cwd=pythonpath or None)
    deadline = started + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            child.kill()
            pid, status, usage = os.wait4(child.pid, 0)
            status = -1
            break
        time.sleep(0.005)
    wall = time.perf_counter() - started
    child.returncode = 0  # reaped here, not by subprocess
    code = os.waitstatus_to_exitcode(status) if status >= 0 else -1
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code


# Runs one command through `mobius.cli.main` after every import it needs, and
# prints the CPU seconds it took. Plain source, so it runs on older code too.
COMPUTE_SNIPPET = """
import os, sys, time
import mobius.cli, mobius.slider_cli, mobius.cpmodel.slider.group, mobius.cpmodel.slider.board
sys.argv = ["mobius", *sys.argv[1:]]
sys.stdout = open(os.devnull, "w")
started = time.process_time()
try:
    mobius.cli.main()
except SystemExit:
    pass
print(time.process_time() - started, file=sys.stderr)
"""


def compute_time(args: Sequence[str], pythonpath: str | None, timeout: float) -> float:
    """CPU seconds of the command itself, in a process whose imports are already done; NaN on timeout."""
    env = dict(os.environ, PYTHONPATH=pythonpath) if pythonpath else None
    try:
        done = subprocess.run([sys.executable, "-c", COMPUTE_SNIPPET, *args], capture_output=True, text=True,
                              env=env, cwd=pythonpath or None, timeout=timeout)
    except subprocess.TimeoutExpired:
        return math.nan
    return float(done.stderr.strip().splitlines()[-1])


def median_run(args: Sequence[str], repeats: int, pythonpath: str | None, timeout: float
               ) -> tuple[float, float, float, int]:
    runs = [measure(args, pythonpath, timeout) for _ in range(repeats)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            max(r[2] for r in runs), runs[-1][3])


def write_board(folder: Path, name: str, n: int, edges: list[tuple[int, int]], rng: random.Random
                ) -> tuple[str, str, str]:
    """The board file, the start as @FILE and the start inline (older code reads only that)."""
    board = folder / f"{name}.txt"
    board.write_text("".join(f"{u} {v}\n" for u, v in edges))
    start = list(range(n))
    rng.shuffle(start)
    text = " ".join(map(str, start))
    state = folder / f"{name}.start"
    state.write_text(text + "\n")
    return str(board), f"@{state}", text


def sizes(limit: int) -> list[int]:
    return [side * side for side in GRID_SIDES if side * side <= limit]


def run(repeats: int, limit: int, compare_with: str | None, compare_max: int) -> list[Record]:
    rng = random.Random(SEED)
    records = []
    codes = [("new", None)] + ([("old", compare_with)] if compare_with else [])
    with tempfile.TemporaryDirectory() as tmp:
        startup = {code: median_run(["slider", "check", "cycle:3", "--start", "0 1 2"], repeats, path, 60)[1]
                   for code, path in codes}
        print("start-up CPU (slider check cycle:3): " + ", ".join(f"{c} {s:.2f} s" for c, s in startup.items()),
              file=sys.stderr)
        for family, make in FAMILIES.items():
            for n in sizes(limit):
                edges = make(n, rng)
                board, start_file, start = write_board(Path(tmp), f"{family.replace(' ', '-')}-{n}", n, edges, rng)
                for command in ("check", "inspect"):
                    for code, path in codes:
                        if code == "old" and n > compare_max:
                            continue
                        args = ["slider", "inspect", board] if command == "inspect" else \
                            ["slider", "check", board, "--start", start_file if code == "new" else start]
                        times = 1 if code == "old" else repeats
                        wall, cpu, peak, exit_code = median_run(args, times, path, COMPARE_TIMEOUT_S)
                        compute = (math.nan if exit_code < 0 else
                                   statistics.median(compute_time(args, path, COMPARE_TIMEOUT_S) for _ in range(times)))
                        records.append(Record(code, family, n, len(edges), command, round(wall, 3), round(cpu, 3),
                                              round(max(cpu - startup[code], 0.0), 3), round(compute, 3),
                                              round(peak, 1), exit_code))
                        print(records[-1], file=sys.stderr, flush=True)
    return records


# --- reporting ---------------------------------------------------------------------------

def table(records: Sequence[Record]) -> str:
    header = ["code", "family", "vertices", "edges", "command", "wall s", "CPU s", "CPU beyond start-up s",
              "compute CPU s", "peak MB", "exit"]
    return markdown_rows(header, [[r.code, r.family, f"{r.vertices:,}", f"{r.edges:,}", r.command,
                              "timeout" if r.exit_code < 0 else f"{r.wall_s:.2f}", f"{r.cpu_s:.2f}",
                              f"{r.cpu_beyond_startup_s:.2f}", f"{r.compute_s:.2f}", f"{r.peak_mb:.0f}", r.exit_code]
                             for r in records])


def plot(records: Sequence[Record], path: Path) -> None:
    import matplotlib  # lazily: only the plot needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for family in FAMILIES:
        for command, style in (("check", "-"), ("inspect", "--")):
            mine = [r for r in records if (r.code, r.family, r.command) == ("new", family, command)]
            if mine:
                xs = [r.vertices for r in mine]
                axes[0].plot(xs, [max(r.compute_s, 1e-3) for r in mine], style, marker="o", ms=3,
                             label=f"{family} {command}")
                axes[1].plot(xs, [r.peak_mb for r in mine], style, marker="o", ms=3, label=f"{family} {command}")
    old = [r for r in records if r.code == "old" and r.exit_code >= 0 and r.family == "grid" and r.command == "check"]
    if old:
        axes[0].plot([r.vertices for r in old], [r.compute_s for r in old], ":", color="black", marker="x",
                     label="grid check, before")
        axes[1].plot([r.vertices for r in old], [r.peak_mb for r in old], ":", color="black", marker="x",
                     label="grid check, before")
    for ax, label in ((axes[0], "compute, CPU seconds (imports excluded)"), (axes[1], "peak memory, MB")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("vertices")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=6, ncol=2)
    fig.suptitle("mobius slider check / inspect: time and memory against board size")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-vertices", type=int, default=100_000)
    parser.add_argument("--compare-with", help="an unpacked older revision to run side by side")
    parser.add_argument("--compare-max", type=int, default=10_000, help="largest board run on the older code")
    args = parser.parse_args()
    records = run(args.repeats, args.max_vertices, args.compare_with, args.compare_max)
    RESULTS.mkdir(exist_ok=True)
    with (RESULTS / "slider-scale.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(asdict(records[0])))
        writer.writeheader()
        writer.writerows(asdict(r) for r in records)
    plot(records, RESULTS / "slider-scale.png")
    print(f"Machine: {machine()}\n")
    print(table(records))


if __name__ == "__main__":
    main()
