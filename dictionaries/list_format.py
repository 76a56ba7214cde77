"""The bytes of a word-list file: how large it may be, gzip, UTF-8, and its
lines as (entry, score) pairs, plain (one entry a line) or scored
(`WORD;SCORE`), each fault one `DictionaryError` naming the file and line.

Leaves out: normalising entries and making a `WordList` of them, finding and
caching lists by name (`wordlist.py`).
"""

from __future__ import annotations

import codecs
import zlib
from collections.abc import Iterable
from pathlib import Path

from mobius.dictionaries.errors import DictionaryError

MIN_SCORE = 0
MAX_SCORE = 100
# Plain lists carry no scores; the middle of the range means "neither
# preferred nor avoided", matching the usual default of scored lists.
PLAIN_SCORE = 50
# The largest published lists (Spread the Wordlist, XWI, Broda's) are a few
# MB of text; past this a file is not a word list, and a gzip that inflates
# beyond it (a "zip bomb") is refused before it fills the memory.
MAX_LIST_BYTES = 64 << 20
# Scores are 0..100: more digits than this is out of range whatever they say.
MAX_SCORE_DIGITS = 3
# Error messages quote at most this much of a bad line.
QUOTED_CHARS = 60
GZIP_MAGIC = b"\x1f\x8b"
# Between the entry and the score of a scored line.
SCORE_SEPARATOR = ";"


def read_bytes(path: Path) -> bytes:
    """The file's bytes, gzip inflated, at most MAX_LIST_BYTES of them."""
    try:
        # Regular files only (checked by `wordlist._stamp`), so this never blocks; the
        # bound holds even if the file grew since.
        with path.open("rb") as handle:
            data = handle.read(MAX_LIST_BYTES + 1)
    except OSError as error:
        raise DictionaryError(f"{path}: cannot be read ({error.strerror})") from None
    if len(data) > MAX_LIST_BYTES:
        raise DictionaryError(f"{path}: more than {MAX_LIST_BYTES:,} bytes; too large for a word list")
    if not data.startswith(GZIP_MAGIC):
        return data
    return _gunzip(path, data)


def _gunzip(path: Path, data: bytes) -> bytes:
    """Decompress every gzip member of `data`, stopping past MAX_LIST_BYTES of output."""
    out: list[bytes] = []
    size = 0
    try:
        while data:
            inflater = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)
            out.append(inflater.decompress(data, MAX_LIST_BYTES + 1 - size))
            size += len(out[-1])
            if size > MAX_LIST_BYTES or inflater.unconsumed_tail:
                raise DictionaryError(f"{path}: decompresses to more than {MAX_LIST_BYTES:,} bytes; "
                                      "too large for a word list")
            if not inflater.eof:
                raise EOFError("compressed file ended before the end-of-stream marker was reached")
            data = inflater.unused_data.lstrip(b"\0")  # members may be padded with NULs
    except (OSError, EOFError, zlib.error) as error:
        raise DictionaryError(
            f"{path}: starts like gzip but does not decompress ({error})"
        ) from None
    return b"".join(out)


def decode(path: str, data: bytes) -> str:
    """UTF-8 text (a leading BOM is ignored); DictionaryError naming the line."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise DictionaryError(
            f"{path}, line {_line_of(data, nul)}: binary data (NUL byte); "
            "expected a UTF-8 text word list"
        )
    # Strip a BOM by hand (not "utf-8-sig") so error offsets index `data`.
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as error:
        raise DictionaryError(
            f"{path}, line {_line_of(data, start + error.start)}: not valid UTF-8 "
            f"(byte 0x{data[start + error.start]:02x}); expected a UTF-8 text word list"
        ) from None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def entries(path: str, lines: list[str]) -> Iterable[tuple[str, int]]:
    """(entry, score) pairs; the first non-blank line decides plain or scored."""
    scored: bool | None = None
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line:
            continue
        if scored is None:
            scored = SCORE_SEPARATOR in line
        if not scored:
            yield line, PLAIN_SCORE
            continue
        entry, separator, score_text = line.rpartition(SCORE_SEPARATOR)
        where = f"{path}, line {number}"
        if not separator:
            raise DictionaryError(f"{where}: expected WORD;SCORE, got {_quoted(line)}")
        yield entry, _parse_score(score_text, where)


def _parse_score(text: str, where: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > MAX_SCORE_DIGITS:
        raise DictionaryError(
            f"{where}: expected a score from {MIN_SCORE} to {MAX_SCORE}, got {_quoted(text)}"
        )
    score = int(text)
    check_score(score, where)
    return score


def _quoted(text: str) -> str:
    """`repr(text)`, cut so that a message stays one readable line."""
    shown = repr(text)
    return shown if len(shown) <= QUOTED_CHARS else f"{shown[:QUOTED_CHARS]}… ({len(text)} characters)"


def check_score(score: int, where: str) -> None:
    if not isinstance(score, int) or not MIN_SCORE <= score <= MAX_SCORE:
        raise DictionaryError(
            f"{where}: expected a score from {MIN_SCORE} to {MAX_SCORE}, got {score!r}"
        )
