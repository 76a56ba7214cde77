"""The worst-answer stage alone, on the fills of a finished pack.

Covers: `raise_worst` (`generators/crossword/worst_answer.py`) run on every
puzzle of one or more pack directories, each puzzle's problem its grid
filled from the pack's word list with the other puzzles' answers of its
pack excluded (as a pack's last puzzle sees them), at each budget given:
how many optima are proven, the median and mean worst answer, the
backtracks and the seconds, in one process. Run it on packs made with
`--worst 0 --polish 0` to start from the fills the stage gets, and with two
versions of the code to compare probe orders on the same fills. Leaves out
the rest of a pack's work (fills, clashes, polish: `mobius pack crossword
--worst N` measures those) and packs of other rules than the defaults
(the spec is rebuilt from the first puzzle's size and surface).

    python -m mobius.benchmarks.worst_stage DIR [DIR ...] [--budget N ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.generators.crossword.pack import CrosswordPackSpec, fill_of
from mobius.generators.crossword.plan import pattern_of
from mobius.generators.crossword.worst_answer import raise_worst


def pack_problems(directory: Path) -> list[tuple[FillProblem, Fill]]:
    """Each puzzle of the pack in `directory` as (problem, fill): the other puzzles' answers excluded."""
    puzzles = [json.loads(p.read_text()) for p in sorted((directory / "puzzles").glob("[0-9]*.json"))]
    if not puzzles:
        raise SystemExit(f"{directory}: no puzzles/NNNN.json (expected a crossword pack directory)")
    first = puzzles[0]
    spec = CrosswordPackSpec(count=len(puzzles), width=first["width"], height=first["height"],
                             surface=first["surface"])
    words = spec.words()
    cases = []
    for puzzle in puzzles:
        others = frozenset(e["answer"] for other in puzzles if other is not puzzle for e in other["entries"])
        cases.append((FillProblem(pattern_of(puzzle), words, spec.rules(others)), fill_of(puzzle["rows"])))
    return cases


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packs", nargs="+", type=Path, help="pack directories")
    parser.add_argument("--budget", type=int, action="append", help="backtracks per puzzle (repeatable)")
    args = parser.parse_args(argv)
    cases = [case for directory in args.packs for case in pack_problems(directory)]
    print("| budget | proven | median worst | mean worst | backtracks | s |")
    print("|---:|---:|---:|---:|---:|---:|")
    for budget in args.budget or [6000]:
        started = time.perf_counter()
        raised = [raise_worst(problem, fill, budget=budget) for problem, fill in cases]
        seconds = time.perf_counter() - started
        scores = [r.score for r in raised]
        print(f"| {budget:,} | {sum(r.optimal for r in raised)}/{len(raised)} | {statistics.median(scores):g} | "
              f"{statistics.mean(scores):.2f} | {sum(r.backtracks for r in raised):,} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
