"""Choco short of memory, through the real CLI: exit 4 and one line saying so, for both families.

GraalVM cannot reserve its heap under an address-space limit, so a limit of
4 GB (far above what the project itself needs to start) makes every Choco
child die at start-up. Leaves out the search running out of memory later,
which takes minutes to reach.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from mobius.cpmodel.choco import choco_refusal

ROOT = Path(__file__).parents[2]
ADDRESS_SPACE = 4_000_000_000
EXIT_INTERNAL = 4


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@pytest.mark.skipif(choco_refusal() is not None, reason="pychoco is not installed")
@pytest.mark.parametrize("args", [
    ("slider", "solve", "ring", "--start", "1 2 3 4 5 6 7 0 8", "--solver", "choco"),
    ("crossword", "fill", str(ROOT / "tests" / "crossword" / "fixtures" / "mobius-5x3.qxw"), "--solver", "choco"),
], ids=["slider", "crossword"])
def test_choco_out_of_memory_is_one_line_and_exit_4(args: tuple[str, ...]) -> None:
    run = subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True, timeout=120,
                         preexec_fn=limited)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == EXIT_INTERNAL, run.stderr
    assert len(lines) == 1 and "Choco ran out of memory" in lines[0], run.stderr
    assert "Traceback" not in run.stderr
