"""Work a pack run did, kept in the user's cache, so that a run stopped before
its first puzzle loses none of it although its pack folder is removed.

Covers: `WorkMemo`, results of deterministic work by key, one JSON line each
in a file of the user's cache (``memo/NAME.jsonl``), and `digest`, the
sha256 of a value written as canonical JSON (dataclasses as their fields,
sets sorted), which names both a memo file and its entries. A pack keeps
two kinds there: the result of every job of a run by the job's input
(`rounds.run_rounds`; the file named by the pack's kind, parameters, inputs
and the tool's version, removed once the pack is complete), and the grids a
crossword pack drew where a draw is annealed (`pattern_space.PatternSurvey`;
by the pattern rules, an entry a draw seed), which a later pack of those
rules and seed draws again. Why here and not in the pack folder: a pack
that fails or is stopped before its first puzzle removes its folder, as
promised, so a retry with other options is never refused; the same
command run again, or a resume, replays that work from here. Every entry is
a function of its key alone, so a replay changes nothing a run makes.

A memo file is read once, bounded (`cache_files.read_entry`); a line cut
short by a kill, or one that does not parse, is skipped (its work done
again), and a file that cannot be read (not a regular file, larger than a
memo ever grows) is reported in one line and started afresh. Entries are
appended a line at a time, as the pack journal's are; a memo that cannot be
written (a full disk, a read-only cache) is given up for the run in one
warning line, never failing the run.

Leaves out: what each caller keys and keeps, the checks a replayed entry
still gets (a grid's pattern check, a puzzle's independent check before it
is written), and where the user's cache is (`cache.py`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mobius.cpmodel.cache_files import Damaged, read_entry, warn_on_stderr
from mobius.generators.cache import user_cache_dir

MEMO_DIR = "memo"
# A memo stops growing here (it is read whole at the start of a run): a pack of hundreds of 21x21
# puzzles and their failed attempts stays well below it.
MAX_MEMO_BYTES = 64 << 20


def plain(value: Any) -> Any:
    """`value` as JSON can hold it, the same whatever the process: dataclasses as their fields,
    sets sorted, mappings by key."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def digest(*parts: Any) -> str:
    """The sha256 of `parts` written as canonical JSON."""
    return hashlib.sha256(json.dumps(plain(parts), sort_keys=True).encode()).hexdigest()


class WorkMemo:
    """See the module docstring: entries by key, read at the start, appended as they come."""

    def __init__(self, name: str, root: Path | None = None) -> None:
        self.path = (root or user_cache_dir()) / MEMO_DIR / f"{name}.jsonl"
        self.entries: dict[str, Any] = {}
        self.size = 0
        self.writable = True
        self._read()

    def _read(self) -> None:
        try:
            data, info = read_entry(self.path, MAX_MEMO_BYTES, "work memo")
        except FileNotFoundError:
            return
        except (Damaged, OSError) as exc:
            warn_on_stderr(f"{exc}; its work is done again")
            self._discard_quietly()
            return
        self.size = info.st_size
        for line in data.splitlines():
            try:
                entry = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                continue  # a line cut short by a kill: its work is done again
            if isinstance(entry, dict) and isinstance(entry.get("key"), str) and "value" in entry:
                self.entries[entry["key"]] = entry["value"]

    def get(self, key: str) -> Any:
        """The value kept for `key`, or None."""
        return self.entries.get(key)

    def put(self, key: str, value: Any) -> None:
        """Keep `value` for `key` (a JSON value) in memory and in the file, unless the file is given up."""
        self.entries[key] = value
        if not self.writable:
            return
        line = (json.dumps({"key": key, "value": value}, sort_keys=True, separators=(",", ":")) + "\n").encode()
        if self.size + len(line) > MAX_MEMO_BYTES:
            self.writable = False
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One write of a whole line in append mode: a kill leaves at most the last line cut short.
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o666)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
        except OSError as exc:
            self.writable = False
            warn_on_stderr(f"cannot keep the run's work in {self.path} ({exc.strerror or exc}); "
                           "a run stopped before its first puzzle will start over")
            return
        self.size += len(line)

    def discard(self) -> None:
        """Remove the file: its work is kept elsewhere now (a complete pack's puzzles)."""
        self.entries.clear()
        self._discard_quietly()

    def _discard_quietly(self) -> None:
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass  # a directory or an unwritable cache in its place: nothing of the pack depends on it
