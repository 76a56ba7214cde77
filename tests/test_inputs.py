"""The input gate (`mobius.cpmodel.inputs`) and hard deadlines (`mobius.cpmodel.deadline`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mobius.cpmodel.deadline import ChildFailed, call_before
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import (
    check_digits,
    json_depth,
    loads_json_bounded,
    parse_whole_number,
    read_text_bounded,
    shown,
    text_lines,
)


def test_only_regular_files_of_bounded_size_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_text_bounded(fifo, 100, "grid file")  # returns at once: opened without blocking
    with pytest.raises(InputError, match="not a regular file"):
        read_text_bounded("/dev/zero", 100, "grid file")
    with pytest.raises(InputError, match="is a directory"):
        read_text_bounded(tmp_path, 100, "grid file")
    with pytest.raises(InputError, match="no such file"):
        read_text_bounded(tmp_path / "absent", 100, "grid file")
    big = tmp_path / "big.txt"
    big.write_text("x" * 101)
    with pytest.raises(InputError, match="at most 100"):
        read_text_bounded(big, 100, "grid file")
    big.write_bytes(b"ok\n\xff")
    with pytest.raises(InputError, match=r"big.txt:2: not a UTF-8"):
        read_text_bounded(big, 100, "grid file")
    big.write_bytes("\ufeffhello".encode())
    assert read_text_bounded(big, 100, "grid file") == "hello"


def test_json_depth_ignores_brackets_in_strings() -> None:
    assert json_depth('{"a": [1, [2]], "b": "[[[[{{{"}') == 3
    assert json_depth('"\\"[[["') == 0
    assert json_depth("[" * 5000 + "]" * 5000) == 5000


@given(st.recursive(st.none() | st.integers(-10**6, 10**6) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)))
def test_json_depth_agrees_with_the_structure(value: object) -> None:
    import json

    def depth(v: object) -> int:
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0

    assert json_depth(json.dumps(value)) == depth(value)
    assert loads_json_bounded(json.dumps(value), "test", max_depth=100) == value


def test_bounded_json_refuses_depth_digits_and_nan() -> None:
    with pytest.raises(InputError, match="nested 100000 levels"):
        loads_json_bounded("[" * 100_000 + "]" * 100_000, "grid JSON file", source="g.json")
    with pytest.raises(InputError, match="g.json: number in the grid JSON file .*more than 24 digits"):
        loads_json_bounded('{"w": ' + "9" * 5000 + "}", "grid JSON file", source="g.json")
    with pytest.raises(InputError, match="NaN is not a JSON number"):
        loads_json_bounded("[NaN]", "grid JSON file")
    with pytest.raises(InputError, match=r"g.json:2: invalid JSON"):
        loads_json_bounded('{\n"a": }', "grid JSON file", source="g.json")


def test_digits_lines_and_shown_values() -> None:
    assert check_digits(" 123 ", "count") == "123"
    with pytest.raises(InputError, match="more than 24 digits"):
        check_digits("1" * 25, "count")
    assert text_lines("a\r\nb\vc\u2028d\n") == ["a", "b\vc\u2028d", ""]
    assert len(shown("x" * 100_000)) < 100 and "(100,000 characters)" in shown("x" * 100_000)


def test_call_before_returns_the_result_or_none_past_the_deadline() -> None:
    assert call_before(lambda: [1, 2, 3], time.perf_counter() + 30) == [1, 2, 3]
    started = time.perf_counter()
    assert call_before(lambda: time.sleep(30), time.perf_counter() + 0.2) is None
    assert time.perf_counter() - started < 10  # the child was killed, not waited for

    def fails() -> None:
        raise ValueError("bad model")

    with pytest.raises(ChildFailed, match="ValueError: bad model"):
        call_before(fails, time.perf_counter() + 30)


@pytest.mark.parametrize(("text", "message"), [
    ("", "got ''"),
    ("+5", "got '\\+5'"),
    ("5.0", "got '5.0'"),
    ("1_0", "got '1_0'"),
    ("\u0665", "got '\u0665'"),  # Arabic-Indic five: int() would accept it
    ("11", "got 11$"),
    ("9" * 31, "got a 31-digit number"),
    ("9" * 100_000, "got a 100,000-digit number"),
])
def test_parse_whole_number_refuses(text: str, message: str) -> None:
    with pytest.raises(InputError, match="^count: expected a whole number from 1 to 10, " + message):
        parse_whole_number(text, "count", low=1, high=10)


def test_parse_whole_number_accepts() -> None:
    assert parse_whole_number("007", "count", high=10) == 7
    assert parse_whole_number("0" * 20 + "1", "count", high=10) == 1
