"""Word families: which answers a solver reads as one word twice, and which clue names another answer.

Covers: `family_of` (a word and its lemmas: SAT -> {sat, sit}), `relatives_in` (a word
list's words of one family with a word, for the pack's ledger), `families_of` (the families
among a pack's answers, for its report), `derived` (EXPIRE and
EXPIRATION, LEGIT and LEGITIMATE: one word read as made from the other), `family_pair`
(the first two answers of one family in a grid: LET and LETS, SIT and SAT, ODD
and ODDS, and a word beside one made from it, LEGIT and LEGITIMATE), and the
lemma table they read: lemminflect's lookup table (its
`getAllLemmas`, every part of speech, overrides applied), kept in the user's
cache (`lemmas.tsv` under `mobius.generators.cache.user_cache_dir()`) as the
words whose lemmas differ from themselves.

Why a cache of a library's table: lemminflect reads its gzipped CSV line by
line on first use (0.13–0.19 s, plus 0.09 s importing it with numpy), which
was a third of one fill from the shell; the cached table loads in about 10 ms.
The cache is keyed by the size and time of lemminflect's two lemma files, so
an upgraded lemminflect rebuilds it, and it carries a SHA-256 of its rows, so
a damaged one is reported in one line on stderr and rebuilt; so is one that
is no regular file of a plausible size (a FIFO blocks no run,
`mobius.cpmodel.cache_files`), whose header is not bounded JSON, or whose
rows are not UTF-8 lines of a word, a tab and its lemmas (a table forged
with a checksum to match). Where
lemminflect's files are not where version 0.2 keeps them, or the cache
cannot be written, the table is read from lemminflect each run instead.
A text file of its own rather than an entry of the table store
(`mobius.cpmodel.store`): the store holds numpy arrays, and importing numpy
would cost more than the table saves.

Leaves out: the repeat policy across a pack (`word_policy.py`) and clue
text checks (`clues.py`, `mobius.dictionaries.clue_text`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from mobius.cpmodel.cache_files import Damaged, read_entry, warn_on_stderr
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.inputs import loads_json_bounded, shown
from mobius.generators.cache import user_cache_dir

# A clipping or a derivation reads as its word again (LEGIT beside LEGITIMATE, EXPIRE beside
# EXPIRATION), and lemminflect lists neither: two words are taken as of one family when they begin
# with the same this many letters or more, all of the shorter but perhaps its final letter (`derived`).
# Shorter beginnings are mostly other words (CAR, CARICATURE; STAR, START); a longer one that is
# (BRAND, BRANDY) only costs the pack a mended fill or another clue.
CLIPPING_LETTERS = 5
TABLE_NAME = "lemmas.tsv"
TABLE_FORMAT = 1
# lemminflect 0.2's table comes to about 600 kB; a file many times that was not written here.
MAX_TABLE_BYTES = 32 << 20
# lemminflect's lemma lookup and its overrides, in its package's resources (lemminflect 0.2).
LEMMA_FILES = ("lemma_lu.csv.gz", "lemma_overrides.csv")


@lru_cache(maxsize=65536)
def family_of(word: str) -> frozenset[str]:
    """The word (A–Z) and its lemmas, lower case: SAT -> {sat, sit}; a word ending in S also
    claims itself without the S, since ODDS beside ODD or NEWS beside NEW reads as the same word
    twice to a solver, though lemminflect lists ODDS and NEWS as lemmas of their own."""
    lower = word.lower()
    stem = {lower[:-1]} if lower.endswith("s") else set()
    return frozenset({lower, *stem, *lemma_table().get(lower, ())})


def family_pair(answers: Iterable[str]) -> tuple[str, str] | None:
    """Two different answers of one family (sharing the word or a lemma, or one a clipping
    of the other), the first such pair; None if none."""
    answers = list(answers)
    seen: dict[str, str] = {}
    for answer in answers:
        for member in family_of(answer):
            other = seen.setdefault(member, answer)
            if other != answer:
                return other, answer
    return _derived_pair(answers)


def relatives_in(words: Iterable[str]) -> Callable[[str], frozenset[str]]:
    """For a word list: a word -> the list's other words of its family (sharing the word or a lemma,
    `family_of`): USE -> USED, USES. The index is built once, so a pack asks it for every answer."""
    members = _by_member(words)

    def relatives(word: str) -> frozenset[str]:
        return frozenset(kin for member in family_of(word) for kin in members.get(member, ()) if kin != word)
    return relatives


def families_of(answers: Iterable[str]) -> list[list[str]]:
    """The families with two different answers or more among `answers` (sharing the word or a lemma,
    `family_of`), each sorted, in order: [["USE", "USED", "USES"], ...]."""
    groups = _by_member(answers).values()
    return [list(group) for group in sorted({tuple(sorted(group)) for group in groups if len(group) > 1})]


def _by_member(words: Iterable[str]) -> dict[str, set[str]]:
    """Each family key (`family_of`) -> the words holding it."""
    members: dict[str, set[str]] = {}
    for word in words:
        for member in family_of(word):
            members.setdefault(member, set()).add(word)
    return members


def derived(word: str, other: str) -> bool:
    """Whether one of two different words reads as made from the other: they begin with the same
    CLIPPING_LETTERS letters or more, which are all of the shorter or all but its final letter
    (LEGIT and LEGITIMATE, STATE and STATEMENTS, EXPIRE and EXPIRATION; not STARE and START)."""
    short, long = sorted((word.lower(), other.lower()), key=len)
    if short == long:
        return False
    stem = short if long.startswith(short) else short[:-1]
    return len(stem) >= CLIPPING_LETTERS and long.startswith(stem)


def _derived_pair(answers: list[str]) -> tuple[str, str] | None:
    """Two answers one of which reads as made from the other (`derived`), the shorter first."""
    for n, first in enumerate(answers):
        for second in answers[n + 1:]:
            if derived(first, second):
                short, long = sorted((first, second), key=len)
                return short, long
    return None


@lru_cache(maxsize=1)
def lemma_table() -> Mapping[str, tuple[str, ...]]:
    """Lower-case word -> its lemmas other than itself, for every word lemminflect lists one for."""
    source = _source_stamp()
    if source is None:
        return _from_lemminflect()
    path = user_cache_dir() / TABLE_NAME
    table = _read_table(path, source)
    if table is None:
        table = _from_lemminflect()
        try:
            write_atomic(path, _table_bytes(table, source))
        except OSError as error:  # a read-only cache: correct, only slower next time
            print(f"mobius: the lemma table is not cached ({error})", file=sys.stderr)
    return table


def _from_lemminflect() -> dict[str, tuple[str, ...]]:
    from lemminflect import Lemmatizer, getAllLemmas

    lemmatizer = Lemmatizer()
    words = {*lemmatizer._getLemmaDict(), *lemmatizer._getOverridesDict()}
    table = {}
    for word in sorted(w for w in words if w.isalpha() and w.islower()):  # family_of asks for a-z only
        lemmas = sorted({lemma for found in getAllLemmas(word).values() for lemma in found} - {word})
        if lemmas:
            table[word] = tuple(lemmas)
    return table


def _source_stamp() -> dict[str, list[int]] | None:
    """Size and modification time of lemminflect's lemma files, found without importing it; None if absent."""
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        return None
    resources = Path(next(iter(spec.submodule_search_locations))) / "resources"
    try:
        stats = {name: os.stat(resources / name) for name in LEMMA_FILES}
    except OSError:
        return None
    return {name: [stat.st_size, stat.st_mtime_ns] for name, stat in stats.items()}


