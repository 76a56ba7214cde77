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

Fingerprints: the manifest records the sha256 of every input by option (the
spec's `inputs`, with the embedded clue bank a crossword pack clues from) and of every puzzle file; between the manifest's writes at
the start and the end of a run, each puzzle's hash is appended to the
journal before its file is renamed into place. A resume refuses inputs that
changed and keeps exactly the puzzle files whose bytes are the ones
recorded (and still pass their check): any other is made again, which the
replayed rounds do as an uninterrupted run would.

Safety: one run at a time writes a pack directory (`pack_lock.py`: a new
pack or a resume into a directory another run holds is refused, and
touches nothing there); a directory holding files that are not a pack is
refused unless forced; a directory that is no directory, or holds a
device, FIFO or socket (or a link to one) under a name the pack writes, is
refused before any work (`check_places`), forced or resumed alike; a run
that fails or is stopped before its first puzzle leaves nothing behind (the
directories it created included), while the work it did stays in the
user's cache (`memo.py`: every job's result, by the pack's parameters and
inputs), so the same command run again replays it rather than starting
over; a folder an older run left holding only its manifest (no puzzle) is
taken over by a new pack rather than refused; files are written with the usual permissions (0666
less the umask). A failed pack names each reason once, with its puzzles
(`by_reason`).

