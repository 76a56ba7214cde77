"""Fault family `cache`: damaged entries of the pattern-database cache never give a wrong optimal answer.

Covers: every kind of table the solvers keep in the user's cache — the
compact tables of the compiled engine (byte entries on the 3×3 and the 6-6-3
of the 4×4, 4-bit entries in the 7-8 of the 4×4) and the sparse tables of the
python engine — built once through ``mobius slider prepare`` into a pristine
cache; then, per case, a fresh copy of that cache with one bit flipped at a
seeded random offset of one of its files (the `.npy` data or the `.json`
metadata), or with malformed metadata (`MALFORMED`), and one
``mobius slider solve`` through the CLI, as a user would run it. A case is
right when the solve prints the known optimal length (a BFS over every state
of the 3×3, Korf's published lengths on the 4×4) with one warning line naming
the damaged file, or stops at its time limit (exit 3) with that warning
while rebuilding a table that takes minutes — never another length, never a
traceback, never silence. A case records whether the damage was detected
(the warning) and whether the entry was rebuilt (the file holds sound
content again).

Leaves out: the cost of the checksum check (`mobius slider prepare --verify`
reports it) and damage to a build's work directory.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mobius.benchmarks.faults import Outcome

NAME = "cache"
DESCRIPTION = ("one bit flipped at a random offset of a table-cache file (or malformed metadata), then "
               "`mobius slider solve` checked against the known optimal length")
WARNING = "mobius: warning:"


@dataclass(frozen=True)
class Kind:
    """A kind of cache entry, the commands that build and read it, and starts with known optimal lengths."""

    name: str
    board: str
    solver: str  # the `--solver` of each solve
    prepare: tuple[str, ...]  # the options of `slider prepare` that build the same tables
    starts: tuple[tuple[tuple[int, ...], int], ...]  # (start, optimal length)
    time_limit: float  # seconds per solve: a kind whose rebuild takes longer ends its damaged cases at exit 3


def grid3_starts(count: int, seed: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """`count` seeded starts of the 3×3 at 20 moves or more, with their lengths from a BFS over every state."""
    from mobius.cpmodel.slider.board import default_goal, preset
    from mobius.cpmodel.slider.reference_pdb import distance_table

    board = preset("grid:3x3")
    goal = default_goal(board)
    distances = distance_table(board, goal)
    ranks = np.flatnonzero(distances >= 20)
    rng = random.Random(seed)
    return tuple((_unrank(int(rank), board.n), int(distances[rank])) for rank in rng.sample(list(ranks), count))


def _unrank(rank: int, n: int) -> tuple[int, ...]:
    """The permutation of 0…n−1 whose lexicographic rank is `rank` (the order of `distance_table`)."""
    free, out = list(range(n)), []
    for place in range(n - 1, -1, -1):
        digit, rank = divmod(rank, math.factorial(place))
        out.append(free.pop(digit))
    return tuple(out)


def korf_starts(numbers: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Korf's instances by number (1-based) with their published optimal lengths."""
    from mobius.benchmarks.datasets import korf_table

    return tuple(korf_table()[number - 1] for number in numbers)


# Bit flips per kind, relative: the quick kinds take more of them.
WEIGHTS = {"compact 3x3 4-4 (8-bit)": 5, "sparse 3x3 4-4 (python)": 5, "compact 4x4 6-6-3 (8-bit)": 1,
           "compact 4x4 7-8 (4-bit)": 1}


def kinds(seed: int, with_7_8: bool) -> list[Kind]:
    """The kinds of entry, smallest first; the 7-8 tables of the 4×4 (a build of minutes) on request."""
    grid3 = grid3_starts(4, seed)
    found = [
        Kind("compact 3x3 4-4 (8-bit)", "grid:3x3", "idastar", (), grid3, 60.0),
        Kind("sparse 3x3 4-4 (python)", "grid:3x3", "idastar:engine=python", ("--engine", "python"), grid3, 60.0),
        Kind("compact 4x4 6-6-3 (8-bit)", "grid:4x4", "idastar:partition=6-6-3", ("--partition", "6-6-3"),
             korf_starts((55, 16, 42, 79)), 120.0),
    ]
    if with_7_8:  # its rebuild takes minutes: a damaged case ends at the time limit, with no answer
        found.append(Kind("compact 4x4 7-8 (4-bit)", "grid:4x4", "idastar", (), korf_starts((55, 16, 42, 79)), 30.0))
    return found


# --- driving the CLI ------------------------------------------------------------------

