"""Building a puzzle pack: jobs, atomic files, resume.

Covers: the pack directory (`manifest.json`, `puzzles/NNNN.json` and the
exports beside them), per-puzzle seeds derived from the pack seed and the
index, running jobs through an executor (`executors.py`), writing each
finished puzzle at once and atomically (temporary file + rename) after the
independent verifier has passed it, the in-order
duplicate pass, and `resume`, which completes an interrupted pack so that it
equals an uninterrupted run.

Determinism: puzzle i is a function of the pack parameters, i and the
puzzles before it only: a job first runs with nothing to avoid; if its
result duplicates an earlier puzzle, it runs again avoiding the earlier
ones. With answers unique across the pack, jobs run in index order, each
avoiding every earlier answer. Worker counts and executors only change
timings, which go to the manifest, never into a puzzle file.

Safety: a directory holding files that are not a pack is refused unless
forced; a start that fails before its first puzzle leaves nothing behind;
files are written with the usual permissions (0666 less the umask).

Leaves out: what a job makes (`crossword_pack.py`, `slider_pack.py`), where
jobs run (`executors.py`) and the formats of the exports
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
from generators.executors import Executor, JobResult, make_executor
from generators.export.html import pack_index
from generators.puzzles import MAX_PUZZLE_BYTES, encode

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


@dataclass(frozen=True)
class Avoid:
    """What a job must not produce: duplicate keys and (optionally) answers."""

    keys: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()


class PackSpec(Protocol):
    """What the pack runner needs of a kind of puzzle."""

    kind: str
    count: int
    seed: int
    sequential: bool  # True when each job must see every earlier answer

    def parameters(self) -> dict[str, Any]: ...
    def run_job(self, index: int, avoid: Avoid) -> dict[str, Any]: ...
    def key(self, puzzle: Mapping[str, Any]) -> str: ...
    def answers(self, puzzle: Mapping[str, Any]) -> frozenset[str]: ...
    def verify(self, puzzle: Mapping[str, Any]) -> list[str]: ...
    def describe(self) -> dict[str, Any]: ...


@dataclass
class Progress:
    """What a progress display is told after each puzzle, then after each puzzle's exports."""

    total: int
    done: int = 0
    rejected: int = 0
    started: float = field(default_factory=time.monotonic)
    phase: str = "puzzles"  # then "exports", while the exports and the booklet are written
    exported: int = 0  # puzzles whose exports are written
    skipped_exports: int = 0  # exports that could not be made, once the phase is over


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
                    skipped_exports: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    manifest = {
        "tool": "mobius-puzzles", "version": tool_version(), "command": command, "kind": spec.kind,
        "seed": spec.seed, "parameters": spec.parameters(), **spec.describe(),
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
               resume: bool = False, force: bool = False, command: str = "",
               on_progress: Callable[[Progress], None] | None = None) -> dict[int, dict[str, Any]]:
    """Build (or complete, with `resume`) the pack in `out`; returns the puzzles by index.

    Everything that can be checked is checked before the first file is
    written (the directory, the executor and its scheduler); a run that then
    fails before its first puzzle leaves nothing behind. `force` writes into
    a directory that holds other files.
    """
    out = Path(out)
    started = time.monotonic()
    puzzles = _prepare(spec, out, resume, force)
    runner = make_executor(executor, 1 if spec.sequential else workers, scheduler)
    created = not out.exists()
    made_before = len(puzzles)
    timings: dict[int, float] = {}
    progress = Progress(spec.count, len(puzzles), sum(int(p.get("rejected", 0)) for p in puzzles.values()))
    try:
        _write_manifest(spec, out, command, puzzles, timings, started, complete=False)
    except BaseException:
        runner.abort()
        raise

    def accept(result: JobResult) -> None:
        _commit(spec, out, result.index, result.puzzle)
        puzzles[result.index] = result.puzzle
        timings[result.index] = timings.get(result.index, 0.0) + result.wall_s
        progress.done = len(puzzles)
        progress.rejected = sum(int(p.get("rejected", 0)) for p in puzzles.values())
        if on_progress:
            on_progress(progress)

    try:
        todo = [i for i in range(spec.count) if i not in puzzles]
        if spec.sequential:
            for index in todo:
                avoid = Avoid(_keys_before(spec, puzzles, index), _answers_before(spec, puzzles, index))
                for result in runner.as_completed([runner.submit(spec, index, avoid)]):
                    accept(result)
        else:
            for result in runner.as_completed([runner.submit(spec, i, Avoid()) for i in todo]):
                accept(result)
        _deduplicate(spec, runner, puzzles, accept)
    except BaseException:
        runner.abort()
        if len(puzzles) == made_before == 0:  # nothing to resume: as if never started
            _remove_failed_start(out, created)
        else:
            _write_manifest(spec, out, command, puzzles, timings, started, complete=False)
        raise
    runner.close()
    _write_manifest(spec, out, command, puzzles, timings, started, complete=False)
    # The exporters (reportlab among them) load only when a pack gets as far as writing its exports.
    from generators.pack_exports import write_exports

    progress.phase = "exports"

    def exported(count: int) -> None:
        progress.exported = count
        if on_progress:
            on_progress(progress)

    ordered = [puzzles[i] for i in range(spec.count)]
    skipped = write_exports(ordered, out / PUZZLE_DIR, out / BOOKLET, write_atomic, exported)
    progress.skipped_exports = sum(group["count"] for group in skipped)
    manifest = _write_manifest(spec, out, command, puzzles, timings, started, complete=True,
                               skipped_exports=skipped)
    write_atomic(out / INDEX, pack_index(manifest, ordered).encode("utf-8"))
    if on_progress:
        on_progress(progress)
    return puzzles


def _keys_before(spec: PackSpec, puzzles: Mapping[int, Mapping[str, Any]], index: int) -> frozenset[str]:
    return frozenset(spec.key(puzzles[i]) for i in range(index))


def _answers_before(spec: PackSpec, puzzles: Mapping[int, Mapping[str, Any]], index: int) -> frozenset[str]:
    return frozenset().union(*(spec.answers(puzzles[i]) for i in range(index)))


def _deduplicate(spec: PackSpec, runner: Executor, puzzles: dict[int, dict[str, Any]],
                 accept: Callable[[JobResult], None]) -> None:
    """In index order, redo a puzzle that repeats an earlier one, avoiding all earlier ones."""
    seen: set[str] = set()
    for index in range(spec.count):
        key = spec.key(puzzles[index])
        if key in seen:
            avoid = Avoid(_keys_before(spec, puzzles, index),
                          _answers_before(spec, puzzles, index) if spec.sequential else frozenset())
            for result in runner.as_completed([runner.submit(spec, index, avoid)]):
                accept(result)
            key = spec.key(puzzles[index])
        seen.add(key)
