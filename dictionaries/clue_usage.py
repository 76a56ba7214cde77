"""Rules on how a clue reads as its answer's sense, beyond its words: `usage_flags(answer, clue)`.

Covers the faults an editor marks on a clue that is accurate word for word
(`usage_flags`), and one question an editor answers (`number_question`):
- **untagged British usage** (`british_flag`): a British word cluing its American
  counterpart (FLASHLIGHT "Torch") or the other way round (LIFT "Elevator") with no tag
  saying so ("to Brits", "in London", "across the pond"), from the table `BRITISH`;
- **number**, a question (`number_question`): a one-word clue whose number may not be the
  answer's — EMPLOYMENT "Jobs", CREDENTIALS "Certificate" — read from lemminflect: a noun's S-plural
  (one of its lemmas with S, ES or IES added) against a singular noun with a plural of its own;
  collectives and mass nouns clue across number by convention (AUDIENCE "Spectators", WAGES
  "Pay") and lemminflect cannot tell them apart, so these are for an editor to read, not faults;
- **valency** (`valency_flag`): a one-word clue that is a verb needing a preposition
  ("Yearn" for) cluing a verb that takes an object (CRAVE), from `NEEDS_A_PREPOSITION`, and a
  determiner of the other number (EVERY "All");
- **a shortening without its marker** (`shortening_flag`): a clipped answer (REP, UMP, GRAD,
  VET as a noun) in its clipped sense with no "for short", "briefly" or the like, from
  `CLIPPINGS`.

Each rule reads only the clue and the answer, so a clue file, the bank and a pack's
puzzles are judged alike. Leaves out: give-aways (`clue_text.Family`), which words need a
clue at all, and the senses no table lists — the tables hold the common cases editors
mark, not every British word or clipping.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllLemmas, getInflection

# British words in the sense an American grid would clue otherwise, each with the American
# answers of that sense. Only words whose British sense is not also everyday American: TAP
# ("Faucet"), AUTUMN ("Fall"), QUEUE ("Line"), TROUSERS, POSTMAN and DUVET are clued so in American
# grids, untagged.
BRITISH: dict[str, frozenset[str]] = {word: frozenset(american.split()) for word, american in {
    "torch": "FLASHLIGHT", "lift": "ELEVATOR", "biscuit": "COOKIE CRACKER", "petrol": "GASOLINE GAS",
    "lorry": "TRUCK", "nappy": "DIAPER", "pram": "STROLLER", "flat": "APARTMENT", "crisps": "CHIPS",
    "rubbish": "TRASH GARBAGE", "pavement": "SIDEWALK", "jumper": "SWEATER", "motorway": "HIGHWAY FREEWAY",
    "dummy": "PACIFIER", "aubergine": "EGGPLANT", "courgette": "ZUCCHINI", "coriander": "CILANTRO",
    "windscreen": "WINDSHIELD", "bonnet": "HOOD", "caravan": "TRAILER", "postcode": "ZIPCODE",
    "dustbin": "TRASHCAN GARBAGECAN", "holiday": "VACATION", "maths": "MATH", "trainers": "SNEAKERS",
    "nought": "ZERO", "loo": "TOILET BATHROOM", "solicitor": "LAWYER ATTORNEY", "chemist": "DRUGSTORE PHARMACY",
    "cot": "CRIB", "rubber": "ERASER", "fringe": "BANGS",
    "braces": "SUSPENDERS", "waistcoat": "VEST", "gaol": "JAIL", "brolly": "UMBRELLA",
    "chips": "FRIES", "saloon": "SEDAN",
}.items()}
# Words of a clue that tell the solver the British sense is meant.
BRITISH_TAG = re.compile(r"\b(brits?|british|britain|briton|u\.?k\.?|england|english|london(er)?|across the pond|"
                         r"oxford|cambridge|manchester|liverpool|cockney|scots?|scottish|irish|aussies?|australian|"
                         r"down under|overseas|abroad)\b", re.IGNORECASE)

# Verbs that take their object only through a preposition: "Yearn" clues PINE (pine for), not CRAVE.
NEEDS_A_PREPOSITION = {"yearn": "for", "long": "for", "hanker": "after", "pine": "for", "lust": "after",
                       "rely": "on", "depend": "on", "consist": "of", "belong": "to"}
# Answers that may take a preposition themselves, and so be clued by one of those: ACHE "Yearn",
# COUNTING "Relying". Verbs with a sense of their own without one (HURT "Ache", HARK "Listen") are
# not held to the rule at all: only a clue from NEEDS_A_PREPOSITION is.
TAKE_A_PREPOSITION = frozenset(NEEDS_A_PREPOSITION) | frozenset(
    "ache itch hunger thirst hope wish aspire count bank listen hark hearken harken".split())
SINGULAR_DETERMINERS = frozenset("every each either neither another".split())
PLURAL_DETERMINERS = frozenset("all both several many few various".split())

# Clipped answers whose clipped sense an editor marks "for short"; the value says which senses
# are clipped: "all", or "noun" where the answer is also a verb of its own (VET "Check out").
# Clippings that have become plain words (AD, DELI, EXAM, GYM, PHOTO, SUB, ABS) are clued untagged.
CLIPPINGS = {**dict.fromkeys("REP UMP GRAD PROF PERP TECH DEB EXEC ADMIN MAG DOC SEC ROOMIE BIO ECON CAF TRIG CALC "
                             "SOPH FROSH NAV".split(), "all"),
             **dict.fromkeys("VET REF".split(), "noun")}
SHORT_MARKER = re.compile(r"\b(for short|briefly|in brief|informally|abbr|colloquially|casually|slangily|familiarly|"
                          r"nickname|short for|shortened)\b|\?$", re.IGNORECASE)

_WORD = re.compile(r"[A-Za-z]+")


def usage_flags(answer: str, clue: str) -> list[str]:
    """Every usage rule `clue` breaks for `answer` (A–Z), one short phrase each."""
    flags = (british_flag(answer, clue), valency_flag(answer, clue), shortening_flag(answer, clue))
    return [flag for flag in flags if flag]


def british_flag(answer: str, clue: str) -> str | None:
    """A British word cluing its American answer, or a British answer clued by its American word
    alone (RUBBER "Eraser"; "Eraser material" is true in any country), with no tag saying so."""
    if BRITISH_TAG.search(clue):
        return None
    answers = {answer, *(lemma.upper() for lemma in lemmas(answer.lower()))}
    for word in _WORD.findall(clue):
        for form in {word.lower(), *lemmas(word.lower())}:
            if answers & BRITISH.get(form, frozenset()):
                return f"'{word}' is British for {answer}: tag it (\"to Brits\", \"in London\")"
    head = _one_word(clue)
    if head is not None and any({head.upper(), *(lemma.upper() for lemma in lemmas(head))}
                                & BRITISH.get(key.lower(), frozenset()) for key in answers):
        return f"{answer} means '{head}' in British use: tag it (\"to Brits\", \"in London\")"
    return None


def number_question(answer: str, clue: str) -> str | None:
    """A one-word clue whose number may not be the answer's: a count noun's S-plural against a
    singular count noun (CREDENTIALS "Certificate", EMPLOYMENT "Jobs"). A question, not a fault: a
    collective (AUDIENCE "Spectators") or a mass noun (WARES "Merchandise") clues across number
    by convention, and lemminflect cannot tell those from count nouns."""
    head = _one_word(clue)
    if head is None:
        return None
    word = answer.lower()
    if _is_plural_noun(word) and _is_count_noun(head):
        return f"{answer} is plural, '{head}' is not"
    if _is_plural_noun(head) and _is_count_noun(word):
        return f"'{head}' is plural, {answer} is not"
    return None


def valency_flag(answer: str, clue: str) -> str | None:
    """A one-word clue needing a preposition the answer does without, or a determiner of the other number."""
    head = _one_word(clue)
    if head is None:
        return None
    word = answer.lower()
    only_a_verb = set(getAllLemmas(word)) == {"VERB"}
    for lemma in {head, *lemmas(head)}:
        if only_a_verb and lemma in NEEDS_A_PREPOSITION and not {word, *lemmas(word)} & TAKE_A_PREPOSITION:
            return f"'{head}' needs '{NEEDS_A_PREPOSITION[lemma]}' where {answer} takes an object"
    for one, other in ((SINGULAR_DETERMINERS, PLURAL_DETERMINERS), (PLURAL_DETERMINERS, SINGULAR_DETERMINERS)):
        if word in one and head in other:
            return f"'{head}' and {answer} take nouns of different number"
    return None


def shortening_flag(answer: str, clue: str) -> str | None:
    """A clipped answer in its clipped sense whose clue does not say it is short."""
    senses = CLIPPINGS.get(answer)
    if senses is None or SHORT_MARKER.search(clue) or "_" in clue:
        return None  # a blank quotes the word as said ("What's up, ___?"), short or not
    first = next(iter(_WORD.findall(clue)), "").lower()
    if senses == "noun" and "VERB" in getAllLemmas(first):
        return None  # VET "Check out": the verb is a word of its own, not a shortening
    return f"{answer} is a shortening: say so (\"for short\", \"briefly\")"


def is_s_plural(word: str) -> bool:
    """Is `word` (any case) one of its lemmas with S, ES or IES added (VETS, BOXES, SALARIES)?"""
    lower = word.lower()
    if not lower.endswith("s"):
        return False
    return any(lower in (lemma + "s", lemma + "es", lemma[:-1] + "ies") for lemma in lemmas(lower) if lemma != lower)


def _is_plural_noun(word: str) -> bool:
    """Is `word` (lower case) an S-plural and not a noun of its own (SALARIES; not SUMMONS, NEWS)?"""
    return is_s_plural(word) and word not in getAllLemmas(word).get("NOUN", ())


def _is_count_noun(word: str) -> bool:
    """Is `word` (lower case) a singular noun with a plural other than itself (JOB, EMPLOYMENT;
    not MEN, a plural, nor PAY or SHEEP, whose plural lemminflect gives as the word itself)?"""
    plurals = getInflection(word, "NNS") if word in getAllLemmas(word).get("NOUN", ()) else ()
    return not word.endswith("s") and any(plural != word for plural in plurals)


def _one_word(clue: str) -> str | None:
    """The clue's one word (lower case) when it is a single word and no blank."""
    words = _WORD.findall(clue)
    return words[0].lower() if len(words) == 1 and "_" not in clue else None


@lru_cache(maxsize=65536)
def lemmas(word: str) -> frozenset[str]:
    """lemminflect's lemmas of `word` (lower case), every part of speech."""
    return frozenset(lemma for found in getAllLemmas(word).values() for lemma in found)
