"""Closed-form counts for slider boards: products of factorials and powers.

Covers: `Count`, an exact whole number kept as a product of factorials and
integer powers over a product of the same — the order of a puzzle group
(m!, m!/2, m, 120 and their products over a board's blocks), the number of
configurations reachable with one blank (n·|G|) and the number of
components ((n−1)!/|G|). A `Count` prints as a formula ("9999!/2"), knows
its size (`log10`, `digits`) without being multiplied out, and gives its
exact value only when that is small enough to be worth printing: 9999!
has 35,656 digits, and Python refuses to print more than 4,300.

Leaves out: which group a board has (`group.py`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

# Exact values are computed and put in JSON up to this many digits; past it a
# number is no use to read (and Python's json refuses to parse more than
# 4,300 digits by default), so the formula stands in for it.
EXACT_DIGITS = 1000
# Plain text prints exact values up to this many digits (grouped in
# thousands), then the formula and a four-digit estimate.
READABLE_DIGITS = 15


def _clean(counter: Counter[int], smallest: int) -> Counter[int]:
    return Counter({k: e for k, e in counter.items() if e and k >= smallest})


@dataclass(frozen=True)
class Count:
    """∏ m!^e · ∏ b^e with negative exponents in the denominator; a whole number by construction."""

    factorials: Counter[int] = field(default_factory=Counter)  # m → exponent (m! with m ≥ 2)
    powers: Counter[int] = field(default_factory=Counter)  # base → exponent (base ≥ 2)

    @staticmethod
    def of(value: int) -> Count:
        return Count(powers=Counter({value: 1}))

    @staticmethod
    def factorial(m: int) -> Count:
        return Count(factorials=Counter({m: 1}))

    @staticmethod
    def product(counts: Iterable[Count]) -> Count:
        """The product of many counts, simplified once (a board can have 10⁵ blocks)."""
        factorials: Counter[int] = Counter()
        powers: Counter[int] = Counter()
        for count in counts:
            factorials.update(count.factorials)
            powers.update(count.powers)
        return _simplified(factorials, powers)

    def __mul__(self, other: Count) -> Count:
        return _simplified(_combine(self.factorials, other.factorials, 1), _combine(self.powers, other.powers, 1))

    def __truediv__(self, other: Count) -> Count:
        return _simplified(_combine(self.factorials, other.factorials, -1),
                           _combine(self.powers, other.powers, -1))

    @property
    def log10(self) -> float:
        return (sum(e * math.lgamma(m + 1) for m, e in self.factorials.items()) / math.log(10)
                + sum(e * math.log10(b) for b, e in self.powers.items()))

    @property
    def digits(self) -> int:
        return math.floor(self.log10 + 1e-9) + 1

    def exact(self, max_digits: int = EXACT_DIGITS) -> int | None:
        """The value, or None when it has more than `max_digits` digits."""
        if self.digits > max_digits:
            return None
        numerator, denominator = 1, 1
        for m, e in self.factorials.items():
            if e > 0:
                numerator *= math.factorial(m) ** e
            else:
                denominator *= math.factorial(m) ** -e
        for b, e in self.powers.items():
            if e > 0:
                numerator *= b ** e
            else:
                denominator *= b ** -e
        return numerator // denominator

    def formula(self) -> str:
        """E.g. "9999!/2", "10000!/2", "8!", "2^30 × 5", "(12!)^2/(2 × 6!)"."""
        top = _terms(self.factorials, self.powers, 1)
        bottom = _terms(self.factorials, self.powers, -1)
        text = " × ".join(top) or "1"
        if not bottom:
            return text
        return f"{text}/{bottom[0]}" if len(bottom) == 1 else f"{text}/({' × '.join(bottom)})"

    def readable(self) -> str:
        """Exact with thousands separators when short, else the formula and an estimate."""
        if self.digits <= READABLE_DIGITS:
            return f"{self.exact():,}"
        exponent = math.floor(self.log10)
        mantissa = 10 ** (self.log10 - exponent)
        if mantissa >= 9.9995:  # rounding up to 10.000
            mantissa, exponent = mantissa / 10, exponent + 1
        return f"{self.formula()} ≈ {mantissa:.3f}e+{exponent}"


def _combine(a: Counter[int], b: Counter[int], sign: int) -> Counter[int]:
    """a + sign·b, keeping negative exponents (Counter's own + and − drop them)."""
    result = Counter(a)
    if sign > 0:
        result.update(b)
    else:
        result.subtract(b)
    return result


def _simplified(factorials: Counter[int], powers: Counter[int]) -> Count:
    """Cancel and merge so the formula reads simply: b·(b−1)! = b!, m!/m = (m−1)!."""
    factorials, powers = _clean(factorials, 2), _clean(powers, 2)
    changed = True
    while changed:
        changed = False
        for b in sorted(powers):
            e = powers[b]
            if e > 0 and factorials[b - 1] > 0 or e < 0 and factorials[b - 1] < 0:
                step = 1 if e > 0 else -1
                powers[b] -= step
                factorials[b - 1] -= step
                factorials[b] += step
                changed = True
            elif e < 0 < factorials[b] or e > 0 > factorials[b]:
                step = 1 if factorials[b] > 0 else -1
                powers[b] += step
                factorials[b] -= step
                factorials[b - 1] += step
                changed = True
        factorials, powers = _clean(factorials, 2), _clean(powers, 2)
    return Count(factorials, powers)


def _terms(factorials: Counter[int], powers: Counter[int], sign: int) -> list[str]:
    terms = []
    for m in sorted(factorials, reverse=True):
        e = factorials[m] * sign
        if e > 0:
            terms.append(f"{m}!" if e == 1 else f"({m}!)^{e}")
    for b in sorted(powers, reverse=True):
        e = powers[b] * sign
        if e > 0:
            terms.append(f"{b}" if e == 1 else f"{b}^{e}")
    return terms
