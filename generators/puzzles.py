"""The puzzle JSON of a pack: one dict per puzzle, the only input of every
export and of the HTML player.

Covers: turning a solved crossword (problem + fill) or slider (problem +
moves) into the documented puzzle dict, with the glue precomputed from
`mobius.cpmodel.surface.step` so no consumer re-derives a flip (where each row and
column continues, the neighbour of every edge cell in each direction that
leaves the rectangle, whether the surface is a paper band, and for each
light the steps that cross a seam), each entry clued by a given clue source
(seeded per puzzle), and titled with the pack's `Credits` (title,
author, copyright; by default named by the surface and size, "Möbius strip
11x5 #0007", or the board); the canonical JSON encoding (sorted keys,
fixed separators) that makes pack files byte-identical for the same seed;
reading a puzzle file back within bounds and checking it against
`schema/puzzle.schema.json` (`read_puzzle_file`). Leaves out: solving,
choosing what to generate, writing files, and where
clues come from (`clues.py`).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from mobius.cpmodel.crossword.grid import Grid
from mobius.cpmodel.crossword.lights import DIRECTIONS, Light
from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import loads_json_bounded, read_text_bounded, shown
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.surface import Cell, Direction, Glue, step
from mobius.generators.export import SURFACE_NAMES, given_credits

# Wall-clock figures differ between runs; they go to the manifest, never into
# a puzzle file, so that puzzle files are byte-identical for the same seed.
TIMING_SUFFIX = "_s"


def deterministic_stats(stats: Mapping[str, int | float]) -> dict[str, int | float]:
    return {k: v for k, v in sorted(stats.items()) if not k.endswith(TIMING_SUFFIX)}


def glue_of(grid: Grid) -> dict[str, object]:
    """Where each row continues past the right edge and each column past the bottom edge; the cell
    one step beyond every edge cell (`neighbours`: per row for right and left, per column for down
    and up; None at a border); and whether the surface is a band of paper (left and right edges
    glued, top and bottom free: a Möbius strip or cylinder)."""
    w, h = grid.width, grid.height
    neighbours = {"right": [_beyond(grid, (w - 1, y), Direction.RIGHT) for y in range(h)],
                  "left": [_beyond(grid, (0, y), Direction.LEFT) for y in range(h)],
                  "down": [_beyond(grid, (x, h - 1), Direction.DOWN) for x in range(w)],
                  "up": [_beyond(grid, (x, 0), Direction.UP) for x in range(w)]}
    return {"right": [c[1] if c else None for c in neighbours["right"]],
            "bottom": [c[0] if c else None for c in neighbours["down"]],
            "right_flip": grid.surface.left_right is Glue.FLIP,
            "bottom_flip": grid.surface.top_bottom is Glue.FLIP,
            "neighbours": neighbours,
            "band": grid.surface.left_right is not Glue.BORDER and grid.surface.top_bottom is Glue.BORDER}


def _beyond(grid: Grid, cell: Cell, direction: Direction) -> list[int] | None:
    """The cell one step from an edge cell out of the rectangle, through the glue; None at a border."""
    moved = step(grid.surface, grid.width, grid.height, cell, direction)
    return list(moved.cell) if moved else None


def seam_steps(grid: Grid, light: Light) -> list[int]:
    """The positions j of the light whose step to the next cell (j + 1, or back to 0 when cyclic) crosses a seam."""
    direction = DIRECTIONS[light.direction]
    steps = len(light.cells) if light.cyclic else len(light.cells) - 1
    crossed = []
    for j in range(steps):
        moved = step(grid.surface, grid.width, grid.height, light.cells[j], direction)
        if moved is not None and moved.crossed:
            crossed.append(j)
    return crossed


class ClueSource(Protocol):
    def clue_for(self, answer: str, seed: int, others: Collection[str] = (), taken: Collection[str] = ()) -> str: ...


def grid_clues(clues: ClueSource, answers: Sequence[str], seed: int) -> list[str]:
    """The clue of each of a grid's answers, in order: one that names none of the grid's other
    answers and is not given to an earlier one, where the answer has such a clue (`clues.fitting`)."""
    given: list[str] = []
    for i, answer in enumerate(answers):
        given.append(clues.clue_for(answer, seed, [*answers[:i], *answers[i + 1:]], given))
    return given


@dataclass(frozen=True)
class Credits:
    """A pack's title, author and copyright notice, as its puzzles carry them ("" = not given)."""

    title: str = ""
    author: str = ""
    copyright: str = ""

    def fields(self, puzzle_id: str, default_title: str) -> dict[str, str]:
        """A puzzle's "title" — the pack's numbered ("Sunday strips #0007") or else `default_title` —
        and its "author" and "copyright" when given."""
        return {"title": f"{self.title} #{puzzle_id}" if self.title else default_title,
                **given_credits(self.given())}

    def given(self) -> dict[str, str]:
        """The three as the user gave them, for the pack's parameters."""
        return asdict(self)

    def of_pack(self, default_title: str) -> dict[str, str]:
        """The pack's "title" (given, or `default_title`), "author" and "copyright", for its manifest."""
        return {**self.given(), "title": self.title or default_title}


