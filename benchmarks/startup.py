"""Whole commands from the shell, start-up included: crossword fills against Qxw, and Korf's 100 in one run.

Covers two comparisons, each side by side in one run and repeated (the
machine is shared: medians, ratios and the load average are reported):

- ``crossword``: `mobius crossword fill GRID --dict LIST` (the reference
  solver, as a user types it) against ``qxw -b`` on the same grids, each
  the whole process timed from outside. LIST is Debian's `wamerican` minus
  its possessives (the lines ending in 's), written once; Qxw is given what
  its backend gives it (`cpmodel/crossword/qxw.py`): the lights as a deck,
  and the list normalised and cut to the grid's light lengths. The runs
  alternate (ours, Qxw, next grid), after one untimed fill that writes the
  list's cache entry (`mobius.cpmodel.crossword.word_cache`), whose time is
  reported apart (the first fill after a list changes). With ``--before
  PYTHON`` the same fills run a third time with that interpreter (a venv
  with an earlier version installed), alternating with the other two.
- ``korf``: `mobius slider solve-all grid:4x4 KORF --workers N`, Korf's 100
  in one command with the 7-8 tables already built (`mobius slider
  prepare grid:4x4`): the wall time of the whole process (start-up, the one
  table mapping, the 100 searches) and every length against the published
  optimum; with ``--baseline``, side by side once, the harness's way, a
  process per start mapping the tables anew (`mobius bench --suite
  slider-korf --solvers idastar --jobs N`).

Run: ``python -m mobius.benchmarks.startup crossword [--repeats 5]`` and
``python -m mobius.benchmarks.startup korf [--repeats 3] [--workers 2]``; each
prints a Markdown table and writes its records as JSON with ``--out DIR``.
Leaves out: the solvers' own times (the harness, `mobius bench`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from mobius.benchmarks.datasets import korf_table
from mobius.benchmarks.harness import machine
from mobius.cpmodel.crossword.qxw import deck as qxw_deck
from mobius.cpmodel.crossword.qxw import find_qxw, word_list_text

VANBEEK = Path(__file__).parent / "data" / "crossword" / "vanbeek"
GRIDS = ("15.01", "15.04", "19.01", "puzzle15")
SYSTEM_WORDS = Path("/usr/share/dict/words")
POSSESSIVE = "'s"
VANBEEK_MIN_LENGTH = 2


@dataclass(frozen=True)
class Run:
    """One process timed from outside: wall seconds, CPU seconds (user + system), exit code."""

    what: str
    item: str
    repeat: int
    wall_s: float
    cpu_s: float
    exit: int


def timed(command: list[str], what: str, item: str, repeat: int, limit: float | None = None) -> Run:
    """Run `command` from the temporary directory: `python -m` puts the working directory first on the
    module path, which would run this checkout's code whatever the interpreter has installed."""
    before = os.times()
    began = time.perf_counter()
    try:
        code = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=limit,
                              cwd=tempfile.gettempdir()).returncode
    except subprocess.TimeoutExpired:
        code = -1  # undecided within the limit (the child is killed by subprocess.run)
    wall = time.perf_counter() - began
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return Run(what, item, repeat, round(wall, 4), round(cpu, 4), code)


def load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


# --- crossword fills against Qxw --------------------------------------------------------

def prepare_crossword(work: Path) -> tuple[Path, dict[str, tuple[Path, Path]]]:
    """The list both read (wamerican minus possessives) and, per grid, Qxw's deck and word file."""
    from mobius.cpmodel.crossword.grid import read_grid
    from mobius.cpmodel.crossword.problem import FillProblem, FillRules
    from mobius.dictionaries import load

    listed = work / "wamerican-no-possessives.txt"
    lines = SYSTEM_WORDS.read_text(encoding="utf-8").splitlines()
    listed.write_text("".join(f"{line}\n" for line in lines if not line.endswith(POSSESSIVE)), encoding="utf-8")
    words = load(listed)
    qxw_inputs = {}
    for name in GRIDS:
        problem = FillProblem(read_grid(VANBEEK / f"{name}.txt"), words, FillRules(min_length=VANBEEK_MIN_LENGTH))
        deck, word_file = work / f"{name}.qxd", work / f"{name}.words"
        deck.write_text(qxw_deck((light.cells for light in problem.lights.lights),
                                 allow_repeats=problem.rules.allow_repeats), encoding="ascii")
        word_file.write_text(word_list_text(problem), encoding="ascii")
        qxw_inputs[name] = (deck, word_file)
    return listed, qxw_inputs


def run_crossword(repeats: int, qxw_limit: float, work: Path, before: Path | None) -> tuple[list[Run], Run]:
    qxw = find_qxw()
    if qxw is None:
        raise SystemExit("qxw is not installed (Debian package qxw)")
    listed, qxw_inputs = prepare_crossword(work)
    ours = [sys.executable, "-m", "mobius", "crossword", "fill"]
    first = timed([*ours, str(VANBEEK / f"{GRIDS[0]}.txt"), "--dict", str(listed)], "mobius, writing the cache",
                  GRIDS[0], 0)
    runs = []
    for repeat in range(repeats):
        for name in GRIDS:
            runs.append(timed([*ours, str(VANBEEK / f"{name}.txt"), "--dict", str(listed)], "mobius", name, repeat))
            if before is not None:
                runs.append(timed([str(before), *ours[1:], str(VANBEEK / f"{name}.txt"), "--dict", str(listed)],
                                  "before", name, repeat))
            deck, word_file = qxw_inputs[name]
            runs.append(timed([qxw, "-b", "-d", str(word_file), str(deck)], "qxw", name, repeat, qxw_limit))
    return runs, first


