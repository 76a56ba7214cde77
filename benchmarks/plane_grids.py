"""Plane grids at the sizes publishers print: how they are drawn, how they fill, and the packs made of them.

Covers two measurements, each a table:

- ``--part grids``: per size whose space is drawn rather than listed (11×11
  and up: annealed, `pattern_anneal.py`), `--draws` block patterns drawn by the
  pack's own rules and generator (`generate_pattern` on
  `CrosswordPackSpec.pattern_spec()`, seeds 0, 1, …), with the seconds a draw takes, how many distinct patterns
  the draws give (up to the plane's symmetries), their blocks, words and fill
  estimate (ln E by the pack's words), and how many the pack's own fill (its
  reference solver at the pack's deterministic budget, two seeds a grid) fills;
  beside them the published grids of the same size in
  `benchmarks/data/crossword/vanbeek/` (Herald Tribune 15×15 and 21×21), filled
  the same way — the yardstick for what a publisher's grid is.
- ``--part packs``: the packs a publisher would ask for (5×5 ×10, 7×7 ×10,
  9×9 ×5, 15×15 ×10, 21×21 ×3 by default), one per size and seed, built by
  `build_pack` with clues and polish as `mobius pack crossword --surface plane`
  builds them: wall time, the median job time a puzzle, the pattern space as
  the manifest states it (listed exactly up to 9×9: minis and midis take grids
  from the list in order of their fill estimate), puzzles whose pattern no
  other puzzle of the pack has, blocks, words and mean entry score.

Leaves out the rules themselves (checked by `tests/generators/test_american.py`
on packs it reads back on its own) and glued surfaces (`pack_scale.py`).

Run: ``python -m mobius.benchmarks.plane_grids --part grids [--size 15 ...] [--draws 10]`` or
``python -m mobius.benchmarks.plane_grids --part packs [--size 15 ...] [--seed 0 ...] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mobius.benchmarks.datasets import vanbeek_paths
from mobius.benchmarks.harness import machine
from mobius.cpmodel.crossword.grid import BLOCK, Grid, make_grid, read_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.solver import Status, get_solver
from mobius.generators.crossword.fill_estimate import FillEstimate
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.crossword.pattern_space import canonical_key
from mobius.generators.crossword.patterns import generate_pattern
from mobius.generators.pack import MANIFEST, PUZZLE_DIR, PackError, build_pack

# The packs of issue 44's acceptance: side and puzzles.
PACKS = {5: 10, 7: 10, 9: 5, 15: 10, 21: 3}
# The sides whose patterns are drawn (annealed), not listed.
DRAWN = (11, 13, 15, 21)
FILL_SEEDS = (0, 1)
# A backstop only: the pack's deterministic budget ends every fill first on any machine this runs on.
FILL_TIME_LIMIT_S = 600.0


def grid_figures(grid: Grid, estimate: FillEstimate) -> dict[str, Any]:
    """Blocks, words and ln E of a pattern."""
    cells = grid.width * grid.height
    blocks = sum(row.count(BLOCK) for row in grid.rows)
    return {"blocks": blocks / cells, "words": len(find_lights(grid, 3).lights),
            "log_fills": estimate.log_fills(grid, 3)}


def fills(grid: Grid, spec: CrosswordPackSpec) -> tuple[bool, float]:
    """Whether the pack's own fill fills `grid` on one of `FILL_SEEDS`, and the seconds it took."""
    solver = get_solver("crossword", spec.solver_spec)
    problem = FillProblem(grid, spec.words(), spec.rules())
    start = time.perf_counter()
    for seed in FILL_SEEDS:
        if solver.solve(problem, time_limit=FILL_TIME_LIMIT_S, seed=seed).status is Status.SOLVED:
            return True, time.perf_counter() - start
    return False, time.perf_counter() - start


def grid_row(label: str, grids: Sequence[Grid], spec: CrosswordPackSpec, draw_s: float | None) -> str:
    estimate = FillEstimate(spec.words())
    figures = [grid_figures(grid, estimate) for grid in grids]
    outcomes = [fills(grid, spec) for grid in grids]
    draw = f"{draw_s / len(grids):.2f}" if draw_s is not None else "-"
    return (f"| {label} | {len(grids)} | {draw} | {len({canonical_key(g) for g in grids})} | "
            f"{statistics.median(f['blocks'] for f in figures):.1%} | "
            f"{statistics.median(f['words'] for f in figures):.0f} | "
            f"{statistics.median(f['log_fills'] for f in figures):.0f} | "
            f"{sum(ok for ok, _ in outcomes)} of {len(grids)} | {statistics.median(s for _, s in outcomes):.2f} |")


