"""Clues for crossword entries: the embedded clue bank, a user's clue file,
the seeded choice of a clue, and an independent check of clue text.

Covers: `read_clue_file` (a `WORD<TAB>clue` file; a word may have several
lines), `ClueBank` (answer -> its clues, best first) with `clue_for(answer,
seed)`, `load_bank(extra)` — the embedded bank built with the `en` lexicon
(`dictionaries/data/en-clues.tsv.gz`), with the user's clues replacing the
embedded ones word by word — loaded once per process and keyed by content
hash, so a pack spec carries only the user's lines to its workers, never the
bank; and `clue_problems(answer, clue)`, a check of clue text written apart from the
build's own filter (dictionaries/clue_text.py) so each can catch what the
other misses.

Leaves out: writing the embedded clues (`python -m mobius.dictionaries.build_en`,
from WordNet, at development time — nothing here reads WordNet), and putting
clues into puzzles (`puzzles.py`).
"""

from __future__ import annotations

import gzip
import hashlib
import random
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import read_text_bounded, text_lines
from mobius.dictionaries import normalise
from mobius.dictionaries.clue_text import clue_head
from mobius.dictionaries.wordlist import EN_CLUES_PATH
from mobius.generators.crossword.word_family import derived, family_of

# Two lines of a printed clue list; the embedded bank keeps to it (a whole
# definition is better than one cut to fit a single line).
MAX_CLUE_CHARS = 90
# clue_problems: a clue word sharing a prefix this long with the answer, and
# missing at most STEM_SLACK letters of the shorter of the two, is taken for
# a word of the answer's family (HOUSE/housing, EDITOR/editorial); a clue
# word of PART_MIN letters or more inside the answer is a part of it
# (ICECREAM/cream). Shorter matches are chance (CAT/catch, THEME/the).
STEM_MIN = 4
STEM_SLACK = 2
PART_MIN = 4
# Answers this short turn up inside unrelated words (CAT in "catch").
SHORT_ANSWER = 3
ENDINGS = frozenset({"S", "ES", "ED", "D", "ING", "ER", "ERS", "Y"})
_LETTERS = re.compile(r"[A-Za-z]+")

ClueLines = tuple[tuple[str, str], ...]
# A clue for every word of the largest published lists is a few MB; past this
# a file is not a clue file.
MAX_CLUE_FILE_BYTES = 64 << 20


def read_clue_file(path: str | Path) -> ClueLines:
    """The (WORD, clue) lines of a `WORD<TAB>clue` file, words normalised to A–Z.

    Blank lines and lines starting with '#' are skipped; anything else must be
    a word, a tab and a non-empty clue, or InputError names the line.
    """
    return tuple((word, clue) for _, word, clue in numbered_clue_lines(path))


def numbered_clue_lines(path: str | Path) -> tuple[tuple[int, str, str], ...]:
    """`read_clue_file`'s lines with the number of the line each stands on."""
    source = str(path)
    text = read_text_bounded(path, MAX_CLUE_FILE_BYTES, "clue file (WORD<TAB>clue lines)")
    lines = []
    for number, line in enumerate(text_lines(text), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        word, tab, clue = line.partition("\t")
        key = normalise(word)
        if not tab or not clue.strip() or key is None:
            raise InputError(f"expected 'WORD<TAB>clue', got {line[:60]!r}", source=source, line=number)
        lines.append((number, key, clue.strip()))
    if not lines:
        raise InputError("the clue file has no clues (expected WORD<TAB>clue lines)", source=source)
    return tuple(lines)


@dataclass(frozen=True, eq=False)
class ClueBank:
    """Answers (A–Z) -> their clues, best first; equal (and hashed) by content hash.

    `clues` maps each answer to its clues joined by tabs, split only when
    asked for: loading stays one split per word."""

    clues: Mapping[str, str]
    sha256: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClueBank) and other.sha256 == self.sha256

    def __hash__(self) -> int:
        return hash(self.sha256)

    def __len__(self) -> int:
        return len(self.clues)

    def __contains__(self, answer: object) -> bool:
        return answer in self.clues

    def clues_of(self, answer: str) -> tuple[str, ...]:
        joined = self.clues.get(answer)
        return tuple(joined.split("\t")) if joined else ()

    def clue_for(self, answer: str, seed: int, others: Collection[str] = (), taken: Collection[str] = ()) -> str:
        """One of the answer's clues, chosen by `seed` (stable across runs and machines) among those
        naming none of `others`, the other answers of its grid, and not already given there (`taken`:
        `fitting`); "" if none."""
        return seeded_pick(fitting(self.clues_of(answer), others, taken), answer, seed)


