"""Open strips: the block share of a pack's grids against its fill time and fill quality.

Covers: building crossword packs through the CLI, a process per pack (killed
with everything it started at `--timeout`), for each case (a size and
surface), each block cap (`--max-blocks`; `default` passes none, so the
tool's own default) and each seed; the caps of one seed run one after the
other, seed after seed, so that the load of a shared machine falls on every
cap alike. Each pack is read back from its puzzle files alone
(`quality.pack_quality`): the block share (mean and most of the puzzles),
the wall time of the command, the mean entry score, the median of the
puzzles' worst answers, the clued and three-letter shares, the distinct
grids, and the puzzles not made (the command failed or was stopped). Two
tables: per case and cap, the medians over the seeds (wall time also as a
ratio to the first cap's, seed by seed; the fill's figures over the packs
that made a puzzle); and per seed, every cap side by side (before and
after a change on the same seeds).

Leaves out: the exports (`--no-exports` is not a pack option, so they are
written, and timed, as a user's pack writes them); solver comparisons
(`harness.py`); packs at scale (`pack_scale.py`).

Run: ``python -m mobius.benchmarks.open_strips [--case NAME ...] [--caps default,0.30,0.25]
[--seeds 0,1,2,3,4] [--count 10] [--workers 2] [--timeout 900] [--out DIR]``, or
``python -m mobius.benchmarks.open_strips --analyze DIR`` to print the tables of the packs a run kept.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from mobius.benchmarks.harness import machine
from mobius.benchmarks.pack_scale import grid_key, read_pack
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.processes import run_before
from mobius.generators.crossword.quality import pack_quality

# The packs of issue 44: the default strip, a long strip and a torus.
CASES: dict[str, tuple[str, ...]] = {
    "mobius-11x5": ("--width", "11", "--height", "5", "--surface", "mobius"),
    "mobius-15x7": ("--width", "15", "--height", "7", "--surface", "mobius"),
    "torus-9x7": ("--width", "9", "--height", "7", "--surface", "torus"),
}
DEFAULT = "default"  # a cap that passes no --max-blocks: the tool's own default
RESULTS = "open-strips.json"


@dataclass(frozen=True)
class Run:
    """One pack's figures, read from its puzzle files."""

    case: str
    cap: str
    seed: int
    count: int
    made: int
    wall_s: float
    finished: bool  # the command ended by itself (done or failed) before the timeout
    block_share_mean: float
    block_share_max: float
    mean_score: float
    worst_median: float
    clued_share: float
    three_letter_share: float
    distinct_grids: int

    @property
    def failed(self) -> int:
        return self.count - self.made


def pack_command(case: str, cap: str, seed: int, count: int, workers: int, out: Path) -> list[str]:
    cap_option = [] if cap == DEFAULT else ["--max-blocks", cap]
    return [sys.executable, "-m", "mobius", "pack", "crossword", *CASES[case], *cap_option, "--count", str(count),
            "--seed", str(seed), "--workers", str(workers), "--out", str(out)]


def read_run(case: str, cap: str, seed: int, count: int, out: Path, wall: float, finished: bool) -> Run:
    puzzles, _ = read_pack(out) if out.exists() else ([], {})
    quality = pack_quality(puzzles)
    return Run(case, cap, seed, count, len(puzzles), round(wall, 1), finished, quality["block_share_mean"],
               quality["block_share_max"], quality["mean_score"], quality["lowest_median"],
               quality["clued_share"], quality["three_letter_share"], len({grid_key(p) for p in puzzles}))


def build(case: str, cap: str, seed: int, count: int, workers: int, timeout: float, out: Path) -> Run:
    target = out / label(case, cap, seed)
    start = time.perf_counter()
    done = run_before(pack_command(case, cap, seed, count, workers, target), start + timeout)
    wall = time.perf_counter() - start
    if done is not None and done.returncode != 0:
        print(f"{target.name}: exit {done.returncode}: {done.err.strip().splitlines()[-1:]}", flush=True)
    return read_run(case, cap, seed, count, target, wall, done is not None)


