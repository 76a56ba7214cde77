"""Fault family `entries`: cache entries and word lists that cannot hang, crash or lie.

Covers: every cache the project reads back, each target built once into a
pristine cache by the command a user runs — the word-list cache entry and
the lemma table (`crossword fill` of a 5×5 from the system's `words`), the
table store's metadata, data and build lock (`slider solve` on the 3×3),
numba's kernel cache (`crossword fill --solver reference:compiled=true`) —
then, per case, a fresh copy of that cache with one file damaged: a FIFO, a
link to /dev/zero or a sparse file of a terabyte in its place, JSON nested
100,000 deep, or an entry forged with a digest to match (header fields of
the wrong type or out of range, offsets past the data, a non-ASCII word, a
rank past the words, a mask bit past the last word, a non-UTF-8 or cut
lemma row). A case is right when the command ends within its timeout and
memory, with no traceback, one warning line naming the damaged file and the
pristine run's answer (the same fill; the 3×3's length from a BFS over every
state), and a second run then prints nothing on stderr and the same answer
(the entry was rebuilt). Word lists with one line of 20,000,000 letters
(plain, scored, gzip) or of 1,000,000 under a 4 GB address space must fill
as the list without that line does, with nothing on stderr.

Leaves out: bit flips of the table store's files (family `cache`), the
work folders of a build, and kernels a warm-up does not load
(`mobius.cpmodel.kernel_cache`).
"""

from __future__ import annotations

import concurrent.futures
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import xxhash

from mobius.benchmarks.faults import Outcome
from mobius.benchmarks.faults.cache import grid3_starts
from mobius.benchmarks.fuzz_cli import classify

NAME = "entries"
DESCRIPTION = ("a FIFO, a device, a sparse terabyte, deep JSON or a forged entry with a matching digest in "
               "each cache's place, and word lists with a line of millions of letters")

ROOT = Path(__file__).resolve().parents[2]
GRID = ROOT / "benchmarks" / "data" / "crossword" / "vanbeek" / "05.01.txt"  # 5×5, every light five letters
SYSTEM_WORDS = Path("/usr/share/dict/words")
WARNING = "mobius: warning: "
# As the issue ran it: `ulimit -v 4000000` (kB).
MEMORY_BYTES = 4_000_000 * 1024
# Seconds per run: the fills take one or two, a 3×3 table build a few, a fresh compile of the
# crossword kernels under a minute on a loaded machine.
TIMEOUT_S = 180
NESTED = "[" * 100_000 + "]" * 100_000
TERABYTE = 1 << 40
# A list line of this many letters: the fault wave's 20 MB list.
HUGE_LINE = 20_000_000

Damage = Callable[[Path], None]


# --- running the CLI --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    code: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    problem: str | None  # what promise it broke (fuzz_cli.classify): hang, memory, traceback, exit, multi-line


def mobius(args: list[str], home: Path, env: dict[str, str] | None = None) -> Run:
    """`python -m mobius ARGS` with the XDG cache home `home`, under MEMORY_BYTES and TIMEOUT_S."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))

    environment = os.environ | {"XDG_CACHE_HOME": str(home)} | (env or {})
    try:
        done = subprocess.run([sys.executable, "-m", "mobius", *args], env=environment, capture_output=True,
                              text=True, errors="replace", timeout=TIMEOUT_S, preexec_fn=limit,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Run(None, "", "", "hang")
    killed = done.returncode < 0
    return Run(done.returncode, done.stdout, done.stderr, classify(done.returncode, done.stderr, killed=killed))


# --- what each target runs, and its answer ------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """A kind of cache file: the command that reads it, and where it lies under an XDG cache home."""

    name: str
    args: tuple[str, ...]
    pattern: str  # the damaged file, a glob under the XDG cache home
    numba: bool = False  # numba's cache under the home too (NUMBA_CACHE_DIR)

    def env(self, home: Path) -> dict[str, str]:
        return {"NUMBA_CACHE_DIR": str(home / "numba")} if self.numba else {}

    def run(self, home: Path) -> Run:
        return mobius(list(self.args), home, self.env(home))

    def find(self, home: Path) -> Path:
        found = sorted(home.glob(self.pattern))
        if not found:
            raise RuntimeError(f"{self.name}: nothing matches {self.pattern} under {home}")
        return found[0]


def answer(run: Run) -> Any:
    """What must not change however the cache is damaged: a fill's grid and words, or a slide's length."""
    payload = json.loads(run.stdout)
    if "rows" in payload:
        return payload["status"], payload["rows"], [entry["word"] for entry in payload["entries"]]
    return payload["length"], payload["optimal"]


def fill_args(dictionary: str, *extra: str) -> tuple[str, ...]:
    return ("crossword", "fill", str(GRID), "--dict", dictionary, "--time-limit", "60", "--json", *extra)


def targets(seed: int) -> tuple[dict[str, Target], int]:
    """Every target by name, and the 3×3 start's BFS length."""
    ((start, optimum),) = grid3_starts(1, seed)
    slide = ("slider", "solve", "grid:3x3", "--start", " ".join(map(str, start)), "--solver", "idastar",
             "--time-limit", "120", "--json")
    found = [
        Target("word entry", fill_args("words"), "mobius-puzzles/words/*.bin"),
        Target("lemma table", fill_args("words"), "mobius-puzzles/lemmas.tsv"),
        Target("store metadata", slide, "mobius-puzzles/*.json"),
        Target("store data", slide, "mobius-puzzles/*.npy"),
        Target("store lock", slide, "mobius-puzzles/*.lock"),
        Target("kernel index", fill_args("words", "--no-clues", "--solver", "reference:compiled=true"),
               "numba/*/compiled._search-*.nbi", numba=True),
        Target("kernel data", fill_args("words", "--no-clues", "--solver", "reference:compiled=true"),
               "numba/*/compiled._search-*.1.nbc", numba=True),
    ]
    return {target.name: target for target in found}, optimum


