"""Turning WordNet senses into crossword clue text, for the build.

Covers: the four kinds of clue the build writes for an answer, each from
one WordNet sense — its definition (`clean_definition`, `shortenings`: cleaned and, when
too long, shortened only at points where the rest is optional, so a clue is
never cut mid-phrase), a familiar synonym (`synonym_clue`), "Opposite of …"
from an antonym, and a fill-in-the-blank from a quoted example
(`blank_clue`) — and the grammatical rewrite of a lemma's clue for an
inflected answer (`inflect_definition`: "Domestic cats", "Moved fast").
Also `Family`, the build's own test that a clue gives its answer away: a
clue word sharing a lemma, an inflection, a WordNet derivation, a
compound's first part or a root with it (GRANDCHILD: "Grandparent",
CROSSINGS: "Crosswalks", REPAY: "Pay back"); `clue_head`, the part of a clue
read as its meaning; `is_usage_label` (a one-word clue that is a
dictionary's register label, "Slang"); and `americanise`, the American
spelling of clue text.

Leaves out: which words get clues and how many (`build_en.py`), reading
WordNet (`wordnet_db.py`), and the check of a clue file or a puzzle's clues
(`clue_check.py`, which judges with these same rules).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache

from lemminflect import getAllInflections, getAllLemmas, getInflection

# known(word, pos): is `word` a WordNet base form of part of speech `pos`?
Known = Callable[[str, str], bool]

# A whole definition up to this long is a clue (printed clue lists and the
# player wrap a clue over two lines); a longer one is cut only where the
# rest is optional, else another source clues the word.
MAX_CLUE_CHARS = 90
# Words a whole phrase never ends on; a clue ending on one was cut short.
DANGLING = frozenset("a an the and or nor but of to in on at for from with by as into than that which who whose "
                     "is are be was were its their his her whose very more most one some any each every".split())
# No text, cut or not, ends on one of these.
ENDS_NOTHING = frozenset("a an the and or nor but that which who whom whose its their his her my your our".split())
# After these (with or without a comma) comes optional detail, so cutting a
# definition just before one leaves a whole phrase: "feline mammal | usually
# having thick soft fur".
OPTIONAL_AFTER = ("especially", "esp.", "usually", "often", "typically", "chiefly", "mainly", "commonly",
                  "sometimes", "normally", "generally", "primarily", "mostly", "e.g.", "as in", "such as",
                  "including")
# Where a relative or participial clause after a noun begins: what stays is
# a whole noun phrase ("Scottish chemist | noted for his research…",
# "United States filmmaker | whose works explore…"). Prepositions are never
# cut points: the phrase they open may be what the definition is about
# ("a sense | of danger", "the Sea | of Japan").
CLAUSE_CUTS = ("who", "whose", "which", "that", "noted", "known", "best known", "famous", "remembered",
               "celebrated", "considered")
# A gloss opening with one of these is a note on usage, classification or
# range ("sometimes placed in subfamily Trilliaceae", "native to eastern
# Asia"), not a definition.
NOTE_OPENERS = frozenset({"sometimes", "usually", "often", "also", "especially", "formerly", "now", "esp.",
                          "used", "chiefly", "mainly", "typically", "plural", "genus", "family", "order",
                          "primarily", "native"})
CLAUSE_CUT_KEEPS = 3
# A gloss may open with a hedge before its definition; one followed by a
# participle is a usage note ("sometimes placed in subfamily…").
HEDGES = frozenset("usually often typically especially chiefly mainly sometimes".split())
# A gloss opening with one of these before a colon sets the scene for the definition after it.
SCENE_SETTERS = frozenset("in on at of for from by with among during".split())
# After a comma these open a non-restrictive clause, which is optional too.
OPTIONAL_AFTER_COMMA = ("which", "who", "whose", "where", "when", "in which", "as", "or", "with", "having",
                        "used", "being", "formerly", "now", "also", "not", "the", "a", "an")
# A plural or verb rewrite needs to know where the head word of the
# definition ends: at the first of these the post-modifiers begin.
POST_MODIFIERS = frozenset("of in on at for from with by as into than that which who whose where when to "
                           "about like used having being made consisting containing resembling usually often "
                           "especially typically esp or and but without within between among against through "
                           "over under across along around behind beyond near after before during toward towards "
                           "via per inside outside upon onto".split())
# A participle followed by one of these opens a clause ("animal living | in", "plant lacking | a").
CLAUSE_FOLLOWERS = POST_MODIFIERS | frozenset("a an the its their his her one some".split())
# Definitions opening with these have no countable head to pluralise.
NO_PLURAL_OPENERS = frozenset("any one anything anyone an a either neither each every".split())
PLURAL_EXCEPTIONS = {"person": "people"}
NUMBERS = frozenset("two three four five six seven eight nine ten twelve".split())
# Openers whose plural is another word, and phrases with a plural of their own.
PLURAL_OPENERS = {"someone": "people", "somebody": "people", "something": "things"}
PLURAL_PHRASES = {"any of various": "various", "any of several": "several", "any of numerous": "numerous",
                  "any of a number of": "a number of", "any of many": "many"}
RELATIVES = frozenset({"that", "which", "who"})
DETERMINERS = frozenset("the a an its their his her this that these those".split())
PLURAL_VERBS = {"is": "are", "has": "have", "was": "were", "does": "do"}
# Inflection tags (Penn Treebank) of the answers the build clues.
PLURAL, PAST, PARTICIPLE, GERUND, THIRD_PERSON, COMPARATIVE, SUPERLATIVE = (
    "NNS", "VBD", "VBN", "VBG", "VBZ", "JJR", "JJS")
UPOS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}

_PARENTHESES = re.compile(r"\s*\([^()]*\)")
_SPACES = re.compile(r"\s+")
_MISSING_SPACE = re.compile(r",(?=[A-Za-z])")
_DOUBLED = re.compile(r"\b(to|or|and|of|a|an|the|in|on|for) \1\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")
# WordNet glosses a slang word by its whole synset ("informal terms for a
# policeman"); the clue is for one word of it: "Informal term for a policeman".
_TERMS_FOR = re.compile(r"^((?:[A-Za-z-]+ ){0,2})(term|name|word)s for\b", re.IGNORECASE)
# Examples with digits, symbols, WordNet's `quotes' or several clauses make poor blanks.
_PLAIN_EXAMPLE = re.compile(r"[A-Za-z][A-Za-z ,'!?.\-]*")


# -- definitions ------------------------------------------------------------------------------------

def clean_definition(definition: str) -> str:
    """A WordNet definition as clue text: no asides, no elaboration after a colon, no leading article."""
    text = definition.replace("`", "'").replace("''", "'").replace("--", " — ")
    while _PARENTHESES.search(text):  # nested asides go from the inside out
        text = _PARENTHESES.sub("", text)
    if ":" in text and len(text.split(":", 1)[0].split()) >= 2:
        before, after = text.split(":", 1)
        # What follows a colon lists examples, unless what precedes it only sets
        # the scene ("in the Roman calendar: the 15th of March…").
        text = after if before.split()[0].lower() in SCENE_SETTERS else before
        if not is_whole(text.strip(" ,;:-")):
            return ""  # "states of matter distinguished from … by: low density…": the list was the definition
    text = _SPACES.sub(" ", _MISSING_SPACE.sub(", ", text)).strip(" ,;:-")
    # A doubled small word is a slip of WordNet's ("arrange or or coil") or an
    # aside's trace ("give an assignment to (a person) to a post"); a definition,
    # unlike an example sentence, never needs one ("reined in in front").
    text = _DOUBLED.sub(r"\1", text)
    text = re.sub(r"^(a|an) ", "", text, flags=re.IGNORECASE)
    text = _TERMS_FOR.sub(r"\1\2 for", text)
    words = text.split()
    if len(words) > 2 and words[0].lower() in HEDGES and not words[1].endswith("ed"):
        text = " ".join(words[1:])  # "usually large hard-shelled seed": the hedge goes, the definition stays
    if text.split(" ", 1)[0].lower() in NOTE_OPENERS | SCENE_SETTERS or text.lower().startswith("type genus"):
        return ""  # a note, a fragment ("of southern Europe") or a taxonomy entry
    return text


def shortenings(text: str, known: Known, limit: int = MAX_CLUE_CHARS) -> list[str]:
    """`text` and its shorter whole forms that fit `limit`, longest first.

    A cut is made only where the rest is optional detail (OPTIONAL_AFTER,
    OPTIONAL_AFTER_COMMA) or where a relative or participial clause begins
    after a noun (CLAUSE_CUTS), and only if at least two words stay and they
    do not end in a clause of their own cut short ("hyena that feeds |
    chiefly on insects"). `known(word, pos)` says whether WordNet has `word`
    as a base form of that part of speech. Every result is whole
    (`is_whole`); the caller takes the first that does not give the answer away.
    """
    strong, clause = set(), set()
    for word in OPTIONAL_AFTER:
        strong.update(m.start() for m in re.finditer(rf",? {re.escape(word)}\b", text))
    for word in OPTIONAL_AFTER_COMMA:
        strong.update(m.start() for m in re.finditer(rf", {re.escape(word)}\b", text))
    for word in CLAUSE_CUTS:
        clause.update(m.start() for m in re.finditer(rf",? {re.escape(word)}\b", text))
    # A participle after a noun opens a reduced relative clause ("Hindu discipline | aimed at…").
    clause.update(m.start() for m in re.finditer(r",? ([a-z]+(?:ed|ing)) (\w+)", text)
                  if _opens_a_participle_clause(m.group(1), m.group(2)))
    # An uncut definition may end on a preposition ("express approval of"), a cut one may not.
    found = [text] if len(text) <= limit and is_whole(text, cut=False) else []
    # Only the first clause may go: a cut at a later one leaves the earlier clause
    # cut short ("unit of heat defined as the quantity of heat | required to…").
    clause = set(sorted(clause)[:1])
    for cut in sorted(strong | clause, reverse=True):
        # "marking surfaces or | for punching holes": the alternative goes with its "or".
        kept = text[:cut].strip(" ,")
        short = re.sub(r"(,? (or|and|but|nor))+$", "", kept)
        words = short.lower().split()
        if len(words) < 2 or len(short) > limit or RELATIVES & set(words[-2:]) or _opens_a_clause(words):
            continue
        if words[:2] == ["any", "of"] and not words[-1].endswith("s"):
            continue  # "any of various small | chiefly tropical…": the plural noun is still to come
        if short != kept and (not _ends_on_a_noun(short, known) or words[-1].endswith("ing")):
            continue  # "small chiefly tropical and | usually nocturnal lizards": the conjunction joined modifiers
        # A clause cut inside another clause ("athlete whose success in Berlin | demolished…")
        # would leave that clause without its verb.
        # A clause cut keeps three words or more: "Metal device" says too little of KEY.
        if cut in strong or len(words) >= CLAUSE_CUT_KEEPS and _ends_on_a_noun(short, known) \
                and not RELATIVES & set(words):
            found.append(short)
    return [t for t in dict.fromkeys(found) if t == text or is_whole(t)]


def _is_verb_form(word: str) -> bool:
    return any(lemma != word for lemma in getAllLemmas(word).get("VERB", ()))


def _opens_a_participle_clause(word: str, following: str) -> bool:
    """Is `word` a participle opening a clause ("living | in", "lacking | a"), not a modifier
    of the next noun ("bathing suit")?"""
    # "made | of", "lacking | a"; but "Berlin demolished | the" is a verb and its object.
    followers = CLAUSE_FOLLOWERS if word.endswith("ing") else POST_MODIFIERS
    return following.lower() in followers and _is_verb_form(word)


def _opens_a_clause(words: list[str]) -> bool:
    """Does the kept text end inside a clause it opened ("…that feeds", "…noted for his work")?"""
    tail = words[-3:]
    return any(w in CLAUSE_CUTS or w in RELATIVES for w in tail[:-1]) or words[-1] in ("his", "her", "its", "their")


def _ends_on_a_noun(kept: str, known: Known) -> bool:
    """Does `kept` end on a noun (or a plural of one) that is not also an adverb or adjective?"""
    last = kept.split()[-1].lower().strip(",.;:")
    nouns = [form for form in (last, last[:-1], last[:-2]) if form and known(form, "n")]
    return bool(nouns) and not any(known(last, pos) for pos in ("r", "a"))


def is_whole(text: str, *, cut: bool = True) -> bool:
    """Balanced brackets and quotes, and no dangling last word: for a cut text, none of
    DANGLING or OPTIONAL_AFTER; for an uncut one, no article or conjunction."""
    words = text.split()
    last = words[-1].lower().strip(",.;:") if words else ""
    dangling = DANGLING | set(OPTIONAL_AFTER) if cut else ENDS_NOTHING
    return (bool(words) and last not in dangling
            and text.count("(") == text.count(")") and text.count('"') % 2 == 0)


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- inflected answers ------------------------------------------------------------------------------

def inflect(word: str, tag: str) -> str | None:
    """`word` inflected for `tag` (lemminflect's first, regular-looking form), or None."""
    if tag == PLURAL and word.lower() in PLURAL_EXCEPTIONS:
        return PLURAL_EXCEPTIONS[word.lower()]
    forms = getInflection(word, tag=tag)
    return forms[0] if forms else None


def inflect_definition(definition: str, pos: str, tag: str, known: Known) -> str | None:
    """A lemma's cleaned definition rewritten for the inflected answer, or None if it cannot be.

    Nouns (plural): the head word — the last noun before the first
    post-modifier — is pluralised ("feline mammals usually having…"), a
    relative clause after it agrees ("that are"), "any of various" becomes
    "various". Verbs: the opening verb and one verb coordinated with it
    ("cut or divide" -> "cuts or divides"). Adjectives are not rewritten (a
    comparative of a definition rarely reads well); synonyms cover them.
    `known(word, pos)` says whether WordNet has the word as a base form of
    that part of speech (an already plural "functions" is not one).
    """
    words = definition.split()
    if not words:
        return None
    if pos == "n" and tag == PLURAL:
        return _pluralise_head(words, known)
    if pos == "v" and tag in (PAST, PARTICIPLE, GERUND, THIRD_PERSON):
        return _inflect_opening_verb(words, tag, known)
    return None


def _pluralise_head(words: list[str], known: Known) -> str | None:
    opener = words[0].lower()
    if opener in PLURAL_OPENERS:
        return " ".join([PLURAL_OPENERS[opener], *_agree_plural(words[1:])]) if len(words) > 1 else None
    text = " ".join(words)
    for phrase, plural in PLURAL_PHRASES.items():
        if text.lower().startswith(phrase + " "):
            return plural + text[len(phrase):]
    if opener in NO_PLURAL_OPENERS or opener in NUMBERS:
        return None  # "two items of the same kind" already counts: PAIRS needs another clue
    if opener == "the":  # "the practical application of science" -> "practical applications of science"
        words = words[1:]
    stops = [i for i, w in enumerate(words) if i and (w.lower() in POST_MODIFIERS or w.endswith(",") or (
        w.endswith("ing") and i + 1 < len(words) and (_opens_a_participle_clause(w, words[i + 1])
                                                      or not known(w, "n") and _is_verb_form(w))) or (
        w.endswith("ed") and i + 1 < len(words) and _opens_a_participle_clause(w, words[i + 1])))]
    for end in [*stops, len(words)]:
        if _modifies_a_later_noun(words, end, known):
            continue  # "marine or freshwater | fishes": the head comes after the coordination
        at = end - 1
        # An adjective may follow its noun ("person responsible for"): step back over it.
        # ... or one that takes "to" ("vine native to China": native is no head here).
        while at > 0 and _plain(words[at]) and known(_plain(words[at]), "a") and (
                not known(_plain(words[at]), "n") or at + 1 < len(words) and words[at + 1] == "to"):
            at -= 1
        head = _plain(words[at])
        if not head:
            return None
        if not known(head, "n"):
            if any(known(lemma, "n") for lemma in getAllLemmas(head).get("NOUN", ()) if lemma != head):
                return " ".join(words)  # WordNet defined it in the plural already
            if end < len(words) and words[end] in ("or", "and"):
                continue
            # No noun before a preposition or clause: the head is unclear ("representation
            # produced | on a surface" must not become "…on a surfaces"), so no rewrite.
            return None
        plural = inflect(head, PLURAL)
        if plural is None or plural == head or any(lemma != head for lemma in getAllLemmas(head).get("NOUN", ())):
            return None  # no plural, or the head is one already (MEN: no "mens")
        out = [*words[:at], plural + words[at][len(head):]]
        rest = words[at + 1:]
        if at == end - 1 and len(rest) >= 2 and rest[0] in ("or", "and") and _plain(rest[1]) \
                and known(_plain(rest[1]), "n") and (len(rest) == 2 or not _is_noun(rest[2], known)):
            second = _plain(rest[1])
            # "girl or woman" -> "girls or women"; a second head already plural stays ("back or arms")
            already = any(lemma != second for lemma in getAllLemmas(second).get("NOUN", ()))
            out += [rest[0], rest[1] if already else inflect(second, PLURAL) or rest[1]]
            rest = rest[2:]
        if {"it", "its", "itself"} & {w.strip(",").lower() for w in rest}:
            return None  # "noisemakers that make a noise when you blow through it": the pronoun would not agree
        if rest and rest[0] in RELATIVES:
            rest = _agree_plural(rest)
        elif any(w in RELATIVES for w in rest):
            # "members of the genus Canis | that has been…": which noun the clause
            # belongs to is unclear, so the plural clue stops before it — unless
            # the clause opens with its preposition ("case | from which cards are
            # dealt"), which a cut would leave dangling.
            rest = rest[:next(i for i, w in enumerate(rest) if w in RELATIVES)]
            if rest and rest[-1] in POST_MODIFIERS:
                return None
        return " ".join([*out, *rest]).rstrip(",")
    return None


def _is_noun(word: str, known: Known) -> bool:
    """Is `word` (a plain lower-case word) a noun or the plural of one?"""
    plain = _plain(word)
    return bool(plain) and (known(plain, "n") or any(known(lemma, "n") for lemma in getAllLemmas(plain).get("NOUN", ())))


def _modifies_a_later_noun(words: list[str], end: int, known: Known) -> bool:
    """Does the coordination at `end` join modifiers of a noun after it ("marine or freshwater
    fishes", "bodily or mental state"), so that the word before it is no head?"""
    return (end + 2 < len(words) and words[end] in ("or", "and") and _plain(words[end + 1]) != ""
            and not words[end + 1].endswith(",") and _is_noun(words[end + 2], known))


def _plain(word: str) -> str:
    """The word without a trailing comma if it is lower-case letters, else ""."""
    word = word.rstrip(",")
    return word if word.isalpha() and word.islower() else ""


def _agree_plural(rest: list[str]) -> list[str]:
    """A relative clause after a pluralised head takes a plural verb: "that is" -> "that are"."""
    if len(rest) < 2 or rest[0] not in RELATIVES:
        return rest
    verb = rest[1]
    plural = PLURAL_VERBS.get(verb)
    if plural is None and verb.endswith("s") and verb.isalpha():
        lemmas = getAllLemmas(verb).get("VERB", ())
        plural = next((lemma for lemma in lemmas if lemma != verb), None)
    return [rest[0], plural or verb, *_agree_coordinated(rest[2:])]


def _agree_coordinated(rest: list[str]) -> list[str]:
    """A second verb of the relative clause agrees too: "that have sleeves and covers the body" ->
    "and cover the body" (an -s form after "and"/"or" followed by a determiner reads as a verb)."""
    out = list(rest)
    for i in range(1, len(out) - 1):
        word = out[i]
        if out[i - 1] in ("and", "or") and word.endswith("s") and word.isalpha() and out[i + 1] in DETERMINERS:
            lemma = next((lemma for lemma in getAllLemmas(word).get("VERB", ()) if lemma != word), None)
            if lemma:
                out[i] = lemma
    return out


def _inflect_opening_verb(words: list[str], tag: str, known: Known) -> str | None:
    if not known(words[0], "v"):
        return None
    first = inflect(words[0], tag)
    if first is None:
        return None
    out = [first, *words[1:]]
    for i in range(2, len(words)):
        if words[i - 1] not in ("or", "and") or not known(words[i].rstrip(","), "v"):
            continue
        if i != 2:  # a verb coordinated further on may belong to the opening one: unsure, so no rewrite
            return None
        second = inflect(words[2].rstrip(","), tag)
        if second is None:
            return None
        out[2] = second + ("," if words[2].endswith(",") else "")
    return " ".join(out)


def inflect_phrase(phrase: str, pos: str, tag: str) -> str | None:
    """A synonym (words joined by spaces) inflected: a noun's last word (or the word before "of"), a verb's first."""
    words = phrase.split()
    if pos == "n" and tag == PLURAL:
        at = words.index("of") - 1 if "of" in words[1:] else len(words) - 1
    elif pos == "v" and tag in (PAST, PARTICIPLE, GERUND, THIRD_PERSON):
        at = 0
    elif pos == "a" and tag in (COMPARATIVE, SUPERLATIVE) and len(words) == 1:
        at = 0
    else:
        return None
    if not words[at].isalpha() or not words[at].islower():
        return None
    form = inflect(words[at], tag)
    if form is None or form == words[at]:
        return None
    return " ".join([*words[:at], form, *words[at + 1:]])


# -- synonyms, antonyms and examples ----------------------------------------------------------------

def phrase_of(form: str) -> str:
    """A WordNet word form as running text: "turn_tail" -> "turn tail"."""
    return form.replace("_", " ")


def synonym_clue(form: str, pos: str, tag: str | None) -> str | None:
    text = phrase_of(form)
    if tag is not None:
        inflected = inflect_phrase(text, pos, tag)
        if inflected is None:
            return None
        text = inflected
    return capitalise(text) if len(text) <= MAX_CLUE_CHARS else None


# Dictionaries' register labels and the part of speech each is a meaning in: WordNet
# lists some as synonyms in another (slang, the verb: to dupe), and there a one-word
# clue reads as a note on the answer; in its own ("Slang" for VERNACULAR,
# "Archaic" for ANTIQUATED) it is a meaning.
USAGE_LABELS = {**dict.fromkeys("slang jargon argot cant lingo idiom colloquialism dialect".split(), "n"),
                **dict.fromkeys("informal colloquial obsolete archaic dialectal vulgar idiomatic regional rare "
                                "poetic literary".split(), "a")}


def is_usage_label(text: str, pos: str | None = None) -> bool:
    """Is the clue one word that is a usage label ("Slang", "Archaic"), for a sense of part of
    speech `pos` other than the label's own (None: any)?"""
    own = USAGE_LABELS.get(text.strip(" .").lower())
    return own is not None and own != pos


def clue_head(clue: str) -> str:
    """The part of a clue a solver reads as its meaning: its text before a comma, case and closing
    marks aside ("Put on, as lotion" and "Put on" read alike, so one grid gives only one of them)."""
    return clue.split(",")[0].strip().rstrip("?!.").casefold()


def americanise(text: str, american: Mapping[str, str]) -> str:
    """`text` with each word `american` maps (British-only spelling, A–Z -> its American
    spelling) rewritten, keeping the word's capitalisation: "Realised" -> "Realized". A capitalised
    word after the first is a name's and stays as it is (Earl Grey, Lady Jane Grey)."""
    def rewrite(match: re.Match[str]) -> str:
        word = match.group(0)
        other = american.get(word.upper())
        if other is None or (word[:1].isupper() and match.start() > 0):
            return word
        return capitalise(other.lower()) if word[:1].isupper() else other.lower()
    return _WORD.sub(rewrite, text)


def antonym_clue(form: str) -> str | None:
    text = f"Opposite of {phrase_of(form)}"
    return text if len(text) <= MAX_CLUE_CHARS else None


# A fill-in-the-blank reads one way only in a short sentence ("For ___ the bell
# tolls"); a long one leaves room for other words ("the alien people from ___ the
# enemy emerges"), and a function word fits many blanks, so it gets shorter ones.
MAX_BLANK_WORDS, MAX_FUNCTION_BLANK_WORDS = 10, 7


def blank_clue(example: str, answer_text: str, max_words: int | None = MAX_BLANK_WORDS) -> str | None:
    """The example with the answer (exactly one whole-word occurrence) replaced by a blank;
    None if it has more than `max_words` words (None: any number)."""
    pattern = re.compile(rf"(?<![A-Za-z']){re.escape(answer_text)}(?![A-Za-z'])", re.IGNORECASE)
    if not _PLAIN_EXAMPLE.fullmatch(example) or len(pattern.findall(example)) != 1:
        return None
    text = pattern.sub("___", example).strip().rstrip(".;,").replace("--", " — ")
    text = _SPACES.sub(" ", text)
    words = len(text.split())
    if words < 3 or (max_words is not None and words > max_words) or len(text) > MAX_CLUE_CHARS \
            or not is_whole(text.replace("___", "x")):
        return None
    return capitalise(text)


# -- giving the answer away -------------------------------------------------------------------------

# Family: a clue word of MIN_PART letters inside the answer (or holding a
# part of it) is a part of it (ICECREAM: cream); stems keep MIN_STEM letters.
MIN_PART = 4
# An answer this short sits inside many words by chance (AT: "Located"); only the word itself gives it away.
CHANCE_INSIDE = 2
MIN_STEM = 4
# A clue word of CLIPPING letters the answer opens with is a clipping or a
# compound's part (VETERINARY: vet, CAPFUL: cap, SEAWAY: sea), unless it is a
# function word that opens answers by chance (FORAGE: for, THEREOF: the).
CLIPPING = 3
CLIPPED = "is a clipping or first part of the answer"
# A compound answer (GOALTENDER: goal + tender, both WordNet lemmas, the first of
# MIN_PART letters, the rest of CLIPPING or more) is given away by a clue word that
# is a compound with the same first part (Goalkeeper, Grandparent for GRANDFATHER);
# a word merely opening alike is chance (COMPRISE: composed, DISSENTER: dissident).
SHARES_PART = "opens with a word the answer is made from"
# ... and so is it by a clue word made from the word the answer is derived from (CROSSINGS: cross,
# so "Crosswalks"), and by the word an answer with a prefix is made of (REPAY: "Pay back"). The
# rest after a prefix is a word of CLIPPING letters or more, or one of the two-letter verbs that
# take these prefixes (REDO, UNDO, OUTDO, FORGO): a shorter rest is mostly chance (REIN: in).
# ... and by a clue word that is the compound's last word, however short (TEACUP: "Cup", WATCHDOG:
# "Guard dog"), unless a function word ends it by chance (SOMEONE: one).
ENDS_THE_COMPOUND = "is the word the answer ends with"
PREFIXES = ("RE", "UN", "PRE", "DIS", "MIS", "NON", "OUT", "OVER", "UNDER", "FOR", "DE")
TWO_LETTER_ROOTS = frozenset({"DO", "GO"})
WITHOUT_PREFIX = "is the answer without its prefix"
CHANCE_OPENERS = DANGLING | ENDS_NOTHING | frozenset("not yet per via all out off own how why can may has had you "
                                                     "our one two six ten".split())
# A clue word sharing its first letters with the answer over this share of
# the shorter word is of its family (GONDOLIER: gondola, CONFIDE: confer).
SHARED_PREFIX = 0.6
# ... or sharing MIN_STEM letters and missing at most STEM_SLACK letters of
# the shorter word (COLOURED: colored, ODOUR: odor after VARIANT_SPELLINGS).
STEM_SLACK = 3
# Words this long, opening alike and this few edits apart are one word spelled
# two ways (WILLFUL: wilful); shorter ones are often different words (CAT, CAR).
SPELLING_MIN, SPELLING_EDITS = 5, 2
# British -> American spelling patterns: a clue word equal to the answer
# once both are rewritten is its other spelling (SABRE: saber, ODOUR: odor).
VARIANT_SPELLINGS = ((r"([A-Z]{2,})OUR(S|ED|ING|ITE|ITES|ABLE|FUL|LESS|ER|ERS)?$", r"\1OR\2"), (r"IS(E|ED|ES|ING|ATION|ATIONS|ER|ERS)$", r"IZ\1"), (r"YS(E|ED|ES|ING)$", r"YZ\1"),
                     (r"([A-Z]{2,}[^AEIOU])RE(S)?$", r"\1ER\2"), (r"LL(ED|ING|ER|ERS)$", r"L\1"), (r"AE", "E"),
                     (r"OE", "E"), (r"^PLOUGH", "PLOW"), (r"^DRAUGHT", "DRAFT"), (r"OGUE(S)?$", r"OG\1"), (r"ENCE(S)?$", r"ENSE\1"), (r"MME(S)?$", r"M\1"))
DERIVATIONAL_SUFFIXES = tuple(sorted("ATIONS ATION ATORS ATOR IONS ION IVE IVES ITY ITIES NESS MENT MENTS ICAL ICS "
                                     "IC AL ALLY LY ERS ER ORS OR ISTS IST ISM OUS FUL LESS ABLE IBLE ED ING ES S E Y "
                                     "IES IZE ISE ANT ANCE ENCE ENT ARY".split(), key=len, reverse=True))


class Family:
    """The words a clue must not contain for one answer: its lemmas, their inflections and derivations."""

    def __init__(self, answer: str, related: Iterable[str], derived: Callable[[str], Iterable[str]],
                 is_word: Callable[[str], bool] = lambda _word: False) -> None:
        """`is_word(word)`: is the lower-case `word` a word of its own (finds compound answers)."""
        self.answer = answer
        self.is_word = is_word
        self.heads = compound_heads(answer, is_word) | stem_heads(answer, is_word)
        self.tails = compound_tails(answer, is_word)
        self.rests = prefixed_rests(answer, is_word)
        members = {answer}
        for word in [answer.lower(), *related]:
            for lemma in _lemmas(word):
                members.add(_key(lemma))
                members.update(_key(d) for d in derived(lemma))
        self.members = {m for m in members if m}
        self.forms = {_key(f) for m in self.members for f in _inflections(m.lower())} | self.members

    def gives_away(self, clue: str) -> bool:
        return self.giveaway(clue) is not None

    def named_in(self, clue: str) -> str | None:
        """The first word of `clue` that is a word of the answer's family (SEAT: "Took a seat"), or
        None: the test for another answer of a grid, where a word merely holding the answer or
        opening alike is chance ("The pleasure is all ___" beside SURE)."""
        return next((word for word, keys in _word_keys(clue) if keys & self.forms), None)

    def giveaway(self, clue: str) -> str | None:
        """How `clue` gives the answer away, or None: neighbouring clue words spell it ("a new":
        ANEW); a word holds it, is its other spelling or shares a long prefix with it
        (SHARED_PREFIX); a word is a clipping of it (CLIPPING); a word or one of its lemmas
        belongs to the family, is the answer without its prefix (PREFIXES), is a part of the answer
        or shares a derivational stem with it; a word opens with a word the answer is made from."""
        words = _WORD.findall(clue)
        if _spelled_across(self.answer, [_key(w) for w in words]):
            return "spells the answer across its words"
        for word, keys in _word_keys(clue):
            if _long_common_prefix(self.answer, _key(word)):
                return f"'{word}' is the answer, its other spelling or shares its stem"
            if is_clipping(self.answer, word):
                return f"'{word}' {CLIPPED}"
            if self.answer in _key(word) and (len(self.answer) > CHANCE_INSIDE or self.answer == _key(word)):
                return f"'{word}' holds the answer"
            if keys & self.forms:
                return f"'{word}' is a word of the answer's family"
            if keys & self.rests:
                return f"'{word}' {WITHOUT_PREFIX}"
            if keys & self.tails:
                return f"'{word}' {ENDS_THE_COMPOUND}"
            if any(len(k) >= MIN_PART and (k in self.answer or any(m in k for m in self.parts)) for k in keys):
                return f"'{word}' is a part of the answer"
            if {derivational_stem(k) for k in keys} & self.stems:
                return f"'{word}' shares the answer's stem"
        for word in words:
            key = _key(word)
            if any(key.startswith(head) and is_a_word(key[len(head):], self.is_word) for head in self.heads):
                return f"'{word}' {SHARES_PART}"
        return None

    @property
    def parts(self) -> set[str]:
        return {m for m in self.members if len(m) >= MIN_PART}

    @property
    def stems(self) -> set[str]:
        return {derivational_stem(m) for m in self.members}


def compound_heads(answer: str, is_word: Callable[[str], bool]) -> frozenset[str]:
    """The first parts of the answer read as a compound of two words, the second perhaps inflected
    (GOALTENDER: GOAL, HEARTACHES: HEART; see SHARES_PART)."""
    return frozenset(answer[:cut] for cut in range(MIN_PART, len(answer) - CLIPPING + 1)
                     if is_word(answer[:cut].lower()) and is_a_word(answer[cut:], is_word))


def compound_tails(answer: str, is_word: Callable[[str], bool]) -> frozenset[str]:
    """The last parts of the answer read as a compound of two words of CLIPPING letters or more,
    the first perhaps inflected (TEACUP: CUP, DOOMSDAY: DAY; see ENDS_THE_COMPOUND)."""
    return frozenset(answer[cut:] for cut in range(CLIPPING, len(answer) - CLIPPING + 1)
                     if is_word(answer[cut:].lower()) and answer[cut:].lower() not in CHANCE_OPENERS
                     and is_a_word(answer[:cut], is_word))


def is_a_word(key: str, is_word: Callable[[str], bool]) -> bool:
    """Is `key` (A–Z) a word of CLIPPING letters or more, or an inflection of one (fights: fight)?"""
    return len(key) >= CLIPPING and any(is_word(lemma) for lemma in _lemmas(key.lower()))


def stem_heads(answer: str, is_word: Callable[[str], bool]) -> frozenset[str]:
    """The words the answer is made from by derivational endings (CROSSINGS: CROSSING, CROSS),
    each ending taken off in turn as `derivational_stem` does."""
    return frozenset(stem for stem in _stems(answer) if is_word(stem.lower()))


def prefixed_rests(answer: str, is_word: Callable[[str], bool]) -> frozenset[str]:
    """The words the answer is made of after a prefix (REPAY: PAY, REDO: DO), see PREFIXES."""
    rests = (answer[len(prefix):] for prefix in PREFIXES if answer.startswith(prefix))
    return frozenset(rest for rest in rests
                     if rest in TWO_LETTER_ROOTS or (len(rest) >= CLIPPING and is_word(rest.lower())))


def is_clipping(answer: str, word: str) -> bool:
    """Is the clue word a short clipping or first part of the answer (see CLIPPING)?"""
    key = _key(word)
    return len(key) == CLIPPING < len(answer) and answer.startswith(key) and word.lower() not in CHANCE_OPENERS


def _spelled_across(answer: str, keys: list[str]) -> bool:
    """Does the answer run from the start of one clue word to the end of a later one?"""
    for first in range(len(keys)):
        joined = ""
        for key in keys[first:]:
            joined += key
            if joined == answer:
                return True
            if len(joined) >= len(answer):
                break
    return False


def _long_common_prefix(answer: str, key: str) -> bool:
    """Do the two share a long prefix, as written or both spelled the American way, or are they
    one spelling apart (DEFENSELESS: defenceless, ENROLLMENT: enrolment, SIZABLE: sizeable)?"""
    if american(answer) == american(key) or _spelled_otherwise(answer, key):
        return True
    for one, other in ((answer, key), (american(answer), american(key))):
        shared = len(os.path.commonprefix([one, other]))
        shorter = min(len(one), len(other))
        if shared >= MIN_STEM and (shared >= SHARED_PREFIX * shorter or shared >= shorter - STEM_SLACK):
            return True
    return False


def _spelled_otherwise(answer: str, key: str) -> bool:
    """Two words of SPELLING_MIN letters or more, opening alike and at most SPELLING_EDITS edits apart."""
    return (min(len(answer), len(key)) >= SPELLING_MIN and answer[:MIN_PART - 1] == key[:MIN_PART - 1]
            and abs(len(answer) - len(key)) <= SPELLING_EDITS and edit_distance(answer, key) <= SPELLING_EDITS)


def edit_distance(one: str, other: str) -> int:
    """Levenshtein distance: the fewest insertions, deletions and substitutions from one to the other."""
    row = list(range(len(other) + 1))
    for i, a in enumerate(one, start=1):
        diagonal, row[0] = row[0], i
        for j, b in enumerate(other, start=1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (a != b))
    return row[-1]


def american(word: str) -> str:
    """`word` (A–Z) with British spelling patterns rewritten the American way (VARIANT_SPELLINGS)."""
    for pattern, replacement in VARIANT_SPELLINGS:
        word = re.sub(pattern, replacement, word)
    return word


def derivational_stem(word: str) -> str:
    """`word` (A–Z) without its derivational endings, longest first, while MIN_STEM letters remain:
    ILLUSTRATOR and ILLUSTRATIONS both give ILLUSTR."""
    return ([word, *_stems(word)])[-1]


def _stems(word: str) -> Iterator[str]:
    """`word` (A–Z) with one more derivational ending taken off at each step, the longest that
    fits first, while MIN_STEM letters remain: CROSSINGS gives CROSSING, CROSS, CROS."""
    changed = True
    while changed:
        changed = False
        for suffix in DERIVATIONAL_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
                word, changed = word[:-len(suffix)], True
                yield word
                break


@lru_cache(maxsize=4096)
def _word_keys(clue: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each word of `clue` with the keys (A–Z) of itself and its lemmas: a grid's clues are read
    against every other answer, so each clue's words are looked up once."""
    return tuple((word, frozenset({_key(lemma) for lemma in _lemmas(word.lower())} | {_key(word)}))
                 for word in _WORD.findall(clue))


def _key(word: str) -> str:
    return re.sub("[^A-Z]", "", word.upper())


def _lemmas(word: str) -> set[str]:
    found = {word}
    for lemmas in getAllLemmas(word).values():
        found.update(lemmas)
    return found


def _inflections(word: str) -> set[str]:
    found = {word}
    for forms in getAllInflections(word).values():
        found.update(forms)
    return found