def published(side: int) -> list[Grid]:
    """The van Beek grids of `side`×`side` whose lights are all 3 letters or more (a fill's rule here)."""
    grids = [read_grid(path, "plane") for path in vanbeek_paths() if path.name.startswith(f"{side:02d}.")]
    return [grid for grid in grids if grid.width == side and min(lt.length for lt in find_lights(grid, 1).lights) >= 3]


def measure_grids(sides: Sequence[int], draws: int) -> None:
    print("| grids | draws | s a draw | distinct | blocks | words | ln E | filled | s a fill |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for side in sides:
        spec = CrosswordPackSpec(count=1, width=side, height=side, surface="plane")
        start = time.perf_counter()
        grids = [generate_pattern(spec.pattern_spec(), seed) for seed in range(draws)]
        print(grid_row(f"{side}×{side} drawn", grids, spec, time.perf_counter() - start), flush=True)
        if given := published(side):
            print(grid_row(f"{side}×{side} published (van Beek)", given, spec, None), flush=True)


def pack_row(side: int, count: int, seed: int, workers: int, out: Path) -> str:
    spec = CrosswordPackSpec(count=count, width=side, height=side, surface="plane", seed=seed)
    target = out / f"plane-{side}-seed-{seed}"
    start = time.perf_counter()
    try:
        build_pack(spec, target, workers=workers, command=f"plane_grids {side} {seed}")
    except PackError as exc:  # a pack short of its count keeps the puzzles it made: they are measured too
        print(f"<!-- {side}x{side} seed {seed}: {exc} -->", flush=True)
    wall = time.perf_counter() - start
    puzzles = [json.loads(path.read_text()) for path in sorted((target / PUZZLE_DIR).glob("*.json"))]
    if not puzzles:
        return f"| {side}×{side} | {seed} | 0 of {count} | {wall:.1f} | - | - | - | - | - | - |"
    manifest = json.loads((target / MANIFEST).read_text())
    keys = Counter(canonical_key(make_grid(p["rows"], "plane")) for p in puzzles)
    own = sum(1 for p in puzzles if keys[canonical_key(make_grid(p["rows"], "plane"))] == 1)
    jobs = list(manifest["timings"]["per_puzzle_s"].values())  # none when the pack stopped short
    job = f"{statistics.median(jobs):.1f}" if jobs else "-"
    entries = [e for p in puzzles for e in p["entries"]]
    blocks = [sum(row.count(BLOCK) for row in p["rows"]) / side ** 2 for p in puzzles]
    space = manifest.get("patterns", {}).get("space")  # a pack stopped short has no report
    space = "-" if space is None else f"{space['grids_found']} listed" if space["counted_exactly"] else "drawn"
    return (f"| {side}×{side} | {seed} | {len(puzzles)} of {count} | {wall:.1f} | {job} | "
            f"{space} | {own} | {statistics.fmean(blocks):.1%} | {len(entries) / len(puzzles):.1f} | "
            f"{statistics.fmean(e['score'] for e in entries):.1f} |")


def measure_packs(sides: Sequence[int], seeds: Sequence[int], workers: int, out: Path) -> None:
    print("| size | seed | puzzles | wall s | job s a puzzle (median) | space | own pattern | blocks | words | mean score |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for side in sides:
        for seed in seeds:
            print(pack_row(side, PACKS[side], seed, workers, out), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("grids", "packs"), required=True)
    parser.add_argument("--size", type=int, action="append", choices=sorted({*PACKS, *DRAWN}),
                        help="a side (repeatable; default: every size of the part)")
    parser.add_argument("--draws", type=int, default=10, help="patterns drawn a size (grids)")
    parser.add_argument("--seed", type=int, action="append", help="a pack's seed (repeatable; default 0 1 2)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="where the packs go (default: a temporary folder)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.part == "grids":
        measure_grids(args.size or DRAWN, args.draws)
        return
    sides = [side for side in args.size or sorted(PACKS) if side in PACKS]
    with tempfile.TemporaryDirectory() as scratch:
        measure_packs(sides, args.seed or [0, 1, 2], args.workers, args.out or Path(scratch))


if __name__ == "__main__":
    main()
