"""Export speed: the time each export format takes per puzzle, and the pack booklet.

Covers: building one crossword pack per size (Möbius strip by default; the
fills are not timed), then, per puzzle of the pack, timing every format
that `mobius.generators.export.bundle.formats_for` lists (after one warm-up
export, so loading modules and fonts is not counted) and the booklet
`pack.pdf` of the whole pack; the table gives the median milliseconds per
puzzle of each format and their sum, then the whole export phase as a pack
runs it (`mobius.generators.pack_exports.write_exports`: every file written
atomically, and the booklet), per puzzle. Times are CPU time of this process
(`time.process_time`), which a busy shared machine inflates far less than
wall time. Leaves out: the fill and pack throughput (`pack_throughput.py`).

Run: ``python -m mobius.benchmarks.export_speed [--count 30] [--sizes 11x5,15x7] [--surface mobius]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mobius.benchmarks.harness import machine
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.export import ExportError
from mobius.generators.export.bundle import formats_for
from mobius.generators.export.pdf import pack_pdf
from mobius.cpmodel.files import write_atomic
from mobius.generators.pack import build_pack
from mobius.generators.pack_exports import write_exports

MS = 1000.0


def _timed(make: Callable[[], object]) -> float | None:
    """CPU seconds one export takes; None when the format cannot hold the puzzle."""
    start = time.process_time()
    try:
        make()
    except ExportError:
        return None
    return time.process_time() - start


def format_times(puzzles: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Format suffix -> seconds per puzzle, for the puzzles the format can hold."""
    for make in formats_for(puzzles[0]).values():  # warm-up: imports, fonts, caches
        _timed(lambda: make(puzzles[0]))
    times: dict[str, list[float]] = {}
    for puzzle in puzzles:
        for suffix, make in formats_for(puzzle).items():
            took = _timed(lambda: make(puzzle))
            if took is not None:
                times.setdefault(suffix, []).append(took)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--sizes", default="11x5,15x7")
    parser.add_argument("--surface", default="mobius")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="for building the packs (not timed)")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    print(f"Machine: {machine()}\n")
    with tempfile.TemporaryDirectory() as tmp:
        for width, height in sizes:
            spec = CrosswordPackSpec(count=args.count, width=width, height=height, surface=args.surface,
                                     seed=args.seed)
            built = build_pack(spec, Path(tmp) / f"{width}x{height}", workers=args.workers)
            puzzles = [built[i] for i in sorted(built)]
            times = format_times(puzzles)
            start = time.process_time()
            pack_pdf(puzzles, "benchmark")
            booklet = (time.process_time() - start) / len(puzzles)
            medians = {suffix: statistics.median(ts) * MS for suffix, ts in times.items()}
            print(f"### {args.surface} {width}x{height}, {len(puzzles)} puzzles: median CPU ms per puzzle\n")
            print("| format | median CPU ms | puzzles |")
            print("|---|---:|---:|")
            for suffix, median in medians.items():
                print(f"| {suffix} | {median:.2f} | {len(times[suffix])} |")
            print(f"| pack.pdf (booklet, per puzzle) | {booklet * MS:.2f} | {len(puzzles)} |")
            print(f"| **all, per puzzle** | **{sum(medians.values()) + booklet * MS:.1f}** | |\n")
            cpu, wall = time.process_time(), time.perf_counter()
            write_exports(puzzles, Path(tmp) / f"phase-{width}x{height}", Path(tmp) / "pack.pdf", write_atomic)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"Export phase (write_exports), per puzzle: {cpu / len(puzzles) * MS:.1f} ms CPU, "
                  f"{wall / len(puzzles) * MS:.1f} ms wall\n", flush=True)


if __name__ == "__main__":
    main()
