"""An example crossword solver plugin: chronological backtracking over the lights, each light taking the first
word (alphabetical) that agrees with the letters already placed, no propagation.

It shows what a plugin needs: a frozen dataclass subclass of `SolverBase` whose fields are its options
(declared with `option`, so `--solvers firstfit:max_nodes=1000` is parsed and checked), a `name`, and a
`solve(problem, *, time_limit, seed)` that returns a `SolveResult`: SOLVED with a fill (cell -> letter), UNSAT
only when the search proved there is none, TIMEOUT when it stopped early. `mobius bench` runs it under the
same time limit, backstop and verifier as the built-in solvers; `supports` refuses what it cannot take.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.solver import SolveResult, SolverBase, Status, option


@dataclass(frozen=True)
class FirstFitSolver(SolverBase):
    """Backtracking, first word that fits, lights in reading order."""

    name: ClassVar[str] = "firstfit"

    max_nodes: int | None = option(None, minimum=1, help="give up (TIMEOUT) after this many words tried")

    def supports(self, problem: FillProblem) -> str | None:
        if problem.rules.allow_repeats:
            return "firstfit never repeats a word"
        return None

    def solve(self, problem: FillProblem, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
        started = time.perf_counter()
        deadline = started + time_limit if time_limit is not None else float("inf")
        lights = problem.lights.lights
        rules, words = problem.rules, problem.words
        candidates = [[w for w in words.by_length(light.length)
                       if words.score(w) >= rules.min_score and w not in rules.excluded] for light in lights]
        fill: Fill = dict(problem.grid.letters)
        used: set[str] = set()
        nodes = 0

        def fits(word: str, cells: tuple) -> bool:
            return all(fill.get(cell, letter) == letter for cell, letter in zip(cells, word))

        def place(index: int) -> Status:
            nonlocal nodes
            if index == len(lights):
                return Status.SOLVED
            cells = lights[index].cells
            for word in candidates[index]:
                if word in used or not fits(word, cells):
                    continue
                nodes += 1
                if (self.max_nodes is not None and nodes > self.max_nodes) or time.perf_counter() > deadline:
                    return Status.TIMEOUT
                added = [cell for cell in cells if cell not in fill]
                fill.update((cell, letter) for cell, letter in zip(cells, word))
                used.add(word)
                outcome = place(index + 1)
                if outcome is not Status.UNSAT:
                    return outcome
                used.discard(word)
                for cell in added:
                    del fill[cell]
            return Status.UNSAT

        status = place(0)
        solution = dict(fill) if status is Status.SOLVED else None
        return SolveResult(status, solution, self.name, time.perf_counter() - started, {"nodes": nodes})