def surface_title(surface_name: str) -> str:
    """The surface's name at the head of a title: "Möbius strip", "Klein bottle", "Plane"."""
    name = SURFACE_NAMES.get(surface_name, surface_name)
    return name[:1].upper() + name[1:]


def crossword_puzzle(problem: FillProblem, fill: Fill, *, puzzle_id: str, solver: str,
                     stats: Mapping[str, int | float], seed: int, clues: ClueSource | None = None,
                     credits: Credits = Credits()) -> dict:
    """The puzzle dict; each entry's clue is chosen by `grid_clues` — so it varies with the puzzle's
    seed, names none of the grid's other answers and repeats no other entry's clue where it can — or
    "" without a clue source. Titled by `credits`, by default "Möbius strip 11x5 #0007"."""
    grid = problem.grid.with_letters(fill)
    answers = problem.entries(fill)
    texts = grid_clues(clues, answers, seed) if clues is not None else [""] * len(answers)
    entries = []
    for light, answer, clue in zip(problem.lights.lights, answers, texts):
        entries.append({
            "number": light.number, "direction": light.direction, "cells": [list(c) for c in light.cells],
            "answer": answer, "clue": clue,
            "enumeration": f"({light.length})",
            "seam_crossings": light.seam_crossings, "seam_steps": seam_steps(problem.grid, light),
            "cyclic": light.cyclic,
            "score": problem.words.score(answer),
        })
    scores = [e["score"] for e in entries]
    return {
        "kind": "crossword", "id": puzzle_id,
        **credits.fields(puzzle_id, f"{surface_title(grid.surface.name)} {grid.width}×{grid.height} #{puzzle_id}"),
        "surface": grid.surface.name, "width": grid.width, "height": grid.height, "rows": list(grid.rows),
        "bars_right": sorted([list(c) for c in grid.bars_right], key=lambda c: (c[1], c[0])),
        "bars_below": sorted([list(c) for c in grid.bars_below], key=lambda c: (c[1], c[0])),
        "glue": glue_of(problem.grid), "entries": entries,
        "fill_score": round(sum(scores) / len(scores), 2) if scores else 0.0,
        "solver": solver, "stats": deterministic_stats(stats), "seed": seed,
    }


def slider_puzzle(problem: SliderProblem, moves: list, *, puzzle_id: str, solver: str,
                  stats: Mapping[str, int | float], seed: int, credits: Credits = Credits()) -> dict:
    board = problem.board
    return {
        "kind": "slider", "id": puzzle_id, **credits.fields(puzzle_id, f"{board.label} #{puzzle_id}"),
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
