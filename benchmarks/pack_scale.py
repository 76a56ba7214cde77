"""Crossword packs at scale: cost per puzzle along a pack, variety, repeats, quality.

Covers: building crossword packs of up to a thousand puzzles and reading
them back from their files: the job seconds per puzzle for the first,
middle and last tenth of the pack and for its first and last hundred
puzzles (median and mean; the manifest records every job's time, attempts
included, as wall and as CPU seconds: the CPU ratio is the one a busy
machine hardly moves), distinct grids (canonical keys) and
fills, answers repeated and how, the quality figures (three-letter share,
seam lights, mean score, clued share), the CP-SAT polish gain (mean entry
score before and after), and what two packs of different seeds share.
`--analyze DIR` reads a pack made by any version of the tool, so the same
figures can be taken of a pack made before a change.

Exports are left out unless `--exports`: they are measured on their own.

Several seeds of the same cases (`--seed 23 --seed 11 --seed 5`) are the
regression check that the cost stays flat on every seed, not only on the
one a change was tuned on: the last table gives, per case, the spread of
wall times between seeds and the worst last / first hundred ratio.

Run: ``python -m mobius.benchmarks.pack_scale [--case NAME ...] [--seed N ...] [--workers 2] [--out DIR]``
or ``python -m mobius.benchmarks.pack_scale --analyze PACK_DIR [--against OTHER_DIR]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mobius.benchmarks.harness import machine
from mobius.cpmodel.crossword.grid import make_grid
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import MANIFEST, PUZZLE_DIR, build_pack
from mobius.generators.crossword.pattern_space import canonical_key

# The packs of the issue: size, surface, count, seed.
CASES: dict[str, dict[str, Any]] = {
    "default-30": {"width": 11, "height": 5, "surface": "mobius", "count": 30, "seed": 0},
    "default-30-seed-1": {"width": 11, "height": 5, "surface": "mobius", "count": 30, "seed": 1},
    "mobius-11x5-60": {"width": 11, "height": 5, "surface": "mobius", "count": 60, "seed": 0},
    "mobius-11x5-300": {"width": 11, "height": 5, "surface": "mobius", "count": 300, "seed": 0},
    "mobius-11x5-1000": {"width": 11, "height": 5, "surface": "mobius", "count": 1000, "seed": 0},
    "torus-9x7-200": {"width": 9, "height": 7, "surface": "torus", "count": 200, "seed": 0},
    "mobius-15x7-200": {"width": 15, "height": 7, "surface": "mobius", "count": 200, "seed": 0},
    "torus-9x7-30": {"width": 9, "height": 7, "surface": "torus", "count": 30, "seed": 0},
    "torus-9x7-30-seed-1": {"width": 9, "height": 7, "surface": "torus", "count": 30, "seed": 1},
}
# Pairs of packs whose shared grids and fills are counted.
PAIRS = (("default-30", "default-30-seed-1"), ("torus-9x7-30", "torus-9x7-30-seed-1"))
THREE = 3


def read_pack(out: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    puzzles = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / PUZZLE_DIR).glob("[0-9]*.json"))]
    manifest_path = out / MANIFEST
    return puzzles, json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}


def grid_key(puzzle: Mapping[str, Any]) -> str:
    rows = ["".join("#" if ch == "#" else "." for ch in row) for row in puzzle["rows"]]
    return canonical_key(make_grid(rows, puzzle["surface"]))


# The stretch the flat-cost target compares: the first and the last hundred
# puzzles (the halves of a pack of fewer than 200).
HUNDRED = 100


def tenths(times: Sequence[float]) -> dict[str, tuple[float, float]]:
    """(median, mean) job seconds of the first, middle and last tenth of a
    pack, and of its first and last hundred puzzles."""
    n = len(times)
    size = max(1, n // 10)
    hundred = min(HUNDRED, max(1, n // 2))
    parts = {"first": times[:size], "middle": times[n // 2 - size // 2:n // 2 - size // 2 + size],
             "last": times[n - size:], "first hundred": times[:hundred], "last hundred": times[n - hundred:]}
    return {name: (statistics.median(part), statistics.fmean(part)) for name, part in parts.items() if part}


def analyze(puzzles: Sequence[Mapping[str, Any]], manifest: Mapping[str, Any]) -> dict[str, Any]:
    entries = [e for p in puzzles for e in p["entries"]]
    uses = Counter(e["answer"] for e in entries)
    seams = [sum(1 for e in p["entries"] if e["seam_crossings"] > 0) for p in puzzles]
    before = [p["stats"]["score_before_polish"] / len(p["entries"]) for p in puzzles
              if "score_before_polish" in p.get("stats", {})]
    after = [p["stats"]["score_after_polish"] / len(p["entries"]) for p in puzzles
             if "score_after_polish" in p.get("stats", {})]
    timings = manifest.get("timings", {}).get("per_puzzle_s", {})
    times = [timings[k] for k in sorted(timings)]
    cpu_timings = manifest.get("timings", {}).get("per_puzzle_cpu_s", {})  # packs made before it have none
    cpu = [cpu_timings[k] for k in sorted(cpu_timings)]
    long_repeats = sorted(w for w, n in uses.items() if n > 1 and len(w) > 5)
    return {
        "puzzles": len(puzzles), "entries": len(entries),
        "distinct_fills": len({"/".join(p["rows"]) for p in puzzles}),
        "distinct_grids": len({grid_key(p) for p in puzzles}),
        "distinct_answers": len(uses), "repeated_answers": sum(1 for n in uses.values() if n > 1),
        "extra_uses": sum(n - 1 for n in uses.values()), "long_repeated": len(long_repeats),
        "three_letter_share": sum(1 for e in entries if len(e["answer"]) == THREE) / max(1, len(entries)),
        "seam_lights_min": min(seams, default=0), "puzzles_under_2_seam_lights": sum(1 for s in seams if s < 2),
        "mean_score": statistics.fmean(e["score"] for e in entries) if entries else 0.0,
        "clued_share": sum(1 for e in entries if e.get("clue", "").strip()) / max(1, len(entries)),
        "polish": (statistics.fmean(before), statistics.fmean(after)) if before else None,
        "redone": sum(int(p.get("rejected", 0)) for p in puzzles),
        "tenths": tenths(times) if times else {},
        "cpu_tenths": tenths(cpu) if cpu else {},
        "wall_s": manifest.get("timings", {}).get("wall_s"),
        "pattern_space": manifest.get("patterns", {}).get("space"),
        "recurring_lengths": sorted(manifest.get("repeats", {}).get("recurring_lengths", {})),
    }


def shared(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """Fills and grids two packs have in common."""
    fills = {"/".join(p["rows"]) for p in a} & {"/".join(p["rows"]) for p in b}
    grids = {grid_key(p) for p in a} & {grid_key(p) for p in b}
    return len(fills), len(grids)


def build(name: str, out: Path, workers: int, exports: bool, seed: int | None = None) -> tuple[float, Path]:
    spec = CrosswordPackSpec(**{**CASES[name], **({} if seed is None else {"seed": seed})})
    target = out / label(name, seed)
    start = time.perf_counter()
    build_pack(spec, target, workers=workers, command=f"pack_scale {name}", exports=exports)
    return time.perf_counter() - start, target


def label(name: str, seed: int | None) -> str:
    return name if seed is None else f"{name}-seed-{seed}"


def print_spread(results: Mapping[str, dict[str, Any]], names: Sequence[str], seeds: Sequence[int]) -> None:
    """Per case built with several seeds: the slowest pack's wall time against the fastest's, and
    the worst last / first hundred ratio (the regression check that the cost stays flat on every seed)."""
    print("\n| pack | seeds | wall s, fastest → slowest (ratio) | last / first hundred median, worst |")
    print("|---|---|---|---:|")
    for name in names:
        runs = [results[label(name, seed)] for seed in seeds]
        walls = sorted(r["wall_s"] for r in runs)
        ratios = {kind: [t["last hundred"][0] / t["first hundred"][0] for r in runs if (t := r.get(key))]
                  for kind, key in (("wall", "tenths"), ("CPU", "cpu_tenths"))}
        worst = ", ".join(f"{max(v):.2f} ({kind})" for kind, v in ratios.items() if v)
        print(f"| {name} | {', '.join(map(str, seeds))} | {walls[0]} → {walls[-1]} ({walls[-1] / walls[0]:.2f}) | "
              f"{worst} |")


def print_packs(results: Mapping[str, dict[str, Any]]) -> None:
    print("| pack | puzzles | wall s | puzzles/min | redone | distinct fills | distinct grids (space) | "
          "answers: distinct / repeated / long repeated | 3-letter | seam lights min | mean score | "
          "polish before → after |")
    print("|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---|")
    for name, r in results.items():
        space = r["pattern_space"] or {}
        size = f"{space.get('estimate', '?')}{'' if space.get('counted_exactly') else ' est.'}" if space else "-"
        polish = f"{r['polish'][0]:.1f} → {r['polish'][1]:.1f}" if r["polish"] else "-"
        rate = f"{60 * r['puzzles'] / r['wall_s']:.0f}" if r.get("wall_s") else "-"
        print(f"| {name} | {r['puzzles']} | {r['wall_s'] or '-'} | {rate} | {r['redone']} | {r['distinct_fills']} | "
              f"{r['distinct_grids']} ({size}) | {r['distinct_answers']} / {r['repeated_answers']} / "
              f"{r['long_repeated']} | {r['three_letter_share']:.1%} | {r['seam_lights_min']} | "
              f"{r['mean_score']:.1f} | {polish} |")


def print_tenths(results: Mapping[str, dict[str, Any]]) -> None:
    """Job seconds along each pack: wall time, then the job's CPU time (which a busy machine moves far
    less: on a machine whose load doubles during a run the wall-time ratio says more about the load)."""
    print("\n| pack | job time | first tenth median / mean s | middle tenth | last tenth | first hundred | "
          "last hundred | last / first hundred (median, mean) |")
    print("|---|---|---|---|---|---|---|---:|")
    for name, r in results.items():
        for kind, key in (("wall", "tenths"), ("CPU", "cpu_tenths")):
            t = r.get(key)
            if not t:
                continue
            cells = [f"{t[k][0]:.3f} / {t[k][1]:.3f}" for k in ("first", "middle", "last", "first hundred",
                                                                 "last hundred")]
            first, last = t["first hundred"], t["last hundred"]
            print(f"| {name} | {kind} | {' | '.join(cells)} | {last[0] / first[0]:.2f}, {last[1] / first[1]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="packs to build (default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="keep the packs here (default: a temporary directory)")
    parser.add_argument("--exports", action="store_true", help="write the export files too")
    parser.add_argument("--seed", type=int, action="append", dest="seeds",
                        help="build each case with this seed instead of its own (repeat for several: the "
                             "table then also gives the spread between seeds)")
    parser.add_argument("--analyze", type=Path, help="only read this pack and print its figures")
    parser.add_argument("--against", type=Path, help="with --analyze: count what this other pack shares with it")
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    if args.analyze:
        puzzles, manifest = read_pack(args.analyze)
        result = {args.analyze.name: analyze(puzzles, manifest)}
        print_packs(result)
        print_tenths(result)
        if args.against:
            fills, grids = shared(puzzles, read_pack(args.against)[0])
            print(f"\n{args.analyze.name} and {args.against.name} share {fills} fills and {grids} grids")
        return
    names = args.case or list(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        results, packs = {}, {}
        for name in names:
            for seed in args.seeds or [None]:
                wall, target = build(name, out, args.workers, args.exports, seed)
                packs[target.name] = read_pack(target)
                results[target.name] = {**analyze(*packs[target.name]), "wall_s": round(wall, 1)}
                print(f"built {target.name} in {wall:.1f} s", flush=True)
        print()
        print_packs(results)
        print_tenths(results)
        if args.seeds and len(args.seeds) > 1:
            print_spread(results, names, args.seeds)
        for a, b in PAIRS:
            if a in packs and b in packs:
                fills, grids = shared(packs[a][0], packs[b][0])
                print(f"\n{a} and {b} share {fills} fills and {grids} grids")
        if args.out:
            (args.out / "pack-scale.json").write_text(json.dumps(results, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
