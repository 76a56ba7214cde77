"""`python -m mobius.benchmarks.faults [--family NAME ...] [--cases N] [--seed S]`: run the fault families, print tables.

Exit code 1 when any case ended wrongly (its rows are printed with their detail).
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

from mobius.benchmarks.faults import discover, run_family


def main() -> int:
    families = discover()
    parser = argparse.ArgumentParser(description="Fault injection from outside, per family.")
    parser.add_argument("--family", action="append", choices=sorted(families),
                        help="a family to run (repeatable; default: all)")
    parser.add_argument("--cases", type=int, default=50, help="faults per family (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random moment and offset")
    args = parser.parse_args()
    wrong = 0
    with tempfile.TemporaryDirectory(prefix="mobius-faults-") as tmp:
        for name in args.family or sorted(families):
            outcomes = run_family(families[name], args.cases, args.seed, Path(tmp))
            print(f"\n## {name}: {families[name].DESCRIPTION}\n")
            print("| case | runs | right | exit codes |")
            print("|---|---:|---:|---|")
            by_case: dict[str, list] = collections.defaultdict(list)
            for outcome in outcomes:
                by_case[outcome.case].append(outcome)
            for case, rows in sorted(by_case.items()):
                codes = collections.Counter(row.exit_code for row in rows)
                shown = ", ".join(f"{code}×{count}" for code, count in sorted(codes.items(), key=str))
                print(f"| {case} | {len(rows)} | {sum(row.ok for row in rows)} | {shown} |")
            for outcome in outcomes:
                if not outcome.ok:
                    wrong += 1
                    print(f"WRONG {outcome.family}/{outcome.case} exit {outcome.exit_code}: {outcome.detail}",
                          file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
