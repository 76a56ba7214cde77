"""A fill problem as flat tables: what every table-based outside backend and
instance writer reads.

Covers: `fill_tables(problem)`, which runs the project's one pre-pass
(`propagation.candidate_words`: the unary filters, then AC-3 over every
crossing unless ``arc_consistent=False``) and lays the result out as
integers — the cells in lights with the letters each may still take, and per
light its cells and its table as numpy arrays: the word ids, and a row of
letter codes (0 = 'A' … 25 = 'Z') for each. Word ids are global: the words
of each length are numbered in the `LengthIndex` order (best score first)
after the ids of all shorter lengths, so "two lights read the same word"
is "two lights take the same id" whatever their lengths. `fill_from_codes`
turns the letter codes a backend found back into a `Fill`; `letter_codes`
and `set_bits` are the array forms of a word list and a domain bitset that
`cpsat.py` and the pack's fill estimate read too.

Leaves out: solving, and the CP-SAT model's own tables (`cpsat.py` keeps
them as numpy arrays with scores, for its maximising mode; the backends here
only decide satisfiability).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mobius.cpmodel.crossword.problem import Fill, FillProblem
from mobius.cpmodel.crossword.propagation import ALPHABET, candidate_words
from mobius.cpmodel.deadline import check_deadline
from mobius.cpmodel.surface import Cell


@dataclass(frozen=True, eq=False)
class LightTable:
    """One light: its cells (indices into `FillTables.cells`) and its allowed words.

    The rows are numpy arrays, not tuples: the largest grids have a million
    of them, slow to lay out and to free as Python objects, and a time
    limit's end waited for both."""

    cells: tuple[int, ...]  # in reading order; a cell may repeat on a light that crosses itself
    word_ids: np.ndarray  # global ids of the words left, ascending (int64)
    rows: np.ndarray  # (words left, length) letter codes of each word, parallel to word_ids
    source: Sequence[str]  # every word of the light's length, in index order
    chosen: np.ndarray  # indices into `source` of the words left, ascending

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def words(self) -> list[str]:
        """The words left, parallel to word_ids (spelt out on demand: only the instance comments name them)."""
        return [self.source[k] for k in self.chosen.tolist()]


@dataclass(frozen=True)
class FillTables:
    """The shrunk problem. `distinct`: no word may fill two lights."""

    cells: tuple[Cell, ...]  # every cell in a light, in reading order
    allowed: tuple[tuple[int, ...], ...]  # letter codes each cell may take, parallel to `cells`
    lights: tuple[LightTable, ...]  # parallel to problem.lights.lights
    distinct: bool

    @property
    def rows(self) -> int:
        return sum(len(t.word_ids) for t in self.lights)

    def repeat_groups(self) -> list[list[int]]:
        """Groups of lights (indices) that could read the same word: one per length, two lights or more."""
        by_length: dict[int, list[int]] = {}
        for i, table in enumerate(self.lights):
            by_length.setdefault(table.length, []).append(i)
        return [group for _, group in sorted(by_length.items()) if len(group) > 1]


def fill_tables(problem: FillProblem, *, arc_consistent: bool = True,
                deadline: float = math.inf) -> FillTables | None:
    """The problem's tables after the shared pre-pass; None when a light has no word left (UNSAT).

    Raises `DeadlineExceeded` past `deadline`, looked at in the pre-pass and
    then light by light."""
    candidates = candidate_words(problem, arc_consistent=arc_consistent, deadline=deadline)
    if candidates is None:
        return None
    lights = problem.lights
    cells = tuple(c for c in problem.grid.cells() if lights.cell_lights.get(c))
    index = {c: i for i, c in enumerate(cells)}
    offsets = _id_offsets(problem)
    codes: dict[int, np.ndarray] = {}  # length -> (words, length) letter codes
    tables = []
    for light, cand in zip(lights.lights, candidates):
        check_deadline(deadline)
        if light.length not in codes:
            codes[light.length] = letter_codes(cand.words, light.length)
        chosen = set_bits(cand.domain, len(cand.words))
        tables.append(LightTable(tuple(index[c] for c in light.cells), chosen + offsets[light.length],
                                 codes[light.length][chosen], cand.words, chosen))
    allowed = _cell_letters(tables, len(cells), deadline)
    return FillTables(cells, allowed, tuple(tables), not problem.rules.allow_repeats)


def _id_offsets(problem: FillProblem) -> dict[int, int]:
    """Length -> the first global id of its words (lengths in increasing order)."""
    offsets, total = {}, 0
    for length in sorted({light.length for light in problem.lights.lights}):
        offsets[length] = total
        total += len(problem.words.by_length(length))
    return offsets


def letter_codes(words: Sequence[str], length: int) -> np.ndarray:
    """Words of one length as a (words, length) array of letter codes 0..25."""
    flat = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).astype(np.int16)
    return (flat - ord("A")).reshape(len(words), length)


def set_bits(bitset: int, size: int) -> np.ndarray:
    """Indices of the 1 bits of a Python int used as a bitset over `size` words."""
    as_bytes = np.frombuffer(bitset.to_bytes(max(1, (size + 7) // 8), "little"), dtype=np.uint8)
    return np.nonzero(np.unpackbits(as_bytes, bitorder="little")[:size])[0]


def _cell_letters(tables: Sequence[LightTable], num_cells: int, deadline: float) -> tuple[tuple[int, ...], ...]:
    """Per cell, the letters that every light through it can still place there."""
    allowed = [set(range(len(ALPHABET))) for _ in range(num_cells)]
    for table in tables:
        check_deadline(deadline)
        for pos, cell in enumerate(table.cells):
            allowed[cell] &= set(np.unique(table.rows[:, pos]).tolist())
    return tuple(tuple(sorted(a)) for a in allowed)


def fill_from_codes(problem: FillProblem, tables: FillTables, codes: Sequence[int]) -> Fill:
    """The fill spelt by one letter code per cell of `tables` (plus the prefilled letters)."""
    return {**problem.grid.letters, **{cell: ALPHABET[code] for cell, code in zip(tables.cells, codes)}}
