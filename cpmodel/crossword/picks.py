"""The seeded picks of the reference solver's value order: splitmix64 over the seed.

Covers: `pick_index`, the index of a seeded pick among n words, and the
constants the compiled search (`compiled.py`) computes the same stream
with, so that a seeded fill is the same fill, node for node, in the
pure-Python search (`reference.py`) and in the compiled one. A counter-based
stream, not Python's `random`, because numba cannot share that generator's
state; splitmix64 is small, fast in 64-bit arithmetic and well tested.

Leaves out: which words a pick chooses among (`reference.seeded_among`,
`compiled._pick`).
"""

from __future__ import annotations

# The seed keeps 63 bits, so that it fits the compiled search's signed control array.
SEED_MASK = (1 << 63) - 1
_MASK64 = (1 << 64) - 1
SPLITMIX = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)  # its increment, then its two multipliers


def pick_index(seed: int, count: int, n: int) -> int:
    """The `count`-th seeded pick (from 0) of an index below n: splitmix64's output
    number `count` from state `seed`."""
    golden, mix1, mix2 = SPLITMIX
    z = (seed + (count + 1) * golden) & _MASK64
    z = ((z ^ (z >> 30)) * mix1) & _MASK64
    z = ((z ^ (z >> 27)) * mix2) & _MASK64
    return (z ^ (z >> 31)) % n
