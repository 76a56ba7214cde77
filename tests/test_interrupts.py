"""Signals from outside end a run cleanly: `mobius` started as a real process
(fill with every solver, `slider prepare`, packs), then SIGINT to its process
group (as a terminal sends Ctrl-C), SIGTERM or SIGKILL to it at a moment when
its children run. Two seconds after it exits no process of its tree is
alive; SIGINT and SIGTERM give exit code 130 and one line on stderr, kill -9
not a word (not even from multiprocessing's resource tracker); never a
traceback. Also: a Dask scheduler address whose peer is not Dask is one line
and exit 2, not a hang or a traceback.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[1]
# A grid no solver here fills in the time the tests wait, with a set-up of a few seconds.
HARD_GRID = ROOT / "benchmarks" / "data" / "crossword" / "vanbeek" / "15.02.txt"
FILL = ("crossword", "fill", str(HARD_GRID), "--dict", "words", "--no-clues", "--time-limit", "120")
PACK = ("pack", "crossword", "--count", "60", "--width", "9", "--height", "5", "--workers", "2")
# Bounds for a loaded 2-core machine; reaching one means the run hung.
START_TIMEOUT_S = 90
EXIT_TIMEOUT_S = 30
# How long after the parent exits its tree must be gone (the promise tested).
SETTLE_S = 2.0
POLL_S = 0.05
# Lines a pack prints about its plan before any interruption.
PLAN_NOTE = "note: "


@dataclass
class Ending:
    code: int
    stderr: str
    survivors: list[str]  # "pid name" of processes of the tree still alive SETTLE_S after the exit

    @property
    def said(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if not line.startswith(PLAN_NOTE)]


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _watch(root: psutil.Process, tree: dict[int, psutil.Process]) -> list[psutil.Process]:
    """Add the live descendants of `root` to `tree`; return them."""
    try:
        found = root.children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    tree.update((p.pid, p) for p in found)
    return found


def interrupt(args: tuple[str, ...], signum: int, ready: Callable[[list[psutil.Process]], bool],
              env: dict[str, str], after: float = 0.3) -> Ending:
    """Run `mobius ARGS`, wait until `ready(descendants)` (then `after` s more), send `signum`, watch the end."""
    proc = subprocess.Popen([sys.executable, "-m", "mobius", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)
    root = psutil.Process(proc.pid)
    tree: dict[int, psutil.Process] = {}
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not ready(_watch(root, tree)):
            assert proc.poll() is None, f"the run ended before the moment: {proc.communicate()[1]}"
            assert time.monotonic() < deadline, "the moment never came"
            time.sleep(POLL_S)
        time.sleep(after)
        _watch(root, tree)
        if signum == signal.SIGINT:  # a terminal's Ctrl-C reaches the whole foreground group
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signum)
        deadline = time.monotonic() + EXIT_TIMEOUT_S
        while proc.poll() is None and time.monotonic() < deadline:
            _watch(root, tree)
            time.sleep(POLL_S)
        assert proc.poll() is not None, f"no exit {EXIT_TIMEOUT_S} s after {signal.Signals(signum).name}"
        time.sleep(SETTLE_S)
        survivors = [p for p in tree.values() if _alive(p)]
        # Whatever still holds the stderr pipe is a survivor, reported above: do not wait for it.
        stderr = proc.stderr.read() if not survivors else ""  # type: ignore[union-attr]
        return Ending(proc.returncode, stderr, [f"{p.pid} {p.name()}" for p in survivors])
    finally:
        for process in [root, *tree.values()]:
            if _alive(process):
                process.kill()
        proc.wait()


def assert_clean(ending: Ending, signum: int) -> None:
    assert not ending.survivors, f"alive {SETTLE_S} s after the exit: {ending.survivors}"
    assert "Traceback" not in ending.stderr, ending.stderr
    if signum == signal.SIGKILL:
        assert ending.code == -signal.SIGKILL
        assert ending.stderr == "", ending.stderr  # the resource tracker says nothing either
    else:
        assert ending.code == 130, ending.stderr
        assert len(ending.said) == 1, ending.stderr
        assert f"interrupted ({signal.Signals(signum).name})" in ending.said[0], ending.stderr


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The worktree's code first, and a private table cache."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "XDG_CACHE_HOME": str(tmp_path / "cache")}


def children(count: int) -> Callable[[list[psutil.Process]], bool]:
    return lambda found: len(found) >= count


def named(name: str) -> Callable[[list[psutil.Process]], bool]:
    def ready(found: list[psutil.Process]) -> bool:
        try:
            return any(p.name() == name for p in found)
        except psutil.NoSuchProcess:
            return False
    return ready


def started(seconds: float) -> Callable[[list[psutil.Process]], bool]:
    began = time.monotonic()
    return lambda found: time.monotonic() - began >= seconds


# (solver, the moment its child runs, signal): every solver once, every signal more than once;
# gecode's solver is a grandchild in a process group of its own.
FILL_CASES = [
    ("reference", started(3.0), signal.SIGTERM),
    ("cpsat", children(1), signal.SIGINT),
    ("gecode", named("fzn-gecode"), signal.SIGKILL),
    ("gecode", named("fzn-gecode"), signal.SIGINT),
    ("choco", children(1), signal.SIGINT),
    ("sat", children(1), signal.SIGKILL),
    ("qxw", named("qxw"), signal.SIGTERM),
]


@pytest.mark.slow
@pytest.mark.parametrize("solver,ready,signum", FILL_CASES,
                         ids=[f"{s}-{signal.Signals(n).name}" for s, _, n in FILL_CASES])
def test_fill_ends_with_its_solver(solver: str, ready: Callable[[list[psutil.Process]], bool], signum: int,
                                   env: dict[str, str]) -> None:
    if solver == "gecode" and shutil.which("minizinc") is None or solver == "qxw" and not (
            shutil.which("qxw") or shutil.which("/usr/games/qxw")):
        pytest.skip(f"{solver} is not installed")
    assert_clean(interrupt((*FILL, "--solver", solver), signum, ready, env), signum)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_prepare_ends_at_once(signum: int, env: dict[str, str]) -> None:
    assert_clean(interrupt(("slider", "prepare", "grid:4x4"), signum, started(2.0), env), signum)


@pytest.mark.slow
@pytest.mark.parametrize("signum,ready", [
    (signal.SIGTERM, started(0.2)),  # while Python starts and the CLI loads
    (signal.SIGTERM, children(3)),  # two workers and the resource tracker: they are killed mid-job
    (signal.SIGKILL, children(3)),
], ids=["SIGTERM-at-start", "SIGTERM-workers", "SIGKILL-workers"])
def test_a_pack_ends_with_its_workers(signum: int, ready: Callable[[list[psutil.Process]], bool],
                                      env: dict[str, str], tmp_path: Path) -> None:
    ending = interrupt((*PACK, "--out", str(tmp_path / "p")), signum, ready, env, after=1.0)
    assert_clean(ending, signum)


# --- a Dask scheduler address whose peer is not Dask -------------------------------

class _Refusing(BaseHTTPRequestHandler):
    """An HTTP server's answer to whatever Dask sends: 400 Bad Request, at once."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def silent_peer() -> Iterator[str]:
    """A listening socket on loopback that accepts connections (the kernel does) and never says a word."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"


@contextmanager
def http_peer() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
@pytest.mark.parametrize("peer", [silent_peer, http_peer], ids=["silent", "http"])
def test_a_peer_that_is_not_dask_is_one_line(peer: Callable[[], Any], env: dict[str, str], tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    with peer() as address:
        done = subprocess.run([sys.executable, "-m", "mobius", "pack", "slider", "--count", "2", "--out",
                               str(tmp_path / "p"), "--executor", "dask", "--scheduler", address],
                              capture_output=True, text=True, env=env, timeout=START_TIMEOUT_S)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"cannot reach the Dask scheduler '{address}'" in done.stderr
    assert not (tmp_path / "p").exists()
