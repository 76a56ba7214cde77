"""The `packs` fault family: pack directories that two runs, changed inputs, damaged files or kill -9 meet.

Covers four kinds of case, taken in turn, on a slider pack (a ring board
read from a file) and a crossword pack (7×5 Möbius strip, with `--dict`,
`--clues`, `--ban` and `--allow` files), each compared with an
uninterrupted reference run of the same command:

- `concurrent`: two packs of different seeds started into one new directory
  a random moment apart: exactly one is made (exit 0, byte-identical to the
  uninterrupted run of its seed, its manifest naming that seed) and the
  other is refused in one line (exit 2);
- `changed --OPTION`: an interrupted pack (random puzzle files deleted)
  resumed after one of its input files changed in place (same path, other
  content): refused in one line naming the option (exit 2), nothing in the
  directory touched;
- `swapped|edited|deleted|truncated puzzles`: puzzle files of a finished
  pack damaged so, then `--resume`: exit 0, byte-identical to the reference,
  the undamaged files not written again;
- `kill -9`: the pack's process group killed at a random moment of its run,
  then `--resume`: exit 0, byte-identical to the reference;
- `failed, then retried`: a crossword pack whose word list fills no grid
  (a few clued words of each length): exit 2 in one line and no directory
  left; then the reference's command, other options, into the same place:
  exit 0, byte-identical to the reference;
- `stopped`: SIGTERM at a random moment of a crossword pack's run: exit 130
  (or 0 after the end); a run stopped before its first puzzle leaves no
  directory; the same command run again (with `--resume` if the directory is
  there): exit 0, byte-identical to the reference (the work kept in the
  cache replayed);
- `full disk`: the pack written into a tmpfs of a random size below the
  pack's (root only: a mount; skipped elsewhere): exit 0 if it fits, else
  one line naming a real file of the pack (never a temporary one) and
  "No space left on device", exit 2, and nothing left behind when no
  puzzle was written; the disk then grown, `--resume`: exit 0,
  byte-identical to the reference.

Every run must end in exit 0, 2, 3 or 130, with no traceback and, when not
0, one line on stderr besides the pack plan's notes (a finished pack prints
its summary lines).

Leaves out: the short cases, which the tests hold (tests/generators/test_pack_safety.py).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mobius.benchmarks.faults import Outcome

NAME = "packs"
DESCRIPTION = ("pack directories: two runs at once, resume after a changed input, damaged puzzle files, "
               "kill -9 then resume")

DOCUMENTED_EXITS = (0, 2, 3, 130)
RUN_LIMIT_S = 600
# The second of two concurrent packs starts up to this long after the first
# (a run loads its inputs for a second or two before it takes the directory).
MAX_STAGGER_S = 1.5
# Kills fall within this share of the reference's wall time.
KILL_SHARE = 0.6
CROSSWORD_COUNT = 4
SLIDER_COUNT = 6


@dataclass
class Kind:
    """A kind of pack: its command (without --out and --seed), its input files, and its reference."""

    name: str
    args: list[str]
    inputs: dict[str, Path]
    seed: int
    reference: Path
    wall_s: float = 0.0  # how long the reference took: kills fall within it
    other: Path | None = None  # the reference of the next seed, for the concurrent cases; made on first use

    def command(self, out: Path, seed: int | None = None) -> list[str]:
        files = [str(a) for option, path in self.inputs.items() for a in (option, path)]
        return [*self.args, *files, "--seed", str(self.seed if seed is None else seed), "--out", str(out)]


@dataclass
class Fixtures:
    workdir: Path
    seed: int
    kinds: dict[str, Kind] = field(default_factory=dict)

    def kind(self, name: str) -> Kind:
        """The kind's reference pack, made on first use."""
        if name not in self.kinds:
            self.kinds[name] = _make_reference(name, self.workdir / "reference", self.seed)
        return self.kinds[name]


# The runs' environment: their table cache in the work directory, never the user's.
_ENV: dict[str, str] = {}


