"""A parsed word list and its word indexes kept between runs, in a compact binary file that is memory-mapped.

Covers: `load_list`, which reads a word-list file (or the system's `words`),
looks for its entry in a directory the caller names — keyed by the sha256 of
the file's bytes, the parser's version (`dictionaries.PARSER_VERSION`) and the
index's (`propagation.INDEX_VERSION`), so a changed file or a changed parser
is a different entry — and returns the `WordList` that `mobius.dictionaries.load`
would make of it, with `propagation.length_index` taking each length's
`LengthIndex` from the entry instead of ranking and counting the words again.
Without an entry it parses the file, builds every length's index and writes
the entry (atomically: a temporary file renamed over it).

One entry is one file: ``MAGIC``, the xxh3-128 digest of the rest, a JSON
header (versions, the source's sha256, counts, offsets) and the data — the
sorted words as ``\\n``-separated ASCII, their scores a byte each, then per
length the words' rank order (uint32), their scores in that order and the
index's letter masks (little-endian bitsets). Loading maps the file, checks
the digest (a few MB: a millisecond) and decodes the words; the masks of a
length are read from the mapping when a grid first needs that length. An
entry that fails any check is reported in one warning line naming the file
(the `warn` the caller gives), then rebuilt over.

The checks: the file is opened only if it is a regular file no larger than
an entry of its list can be (`mobius.cpmodel.cache_files`: a FIFO never
blocks, a sparse file of terabytes is never hashed); then the digest; then,
so that an entry forged with a digest to match never meets the reader as a
TypeError or an IndexError, every header field is type- and range-checked
(the counts whole numbers, each length's row fitting the layout the writer
uses, the rows tiling the data exactly), the words are sorted distinct lines
of A-Z with scores in range, and each length's index, when it is read, has
no rank past its words, its scores descending and in range and no mask bit
past its last word (one that fails is built from the words instead, and the
entry removed). Ranks, scores or masks wrong within range are found by the
digest only: checking them would be building them.

Numpy-free on purpose: importing it would cost a short fill more than the
cache saves. cpmodel never picks a location: the caller passes the directory
(the CLI: `mobius.generators.cache.user_cache_dir()`).

Leaves out: the embedded lists (`en`, `en-small`), which keep to a spelling
through a second file (they load as before), and lists carried as content
(`ListContent`, packs).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import operator
import os
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

import xxhash

from mobius.cpmodel.cache_files import Damaged, open_entry, warn_on_stderr
from mobius.cpmodel.crossword.propagation import ALPHABET, INDEX_VERSION, LengthIndex, length_index, provide_indexes
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.inputs import loads_json_bounded, shown
from mobius.dictionaries import WordList
from mobius.dictionaries.list_format import MAX_SCORE
from mobius.dictionaries.wordlist import MAX_WORD_LETTERS, PARSER_VERSION, parse_source, read_source

MAGIC = b"MOBIUSWL"
FORMAT_VERSION = 1
_DIGEST_BYTES = 16  # xxh3-128
_HEADER_LENGTH_BYTES = 4
_PREAMBLE = len(MAGIC) + _DIGEST_BYTES
# rank order entries: unsigned 32-bit, in this machine's byte order (recorded in the header)
_RANK_TYPE = "I"
_RANK_BYTES = array(_RANK_TYPE).itemsize
# The bytes of the words' text: the letters and the line breaks between words.
_WORD_BYTES = ALPHABET.encode("ascii") + b"\n"
# The header holds counts and a row of four numbers per length (at most MAX_WORD_LETTERS of them).
MAX_HEADER_BYTES = 1 << 16
# Per byte of its list (gzip inflated) an entry holds under ten: the words' text (a letter of it
# from three quarters of a byte of the list at least: Ⅷ is VIII), per word (two bytes of the list
# at least) a byte of score, four of rank and one of score again, and 3.25 bytes a letter of masks
# (26 bits per letter position per word); plus the masks' rounding to whole bytes, under 26 bytes
# per letter position of each length, 215 kB for all lengths up to MAX_WORD_LETTERS. A larger file
# was not written for this list (and hashing a sparse one of terabytes would never end).
ENTRY_BYTES_PER_SOURCE_BYTE = 16
ENTRY_SLACK_BYTES = 1 << 20

Warn = Callable[[str], None]


# sha256 of a source -> the list made of it, so that one process hands out one object per content
# (the word indexes and the fill-word memo are keyed by the list object).
_LOADED: dict[tuple[str, str], WordList] = {}


def entry_path(root: Path, sha256: str) -> Path:
    """Where the entry of a source with this sha256 lives under `root`."""
    return root / f"words-p{PARSER_VERSION}-i{INDEX_VERSION}-f{FORMAT_VERSION}-{sha256[:40]}.bin"


def load_list(root: Path, name_or_path: str | os.PathLike[str], warn: Warn = warn_on_stderr) -> WordList:
    """The list `mobius.dictionaries.load(name_or_path)` returns, from its entry under `root` (made if missing or
    damaged). DictionaryError as `load` raises it; a cache that cannot be written is one warning line."""
    name, where, data = read_source(name_or_path)
    sha256 = hashlib.sha256(data).hexdigest()
    known = _LOADED.get((name, sha256))
    if known is not None:
        return known
    path = entry_path(root, sha256)
    try:
        words = _read_entry(path, name, sha256, len(data), warn)
    except FileNotFoundError:
        words = None
    except Damaged as exc:
        warn(f"{exc}; not used, rebuilt")
        words = None
    if words is None:
        words = parse_source(name, where, data)
        indexes = {length: length_index(words, length) for length in words.lengths()}
        try:
            _write_entry(path, words, indexes, sha256)
        except OSError as exc:
            warn(f"{path}: cannot write the word-list cache ({exc.strerror or exc}); the list is parsed each run")
    _LOADED[(name, sha256)] = words
    return words


# --- writing ----------------------------------------------------------------------------

def _write_entry(path: Path, words: WordList, indexes: dict[int, LengthIndex], sha256: str) -> None:
    text = "\n".join(words.words).encode("ascii")
    parts: list[bytes] = [text, bytes(words.scores)]
    offset = len(text) + len(words.scores)
    lengths: list[list[int]] = []
    for length, index in sorted(indexes.items()):
        position = {word: k for k, word in enumerate(words.by_length(length))}
        ranks = array(_RANK_TYPE, (position[word] for word in index.words)).tobytes()
        mask_bytes = (len(index.words) + 7) // 8
        masks = b"".join(mask.to_bytes(mask_bytes, "little") for column in index.masks for mask in column)
        lengths.append([length, len(index.words), offset, mask_bytes])
        parts += [ranks, bytes(index.scores), masks]
        offset += len(ranks) + len(index.words) + len(masks)
    header = json.dumps({"format": FORMAT_VERSION, "parser": PARSER_VERSION, "index": INDEX_VERSION,
                         "source_sha256": sha256, "byteorder": sys.byteorder, "words": len(words),
                         "text_bytes": len(text), "dropped": words.dropped, "duplicates": words.duplicates,
                         "lengths": lengths}, separators=(",", ":")).encode()
    body = b"".join([len(header).to_bytes(_HEADER_LENGTH_BYTES, "little"), header, *parts])
    write_atomic(path, MAGIC + xxhash.xxh3_128_digest(body) + body)


# --- reading ----------------------------------------------------------------------------

def _read_entry(path: Path, name: str, sha256: str, source_bytes: int, warn: Warn) -> WordList:
    """The list stored at `path`, its indexes offered to `length_index`; FileNotFoundError, or Damaged."""
    try:
        with open_entry(path, _largest_entry(source_bytes), "word-list cache entry") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size <= _PREAMBLE + _HEADER_LENGTH_BYTES:
                raise Damaged(f"{path}: {size} bytes, too short for a word-list cache entry")
            mapped = mmap.mmap(handle.fileno(), 0, prot=mmap.PROT_READ)
    except OSError as exc:  # FileNotFoundError (no entry) is the caller's
        if isinstance(exc, FileNotFoundError):
            raise
        raise Damaged(f"{path}: unreadable ({exc.strerror or exc})") from None
    view = memoryview(mapped)
    if view[:len(MAGIC)] != MAGIC:
        raise Damaged(f"{path}: not a word-list cache entry (wrong magic bytes)")
    if xxhash.xxh3_128_digest(view[_PREAMBLE:]) != view[len(MAGIC):_PREAMBLE]:
        raise Damaged(f"{path}: checksum mismatch (the file changed since it was written)")
    header_at = _PREAMBLE + _HEADER_LENGTH_BYTES
    header_bytes = int.from_bytes(view[_PREAMBLE:header_at], "little")
    if header_bytes > min(MAX_HEADER_BYTES, len(view) - header_at):
        raise Damaged(f"{path}: a header of {header_bytes:,} bytes, more than the entry can hold")
    data = view[header_at + header_bytes:]
    header = _header(path, bytes(view[header_at:header_at + header_bytes]), sha256)
    stored = _layout(path, header, len(data))
    words = _words(path, data, header, name)
    if words.lengths() != {length: size for length, (size, _, _) in stored.items()}:
        raise Damaged(f"{path}: the header's word counts by length are not those of its words")
    provide_indexes(words, _StoredIndexes(path, data, words, stored, warn))
    return words


def _largest_entry(source_bytes: int) -> int:
    """The most bytes an entry of a list of `source_bytes` bytes (gzip inflated) can take."""
    return ENTRY_BYTES_PER_SOURCE_BYTE * source_bytes + ENTRY_SLACK_BYTES


def _header(path: Path, raw: bytes, sha256: str) -> dict[str, Any]:
    """The header, its versions and source checked and its counts whole numbers."""
    try:
        header = loads_json_bounded(raw.decode("ascii"), "word-list cache header")
    except (UnicodeDecodeError, InputError):
        raise Damaged(f"{path}: the header is not JSON") from None
    if not isinstance(header, dict):
        raise Damaged(f"{path}: the header is not a JSON object")
    expected = {"format": FORMAT_VERSION, "parser": PARSER_VERSION, "index": INDEX_VERSION,
                "source_sha256": sha256, "byteorder": sys.byteorder}
    for field, value in expected.items():
        if header.get(field) != value:
            raise Damaged(f"{path}: header field {field!r} is not {value!r}")
    for field in ("words", "text_bytes", "dropped", "duplicates"):
        if not _is_count(header.get(field)):
            raise Damaged(f"{path}: header field {field!r} is {shown(header.get(field))}, "
                          f"expected a whole number")
    return header


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0  # noqa: E721 - a bool is an int, and no count


def _layout(path: Path, header: dict[str, Any], data_bytes: int) -> dict[int, tuple[int, int, int]]:
    """Length -> (words, offset, mask bytes) of each stored index, checked to tile the data exactly as
    `_write_entry` lays it out: the words' text, their scores, then each length's ranks, scores and masks."""
    count, text_bytes, rows = header["words"], header["text_bytes"], header.get("lengths")
    if not 0 < count <= text_bytes:
        raise Damaged(f"{path}: {count:,} words in {text_bytes:,} bytes of text")
    if not isinstance(rows, list):
        raise Damaged(f"{path}: header field 'lengths' is {shown(rows)}, expected a list")
    stored: dict[int, tuple[int, int, int]] = {}
    end, previous = text_bytes + count, 0
    for row in rows:
        if not (isinstance(row, list) and len(row) == 4 and all(map(_is_count, row))):
            raise Damaged(f"{path}: a row of header field 'lengths' is {shown(row)}, expected four whole numbers")
        length, size, offset, mask_bytes = row
        if not (previous < length <= MAX_WORD_LETTERS and size > 0 and mask_bytes == (size + 7) // 8
                and offset == end):
            raise Damaged(f"{path}: the header's row {row} for length {length} does not fit the entry's layout")
        stored[length], previous = (size, offset, mask_bytes), length
        end = offset + size * _RANK_BYTES + size + length * len(ALPHABET) * mask_bytes
    if end != data_bytes:
        raise Damaged(f"{path}: the header describes {end:,} bytes of data, the entry holds {data_bytes:,}")
    return stored


def _words(path: Path, data: memoryview, header: dict[str, Any], name: str) -> WordList:
    """The stored words (sorted distinct lines of A-Z) and their scores (0..MAX_SCORE)."""
    count, text_bytes = header["words"], header["text_bytes"]
    text = bytes(data[:text_bytes])
    if text.translate(None, _WORD_BYTES) or b"\n\n" in text or text[:1] == b"\n" or text[-1:] == b"\n":
        raise Damaged(f"{path}: the words are not lines of the letters A-Z")
    words = tuple(text.decode("ascii").split("\n"))
    if len(words) != count:
        raise Damaged(f"{path}: {len(words):,} words, its header says {count:,}")
    if not all(map(operator.lt, words, words[1:])):
        raise Damaged(f"{path}: the words are not sorted and distinct")
    scores = bytes(data[text_bytes:text_bytes + count])
    if max(scores) > MAX_SCORE:
        raise Damaged(f"{path}: a score of {max(scores)}, more than {MAX_SCORE}")
    return WordList(name, words, tuple(scores), header["dropped"], header["duplicates"])


class _StoredIndexes:
    """The `provide_indexes` source of an entry: each length's index read from the mapping when a grid
    first needs it, after the checks that keep a search in range (no rank or mask bit past its words,
    its scores in range and descending).

    Only the digest stands between ranks, scores or masks wrong within range and a wrong fill: checking
    them is building them. An index that fails a check is built from the (checked) words instead, reported in one line,
    and the entry removed so that the next run writes it anew."""

    def __init__(self, path: Path, data: memoryview, words: WordList, stored: dict[int, tuple[int, int, int]],
                 warn: Warn) -> None:
        self.path, self.data, self.words, self.stored, self.warn = path, data, words, stored, warn
        self.damaged = False

    def __call__(self, length: int) -> LengthIndex | None:
        """The stored index of `length` (None: `length_index` builds it from the words)."""
        where = self.stored.get(length)
        if where is None or self.damaged:
            return None
        size, offset, mask_bytes = where
        ranks = array(_RANK_TYPE)
        ranks.frombytes(self.data[offset:offset + size * _RANK_BYTES])
        offset += size * _RANK_BYTES
        scores = tuple(self.data[offset:offset + size])
        offset += size
        masks = tuple(
            tuple(int.from_bytes(self.data[start:start + mask_bytes], "little")
                  for start in range(offset + (pos * len(ALPHABET)) * mask_bytes,
                                     offset + (pos + 1) * len(ALPHABET) * mask_bytes, mask_bytes))
            for pos in range(length))
        group = self.words.by_length(length)
        problem = _index_problem(ranks, scores, masks, group)
        if problem is None:
            return LengthIndex.from_parts(tuple(group[k] for k in ranks), scores, masks)
        self.damaged = True
        self.warn(f"{self.path}: the index of length {length} is damaged ({problem}); built from the words, "
                  f"and the entry rebuilt next run")
        with contextlib.suppress(OSError):  # one that cannot be removed is found again next run
            self.path.unlink()
        return None


def _index_problem(ranks: array[int], scores: tuple[int, ...], masks: tuple[tuple[int, ...], ...],
                   group: tuple[str, ...]) -> str | None:
    """What keeps a stored index from being used, if anything."""
    if max(ranks) >= len(group):  # lengths with words only are stored
        return "a rank past its words"
    if not all(map(operator.ge, scores, scores[1:])) or scores[0] > MAX_SCORE:
        return "its words are not ranked by a score in range"
    if any(mask >> len(group) for column in masks for mask in column):
        return "a mask holds a word past the last"
    return None
