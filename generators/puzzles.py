"""The puzzle JSON of a pack: one dict per puzzle, the only input of every
export and of the HTML player.

Covers: turning a solved crossword (problem + fill) or slider (problem +
moves) into the documented puzzle dict, with the glue precomputed from
`cpmodel.surface.step` so no consumer re-derives a flip, each entry clued
from a given answer → clue mapping; the canonical JSON encoding (sorted keys,
fixed separators) that makes pack files byte-identical for the same seed;
reading a puzzle file back within bounds and checking it against
`schema/puzzle.schema.json` (`read_puzzle_file`). Leaves out: solving, choosing what to generate, writing files, and where
clues come from (`clues.py`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from cpmodel.crossword.problem import Fill, FillProblem
from cpmodel.errors import InputError
from cpmodel.inputs import loads_json_bounded, read_text_bounded, shown
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


def crossword_puzzle(problem: FillProblem, fill: Fill, *, puzzle_id: str, solver: str,
                     stats: Mapping[str, int | float], seed: int, clues: Mapping[str, str] | None = None) -> dict:
    grid = problem.grid.with_letters(fill)
    entries = []
    for light, answer in zip(problem.lights.lights, problem.entries(fill)):
        entries.append({
            "number": light.number, "direction": light.direction, "cells": [list(c) for c in light.cells],
            "answer": answer, "clue": (clues or {}).get(answer, ""), "enumeration": f"({light.length})",
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



# --- reading puzzle files back ---------------------------------------------------

SCHEMA_PATH = Path(__file__).parent / "schema" / "puzzle.schema.json"
# A 25x25 crossword with its clues is about 60 kB, a slider on a large board
# a few hundred kB; anything past this is not a puzzle file.
MAX_PUZZLE_BYTES = 4 << 20
KINDS = ("crossword", "slider")


def read_puzzle_file(path: str | Path) -> dict[str, Any]:
    """A puzzle file read within bounds and checked against its JSON Schema; InputError if not one."""
    source = str(path)
    puzzle = loads_json_bounded(read_text_bounded(path, MAX_PUZZLE_BYTES, "puzzle JSON file"),
                                "puzzle JSON file", source=source)
    check_puzzle(puzzle, source)
    return puzzle


def check_puzzle(puzzle: object, source: str) -> None:
    """InputError naming the first place where `puzzle` departs from the puzzle schema."""
    if not isinstance(puzzle, dict) or puzzle.get("kind") not in KINDS:
        raise InputError("expected a puzzle JSON object with kind crossword or slider", source=source)
    from jsonschema.exceptions import best_match  # loaded only when a puzzle file is read

    error = best_match(_validator(puzzle["kind"]).iter_errors(puzzle))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "the top level"
        raise InputError(f"not a valid {puzzle['kind']} puzzle: at {where}: {shown(error.message, 120)}",
                         source=source)


@cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    # The kind is known, so check against its branch alone: the errors of a
    # "oneOf" of both kinds would only say that neither matched.
    return Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": schema["$defs"]})
