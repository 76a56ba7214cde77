"""MiniZinc instances: the shipped models (`cpmodel/models/*.mzn`) and their
data (.dzn).

Covers: `model_text(family)` (the shipped model, read from the package),
`crossword_dzn(tables)` (cells, their letters, each light's cells and table
rows — word id then letters — and the no-repeat flag, as the crossword model
declares them) and `slider_dzn(problem, horizon)` (distances, tile and blank
positions at both ends, the step table; vertices 1-based as MiniZinc arrays
are). A .dzn pairs with the shipped model; a .mzn from `mobius
export-instance` is the model followed by its data, one self-contained file.

Leaves out: running MiniZinc (`cpmodel/crossword/minizinc.py`,
`cpmodel/slider/minizinc.py`) and parsing its output.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from importlib import resources

from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.deadline import check_deadline
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.timed import blank_vertex, step_table, tile_positions

MODELS = {"crossword": "crossword.mzn", "slider": "slider.mzn"}
# Table rows written between two looks at the deadline: one light of the
# largest grids has tens of thousands.
ROWS_PER_CHECK = 8192


def model_text(family: str) -> str:
    return resources.files("mobius.cpmodel").joinpath("models", MODELS[family]).read_text(encoding="utf-8")


def _array(values: Iterable[object]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _array2d(rows: Sequence[Sequence[int]]) -> str:
    """MiniZinc's 2-d literal: [| a, b | c, d |], one row a line."""
    return _rows_literal([" " + ", ".join(map(str, row)) for row in rows])


def _rows_literal(rows: Sequence[str]) -> str:
    """The 2-d literal of rows already written out (" a, b" each, or runs of them joined by a new line and "|")."""
    if not rows:
        return "[| |]"
    return "[|" + "\n |".join(rows) + " |]"


def _set(values: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, values)) + "}"


def crossword_dzn(tables: FillTables, deadline: float = math.inf) -> str:
    """The data of `tables`; DeadlineExceeded once `deadline` has passed (looked at every `ROWS_PER_CHECK` rows)."""
    max_len = max(t.length for t in tables.lights)
    first, last, chunks = [], [], []
    n_rows = 0
    for table in tables.lights:
        first.append(n_rows + 1)
        n_rows += len(table.word_ids)
        last.append(n_rows)
        pad = ", 0" * (max_len - table.length)
        ids, rows = table.word_ids.tolist(), table.rows.tolist()
        # A string per block of rows, not per row: a million small strings
        # would take long to free when the deadline stops the writing.
        for start in range(0, len(ids), ROWS_PER_CHECK):
            check_deadline(deadline)
            block = zip(ids[start:start + ROWS_PER_CHECK], rows[start:start + ROWS_PER_CHECK])
            chunks.append("\n |".join(f" {word_id}, {', '.join(map(str, letters))}{pad}" for word_id, letters in block))
    light_cell = [[c + 1 for c in t.cells] + [0] * (max_len - t.length) for t in tables.lights]
    lines = [
        f"n_cells = {len(tables.cells)};",
        f"allowed = {_array(_set(a) for a in tables.allowed)};",
        f"n_lights = {len(tables.lights)};",
        f"max_len = {max_len};",
        f"len = {_array(t.length for t in tables.lights)};",
        f"light_cell = {_array2d(light_cell)};",
        f"first = {_array(first)};",
        f"last = {_array(last)};",
        f"n_rows = {n_rows};",
        f"rows = {_rows_literal(chunks)};",
        f"distinct = {'true' if tables.distinct else 'false'};",
    ]
    return "\n".join(lines) + "\n"


def slider_dzn(problem: SliderProblem, horizon: int) -> str:
    """One blank only (`timed.one_blank_refusal` says so first)."""
    dist = problem.board.distances
    steps = [[v + 1 for v in row] for row in step_table(problem)]
    lines = [
        f"n = {problem.board.n};",
        f"n_tiles = {problem.board.n - 1};",
        f"T = {horizon};",
        f"dist = {_array2d(dist)};",
        f"start_pos = {_array(v + 1 for v in tile_positions(problem, problem.start))};",
        f"goal_pos = {_array(v + 1 for v in tile_positions(problem, problem.goal))};",
        f"start_blank = {blank_vertex(problem.start) + 1};",
        f"goal_blank = {blank_vertex(problem.goal) + 1};",
        f"n_steps = {len(steps)};",
        f"step = {_array2d(steps)};",
    ]
    return "\n".join(lines) + "\n"
