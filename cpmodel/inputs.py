"""The input gate: bounded reading of files, JSON and numbers before parsing.

Covers: `read_bytes_bounded` and `read_text_bounded` (regular files only,
so a FIFO or `/dev/zero` is refused without blocking; at most a given
number of bytes; UTF-8 errors naming the line), the two steps they are
made of (`open_bounded`, `read_bounded`: a cache reads its own files with
them, `mobius.cpmodel.cache_files`), `loads_json_bounded`
(nesting depth checked before the parser recurses, integers of bounded
digits, no NaN/Infinity, no key given twice in one object — json would keep
the last silently), `check_digits` (a numeric string short enough for
`int()`), `parse_whole_number` (ASCII digits, counted before conversion,
within a range: a vertex id of 10⁹ must not become a 10⁹-entry list),
`text_lines` (lines split on
'\\n' only, so a vertical tab, form feed, NEL or U+2028 inside a line stays
in it for the parser to reject) and `shown` (a value echoed in a message, cut
to a readable length). Every refusal is an `InputError` naming the source.

Leaves out: what the text means (each format's parser) and word lists,
whose layer below has its own reader and error type.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any, TypeVar

from mobius.cpmodel.errors import InputError

# Numbers in puzzle input are sizes, coordinates, vertex ids, scores and
# seeds (at most 20 digits for a 64-bit seed); past this a value is a
# mistake, and refusing it keeps int() off strings it would choke on.
MAX_DIGITS = 24
# Puzzle files nest a few levels (an object of lists of [x, y] pairs);
# far below the depth at which Python's parser recurses out of stack.
MAX_JSON_DEPTH = 32
# Values echoed in error messages are cut to this many characters.
SHOWN_CHARS = 60

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# A string (a key when a colon follows it) or a bracket: enough to walk JSON's objects.
_KEY_OR_BRACKET = re.compile(f"({_STRING.pattern})(\\s*:)?|[\\[\\]{{}}]", re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = str.maketrans({"[": "1", "{": "1", "]": "2", "}": "2"})
_DELTA = {"1": 1, "2": -1}

T = TypeVar("T")


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """`repr(value)`, cut to about `limit` characters with the full length said."""
    text = repr(value)
    if len(text) <= limit:
        return text
    length = len(value) if isinstance(value, (str, bytes, list, tuple, dict)) else len(text)
    return f"{text[:limit]}… ({length:,} characters)"


def read_text_bounded(path: str | Path, max_bytes: int, what: str) -> str:
    """The UTF-8 text of a regular file of at most `max_bytes` bytes.

    Opened without blocking and checked with fstat before anything is read,
    so a FIFO, a device or a directory is refused at once; `what` names the
    expected content in the messages ("grid file", "puzzle JSON file").
    """
    source = str(path)
    raw = read_bytes_bounded(source, max_bytes, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not a UTF-8 text file (byte 0x{raw[exc.start]:02x}); expected a {what}",
                         source=source, line=line) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_bytes_bounded(path: str | Path, max_bytes: int, what: str) -> bytes:
    """The bytes of a regular file of at most `max_bytes` bytes (see `read_text_bounded`)."""
    source = str(path)
    try:
        fd = open_bounded(source, max_bytes, what)
    except FileNotFoundError:
        raise InputError(f"no such file (expected a {what})", source=source) from None
    except NotADirectoryError as exc:
        raise InputError(f"cannot be read ({exc.strerror}); expected a {what}", source=source) from None
    try:
        return read_bounded(fd, max_bytes, what, source)
    finally:
        os.close(fd)


def open_bounded(path: str | Path, max_bytes: int, what: str) -> int:
    """A read-only descriptor of the regular file `path` of at most `max_bytes` bytes.

    Asked of stat before it is opened, so a device is never opened (opening
    some acts on the device), and opened without blocking, then asked of
    fstat again, so a FIFO put in its place meanwhile is refused at once too.
    FileNotFoundError or NotADirectoryError when there is no such file (a
    cache tells that from a damaged entry); every other refusal an InputError.
    """
    source = str(path)
    _check_regular(_os_call(os.stat, source, what), max_bytes, what, source)
    # O_NONBLOCK: opening a FIFO with no writer would otherwise wait for ever.
    fd = _os_call(os.open, source, what, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        _check_regular(os.fstat(fd), max_bytes, what, source)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _os_call(call: Callable[..., T], source: str, what: str, *args: Any) -> T:
    """`call(source, *args)`, its errors but a missing file's as InputError."""
    try:
        return call(source, *args)
    except (FileNotFoundError, NotADirectoryError):
        raise
    except IsADirectoryError:
        raise InputError(f"is a directory, expected a {what}", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc}); expected a {what}", source=source) from None
    except ValueError:  # a NUL in the name
        raise InputError(f"no such file (the name holds a NUL character); expected a {what}",
                         source=shown(source)) from None


