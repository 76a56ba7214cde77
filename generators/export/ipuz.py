"""ipuz v2 export of a crossword, for plane grids and glued surfaces alike.

Covers: `to_ipuz(puzzle) -> str`. A plane grid is a plain
`http://ipuz.org/crossword#1` puzzle whose lights follow from its clue
numbers, as every ipuz reader expects. A grid on a glued surface adds our
extension kind `WRAPPED_KIND` to "kind" and, as ipuz extensions do, one
top-level field named by the kind URI: the surface, its glue, and the cells
of every light (1-based `[column, row]`, in reading order), so a light that
runs off one edge and continues on another is unambiguous. The standard
parts stay standard — the clue objects hold only the keys every reader
knows — so a reader that ignores the extension still reads the grid, its
numbers and clues (the `ipuz` package validates every export).

The kind URI lives under `mobius-puzzles.invalid`: the project owns no
domain, and the reserved `.invalid` top-level domain can never be
registered by anyone else, so the name cannot collide. The extension is
described by `generators/schema/ipuz-wrapped.json`.

Leaves out: reading ipuz back in, and ipuz kinds other than crosswords.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mobius.cpmodel.crossword.lights import ACROSS, DIRECTIONS, DOWN
from mobius.generators.export import (
    BLOCK,
    Puzzle,
    bar_cells,
    clue_numbers,
    entry_cells,
    enumeration_digits,
    given_credits,
    is_block,
    is_wrapped,
    require_kind,
    title,
)

IPUZ_VERSION = "http://ipuz.org/v2"
CROSSWORD_KIND = "http://ipuz.org/crossword#1"
WRAPPED_KIND = "https://mobius-puzzles.invalid/ipuz/wrapped#1"
EMPTY = 0  # ipuz "empty": the value of a white cell with no clue number
CLUE_LISTS = {ACROSS: "Across", DOWN: "Down"}


def to_ipuz(puzzle: Puzzle) -> str:
    """The crossword as ipuz JSON text (UTF-8, keys in a fixed order)."""
    require_kind(puzzle, "crossword")
    wrapped = is_wrapped(puzzle)
    data: dict[str, Any] = {
        "version": IPUZ_VERSION,
        "kind": [CROSSWORD_KIND, WRAPPED_KIND] if wrapped else [CROSSWORD_KIND],
        "uniqueid": str(puzzle["id"]),
        "title": title(puzzle),
        **given_credits(puzzle),  # ipuz's optional "author" and "copyright", when given
        "dimensions": {"width": puzzle["width"], "height": puzzle["height"]},
        "block": BLOCK,
        "empty": EMPTY,
        "puzzle": _puzzle_rows(puzzle),
        "solution": [list(row) for row in puzzle["rows"]],
        "clues": {CLUE_LISTS[d]: [_clue(e) for e in _entries(puzzle, d)] for d in DIRECTIONS},
    }
    if wrapped:
        data[WRAPPED_KIND] = _wrapped_extension(puzzle)
    return json.dumps(data, ensure_ascii=False)


def _puzzle_rows(puzzle: Puzzle) -> list[list[object]]:
    """Labelled cells: "#" for blocks, the clue number or EMPTY, and bars as ipuz "barred" styles."""
    numbers = clue_numbers(puzzle)
    right, below = bar_cells(puzzle, "bars_right"), bar_cells(puzzle, "bars_below")
    rows = []
    for y in range(puzzle["height"]):
        row: list[object] = []
        for x in range(puzzle["width"]):
            cell = (x, y)
            if is_block(puzzle, cell):
                row.append(BLOCK)
                continue
            label = numbers.get(cell, EMPTY)
            barred = ("R" if cell in right else "") + ("B" if cell in below else "")
            row.append({"cell": label, "style": {"barred": barred}} if barred else label)
        rows.append(row)
    return rows


def _entries(puzzle: Puzzle, direction: str) -> list[Mapping[str, Any]]:
    return [e for e in puzzle["entries"] if e["direction"] == direction]


def _clue(entry: Mapping[str, Any]) -> dict[str, object]:
    return {"number": entry["number"], "clue": entry.get("clue") or "", "enumeration": enumeration_digits(entry),
            "answer": entry["answer"]}


def _wrapped_extension(puzzle: Puzzle) -> dict[str, object]:
    """The surface, its glue and the lights' cells, in ipuz's 1-based rows and columns."""
    glue = puzzle["glue"]

    def one_based(targets: list[int | None]) -> list[int | None]:
        return [None if t is None else t + 1 for t in targets]

    lights = {CLUE_LISTS[d]: [{"number": e["number"], "cells": [[x + 1, y + 1] for x, y in entry_cells(e)]}
                              for e in _entries(puzzle, d)] for d in DIRECTIONS}
    return {"surface": puzzle["surface"], "right": one_based(glue["right"]), "bottom": one_based(glue["bottom"]),
            "right_flip": bool(glue.get("right_flip")), "bottom_flip": bool(glue.get("bottom_flip")),
            "lights": lights}