def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    _ENV.clear()
    _ENV.update(os.environ, XDG_CACHE_HOME=str(workdir / "cache"))
    rng = random.Random(seed)
    fixtures = Fixtures(workdir, seed)
    outcomes = []
    for number in range(cases):
        case = CASES[number % len(CASES)]
        where = workdir / f"case-{number:03d}"
        where.mkdir()
        outcome = case(fixtures, rng, where)
        if outcome is not None:  # None: the case cannot run here
            outcomes.append(outcome)
        shutil.rmtree(where, ignore_errors=True)
    return outcomes


# --- the reference packs ------------------------------------------------------------------

def write_crossword_inputs(files: Path) -> dict[str, Path]:
    """A crossword pack's input files in `files`, by option: every input a resume must find unchanged
    (a word list, a clue file with a word the list lacks, a ban and an allow list)."""
    from mobius.dictionaries import load

    inputs = {"--dict": files / "words.txt", "--clues": files / "clues.tsv", "--ban": files / "ban.txt",
              "--allow": files / "allow.txt"}
    inputs["--dict"].write_text(load("en", min_score=30).to_text())
    inputs["--clues"].write_text("AREA\tRegion\nQUIXE\tA made-up word\n")
    inputs["--ban"].write_text("ERA\n")
    inputs["--allow"].write_text("QUIXE\n")
    return inputs


def _make_reference(name: str, where: Path, seed: int) -> Kind:
    from mobius.cpmodel.slider.board import load_board

    files = where / f"{name}-inputs"
    files.mkdir(parents=True, exist_ok=True)
    if name == "slider":
        board = files / "ring.json"
        board.write_text(json.dumps(load_board("ring").to_json()))
        kind = Kind(name, ["pack", "slider", "--count", str(SLIDER_COUNT), "--depth", "3..8", "--workers", "1"],
                    {"--board": board}, seed, where / name)
    else:
        inputs = write_crossword_inputs(files)
        kind = Kind(name, ["pack", "crossword", "--count", str(CROSSWORD_COUNT), "--width", "7", "--height", "5",
                           "--workers", "2"], inputs, seed, where / name)
    started = time.monotonic()
    result = _mobius(kind.command(kind.reference))
    if result.returncode != 0:
        raise RuntimeError(f"the {name} reference pack failed: {result.stderr.strip()}")
    kind.wall_s = time.monotonic() - started
    return kind


# --- running the tool and judging what it did ---------------------------------------------------

def _mobius(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True,
                          timeout=RUN_LIMIT_S, env=_ENV)


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "mobius", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=_ENV)


def _end(proc: subprocess.Popen[str]) -> tuple[int, str]:
    """A started run's exit code and stderr, once it ends."""
    _, stderr = proc.communicate(timeout=RUN_LIMIT_S)
    return proc.returncode, stderr


def _misbehaviour(code: int | None, stderr: str) -> str:
    """What breaks the promises every run keeps ("" if none)."""
    if code not in DOCUMENTED_EXITS:
        return f"exit {code} is not documented"
    if "Traceback" in stderr:
        return "a traceback: " + stderr.strip().splitlines()[-1]
    # The pack plan's notes may come first, as they do before a Ctrl-C's line.
    lines = [line for line in stderr.strip().splitlines() if not line.startswith("note: ")]
    if code != 0 and len(lines) != 1:
        return f"{len(lines)} lines on stderr with exit {code}"
    return ""


def _puzzles(out: Path) -> dict[str, bytes]:
    folder = out / "puzzles"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.is_dir() else {}


def _snapshot(out: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(out)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file()}


def _other_seed(kind: Kind) -> Path:
    """The uninterrupted pack of the kind's next seed."""
    if kind.other is None:
        kind.other = kind.reference.with_name(f"{kind.name}-other")
        result = _mobius(kind.command(kind.other, seed=kind.seed + 1))
        if result.returncode != 0:
            raise RuntimeError(f"the {kind.name} reference pack of seed {kind.seed + 1} failed: "
                               f"{result.stderr.strip()}")
    return kind.other