def _check_regular(info: os.stat_result, max_bytes: int, what: str, source: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"is a directory, expected a {what}", source=source)
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"not a regular file (a pipe, device or socket); expected a {what}", source=source)
    if info.st_size > max_bytes:
        raise InputError(f"is {info.st_size:,} bytes; a {what} is at most {max_bytes:,}", source=source)


def read_bounded(fd: int, max_bytes: int, what: str, source: str) -> bytes:
    """The bytes of the file open at `fd` (from `open_bounded`), at most `max_bytes` of them: it may grow
    while it is read. `source` names it in an InputError."""
    chunks, size = [], 0
    try:
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        if exc.errno == errno.EISDIR:
            raise InputError(f"is a directory, expected a {what}", source=source) from None
        raise InputError(f"cannot be read ({exc.strerror or exc}); expected a {what}", source=source) from None
    if size > max_bytes:
        raise InputError(f"is more than {max_bytes:,} bytes; a {what} is at most that", source=source)
    return b"".join(chunks)


def text_lines(text: str) -> list[str]:
    """Lines split on '\\n' (a trailing '\\r' dropped) and nothing else.

    `str.splitlines` also splits on \\v, \\f, \\x1c-\\x1e, NEL, U+2028 and
    U+2029; inside a row of a grid those are stray characters that must be
    reported on their line, not silently turned into extra rows.
    """
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def check_digits(text: str, what: str, max_digits: int = MAX_DIGITS) -> str:
    """`text` stripped, if it is short enough to be one of the project's numbers; else InputError."""
    stripped = text.strip()
    if len(stripped.lstrip("+-")) > max_digits:
        raise InputError(f"{what} {shown(stripped)}: more than {max_digits} digits")
    return stripped


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON `text` (strings ignored), without recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_DEPTH_STEP)
    return max(accumulate(map(_DELTA.__getitem__, brackets)), default=0)


class _DuplicateKey(Exception):
    """A key given twice in one JSON object (raised from the parser's object hook)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object hook: the object as a dict, refusing a key given twice (json keeps the last, silently)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return found


def duplicate_key_line(text: str) -> int | None:
    """The line of the first key that repeats a key of its own object in JSON `text`, if any.

    Walks strings and brackets only, so it runs after the parser has found a duplicate and
    the text is known to be valid JSON.
    """
    objects: list[set[str] | None] = []  # per open bracket: the keys of an object, None for an array
    for match in _KEY_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "{[":
            objects.append(set() if token == "{" else None)
        elif token in "}]":
            objects.pop()
        elif match.group(2) and objects and objects[-1] is not None:
            key = json.loads(match.group(1))
            if key in objects[-1]:
                return text.count("\n", 0, match.start()) + 1
            objects[-1].add(key)
    return None


def loads_json_bounded(text: str, what: str, max_depth: int = MAX_JSON_DEPTH, *,
                       source: str | None = None) -> Any:
    """`json.loads(text)`, refusing deep nesting, huge integers and NaN/Infinity with an InputError."""
    depth = json_depth(text)
    if depth > max_depth:
        raise InputError(f"JSON nested {depth} levels deep; a {what} nests at most {max_depth}", source=source)

    def parse_int(digits: str) -> int:
        check_digits(digits, f"number in the {what}")
        return int(digits)

    def parse_constant(name: str) -> float:
        raise InputError(f"{name} is not a JSON number; expected a {what}", source=source)

    try:
        return json.loads(text, parse_int=parse_int, parse_constant=parse_constant, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise InputError(f"key {shown(exc.args[0])} appears twice in one object; a {what} gives each key once",
                         source=source, line=duplicate_key_line(text)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg} (column {exc.colno}); expected a {what}",
                         source=source, line=exc.lineno) from None
    except InputError as exc:
        if source is None or exc.source is not None:
            raise
        raise InputError(str(exc), source=source) from None
    except (ValueError, RecursionError) as exc:  # e.g. a float literal too long to convert
        raise InputError(f"unreadable JSON ({shown(str(exc))}); expected a {what}", source=source) from None


def parse_whole_number(text: str, what: str, *, low: int = 0, high: int, source: str | None = None,
                       line: int | None = None) -> int:
    """`text` as a whole number in `low..high`: ASCII digits only, counted before conversion."""
    expected = f"{what}: expected a whole number from {low:,} to {high:,}"
    if not (text.isascii() and text.isdigit()):
        raise InputError(f"{expected}, got {shown(text)}", source=source, line=line)
    if len(text) > MAX_DIGITS:
        raise InputError(f"{expected}, got a {len(text):,}-digit number", source=source, line=line)
    value = int(text)
    if not low <= value <= high:
        raise InputError(f"{expected}, got {value:,}", source=source, line=line)
    return value
