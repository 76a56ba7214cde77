"""DIMACS CNF instances: the SAT backends' encodings, with comment lines
naming every variable.

Covers: `crossword_cnf(problem, tables)` (the encoding of
`mobius.cpmodel.crossword.sat.fill_cnf`: words per light, letters per cell,
channelling, no repeats) and `slider_cnf(problem, horizon)` (that of
`mobius.cpmodel.slider.sat.horizon_cnf` for exactly `horizon` moves). Leaves out:
solving them and reading models back.
"""

from __future__ import annotations

from mobius.cpmodel.crossword import sat as crossword_sat
from mobius.cpmodel.crossword.problem import FillProblem
from mobius.cpmodel.crossword.tables import FillTables
from mobius.cpmodel.slider import sat as slider_sat
from mobius.cpmodel.slider.board import SliderProblem


def crossword_cnf(problem: FillProblem, tables: FillTables) -> str:
    encoded = crossword_sat.fill_cnf(tables)
    return encoded.cnf.dimacs(crossword_sat.cnf_comments(problem, tables, encoded))


def slider_cnf(problem: SliderProblem, horizon: int) -> str:
    encoded = slider_sat.horizon_cnf(problem, horizon)
    return encoded.cnf.dimacs(slider_sat.cnf_comments(encoded))