def crossword_table(runs: list[Run]) -> str:
    rows = [("| grid | mobius wall s (median) | Qxw wall s (median) | mobius / Qxw | mobius CPU s | Qxw CPU s "
             "| decided (mobius, Qxw) | before: wall s, CPU s |"), "|---|---:|---:|---:|---:|---:|---|---|"]
    ratios = []
    for name in GRIDS:
        mine = [r for r in runs if r.item == name and r.what == "mobius"]
        theirs = [r for r in runs if r.item == name and r.what == "qxw"]
        earlier = [r for r in runs if r.item == name and r.what == "before"]
        then = (f"{statistics.median(r.wall_s for r in earlier):.3f}, {statistics.median(r.cpu_s for r in earlier):.3f}"
                if earlier else "–")
        wall_mine, wall_theirs = statistics.median(r.wall_s for r in mine), statistics.median(r.wall_s for r in theirs)
        ratios.append(wall_mine / wall_theirs)
        decided = (f"{sum(r.exit in (0, 1) for r in mine)}/{len(mine)}, "
                   f"{sum(r.exit in (0, 4) for r in theirs)}/{len(theirs)}")
        rows.append(f"| {name} | {wall_mine:.3f} | {wall_theirs:.3f} | {ratios[-1]:.2f} | "
                    f"{statistics.median(r.cpu_s for r in mine):.3f} | "
                    f"{statistics.median(r.cpu_s for r in theirs):.3f} | {decided} | {then} |")
    rows.append(f"\nMedian over the grids of mobius / Qxw: **{statistics.median(ratios):.2f}**")
    return "\n".join(rows)


# --- Korf's 100 in one command ----------------------------------------------------------

def run_korf(repeats: int, workers: int, work: Path, baseline: bool) -> tuple[list[Run], list[str]]:
    table = korf_table()
    starts = work / "korf100.txt"
    starts.write_text("".join(" ".join(map(str, tiles)) + "\n" for tiles, _ in table), encoding="ascii")
    command = [sys.executable, "-m", "mobius", "slider", "solve-all", "grid:4x4", str(starts), "--workers",
               str(workers), "--json"]
    runs, wrong = [], []
    for repeat in range(repeats):
        before = os.times()
        began = time.perf_counter()
        out = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - began
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        runs.append(Run(f"solve-all, {workers} workers", "korf100", repeat, round(wall, 4), round(cpu, 4),
                        out.returncode))
        report = json.loads(out.stdout) if out.returncode == 0 else {"results": []}
        lengths = [r["length"] for r in report["results"]]
        if lengths != [length for _, length in table]:
            wrong.append(f"repeat {repeat}: exit {out.returncode}, lengths differ from Korf's ({out.stderr[:200]})")
        elif not all(r["optimal"] for r in report["results"]):
            wrong.append(f"repeat {repeat}: not every result is proven optimal")
        if baseline and repeat == 0:
            runs.append(timed([sys.executable, "-m", "mobius", "bench", "--suite", "slider-korf", "--solvers",
                               "idastar", "--jobs", str(workers), "--out", str(work / "bench")],
                              f"bench, a process per start, {workers} at once", "korf100", repeat))
    return runs, wrong


def korf_table_text(runs: list[Run], wrong: list[str]) -> str:
    rows = ["| command | runs | wall s (median) | wall s (min–max) | CPU s (median) | exit codes |",
            "|---|---:|---:|---|---:|---|"]
    for what in dict.fromkeys(r.what for r in runs):
        mine = [r for r in runs if r.what == what]
        walls = [r.wall_s for r in mine]
        rows.append(f"| {what} | {len(mine)} | {statistics.median(walls):.2f} | {min(walls):.2f}–{max(walls):.2f} | "
                    f"{statistics.median(r.cpu_s for r in mine):.2f} | {sorted({r.exit for r in mine})} |")
    rows.append("\nsolve-all: all 100 lengths equal Korf's optima, proven optimal: "
                + ("yes" if not wrong else "NO: " + "; ".join(wrong)))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("comparison", choices=("crossword", "korf"))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2, help="korf: solve-all's workers")
    parser.add_argument("--before", type=Path, default=None,
                        help="crossword: the Python of a venv holding an earlier version, timed too")
    parser.add_argument("--baseline", action="store_true", help="korf: also time a process per start, once")
    parser.add_argument("--qxw-limit", type=float, default=120.0, help="crossword: seconds per Qxw run")
    parser.add_argument("--out", type=Path, default=None, help="directory for the JSON records")
    args = parser.parse_args()
    print(f"machine: {machine()}; load average before: {load_text()}")
    with tempfile.TemporaryDirectory(prefix="mobius-startup-") as tmp:
        if args.comparison == "crossword":
            runs, first = run_crossword(args.repeats, args.qxw_limit, Path(tmp), args.before)
            print(crossword_table(runs))
            print(f"\nThe first fill, writing the list's cache entry ({first.item}): {first.wall_s:.2f} s wall, "
                  f"{first.cpu_s:.2f} s CPU")
            runs = [first, *runs]
        else:
            runs, wrong = run_korf(args.repeats, args.workers, Path(tmp), args.baseline)
            print(korf_table_text(runs, wrong))
    print(f"load average after: {load_text()}")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"startup-{args.comparison}.json").write_text(
            json.dumps({"machine": machine(), "runs": [asdict(r) for r in runs]}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
