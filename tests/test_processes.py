"""`mobius.cpmodel.processes`: a killed child takes everything it started along,
children die with a parent killed by SIGKILL, and a program run to a deadline
is killed with its tree when the deadline comes (real processes, a second each)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from mobius.cpmodel.deadline import call_before, deadline_of
from mobius.cpmodel.processes import ended, kill_tree, run_before, spawn

ROOT = Path(__file__).resolve().parents[1]
SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]
# A child that starts a grandchild in a process group of its own (as MiniZinc starts its solver),
# prints the grandchild's pid, then sleeps or exits.
PARENT_OF_A_LONER = ("import subprocess, sys, time; "
                     "g = subprocess.Popen({sleeper!r}, process_group=0); print(g.pid, flush=True); {then}")
WAIT_S = 10.0
POLL_S = 0.02


def _gone(pid: int, within: float = WAIT_S) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(POLL_S)
    return False


def _start(then: str) -> tuple[subprocess.Popen[str], int]:
    proc = spawn([sys.executable, "-c", PARENT_OF_A_LONER.format(sleeper=SLEEPER, then=then)],
                 stdout=subprocess.PIPE, text=True)
    return proc, int(proc.stdout.readline())  # type: ignore[union-attr]


def test_kill_tree_takes_a_grandchild_in_a_group_of_its_own() -> None:
    proc, grandchild = _start("time.sleep(60)")
    try:
        assert os.getpgid(grandchild) != os.getpgid(proc.pid)  # killpg of the child's group would miss it
        kill_tree(proc.pid)
        assert proc.wait(timeout=WAIT_S) == -signal.SIGKILL
        assert _gone(grandchild)
    finally:
        kill_tree(proc.pid, reaped=proc.returncode is not None)


def test_ended_finds_what_an_exited_child_left_in_its_session() -> None:
    proc, grandchild = _start("sys.exit(0)")
    with ended(proc):
        assert proc.wait(timeout=WAIT_S) == 0
        assert not _gone(grandchild, within=0.2), "the grandchild outlives its parent until the session is killed"
    assert _gone(grandchild)


def test_a_spawned_program_dies_with_a_parent_killed_by_sigkill() -> None:
    program = ("import sys; sys.path.insert(0, {root!r}); from mobius.cpmodel.processes import spawn; "
               "child = spawn({sleeper!r}); print(child.pid, flush=True); import time; time.sleep(60)")
    parent = subprocess.Popen([sys.executable, "-c", program.format(root=str(ROOT), sleeper=SLEEPER)],
                              stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())  # type: ignore[union-attr]
        assert psutil.Process(child).status() != psutil.STATUS_ZOMBIE
        parent.kill()
        parent.wait()
        assert _gone(child)
    finally:
        if parent.poll() is None:
            parent.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_forked_child_dies_with_a_parent_killed_by_sigkill() -> None:
    program = ("import sys, time; sys.path.insert(0, {root!r}); from mobius.cpmodel.deadline import call_before; "
               "call_before(lambda: time.sleep(60), float('inf'))")
    parent = subprocess.Popen([sys.executable, "-c", program.format(root=str(ROOT))])
    try:
        deadline = time.monotonic() + WAIT_S
        children: list[psutil.Process] = []
        while not children and time.monotonic() < deadline:
            children = psutil.Process(parent.pid).children()
            time.sleep(POLL_S)
        assert children
        parent.kill()
        parent.wait()
        assert _gone(children[0].pid)
    finally:
        if parent.poll() is None:
            parent.kill()


def test_run_before_kills_the_program_and_its_tree_at_the_deadline(tmp_path: Path) -> None:
    # The grandchild, in a group of its own, writes its pid where the test can read it.
    pid_file = tmp_path / "grandchild"
    program = ("import subprocess, sys, time; g = subprocess.Popen({sleeper!r}, process_group=0); "
               "open({pid_file!r}, 'w').write(str(g.pid)); time.sleep(60)")
    started = time.monotonic()
    finished = run_before([sys.executable, "-c", program.format(sleeper=SLEEPER, pid_file=str(pid_file))],
                          deadline_of(3.0))
    assert finished is None
    assert time.monotonic() - started < WAIT_S  # ended at the deadline, not when the program would have
    assert _gone(int(pid_file.read_text()))


def test_run_before_hands_over_the_input_and_returns_what_the_program_printed() -> None:
    program = "import sys; text = sys.stdin.read(); print(len(text)); print('said', file=sys.stderr); sys.exit(4)"
    finished = run_before([sys.executable, "-c", program], deadline_of(WAIT_S * 6), feed="x" * 1_000_000)
    assert finished is not None
    assert (finished.returncode, finished.out.strip(), finished.err.strip()) == (4, "1000000", "said")


def test_children_killed_at_a_deadline_are_reaped_by_later_calls() -> None:
    # A kill at a deadline does not wait for the child to be torn down; the next call reaps it.
    for _ in range(3):
        assert call_before(lambda: time.sleep(60), deadline_of(0.2)) is None
    time.sleep(1.0)  # every killed child has ended by now
    assert call_before(lambda: 7, deadline_of(WAIT_S * 6)) == 7
    zombies = [child for child in psutil.Process().children() if child.status() == psutil.STATUS_ZOMBIE]
    assert len(zombies) <= 1  # at most the last call's own child, which was ending as it was reaped
