"""Closed-form counts: exact values, formulas, sizes and the simplifications."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.slider.counting import EXACT_DIGITS, Count


def test_alternating_group_of_a_large_grid() -> None:
    order = Count.factorial(9999) / Count.of(2)
    assert order.formula() == "9999!/2"
    assert order.digits == math.floor(math.log10(math.factorial(9999) // 2)) + 1 == 35_656
    assert order.exact() is None  # past EXACT_DIGITS
    assert (Count.of(10000) * order).formula() == "10000!/2"
    assert (Count.factorial(9999) / order).formula() == "2"
    assert order.readable() == "9999!/2 ≈ 1.423e+35655"


def test_simplifications() -> None:
    assert (Count.factorial(9) / Count.of(9)).formula() == "8!"  # m!/m = (m−1)!
    assert (Count.of(7) * Count.factorial(6)).formula() == "7!"  # b·(b−1)! = b!
    assert (Count.factorial(11) / (Count.factorial(4) * Count.of(2) * Count.of(5))).formula() == "11!/(5! × 2)"
    assert Count.product([Count.of(2)] * 3000).formula() == "2^3000"
    assert Count().formula() == "1" and Count().exact() == 1
    assert Count.product(Count.factorial(m) for m in (4, 4, 6)).formula() == "6! × (4!)^2"


def test_readable_is_exact_while_short() -> None:
    assert (Count.factorial(8) / Count.of(2)).readable() == "20,160"
    assert Count.factorial(17).readable() == "355,687,428,096,000"
    assert Count.factorial(18).readable() == "18! ≈ 6.402e+15"


terms = st.lists(st.tuples(st.sampled_from(["fact", "int"]), st.integers(2, 60)), max_size=6)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(terms, terms)
def test_counts_equal_their_exact_values(top: list[tuple[str, int]], bottom: list[tuple[str, int]]) -> None:
    def count(items: list[tuple[str, int]]) -> tuple[Count, int]:
        made = Count.product(Count.factorial(k) if kind == "fact" else Count.of(k) for kind, k in items)
        value = math.prod(math.factorial(k) if kind == "fact" else k for kind, k in items)
        return made, value

    (a, x), (b, y) = count(top), count(bottom)
    product = a * b
    assert product.exact() == x * y
    assert product.digits == len(str(x * y))
    assert math.isclose(product.log10, math.log10(x * y), rel_tol=1e-12, abs_tol=1e-9)
    if x % y == 0:
        assert (a / b).exact() == x // y
    assert _evaluate(product.formula()) == x * y


def _evaluate(formula: str) -> int:
    """Evaluate a printed formula by hand: "a × b!^2/(c! × d)"."""
    top, _, bottom = formula.partition("/")
    return _evaluate_terms(top) // (_evaluate_terms(bottom.strip("()")) if bottom else 1)


def _evaluate_terms(text: str) -> int:
    value = 1
    for term in text.split(" × "):
        base, _, power = term.partition("^")
        base = base.strip("()")
        number = math.factorial(int(base[:-1])) if base.endswith("!") else int(base)
        value *= number ** int(power or 1)
    return value


def test_exact_limit() -> None:
    assert Count.product([Count.of(10)] * EXACT_DIGITS).exact() is None  # 1001 digits
    assert Count.product([Count.of(10)] * (EXACT_DIGITS - 1)).exact() == 10 ** (EXACT_DIGITS - 1)
