"""The puzzle JSON of a pack: one dict per puzzle, the only input of every
export and of the HTML player.

Covers: turning a solved crossword (problem + fill) or slider (problem +
moves) into the documented puzzle dict, with the glue precomputed from
`cpmodel.surface.step` so no consumer re-derives a flip, each entry clued
by a given clue source (seeded per puzzle); the canonical JSON encoding (sorted keys,
fixed separators) that makes pack files byte-identical for the same seed.
Leaves out: solving, choosing what to generate, writing files, and where
clues come from (`clues.py`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol

from cpmodel.crossword.problem import Fill, FillProblem
from cpmodel.slider.board import SliderProblem
from cpmodel.surface import Direction, Glue, step

# Wall-clock figures differ between runs; they go to the manifest, never into
# a puzzle file, so that puzzle files are byte-identical for the same seed.
TIMING_SUFFIX = "_s"


def deterministic_stats(stats: Mapping[str, int | float]) -> dict[str, int | float]:
    return {k: v for k, v in sorted(stats.items()) if not k.endswith(TIMING_SUFFIX)}


def glue_of(problem: FillProblem) -> dict[str, object]:
    """Where each row continues past the right edge and each column past the bottom edge."""
    grid = problem.grid
    right = [step(grid.surface, grid.width, grid.height, (grid.width - 1, y), Direction.RIGHT)
             for y in range(grid.height)]
    bottom = [step(grid.surface, grid.width, grid.height, (x, grid.height - 1), Direction.DOWN)
              for x in range(grid.width)]
    return {"right": [s.cell[1] if s else None for s in right],
            "bottom": [s.cell[0] if s else None for s in bottom],
            "right_flip": grid.surface.left_right is Glue.FLIP,
            "bottom_flip": grid.surface.top_bottom is Glue.FLIP}


class ClueSource(Protocol):
    def clue_for(self, answer: str, seed: int) -> str: ...


def crossword_puzzle(problem: FillProblem, fill: Fill, *, puzzle_id: str, solver: str,
                     stats: Mapping[str, int | float], seed: int, clues: ClueSource | None = None) -> dict:
    """The puzzle dict; each entry's clue is `clues.clue_for(answer, seed)` — so it varies with the
    puzzle's seed — or "" without a clue source."""
    grid = problem.grid.with_letters(fill)
    clue_of = clues.clue_for if clues is not None else (lambda answer, seed: "")
    entries = []
    for light, answer in zip(problem.lights.lights, problem.entries(fill)):
        entries.append({
            "number": light.number, "direction": light.direction, "cells": [list(c) for c in light.cells],
            "answer": answer, "clue": clue_of(answer, seed), "enumeration": f"({light.length})",
            "seam_crossings": light.seam_crossings, "cyclic": light.cyclic,
            "score": problem.words.score(answer),
        })
    scores = [e["score"] for e in entries]
    return {
        "kind": "crossword", "id": puzzle_id, "title": f"{grid.surface.name.capitalize()} {grid.width}x{grid.height} "
                                                         f"#{puzzle_id}",
        "surface": grid.surface.name, "width": grid.width, "height": grid.height, "rows": list(grid.rows),
        "bars_right": sorted([list(c) for c in grid.bars_right], key=lambda c: (c[1], c[0])),
        "bars_below": sorted([list(c) for c in grid.bars_below], key=lambda c: (c[1], c[0])),
        "glue": glue_of(problem), "entries": entries,
        "fill_score": round(sum(scores) / len(scores), 2) if scores else 0.0,
        "solver": solver, "stats": deterministic_stats(stats), "seed": seed,
    }


def slider_puzzle(problem: SliderProblem, moves: list, *, puzzle_id: str, solver: str,
                  stats: Mapping[str, int | float], seed: int) -> dict:
    board = problem.board
    return {
        "kind": "slider", "id": puzzle_id, "title": f"{board.label} #{puzzle_id}",
        "board": {"name": board.label, **board.to_json()},
        "start": list(problem.start), "goal": list(problem.goal), "blanks": problem.blanks,
        "solution": [list(m) if isinstance(m, (list, tuple)) else m for m in moves], "length": len(moves),
        "solver": solver, "stats": deterministic_stats(stats), "seed": seed,
    }


def encode(puzzle: Mapping[str, object]) -> bytes:
    """The canonical bytes of a puzzle file."""
    return (json.dumps(puzzle, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")