# --- the damage -------------------------------------------------------------------------------------------

def fifo(path: Path) -> None:
    """A FIFO in the file's place (nothing ever writes to it)."""
    path.unlink()
    os.mkfifo(path)


def device_link(path: Path) -> None:
    """A symbolic link to /dev/zero in the file's place (endless zeros to whoever reads it)."""
    path.unlink()
    path.symlink_to("/dev/zero")


def sparse_terabyte(path: Path) -> None:
    """The file made a terabyte long, its beginning kept (sparse: it takes no disk, but minutes to read)."""
    with open(path, "r+b") as handle:
        handle.truncate(TERABYTE)


def nested(path: Path) -> None:
    """The file replaced by JSON nested 100,000 deep."""
    path.write_text(NESTED, encoding="ascii")


def lock_fifo(path: Path) -> None:
    """A FIFO for the lock, and the entry's metadata gone, so that the run must build and lock."""
    fifo(path)
    path.with_suffix(".json").unlink()


# A word-list cache entry: MAGIC, the xxh3-128 of the rest, a 4-byte header length, the header, the data.
MAGIC_BYTES, DIGEST_BYTES, LENGTH_BYTES = 8, 16, 4


def forged_entry(change: Callable[[dict[str, Any], bytearray], bytes | None]) -> Damage:
    """A damage that edits a word-list entry's header (a dict) and data, then writes a digest to match;
    `change` may return raw header bytes instead of the edited dict."""
    def damage(path: Path) -> None:
        raw = path.read_bytes()
        at = MAGIC_BYTES + DIGEST_BYTES
        size = int.from_bytes(raw[at:at + LENGTH_BYTES], "little")
        header = json.loads(raw[at + LENGTH_BYTES:at + LENGTH_BYTES + size])
        data = bytearray(raw[at + LENGTH_BYTES + size:])
        text = change(header, data) or json.dumps(header, separators=(",", ":")).encode()
        body = len(text).to_bytes(LENGTH_BYTES, "little") + text + bytes(data)
        path.write_bytes(raw[:MAGIC_BYTES] + xxhash.xxh3_128_digest(body) + body)
    return damage


def _set(field: str, value: Any) -> Callable[[dict[str, Any], bytearray], None]:
    return lambda header, data: header.update({field: value})


def _row(index: int, place: int, value: Any) -> Callable[[dict[str, Any], bytearray], None]:
    def change(header: dict[str, Any], data: bytearray) -> None:
        header["lengths"][index][place] = value
    return change


def _five_letters(header: dict[str, Any]) -> list[int]:
    """The header's row of five-letter words (the 5×5's lights): [length, words, offset, mask bytes]."""
    return next(row for row in header["lengths"] if row[0] == 5)


def _rank_past(header: dict[str, Any], data: bytearray) -> None:
    offset = _five_letters(header)[2]
    data[offset:offset + 4] = (0xFFFFFFFF).to_bytes(4, sys.byteorder)


def _mask_past(header: dict[str, Any], data: bytearray) -> None:
    length, size, offset, mask_bytes = _five_letters(header)
    if size % 8 == 0:
        raise RuntimeError("the five-letter words fill their last mask byte: no bit lies past the last word")
    last = offset + size * 4 + size + mask_bytes - 1  # the last byte of the first mask
    data[last] |= 0x80


def _non_ascii(header: dict[str, Any], data: bytearray) -> None:
    data[0] = 0xC9