def _same_as_reference(out: Path, kind: Kind, reference_pack: Path | None = None) -> str:
    """How the pack in `out` differs from the reference ("" if byte-identical and complete)."""
    mine, reference = _puzzles(out), _puzzles(reference_pack or kind.reference)
    differing = sorted(name for name in mine.keys() | reference.keys() if mine.get(name) != reference.get(name))
    if differing:
        return f"{len(differing)} files differ from the uninterrupted run, e.g. {differing[0]}"
    status = _manifest(out).get("status")
    return "" if status == "complete" else f"the manifest says {status}"


def _manifest(out: Path) -> dict:
    """The pack's manifest ({} if there is none)."""
    path = out / "manifest.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def _outcome(case: str, code: int | None, stderr: str, wrong: str) -> Outcome:
    problem = _misbehaviour(code, stderr) or wrong
    return Outcome(NAME, case, code, not problem, problem)


# --- the cases --------------------------------------------------------------------------

def concurrent(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    kind = fixtures.kind(rng.choice(["slider", "crossword"]))
    out = where / "pack"
    first = _start(kind.command(out))
    time.sleep(rng.uniform(0.0, MAX_STAGGER_S))
    second = _start(kind.command(out, seed=kind.seed + 1))
    ends = [_end(proc) for proc in (first, second)]
    case = f"concurrent {kind.name}"
    for code, stderr in ends:
        if _misbehaviour(code, stderr):
            return _outcome(case, code, stderr, "")
    codes = [code for code, _ in ends]
    if sorted(codes) != [0, 2]:
        return _outcome(case, codes[1], ends[1][1], f"exit codes {codes}: expected one run made and one refused")
    refused = ends[codes.index(2)][1]
    if "being written by another run" not in refused and "already holds a pack" not in refused:
        return _outcome(case, 2, refused, f"refused for another reason: {refused.strip()}")
    case += " (by the lock)" if "being written by another run" in refused else " (the other one had finished)"
    winner_seed = kind.seed if codes[0] == 0 else kind.seed + 1
    if _manifest(out).get("seed") != winner_seed:
        return _outcome(case, 2, refused, f"the manifest says seed {_manifest(out).get('seed')}, the run that "
                                          f"was made has seed {winner_seed}")
    reference = kind.reference if winner_seed == kind.seed else _other_seed(kind)
    return _outcome(case, 2, refused, _same_as_reference(out, kind, reference))


def changed_input(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    kind = fixtures.kind(rng.choice(["slider", "crossword", "crossword"]))
    option = rng.choice(sorted(kind.inputs))
    out = where / "pack"
    shutil.copytree(kind.reference, out)
    _interrupt_copy(out, rng)
    changed = kind.inputs[option]
    original = changed.read_text()
    changed.write_text(_changed_text(option, original, rng))
    before = _snapshot(out)
    try:
        result = _mobius([*kind.command(out), "--resume"])
    finally:
        changed.write_text(original)  # the other cases use it as it was
    case = f"changed {option}"
    wrong = ""
    if result.returncode != 2 or f"{option} {changed} changed" not in result.stderr:
        wrong = f"expected a refusal naming {option}: {result.stderr.strip()[-300:]}"
    elif _snapshot(out) != before:
        wrong = "the refused resume changed files of the pack"
    return _outcome(case, result.returncode, result.stderr, wrong)


def _interrupt_copy(out: Path, rng: random.Random) -> None:
    """Make a finished pack look interrupted: some puzzle files gone, the manifest incomplete."""
    puzzles = sorted((out / "puzzles").glob("*.json"))
    for path in rng.sample(puzzles, rng.randint(1, len(puzzles))):
        path.unlink()
    manifest = out / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"status": "complete"', '"status": "incomplete"'))
    (out / "index.html").unlink()


def _changed_text(option: str, text: str, rng: random.Random) -> str:
    """The input file's text with one change of a kind drawn at random."""
    if option == "--board":
        board = json.loads(text)
        board["edges"] = board["edges"][:-1] if rng.random() < 0.5 else board["edges"]
        board["layout"] = [[x + 0.5, y] for x, y in board["layout"]]
        return json.dumps(board)
    lines = text.splitlines(keepends=True)
    word = {"--dict": "QWERTZ;60\n", "--clues": "QWERTZ\tA keyboard\n"}.get(option, "QWERTZ\n")
    if rng.random() < 0.5 or len(lines) < 2:
        return text + word
    dropped = rng.randrange(1, len(lines))
    return "".join(line for n, line in enumerate(lines) if n != dropped)


DAMAGES = ("swapped", "edited", "deleted", "truncated")


def damaged_puzzles(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    kind = fixtures.kind(rng.choice(["slider", "crossword"]))
    damage = rng.choice(DAMAGES)
    out = where / "pack"
    shutil.copytree(kind.reference, out)
    puzzles = sorted((out / "puzzles").glob("*.json"))
    hit = rng.sample(puzzles, 2 if damage == "swapped" else rng.randint(1, len(puzzles) - 1))
    _damage(damage, hit, where)
    untouched = {p.name: p.stat().st_mtime_ns for p in puzzles if p not in hit}
    result = _mobius([*kind.command(out), "--resume"])
    wrong = "" if result.returncode == 0 else f"exit {result.returncode}: {result.stderr.strip()[-300:]}"
    if not wrong:
        wrong = _same_as_reference(out, kind)
    if not wrong and any((out / "puzzles" / n).stat().st_mtime_ns != t for n, t in untouched.items()):
        wrong = "an undamaged puzzle file was written again"
    return _outcome(f"{damage} puzzles", result.returncode, result.stderr, wrong)


def _damage(damage: str, paths: list[Path], where: Path) -> None:
    if damage == "swapped":
        spare = where / "spare.json"
        paths[0].rename(spare), paths[1].rename(paths[0]), spare.rename(paths[1])
        return
    for path in paths:
        data = path.read_bytes()
        if damage == "deleted":
            path.unlink()
        elif damage == "truncated":
            path.write_bytes(data[: len(data) // 2])
        else:  # the same JSON with other bytes, so only the hash can tell
            path.write_bytes(data.replace(b"\n", b"\n ", 1))


def killed(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    kind = fixtures.kind(rng.choice(["slider", "crossword"]))
    out = where / "pack"
    proc = _start(kind.command(out))
    when = _stop_at_random(proc, kind, rng, lambda pid: os.killpg(pid, signal.SIGKILL), out)
    proc.communicate()
    result = _mobius([*kind.command(out), "--resume"])
    wrong = "" if result.returncode == 0 else f"exit {result.returncode}: {result.stderr.strip()[-300:]}"
    return _outcome(f"kill -9 {kind.name}, {when}", result.returncode, result.stderr,
                    wrong or _same_as_reference(out, kind))


def _stop_at_random(proc: subprocess.Popen[str], kind: Kind, rng: random.Random, stop: Callable[[int], None],
                    out: Path) -> str:
    """Stop the run (`stop(pid)`) at a random moment within the reference's time; when that fell:
    "after the end", "before any puzzle" or "mid-pack"."""
    # The reference ran cold (its inputs unread, its tables unbuilt): a later run is quicker.
    moment = rng.uniform(0.0, KILL_SHARE * kind.wall_s)
    try:
        proc.wait(moment)
        return "after the end"
    except subprocess.TimeoutExpired:
        stop(proc.pid)
    return "mid-pack" if _written(out) else "before any puzzle"


def _written(out: Path) -> int:
    return len(list((out / "puzzles").glob("*.json"))) if (out / "puzzles").is_dir() else 0


# Clued words of each length from 3 to 7 in a list that fills no 7x5 grid.
FEW_WORDS = 5


def failed_then_retried(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    from mobius.dictionaries import load
    from mobius.generators.crossword.clues import load_bank

    kind = fixtures.kind("crossword")
    bank, en = load_bank(), load("en")
    few = where / "few.txt"
    few.write_text("".join(f"{w}\n" for n in range(3, 8) for w in [w for w in en.by_length(n) if w in bank][:FEW_WORDS]))
    out = where / "plane" / "pack"
    command = kind.command(out)
    failing = [*command, "--dict", str(few)]  # the last --dict is the one taken
    first = _mobius(failing)
    case = "failed, then retried"
    if first.returncode != 2 or "could not be made" not in first.stderr:
        return _outcome(case, first.returncode, first.stderr, f"expected the pack to fail: {first.stderr[-300:]}")
    if (where / "plane").exists():
        return _outcome(case, first.returncode, first.stderr, "the failed pack left its directory behind")
    result = _mobius(command)
    wrong = "" if result.returncode == 0 else f"the retry: exit {result.returncode}: {result.stderr.strip()[-300:]}"
    return _outcome(case, result.returncode, result.stderr, wrong or _same_as_reference(out, kind))


def stopped(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome:
    kind = fixtures.kind("crossword")
    out = where / "pack"
    proc = _start(kind.command(out))
    # The run itself, as a service manager stops it: it removes what it must before it ends.
    when = _stop_at_random(proc, kind, rng, lambda pid: os.kill(pid, signal.SIGTERM), out)
    code, stderr = _end(proc)
    case = f"SIGTERM, {when}"
    if code not in (0, 130) or _misbehaviour(code, stderr):
        return _outcome(case, code, stderr, f"exit {code}: {stderr.strip()[-300:]}")
    if code == 130 and not _written(out) and out.exists():
        return _outcome(case, code, stderr, "a run stopped before its first puzzle left its directory behind")
    result = _mobius([*kind.command(out), *(["--resume"] if out.exists() else [])])
    wrong = "" if result.returncode == 0 else f"exit {result.returncode}: {result.stderr.strip()[-300:]}"
    return _outcome(case, result.returncode, result.stderr, wrong or _same_as_reference(out, kind))


def full_disk(fixtures: Fixtures, rng: random.Random, where: Path) -> Outcome | None:
    kind = fixtures.kind(rng.choice(["slider", "crossword"]))
    needed_kb = sum(p.stat().st_size for p in kind.reference.rglob("*") if p.is_file()) // 1024
    disk = where / "disk"
    disk.mkdir()
    size_kb = rng.randint(4, needed_kb)
    if os.geteuid() != 0 or _mount(disk, size_kb):
        return None
    try:
        out = disk / "pack"
        first = _mobius(kind.command(out))
        case = f"full disk, {kind.name}"
        wrong = _full_disk_refusal(first, out)
        if wrong:
            return _outcome(case, first.returncode, first.stderr, wrong)
        _mount(disk, needed_kb * 4, remount=True)
        result = _mobius([*kind.command(out), "--resume"])
        wrong = "" if result.returncode == 0 else f"exit {result.returncode}: {result.stderr.strip()[-300:]}"
        return _outcome(f"{case}, {'resumed' if first.returncode else 'fitted'}", result.returncode, result.stderr,
                        wrong or _same_as_reference(out, kind))
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _mount(disk: Path, size_kb: int, remount: bool = False) -> int:
    """Mount (or resize) a tmpfs of `size_kb` on `disk`; mount's exit code."""
    options = f"{'remount,' if remount else ''}size={size_kb}k"
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(disk)], capture_output=True).returncode


def _full_disk_refusal(result: subprocess.CompletedProcess[str], out: Path) -> str:
    """What is wrong with how a run on a full disk ended ("" if it fitted or said so rightly)."""
    if result.returncode == 0 or _misbehaviour(result.returncode, result.stderr):
        return _misbehaviour(result.returncode, result.stderr)
    line = result.stderr.strip().splitlines()[-1]
    if result.returncode != 2 or "No space left on device" not in line or str(out) not in line or ".tmp" in line:
        return f"expected one line naming a file of the pack and the full disk: {line[-300:]}"
    if out.exists() and not list((out / "puzzles").glob("*.json")):
        return "a start that wrote no puzzle left the pack directory behind"
    return ""


CASES: tuple[Callable[[Fixtures, random.Random, Path], Outcome | None], ...] = (
    concurrent, changed_input, damaged_puzzles, killed, failed_then_retried, stopped, full_disk)
