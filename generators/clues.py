"""Clue sources for crossword packs: a `WORD<TAB>clue` file, or WordNet.

Covers: `read_clues`, a user's clue file; `wordnet_clues`, short definitions
taken from the glosses of Debian's `wordnet-base` (the WordNet 3.0 database
in /usr/share/wordnet, format in wndb(5)); `load_clues`, which turns the
`--clues` argument into one of the two. Every source maps a normalised
answer (`dictionaries.normalise`) to its clue.

Leaves out: looking clues up for a puzzle's entries (`puzzles.py`), and any
download — WordNet is optional and used only where the package is installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

from cpmodel.errors import InputError
from dictionaries import normalise

WORDNET_DIR = Path("/usr/share/wordnet")
# The `--clues` value meaning WordNet; a clue file of that name is `./wordnet`.
WORDNET_SOURCE = "wordnet"
# Parts of speech in the order their senses are tried: a word's noun senses
# come first, then verb, adjective, adverb. Within one part of speech the
# index file lists senses most frequent first (wndb(5)), so the first
# usable sense is the commonest meaning that the rules below let through.
PARTS_OF_SPEECH = ("noun", "verb", "adj", "adv")
# Long enough for a definition, short enough for one line of a clue list.
MAX_CLUE_LENGTH = 80
# Endings stripped before comparing an answer with the words of a clue, so
# that HOUSE rejects "housing" and SWIFTLY rejects "swift" (longest first);
# a stem shorter than MIN_STEM would reject too many unrelated words, and a
# clue word shorter than MIN_SHARED ("the", "car") starts answers by chance.
SUFFIXES = ("ING", "ED", "ES", "LY", "S", "ER", "E", "Y")
MIN_STEM = 3
MIN_SHARED = 4
# A definition too long for a clue is cut after its last whole clause when
# that keeps at least this much of it, else after its last whole word; and
# never on one of DANGLING ("a part of the" reads broken).
MIN_CLAUSE = MAX_CLUE_LENGTH // 2
DANGLING = frozenset({"a", "an", "the", "and", "or", "nor", "but", "of", "to", "in", "on", "at", "for", "from",
                      "with", "by", "as", "into", "than", "that", "which", "who", "whose", "is", "are", "be"})


def read_clues(path: str | Path) -> dict[str, str]:
    """A `WORD<TAB>clue` file: one entry a line; the word is normalised to A–Z."""
    clues: dict[str, str] = {}
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such clue file", source=source) from None
    except UnicodeDecodeError:
        raise InputError("clue file is not UTF-8 text", source=source) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        word, tab, clue = line.partition("\t")
        key = normalise(word)
        if not tab or not clue.strip() or key is None:
            raise InputError(f"expected 'WORD<TAB>clue', got {line[:60]!r}", source=source, line=number)
        clues[key] = clue.strip()
    return clues


def load_clues(source: str, words: Iterable[str] | None = None) -> dict[str, str]:
    """`wordnet` for WordNet's definitions (of `words` only, if given), else a clue file."""
    if source == WORDNET_SOURCE:
        return wordnet_clues(words)
    return read_clues(source)


def wordnet_clues(words: Iterable[str] | None = None, *, root: Path = WORDNET_DIR) -> dict[str, str]:
    """A clue for every WordNet lemma (or every one of `words` that has one).

    The clue is the definition part of the gloss of the word's first usable
    sense (see PARTS_OF_SPEECH): the gloss up to its first `;` or quoted
    example, capitalised and cut at a word boundary to MAX_CLUE_LENGTH. A
    sense whose definition names the answer (or its stem) is skipped; a word
    with no other sense gets no clue.
    """
    table = _wordnet_table(Path(root))
    if words is None:
        return dict(table)
    keys = {normalise(w) for w in words}
    return {k: table[k] for k in keys if k in table}


@lru_cache(maxsize=4)
def _wordnet_table(root: Path) -> dict[str, str]:
    missing = [f"{kind}.{pos}" for pos in PARTS_OF_SPEECH for kind in ("index", "data")
               if not (root / f"{kind}.{pos}").is_file()]
    if missing:
        raise InputError(f"no WordNet database here (missing {', '.join(missing)}); "
                         f"install it with 'apt-get install wordnet-base'", source=str(root))
    clues: dict[str, str] = {}
    for answer, gloss in _senses(root):
        if answer not in clues:
            clue = clue_from_gloss(gloss)
            if clue and not gives_away(clue, answer):
                clues[answer] = clue
    return clues


def _senses(root: Path) -> Iterator[tuple[str, str]]:
    """(answer, gloss) for every sense, in the order senses are tried."""
    for pos in PARTS_OF_SPEECH:
        glosses = parse_data(root / f"data.{pos}")
        for lemma, offsets in parse_index(root / f"index.{pos}"):
            answer = normalise(lemma.replace("_", " "))
            if answer:
                yield from ((answer, glosses[o]) for o in offsets if o in glosses)


def parse_index(path: Path) -> Iterator[tuple[str, list[str]]]:
    """(lemma, synset offsets most frequent sense first) for each line of an index file.

    A line is `lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt
    offset...`; the offsets are its last synset_cnt fields.
    """
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith(" "):  # the licence header
                continue
            fields = line.split()
            yield fields[0], fields[-int(fields[2]):]


def parse_data(path: Path) -> dict[str, str]:
    """Synset offset → gloss for each line of a data file (`offset … | gloss`)."""
    glosses: dict[str, str] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith(" "):
                continue
            head, _, gloss = line.partition(" | ")
            glosses[head.split(" ", 1)[0]] = gloss.strip()
    return glosses


def clue_from_gloss(gloss: str) -> str:
    """The definition part of a gloss, trimmed, capitalised and at most MAX_CLUE_LENGTH long."""
    definition = gloss.split(";", 1)[0].split('"', 1)[0]
    # WordNet quotes words in running text as `to'; a clue reads better with 'to'.
    definition = definition.replace("`", "'").strip(" ,:")
    definition = _shorten(definition)
    return definition[:1].upper() + definition[1:]


def _shorten(text: str) -> str:
    if len(text) <= MAX_CLUE_LENGTH:
        return text
    cut = text[:MAX_CLUE_LENGTH + 1].rsplit(" ", 1)[0]  # whole words only
    clause = max(cut.rfind(", "), cut.rfind(": "))
    if clause >= MIN_CLAUSE:  # a whole clause reads better than a clause cut short
        cut = cut[:clause]
    if cut.count("(") > cut.count(")"):  # no aside left open
        cut = cut[:cut.rindex("(")]
    words = cut.split()
    while words and words[-1].lower().strip(",:") in DANGLING:
        words.pop()
    return " ".join(words).rstrip(" ,:-")


def gives_away(clue: str, answer: str) -> bool:
    """Does the clue hold the answer, or a word sharing its stem?

    A clue word starting with the answer's stem (CAT: "cats") or whose own
    stem starts the answer (SWIFTLY: "swift") gives it away.
    """
    upper = clue.upper()
    stem = _stem(answer)
    return answer in upper or any(w.startswith(stem) or len(_stem(w)) >= MIN_SHARED and answer.startswith(_stem(w))
                                  for w in re.findall(r"[A-Z]+", upper))


def _stem(word: str) -> str:
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            return word[:-len(suffix)]
    return word
