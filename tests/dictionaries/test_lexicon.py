"""The embedded `en` lexicon and its clue bank, judged by outside sources.

Every check here reads something the project does not ship or build from:
SCOWL and WordNet straight from their Debian packages, better-profanity's
offensive-word list from PyPI, and `mobius.generators.crossword.clues.clue_problems`, which
shares no code with the build's own clue filter.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mobius.dictionaries import load
from mobius.generators.crossword.clues import MAX_CLUE_CHARS, clue_problems, load_bank

SCOWL = Path("/usr/share/dict/scowl")
WORDNET = Path("/usr/share/wordnet")
# Sizes 10..70 of SCOWL: the common to large dictionaries (80+ is rare words).
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70)
# The pack's default --min-score; the share is judged on what packs use.
PACK_MIN_SCORE = 30
# A whole phrase never ends on these (a clue ending on one was cut short).
DANGLING = {"a", "an", "the", "and", "or", "nor", "but", "whose", "its", "their", "my", "your", "our"}

needs_scowl = pytest.mark.skipif(not (SCOWL / "english-words.10").is_file(),
                                 reason="Debian's scowl is not installed (apt-get install scowl)")
needs_wordnet = pytest.mark.skipif(not (WORDNET / "index.noun").is_file(),
                                   reason="Debian's wordnet-base is not installed (apt-get install wordnet-base)")


def squash(entry: str) -> str:
    """An entry of an outside list as A–Z (written here, not the project's normalise)."""
    return re.sub(r"[^A-Z]", "", entry.upper())


def scowl_words() -> set[str]:
    words: set[str] = set()
    for path in SCOWL.glob("*.*"):
        kind, _, size = path.name.rpartition(".")
        if size.isdigit() and int(size) in SCOWL_SIZES and not kind.endswith(("abbreviations", "contractions")):
            words.update(squash(w) for w in path.read_text(encoding="latin-1").split() if "'" not in w)
    return words


def wordnet_lemmas() -> set[str]:
    lemmas: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (WORDNET / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            if not line.startswith(" "):
                lemmas.add(squash(line.split(" ", 1)[0]))
    return lemmas


@pytest.fixture(scope="module")
def en() -> list[str]:
    return list(load("en").words)


def test_en_is_large_enough_for_big_packs(en: list[str]) -> None:
    lengths = {n: sum(len(w) == n for w in en) for n in range(3, 16)}
    assert len(en) >= 40_000
    assert all(lengths[n] >= 500 for n in range(3, 14)), lengths


@needs_scowl
@needs_wordnet
def test_en_is_in_scowl_or_wordnet() -> None:
    words = load("en", min_score=PACK_MIN_SCORE).words
    outside = scowl_words() | wordnet_lemmas()
    missing = [w for w in words if w not in outside]
    assert len(missing) <= 0.01 * len(words), missing[:50]


def test_en_holds_no_word_of_a_public_offensive_list(en: list[str]) -> None:
    import better_profanity

    listed = Path(better_profanity.__file__).with_name("profanity_wordlist.txt").read_text(encoding="utf-8").split("\n")
    offensive = {squash(w) for w in listed if w.strip()}
    assert len(offensive) > 500  # the list really was read
    assert sorted(offensive & set(en)) == []


@pytest.mark.parametrize("word", ["ASS", "ANAL", "BONER", "ENEMA", "MDMA", "TANCE", "ATION", "HMS", "LTD", "CPA",
                                  "NIALL", "TAA", "ENT"])
def test_issue_examples_are_gone(en: list[str], word: str) -> None:
    assert word not in en


@pytest.mark.parametrize("word", ["CAT", "CATS", "RAN", "ICECREAM", "PARIS", "THE", "AWL", "OHM", "ERA", "HOUSES"])
def test_familiar_words_stay(en: list[str], word: str) -> None:
    assert word in en


def test_every_en_word_has_a_clue(en: list[str]) -> None:
    bank = load_bank()
    assert [w for w in en if not bank.clues_of(w)] == []


def test_no_clue_gives_its_answer_away_or_is_too_long() -> None:
    bank = load_bank()
    bad = [(w, c, clue_problems(w, c)) for w in bank.clues for c in bank.clues_of(w) if clue_problems(w, c)]
    assert bad[:20] == []


def test_no_clue_ends_mid_phrase() -> None:
    bank = load_bank()
    # One-word clues are synonyms ("But" for ONLY); "Vitamin A" ends on a letter, not an article.
    cut = [(w, c) for w in bank.clues for c in bank.clues_of(w)
           if len(c.split()) > 1 and c.split()[-1] != "A" and c.split()[-1].lower().strip(".,;:!?") in DANGLING
           or c.count("(") != c.count(")")]
    assert cut[:20] == []


def test_no_clue_doubles_a_small_word_or_runs_words_together() -> None:
    # WordNet's slips ("arrange or or coil around") and asides' traces ("give an assignment to to a post");
    # example sentences may ("They ___ in in front of the post office"), definitions never do.
    bank = load_bank()
    doubled = re.compile(r"\b(to|or|and|of|a|an|the|for|on) \1\b", re.IGNORECASE)
    bad = [(w, c) for w in bank.clues for c in bank.clues_of(w)
           if "___" not in c and doubled.search(c) or re.search(r",[A-Za-z]", c)]
    assert bad[:20] == []


def test_clues_are_short_and_varied() -> None:
    bank = load_bank()
    clues = [c for w in bank.clues for c in bank.clues_of(w)]
    assert sum(len(c) <= MAX_CLUE_CHARS for c in clues) == len(clues)
    # Clues come only from the senses a solver thinks of first, so fewer words
    # have several (a third of them; the commonest words most often).
    several = sum(len(bank.clues_of(w)) >= 2 for w in bank.clues)
    assert several >= 0.25 * len(bank.clues)


def test_inflected_forms_get_grammatical_clues() -> None:
    bank = load_bank()
    # Words the build clues from their lemma's WordNet senses, not by hand.
    hand = (Path(__file__).parents[2] / "dictionaries" / "data" / "clues-project.tsv").read_text(encoding="utf-8")
    assert not {"LYNXES", "HASTENED", "OBVIATED"} & {line.split("\t")[0] for line in hand.splitlines()}
    assert any(c.startswith("Short-tailed wildcats") for c in bank.clues_of("LYNXES"))
    assert any(c.startswith("Moved fast") for c in bank.clues_of("HASTENED"))
    assert "Did away with" in bank.clues_of("OBVIATED")