Leaves out: what a job makes (`crossword/pack.py`, `slider/pack.py`), what a
kind of puzzle plans (`crossword/plan.py`), where jobs run (`executors.py`)
and the formats of the exports
(`generators/export/`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Protocol

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import NotRegularFile, kind_of, naming, replaceable, write_atomic
from mobius.cpmodel.inputs import loads_json_bounded, read_bytes_bounded, read_text_bounded
from mobius.cpmodel.solver import parse_spec
from mobius.generators.executors import JobResult, make_executor
from mobius.generators.export.html import pack_index
from mobius.generators.memo import WorkMemo, digest
from mobius.generators.pack_lock import LOCK_NAME, PackLocked, check_unlocked, lock_pack
from mobius.generators.puzzles import MAX_PUZZLE_BYTES, encode
from mobius.generators.rounds import Avoid, plan_of, run_rounds

MANIFEST = "manifest.json"
# The sha256 of each puzzle file, appended before the file is renamed into
# place, while the manifest is written only at the start and the end of a run.
JOURNAL = ".journal"
PUZZLE_HASHES = "puzzle_sha256"  # the manifest's record of them, by puzzle id
INDEX = "index.html"
PUZZLE_DIR = "puzzles"
BOOKLET = "pack.pdf"
# A manifest lists per-puzzle timings: a few hundred kB for the largest packs.
MAX_MANIFEST_BYTES = 16 << 20
# Files are readable by everyone unless the umask says otherwise, as with open().


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
    # sha256 of the content of each input by option ({"--dict": {"source": …, "sha256": …}}):
    # what a resume must find unchanged
    def inputs(self) -> dict[str, dict[str, str]]: ...
    @property
    def solver_spec(self) -> str: ...


@dataclass
class Finished:
    """Puzzles on disk, by index, with the sha256 of their files."""

    puzzles: dict[int, dict[str, Any]] = field(default_factory=dict)
    hashes: dict[int, str] = field(default_factory=dict)


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


def puzzle_id(index: int) -> str:
    return f"{index + 1:04d}"


def puzzle_path(out: Path, index: int) -> Path:
    return out / PUZZLE_DIR / f"{puzzle_id(index)}.json"


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


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _recorded_hashes(out: Path, manifest: Mapping[str, Any]) -> dict[str, str]:
    """The sha256 of each puzzle file as written, by id: the manifest's, then the journal's later ones."""
    recorded = manifest.get(PUZZLE_HASHES)
    hashes = {k: v for k, v in recorded.items() if isinstance(v, str)} if isinstance(recorded, dict) else {}
    journal = out / JOURNAL
    if journal.is_file():
        for line in read_text_bounded(journal, MAX_MANIFEST_BYTES, "pack journal").splitlines():
            parts = line.split()
            if len(parts) == 2:  # a line cut short by a kill is left out: its puzzle is made again
                hashes[parts[0]] = parts[1]
    return hashes


def _load_finished(spec: PackSpec, out: Path, recorded: Mapping[str, str]) -> Finished:
    """The puzzles on disk whose bytes are those the pack wrote there and which
    still pass their check; any other (missing, damaged, edited, swapped) is made again."""
    finished = Finished()
    for index in range(spec.count):
        path = puzzle_path(out, index)
        if not path.is_file():
            continue
        try:
            data = read_bytes_bounded(path, MAX_PUZZLE_BYTES, "puzzle file")
            if sha256_of(data) != recorded.get(puzzle_id(index)):
                continue
            puzzle = loads_json_bounded(data.decode("utf-8"), "puzzle file")
        except (InputError, UnicodeDecodeError):
            continue
        if isinstance(puzzle, dict) and not spec.verify(puzzle):
            finished.puzzles[index] = puzzle
            finished.hashes[index] = sha256_of(data)
    return finished


def check_start(spec: PackSpec, out: Path, *, resume: bool = False, force: bool = False) -> None:
    """PackError now for a run `build_pack` would refuse at its start (`out` held by another run, not
    this pack's, a resume with other parameters or inputs), so that a command can check before
    long set-up work (a slider pack's tables); `build_pack` still checks, holding the lock."""
    out = Path(out)
    check_places(out)
    if not out.is_dir():
        return
    with naming(out):
        try:
            check_unlocked(out)
        except PackLocked as exc:
            raise PackError(str(exc)) from None
        _refuse(spec, out, resume, spec.inputs(), force, _read_manifest(out))


def _prepare(spec: PackSpec, out: Path, resume: bool, inputs: Mapping[str, Any], force: bool = False) -> Finished:
    """The puzzles already made (with `resume`); refuses a directory that is not this pack's,
    and a resume whose parameters or inputs are not the ones the pack was started with."""
    manifest = _read_manifest(out)
    _refuse(spec, out, resume, inputs, force, manifest)
    if manifest is None:
        return Finished()
    for stale in [*out.glob(".*.tmp"), *(out / PUZZLE_DIR).glob(".*.tmp")]:
        stale.unlink()  # a write cut short by the interruption
    return _load_finished(spec, out, _recorded_hashes(out, manifest))


def _refuse(spec: PackSpec, out: Path, resume: bool, inputs: Mapping[str, Any], force: bool,
            manifest: dict[str, Any] | None) -> None:
    """PackError if `out` is not this pack's to write or resume (see `_prepare`)."""
    if manifest is None:
        if resume and out.exists() and any((out / PUZZLE_DIR).glob("*.json")):
            raise PackError(f"{out}: puzzles without a manifest; cannot tell how they were made")
        others = _foreign_files(out)
        if others and not force:
            raise PackError(f"{out} holds files that are not a pack ({others}); choose an empty or new "
                            "directory, or pass --force to write the pack among them")
        return
    if not resume and _holds_no_puzzle(out, manifest):
        return  # nothing of it to keep: a new pack, whatever its options, takes the folder over
    if not resume:
        raise PackError(f"{out} already holds a pack; use --resume to complete it or choose a new directory")
    if not isinstance(manifest.get("inputs"), dict) or PUZZLE_HASHES not in manifest:
        # Without them nothing tells a puzzle file of this pack from a swapped or edited one.
        raise PackError(f"{out}: its manifest (version {manifest.get('version', '?')}) records no fingerprints "
                        "of its inputs and puzzles, so it cannot be resumed safely; start the pack anew")
    changed = _changed_input(manifest["inputs"], inputs)
    if changed:
        raise PackError(f"{out}: {changed}; --resume needs the inputs it was started with (or start a new pack "
                        "in another directory)")
    started_with, now = manifest.get("parameters"), json.loads(json.dumps(spec.parameters()))
    if started_with != now:
        raise PackError(f"{out}: this command has different parameters than the pack was started with "
                        f"({_changed_parameters(started_with, now)}); --resume needs the same options (the manifest "
                        "records the command that started it)")


def _holds_no_puzzle(out: Path, manifest: Mapping[str, Any]) -> bool:
    """Whether the pack in `out` records no puzzle and has none on disk (a start that failed)."""
    return (not manifest.get(PUZZLE_HASHES) and not (out / JOURNAL).exists()
            and not any((out / PUZZLE_DIR).glob("*.json")))


def _changed_input(then: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """What differs between the inputs a pack was started with and those given now ("" if nothing)."""
    for option in sorted(set(then) | set(now)):
        before, after = then.get(option), now.get(option)
        if after is None:
            source = before.get("source") if isinstance(before, dict) else None
            return f"the pack was started with {option}{f' {source}' if source else ''}, which this command leaves out"
        if not isinstance(before, dict):
            return f"this command gives {option} {after['source']}, which the pack was started without"
        if before.get("sha256") != after["sha256"]:
            return (f"{option} {after['source']} changed since the pack was started (sha256 "
                    f"{str(before.get('sha256'))[:12]}… then, {after['sha256'][:12]}… now)")
    return ""


# Differing parameters named in a refused resume; the manifest lists them all.
PARAMETERS_SHOWN = 3
# A parameter's value is cut to this many characters in that line (a ban list can be long).
VALUE_CHARS = 40


def _changed_parameters(then: Any, now: Mapping[str, Any]) -> str:
    """The parameters that differ, as "count 4 then, 5 now" (a manifest without parameters: every one)."""
    then = then if isinstance(then, dict) else {}
    names = sorted(name for name in set(then) | set(now) if then.get(name) != now.get(name))
    listed = "; ".join(f"{name} {_value(then.get(name))} then, {_value(now.get(name))} now"
                       for name in names[:PARAMETERS_SHOWN])
    return listed + (f" and {len(names) - PARAMETERS_SHOWN} more" if len(names) > PARAMETERS_SHOWN else "")


def _value(value: Any) -> str:
    text = "none" if value is None else json.dumps(value)
    return text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS - 1] + "…"


def _foreign_files(out: Path) -> str:
    """A few of the entries of `out` a pack would not have made there ("" if none, or no `out`)."""
    if not out.is_dir():
        return ""
    names = sorted(p.name for p in out.iterdir() if p.name not in (LOCK_NAME, JOURNAL))
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


# The names a pack writes in its directory, and in its folder of puzzles (each puzzle's id, then its suffix).
PACK_NAMES = (MANIFEST, JOURNAL, INDEX, BOOKLET, LOCK_NAME)
PUZZLE_NAMES = "[0-9][0-9][0-9][0-9]*"


def check_places(out: Path) -> None:
    """PackError unless `out` is a directory (or a new name) whose entries of the pack's names are regular
    files: a pack computed for minutes must not then find a FIFO or a device where a file goes, and is
    never written over one (`write_atomic` refuses it too, but only at that file's write)."""
    with naming(out):
        if out.exists() and not out.is_dir():
            raise PackError(f"{out} is {kind_of(out.stat().st_mode)}, not a directory for a pack")
        folder = out / PUZZLE_DIR
        if folder.exists() and not folder.is_dir():
            raise PackError(f"{folder} is {kind_of(folder.stat().st_mode)}, not the pack's folder of puzzles; "
                            "remove it, or choose another directory")
        places = [out / name for name in PACK_NAMES] + (sorted(folder.glob(PUZZLE_NAMES)) if folder.is_dir() else [])
        for place in places:
            try:
                replaceable(place)
            except NotRegularFile as exc:
                raise PackError(f"{place} is {exc.what}, not a regular file; a pack writes only regular files: "
                                "remove it, or choose another directory") from None


def _make_directory(out: Path) -> Path | None:
    """Create `out` (and its missing parents); the topmost directory created, None if `out` was there.

    Of two runs starting at once only one creates `out`, so only that one
    ever removes it."""
    if out.exists():
        return None
    top = out
    while not top.parent.exists() and top.parent != top:
        top = top.parent
    try:
        out.mkdir(parents=True)
    except FileExistsError:
        return None
    return top


def _remove_failed_start(out: Path, created: Path | None) -> None:
    """Undo a start that wrote no puzzle, so the corrected command is not refused."""
    if created is not None:
        shutil.rmtree(out, ignore_errors=True)
        for parent in out.parents:  # the parents it created, while they stay empty
            if not parent.is_relative_to(created):
                break
            try:
                parent.rmdir()
            except OSError:
                break
        return
    (out / MANIFEST).unlink(missing_ok=True)
    (out / JOURNAL).unlink(missing_ok=True)
    puzzles = out / PUZZLE_DIR
    if puzzles.is_dir() and not any(puzzles.iterdir()):
        puzzles.rmdir()


def _manifest(spec: PackSpec, command: str, inputs: Mapping[str, Any], puzzles: Mapping[int, Mapping[str, Any]],
              hashes: Mapping[int, str], timings: Mapping[int, tuple[float, float]], started: float,
              complete: bool,
              report: Mapping[str, Any] | None = None,
              skipped_exports: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    manifest = {
        "tool": "mobius-puzzles", "version": tool_version(), "command": command, "kind": spec.kind,
        "seed": spec.seed, "parameters": spec.parameters(), **spec.describe(), **(report or {}),
        "inputs": dict(inputs), PUZZLE_HASHES: {puzzle_id(i): hashes[i] for i in sorted(puzzles)},
        "status": "complete" if complete else "incomplete",
        "counts": {"requested": spec.count, "written": len(puzzles),
                   "rejected": sum(int(p.get("rejected", 0)) for p in puzzles.values())},
        "timings": {"wall_s": round(time.monotonic() - started, 3),
                    "per_puzzle_s": {f"{i + 1:04d}": round(t[0], 4) for i, t in sorted(timings.items())},
                    "per_puzzle_cpu_s": {f"{i + 1:04d}": round(t[1], 4) for i, t in sorted(timings.items())}},
    }
    if skipped_exports is not None:
        manifest["skipped_exports"] = skipped_exports
    return manifest


def _write_manifest(out: Path, manifest: Mapping[str, Any]) -> None:
    """Write the manifest; the journal's hashes are in it now."""
    write_atomic(out / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    (out / JOURNAL).unlink(missing_ok=True)


def _commit(spec: PackSpec, out: Path, index: int, puzzle: dict[str, Any], hashes: dict[int, str]) -> None:
    """Write a puzzle that passes its check, its hash in the journal first; the same bytes as on disk are kept."""
    problems = spec.verify(puzzle)
    if problems:
        raise VerificationError(f"puzzle {index + 1} failed its independent check (a bug; not written): "
                                + "; ".join(problems[:5]))
    data = encode(puzzle)
    digest = sha256_of(data)
    if hashes.get(index) == digest:  # made again as it was (a job replayed on resume): the file holds it
        return
    # Journalled before the rename: a kill in between leaves a hash the file fails, so it is made again.
    with naming(out / JOURNAL), open(out / JOURNAL, "ab") as journal:
        journal.write(f"{puzzle_id(index)} {digest}\n".encode())
        journal.flush()
        os.fsync(journal.fileno())
    write_atomic(puzzle_path(out, index), data)
    hashes[index] = digest


def memo_name(spec: PackSpec, inputs: Mapping[str, Any]) -> str:
    """The memo of a pack's jobs: one for each kind, parameters, inputs and version of the tool."""
    return "pack-" + digest(spec.kind, spec.parameters(), inputs, tool_version())


# Reasons a failed pack names, and puzzle numbers given for each (the manifest has every puzzle's).
REASONS_SHOWN = 3
NUMBERS_SHOWN = 5


def by_reason(reasons: Mapping[int, str]) -> str:
    """Why puzzles failed, one entry a reason: "puzzles 1, 2 and 3: why; puzzle 5: other" (the first few)."""
    groups: dict[str, list[int]] = {}
    for index, why in sorted(reasons.items()):
        groups.setdefault(why, []).append(index + 1)
    listed = [f"{_numbers(numbers)}: {why}" for why, numbers in list(groups.items())[:REASONS_SHOWN]]
    more = len(groups) - REASONS_SHOWN
    return "; ".join(listed) + (f"; and {more} other reason{'s' if more > 1 else ''}" if more > 0 else "")


def _numbers(numbers: list[int]) -> str:
    """How puzzle numbers read in a line: "puzzle 3", "puzzles 1 and 2", "puzzles 1, 2, 3, 4, 5 and 7 more"."""
    if len(numbers) == 1:
        return f"puzzle {numbers[0]}"
    shown = [str(n) for n in numbers[:NUMBERS_SHOWN]]
    if len(numbers) > NUMBERS_SHOWN:
        return f"puzzles {', '.join(shown)} and {len(numbers) - NUMBERS_SHOWN} more"
    return f"puzzles {', '.join(shown[:-1])} and {shown[-1]}"


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
    check_places(out)
    with naming(out):
        created = _make_directory(out)
    with ExitStack() as held:
        try:
            held.enter_context(lock_pack(out))
        except PackLocked as exc:  # another run holds `out`: nothing of it is touched, even if this run made it
            raise PackError(str(exc)) from None
        except BaseException:
            if created is not None:
                _remove_failed_start(out, created)
            raise
        return _build_locked(spec, out, created, workers=workers, executor=executor, scheduler=scheduler,
                             resume=resume, force=force, command=command, exports=exports, on_progress=on_progress)


def _build_locked(spec: PackSpec, out: Path, created: Path | None, *, workers: int, executor: str,
                  scheduler: Any, resume: bool, force: bool, command: str, exports: bool,
                  on_progress: Callable[[Progress], None] | None) -> dict[int, dict[str, Any]]:
    """`build_pack` once this run holds the directory."""
    started = time.monotonic()
    inputs = spec.inputs()
    try:
        finished = _prepare(spec, out, resume, inputs, force)
    except BaseException:
        if created is not None:  # refused in a directory this run made: it holds nothing but the lock
            _remove_failed_start(out, created)
        raise
    stored, hashes = finished.puzzles, finished.hashes
    fresh = not stored  # a pack without a puzzle yet, which a failed start must not leave behind
    runner = None
    try:
        runner = make_executor(executor, workers, scheduler)
        plan = plan_of(spec, runner)
        _write_manifest(out, _manifest(spec, command, inputs, stored, hashes, {}, started, complete=False))
    except BaseException:
        if runner is not None:
            runner.abort()
        if fresh:
            _remove_failed_start(out, created)
        raise
    puzzles: dict[int, dict[str, Any]] = {}
    timings: dict[int, tuple[float, float]] = {}  # index -> job wall and CPU seconds, every attempt summed
    memo = WorkMemo(memo_name(spec, inputs))
    progress = Progress(spec.count, notes=plan.notes)
    if on_progress:
        on_progress(progress)

    def accept(result: JobResult) -> None:
        if stored.get(result.index) is not result.puzzle:  # a stored puzzle is on disk already
            _commit(spec, out, result.index, result.puzzle, hashes)
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
        not_made = run_rounds(spec, plan, runner, stored, accept, timings, redone, waiting, memo)
        problems = {} if not_made else plan.final_problems(puzzles)
    except BaseException:
        runner.abort()
        if fresh and not puzzles:  # nothing to resume: as if never started
            _remove_failed_start(out, created)
        else:
            try:
                _write_manifest(out, _manifest(spec, command, inputs, {**stored, **puzzles}, hashes, timings,
                                               started, complete=False, report=plan.report(puzzles)))
            except OSError:
                pass  # the disk that ended the run, whose error is the one to report: the journal keeps the hashes
        raise
    runner.close()
    if not_made and fresh and not puzzles:  # a retry with other options must find the place as it was
        _remove_failed_start(out, created)
    else:
        _write_manifest(out, _manifest(spec, command, inputs, {**stored, **puzzles}, hashes, timings, started,
                                       complete=False, report=plan.report(puzzles)))
    if not_made:
        kept = f"the other {len(puzzles)} are written in {out}" if puzzles else "no puzzle was written"
        raise PackError(f"{len(not_made)} of {spec.count} puzzles could not be made ({by_reason(not_made)}); {kept}")
    if problems:
        raise VerificationError(f"the finished pack fails its final check (a bug; not marked complete): "
                                f"{by_reason(problems)}")
    # The exporters (reportlab among them) load only when a pack gets as far as writing its exports.
    from mobius.generators.pack_exports import write_exports

    progress.phase = "exports"

    def exported(count: int) -> None:
        progress.exported = count
        if on_progress:
            on_progress(progress)

    ordered = [puzzles[i] for i in range(spec.count)]
    skipped = write_exports(ordered, out / PUZZLE_DIR, out / BOOKLET, write_atomic, exported,
                            title=spec.describe().get("title", "")) if exports else []
    progress.skipped_exports = sum(group["count"] for group in skipped)
    manifest = _manifest(spec, command, inputs, puzzles, hashes, timings, started, complete=True,
                         report=plan.report(puzzles), skipped_exports=skipped)
    # The page first: a manifest that says complete comes with everything it lists.
    write_atomic(out / INDEX, pack_index(manifest, ordered).encode("utf-8"))
    _write_manifest(out, manifest)
    memo.discard()  # the puzzles are the pack's now
    if on_progress:
        on_progress(progress)
    return puzzles