def _table_bytes(table: Mapping[str, tuple[str, ...]], source: Mapping[str, list[int]]) -> bytes:
    rows = "".join(f"{word}\t{','.join(lemmas)}\n" for word, lemmas in table.items()).encode()
    header = {"format": TABLE_FORMAT, "source": source, "sha256": hashlib.sha256(rows).hexdigest()}
    return json.dumps(header, sort_keys=True).encode() + b"\n" + rows


def _read_table(path: Path, source: Mapping[str, list[int]]) -> dict[str, tuple[str, ...]] | None:
    """The cached table if it is whole and made from these lemminflect files; None to rebuild it (a
    damaged one is said in one warning line first)."""
    try:
        data, _ = read_entry(path, MAX_TABLE_BYTES, "lemma table")
        return _parsed_table(path, data, source)
    except FileNotFoundError:
        return None
    except Damaged as exc:
        warn_on_stderr(f"{exc}; not used, rebuilt")
        return None


def _parsed_table(path: Path, data: bytes, source: Mapping[str, list[int]]) -> dict[str, tuple[str, ...]] | None:
    """The table `_table_bytes` wrote as `data`; None if another lemminflect or format made it (rebuilt
    without a word), Damaged if its header, checksum or rows are not what was written."""
    head, _, rows = data.partition(b"\n")
    try:
        header = loads_json_bounded(head.decode("utf-8"), "lemma table header")
    except (UnicodeDecodeError, InputError):
        raise Damaged(f"{path}: the header is not JSON") from None
    if not (isinstance(header, dict) and isinstance(header.get("sha256"), str)):
        raise Damaged(f"{path}: the header holds no checksum")
    if header.get("format") != TABLE_FORMAT or header.get("source") != source:
        return None
    if header["sha256"] != hashlib.sha256(rows).hexdigest():
        raise Damaged(f"{path}: checksum mismatch (the file changed since it was written)")
    try:
        lines = rows.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        line = rows.count(b"\n", 0, exc.start) + 2  # line 1 is the header
        raise Damaged(f"{path}: line {line} is not UTF-8 text") from None
    if lines.pop() != "":
        raise Damaged(f"{path}: the last row is cut off")
    table = {}
    for line in lines:
        word, tab, lemmas = line.partition("\t")
        table[word] = found = tuple(lemmas.split(","))
        if not (word and tab and all(found)):
            number = lines.index(line) + 2  # line 1 is the header
            raise Damaged(f"{path}: line {number} is {shown(line)}, expected a word, a tab and its lemmas")
    return table
