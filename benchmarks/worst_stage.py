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

With `--split N`, each puzzle is raised once with N backtracks, and where
its optimum is proven, a search at the optimum + 1 (a fresh one, the
optimal fill's answers tried first) proves it again: the table then gives,
per budget, the optima the stage proves against those whose proof alone
fits, i.e. what finding the optimum costs the proofs.

    python -m mobius.benchmarks.worst_stage DIR [DIR ...] [--budget N ...] [--split N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.generators.crossword.pack import CrosswordPackSpec, fill_of
from mobius.generators.crossword.plan import pattern_of
from mobius.generators.crossword.worst_answer import Probe, raise_worst


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


@dataclass(frozen=True)
class Split:
    """One puzzle raised with a large budget: the stage's backtracks to its proof, and a proof's alone."""

    optimal: bool
    stage: int  # backtracks of the whole stage (finding the optimum and proving it)
    proof: int  # backtracks of a fresh search at the optimum + 1; 0 if not proven


def split(problem: FillProblem, fill: Fill, budget: int) -> Split:
    """`raise_worst` within `budget`; if it proves the optimum, the proof made again by a fresh search."""
    raised = raise_worst(problem, fill, budget=budget)
    if not raised.optimal:
        return Split(False, raised.backtracks, 0)
    status, _, proof = Probe(problem, raised.score + 1).run(budget, raised.fill)
    assert status == "UNSAT", status
    return Split(True, raised.backtracks, proof)


def print_splits(splits: list[Split], budgets: list[int]) -> None:
    print("| budget | proven by the stage | proof alone fits | median stage / proof backtracks |")
    print("|---:|---:|---:|---:|")
    proven = [s for s in splits if s.optimal]
    medians = (f"{statistics.median(s.stage for s in proven):,.0f} / {statistics.median(s.proof for s in proven):,.0f}"
               if proven else "–")
    for budget in budgets:
        print(f"| {budget:,} | {sum(s.stage <= budget for s in proven)}/{len(splits)} | "
              f"{sum(s.proof <= budget for s in proven)}/{len(splits)} | {medians} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packs", nargs="+", type=Path, help="pack directories")
    parser.add_argument("--budget", type=int, action="append", help="backtracks per puzzle (repeatable)")
    parser.add_argument("--split", type=int, metavar="N",
                        help="raise once with N backtracks and set the proof's cost against the climb's")
    args = parser.parse_args(argv)
    cases = [case for directory in args.packs for case in pack_problems(directory)]
    if args.split is not None:
        print_splits([split(problem, fill, args.split) for problem, fill in cases], args.budget or [6000])
        return
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
