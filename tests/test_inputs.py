"""The bounded readers shared by every parser: regular files only, bounded
bytes and digits, JSON errors with their line, values quoted briefly."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cpmodel.errors import InputError
from cpmodel.inputs import (
    MAX_JSON_DIGITS,
    check_digits,
    parse_json_bounded,
    parse_whole_number,
    read_bytes_bounded,
    read_text_bounded,
    shorten,
)


def test_shorten_keeps_short_values_and_cuts_long_ones() -> None:
    assert shorten("abc") == "'abc'"
    long = shorten("x" * 100_000)
    assert long.endswith("… (100,000 characters)") and len(long) < 100


def test_read_bounded_reads_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"\xef\xbb\xbfhello\n")
    assert read_bytes_bounded(path, 9, "file") == b"\xef\xbb\xbfhello\n"
    assert read_text_bounded(path, 9, "file") == "hello\n"  # the byte-order mark is dropped
    with pytest.raises(InputError, match=r"a\.txt: file is larger than 8 bytes$"):
        read_bytes_bounded(path, 8, "file")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result: list[BaseException] = []
    reader = threading.Thread(target=lambda: _catch(result, lambda: read_bytes_bounded(fifo, 10, "word list")))
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert isinstance(result[0], InputError) and "word list is not a regular file" in str(result[0])


def _catch(into: list[BaseException], call) -> None:
    try:
        call()
    except BaseException as exc:  # the test inspects it
        into.append(exc)


@pytest.mark.parametrize(("path", "message"), [
    ("/dev/zero", "not a regular file"),
    ("/", "is a directory"),
    ("/no/such/file", "cannot read grid: No such file or directory"),
])
def test_other_kinds_of_path_are_refused(path: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_bytes_bounded(path, 1 << 20, "grid")


def test_undecodable_text_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"one\ntwo\ncaf\xe9\n")
    with pytest.raises(InputError, match=r"latin1\.txt:3: list is not UTF-8 text \(byte 11\)"):
        read_text_bounded(path, 100, "list")


def test_check_digits() -> None:
    check_digits("12345", 5, "score")
    with pytest.raises(InputError, match=r"^words\.txt:7: score 1{12}… has 5,000 digits; expected at most 9$"):
        check_digits("1" * 5000, 9, "score", source="words.txt", line=7)


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
    assert parse_whole_number("0" * 29 + "1", "count", high=10) == 1


def test_parse_json_bounded() -> None:
    assert parse_json_bounded('{"a": [1, 2.5, "x"]}', "f.json") == {"a": [1, 2.5, "x"]}
    with pytest.raises(InputError, match=r"^f\.json:2: invalid JSON: Expecting"):
        parse_json_bounded('{"a":\n ]', "f.json")
    with pytest.raises(InputError, match=r"^f\.json:3: JSON: a number with 5,000 digits"):
        parse_json_bounded('{\n"a":\n' + "1" * 5000 + "}", "f.json")
    assert parse_json_bounded("1" * MAX_JSON_DIGITS, "f.json") == int("1" * MAX_JSON_DIGITS)
    with pytest.raises(InputError, match=r"^f\.json: puzzle is nested too deeply$"):
        parse_json_bounded("[" * 100_000 + "]" * 100_000, "f.json", "puzzle")
