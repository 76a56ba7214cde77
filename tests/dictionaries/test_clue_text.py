"""The wording rules the clue bank's build applies (dictionaries/clue_text.py), on WordNet-like
definitions: plurals agree across a coordination, a synset's "terms for" becomes one term, a
colon cut never leaves a dangling word, long blanks are refused, clippings and a compound's first
part give the answer away, usage labels are no clues, British spellings become American."""

from __future__ import annotations

import pytest

from mobius.dictionaries.clue_text import (PLURAL, Family, americanise, blank_clue, clean_definition, inflect_definition,
                                    is_usage_label)

NOUNS = {"passage", "tube", "secretion", "substance", "marine", "freshwater", "fish", "skin", "garment", "sleeve",
         "body", "shoulder", "extremity", "something", "girl", "woman", "state", "matter", "seat", "back", "arms",
         "representation", "surface", "noisemaker", "noise"}
ADJECTIVES = {"bodily", "marine", "freshwater", "voracious", "snakelike", "outer", "simple", "visual", "loud"}
VERBS = {"convey", "cover", "have", "produce", "make", "blow"}


def known(word: str, pos: str) -> bool:
    return word in {"n": NOUNS, "a": ADJECTIVES, "v": VERBS}.get(pos, set())


@pytest.mark.parametrize("definition, plural", [
    ("bodily passage or tube conveying a secretion or other substance", "bodily passages or tubes conveying a secretion or other substance"),
    ("voracious snakelike marine or freshwater fishes with smooth slimy skin", "voracious snakelike marine or freshwater fishes with smooth slimy skin"),
    ("outer garment that has sleeves and covers the body from shoulder down", "outer garments that have sleeves and cover the body from shoulder down"),
    ("girl or woman who is unmarried", "girls or women who are unmarried"),
    ("simple seat without a back or arms", "simple seats without a back or arms"),
    ("visual representation produced on a surface", "visual representations produced on a surface"),
])
def test_a_plural_answer_pluralises_every_head_and_no_modifier(definition: str, plural: str) -> None:
    assert inflect_definition(definition, "n", PLURAL, known) == plural


@pytest.mark.parametrize("definition", ["either extremity of something",
                                        "noisemaker that makes a loud noise when you blow through it"])
def test_a_definition_that_cannot_agree_is_not_pluralised(definition: str) -> None:
    assert inflect_definition(definition, "n", PLURAL, known) is None


@pytest.mark.parametrize("gloss, clue", [
    ("uncomplimentary terms for a policeman", "uncomplimentary term for a policeman"),
    ("informal terms for objecting", "informal term for objecting"),
    ("the state of matter distinguished from the solid and liquid states by: low density", ""),
    ("native to eastern Asia; widely cultivated", ""),
])
def test_definitions_are_cleaned_into_whole_singular_phrases(gloss: str, clue: str) -> None:
    assert clean_definition(gloss.split(";")[0]) == clue


def test_a_blank_comes_only_from_a_short_sentence() -> None:
    long = "To American soldiers, the hajji are the alien people from whom the enemy emerges"
    assert blank_clue(long, "whom") is None
    assert blank_clue(long, "whom", None) is not None
    assert blank_clue("For whom the bell tolls", "whom") == "For ___ the bell tolls"


@pytest.mark.parametrize("answer, clue", [("VETERINARY", "Vet"), ("CAPFUL", "The quantity that a cap will hold"),
                                          ("PLOWS", "Ploughs")])
def test_a_clipping_or_other_spelling_gives_the_answer_away(answer: str, clue: str) -> None:
    assert Family(answer, (), lambda _lemma: ()).gives_away(clue)


@pytest.mark.parametrize("answer, clue", [("FORAGE", "Search for food"), ("THEREOF", "Of the thing just mentioned")])
def test_function_words_opening_the_answer_are_chance(answer: str, clue: str) -> None:
    assert not Family(answer, (), lambda _lemma: ()).gives_away(clue)


WORDS = {"goal", "tender", "keeper", "grand", "father", "parent", "comp", "rise", "compose"}.__contains__


@pytest.mark.parametrize("answer, clue", [("GOALTENDER", "Goalkeeper"), ("GRANDFATHER", "Grandparent"),
                                          ("GRANDFATHER", "One of two grandparents")])
def test_a_compound_sharing_a_compound_answers_first_part_gives_it_away(answer: str, clue: str) -> None:
    assert Family(answer, (), lambda _lemma: (), WORDS).giveaway(clue) is not None
    # Without knowing the words, neither reads as a compound, and the shared prefix is too short for family.
    assert Family(answer, (), lambda _lemma: ()).giveaway(clue) is None


@pytest.mark.parametrize("answer, clue", [("GOALTENDER", "Hockey position"), ("COMPRISE", "Be composed of")])
def test_a_word_opening_like_a_compound_answer_by_chance_is_fair(answer: str, clue: str) -> None:
    assert Family(answer, (), lambda _lemma: (), WORDS).giveaway(clue) is None


@pytest.mark.parametrize("clue, pos, label", [("Slang", "v", True), ("Archaic.", None, True), ("informal", "n", True),
                                              ("Slang", "n", False), ("Archaic", "a", False),
                                              ("Fool or hoax", "v", False), ("Slang term for money", None, False)])
def test_a_one_word_usage_label_is_no_clue_outside_its_own_part_of_speech(clue: str, pos: str | None,
                                                                         label: bool) -> None:
    assert is_usage_label(clue, pos) is label


def test_british_spellings_in_clue_text_become_american() -> None:
    mapping = {"REALISED": "REALIZED", "EMPHASISE": "EMPHASIZE", "COLOUR": "COLOR"}
    assert americanise("Realised", mapping) == "Realized"
    assert americanise("Emphasise the colour of a realised dream", mapping) == "Emphasize the color of a realized dream"
    assert americanise("Colourful", mapping) == "Colourful"  # whole words only
    assert americanise("Tea named for Earl Grey", {"GREY": "GRAY"}) == "Tea named for Earl Grey"  # a name