def _unsorted(header: dict[str, Any], data: bytearray) -> None:
    words = bytes(data[:header["text_bytes"]]).split(b"\n")
    first = next(k for k in range(len(words) - 1) if len(words[k]) == len(words[k + 1]))
    words[first], words[first + 1] = words[first + 1], words[first]
    data[:header["text_bytes"]] = b"\n".join(words)


def _score(header: dict[str, Any], data: bytearray) -> None:
    data[header["text_bytes"]] = 200


def _header_list(header: dict[str, Any], data: bytearray) -> bytes:
    return b"[" + json.dumps(header).encode() + b"]"


def _header_nested(header: dict[str, Any], data: bytearray) -> bytes:
    return ("[" * 40 + "]" * 40).encode()


WORD_ENTRY: dict[str, Damage] = {
    "a FIFO": fifo,
    "a link to /dev/zero": device_link,
    "a sparse terabyte": sparse_terabyte,
    "forged: dropped a string": forged_entry(_set("dropped", "7")),
    "forged: dropped negative": forged_entry(_set("dropped", -1)),
    "forged: duplicates null": forged_entry(_set("duplicates", None)),
    "forged: one word more": forged_entry(lambda h, d: h.update(words=h["words"] + 1)),
    "forged: text past the data": forged_entry(_set("text_bytes", 10 ** 12)),
    "forged: an offset moved": forged_entry(_row(0, 2, 1)),
    "forged: a length of 10**6": forged_entry(_row(-1, 0, 10 ** 6)),
    "forged: a row of strings": forged_entry(_row(0, 1, "3")),
    "forged: lengths an object": forged_entry(_set("lengths", {"5": 1})),
    "forged: header a list": forged_entry(_header_list),
    "forged: header nested 40 deep": forged_entry(_header_nested),
    "forged: a non-ASCII word": forged_entry(_non_ascii),
    "forged: words out of order": forged_entry(_unsorted),
    "forged: a score of 200": forged_entry(_score),
    "forged: a rank past the words": forged_entry(_rank_past),
    "forged: a mask bit past the last word": forged_entry(_mask_past),
}


def forged_table(change: Callable[[bytes], bytes]) -> Damage:
    """A damage that edits the lemma table's rows and writes a checksum to match."""
    import hashlib

    def damage(path: Path) -> None:
        head, _, rows = path.read_bytes().partition(b"\n")
        header = json.loads(head)
        rows = change(rows)
        header["sha256"] = hashlib.sha256(rows).hexdigest()
        path.write_bytes(json.dumps(header, sort_keys=True).encode() + b"\n" + rows)
    return damage


LEMMA_TABLE: dict[str, Damage] = {
    "a FIFO": fifo,
    "a link to /dev/zero": device_link,
    "a sparse terabyte": sparse_terabyte,
    "header nested 100,000 deep": lambda path: path.write_bytes(
        NESTED.encode() + b"\n" + path.read_bytes().partition(b"\n")[2]),
    "forged: a non-UTF-8 row": forged_table(lambda rows: rows.replace(b"\n", b"\n\xff\xfe\tx\n", 1)),
    "forged: a row without a tab": forged_table(lambda rows: rows.replace(b"\t", b" ", 1)),
    "forged: the last row cut": forged_table(lambda rows: rows[:-1]),
}

STORE_METADATA: dict[str, Damage] = {
    "a FIFO": fifo,
    "a link to /dev/zero": device_link,
    "JSON nested 100,000 deep": nested,  # the fault wave's RecursionError
}

STORE_DATA: dict[str, Damage] = {
    "a FIFO": fifo,
    "a link to /dev/zero": device_link,
    "a sparse terabyte": sparse_terabyte,
}

STORE_LOCK: dict[str, Damage] = {"a FIFO (the entry to build)": lock_fifo}

KERNEL: dict[str, Damage] = {
    "a FIFO": fifo,
    "a link to /dev/zero": device_link,
    "a sparse terabyte": sparse_terabyte,
}

CASES: dict[str, dict[str, Damage]] = {
    "word entry": WORD_ENTRY, "lemma table": LEMMA_TABLE, "store metadata": STORE_METADATA,
    "store data": STORE_DATA, "store lock": STORE_LOCK, "kernel index": KERNEL, "kernel data": KERNEL}


# --- one case -----------------------------------------------------------------------------------------------

def prepare(target: Target, home: Path) -> Any:
    """Build `target`'s caches in `home` by running its command once (a table build leaves its lock
    file); its answer."""
    first = target.run(home)
    if first.problem or first.code != 0:
        raise RuntimeError(f"{target.name}: the pristine run failed ({first.problem}): {first.stderr.strip()}")
    target.find(home)
    return answer(first)


