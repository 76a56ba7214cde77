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

Numpy-free on purpose: importing it would cost a short fill more than the
cache saves. cpmodel never picks a location: the caller passes the directory
(the CLI: `mobius.generators.cache.user_cache_dir()`).

Leaves out: the embedded lists (`en`, `en-small`), which keep to a spelling
through a second file (they load as before), and lists carried as content
(`ListContent`, packs).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

import xxhash

from mobius.cpmodel.crossword.propagation import ALPHABET, INDEX_VERSION, LengthIndex, length_index, provide_indexes
from mobius.cpmodel.files import write_atomic
from mobius.dictionaries import WordList
from mobius.dictionaries.wordlist import PARSER_VERSION, parse_source, read_source

MAGIC = b"MOBIUSWL"
FORMAT_VERSION = 1
_DIGEST_BYTES = 16  # xxh3-128
_HEADER_LENGTH_BYTES = 4
_PREAMBLE = len(MAGIC) + _DIGEST_BYTES
# rank order entries: unsigned 32-bit, in this machine's byte order (recorded in the header)
_RANK_TYPE = "I"

Warn = Callable[[str], None]


class Damaged(Exception):
    """An entry that must not be used; the message names the file and what is wrong."""


# sha256 of a source -> the list made of it, so that one process hands out one object per content
# (the word indexes and the fill-word memo are keyed by the list object).
_LOADED: dict[tuple[str, str], WordList] = {}


def warn_on_stderr(message: str) -> None:
    print(f"mobius: warning: {message}", file=sys.stderr, flush=True)


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
        words = _read_entry(path, name, sha256)
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

def _read_entry(path: Path, name: str, sha256: str) -> WordList:
    """The list stored at `path`, its indexes offered to `length_index`; FileNotFoundError, or Damaged."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size <= _PREAMBLE + _HEADER_LENGTH_BYTES:
                raise Damaged(f"{path}: {size} bytes, too short for a word-list cache entry")
            mapped = mmap.mmap(handle.fileno(), 0, prot=mmap.PROT_READ)
    except NotADirectoryError:
        raise FileNotFoundError(path) from None  # no entry can be there
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise Damaged(f"{path}: unreadable ({exc.strerror or exc})") from None
    view = memoryview(mapped)
    if view[:len(MAGIC)] != MAGIC:
        raise Damaged(f"{path}: not a word-list cache entry (wrong magic bytes)")
    if xxhash.xxh3_128_digest(view[_PREAMBLE:]) != view[len(MAGIC):_PREAMBLE]:
        raise Damaged(f"{path}: checksum mismatch (the file changed since it was written)")
    header_at = _PREAMBLE + _HEADER_LENGTH_BYTES
    data_at = header_at + int.from_bytes(view[_PREAMBLE:header_at], "little")
    header = _header(path, bytes(view[header_at:data_at]), sha256)
    data = view[data_at:]
    count, text_bytes = header["words"], header["text_bytes"]
    words = WordList(name, tuple(str(data[:text_bytes], "ascii").split("\n")),
                     tuple(data[text_bytes:text_bytes + count]), header["dropped"], header["duplicates"])
    if len(words.words) != count:
        raise Damaged(f"{path}: {len(words.words)} words, its header says {count}")
    stored = {length: (size, offset, mask_bytes) for length, size, offset, mask_bytes in header["lengths"]}
    provide_indexes(words, lambda length: _index(data, words, length, stored.get(length)))
    return words


def _header(path: Path, raw: bytes, sha256: str) -> dict[str, Any]:
    try:
        header = json.loads(raw)
    except ValueError:
        raise Damaged(f"{path}: the header is not JSON") from None
    expected = {"format": FORMAT_VERSION, "parser": PARSER_VERSION, "index": INDEX_VERSION,
                "source_sha256": sha256, "byteorder": sys.byteorder}
    for field, value in expected.items():
        if not isinstance(header, dict) or header.get(field) != value:
            raise Damaged(f"{path}: header field {field!r} is not {value!r}")
    return header


def _index(data: memoryview, words: WordList, length: int, where: tuple[int, int, int] | None) -> LengthIndex | None:
    """The stored index of `length` (None if the entry has none: `length_index` builds it)."""
    if where is None:
        return None
    size, offset, mask_bytes = where
    group = words.by_length(length)
    ranks = array(_RANK_TYPE)
    ranks.frombytes(data[offset:offset + size * ranks.itemsize])
    offset += size * ranks.itemsize
    scores = tuple(data[offset:offset + size])
    offset += size
    masks = tuple(
        tuple(int.from_bytes(data[start:start + mask_bytes], "little")
              for start in range(offset + (pos * len(ALPHABET)) * mask_bytes,
                                 offset + (pos + 1) * len(ALPHABET) * mask_bytes, mask_bytes))
        for pos in range(length))
    return LengthIndex.from_parts(tuple(group[k] for k in ranks), scores, masks)
