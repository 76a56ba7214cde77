"""Qxw as an outside crossword baseline: the `qxw` solver adapter.

Covers: `QxwSolver`, which writes the problem's lights as a Qxw batch deck
(`generators.export.qxw`: one light a line, each the ids of its cells, a
shared id being a checked cell), writes the allowed words to a temporary
list, runs ``qxw -b -d WORDLIST DECK`` under the time limit (killed on
overrun → TIMEOUT, on an interruption, and with this process:
`cpmodel.processes`), and reads the ``W<i> WORD`` lines back into a `Fill`.
Exit status 0 = filled, 4 = no fill (→ UNSAT), anything else → ERROR. The
harness verifies the fill like any other solver's. Where Qxw is not
installed `available()` says so; a problem it cannot take (prefilled
letters) is refused by `supports()`; `solve` on either returns ERROR with
the reason in `notes`.

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

Leaves out: Qxw's answer treatments, its `.qxw` save files, and any search
counters (Qxw prints none in batch mode; `stats` carries sizes and the exit
status).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from cpmodel.crossword.lights import Light
from cpmodel.crossword.problem import Fill, FillProblem
from cpmodel.processes import ended, spawn
from cpmodel.solver import SolveResult, SolverBase, Status, option
from generators.export.qxw import UNIQUE_DIRECTIVE, parse_qxw_output, to_qxw_deck

# Debian installs the program as /usr/games/qxw, a directory often not on PATH.
QXW_CANDIDATES = ("qxw", "/usr/games/qxw")
EXIT_FILLED, EXIT_NO_FILL = 0, 4  # any other status (16: bad deck or internal error) is an error
ALLOW_REPEATS_DIRECTIVE = ".UNIQUE 0"


def find_qxw() -> str | None:
    for candidate in QXW_CANDIDATES:
        path = shutil.which(candidate)
        if path is not None:
            return path
    return None


def deck_text(problem: FillProblem) -> str:
    """The problem's lights as a Qxw deck, with the repeat rule as its directive."""
    puzzle = {"kind": "crossword",
              "entries": [{"cells": [list(c) for c in light.cells]} for light in problem.lights.lights]}
    deck = to_qxw_deck(puzzle)
    if problem.rules.allow_repeats:  # the exporter always forbids repeats, as packs do
        deck = deck.replace(UNIQUE_DIRECTIVE, ALLOW_REPEATS_DIRECTIVE, 1)
    return deck


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
        if problem.grid.letters:
            return f"a Qxw deck cannot fix letters, and this grid has {len(problem.grid.letters)} prefilled cells"
        return None

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        lights = problem.lights.lights
        stats: dict[str, int | float] = {"lights": len(lights)}

        def result(status: Status, solution: Fill | None = None, **notes: str) -> SolveResult:
            return SolveResult(status, solution, self.name, time.perf_counter() - started, stats, notes)

        refusal = self.available() or self.supports(problem)
        if refusal:
            return result(Status.ERROR, refused=refusal)
        program = self.program
        with tempfile.TemporaryDirectory(prefix="mobius-qxw-") as tmp:
            deck, word_file = Path(tmp) / "fill.qxd", Path(tmp) / "words.txt"
            deck.write_text(deck_text(problem), encoding="ascii")
            words_text = word_list_text(problem)
            word_file.write_text(words_text, encoding="ascii")
            stats["words"] = words_text.count("\n")
            # Writing the files counts against the limit too: Qxw gets what is left.
            left = None if time_limit is None else max(started + time_limit - time.perf_counter(), 0.001)
            with ended(spawn([program, "-b", "-d", str(word_file), str(deck)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)) as proc:
                try:
                    out, _ = proc.communicate(timeout=left)
                except subprocess.TimeoutExpired:  # killed on leaving the block
                    return result(Status.TIMEOUT)
        stats["qxw_exit"] = proc.returncode
        if proc.returncode == EXIT_NO_FILL:
            return result(Status.UNSAT)
        if proc.returncode != EXIT_FILLED:
            return result(Status.ERROR)
        try:
            fill, conflicts = fill_from_words(lights, parse_qxw_output(out, len(lights)))
        except ValueError:  # a light without a word, or a word of the wrong length
            return result(Status.ERROR, error="a light without a word, or a word of the wrong length")
        if conflicts:
            stats["conflicting_cells"] = conflicts
            return result(Status.ERROR, error="the words Qxw printed disagree on shared cells")
        return result(Status.SOLVED, fill)
