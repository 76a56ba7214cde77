"""XCSP3 instances, the format of the XCSP competitions (whose crossword
series model lights as `extension` constraints over letter variables).

Covers: `crossword_xcsp3(problem, tables)`: a variable per cell (its domain
the letters the pre-pass left, 0 = A), a variable per light (its word ids),
one `extension` constraint per light over (word, letters) with the rows of
its table as supports, and `allDifferent` on the word variables of each
length where repeats are forbidden — the model of
`cpmodel/models/crossword.mzn`. `slider_xcsp3(problem, horizon)`: the
time-expanded model of `cpmodel/models/slider.mzn` for exactly `horizon`
moves, the distance pruning written into the domains, one `extension` per
tile and step with the step table, `allDifferent` per step and no undone
move (`intension` ne); the summed-distance bound is left out (it needs
element constraints, which add nothing to the decision). Variable ids:
``c<i>`` cells, ``w<i>`` lights, ``b<t>`` the blank, ``p<t>_<k>`` tiles
(vertices 0…n−1); the comment at the top maps cells and lights back.

Leaves out: objectives (these are decision problems) and reading XCSP3.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import SliderProblem
from mobius.cpmodel.slider.timed import step_domains, step_table


def _values(values: Iterable[int]) -> str:
    return " ".join(map(str, values))


def _tuples(rows: Iterable[Sequence[int]]) -> str:
    return "".join("(" + ",".join(map(str, row)) + ")" for row in rows)


def _extension(variables: Sequence[str], rows: Iterable[Sequence[int]]) -> str:
    return f"    <extension>\n      <list> {' '.join(variables)} </list>\n" \
           f"      <supports> {_tuples(rows)} </supports>\n    </extension>"


def _document(comment: str, variables: list[str], constraints: list[str]) -> str:
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', f"<!-- {comment.replace('--', '- -')} -->",
                      '<instance format="XCSP3" type="CSP">', "  <variables>", *variables, "  </variables>",
                      "  <constraints>", *constraints, "  </constraints>", "</instance>", ""])


def crossword_xcsp3(problem: FillProblem, tables: FillTables) -> str:
    variables = [f'    <var id="c{i}"> {_values(allowed)} </var>' for i, allowed in enumerate(tables.allowed)]
    variables += [f'    <var id="w{i}"> {_values(t.word_ids.tolist())} </var>' for i, t in enumerate(tables.lights)]
    constraints = [_extension([f"w{i}"] + [f"c{c}" for c in t.cells],
                              np.column_stack([t.word_ids, t.rows]).tolist())
                   for i, t in enumerate(tables.lights)]
    if tables.distinct:
        constraints += [f"    <allDifferent> {' '.join(f'w{i}' for i in group)} </allDifferent>"
                        for group in tables.repeat_groups()]
    cells = " ".join(f"c{i}=({x},{y})" for i, (x, y) in enumerate(tables.cells))
    lights = " ".join(f"w{i}={light.label}" for i, light in enumerate(problem.lights.lights))
    comment = (f"crossword fill, {problem.grid.width}x{problem.grid.height}; letters 0=A..25=Z; "
               f"word ids as in the mobius tables; cells {cells}; lights {lights}")
    return _document(comment, variables, constraints)


def slider_xcsp3(problem: SliderProblem, horizon: int) -> str:
    """One blank; InputError when the distances alone rule the horizon out (a domain would be empty)."""
    domains = step_domains(problem, horizon)
    if domains is None:
        raise InputError(f"no solution of exactly {horizon} moves: some tile or the blank is too far from "
                         "its goal; there is no instance to write")
    variables = []
    for t, step in enumerate(domains):
        variables.append(f'    <var id="b{t}"> {_values(step[0])} </var>')
        variables += [f'    <var id="p{t}_{k}"> {_values(d)} </var>' for k, d in enumerate(step[1:], start=1)]
    steps = step_table(problem)
    tiles = range(1, problem.board.n)
    constraints = [_extension([f"b{t}", f"b{t + 1}", f"p{t}_{k}", f"p{t + 1}_{k}"], steps)
                   for t in range(horizon) for k in tiles]
    constraints += [f"    <allDifferent> b{t} {' '.join(f'p{t}_{k}' for k in tiles)} </allDifferent>"
                    for t in range(1, horizon)]
    constraints += [f"    <intension> ne(b{t + 2},b{t}) </intension>" for t in range(horizon - 1)]
    comment = (f"slider on {problem.board.label} ({problem.board.n} vertices), exactly {horizon} moves; "
               "bT = the blank's vertex after step T, pT_K = tile K's vertex (vertices from 0)")
    return _document(comment, variables, constraints)
