"""Block and barred grid patterns for crosswords on any surface: the one way
to make one.

Covers: `generate_pattern` (and `generate_pattern_with_stats`): the
constructive search of `pattern_search.py` finds a pattern that keeps every
rule of the spec; word-capped block patterns (`annealed`) are then annealed
towards grids that fill readily (`pattern_anneal.py`). Both steps are
seeded: the same spec and seed give the same grid.

Leaves out: the rules (`pattern_rules.py`), the generators themselves, the
independent checker (`pattern_check.py`), and the canonical form, counting
and per-seed walk through the patterns (`pattern_space.py`).
"""

from __future__ import annotations

from mobius.cpmodel.crossword.grid import Grid
from mobius.generators.crossword.pattern_anneal import anneal_pattern
from mobius.generators.crossword.pattern_rules import PatternSpec, PatternStats, annealed
from mobius.generators.crossword.pattern_search import search_pattern


def generate_pattern(spec: PatternSpec, seed: int) -> Grid:
    """A pattern satisfying `spec`, the same one for the same spec and seed.

    Raises PatternError if the search finds none.
    """
    return generate_pattern_with_stats(spec, seed)[0]


def generate_pattern_with_stats(spec: PatternSpec, seed: int) -> tuple[Grid, PatternStats]:
    """`generate_pattern`, also reporting how many attempts its search took."""
    grid, stats = search_pattern(spec, seed)
    return (anneal_pattern(grid, spec, seed) if annealed(spec) else grid), stats
