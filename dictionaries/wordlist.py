"""Loading, normalising and scoring word lists.

Covers: the one normalisation rule (`normalise`) and the longest word a
list keeps (`MAX_WORD_LETTERS`, the longest light of any grid), reading plain, scored
(`WORD;SCORE`) and gzip-compressed lists from disk, the named lists (`en`,
`en-small`, `words`), filtering by length and score, and the immutable
`WordList` that callers search, and `ListContent`, a list carried as its
content (for workers that cannot read the file). Every unusable input raises
one `DictionaryError` naming the file (and line) and what was expected.

The bytes of a list file (size bound, gzip, UTF-8, plain or scored
lines) are read by `list_format.py`.

Leaves out: anything about grids, slots or solvers (callers ask `by_length`
and `require_lengths`), and building the embedded `en` list, which is
`dictionaries/build_en.py`'s job and runs only on a developer's machine.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import unicodedata
import zlib
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from mobius.dictionaries.errors import DictionaryError
from mobius.dictionaries.list_format import (MAX_LIST_BYTES, MAX_SCORE, MIN_SCORE, PLAIN_SCORE, SCORE_SEPARATOR,
                                      check_score, decode, entries, read_bytes)

NAMED_LISTS: tuple[str, ...] = ("en", "en-small", "words")

# en-small keeps the words of `en` at or above this score: Zipf >= 3 under
# build_en's mapping, i.e. words seen at least once per million words — common
# enough for quick fills, still ~18k words so ordinary grids stay fillable.
EN_SMALL_MIN_SCORE = 40

EN_PATH = Path(__file__).parent / "data" / "en.txt.gz"
# The clue database built with `en`: `WORD<TAB>clue` lines, best clue first.
EN_CLUES_PATH = Path(__file__).parent / "data" / "en-clues.tsv.gz"
# The words of `en` SCOWL lists in one spelling only: `WORD;american` or
# `WORD;british` lines. A pack keeps to one spelling: loading an embedded list
# for one drops the words marked for the other (COLOUR from American packs).
EN_SPELLING_PATH = Path(__file__).parent / "data" / "en-spelling.txt.gz"
SPELLINGS = ("american", "british")
DEFAULT_SPELLING = "american"
SYSTEM_WORDS_PATH = Path("/usr/share/dict/words")

# The lists every install has: a job can name them and be read on any
# machine; any other list travels as its content (`portable`).
EMBEDDED_LISTS = ("en", "en-small")
# Shipped lists are compressed once on the sending side; sorted WORD;SCORE
# text shrinks about fourfold, and level 6 (zlib's default) costs tens of ms per MB.
SHIPPED_COMPRESSION = 6

# What `parse_source` makes of given bytes changes only with this number: a
# cache of parsed lists keys its entries by it (bump it with any change to
# `normalise`, `entries` or `_collect` that changes a parsed list).
PARSER_VERSION = 2

# The longest word a list keeps: the longest light any grid can have, a pair of
# rows of the widest Möbius strip read as one loop (2 × 64, `cpmodel.crossword.grid.MAX_SIZE`;
# this layer cannot import it, a test holds the two together). A longer entry
# fits no grid, and indexing it would cost memory in proportion to its length
# squared, so it is dropped and counted like any other entry that is no word.
MAX_WORD_LETTERS = 128
# A line longer than this is dropped unread: it cannot be a word of at most
# MAX_WORD_LETTERS letters (a phrase's spaces, hyphens and accents do not come to
# seven characters a letter), and normalising megabytes of it would cost seconds.
MAX_ENTRY_CHARS = 8 * MAX_WORD_LETTERS

# Both the straight and the typographic apostrophes occur in real lists.
_APOSTROPHES = "'\u2019\u2018\u02bc"
_POSSESSIVE = re.compile(f"[{_APOSTROPHES}][sS]$")
_SEPARATORS = re.compile(f"[\\s\\-\u2010\u2011{_APOSTROPHES}]+")
_A_TO_Z = re.compile("[A-Z]+")


def normalise(entry: str) -> str | None:
    """Return `entry` as upper-case A–Z, or None if it must be dropped.

    Accents are folded (NFKD, combining marks removed; upper-casing also
    turns ß into SS and ligatures like ﬁ into FI); spaces, hyphens and
    apostrophes inside phrases are removed; an entry ending in a possessive
    `'s` (or `’s`) is dropped whole, so "cat's" never becomes CATS; anything
    still holding a character outside A–Z is dropped.
    """
    # Fast path: most entries of real lists are already plain ASCII letters,
    # and skipping the Unicode work keeps loading `en` well under a second.
    if entry.isascii() and entry.isalpha():
        return entry.upper()
    text = entry.strip()
    if _POSSESSIVE.search(text):
        return None
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    word = _SEPARATORS.sub("", folded).upper()
    return word if _A_TO_Z.fullmatch(word) else None


@dataclass(frozen=True)
class WordList:
    """A normalised, deduplicated, scored word list (immutable, shareable)."""

    name: str
    words: tuple[str, ...]
    scores: tuple[int, ...]
    dropped: int
    duplicates: int

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self._index

    def score(self, word: str) -> int:
        """The score of `word` (upper-case A–Z as stored); KeyError if absent."""
        return self.scores[self._index[word]]

    def by_length(self, length: int) -> tuple[str, ...]:
        """The words of exactly `length` letters, sorted."""
        return self._by_length.get(length, ())

    def lengths(self) -> dict[int, int]:
        """Length -> number of words of that length."""
        return {length: len(words) for length, words in self._by_length.items()}

    def require_lengths(self, lengths: Iterable[int]) -> None:
        """Raise DictionaryError naming every length in `lengths` with no word."""
        missing = sorted(set(lengths) - self._by_length.keys())
        if missing:
            raise DictionaryError(
                f"{self.name}: no words of length {', '.join(map(str, missing))}; "
                f"the list has lengths {_describe_lengths(self._by_length)}"
            )

    @cached_property
    def content_hash(self) -> str:
        """sha256 hex of the normalised content as sorted `WORD;SCORE` lines."""
        return hashlib.sha256(self.to_text().encode("ascii")).hexdigest()

    def to_text(self) -> str:
        """The list as sorted `WORD;SCORE` lines, the form `load` reads back."""
        return "".join(f"{w};{s}\n" for w, s in zip(self.words, self.scores))

    @cached_property
    def _index(self) -> dict[str, int]:
        return {word: i for i, word in enumerate(self.words)}

    @cached_property
    def _by_length(self) -> dict[int, tuple[str, ...]]:
        groups: dict[int, list[str]] = {}
        for word in self.words:  # already sorted, so each group is too
            groups.setdefault(len(word), []).append(word)
        return {length: tuple(groups[length]) for length in sorted(groups)}


def from_words(
    words: Iterable[str],
    scores: Iterable[int] | None = None,
    *,
    name: str = "<memory>",
) -> WordList:
    """Build a WordList from in-memory entries, normalised like `load`.

    Without `scores` every entry gets the plain-list score.
    """
    words = list(words)
    score_list = [PLAIN_SCORE] * len(words) if scores is None else list(scores)
    if len(score_list) != len(words):
        raise ValueError(f"{len(words)} words but {len(score_list)} scores")
    for position, score in enumerate(score_list, start=1):
        check_score(score, f"{name}, entry {position}")
    return _collect(zip(words, score_list), name)


def adjusted(
    words: WordList,
    *,
    ban: Iterable[str] = (),
    allow: Iterable[str] = (),
    keep: Container[str] | None = None,
) -> WordList:
    """`words` with `allow`ed words added (PLAIN_SCORE, if absent), then only those in `keep` (if given)
    and not `ban`ned. A word both allowed and banned is banned: the safer reading of a mistake.
    Returns `words` itself when nothing changes."""
    if not ban and not allow and keep is None:
        return words
    banned = set(ban)
    table = dict(zip(words.words, words.scores))
    for word in allow:
        table.setdefault(word, PLAIN_SCORE)
    kept = {w: s for w, s in table.items() if w not in banned and (keep is None or w in keep)}
    if kept.keys() == set(words.words):
        return words
    if not kept:
        raise DictionaryError(f"{words.name}: no words left after the ban list and the clue filter "
                              "(to fill with words that have no clue: --no-clues, or give clues with --clues FILE)")
    return from_words(list(kept), list(kept.values()), name=words.name)


@dataclass(frozen=True, eq=False)
class ListContent:
    """A word list as data, for a job that may run where its file cannot be read.

    `packed` is the list's normalised `WORD;SCORE` text (`WordList.to_text`),
    zlib-compressed; `sha256` is the hash of that text (`content_hash`), which
    keys it: equal contents load once per process, and bytes damaged on the
    way are refused. `name`, `dropped` and `duplicates` are the original
    list's, so the loaded list equals the one the sender read.
    """

    name: str
    sha256: str
    packed: bytes = field(repr=False)
    dropped: int = 0
    duplicates: int = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ListContent) and (other.name, other.sha256) == (self.name, self.sha256)

    def __hash__(self) -> int:
        return hash((self.name, self.sha256))


def portable(name_or_path: str | os.PathLike[str]) -> str | ListContent:
    """What a job carries to name its list: an embedded list's name, or any other list's content.

    `words` reads the system's /usr/share/dict/words, which a worker machine
    may lack (or hold in another version), so it travels as content too.
    """
    if isinstance(name_or_path, str) and name_or_path in EMBEDDED_LISTS:
        return name_or_path
    full = load(name_or_path)
    return ListContent(full.name, full.content_hash, zlib.compress(full.to_text().encode("ascii"),
                                                                   SHIPPED_COMPRESSION),
                       full.dropped, full.duplicates)


def read_word_set(path: str | os.PathLike[str]) -> frozenset[str]:
    """The words of a `--ban`/`--allow` file: one word or phrase a line, normalised; '#' starts a comment."""
    source = os.fspath(path)
    _stamp(source, Path(source))  # a regular file of bounded size: no FIFO blocks the read
    text = decode(source, read_bytes(Path(source)))
    words = set()
    for number, line in enumerate(text.split("\n"), start=1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        word = normalise(entry) if len(entry) <= MAX_ENTRY_CHARS else None
        if word is None or SCORE_SEPARATOR in entry or "\t" in entry:
            raise DictionaryError(f"{source}, line {number}: expected one word or phrase a line, got {line[:60]!r}")
        if len(word) > MAX_WORD_LETTERS:
            raise DictionaryError(f"{source}, line {number}: a word of {len(word):,} letters; no grid has a light "
                                  f"longer than {MAX_WORD_LETTERS}")
        words.add(word)
    return frozenset(words)


def load(
    name_or_path: str | os.PathLike[str] | ListContent | WordList,
    *,
    min_length: int = 1,
    max_length: int | None = None,
    min_score: int = 0,
    spelling: str = DEFAULT_SPELLING,
) -> WordList:
    """Load a named list (see NAMED_LISTS) or a word-list file, then filter it.

    The embedded lists (`en`, `en-small`) keep to `spelling` (see SPELLINGS):
    the words SCOWL lists only in the other spelling are left out. Other
    lists are used whole.

    A string equal to a named list means that list; pass a Path (or "./en")
    for a file of that name. Files may be plain (one entry a line, score
    PLAIN_SCORE), scored (`WORD;SCORE`, SCORE an integer 0–100), or gzip of
    either, detected by its magic bytes. Results are cached in-process, keyed
    by the file's modification time and size — or, for a `ListContent`, by
    its hash. A `WordList` already read (`read_source` + `parse_source`, or a
    binary cache of them) is only filtered; when no filter removes a word,
    the list itself is returned.
    """
    _check_filters(min_length, max_length, min_score)
    if spelling not in SPELLINGS:
        raise ValueError(f"spelling must be one of {', '.join(SPELLINGS)}, got {spelling!r}")
    if isinstance(name_or_path, ListContent):
        return _select_content(name_or_path, min_length, max_length, min_score)
    if isinstance(name_or_path, WordList):
        return _filtered(name_or_path, name_or_path.name, min_length, max_length, min_score)
    name, path = _resolve(name_or_path)
    if name == "en-small":
        min_score = max(min_score, EN_SMALL_MIN_SCORE)
    spelled = spelling if name in EMBEDDED_LISTS else None
    return _select(name, str(path), _stamp(name, path), min_length, max_length, min_score, spelled)


@lru_cache(maxsize=len(SPELLINGS))
def _marked_spellings(spelling: str) -> frozenset[str]:
    """The embedded words marked for a spelling other than `spelling`."""
    if not EN_SPELLING_PATH.is_file():
        return frozenset()  # a list built without marks: nothing to leave out
    lines = gzip.decompress(EN_SPELLING_PATH.read_bytes()).decode("ascii").split()
    return frozenset(word for word, _, mark in (line.partition(";") for line in lines) if mark != spelling)


def _check_filters(min_length: int, max_length: int | None, min_score: int) -> None:
    if min_length < 1:
        raise ValueError(f"min_length must be at least 1, got {min_length}")
    if max_length is not None and max_length < min_length:
        raise ValueError(f"max_length {max_length} is below min_length {min_length}")
    if not MIN_SCORE <= min_score <= MAX_SCORE:
        raise ValueError(f"min_score must be {MIN_SCORE}..{MAX_SCORE}, got {min_score}")


def _resolve(name_or_path: str | os.PathLike[str]) -> tuple[str, Path]:
    if isinstance(name_or_path, str) and name_or_path in NAMED_LISTS:
        path = SYSTEM_WORDS_PATH if name_or_path == "words" else EN_PATH
        return name_or_path, path
    path_text = os.fspath(name_or_path)
    return path_text, Path(path_text)


def _stamp(name: str, path: Path) -> tuple[int, int]:
    """(mtime_ns, size) of the file, the cache key; DictionaryError if unreadable."""
    try:
        stat = path.stat()
    except (OSError, ValueError):  # ValueError: a NUL in the name
        raise DictionaryError(_missing_message(name, path)) from None
    if not path.is_file():
        raise DictionaryError(f"{path}: not a regular file (expected a word-list file)")
    if stat.st_size > MAX_LIST_BYTES:
        raise DictionaryError(f"{path}: {stat.st_size:,} bytes; a word list is at most {MAX_LIST_BYTES:,}")
    return stat.st_mtime_ns, stat.st_size


def _missing_message(name: str, path: Path) -> str:
    if name == "words":
        return (
            f"the 'words' list reads {path}, which is absent: "
            "install it with `apt-get install wamerican`"
        )
    if name in NAMED_LISTS:
        return (
            f"the embedded list {path} is missing: "
            "rebuild it with `python -m mobius.dictionaries.build_en`"
        )
    return (
        f"{path}: no such word-list file (expected a plain, WORD;SCORE or gzip "
        f"list, or one of the named lists {', '.join(NAMED_LISTS)})"
    )


@lru_cache(maxsize=32)
def _select(
    name: str,
    path: str,
    stamp: tuple[int, int],
    min_length: int,
    max_length: int | None,
    min_score: int,
    spelling: str | None,
) -> WordList:
    """`spelling`: leave out the words marked for another spelling (None: keep every word)."""
    words = _filtered(_parse_file(path, stamp), name, min_length, max_length, min_score)
    other = _marked_spellings(spelling) if spelling else frozenset()
    return adjusted(words, ban=other) if other & set(words.words) else words


@lru_cache(maxsize=8)
def _select_content(content: ListContent, min_length: int, max_length: int | None, min_score: int) -> WordList:
    return _filtered(_unpack(content), content.name, min_length, max_length, min_score)


@lru_cache(maxsize=4)
def _unpack(content: ListContent) -> WordList:
    """The list a `ListContent` holds, checked against its hash; parsed once per process."""
    try:
        data = zlib.decompress(content.packed)
    except zlib.error as error:
        raise DictionaryError(f"{content.name}: the shipped word list does not decompress ({error})") from None
    if hashlib.sha256(data).hexdigest() != content.sha256:
        raise DictionaryError(f"{content.name}: the shipped word list does not match its sha256 {content.sha256}")
    full = _collect(entries(content.name, data.decode("ascii").split("\n")), content.name)
    return WordList(content.name, full.words, full.scores, content.dropped, content.duplicates)


def _filtered(full: WordList, name: str, min_length: int, max_length: int | None, min_score: int) -> WordList:
    """The words of `full` within the length bounds and at or above `min_score` (`full` itself when that
    is every word and the name is the same, so that what is cached for the list object serves)."""
    longest = max_length if max_length is not None else max(full.lengths())
    if (name == full.name and min_length <= min(full.lengths()) and longest >= max(full.lengths())
            and min_score <= min(full.scores)):
        return full
    kept = [
        (word, score)
        for word, score in zip(full.words, full.scores)
        if min_length <= len(word) <= longest and score >= min_score
    ]
    if not kept:
        wanted = f">= {min_length}" if max_length is None else f"{min_length}..{max_length}"
        raise DictionaryError(
            f"{name}: no words of length {wanted} with score >= {min_score} "
            f"(the list has lengths {_describe_lengths(full.lengths())})"
        )
    words, scores = zip(*kept)
    return WordList(name, words, scores, full.dropped, full.duplicates)


@lru_cache(maxsize=8)
def _parse_file(path: str, stamp: tuple[int, int]) -> WordList:
    """Read, decode and normalise one file; `stamp` only keys the cache."""
    return parse_source(path, path, read_bytes(Path(path)))


def read_source(name_or_path: str | os.PathLike[str]) -> tuple[str, str, bytes]:
    """(the list's name, its file, the file's bytes with gzip inflated): what `parse_source` reads.

    For `words` and word-list files, which `load` uses whole (the embedded lists keep to a spelling);
    DictionaryError as `load` raises it."""
    name, path = _resolve(name_or_path)
    _stamp(name, path)
    return name, str(path), read_bytes(path)


def parse_source(name: str, where: str, data: bytes) -> WordList:
    """The WordList `load` makes of a list's bytes (`read_source`): decoded, normalised, deduplicated;
    errors name `where` (the file) and the line."""
    text = decode(where, data)
    full = _collect(entries(where, text.split("\n")), where)
    return full if name == where else WordList(name, full.words, full.scores, full.dropped, full.duplicates)


def _collect(entries: Iterable[tuple[str, int]], name: str) -> WordList:
    """Normalise and deduplicate (keeping the highest score) into a WordList; entries that are no word,
    or longer than MAX_WORD_LETTERS, are counted as dropped."""
    best: dict[str, int] = {}
    seen = dropped = duplicates = 0
    for entry, score in entries:
        seen += 1
        word = normalise(entry) if len(entry) <= MAX_ENTRY_CHARS else None
        if word is None or len(word) > MAX_WORD_LETTERS:
            dropped += 1
        elif word in best:
            duplicates += 1
            best[word] = max(best[word], score)
        else:
            best[word] = score
    if not seen:
        raise DictionaryError(
            f"{name}: the list is empty (expected one word per line, or WORD;SCORE lines)"
        )
    if not best:
        raise DictionaryError(
            f"{name}: none of its {seen} entries is a word after normalisation "
            "(expected letters, optionally accented, in words or phrases)"
        )
    words = tuple(sorted(best))
    return WordList(name, words, tuple(best[w] for w in words), dropped, duplicates)


def _describe_lengths(lengths: Iterable[int]) -> str:
    """Sorted lengths with runs collapsed, e.g. "2..9, 11, 13..15"."""
    runs: list[list[int]] = []
    for length in sorted(lengths):
        if runs and length == runs[-1][1] + 1:
            runs[-1][1] = length
        else:
            runs.append([length, length])
    return ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in runs) or "none"
