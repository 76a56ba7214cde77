"""The build's clue writer on Debian's WordNet, and the hand-edited clue data it ships.

Covers the writer's sense rules a blind read of packs asked for — a one-word
synonym clues a sense only when a solver reading it thinks of that sense (LOT
is no "Mint", NEWT no "Triton"), and a verb form that is both past tense and
participle is clued as the past tense (SAT "Was seated", never "Been
seated") — and the project's edited data: a word the project clued by hand
takes exactly those clues, every such clue keeps the rules `mobius clues
check` applies, and an answer an editor read as unknown scores under the
packs' default. Leaves out the rest of the build (`test_lexicon.py`,
`test_pack_clues.py` judge the shipped bank as a whole).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from mobius.dictionaries import load
from mobius.dictionaries.build_en import BELOW_PACKS, read_project_clues, read_scowl, read_unfamiliar
from mobius.dictionaries.clue_bank import MAX_CLUES, ClueWriter
from mobius.dictionaries.clue_check import clue_text_flags
from mobius.dictionaries.wordnet_db import read_wordnet
from mobius.generators.crossword.clues import load_bank

WORDNET = Path("/usr/share/wordnet")
SCOWL = Path("/usr/share/dict/scowl")

needs_sources = pytest.mark.skipif(
    not (WORDNET / "index.noun").is_file() or not (SCOWL / "english-words.10").is_file(),
    reason="Debian's wordnet-base and scowl are not installed (apt-get install wordnet-base scowl)")


class EveryWordCommon(Mapping[str, int]):
    """A frequency table that calls every word common, so only the sense rules decide."""

    def __getitem__(self, word: str) -> int:
        return 60

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


@pytest.fixture(scope="module")
def writer() -> ClueWriter:
    return ClueWriter(read_wordnet(), frequency=EveryWordCommon(), familiar=read_scowl().common)


@needs_sources
@pytest.mark.parametrize(("answer", "misleading"), [
    ("LOT", "Mint"),  # met once in the "a lot" sense, and the herb, the candy and the coin factory besides
    ("LOT", "Flock"),  # "a lot" met once, the birds twice
    ("FAUNA", "Zoology"),  # uncounted, and the science too
    ("NEWT", "Triton"),  # the god and the moon too
    ("OMENS", "Prodigies"),  # the gifted children too
])
def test_a_synonym_read_in_another_sense_is_no_clue(writer: ClueWriter, answer: str, misleading: str) -> None:
    clues = writer.clues(answer)
    assert clues, f"{answer} keeps other clues"
    assert misleading not in clues


@needs_sources
def test_a_synonym_met_often_in_this_sense_still_clues(writer: ClueWriter) -> None:
    # KINDRED is counted twice in the sense "similar in quality", as often as in any other.
    assert "Kindred" in writer.clues("AKIN")


@needs_sources
@pytest.mark.parametrize(("answer", "past"), [("SAT", "Was seated"), ("BROUGHT", "Took something")])
def test_a_past_tense_that_is_also_a_participle_is_clued_as_the_past(writer: ClueWriter, answer: str,
                                                                       past: str) -> None:
    clues = writer.clues(answer)
    assert any(clue.startswith(past) for clue in clues), clues
    assert not any(clue.split()[0] in ("Been", "Taken") for clue in clues), clues


def test_a_word_clued_by_hand_takes_those_clues_only() -> None:
    bank = load_bank()
    project = read_project_clues()
    assert len(project) > 100
    differ = {word: (bank.clues_of(word), tuple(clues[:MAX_CLUES])) for word, clues in project.items()
              if bank.clues_of(word) and bank.clues_of(word) != tuple(clues[:MAX_CLUES])}
    assert differ == {}, "rebuild the bank: python -m mobius.dictionaries.build_en"


def test_the_hand_written_clues_keep_the_rules() -> None:
    # The text rules of `mobius clues check`; the file also clues words under the packs' default
    # score (EKE) for packs with a lower --min-score, so the answer rule does not apply.
    flagged = [(word, clue, flags) for word, clues in read_project_clues().items() for clue in clues
               if (flags := clue_text_flags(word, clue))]
    assert flagged == []


def test_an_answer_read_as_unknown_scores_under_the_packs_default() -> None:
    words = load("en")
    above = sorted(word for word in read_unfamiliar() if word in words and words.score(word) > BELOW_PACKS)
    assert above == [], "rebuild the bank: python -m mobius.dictionaries.build_en"
