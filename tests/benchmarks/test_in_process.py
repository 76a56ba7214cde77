"""benchmarks/in_process.py: every grid solved in one process with its fill verified, and the table counting a
rejected fill as undecided and taking ratios only over the grids both solvers decided."""

from __future__ import annotations

from mobius.benchmarks.in_process import run_child, table


def row(instance: str, seconds: float, status: str = "SOLVED", rejected: str = "") -> dict[str, object]:
    return {"instance": instance, "status": status, "seconds": seconds, "rejected": rejected}


def test_a_rejected_fill_decides_nothing_and_ratios_are_over_grids_both_decided() -> None:
    results = {"ours": [row("a", 1.0), row("b", 3.0), row("c", 5.0)],
               "peer": [row("a", 2.0), row("b", 1.0, rejected="word 'GEN' is used 2 times"),
                        row("c", 20.0, status="TIMEOUT")]}
    lines = table(results, "peer").splitlines()
    assert lines[2] == "| ours | 3/3 | 0 | 1.000 | 0.50 |"  # only grid a: both decided
    assert lines[3] == "| peer | 1/3 | 1 | 2.000 | 1.00 |"


def test_each_grid_is_solved_in_turn_and_verified() -> None:
    rows = run_child("reference", ["05.01", "05.02"], 30.0)
    assert [r["instance"] for r in rows] == ["05.01", "05.02"]
    assert all(r["status"] == "SOLVED" and not r["rejected"] and r["seconds"] > 0 for r in rows)
