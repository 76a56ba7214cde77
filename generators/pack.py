"""Building a puzzle pack: the pack directory, atomic files, resume.

Covers: the pack directory (`manifest.json`, `puzzles/NNNN.json` and the
exports beside them), per-puzzle seeds derived from the pack seed and the
index, making the puzzles in rounds as the pack's plan directs
(`rounds.py`) through an executor (`executors.py`), writing each finished
puzzle at once and atomically (temporary file + rename) after the
independent verifier has passed it, checking the whole pack afresh from its
puzzles before it is marked complete (the plan's `final_problems`), and
`resume`, which completes an interrupted pack so that it equals an
uninterrupted run. A puzzle the plan gives up on (nothing left to try) is
reported with everything finished kept.

Safety: a directory holding files that are not a pack is refused unless
forced; a start that fails before its first puzzle leaves nothing behind;
files are written with the usual permissions (0666 less the umask).

Leaves out: what a job makes (`crossword_pack.py`, `slider_pack.py`), what a
kind of puzzle plans (`crossword_plan.py`), where jobs run (`executors.py`)
and the formats of the exports
(`generators/export/`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Protocol

from cpmodel.errors import InputError
from cpmodel.inputs import loads_json_bounded, read_text_bounded
from cpmodel.solver import parse_spec
from generators.executors import JobResult, make_executor
from generators.export.html import pack_index
from generators.puzzles import MAX_PUZZLE_BYTES, encode
from generators.rounds import Avoid, plan_of, run_rounds

MANIFEST = "manifest.json"
INDEX = "index.html"
PUZZLE_DIR = "puzzles"
BOOKLET = "pack.pdf"
# A manifest lists per-puzzle timings: a few hundred kB for the largest packs.
MAX_MANIFEST_BYTES = 16 << 20
# Files are readable by everyone unless the umask says otherwise, as with open().
FILE_MODE = 0o666


class PackError(RuntimeError):
    """A pack that cannot be built or resumed as asked."""


class VerificationError(RuntimeError):
    """A generated puzzle failed its independent check: a bug, never written."""


class PackSpec(Protocol):
    """What the pack runner needs of a kind of puzzle."""

    kind: str
    count: int
    seed: int

    def parameters(self) -> dict[str, Any]: ...
    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]: ...
    def key(self, puzzle: Mapping[str, Any]) -> str: ...
    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]: ...
    def verify(self, puzzle: Mapping[str, Any]) -> list[str]: ...
    def describe(self) -> dict[str, Any]: ...
    @property
    def solver_spec(self) -> str: ...


@dataclass
class Progress:
    """What a progress display is told after each puzzle, then after each puzzle's exports."""

    total: int
    done: int = 0
    rejected: int = 0  # attempts redone: clashes and failed jobs
    started: float = field(default_factory=time.monotonic)
    notes: list[str] = field(default_factory=list)  # the plan's notes so far
    phase: str = "puzzles"  # then "exports", while the exports and the booklet are written
    exported: int = 0  # puzzles whose exports are written
    skipped_exports: int = 0  # exports that could not be made, once the phase is over
    working: str = ""  # the attempt the run waits for, e.g. "puzzle 3 (attempt 2, cpsat)"


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the pack seed and a path of parts (index, attempt…)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a reader sees the old file or the new one, never half.

    The file gets the mode open() would give it (0666 less the umask), not
    mkstemp's private 0600.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, FILE_MODE & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@cache
def _umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask


def puzzle_path(out: Path, index: int) -> Path:
    return out / PUZZLE_DIR / f"{index + 1:04d}.json"


def tool_version() -> str:
    try:
        return version("mobius-puzzles")
    except PackageNotFoundError:
        return "unknown"


# --- the pack directory ------------------------------------------------------------------

