"""Fault family `outputs`: devices, FIFOs and sockets where a command writes; temporary files of killed fills; a
Dask scheduler lost mid-pack.

Covers three kinds of case, drawn at random from an explicit seed:

- `special output`: a FIFO, a socket, a character device (a copy of the null
  device's numbers made with mknod by root; any other user gets a link to
  /dev/null, which a broken write could not replace either), or a link to a
  device or a FIFO, put where a command writes — the `--out` of `render` and
  `export-instance`, the `--out` of `pack slider|crossword` and `bench` (the
  directory itself, or one of the files it writes there, in a new directory
  with `--force` or in a finished pack with `--resume`), and the cache folder
  of `slider prepare` (XDG_CACHE_HOME) — with `--force` or not. Right: exit
  2, one line on stderr (a pack's plan notes aside), no traceback, the
  special file exactly as it was (type, inode, device numbers) and nothing
  else in the case's folder written or removed.
- `litter`: `crossword fill` with each solver (Qxw, MiniZinc's Gecode,
  Choco, SAT, CP-SAT, the reference search), killed with kill -9 at a random
  moment, its temporary folder a private one (TMPDIR). Right: no process of
  its tree alive two seconds after, and nothing left in that folder.
- `scheduler lost`: a pack on a Dask cluster (a `dask scheduler` and one
  `dask worker` on 127.0.0.1) whose scheduler is killed with kill -9 after a
  random number of puzzles. Right: exit 2 within `LOST_EXIT_S` of the kill,
  one line saying the scheduler was lost, what is kept and that `--resume`
  continues (no traceback, none of distributed's logging); then a local
  `--resume` completes the pack byte-identical to an uninterrupted local run.
  Left out where dask is not installed.

Leaves out: the short cases, which the tests hold (tests/test_files.py,
tests/test_cli_outputs.py, tests/generators/test_pack_safety.py,
tests/test_interrupts.py, tests/generators/test_dask_cluster.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mobius.benchmarks.faults import Outcome
from mobius.benchmarks.faults.signals import VANBEEK, after_seconds, broken_promises, child_env, run_and_signal, \
    targets

NAME = "outputs"
DESCRIPTION = ("a device, FIFO, socket or link to one where a command writes, --force or not; kill -9 of every "
               "solver's fill and its temporary files; a Dask scheduler killed mid-pack")

RUN_LIMIT_S = 600
# A refused command ends in seconds; one still running after this long has hung (or done all its work: wrong too).
SPECIAL_LIMIT_S = 300
NO_EXIT = "no exit within"
KINDS = ("fifo", "socket", "device", "link to a device", "link to a fifo")
BOARD = ["export-instance", "grid:3x3", "--start", "1 2 3 4 0 5 6 7 8", "--format", "cnf", "--horizon", "2"]
SLIDER = ["pack", "slider", "--board", "ring", "--count", "3", "--depth", "3..5", "--workers", "1"]
CROSSWORD = ["pack", "crossword", "--count", "1", "--width", "7", "--height", "5", "--workers", "1"]
BENCH = ["bench", "--suite", "slider-ring"]
# The files a pack writes in its directory, and a bench in its own, that a case makes special.
PACK_FILES = ("manifest.json", ".journal", "index.html", "pack.pdf", ".lock", "puzzles/0001.json", "puzzles/0002.svg")
BENCH_FILES = ("records.csv", "records.json", "report.md", "cactus-slider-ring-slider.png")
# Kill moments of a fill, in seconds after its start (as the `signals` family draws them), of a grid that
# no solver fills within them.
FIRST_KILL_S, LAST_KILL_S = 0.5, 8.0
LITTER_GRID = VANBEEK / "23.06.txt"
# A scheduler lost mid-pack: the pack's one line must come within this long of the kill.
LOST_EXIT_S = 30.0
DASK_PACK = ["pack", "crossword", "--count", "8", "--width", "7", "--height", "5", "--surface", "torus",
             "--seed", "4"]
DASK_START_S = 90.0
POLL_S = 0.05
# What a case says when the special file is no longer what it was (the count the family is run for).
REPLACED = "the special file was replaced or removed"
# One case in this many is a Dask one (they take half a minute); one in LITTER_EVERY a killed fill.
DASK_EVERY = 8
LITTER_EVERY = 3


@dataclass
class Fixtures:
    """What the cases share: a puzzle file for render, a finished slider pack, a local Dask reference pack."""

    workdir: Path
    env: dict[str, str]
    _pack: Path | None = None
    _dask_reference: Path | None = None

    @property
    def pack(self) -> Path:
        """A finished 3-puzzle ring pack, made on first use."""
        if self._pack is None:
            self._pack = self.workdir / "reference" / "slider"
            _require(mobius([*SLIDER, "--out", str(self._pack)], self.env), "the slider reference pack")
        return self._pack

    @property
    def dask_reference(self) -> Path:
        """The Dask case's pack made locally without interruption, made on first use."""
        if self._dask_reference is None:
            self._dask_reference = self.workdir / "reference" / "dask-local"
            _require(mobius([*DASK_PACK, "--workers", "1", "--out", str(self._dask_reference)], self.env),
                     "the local reference of the Dask pack")
        return self._dask_reference


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    rng = random.Random(seed)
    fixtures = Fixtures(workdir, child_env(workdir / "cache"))
    dask = importlib.util.find_spec("distributed") is not None
    outcomes = []
    for number in range(cases):
        where = workdir / f"case-{number:03d}"
        where.mkdir()
        if dask and number % DASK_EVERY == DASK_EVERY - 1:
            outcomes.append(scheduler_lost(fixtures, rng, where))
        elif number % LITTER_EVERY == LITTER_EVERY - 1:
            outcomes.append(litter(fixtures, rng, where, number // LITTER_EVERY))
        else:
            outcomes.append(special_output(fixtures, rng, where))
        shutil.rmtree(where, ignore_errors=True)
    return outcomes


# --- running the tool -------------------------------------------------------------------------

def mobius(args: list[str], env: dict[str, str], limit: float = RUN_LIMIT_S) -> subprocess.CompletedProcess[str]:
    """`mobius ARGS`; one that runs past `limit` (writing into a FIFO nobody reads, say) is killed, and
    ends with no exit code and `NO_EXIT` as its stderr."""
    try:
        return subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True,
                              timeout=limit, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, None, "", f"{NO_EXIT} {limit:g} s")  # type: ignore[arg-type]


def _require(result: subprocess.CompletedProcess[str], what: str) -> None:
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed: {result.stderr.strip()[-500:]}")


def said(stderr: str) -> list[str]:
    """The lines of stderr besides a pack's plan notes."""
    return [line for line in stderr.strip().splitlines() if not line.startswith("note: ")]


def finished(code: int | None, stderr: str) -> str:
    """What breaks the promise of a run that must succeed ("" if none): exit 0, no traceback."""
    if "Traceback" in stderr:
        return "a traceback: " + stderr.strip().splitlines()[-1][:200]
    return "" if code == 0 else f"exit {code}: {' '.join(said(stderr))[-300:]}"


def refused(code: int | None, stderr: str) -> str:
    """What breaks the promise of a refusal ("" if none): exit 2, one line, no traceback."""
    if stderr.startswith(NO_EXIT):
        return f"a hang: {stderr}"
    if "Traceback" in stderr:
        return "a traceback: " + stderr.strip().splitlines()[-1][:200]
    if code != 2:
        return f"exit {code}, expected 2: {' '.join(said(stderr))[-300:]}"
    if len(said(stderr)) != 1:
        return f"{len(said(stderr))} lines on stderr: {said(stderr)[:3]}"
    return ""


# --- special files -------------------------------------------------------------------------------

def make_special(path: Path, kind: str, spare: Path) -> Path:
    """`path` made a special file of `kind` (a link's target made at `spare`); returns `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind.startswith("link to a "):
        path.symlink_to(make_special(spare, kind.removeprefix("link to a "), spare.with_name(spare.name + "-2")))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(path))
        listener.close()
    elif os.geteuid() == 0:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        path.symlink_to(os.devnull)
    return path


def identity(path: Path) -> tuple[tuple[int, int, int] | None, ...]:
    """The type, inode and device numbers of `path` and, through its links, of what it leads to (None: gone)."""
    found = []
    for place in (path, Path(os.path.realpath(path))):
        try:
            info = place.lstat()
        except FileNotFoundError:
            found.append(None)
            continue
        found.append((stat.S_IFMT(info.st_mode), info.st_ino, info.st_rdev))
    return tuple(found)


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    """Every name under `folder` with its type and, for a regular file, its modification time."""
    return {str(p.relative_to(folder)): (stat.S_IFMT(p.lstat().st_mode), p.lstat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


Placed = tuple[str, list[str], Path, dict[str, str]]  # (case name, arguments, the special file, environment)


def _out_file(fixtures: Fixtures, rng: random.Random, where: Path, kind: str) -> Placed:
    command = rng.choice(["render", "export-instance"])
    special = make_special(where / "out", kind, where / "target")
    force = rng.random() < 0.5 and command == "export-instance"
    args = ["render", str(fixtures.pack / "puzzles" / "0001.json")] if command == "render" else list(BOARD)
    return (f"{command} --out{' --force' if force else ''}", [*args, "--out", str(special),
                                                             *(["--force"] if force else [])], special, fixtures.env)


def _out_directory(fixtures: Fixtures, rng: random.Random, where: Path, kind: str) -> Placed:
    command = rng.choice(["pack slider", "pack crossword", "bench"])
    special = make_special(where / "out", kind, where / "target")
    base = {"pack slider": SLIDER, "pack crossword": CROSSWORD, "bench": BENCH}[command]
    force = rng.random() < 0.5
    return (f"{command} --out{' --force' if force else ''}", [*base, "--out", str(special),
                                                             *(["--force"] if force else [])], special, fixtures.env)


def _file_in_pack(fixtures: Fixtures, rng: random.Random, where: Path, kind: str) -> Placed:
    name = rng.choice(PACK_FILES)
    out = where / "pack"
    resume = rng.random() < 0.5
    if resume:  # a finished pack, one puzzle to make again, and one of its files made special
        shutil.copytree(fixtures.pack, out)
        (out / "puzzles" / "0003.json").unlink()
        (out / name).unlink(missing_ok=True)
    else:
        out.mkdir()
        (out / "notes.txt").write_text("the user's own file\n")
    special = make_special(out / name, kind, where / "target")
    option = "--resume" if resume else "--force"
    return f"pack slider, a file of the pack ({option})", [*SLIDER, "--out", str(out), option], special, fixtures.env


def _file_in_bench(fixtures: Fixtures, rng: random.Random, where: Path, kind: str) -> Placed:
    name = rng.choice(BENCH_FILES)
    out = where / "results"
    out.mkdir()
    special = make_special(out / name, kind, where / "target")
    return "bench, a file of its results (--force)", [*BENCH, "--out", str(out), "--force"], special, fixtures.env


def _cache_folder(fixtures: Fixtures, rng: random.Random, where: Path, kind: str) -> Placed:
    special = make_special(where / "cache", kind, where / "target")
    return "slider prepare, XDG_CACHE_HOME", ["slider", "prepare", "ring"], special, \
        {**fixtures.env, "XDG_CACHE_HOME": str(special)}


PLACES: tuple[Callable[[Fixtures, random.Random, Path, str], Placed], ...] = (
    _out_file, _out_directory, _file_in_pack, _file_in_bench, _cache_folder)


def special_output(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    kind = rng.choice(KINDS)
    case, args, special, env = rng.choice(PLACES)(fixtures, rng, where, kind)
    before, files = identity(special), listing(where)
    result = mobius(args, env, SPECIAL_LIMIT_S)
    problems = [refused(result.returncode, result.stderr)]
    if identity(special) != before:
        problems.append(REPLACED)
    elif listing(where) != files:
        changed = sorted({name for name, _ in set(listing(where).items()) ^ set(files.items())})
        problems.append(f"files were written or removed: {changed[:3]}")
    wrong = "; ".join(problem for problem in problems if problem)
    what = f"{kind} at {special.relative_to(where)}"
    return Outcome(NAME, case, result.returncode, not wrong, f"{what}: {wrong or said(result.stderr)[-1][:160]}")


# --- temporary files of a killed fill --------------------------------------------------------------------

def litter(fixtures: Fixtures, rng: random.Random, where: Path, turn: int) -> Outcome:
    """The fill of the `turn`-th solver (in turn, so that each is killed as often) killed at a random moment."""
    solvers = sorted(name.removeprefix("fill-") for name in targets() if name.startswith("fill-"))
    solver = solvers[turn % len(solvers)]
    moment = rng.uniform(FIRST_KILL_S, LAST_KILL_S)
    scratch = where / "tmp"
    scratch.mkdir()
    # run_and_signal looks SETTLE_S after the exit: by then the tree is gone, and what it left is left.
    args = ("crossword", "fill", str(LITTER_GRID), "--dict", "words", "--no-clues", "--time-limit", "120",
            "--solver", solver)
    ending = run_and_signal(args, signal.SIGKILL, after_seconds(moment), {**fixtures.env, "TMPDIR": str(scratch)})
    left = sorted(p.name for p in scratch.iterdir())
    wrong = "; ".join(broken_promises(ending, signal.SIGKILL) + ([f"left in TMPDIR: {left[:3]}"] if left else []))
    when = f"kill -9 at {moment:.1f} s" if ending.signalled else "ended before its moment"
    return Outcome(NAME, f"litter, fill {solver}", ending.code, not wrong, f"{when}: {wrong or 'nothing left'}")


# --- a Dask scheduler lost mid-pack -------------------------------------------------------------------------

@dataclass
class Cluster:
    address: str
    processes: list[subprocess.Popen[bytes]]

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def start_cluster(where: Path, env: dict[str, str]) -> Cluster:
    """A scheduler and one worker on 127.0.0.1, each in a session of its own."""
    def start(args: list[str], log: str) -> subprocess.Popen[bytes]:
        with (where / log).open("wb") as out:
            return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=where, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True, env=env)

    file = where / "scheduler.json"
    cluster = Cluster("", [start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(file), "--idle-timeout", "300"], "scheduler.log")])
    deadline = time.monotonic() + DASK_START_S
    while not cluster.address:
        try:
            cluster.address = json.loads(file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            if time.monotonic() > deadline or cluster.processes[0].poll() is not None:
                cluster.stop()
                raise RuntimeError("the Dask scheduler did not start") from None
            time.sleep(0.1)
    cluster.processes.append(start(["worker", cluster.address, "--nworkers", "1", "--nthreads", "1", "--host",
                                    "127.0.0.1", "--no-dashboard", "--death-timeout", "30",
                                    "--local-directory", str(where / "scratch")], "worker.log"))
    return cluster


def _written(out: Path) -> int:
    folder = out / "puzzles"
    return len(list(folder.glob("[0-9][0-9][0-9][0-9].json"))) if folder.is_dir() else 0


def scheduler_lost(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    reference = fixtures.dask_reference
    after = rng.randint(0, 3)  # puzzles written before the kill
    out = where / "pack"
    cluster = start_cluster(where, fixtures.env)
    try:
        pack = subprocess.Popen([sys.executable, "-m", "mobius", *DASK_PACK, "--out", str(out), "--executor", "dask",
                                 "--scheduler", cluster.address], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, start_new_session=True, env=fixtures.env)
        deadline = time.monotonic() + RUN_LIMIT_S
        # The manifest is written once the pack holds its client: a kill before that is a scheduler never reached.
        while (_written(out) < after or not (out / "manifest.json").exists()) and pack.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(POLL_S)
        killed = pack.poll() is None
        os.killpg(cluster.processes[0].pid, signal.SIGKILL)
        at = time.monotonic()
        try:
            _, stderr = pack.communicate(timeout=LOST_EXIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(pack.pid, signal.SIGKILL)
            pack.wait()
            return Outcome(NAME, "scheduler lost", None, False, f"no exit {LOST_EXIT_S:g} s after the kill")
        took = time.monotonic() - at
    finally:
        cluster.stop()
    kept = _written(out)
    case = f"scheduler lost after {'no puzzle' if not kept else 'some puzzles'}" if killed else \
        "scheduler lost after the end"
    wrong = _lost_line(pack.returncode, stderr, kept) if killed else finished(pack.returncode, stderr)
    if not wrong:
        resumed = mobius([*DASK_PACK, "--out", str(out), "--workers", "1", *(["--resume"] if out.exists() else [])],
                         fixtures.env)
        wrong = finished(resumed.returncode, resumed.stderr) or _differs(out, reference)
    return Outcome(NAME, case, pack.returncode, not wrong, wrong or f"one line {took:.1f} s after the kill")


def _lost_line(code: int | None, stderr: str, kept: int) -> str:
    """What is wrong with how a pack whose scheduler was killed ended ("" if nothing)."""
    wrong = refused(code, stderr)
    if wrong:
        return wrong
    line = said(stderr)[0]
    if "was lost" not in line or (kept and f"the {kept} of" not in line) or (kept and "--resume" not in line):
        return f"the line does not say what was lost, kept and how to go on: {line[:300]}"
    return ""


def _differs(out: Path, reference: Path) -> str:
    """How the resumed pack differs from the uninterrupted one ("" if its puzzles are byte-identical)."""
    mine, theirs = ({p.name: p.read_bytes() for p in (folder / "puzzles").glob("*.json")}
                    for folder in (out, reference))
    differing = sorted(name for name in mine.keys() | theirs.keys() if mine.get(name) != theirs.get(name))
    return f"{len(differing)} puzzle files differ from the uninterrupted run" if differing else ""
