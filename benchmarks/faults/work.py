"""Fault family `work`: a damaged work folder of a table build is never believed.

Covers: the 6-6-3 tables of the 4×4 (three groups, a build of a few
seconds), stopped part-way by ``mobius slider prepare --time-limit`` into a
pristine work folder; then, per case, a fresh copy of that folder damaged
one way — a bit flipped at a seeded offset of the table, the marks or the
progress file, a file cut short, removed, replaced by garbage or by a pipe,
a number of the progress file edited, a progress file nested 100,000 deep —
followed by ``mobius slider prepare`` (the build continued) and
``mobius slider solve`` of Korf's instances with the shortest optimal
solutions (idastar on those tables), as a user would run them. A case is
right when the prepare ends in exit 0 with exactly one warning line naming
the damaged file or its work folder (or exit 2 with one line) and every
solve prints the published optimal length — never another length, never a
traceback, never a hang (each command has a timeout), never silence.

Leaves out: finished entries of the cache (the `cache` family) and the
interruptions themselves (the `signals` family stops builds at random
moments).
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from mobius.benchmarks.faults import Outcome
from mobius.benchmarks.faults.cache import WARNING, cache_of, flip_bit, korf_starts, mobius

NAME = "work"
DESCRIPTION = ("a table build's work folder damaged after a stop (flips, truncation, edits, pipes), then "
               "`slider prepare` and 6-6-3 solves checked against Korf's published optimal lengths")
BOARD, PARTITION, SOLVER = "grid:4x4", "6-6-3", "idastar:partition=6-6-3"
# Korf's instances with the shortest optimal solutions (41, 42, 43 and 45 moves): quick to solve.
SHORTEST = (79, 55, 16, 42)
# Long enough to get into the build, short of finishing it.
STOP_AFTER_S = 2.0
TIMEOUT_S = 300.0


def pristine_work(home: Path) -> Path:
    """A cache under `home` holding a build of the 6-6-3 tables stopped part-way (its work folder)."""
    cache = cache_of(home)
    limit = STOP_AFTER_S
    while not list(cache.glob("*.work/progress.json")):
        done = mobius(["slider", "prepare", BOARD, "--partition", PARTITION, "--time-limit", f"{limit:g}"], cache,
                      timeout=TIMEOUT_S)
        if done.returncode == 0:  # finished within the limit: start again with less time
            shutil.rmtree(cache)
            limit /= 2
        elif done.returncode != 3:
            raise RuntimeError(f"slider prepare failed: {done.stderr.strip()}")
    return cache


def _pipe(path: Path, rng: random.Random) -> str:
    path.unlink()
    os.mkfifo(path)
    return "a pipe in its place"


def _cut(path: Path, rng: random.Random) -> str:
    size = rng.randrange(path.stat().st_size)
    os.truncate(path, size)
    return f"cut to {size} bytes"


def _garbage(path: Path, rng: random.Random) -> str:
    path.write_bytes(rng.randbytes(path.stat().st_size))
    return "random bytes"


def _removed(path: Path, rng: random.Random) -> str:
    path.unlink()
    return "removed"


def _number_edited(path: Path, rng: random.Random) -> str:
    """A number of the progress file changed by a few (its checksum as it was)."""
    text = path.read_text(encoding="utf-8")
    numbers = list(re.finditer(r'"(depth|resume|expanded|reached|saturated)": (\d+)', text))
    found = rng.choice(numbers)
    old = int(found.group(2))
    value = old + rng.choice((-10, -3, 3, 5))
    value = value if value >= 0 else old + 3  # changed, and still a count
    path.write_text(text[:found.start(2)] + str(value) + text[found.end(2):], encoding="utf-8")
    return f"{found.group(1)} {old} -> {value}"


def _nested(path: Path, rng: random.Random) -> str:
    path.write_text("[" * 100_000, encoding="utf-8")
    return "100,000 nested brackets"


# Damage by file: (the file's name pattern, what is done to it).
DAMAGES: dict[str, tuple[str, Callable[[Path, random.Random], str | None]]] = {
    "table: bit flipped": ("table.npy", lambda path, rng: flip_bit(path, rng)),
    "table: cut short": ("table.npy", _cut),
    "table: garbage": ("table.npy", _garbage),
    "table: a pipe": ("table.npy", _pipe),
    "marks: bit flipped": ("marks-*.bin", lambda path, rng: flip_bit(path, rng)),
    "marks: cut short": ("marks-*.bin", _cut),
    "marks: removed": ("marks-*.bin", _removed),
    "marks: a pipe": ("marks-*.bin", _pipe),
    "progress: bit flipped": ("progress.json", lambda path, rng: flip_bit(path, rng)),
    "progress: a number edited": ("progress.json", _number_edited),
    "progress: nested 100,000 deep": ("progress.json", _nested),
    "progress: removed": ("progress.json", _removed),
}
# How often each damage is drawn, relative: bit flips land anywhere, so they take more cases.
WEIGHTS = {name: 3 if "flipped" in name else 1 for name in DAMAGES}


def judge_prepare(done: subprocess.CompletedProcess[str], damaged: Path, removed_record: bool) -> tuple[bool, str]:
    """(right, detail) of the prepare after `damaged` was damaged."""
    if "Traceback" in done.stderr:
        return False, "traceback: " + done.stderr.strip().splitlines()[-1]
    warnings = [line for line in done.stderr.splitlines() if line.startswith(WARNING)]
    if done.returncode != 0:
        return False, f"prepare exit {done.returncode}: {done.stderr.strip()[-200:]}"
    if removed_record:  # without a checkpoint there is nothing to continue from: a fresh build, silently
        return not warnings, f"{len(warnings)} warnings"
    named = len(warnings) == 1 and (str(damaged) in warnings[0] or f"{damaged.parent}:" in warnings[0])
    return named, warnings[0] if warnings else "no warning"


def damage_case(pristine: Path, workdir: Path, case: str, rng: random.Random) -> Outcome:
    """Copy the pristine cache, damage one work file, prepare, solve two of the shortest instances, judge."""
    home = Path(tempfile.mkdtemp(dir=workdir, prefix="case-"))
    cache = cache_of(home)
    shutil.copytree(pristine, cache, ignore=shutil.ignore_patterns("*.lock"))
    try:
        pattern, damage = DAMAGES[case]
        target = rng.choice(sorted(cache.glob(f"*.work/{pattern}")))
        where = damage(target, rng) or ""
        try:
            prepared = mobius(["slider", "prepare", BOARD, "--partition", PARTITION], cache, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return Outcome(NAME, case, None, False, f"{target.name} {where}: prepare hung")
        right, detail = judge_prepare(prepared, target, case == "progress: removed")
        answers = []
        for start, optimum in rng.sample(korf_starts(SHORTEST), 2):
            solved = mobius(["slider", "solve", BOARD, "--start", " ".join(map(str, start)), "--solver", SOLVER,
                             "--time-limit", "120", "--json"], cache, timeout=TIMEOUT_S)
            if solved.returncode != 0 or "Traceback" in solved.stderr:
                right = False
                answers.append(f"solve exit {solved.returncode}: {solved.stderr.strip()[-120:]}")
                continue
            payload = json.loads(solved.stdout)
            right = right and payload["length"] == optimum and payload["optimal"] is True
            answers.append(f"{payload['length']} (optimum {optimum})")
        return Outcome(NAME, case, prepared.returncode, right,
                       f"{target.name} {where}: {detail}; solves: {', '.join(answers)}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    """`cases` damaged work folders, the damages drawn by weight from a generator of `seed`, each case then
    drawing its offsets from a generator of its own (seed, number), so the cases are the same however many
    run side by side (MOBIUS_FAULTS_JOBS, default 2)."""
    pristine = pristine_work(workdir / "pristine")
    draw = random.Random(seed)
    names = draw.choices(list(DAMAGES), weights=[WEIGHTS[name] for name in DAMAGES], k=cases)
    tasks = [functools.partial(damage_case, pristine, workdir, name, random.Random(f"{seed}:{number}"))
             for number, name in enumerate(names)]
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("MOBIUS_FAULTS_JOBS", "2"))) as pool:
        return list(pool.map(lambda task: task(), tasks))
