"""Packs on a real Dask cluster: a `dask scheduler` and two `dask worker`
processes on 127.0.0.1, workers that cannot read the user's files, and a
worker killed mid-pack; the pack still completes, byte-identical to a
`--workers 1` run of the same command. A scheduler killed mid-pack ends the
run in one line that says what is kept and how to go on, and a local
`--resume` completes the pack."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mobius.dictionaries import load
from mobius.generators import executors
from mobius.generators.executors import DaskExecutor, SchedulerLost

distributed = pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.slow

# Small enough to run in seconds, large enough that a worker dies with jobs
# still to run: a torus 7x5 gives distinct fills from a few thousand words.
COUNT = 16
GRID = ("--width", "7", "--height", "5", "--surface", "torus", "--seed", "4")
# The worker is killed once this many puzzles are written (of COUNT).
KILL_AFTER = 3
# Bounds for a loaded 2-core machine; a run that needs more has hung.
START_TIMEOUT_S = 90
PACK_TIMEOUT_S = 300
POLL_S = 0.02
# The manifest records how and how fast a pack was made; these keys differ
# between a cluster run and a local one by design.
RUN_SPECIFIC = ("command", "timings")
# Words the --allow file adds to the custom list.
ALLOWED = ("OKAPI", "ZEBU", "GNU")


@dataclass
class Cluster:
    address: str
    client: Any  # a dask.distributed.Client of the scheduler
    home: Path  # the workers' working directory
    logs: Path
    scheduler: subprocess.Popen[bytes]


def _start(args: list[str], cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    """A process in a session of its own, so that killing its group takes its children too."""
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=cwd, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait(timeout=START_TIMEOUT_S)


def _scheduler_address(path: Path, scheduler: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            pytest.fail(f"the scheduler exited: {log.read_text()[-2000:]}")
        try:
            return json.loads(path.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)  # not written yet, or half-written
    pytest.fail(f"no scheduler address in {START_TIMEOUT_S} s: {log.read_text()[-2000:]}")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A scheduler and two single-threaded workers whose working directory holds none of the test's files."""
    home, logs = tmp_path / "workers", tmp_path / "logs"
    home.mkdir()
    logs.mkdir()
    processes: list[subprocess.Popen[bytes]] = []
    client = None
    try:
        # Port 0 everywhere: the system picks free ports, and the scheduler
        # file says which; the idle and death timeouts end any process a
        # killed test run would leave behind.
        processes.append(_start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                 "--scheduler-file", str(tmp_path / "scheduler.json"), "--idle-timeout", "600"],
                                home, logs / "scheduler.log"))
        address = _scheduler_address(tmp_path / "scheduler.json", processes[0], logs / "scheduler.log")
        for number in (1, 2):
            processes.append(_start(["worker", address, "--nworkers", "1", "--nthreads", "1", "--host", "127.0.0.1",
                                     "--no-dashboard", "--local-directory", str(home / f"scratch{number}"),
                                     "--death-timeout", "60"], home, logs / f"worker{number}.log"))
        client = distributed.Client(address, timeout=START_TIMEOUT_S)
        client.wait_for_workers(2, timeout=START_TIMEOUT_S)
        yield Cluster(address, client, home, logs, processes[0])
    finally:
        if client is not None:
            client.close()
        for process in reversed(processes):
            _end(process)


def _mobius(*args: str) -> list[str]:
    return [sys.executable, "-m", "mobius", *args]


def _run(args: list[str], cwd: Path) -> None:
    done = subprocess.run(_mobius(*args), cwd=cwd, capture_output=True, text=True, timeout=PACK_TIMEOUT_S)
    assert done.returncode == 0, done.stderr


def _pack_files(out: Path) -> dict[str, bytes]:
    """Every file of a pack, the manifest without what records the run itself, the index without the command."""
    files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    manifest = json.loads(files.pop("manifest.json"))
    files["manifest.json"] = json.dumps({k: v for k, v in manifest.items() if k not in RUN_SPECIFIC}).encode()
    files["index.html"] = files["index.html"].replace(manifest["command"].encode(), b"COMMAND")
    return files


