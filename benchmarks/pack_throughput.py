"""Pack throughput: puzzles per minute against the number of local workers.

Covers: building the same crossword and slider packs with 1…K workers, side
by side in one run, reporting wall time, puzzles per minute, the speed-up
over one worker, and whether the puzzle files are byte-identical across
worker counts (they must be). Leaves out: solver comparisons (the harness).

Run: ``python -m mobius.benchmarks.pack_throughput [--count N] [--workers 1,2]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from mobius.benchmarks.harness import machine
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import PUZZLE_DIR, build_pack
from mobius.generators.slider.pack import SliderPackSpec


def packs(count: int, seed: int) -> dict[str, Any]:
    return {
        "crossword mobius 11x5": CrosswordPackSpec(count=count, width=11, height=5, surface="mobius", seed=seed),
        "crossword mobius 15x7": CrosswordPackSpec(count=count, width=15, height=7, surface="mobius", seed=seed),
        "slider ring 6..15": SliderPackSpec(count=count, board="ring", depth_min=6, depth_max=15, seed=seed),
    }


def puzzle_files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / PUZZLE_DIR).glob("*.json"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    print(f"Machine: {machine()}\n")
    print("| pack | puzzles | workers | wall s | puzzles/min | speed-up | rejected | same bytes |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec in packs(args.count, args.seed).items():
            first: tuple[float, dict[str, bytes]] | None = None
            for k in workers:
                out = Path(tmp) / f"{name.replace(' ', '-')}-{k}"
                start = time.perf_counter()
                puzzles = build_pack(spec, out, workers=k)
                wall = time.perf_counter() - start
                files = puzzle_files(out)
                first = first or (wall, files)
                rejected = sum(p.get("rejected", 0) for p in puzzles.values())
                print(f"| {name} | {len(puzzles)} | {k} | {wall:.1f} | {60 * len(puzzles) / wall:.1f} | "
                      f"{first[0] / wall:.2f} | {rejected} | {'yes' if files == first[1] else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