def damage_case(target: Target, pristine: Path, expected: Any, workdir: Path, case: str,
                damage: Damage) -> Outcome:
    """Copy the pristine home, damage the target's file, run twice, judge."""
    home = Path(tempfile.mkdtemp(dir=workdir, prefix="case-"))
    try:
        shutil.copytree(pristine, home, dirs_exist_ok=True, symlinks=True)
        path = target.find(home)
        damage(path)
        first = target.run(home)
        wrong = judge(first, expected, str(path), warned=True)
        second = target.run(home) if not wrong else None
        if second is not None:
            wrong = [f"second run: {problem}" for problem in judge(second, expected, str(path), warned=False)]
            if not wrong and not path.is_file():
                wrong = ["the entry was not rebuilt as a regular file"]
        detail = "; ".join(wrong) or f"one warning: {first.stderr.strip()[:160]}"
        return Outcome(NAME, f"{target.name}: {case}", first.code, not wrong, detail)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def judge(run: Run, expected: Any, damaged: str, warned: bool) -> list[str]:
    """What is wrong with `run`: a broken promise, another answer, or not exactly the warnings expected."""
    if run.problem:
        return [f"{run.problem}: {run.stderr.strip()[-200:]}"]
    if run.code != 0:
        return [f"exit {run.code}: {run.stderr.strip()[-200:]}"]
    lines = run.stderr.strip().splitlines()
    wrong = []
    if answer(run) != expected:
        wrong.append(f"answer {answer(run)!r}, expected {expected!r}")
    if warned and not (len(lines) == 1 and lines[0].startswith(WARNING) and damaged in lines[0]):
        wrong.append(f"{len(lines)} lines on stderr, expected one warning naming {damaged}: {lines[:3]}")
    if not warned and lines:
        wrong.append(f"stderr not empty: {lines[:3]}")
    return wrong


# --- word lists ---------------------------------------------------------------------------------------------

def word_lists(workdir: Path) -> dict[str, Path]:
    """Word lists of the system's words and one enormous line, by case."""
    words = SYSTEM_WORDS.read_bytes()
    made = {
        "a line of 20,000,000 letters": (b"a" * HUGE_LINE + b"\n" + words, False),
        "a scored entry of 20,000,000 letters": (
            b"".join(line + b";50\n" for line in words.split()) + b"a" * HUGE_LINE + b";50\n", False),
        "gzip of a line of 20,000,000 letters": (words + b"z" * HUGE_LINE + b"\n", True),
        "a line of 1,000,000 letters": (words + b"b" * 1_000_000 + b"\n", False),
    }
    lists = {}
    for number, (case, (data, packed)) in enumerate(made.items()):
        path = workdir / f"list{number}.txt"
        path.write_bytes(gzip.compress(data, 1) if packed else data)
        lists[case] = path
    return lists


def word_list_case(workdir: Path, case: str, path: Path, expected: Any) -> Outcome:
    home = Path(tempfile.mkdtemp(dir=workdir, prefix="list-"))
    try:
        run = mobius(list(fill_args(str(path))), home)
        wrong = judge(run, expected, str(path), warned=False)
        return Outcome(NAME, f"word list: {case}", run.code, not wrong, "; ".join(wrong) or "filled as without it")
    finally:
        shutil.rmtree(home, ignore_errors=True)


# --- the family ---------------------------------------------------------------------------------------------

def run(cases: int, seed: int, workdir: Path) -> list[Outcome]:
    """Every case once (they are not random: `cases` does not change them; `seed` picks the 3×3's start),
    MOBIUS_FAULTS_JOBS at a time (default 2). The pristine answers are checked first: the 3×3's against
    its BFS length."""
    found, optimum = targets(seed)
    tasks: list[Callable[[], Outcome]] = []
    homes: dict[tuple[str, ...], tuple[Path, Any]] = {}
    for name, target in found.items():
        key = target.args + (str(target.numba),)
        if key not in homes:
            home = workdir / f"pristine-{len(homes)}"
            homes[key] = home, prepare(target, home)
        home, expected = homes[key]
        if target.args[0] == "slider" and expected != (optimum, True):
            raise RuntimeError(f"the pristine 3×3 solve says {expected}, its BFS length is {optimum}")
        for case, damage in CASES[name].items():
            tasks.append(lambda t=target, h=home, e=expected, c=case, d=damage: damage_case(t, h, e, workdir, c, d))
    plain = homes[found["word entry"].args + ("False",)][1]
    for case, path in word_lists(workdir).items():
        tasks.append(lambda c=case, p=path: word_list_case(workdir, c, p, plain))
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("MOBIUS_FAULTS_JOBS", "2"))) as pool:
        return list(pool.map(lambda task: task(), tasks))