def _read_manifest(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.exists():
        return None
    manifest = loads_json_bounded(read_text_bounded(path, MAX_MANIFEST_BYTES, "pack manifest"), "pack manifest",
                                  source=str(path))
    if not isinstance(manifest, dict):
        raise InputError("expected a pack manifest (a JSON object)", source=str(path))
    return manifest


def _load_finished(spec: PackSpec, out: Path) -> dict[int, dict[str, Any]]:
    """Puzzles already on disk that still pass their check (a damaged one is redone)."""
    found: dict[int, dict[str, Any]] = {}
    for index in range(spec.count):
        path = puzzle_path(out, index)
        if not path.exists():
            continue
        try:
            puzzle = loads_json_bounded(read_text_bounded(path, MAX_PUZZLE_BYTES, "puzzle file"), "puzzle file")
        except InputError:
            continue  # damaged: made again
        if isinstance(puzzle, dict) and not spec.verify(puzzle):
            found[index] = puzzle
    return found


def _prepare(spec: PackSpec, out: Path, resume: bool, force: bool = False) -> dict[int, dict[str, Any]]:
    """The puzzles already made (with `resume`); refuses a directory that is not this pack's."""
    if out.exists() and not out.is_dir():
        raise PackError(f"{out} is a file, not a directory for a pack")
    manifest = _read_manifest(out)
    if manifest is None:
        if resume and out.exists() and any((out / PUZZLE_DIR).glob("*.json")):
            raise PackError(f"{out}: puzzles without a manifest; cannot tell how they were made")
        others = _foreign_files(out)
        if others and not force:
            raise PackError(f"{out} holds files that are not a pack ({others}); choose an empty or new "
                            "directory, or pass --force to write the pack among them")
        return {}
    if not resume:
        raise PackError(f"{out} already holds a pack; use --resume to complete it or choose a new directory")
    for stale in (out / PUZZLE_DIR).glob(".*.tmp"):
        stale.unlink()  # a write cut short by the interruption
    if manifest.get("parameters") != json.loads(json.dumps(spec.parameters())):
        raise PackError(f"{out}: --resume with different parameters than the pack was started with "
                        f"(it was made by: {manifest.get('command', '?')})")
    return _load_finished(spec, out)


def _foreign_files(out: Path) -> str:
    """A few of the entries of `out` a pack would not have made there ("" if none, or no `out`)."""
    if not out.is_dir():
        return ""
    names = sorted(p.name for p in out.iterdir())
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _remove_failed_start(out: Path, created: bool) -> None:
    """Undo a start that wrote no puzzle, so the corrected command is not refused."""
    if created:
        shutil.rmtree(out, ignore_errors=True)
        return
    (out / MANIFEST).unlink(missing_ok=True)
    puzzles = out / PUZZLE_DIR
    if puzzles.is_dir() and not any(puzzles.iterdir()):
        puzzles.rmdir()


def _write_manifest(spec: PackSpec, out: Path, command: str, puzzles: Mapping[int, Mapping[str, Any]],
                    timings: Mapping[int, float], started: float, complete: bool,
                    report: Mapping[str, Any] | None = None,
                    skipped_exports: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    manifest = {
        "tool": "mobius-puzzles", "version": tool_version(), "command": command, "kind": spec.kind,
        "seed": spec.seed, "parameters": spec.parameters(), **spec.describe(), **(report or {}),
        "status": "complete" if complete else "incomplete",
        "counts": {"requested": spec.count, "written": len(puzzles),
                   "rejected": sum(int(p.get("rejected", 0)) for p in puzzles.values())},
        "timings": {"wall_s": round(time.monotonic() - started, 3),
                    "per_puzzle_s": {f"{i + 1:04d}": round(t, 4) for i, t in sorted(timings.items())}},
    }
    if skipped_exports is not None:
        manifest["skipped_exports"] = skipped_exports
    write_atomic(out / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return manifest


def _commit(spec: PackSpec, out: Path, index: int, puzzle: dict[str, Any]) -> None:
    problems = spec.verify(puzzle)
    if problems:
        raise VerificationError(f"puzzle {index + 1} failed its independent check (a bug; not written): "
                                + "; ".join(problems[:5]))
    write_atomic(puzzle_path(out, index), encode(puzzle))


def build_pack(spec: PackSpec, out: Path, *, workers: int = 1, executor: str = "local", scheduler: Any = None,
               resume: bool = False, force: bool = False, command: str = "", exports: bool = True,
               on_progress: Callable[[Progress], None] | None = None) -> dict[int, dict[str, Any]]:
    """Build (or complete, with `resume`) the pack in `out`; returns the puzzles by index.

    Everything that can be checked is checked before the first file is
    written (the directory, the executor and its scheduler); a run that then
    fails before its first puzzle leaves nothing behind. `force` writes into
    a directory that holds other files; `exports=False` writes the puzzles,
    the manifest and the index page only (benchmarks and tests of the puzzles).
    """
    out = Path(out)
    started = time.monotonic()
    stored = _prepare(spec, out, resume, force)
    runner = make_executor(executor, workers, scheduler)
    created = not out.exists()
    plan = plan_of(spec, runner)
    puzzles: dict[int, dict[str, Any]] = {}
    timings: dict[int, float] = {}
    progress = Progress(spec.count, notes=plan.notes)
    try:
        _write_manifest(spec, out, command, stored, timings, started, complete=False)
    except BaseException:
        runner.abort()
        raise
    if on_progress:
        on_progress(progress)

    def accept(result: JobResult) -> None:
        if stored.get(result.index) is not result.puzzle:  # a stored puzzle is on disk already
            _commit(spec, out, result.index, result.puzzle)
        puzzles[result.index] = result.puzzle
        progress.done = len(puzzles)
        if on_progress:
            on_progress(progress)

    def redone() -> None:
        progress.rejected += 1

    def waiting(index: int, attempt: int) -> None:
        progress.working = f"puzzle {index + 1} (attempt {attempt + 1}, {parse_spec(spec.solver_spec)[0]})"
        if on_progress:
            on_progress(progress)

    try:
        not_made = run_rounds(spec, plan, runner, stored, accept, timings, redone, waiting)
        problems = {} if not_made else plan.final_problems(puzzles)
    except BaseException:
        runner.abort()
        if not stored and not puzzles:  # nothing to resume: as if never started
            _remove_failed_start(out, created)
        else:
            _write_manifest(spec, out, command, {**stored, **puzzles}, timings, started, complete=False,
                            report=plan.report(puzzles))
        raise
    runner.close()
    _write_manifest(spec, out, command, {**stored, **puzzles}, timings, started, complete=False,
                    report=plan.report(puzzles))
    if not_made:
        listed = "; ".join(f"puzzle {i + 1}: {why}" for i, why in sorted(not_made.items())[:5])
        raise PackError(f"{len(not_made)} of {spec.count} puzzles could not be made ({listed}); the other "
                        f"{len(puzzles)} are written in {out}")
    if problems:
        listed = "; ".join(f"puzzle {i + 1}: {why}" for i, why in sorted(problems.items())[:5])
        raise VerificationError(f"the finished pack fails its final check (a bug; not marked complete): {listed}")
    # The exporters (reportlab among them) load only when a pack gets as far as writing its exports.
    from generators.pack_exports import write_exports

    progress.phase = "exports"

    def exported(count: int) -> None:
        progress.exported = count
        if on_progress:
            on_progress(progress)

    ordered = [puzzles[i] for i in range(spec.count)]
    skipped = write_exports(ordered, out / PUZZLE_DIR, out / BOOKLET, write_atomic, exported) if exports else []
    progress.skipped_exports = sum(group["count"] for group in skipped)
    manifest = _write_manifest(spec, out, command, puzzles, timings, started, complete=True,
                               report=plan.report(puzzles), skipped_exports=skipped)
    write_atomic(out / INDEX, pack_index(manifest, ordered).encode("utf-8"))
    if on_progress:
        on_progress(progress)
    return puzzles
