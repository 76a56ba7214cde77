"""Crossword fillers as a Python user meets them: one process per solver, every grid in turn, first call included.

Covers: the van Beek grids of `xw-vanbeek` (names filtered like `mobius bench --instances`) filled by each
solver spec in a fresh Python process of its own, which loads the word list once and then solves the grids
one after another under the time limit, the clock around each whole `solve` call — so the first call's
start-up (numba's kernels loaded from their cache, blacksquare's word list built) counts, as it does for a
user. Every fill is checked by the independent verifier (outside the clock); a fill it rejects counts as
undecided. The table gives, per solver, the grids decided, the median seconds over the grids it and the
baseline both decided, and the median of the per-grid ratios to the baseline. `mobius bench` runs each
solve in a process of its own with start-up excluded instead (`harness.py`).

    python -m mobius.benchmarks.in_process --solvers 'reference;blacksquare' [--instances '15.*,21.*']
        [--time-limit 20] [--baseline blacksquare] [--out FILE.json]

Leaves out: agreement and known answers (`mobius bench` checks them), generated grids, and the slider family.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from mobius.benchmarks.report import median_ratio
from mobius.benchmarks.suites import FAMILIES, CROSSWORD, vanbeek_instances
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.solver import Status, get_solver


def run_child(spec: str, names: Sequence[str], time_limit: float) -> list[dict[str, Any]]:
    """In this process: each grid of `names` solved by `spec` in turn, timed around the whole call."""
    family = FAMILIES[CROSSWORD]
    instances = vanbeek_instances("xw-vanbeek", names)
    problems = [(inst.name, family.build(inst.params)) for inst in instances]  # the list loaded once, untimed
    solver = get_solver(CROSSWORD, spec)
    rows = []
    for name, problem in problems:
        started = time.perf_counter()
        result = solver.solve(problem, time_limit=time_limit)
        seconds = time.perf_counter() - started
        status = result.status
        problems_found = family.verify(problem, result.solution) if status is Status.SOLVED else []
        rows.append({"instance": name, "status": status.value, "seconds": seconds,
                     "rejected": "; ".join(problems_found)})
    return rows


def measure(specs: Sequence[str], names: Sequence[str], time_limit: float) -> dict[str, list[dict[str, Any]]]:
    """Each spec's rows, from a fresh Python process of its own."""
    results = {}
    for spec in specs:
        out = subprocess.run([sys.executable, "-m", "mobius.benchmarks.in_process", "--child", spec,
                              "--names", ",".join(names), "--time-limit", str(time_limit)],
                             check=True, capture_output=True, text=True)
        results[spec] = json.loads(out.stdout)
    return results


def seconds_of(rows: list[dict[str, Any]]) -> dict[str, float]:
    """instance -> seconds, inf where the solver decided nothing (an answer the verifier rejects included)."""
    return {row["instance"]: row["seconds"] if row["status"] in (Status.SOLVED.value, Status.UNSAT.value)
            and not row["rejected"] else math.inf for row in rows}


def table(results: dict[str, list[dict[str, Any]]], baseline: str) -> str:
    """The markdown table: decided, median seconds and median ratio to `baseline` on the grids both decided."""
    base = seconds_of(results[baseline])
    lines = ["| solver | decided | rejected fills | median s (both decided) | median ratio to " + baseline + " |",
             "|---|---:|---:|---:|---:|"]
    for spec, rows in results.items():
        times = seconds_of(rows)
        both = [t for i, t in times.items() if math.isfinite(t) and math.isfinite(base[i])]
        median = statistics.median(both) if both else math.nan
        ratio, _ = median_ratio(times, base)
        rejected = sum(1 for row in rows if row["rejected"])
        decided = sum(map(math.isfinite, times.values()))
        lines.append(f"| {spec} | {decided}/{len(rows)} | {rejected} | {median:.3f} | "
                     f"{math.nan if ratio is None else ratio:.2f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvers", default="reference;blacksquare", help="solver specs separated by ';'")
    parser.add_argument("--instances", default="15.*,21.*", help="shell-style patterns of van Beek names")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--baseline", help="the spec ratios are to (default: the last solver)")
    parser.add_argument("--out", help="a JSON file for every row")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--names", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run_child(args.child, args.names.split(","), args.time_limit)))
        return
    patterns = args.instances.split(",")
    names = [inst.name for inst in vanbeek_instances("xw-vanbeek")
             if any(fnmatch.fnmatchcase(inst.name, p) for p in patterns)]
    specs = [s for s in args.solvers.split(";") if s]
    results = measure(specs, names, args.time_limit)
    if args.out:
        write_atomic(Path(args.out), (json.dumps(results, indent=1) + "\n").encode())
    print(table(results, args.baseline or specs[-1]))


if __name__ == "__main__":
    main()
