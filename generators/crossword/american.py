"""American-style grids on the plane: the rules publishers keep, and the
generator that meets them with grids the embedded word lists can fill.

Covers:

- `american_rules(width, height)`: the `PatternSpec` values of a plane pack
  (besides the defaults every pack has: lights of 3 or more letters, every
  white cell checked, white cells connected):
  - 180° rotational symmetry;
  - at most one block in six (37 on 15×15, 16.4 %; the New York Times
    asks for "about a sixth");
  - at most `STANDARD_WORDS` = 78 words on 15×15 (the cap of a themed
    daily), scaled by area for other sizes — ⌊78 · W·H / 225⌋: 58 on
    13×13, 152 on 21×21 (where the Sunday cap is 140: the area rule is
    lenient on large grids) — but never below ⌊EDGE_WORDS · (W + H)⌋:
    a small grid's lights are cut by its border as much as by its blocks,
    so the area rule is too strict there (28 words on 9×9 left about one
    grid, which no fill took); 45 on 11×11, 37 on 9×9, 29 on 7×7;
  - no 2×2 square of blocks. Published grids seldom have one and never the
    corner clumps of three by three the unconstrained generator made; the
    spec's `max_block_squares` can allow a few;
  - lights of at most `LONGEST_LIGHT` = 10 letters (a pack's choice rather
    than a publisher's rule: a 15-letter light fills rarely from the
    embedded list; `--max-length` asks for more).
- `generate_american(spec, seed)`: a pattern by CP-SAT
  (`pattern_enumeration.pattern_model`: every rule local to a row or column,
  the word cap and the block squares), with an objective that aims at the
  fill: as many words as the cap allows (shorter words, which the lists
  hold more of), few of three letters (the clued `en` list has 645 against
  2,237 of four), and small seeded weights per cell so that every seed
  gives another grid. The constructive search of `pattern_search.py` adds blocks
  greedily and reaches the word cap with its long lights still in place:
  of 60 of its 15×15 grids none had an estimated fill count
  (`fill_estimate`) of e^70, where the Herald Tribune grids the reference
  solver fills lie, while these reach it in most draws. Rules the model
  leaves out (connectivity, the share of short lights, clutter) are
  checked on the result (`pattern_search.pattern_problem`); a grid that breaks
  one is replaced by the next seed's.

Leaves out: the rules' definitions and the checks of a finished grid
(`pattern_rules.py`, `pattern_check.py`), and how a pack chooses among grids
(`crossword/plan.py`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ortools.sat.python import cp_model

from mobius.cpmodel.crossword.grid import BLOCK, WHITE, Grid
from mobius.cpmodel.solver import cpsat_solver
from mobius.cpmodel.surface import surface
from mobius.generators.crossword.pattern_enumeration import pattern_model, word_starts
from mobius.generators.crossword.pattern_rules import (SHORT_LIGHT, PatternSpec, PatternStats, attempts_failed,
                                                      no_pattern)
from mobius.generators.crossword.pattern_search import pattern_problem

# The word cap of a 15×15 daily (themed; themeless ones keep to 72), scaled by area.
STANDARD_WORDS = 78
STANDARD_CELLS = 15 * 15
# The least cap per row and column: four fifths of the 15×15 cap's (78 / 30), so the area rule
# still decides from 13×13 up (figures: benchmarks/RESULTS.md, "Small plane grids").
EDGE_WORDS = 0.8 * STANDARD_WORDS / 30
# At most one block in six, as the published grids keep.
BLOCK_SHARE = 1 / 6
# The least share of blocks: the objective fills the grid with words up to
# the cap, which takes blocks near the ceiling; the floor only keeps a spec
# from meaning an open grid.
BLOCK_FLOOR = 0.10
# The longest light by default: longer lights make grids the reference
# solver cannot fill (figures: benchmarks/RESULTS.md, "Figures behind constants").
LONGEST_LIGHT = 10
# Objective weights: a word is worth WORD_WEIGHT, a three-letter word costs
# THREE_COST of it, and each cell's seeded weight lies within ±NOISE. With
# the noise a third of a word or less, every seed keeps the cap's word
# count yet places its blocks elsewhere.
WORD_WEIGHT = 10
THREE_COST = 5
NOISE = 3
# CP-SAT deterministic seconds per 15×15 grid, more in proportion on larger
# ones: enough to reach the word cap on most draws (figures: RESULTS.md, as above).
SOLVE_TIME = 1.0
# Seeds tried before giving up: a draw can cut a region off, and a tight cap
# (15×7) fails often; past this, one clear error (figures: RESULTS.md, as above).
MAX_ATTEMPTS = 20


def word_cap(width: int, height: int) -> int:
    """The most words a W×H American grid may have (see the module docstring)."""
    return max(int(EDGE_WORDS * (width + height)), STANDARD_WORDS * width * height // STANDARD_CELLS)


def american_rules(width: int, height: int) -> dict[str, Any]:
    """`PatternSpec` keyword values of the American rules for a W×H plane grid."""
    return {"symmetry": "rot180", "density": (BLOCK_FLOOR, BLOCK_SHARE), "max_words": word_cap(width, height),
            "max_block_squares": 0, "max_length": min(LONGEST_LIGHT, max(width, height))}


def generate_american(spec: PatternSpec, seed: int) -> tuple[Grid, PatternStats]:
    """A pattern satisfying `spec` (which has a word cap), the same for the same seed.

    Raises PatternError if the model has no solution or MAX_ATTEMPTS grids in
    a row fail the rules it leaves out.
    """
    rng = random.Random(seed)
    failures: Counter[str] = Counter()
    for attempt in range(1, MAX_ATTEMPTS + 1):
        grid = _solve(spec, rng)
        if isinstance(grid, str):
            if grid == "infeasible":
                raise no_pattern(spec, "no arrangement of blocks meets the rules of rows and columns")
            failures["CP-SAT found no grid in its time"] += 1
            continue
        problem = pattern_problem(grid, spec)
        if problem is None:
            return grid, PatternStats(attempt, 0)
        failures[problem] += 1
    raise attempts_failed(spec, seed, MAX_ATTEMPTS, failures)


def _solve(spec: PatternSpec, rng: random.Random) -> Grid | str:
    """The best grid CP-SAT finds within its time for weights drawn from `rng`;
    "infeasible" if there is none, "unknown" if none was found in time."""
    w, h = spec.width, spec.height
    model, blocks = pattern_model(spec)
    starts = word_starts(model, blocks, w, h)
    model.maximize(WORD_WEIGHT * sum(starts) - THREE_COST * sum(_threes(model, blocks, starts, w, h))
                   + sum(rng.randint(-NOISE, NOISE) * b for b in blocks))
    solver = cpsat_solver(rng.randrange(2**31), 1)  # one worker: the same grid on every machine
    solver.parameters.max_deterministic_time = SOLVE_TIME * max(1.0, w * h / STANDARD_CELLS)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "infeasible" if status == cp_model.INFEASIBLE else "unknown"

    rows = tuple("".join(BLOCK if solver.value(blocks[y * w + x]) else WHITE for x in range(w)) for y in range(h))
    return Grid(rows, surface(spec.surface))


def _threes(model: cp_model.CpModel, blocks: list[cp_model.IntVar], starts: list[Any], w: int,
            h: int) -> list[cp_model.IntVar]:
    """Per start of `word_starts` (same order), a Boolean true exactly when
    its light has SHORT_LIGHT letters: the cell SHORT_LIGHT on is a block or
    beyond the border (the model forbids the shorter runs)."""
    threes = []
    for index, start in enumerate(starts):
        cell, axis = divmod(index, 2)
        x, y = cell % w, cell // w
        ex, ey = (x + SHORT_LIGHT, y) if axis == 0 else (x, y + SHORT_LIGHT)
        if (ex if axis == 0 else ey) > (w if axis == 0 else h):
            continue  # no room for the light
        three = model.new_bool_var("")
        model.add_implication(three, start)
        if ex < w and ey < h:
            end = blocks[ey * w + ex]
            model.add_implication(three, end)
            model.add_bool_or([start.Not(), end.Not(), three])
        else:
            model.add_bool_or([start.Not(), three])
        threes.append(three)
    return threes
