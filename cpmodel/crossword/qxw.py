"""Qxw, the outside crossword filler, as a backend: its batch deck, its answers, the `qxw` solver.

Covers: the deck format — `qxw -b -d WORDLIST DECK` fills a *deck*: one
light per line, each light the space-separated ids of its cells in reading
order (`cell_id`: ``x<column>y<row>``, 0-based as in the puzzle JSON); two
lights that share an id share (are checked at) that cell. Nothing in a deck
is about geometry, so a light that crosses a seam is just another list of
cells and Qxw fills any surface's lights. A leading ``.UNIQUE 1`` directive
asks Qxw not to repeat a word. Qxw prints each light's word as ``W<i>
WORD`` (i counts the deck's light lines from 0), then a ``# ENTRY`` line,
and exits with status 4 and "No fill found" on stderr when the lights
cannot be filled (checked against Qxw release 20200708, Debian package
`qxw`). `deck` writes one, `parse_qxw_output` reads the words back; the
pack's deck export (`mobius.generators.export.qxw`) uses the same two.

`QxwSolver` writes the problem's lights as a deck and the allowed words as
a list into two anonymous temporary files (no name in any folder: a kill -9
of this process leaves nothing behind, the system frees them with the last
descriptor), hands them to Qxw as ``/dev/fd/N``, runs it under the time
limit (killed on overrun → TIMEOUT, on an interruption, and with this
process: `mobius.cpmodel.processes`), and reads the words back into a `Fill`. Exit status 0 = filled, 4 = no fill
(→ UNSAT), anything else → ERROR. Its fills are verified like any other
solver's. Where Qxw is not installed `available()` says so; a problem it
cannot take (prefilled letters) is refused by `supports()`; `solve` on
either returns ERROR with the reason in `notes`.

How our rules map onto Qxw:
- minimum light length: exact — the deck holds `problem.lights`, which the
  rule already filtered;
- no repeated words: exact — ``.UNIQUE 1`` (Qxw's default too), or
  ``.UNIQUE 0`` when repeats are allowed;
- minimum score: exact — words scored below it are left out of the list;
- seam-crossing limit: nothing to map, `FillProblem` refuses grids over it;
- glue, cyclic lights: nothing to map — a deck is geometry-free, and a
  cyclic light is written from its reading start like any light.
What it cannot map:
- prefilled letters: a deck names cells but cannot fix their letters, so a
  grid with letters is not supported;
- word scores as a value order: Qxw sees a plain list and picks its own;
- the seed: Qxw's batch fill is deterministic (no ``.RANDOM``), so repeats
  differ only by timing noise.

Leaves out: Qxw's answer treatments and per-light patterns, its `.qxw` save
files (read in `mobius.cpmodel.crossword.grid`), and any search counters (Qxw prints none in batch mode; `stats` carries sizes and the exit
status).
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO, ClassVar

from mobius.cpmodel.crossword.lights import Light
from mobius.cpmodel.crossword.problem import Fill, FillProblem, cap_refusal
from mobius.cpmodel.deadline import deadline_of
from mobius.cpmodel.processes import run_before
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, option
from mobius.cpmodel.surface import Cell

# Debian installs the program as /usr/games/qxw, a directory often not on PATH.
QXW_CANDIDATES = ("qxw", "/usr/games/qxw")
EXIT_FILLED, EXIT_NO_FILL = 0, 4  # any other status (16: bad deck or internal error) is an error
UNIQUE_DIRECTIVE = ".UNIQUE 1"
ALLOW_REPEATS_DIRECTIVE = ".UNIQUE 0"
_WORD_LINE = re.compile(r"^W(\d+)\s+(\S+)\s*$")


def find_qxw() -> str | None:
    for candidate in QXW_CANDIDATES:
        path = shutil.which(candidate)
        if path is not None:
            return path
    return None


def cell_id(cell: Cell) -> str:
    x, y = cell
    return f"x{x}y{y}"


def deck(lights: Iterable[Sequence[Cell]], *, allow_repeats: bool = False) -> str:
    """A Qxw deck: the repeat directive, then one line a light (its cells in reading order)."""
    directive = ALLOW_REPEATS_DIRECTIVE if allow_repeats else UNIQUE_DIRECTIVE
    return "\n".join([directive, *(" ".join(cell_id(c) for c in cells) for cells in lights)]) + "\n"


def parse_qxw_output(text: str, lights: int) -> list[str]:
    """The words Qxw found for deck lights 0…lights−1, in deck order.

    ValueError if a light is missing, repeated or out of range (for instance
    when Qxw found no fill and printed nothing)."""
    words: dict[int, str] = {}
    for line in text.splitlines():
        match = _WORD_LINE.match(line)
        if match is None:
            continue  # "# ENTRY" echoes and any other chatter
        index, word = int(match.group(1)), match.group(2)
        if not 0 <= index < lights or index in words:
            raise ValueError(f"Qxw output names light W{index} {'twice' if index in words else 'out of range'}")
        words[index] = word
    missing = [i for i in range(lights) if i not in words]
    if missing:
        raise ValueError(f"Qxw output has no word for light(s) {', '.join(f'W{i}' for i in missing)}")
    return [words[i] for i in range(lights)]


def word_list_text(problem: FillProblem) -> str:
    """The words a light may take: the lights' lengths only, scored at least the minimum."""
    lengths = {light.length for light in problem.lights.lights}
    words = problem.words
    return "".join(f"{w}\n" for n in sorted(lengths) for w in words.by_length(n)
                   if words.score(w) >= problem.rules.min_score)


