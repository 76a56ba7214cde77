"""How readily a grid fills from a word list, judged before any search.

Covers: `FillEstimate`, the first-moment estimate of the number of fills of
a grid. If every light took a word of its length drawn independently and
uniformly from the list, the expected number of fills would be

    E = Π over lights S(n)  ×  Π over crossings Σ_c p(n, i, c) · p(m, j, c)

where S(n) is the number of words of n letters and p(n, i, c) the share of
them with letter c at position i; a crossing of position i of an n-letter
light with position j of an m-letter one agrees with that probability.
`log_fills` is ln E. It ignores the no-repeat rule and the correlations
between a word's letters, so E itself is far too high, but it ranks grids
by how hard they are to fill, for any size, surface and list: long lights
bring few words and many crossings, and uncommon letters at crossing
positions (the end of a long word) cost more. With the pack rules and the
clued `en` list, the reference solver filled within 1,000 backtracks, of
120 fresh 11×5 Möbius grids (two seeds each), 97–100 % of the attempts at
ln E ≥ 15, 78 % of those between 10 and 15 and at most a quarter below 10;
of 80 fresh 15×7 grids, 9 of the 15 at ln E ≥ 15 and none of the 65 below.

Words a pack bars (answers used earlier) are taken off S(n), so the same
grid looks harder late in a pack whose long words are used up.

Leaves out: the search itself; penalties (they change the order words are
tried in, not which fills exist).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from mobius.cpmodel.crossword.grid import Grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.cpmodel.crossword.propagation import ALPHABET
from mobius.cpmodel.crossword.tables import letter_codes
from mobius.dictionaries import WordList


class FillEstimate:
    """The letter statistics of one word list, and the estimate they give."""

    def __init__(self, words: WordList) -> None:
        self.supply: dict[int, int] = {}
        self.letters: dict[int, np.ndarray] = {}  # length -> (positions, 26): share of words with letter c at i
        for length in words.lengths():
            found = words.by_length(length)
            codes = letter_codes(found, length)
            counts = np.stack([np.bincount(codes[:, i], minlength=len(ALPHABET)) for i in range(length)])
            self.supply[length] = len(found)
            self.letters[length] = counts / len(found)
        self._agree: dict[tuple[int, int, int, int], float] = {}

    def log_fills(self, grid: Grid, min_length: int, barred: Mapping[int, int] | None = None) -> float:
        """ln E for `grid` (see the module docstring); `barred`: words per length
        that may not be used. -inf when a light has no words at all."""
        lights = find_lights(grid, min_length)
        total = 0.0
        for light in lights.lights:
            left = self.supply.get(light.length, 0) - (barred or {}).get(light.length, 0)
            if left <= 0:
                return -math.inf
            total += math.log(left)
        for crossing in lights.crossings:
            a, b = lights.lights[crossing.light_a].length, lights.lights[crossing.light_b].length
            total += self._log_agree(a, crossing.pos_a, b, crossing.pos_b)
        return total

    def _log_agree(self, a: int, i: int, b: int, j: int) -> float:
        """ln of the chance that position i of an a-letter word and position j of a b-letter word agree."""
        key = (a, i, b, j)
        found = self._agree.get(key)
        if found is None:
            chance = float(self.letters[a][i] @ self.letters[b][j])
            found = self._agree[key] = math.log(chance) if chance > 0 else -math.inf
        return found
