"""Start-up: the CLI loads only what a command uses.

`mobius --help` and the light commands must not pay for the solvers and
plotting; this is checked on `sys.modules` in a fresh interpreter (how fast
that is, is measured in benchmarks/RESULTS.md, not asserted here).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("ortools", "sympy", "matplotlib", "numpy", "networkx", "rich", "jsonschema", "dask",
         "mobius.cpmodel.crossword.propagation", "mobius.cpmodel.crossword.reference", "mobius.cpmodel.crossword.cpsat", "mobius.cpmodel.slider.search", "mobius.benchmarks.harness")

GRID = Path(__file__).resolve().parents[1] / "generators" / "examples" / "mobius-8x4.txt"


def loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_importing_the_cli_loads_no_solver_or_plotting_library() -> None:
    loaded = loaded_after("import mobius.cli")
    assert not [name for name in HEAVY if name in loaded]


def test_help_loads_no_solver_or_plotting_library() -> None:
    loaded = loaded_after("from typer.testing import CliRunner\nfrom mobius.cli import app\n"
                          "assert CliRunner().invoke(app, ['pack', 'crossword', '--help']).exit_code == 0")
    assert not [name for name in HEAVY if name in loaded and name != "rich"]


def test_the_probe_can_fail() -> None:
    assert "numpy" in loaded_after("import numpy")


def test_bench_help_names_every_suite() -> None:
    from mobius.benchmarks.suites import SUITES
    from mobius.bench_cli import SUITE_NAMES

    assert list(SUITE_NAMES) == list(SUITES)


def test_a_qxw_fill_loads_no_benchmark_module() -> None:
    """Qxw is a backend like the others: `crossword fill --solver qxw` reaches it through the registry."""
    loaded = loaded_after("from typer.testing import CliRunner\nfrom mobius.cli import app\n"
                          f"result = CliRunner().invoke(app, ['crossword', 'fill', {str(GRID)!r},"
                          " '--solver', 'qxw', '--time-limit', '60'])\n"
                          "assert 'by qxw' in result.output, result.output")
    assert "mobius.cpmodel.crossword.qxw" in loaded
    assert not [name for name in loaded if name.split(".")[0] == "benchmarks"]
