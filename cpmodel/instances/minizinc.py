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

from collections.abc import Iterable, Sequence
from importlib import resources

from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.timed import blank_vertex, step_table, tile_positions

MODELS = {"crossword": "crossword.mzn", "slider": "slider.mzn"}


def model_text(family: str) -> str:
    return resources.files("mobius.cpmodel").joinpath("models", MODELS[family]).read_text(encoding="utf-8")


def _array(values: Iterable[object]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _array2d(rows: Sequence[Sequence[int]]) -> str:
    """MiniZinc's 2-d literal: [| a, b | c, d |], one row a line."""
    if not rows:
        return "[| |]"
    return "[|" + "\n |".join(" " + ", ".join(map(str, row)) for row in rows) + " |]"


def _set(values: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, values)) + "}"


def crossword_dzn(tables: FillTables) -> str:
    max_len = max(t.length for t in tables.lights)
    first, last, rows = [], [], []
    for table in tables.lights:
        first.append(len(rows) + 1)
        pad = [0] * (max_len - table.length)
        rows.extend([word_id, *letters, *pad] for word_id, letters in zip(table.word_ids.tolist(), table.rows.tolist()))
        last.append(len(rows))
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
        f"n_rows = {len(rows)};",
        f"rows = {_array2d(rows)};",
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
