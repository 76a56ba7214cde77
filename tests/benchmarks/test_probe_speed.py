"""The probe-speed benchmark runs and checks that both searches agree."""

from __future__ import annotations

import pytest

from mobius.benchmarks import probe_speed


def test_the_probe_benchmark_prints_both_times_for_every_probe(capsys: pytest.CaptureFixture[str]) -> None:
    probe_speed.main(["--budget", "40", "--repeats", "1"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and line[2] in "ABC"]
    assert len(rows) == len(probe_speed.GRIDS) * len(probe_speed.THRESHOLDS)
    assert "median Python / compiled" in out
