"""Bounded reading of user input: files, whole numbers and JSON.

Covers the checks every parser makes *before* it allocates or converts:
`read_bytes_bounded` / `read_text_bounded` (regular files only, never more
than a given number of bytes, so a FIFO cannot hang a command and
`/dev/zero` cannot fill memory), `check_digits` and `parse_whole_number`
(a number's digits are counted before `int()` sees them: Python refuses
more than 4,300 digits with a ValueError, and a vertex id of 10⁹ must not
become a 10⁹-entry list), `parse_json_bounded` (JSON whose digit runs and
nesting are bounded: a 100,000-deep document raises RecursionError inside
`json.loads`) and `shorten` (a bad value quoted in a message at a readable
length). Every failure is one `InputError` naming the source.

Leaves out: what the text means (each parser's own job) and decompression
(a reader that inflates data must bound the inflated size itself).
"""

from __future__ import annotations

import json
import os
import re
import stat

from cpmodel.errors import InputError

# Characters of an offending value quoted in a message: enough to recognise
# it, never a 100,000-character argument echoed in full.
MAX_QUOTED = 60
# Bytes read per system call while bounding a read.
READ_CHUNK = 1 << 20
# Longer numbers are refused by their length alone, before int() converts
# them; shorter ones are converted and quoted in the message.
MAX_SHOWN_DIGITS = 30
# Digits in any number read from JSON: far more than any count, id or
# coordinate needs, far fewer than the 4,300 at which int() gives up.
MAX_JSON_DIGITS = 100


def shorten(value: object, limit: int = MAX_QUOTED) -> str:
    """`repr(value)`, cut to about `limit` characters with the full length noted."""
    text = repr(value)
    if len(text) <= limit:
        return text
    length = len(value) if isinstance(value, (str, bytes, list, tuple, dict)) else len(text)
    return f"{text[:limit]}… ({length:,} characters)"


def read_bytes_bounded(path: str | os.PathLike[str], max_bytes: int, what: str) -> bytes:
    """The bytes of the regular file `path`, refusing anything else or anything larger than `max_bytes`.

    The file is opened non-blocking and checked with fstat on the open
    descriptor: opening a FIFO that way returns at once, and checking the
    descriptor (not the name) leaves no window for a swap.
    """
    source = os.fspath(path)
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", source=shorten(source)) from None
    except ValueError:  # a NUL inside the name
        raise InputError(f"cannot read {what}: the name holds a NUL character", source=shorten(source)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise InputError(f"{what} is {kind}; expected a regular file", source=source)
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(READ_CHUNK, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", source=source) from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise InputError(f"{what} is larger than {max_bytes:,} bytes", source=source)
    return b"".join(chunks)


def read_text_bounded(path: str | os.PathLike[str], max_bytes: int, what: str) -> str:
    """`read_bytes_bounded`, decoded as UTF-8 (an optional byte-order mark is dropped)."""
    data = read_bytes_bounded(path, max_bytes, what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{what} is not UTF-8 text (byte {exc.start:,})", source=os.fspath(path), line=line) \
            from None


def check_digits(text: str, max_digits: int, what: str, *, source: str | None = None,
                 line: int | None = None) -> None:
    """Refuse `text` if it has more than `max_digits` characters: call before `int(text)`."""
    if len(text) > max_digits:
        raise InputError(f"{what} {text[:12]}… has {len(text):,} digits; expected at most {max_digits}",
                         source=source, line=line)


def parse_whole_number(text: str, what: str, *, low: int = 0, high: int, source: str | None = None,
                       line: int | None = None) -> int:
    """`text` as a whole number in `low..high`: ASCII digits only, digits counted before conversion."""
    expected = f"{what}: expected a whole number from {low:,} to {high:,}"
    if not (text.isascii() and text.isdigit()):
        raise InputError(f"{expected}, got {shorten(text)}", source=source, line=line)
    if len(text) > MAX_SHOWN_DIGITS:
        raise InputError(f"{expected}, got a {len(text):,}-digit number", source=source, line=line)
    value = int(text)
    if not low <= value <= high:
        raise InputError(f"{expected}, got {value:,}", source=source, line=line)
    return value


_DIGIT_RUN = re.compile(r"\d{%d,}" % (MAX_JSON_DIGITS + 1))


def parse_json_bounded(text: str, source: str, what: str = "JSON") -> object:
    """`json.loads(text)`, every failure an InputError with its line.

    Digit runs are bounded before parsing (so `int()` inside the decoder
    never sees 5,000 digits), and too deep a nesting is reported rather than
    left to crash the decoder's recursion.
    """
    run = _DIGIT_RUN.search(text)
    if run:
        line = text.count("\n", 0, run.start()) + 1
        raise InputError(f"{what}: a number with {run.end() - run.start():,} digits; expected at most "
                         f"{MAX_JSON_DIGITS}", source=source, line=line)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid {what}: {exc.msg}", source=source, line=exc.lineno) from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply", source=source) from None
