"""Whether the runs of a benchmark agree: per instance, decided runs give one
answer (SOLVED/UNSAT; the optimal length among optimal slider solvers),
match the expected answer where known, and every answer passed the
verifier (`check_agreement`); runs that ended in ERROR, worth a warning
(`errors_of`).

Leaves out: running the solvers and the records' fields (`harness.py`),
tables and plots (`report.py`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mobius.benchmarks.harness import Record
from mobius.cpmodel.solver import Status


@dataclass(frozen=True)
class Disagreement:
    suite: str
    instance: str
    message: str

    def __str__(self) -> str:
        return f"{self.suite}/{self.instance}: {self.message}"


def _who(records: Iterable[Record]) -> str:
    return ", ".join(sorted({r.solver for r in records}))


def _group(records: Sequence[Record], key: Callable[[Record], Any]) -> dict[Any, list[Record]]:
    groups: dict[Any, list[Record]] = defaultdict(list)
    for r in records:
        groups[key(r)].append(r)
    return groups


def check_instance(records: Sequence[Record]) -> list[str]:
    """What is wrong with the runs of one instance (empty: they agree)."""
    problems = [f"{r.solver} (repeat {r.repeat}) gave an answer the verifier rejects: "
                f"{'; '.join(r.verify_errors) or 'no reason given'}"
                for r in records if r.status == Status.SOLVED.value and r.verified is not True]
    decided = [r for r in records if r.decided]
    by_status = _group(decided, lambda r: r.status)
    if len(by_status) > 1:
        problems.append("solvers disagree: "
                        + "; ".join(f"{s} by {_who(rs)}" for s, rs in sorted(by_status.items())))
    expected = records[0].expected
    for status, rs in sorted(by_status.items()):
        if expected is not None and status != expected:
            problems.append(f"expected {expected}, but {_who(rs)} answered {status}")
    optimal = [r for r in decided if r.status == Status.SOLVED.value and r.optimal and r.length is not None]
    lengths = _group(optimal, lambda r: r.length)
    if len(lengths) > 1:
        problems.append("optimal lengths differ: "
                        + "; ".join(f"{n} by {_who(rs)}" for n, rs in sorted(lengths.items())))
    expected_length, max_length = records[0].expected_length, records[0].max_length
    for n, rs in sorted(lengths.items()):
        if expected_length is not None and n != expected_length:
            problems.append(f"expected optimal length {expected_length}, but {_who(rs)} found {n}")
        if max_length is not None and n > max_length:
            problems.append(f"{_who(rs)} claim {n} moves is optimal, but a {max_length}-move solution exists")
    return problems


def check_agreement(records: Iterable[Record]) -> list[Disagreement]:
    groups: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for r in records:
        groups[(r.suite, r.instance)].append(r)
    return [Disagreement(suite, instance, message)
            for (suite, instance), rs in groups.items() for message in check_instance(rs)]


def errors_of(records: Iterable[Record]) -> list[str]:
    """Runs that ended in ERROR: not disagreements, but worth a warning."""
    return [f"{r.suite}/{r.instance} {r.solver} (repeat {r.repeat}): {r.note or 'no detail'}"
            for r in records if r.status == Status.ERROR.value]