def label(case: str, cap: str, seed: int) -> str:
    return f"{case}-{cap}-seed-{seed}"


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def print_curve(runs: Sequence[Run]) -> None:
    """Per case and cap, medians over the seeds; the wall time also as the median of the seed-by-seed
    ratios to the first cap's (the same seed's packs ran one after the other)."""
    print("| case | cap | seeds | block share mean (most) | wall s | wall ratio | mean score | worst answer "
          "median | clued | three-letter | distinct grids | puzzles not made (timeouts) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for case in dict.fromkeys(r.case for r in runs):
        caps = list(dict.fromkeys(r.cap for r in runs if r.case == case))
        first = {r.seed: r.wall_s for r in runs if r.case == case and r.cap == caps[0]}
        for cap in caps:
            mine = [r for r in runs if r.case == case and r.cap == cap]
            # the fill's figures are those of the puzzles made: a pack that made none has no score, not 0
            made = [r for r in mine if r.made]
            ratio = _median([r.wall_s / first[r.seed] for r in mine if r.seed in first])
            timeouts = sum(1 for r in mine if not r.finished)
            print(f"| {case} | {cap} | {len(mine)} | {_median([r.block_share_mean for r in made]):.1%} "
                  f"({max((r.block_share_max for r in made), default=math.nan):.1%}) | "
                  f"{_median([r.wall_s for r in mine]):.1f} | {ratio:.2f} | "
                  f"{_median([r.mean_score for r in made]):.1f} | "
                  f"{_median([r.worst_median for r in made]):g} | {_median([r.clued_share for r in made]):.0%} | "
                  f"{_median([r.three_letter_share for r in made]):.1%} | "
                  f"{_median([r.distinct_grids for r in mine]):g} | {sum(r.failed for r in mine)} ({timeouts}) |")


def print_seeds(runs: Sequence[Run]) -> None:
    """Every pack, the caps of one case and seed side by side."""
    print("\n| case | seed | cap | block share mean (most) | wall s | mean score | worst answer median | clued | "
          "three-letter | not made |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in sorted(runs, key=lambda r: (list(CASES).index(r.case), r.seed)):
        print(f"| {r.case} | {r.seed} | {r.cap} | {r.block_share_mean:.1%} ({r.block_share_max:.1%}) | "
              f"{r.wall_s:.1f}{'' if r.finished else ' (stopped)'} | {r.mean_score:.1f} | {r.worst_median:g} | "
              f"{r.clued_share:.0%} | {r.three_letter_share:.1%} | {r.failed} |")


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="packs to build (default: all)")
    parser.add_argument("--caps", default="default,0.30,0.25,0.22,0.20,0.18,0.16",
                        help="block caps, comma-separated: shares of the cells, or 'default' for none given")
    parser.add_argument("--seeds", default="0,1,2,3,4", help="pack seeds, comma-separated")
    parser.add_argument("--count", type=int, default=10, help="puzzles a pack")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds before a pack is stopped")
    parser.add_argument("--out", type=Path, help="keep the packs and the figures here, and skip the packs whose "
                                                 "figures it already holds (default: a temporary directory)")
    parser.add_argument("--analyze", type=Path, help=f"only print the tables of the {RESULTS} a run kept in this "
                                                     "directory")
    args = parser.parse_args(argv)
    print(f"Machine: {machine()}\n")
    if args.analyze:
        runs = kept_runs(args.analyze)
    else:
        runs = run_all(args.case or list(CASES), _csv(args.caps), [int(s) for s in _csv(args.seeds)], args)
    print_curve(runs)
    print_seeds(runs)


def kept_runs(out: Path) -> list[Run]:
    """The runs a directory's earlier run recorded (none if it has no figures)."""
    path = out / RESULTS
    return [Run(**r) for r in json.loads(path.read_text(encoding="utf-8"))] if path.exists() else []


def run_all(cases: Sequence[str], caps: Sequence[str], seeds: Sequence[int], args: argparse.Namespace) -> list[Run]:
    """Every pack not yet in `--out`'s figures (a stopped run goes on where it stopped), with those kept."""
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        runs = kept_runs(out)
        done = {(r.case, r.cap, r.seed, r.count) for r in runs}
        for case in cases:
            for seed in seeds:
                for cap in caps:
                    if (case, cap, seed, args.count) in done:
                        continue
                    run = build(case, cap, seed, args.count, args.workers, args.timeout, out)
                    runs.append(run)
                    print(f"built {label(case, cap, seed)}: {run.made}/{run.count} in {run.wall_s} s", flush=True)
                    if args.out:  # kept as it goes: a long run stopped part way still has its figures
                        write_atomic(out / RESULTS, (json.dumps([asdict(r) for r in runs], indent=1) + "\n").encode())
    print()
    return runs


if __name__ == "__main__":
    main()