def fill_from_words(lights: tuple[Light, ...], words: list[str]) -> tuple[Fill, int]:
    """The fill the words spell, and how many cells two lights wrote differently (0 if consistent).

    ValueError if a word does not fit its light."""
    fill: Fill = {}
    conflicts = 0
    for light, word in zip(lights, words, strict=True):
        for cell, letter in zip(light.cells, word.upper(), strict=True):
            if fill.setdefault(cell, letter) != letter:
                conflicts += 1
    return fill, conflicts


@contextmanager
def anonymous_file(text: str) -> Iterator[BinaryIO]:
    """A temporary file holding `text` (ASCII), read from its start, that has no name in any folder.

    Unlike a temporary folder, which is removed only by the code that made
    it, such a file goes when its last descriptor closes, however the
    processes holding it end: nothing is left after a kill -9.
    """
    with tempfile.TemporaryFile() as handle:
        handle.write(text.encode("ascii"))
        handle.flush()
        handle.seek(0)
        yield handle


def fd_path(handle: BinaryIO) -> str:
    """The name a child given `handle`'s descriptor (`pass_fds`) opens it by."""
    return f"/dev/fd/{handle.fileno()}"


@dataclass(frozen=True)
class QxwSolver(SolverBase):
    """Fills with the Qxw program in batch mode."""

    name: ClassVar[str] = "qxw"

    binary: str = option("", help="path of the qxw program (default: found on PATH)")

    @property
    def program(self) -> str | None:
        return self.binary or find_qxw()

    def available(self) -> str | None:
        return None if self.program else "the qxw program is not installed (Debian package qxw)"

    def supports(self, problem: FillProblem) -> str | None:
        if refusal := cap_refusal(problem, "a Qxw deck"):
            return refusal
        if problem.grid.letters:
            return f"a Qxw deck cannot fix letters, and this grid has {len(problem.grid.letters)} prefilled cells"
        return None

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        deadline = deadline_of(time_limit)
        lights = problem.lights.lights
        stats: dict[str, int | float] = {"lights": len(lights)}

        def result(status: Status, solution: Fill | None = None, **notes: str) -> SolveResult:
            return SolveResult(status, solution, self.name, time.perf_counter() - started, stats, notes)

        refusal = self.available() or self.supports(problem)
        if refusal:
            return result(Status.ERROR, refused=refusal)
        program = self.program
        words_text = word_list_text(problem)
        stats["words"] = words_text.count("\n")
        deck_text = deck((light.cells for light in lights), allow_repeats=problem.rules.allow_repeats)
        with anonymous_file(deck_text) as deck_file, anonymous_file(words_text) as word_file:
            # Writing the files counts against the limit too: Qxw gets what is left.
            finished = run_before([program, "-b", "-d", fd_path(word_file), fd_path(deck_file)], deadline,
                                  pass_fds=(word_file.fileno(), deck_file.fileno()))
        if finished is None:  # killed at the deadline
            return result(Status.TIMEOUT)
        stats["qxw_exit"] = finished.returncode
        if finished.returncode == EXIT_NO_FILL:
            return result(Status.UNSAT)
        if finished.returncode != EXIT_FILLED:
            return result(Status.ERROR)
        try:
            fill, conflicts = fill_from_words(lights, parse_qxw_output(finished.out, len(lights)))
        except ValueError:  # a light without a word, or a word of the wrong length
            return result(Status.ERROR, error="a light without a word, or a word of the wrong length")
        if conflicts:
            stats["conflicting_cells"] = conflicts
            return result(Status.ERROR, error="the words Qxw printed disagree on shared cells")
        return result(Status.SOLVED, fill)