def _write_inputs(folder: Path) -> dict[str, Any]:
    """A custom word list (plain, lower-case), a clue for each of its words, a ban and an allow file."""
    common = load("en-small", min_score=60)
    words = [w for length in range(3, 8) for w in common.by_length(length) if w not in ALLOWED]
    banned = words[::97]
    folder.mkdir()
    (folder / "mine.txt").write_text("".join(f"{w.lower()}\n" for w in words))
    clues = {w: f"Custom clue {i}" for i, w in enumerate(words + list(ALLOWED))}
    (folder / "mine-clues.tsv").write_text("".join(f"{w}\t{c}\n" for w, c in clues.items()))
    (folder / "ban.txt").write_text("".join(f"{w}\n" for w in banned))
    (folder / "allow.txt").write_text("".join(f"{w.lower()}\n" for w in ALLOWED))
    return {"words": (set(words) - set(banned)) | set(ALLOWED), "clues": clues}


def _written(out: Path) -> int:
    return len(list((out / "puzzles").glob("[0-9][0-9][0-9][0-9].json")))


def _kill_a_busy_worker(cluster: Cluster) -> str:
    """SIGKILL a worker (and its nanny) that is running a job; returns its address."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        busy = [address for address, keys in cluster.client.processing().items() if keys]
        if busy:
            pid = cluster.client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.killpg(os.getpgid(pid), signal.SIGKILL)
            return busy[0]
        time.sleep(POLL_S)
    pytest.fail("no worker was running a job")


def test_the_workers_cannot_read_the_files_the_pack_names(cluster: Cluster, tmp_path: Path) -> None:
    """The control: what the pack test below relies on the workers not having."""
    _write_inputs(tmp_path / "client")
    assert not (cluster.home / "mine.txt").exists()
    assert set(cluster.client.run(os.path.exists, "mine.txt").values()) == {False}
    with pytest.raises(Exception, match="no such word-list file"):
        cluster.client.submit(load, "mine.txt", pure=False).result(timeout=START_TIMEOUT_S)


def test_a_crossword_pack_survives_a_killed_worker_and_equals_a_local_run(cluster: Cluster, tmp_path: Path) -> None:
    client_dir = tmp_path / "client"
    inputs = _write_inputs(client_dir)
    # Relative paths from the client's directory: they name nothing in the workers' one.
    args = ["pack", "crossword", "--count", str(COUNT), *GRID, "--dict", "mine.txt", "--clues", "mine-clues.tsv",
            "--ban", "ban.txt", "--allow", "allow.txt"]
    out = client_dir / "cluster"
    pack = subprocess.Popen(_mobius(*args, "--out", "cluster", "--executor", "dask", "--scheduler", cluster.address),
                            cwd=client_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + PACK_TIMEOUT_S
        while _written(out) < KILL_AFTER and pack.poll() is None and time.monotonic() < deadline:
            time.sleep(POLL_S)
        assert pack.poll() is None, pack.communicate()[1].decode()
        victim = _kill_a_busy_worker(cluster)
        assert pack.poll() is None and _written(out) < COUNT, "the worker must die mid-pack"
        _, stderr = pack.communicate(timeout=PACK_TIMEOUT_S)
    finally:
        if pack.poll() is None:
            os.killpg(pack.pid, signal.SIGKILL)
            pack.wait()
    assert pack.returncode == 0, stderr.decode()
    assert victim not in cluster.client.scheduler_info()["workers"]
    _run([*args, "--out", "local", "--workers", "1"], client_dir)
    local = _pack_files(client_dir / "local")
    assert _pack_files(out) == local
    assert sum(name.endswith(".svg") for name in local) >= COUNT, "the exports are compared too"
    for number in range(1, COUNT + 1):
        puzzle = json.loads(local[f"puzzles/{number:04d}.json"])
        for entry in puzzle["entries"]:  # the custom list, the ban and the user's clues made it
            assert entry["answer"] in inputs["words"]
            assert entry["clue"] == inputs["clues"][entry["answer"]]


def test_a_slider_pack_ships_its_board_file(cluster: Cluster, tmp_path: Path) -> None:
    client_dir = tmp_path / "client"
    client_dir.mkdir()
    rim = range(1, 7)
    board = {"name": "wheel", "vertices": 7, "edges": [[0, i] for i in rim] + [[i, i % 6 + 1] for i in rim],
             "layout": [[0, 0]] + [[math.cos(i * math.pi / 3), math.sin(i * math.pi / 3)] for i in rim]}
    (client_dir / "wheel.json").write_text(json.dumps(board))
    args = ["pack", "slider", "--count", "6", "--board", "wheel.json", "--depth", "3..8", "--seed", "2"]
    _run([*args, "--out", "cluster", "--executor", "dask", "--scheduler", cluster.address], client_dir)
    _run([*args, "--out", "local", "--workers", "1"], client_dir)
    assert _pack_files(client_dir / "cluster") == _pack_files(client_dir / "local")
    assert json.loads((client_dir / "local" / "puzzles" / "0001.json").read_text())["board"]["name"] == "wheel"


def test_a_scheduler_lost_mid_pack_is_one_line_and_a_local_resume_completes_the_pack(cluster: Cluster,
                                                                                   tmp_path: Path) -> None:
    args = ["pack", "crossword", "--count", "10", *GRID, "--out", str(tmp_path / "pack")]
    pack = subprocess.Popen(_mobius(*args, "--executor", "dask", "--scheduler", cluster.address), cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + PACK_TIMEOUT_S
        while _written(tmp_path / "pack") < 1 and pack.poll() is None and time.monotonic() < deadline:
            time.sleep(POLL_S)
        assert pack.poll() is None, pack.communicate()[1]
        os.killpg(cluster.scheduler.pid, signal.SIGKILL)
        _, stderr = pack.communicate(timeout=PACK_TIMEOUT_S)
    finally:
        if pack.poll() is None:
            os.killpg(pack.pid, signal.SIGKILL)
            pack.wait()
    kept = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "pack" / "puzzles").glob("*.json")}
    said = [line for line in stderr.splitlines() if not line.startswith("note: ")]
    assert pack.returncode == 2 and len(said) == 1, stderr  # distributed's own logging is silent too
    assert f"the Dask scheduler '{cluster.address}' was lost" in said[0]
    assert f"the {len(kept)} of 10 puzzles finished are kept" in said[0] and "--resume" in said[0]
    _run([*args, "--resume", "--workers", "1"], tmp_path)
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and _written(tmp_path / "pack") == 10
    assert {name: (tmp_path / "pack" / "puzzles" / name).stat().st_mtime_ns for name in kept} == kept


class _Client:
    """A client whose status turns from running to connecting `after` seconds (never, if None)."""

    def __init__(self, after: float | None) -> None:
        self.began, self.after = time.monotonic(), after

    @property
    def status(self) -> str:
        return "running" if self.after is None or time.monotonic() - self.began < self.after else "connecting"


def _executor(client: _Client) -> DaskExecutor:
    runner = DaskExecutor.__new__(DaskExecutor)  # no cluster: only the watch over errors is tried
    runner.client, runner.address = client, "tcp://127.0.0.1:1"
    return runner


@pytest.mark.parametrize("error", [OSError("Stream is closed"), ConnectionResetError(104, "reset by peer")])
def test_a_closed_connection_before_the_client_notices_the_loss_is_the_scheduler_lost(error: Exception) -> None:
    # The race the fault family met: a gather failed while the client still said "running".
    with pytest.raises(SchedulerLost, match="was lost"), _executor(_Client(after=0.3)).watching():
        raise error


def test_a_jobs_own_error_is_its_own_while_the_scheduler_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "DASK_LOSS_NOTICE_S", 0.2)
    with pytest.raises(ValueError, match="a bug"), _executor(_Client(after=None)).watching():
        raise ValueError("a bug")
    with pytest.raises(OSError, match="disk"), _executor(_Client(after=None)).watching():
        raise OSError("disk")  # no loss noticed in the time allowed: the error is what it says
