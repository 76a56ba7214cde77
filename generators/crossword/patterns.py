"""Block and barred grid patterns for crosswords on any surface: the one way
to make one.

Covers: `generate_pattern` (and `generate_pattern_with_stats`), which hands a
spec to the generator made for it: word-capped block grids (`by_model`) to
the CP-SAT generator of `american.py`, which places every block with the
others in view, everything else to the constructive search of
`pattern_search.py`. Both return the same grid for the same spec and seed.

Leaves out: the rules (`pattern_rules.py`), the generators themselves, the
independent checker (`pattern_check.py`), and the canonical form, counting
and per-seed walk through the patterns (`pattern_space.py`).
"""

from __future__ import annotations

from mobius.cpmodel.crossword.grid import Grid
from mobius.generators.crossword.american import generate_american
from mobius.generators.crossword.pattern_rules import PatternSpec, PatternStats, by_model
from mobius.generators.crossword.pattern_search import search_pattern


def generate_pattern(spec: PatternSpec, seed: int) -> Grid:
    """A pattern satisfying `spec`, the same one for the same spec and seed.

    Raises PatternError if its generator finds none.
    """
    return generate_pattern_with_stats(spec, seed)[0]


def generate_pattern_with_stats(spec: PatternSpec, seed: int) -> tuple[Grid, PatternStats]:
    """`generate_pattern`, also reporting how many attempts it took."""
    return generate_american(spec, seed) if by_model(spec) else search_pattern(spec, seed)