def mobius(args: list[str], cache: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """`python -m mobius ARGS` with its table cache in `cache` (XDG_CACHE_HOME = its parent)."""
    env = os.environ | {"XDG_CACHE_HOME": str(cache.parent)}
    return subprocess.run([sys.executable, "-m", "mobius", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


def cache_of(home: Path) -> Path:
    """The table cache under the XDG cache home `home` (as `mobius.generators.cache` names it)."""
    return home / "mobius-puzzles"


def prepare(kind: Kind, home: Path) -> Path:
    """A pristine cache of `kind`'s tables under `home` (built once through `slider prepare`)."""
    cache = cache_of(home)
    if not list(cache.glob("*.json")):
        done = mobius(["slider", "prepare", kind.board, *kind.prepare], cache, timeout=3600)
        if done.returncode != 0:
            raise RuntimeError(f"slider prepare {kind.board} failed: {done.stderr.strip()}")
    return cache


def solve(kind: Kind, cache: Path, start: tuple[int, ...]) -> subprocess.CompletedProcess[str]:
    return mobius(["slider", "solve", kind.board, "--start", " ".join(map(str, start)), "--solver", kind.solver,
                   "--time-limit", f"{kind.time_limit:g}", "--json"], cache, timeout=kind.time_limit + 120)


def judge(done: subprocess.CompletedProcess[str], optimum: int, damaged: Path) -> tuple[bool, bool, str]:
    """(right, detected, detail) of one solve after `damaged` was damaged."""
    warnings = [line for line in done.stderr.splitlines() if line.startswith(WARNING)]
    # a flip in the data's digest is a mismatch of the data file with its metadata, named side by side
    detected = len(warnings) == 1 and (str(damaged) in warnings[0] or f" with {damaged.name} " in warnings[0])
    if "Traceback" in done.stderr:
        return False, detected, "traceback: " + done.stderr.strip().splitlines()[-1]
    if done.returncode == 0:
        payload = json.loads(done.stdout)
        right = payload["length"] == optimum and payload["optimal"] is True
        return right and detected, detected, f"length {payload['length']} (optimum {optimum}), {len(warnings)} warnings"
    if done.returncode == 3:  # the rebuild outlasted the time limit: no answer, which is not a wrong one
        return detected, detected, f"timeout while rebuilding, {len(warnings)} warnings"
    if done.returncode == 2:  # the damaged entry could not be rebuilt: one line naming it
        lines = done.stderr.strip().splitlines()
        return len(lines) == 1 and str(damaged.parent) in lines[0], detected, lines[-1] if lines else "no message"
    return False, detected, f"exit {done.returncode}: {done.stderr.strip()[-200:]}"


# --- the faults ---------------------------------------------------------------------------

def flip_bit(path: Path, rng: random.Random) -> str:
    """Flip one bit at a random offset of `path`; where, as text."""
    data = bytearray(path.read_bytes())
    offset, bit = rng.randrange(len(data)), rng.randrange(8)
    data[offset] ^= 1 << bit
    path.write_bytes(bytes(data))
    return f"byte {offset} bit {bit}"


def _restamped(path: Path, change: Callable[[dict[str, Any]], Any]) -> None:
    """Rewrite the metadata at `path` changed by `change`, with a checksum that matches the change, so only
    the check of the metadata's types and values can refuse it."""
    from mobius.cpmodel.store import DirectoryStore

    metadata = json.loads(path.read_text(encoding="utf-8"))
    del metadata["checksum"]
    changed = change(metadata)
    DirectoryStore(path.parent).save(path.stem, np.load(path.with_suffix(".npy")), changed)


def _layout_field(metadata: dict[str, Any]) -> str:
    """A field the tables are read by: the scale of compact tables, the pattern of sparse ones."""
    return "scale" if "scale" in metadata else "pattern"


def _as_string(metadata: dict[str, Any]) -> dict[str, Any]:
    name = _layout_field(metadata)
    return metadata | {name: str(metadata[name])}


def _edited(metadata: dict[str, Any]) -> dict[str, Any]:
    name = _layout_field(metadata)
    return metadata | {name: 3 if name == "scale" else metadata[name][::-1]}


def _missing(metadata: dict[str, Any]) -> dict[str, Any]:
    name = "bases" if "bases" in metadata else "pattern"
    return {k: v for k, v in metadata.items() if k != name}


# Malformed metadata, each as a change of the metadata file: wrong types, missing keys, not an
# object, not JSON, edited values without or with a fresh checksum, an entry of an older version.
MALFORMED: dict[str, Callable[[Path], None]] = {
    "a field as a string, checksum renewed": lambda path: _restamped(path, _as_string),
    "a field edited, checksum renewed": lambda path: _restamped(path, _edited),
    "a field missing, checksum renewed": lambda path: _restamped(path, _missing),
    "format edited, old checksum": lambda path: path.write_text(
        path.read_text(encoding="utf-8").replace('"format": ', '"format": 9', 1), encoding="utf-8"),
    "a JSON list": lambda path: path.write_text("[1, 2]", encoding="utf-8"),
    "not JSON": lambda path: path.write_bytes(b"\xff{"),
    "empty": lambda path: path.write_text("", encoding="utf-8"),
    "no checksum (older version)": lambda path: path.write_text(json.dumps(
        {k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if k != "checksum"}),
        encoding="utf-8"),
}


def damage_case(kind: Kind, pristine: Path, workdir: Path, case: str, damage: Callable[[Path], str | None],
                suffix: str, rng: random.Random) -> Outcome:
    """Copy the pristine cache, damage one of its `suffix` files, solve one start, judge it."""
    home = Path(tempfile.mkdtemp(dir=workdir, prefix="case-"))  # cases may run side by side
    cache = cache_of(home)
    shutil.copytree(pristine, cache, ignore=shutil.ignore_patterns("*.lock"))
    try:
        target = rng.choice(sorted(cache.glob(f"*{suffix}")))
        where = damage(target) or ""
        damaged = target.read_bytes()
        start, optimum = rng.choice(kind.starts)
        done = solve(kind, cache, start)
        right, detected, detail = judge(done, optimum, target)
        rebuilt = target.exists() and target.read_bytes() != damaged
        outcome_detail = (f"{kind.name}: {target.name} {where}: {detail}; detected={detected} "
                          f"rebuilt={rebuilt}")
        return Outcome(NAME, f"{kind.name} {case}", done.returncode, right, outcome_detail)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    """`cases` bit flips spread over the kinds (data and metadata files alike, more on the quick kinds), then
    every malformed-metadata variant once per kind. Each case draws from its own generator (seed, kind,
    number), so the cases are the same however many run side by side (MOBIUS_FAULTS_JOBS, default 3: the
    solves are processes that mostly wait on start-up); each outcome is also appended to
    ``outcomes.jsonl`` in `workdir` as it ends.

    The 7-8 tables of the 4×4 join when MOBIUS_FAULTS_7_8 is set: to an XDG cache home that holds them
    (they are copied, not built), or to 1 to build them (minutes). MOBIUS_FAULTS_KINDS (words separated
    by commas) keeps the kinds whose names hold one of them.
    """
    prebuilt = os.environ.get("MOBIUS_FAULTS_7_8", "")
    wanted = [word for word in os.environ.get("MOBIUS_FAULTS_KINDS", "").split(",") if word]
    chosen = [kind for kind in kinds(seed, with_7_8=bool(prebuilt))
              if not wanted or any(word in kind.name for word in wanted)]
    tasks: list[Callable[[], Outcome]] = []
    for index, kind in enumerate(chosen):
        home = workdir / f"pristine-{index}"
        if "7-8" in kind.name and Path(prebuilt).is_dir():
            shutil.copytree(cache_of(Path(prebuilt)), cache_of(home), dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.lock", "*.work"))
        pristine = prepare(kind, home)
        share = cases * WEIGHTS[kind.name] // sum(WEIGHTS[k.name] for k in chosen)
        for case in range(share):
            suffix = ".npy" if case % 3 else ".json"  # two data flips to one metadata flip
            rng = random.Random(f"{seed}:{kind.name}:{case}")
            tasks.append(functools.partial(damage_case, kind, pristine, workdir, f"flip {suffix}",
                                           functools.partial(flip_bit, rng=rng), suffix, rng))
        for name, change in MALFORMED.items():
            tasks.append(functools.partial(damage_case, kind, pristine, workdir, f"metadata: {name}", change,
                                           ".json", random.Random(f"{seed}:{kind.name}:{name}")))
    log = workdir / "outcomes.jsonl"

    def logged(task: Callable[[], Outcome]) -> Outcome:
        outcome = task()
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(dataclasses.asdict(outcome)) + "\n")
        return outcome

    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("MOBIUS_FAULTS_JOBS", "3"))) as pool:
        return list(pool.map(logged, tasks))