def naming_none(options: tuple[str, ...], others: Collection[str]) -> tuple[str, ...]:
    """The clues of `options` with no word of one family with an answer of `others`, nor made from
    one (`word_family.derived`): AMINO's "___ acid" beside ACIDS gives half the other answer away,
    and LAPSE's "Expire" beside EXPIRATION; all of them if every one has."""
    families = set().union(*map(family_of, others)) if others else set()

    def names_one(word: str) -> bool:
        return bool(families & family_of(word)) or any(derived(word, other) for other in others)

    kept = tuple(clue for clue in options if not any(names_one(word) for word in re.findall(r"[A-Za-z]+", clue)))
    return kept or options


def fitting(options: tuple[str, ...], others: Collection[str], taken: Collection[str]) -> tuple[str, ...]:
    """The clues of `options` that suit an answer among `others` (`naming_none`), less those read as
    one already given to another answer of the grid (`taken`; `clue_head`: "Put on" beside "Put on,
    as lotion"): two entries clued "Upon" (ATOP, ONTO) read as a misprint. All that name none if
    every one is taken."""
    suited = naming_none(options, others)
    given = {clue_head(clue) for clue in taken}
    return tuple(clue for clue in suited if clue_head(clue) not in given) or suited


def seeded_pick(options: tuple[str, ...], answer: str, seed: int) -> str:
    """One of an answer's clues `options`, chosen by `seed` and the answer; "" if none."""
    if not options:
        return ""
    # A string seed is hashed with SHA-512 by random, never with Python's
    # per-process hash, so the choice is the same everywhere.
    return options[random.Random(f"{seed}/{answer}").randrange(len(options))]


def load_bank(extra: ClueLines = ()) -> ClueBank:
    """The embedded bank, with the words of `extra` taking the user's clues instead."""
    stat = EN_CLUES_PATH.stat()
    return _bank(str(EN_CLUES_PATH), (stat.st_mtime_ns, stat.st_size), extra)


def clue_for(answer: str, seed: int) -> str:
    """A clue for `answer` from the embedded bank, chosen by `seed`; "" if it has none."""
    return load_bank().clue_for(answer, seed)


@lru_cache(maxsize=4)
def _bank(path: str, stamp: tuple[int, int], extra: ClueLines) -> ClueBank:
    """`stamp` (mtime, size) only keys the cache, so an edited file is read anew."""
    data = gzip.decompress(Path(path).read_bytes())
    digest = hashlib.sha256(data)
    clues = dict(line.split("\t", 1) for line in data.decode("utf-8").splitlines())
    mine: dict[str, list[str]] = {}
    for word, clue in extra:
        mine.setdefault(word, []).append(clue.replace("\t", " "))
        digest.update(f"{word}\t{clue}\n".encode())
    clues.update((word, "\t".join(texts)) for word, texts in mine.items())
    return ClueBank(clues, digest.hexdigest())


# -- the independent check -----------------------------------------------------------------------

def clue_problems(answer: str, clue: str, *, max_chars: int = MAX_CLUE_CHARS) -> list[str]:
    """What is wrong with `clue` for `answer` (A–Z): empty, too long, or giving the answer away.

    A clue gives the answer away when a word of it contains the answer, or
    two or three neighbouring words run together spell it (ICE CREAM); when a
    word of PART_MIN letters or more is inside the answer; or when a word
    shares the answer's stem (a prefix of STEM_MIN letters or more covering
    all but STEM_SLACK letters of the shorter word). Irregular forms
    (RAN/run) are the build's job; this check knows no vocabulary.
    """
    text = clue.strip()
    if not text:
        return ["empty clue"]
    problems = []
    if len(text) > max_chars:
        problems.append(f"{len(text)} characters, over {max_chars}")
    words = [w.upper() for w in _LETTERS.findall(text)]
    runs = ["".join(words[i:i + n]) for n in (2, 3) for i in range(len(words) - n + 1)]
    if any(_holds(word, answer) for word in words) or answer in runs:
        problems.append(f"contains the answer {answer}")
    for word in dict.fromkeys(words):
        if _holds(word, answer):
            continue  # reported above
        if len(word) >= PART_MIN and word in answer:
            problems.append(f"'{word.lower()}' is part of the answer")
        elif _shares_stem(answer, word):
            problems.append(f"'{word.lower()}' shares the answer's stem")
    return problems


def _holds(word: str, answer: str) -> bool:
    """Does the clue word hold the answer? A short answer only as itself plus an ending
    (CAT: CATS, not CATCH; AT: never THAT)."""
    if len(answer) > SHORT_ANSWER:
        return answer in word
    return word == answer or (word.startswith(answer) and word[len(answer):] in ENDINGS)


def _shares_stem(answer: str, word: str) -> bool:
    prefix = 0
    for a, b in zip(answer, word):
        if a != b:
            break
        prefix += 1
    return prefix >= STEM_MIN and prefix >= min(len(answer), len(word)) - STEM_SLACK
