"""Signals from outside end a run cleanly: `mobius` started as a real process
(fill with every solver, `slider prepare`, packs), then SIGINT to its process
group (as a terminal sends Ctrl-C), SIGTERM or SIGKILL to it at a moment when
its children run. Two seconds after it exits no process of its tree is
alive; SIGINT and SIGTERM give exit code 130 and one line on stderr, kill -9
not a word (not even from multiprocessing's resource tracker); never a
traceback; a Qxw fill killed with kill -9 leaves nothing in the temporary
folder. Also: a Dask scheduler address whose peer is not Dask is one line
and exit 2, not a hang or a traceback.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
import pytest

from mobius.benchmarks.faults.signals import (
    PACK,
    PREPARE,
    Ending,
    Moment,
    after_seconds,
    broken_promises,
    child_env,
    fill_args,
    run_and_signal,
)

# A run that takes longer has hung (the promise: one line within about ten seconds of connecting).
DASK_RUN_TIMEOUT_S = 90

# Where a moment is a number of children, the signal comes this long after.
SETTLE_IN_S = 0.3


def assert_clean(ending: Ending, signum: int) -> None:
    assert ending.signalled, f"the run ended before its moment: {ending.stderr}"
    assert not broken_promises(ending, signum), ending
    if signum == signal.SIGKILL:
        # The pack's plan notes come before the kill; after it, nothing (not even the resource tracker).
        assert ending.said == [], ending.stderr
    else:
        assert ending.code == 130, ending.stderr
        assert len(ending.said) == 1, ending.stderr
        assert f"interrupted ({signal.Signals(signum).name})" in ending.said[0], ending.stderr


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return child_env(tmp_path / "cache")


def children(count: int) -> Moment:
    return lambda found: len(found) >= count


def named(name: str) -> Moment:
    def ready(found: list[psutil.Process]) -> bool:
        try:
            return any(p.name() == name for p in found)
        except psutil.NoSuchProcess:
            return False
    return ready


# (solver, the moment its child runs, signal): every solver once, every signal more than once;
# gecode's solver is a grandchild in a process group of its own.
FILL_CASES = [
    ("reference", after_seconds(3.0), signal.SIGTERM),
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
def test_fill_ends_with_its_solver(solver: str, ready: Moment, signum: int, env: dict[str, str]) -> None:
    if solver == "gecode" and shutil.which("minizinc") is None or solver == "qxw" and not (
            shutil.which("qxw") or shutil.which("/usr/games/qxw")):
        pytest.skip(f"{solver} is not installed")
    assert_clean(run_and_signal(fill_args(solver), signum, ready, env, after=SETTLE_IN_S), signum)


@pytest.mark.slow
def test_a_qxw_fill_killed_with_kill_9_leaves_nothing_in_the_temporary_folder(env: dict[str, str],
                                                                              tmp_path: Path) -> None:
    if not (shutil.which("qxw") or shutil.which("/usr/games/qxw")):
        pytest.skip("qxw is not installed")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    ending = run_and_signal(fill_args("qxw"), signal.SIGKILL, named("qxw"), {**env, "TMPDIR": str(scratch)},
                            after=SETTLE_IN_S)
    assert_clean(ending, signal.SIGKILL)
    assert list(scratch.iterdir()) == []  # its deck and word list had no names to leave behind


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_prepare_ends_at_once(signum: int, env: dict[str, str]) -> None:
    assert_clean(run_and_signal(PREPARE, signum, after_seconds(2.0), env), signum)


@pytest.mark.slow
@pytest.mark.parametrize("signum,ready", [
    (signal.SIGTERM, after_seconds(0.2)),  # while Python starts and the CLI loads
    (signal.SIGTERM, children(3)),  # two workers and the resource tracker: they are killed mid-job
    (signal.SIGKILL, children(3)),
], ids=["SIGTERM-at-start", "SIGTERM-workers", "SIGKILL-workers"])
def test_a_pack_ends_with_its_workers(signum: int, ready: Moment, env: dict[str, str], tmp_path: Path) -> None:
    ending = run_and_signal((*PACK, "--out", str(tmp_path / "p")), signum, ready, env, after=1.0)
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
                              capture_output=True, text=True, env=env, timeout=DASK_RUN_TIMEOUT_S)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"cannot reach the Dask scheduler '{address}'" in done.stderr
    assert not (tmp_path / "p").exists()
