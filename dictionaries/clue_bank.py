"""The clues of each lexicon word, gathered from WordNet for the build.

Covers: `ClueWriter`, which indexes WordNet by normalised answer (its own
lemmas, and the lemmas it is an inflected form of: CATS <- cat, RAN <- run),
answers the build's questions about a word (a WordNet lemma? written only in
capitals? only capitalised? its first senses?) and writes a word's clues:
for each of its senses, commonest first, a definition, up to two familiar
synonyms, a fill-in-the-blank from an example and an antonym, each rewritten
for an inflected answer, dropped if it gives the answer away, ranked so the
best clue of each of the first senses comes before the second-best ones.

Leaves out: the wording rules (`clue_text.py`), the sources and files
(`build_en.py`, `wordnet_db.py`), and everything at runtime.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from functools import cached_property

from lemminflect import getAllInflections

from dictionaries.clue_text import (
    COMPARATIVE,
    GERUND,
    PARTICIPLE,
    PAST,
    PLURAL,
    SUPERLATIVE,
    THIRD_PERSON,
    UPOS,
    Family,
    antonym_clue,
    blank_clue,
    capitalise,
    clean_definition,
    inflect_definition,
    phrase_of,
    shortenings,
    synonym_clue,
)
from dictionaries.wordlist import normalise
from dictionaries.wordnet_db import ANTONYM, Synset, WordNet

# The inflections an answer may be, per part of speech of its lemma.
INFLECTIONS = {"n": (PLURAL,), "v": (PAST, PARTICIPLE, GERUND, THIRD_PERSON), "a": (COMPARATIVE, SUPERLATIVE)}
TAG_POS = {tag: pos for pos, tags in INFLECTIONS.items() for tag in tags}
DERIVATION = "+"
# Broader terms clue a word ("Court game"); an instance's broader term
# ("City" for TIMBUKTU) is too vague, so instances keep their definitions.
HYPERNYMS = ("@",)
MODALS = frozenset({"COULD", "WOULD", "SHOULD", "MIGHT", "SHALL", "WILL", "CAN", "MAY", "MUST", "OUGHT"})
# Broader terms too vague to clue anything with.
GENERIC = frozenset("entity physical_entity abstraction abstract_entity object whole thing matter act event group "
                    "person individual someone organism being unit part attribute state relation measure "
                    "psychological_feature cognition communication artifact change be have make do cause "
                    "move get go".split())
# A synonym is a fair clue only if solvers know it: at least this score
# (Zipf 2.75, about once per two million words), and at most two a sense.
MIN_SYNONYM_SCORE = 35
SYNONYMS_PER_SENSE = 2
# Clues kept per word: enough to vary between puzzles, all of them good.
MAX_CLUES = 4
# Senses beyond the first few are rare meanings a solver would not know.
MAX_SENSES = 8


@dataclass(frozen=True)
class Source:
    """Where an answer's clues come from: a WordNet lemma, and the inflection of it the answer is."""

    lemma: str  # as in the index: "ice_cream"
    tag: str | None  # None: the answer is the lemma itself
    form: str  # the answer as running text: "ice cream", "ran"


class ClueWriter:
    def __init__(self, wordnet: WordNet, frequency: Mapping[str, int], familiar: Set[str]) -> None:
        """`frequency`: normalised word -> score; `familiar`: the words a synonym clue may use (SCOWL's)."""
        self.wordnet = wordnet
        self.frequency = frequency
        self.familiar = familiar

    # -- indexes -------------------------------------------------------------------------------------

    @cached_property
    def _lemmas(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for lemma in sorted(self.wordnet.senses):
            word = normalise(phrase_of(lemma))
            if word:
                index.setdefault(word, []).append(lemma)
        return index

    @cached_property
    def _forms(self) -> dict[str, list[str]]:
        """Normalised answer -> every way WordNet's synsets write it ("Paris", "CPA", "cat")."""
        forms: dict[str, list[str]] = {}
        for synset in self.wordnet.synsets.values():
            for form in synset.forms:
                word = normalise(phrase_of(form))
                if word:
                    forms.setdefault(word, []).append(form)
        return forms

    @cached_property
    def _inflected(self) -> dict[str, list[Source]]:
        """Normalised inflected form -> the lemmas (and tags) it comes from."""
        index: dict[str, list[Source]] = {}
        for lemma in sorted(self.wordnet.senses):
            if not lemma.isalpha():
                continue
            for pos in self.wordnet.senses[lemma]:
                forms = getAllInflections(lemma, upos=UPOS[pos])
                for tag in INFLECTIONS.get(pos, ()):
                    for form in forms.get(tag, ()):
                        word = normalise(form)
                        if word and word != normalise(lemma):
                            index.setdefault(word, []).append(Source(lemma, tag, form))
        return index

    @cached_property
    def _derived(self) -> dict[str, set[str]]:
        """Lemma -> the word forms WordNet derives from it or it from them (HOUSE: housing)."""
        derived: dict[str, set[str]] = {}
        for synset in self.wordnet.synsets.values():
            for pointer in synset.pointers:
                if pointer.symbol != DERIVATION or not pointer.source_word:
                    continue
                target = self.wordnet.synsets[pointer.target]
                source = synset.forms[pointer.source_word - 1].lower()
                derived.setdefault(source, set()).add(target.forms[pointer.target_word - 1].lower())
        return derived

    # -- questions about a word ----------------------------------------------------------------------

    def known(self, word: str, pos: str) -> bool:
        """Is `word` (lower case) a WordNet lemma of part of speech `pos`?"""
        return pos in self.wordnet.senses.get(word, {})

    def is_lemma(self, word: str) -> bool:
        return word in self._lemmas

    def is_acronym(self, word: str) -> bool:
        """Written all in capitals wherever WordNet has it (CPA, HMS)."""
        forms = self._forms.get(word, [])
        return bool(forms) and all(phrase_of(f).replace(" ", "").isupper() for f in forms)

    def has_common_form(self, word: str) -> bool:
        """Does WordNet write it in lower case somewhere (not only as a name)?"""
        return any(f[:1].islower() for f in self._forms.get(word, []))

    def first_senses(self, word: str, count: int) -> Iterator[Synset]:
        for lemma in self._lemmas.get(word, []):
            for position, synset in enumerate(self.wordnet.lemma_synsets(lemma)):
                if position >= count:
                    break
                yield synset

    def sources(self, word: str) -> list[Source]:
        own = [Source(lemma, None, phrase_of(lemma)) for lemma in self._lemmas.get(word, [])]
        # COULD is no past tense of "can" (preserve in tins): modals are no inflections.
        inflected = [] if word in MODALS else self._inflected.get(word, [])
        return own + inflected

    # -- clues ---------------------------------------------------------------------------------------

    def clues(self, word: str) -> list[str]:
        """The word's clues, best first (see the module docstring); [] if it has none.

        A word with no WordNet sense of its own (THE, ABOUT as a preposition)
        gets fill-in-the-blank clues from any WordNet example using it.
        """
        sources = self.sources(word)
        family = Family(word, [s.lemma for s in sources] + [part for s in sources for part in s.form.split()],
                        lambda lemma: self._derived.get(lemma, ()))
        ranked: list[tuple[int, int, int, str]] = []
        for source_number, source in enumerate(sources):
            synsets = [s for s in self.wordnet.lemma_synsets(source.lemma)
                       if source.tag is None or s.pos == TAG_POS[source.tag]]
            for sense, synset in enumerate(synsets[:MAX_SENSES]):
                if synset.is_offensive:
                    continue  # never clue with an offensive sense
                texts = [next((t for t in slot if not family.gives_away(t)), None)
                         for slot in self._sense_clues(synset, source, family)]
                for place, text in enumerate(dict.fromkeys(t for t in texts if t)):
                    ranked.append((place + sense, sense, source_number, text))
        if not ranked:
            texts = (blank_clue(e, word.lower()) for e in self._examples.get(word, ()))
            ranked = [(0, 0, 0, t) for t in texts if t and not family.gives_away(t)][:MAX_CLUES]
        chosen: dict[str, str] = {}
        for *_, text in sorted(ranked):
            chosen.setdefault(text.lower(), text)
        return list(chosen.values())[:MAX_CLUES]

    @cached_property
    def _examples(self) -> dict[str, list[str]]:
        """Normalised word -> the WordNet examples using it, shortest first."""
        index: dict[str, set[str]] = {}
        for synset in self.wordnet.synsets.values():
            for example in synset.examples:
                for token in set(re.findall(r"[A-Za-z]+", example.lower())):
                    index.setdefault(token.upper(), set()).add(example)
        return {word: sorted(examples, key=lambda e: (len(e), e)) for word, examples in index.items()}

    def _sense_clues(self, synset: Synset, source: Source, family: Family) -> Iterator[list[str]]:
        """The sense's clue slots, in order; each lists alternatives, the caller takes the first fair one."""
        yield from self._definitions(synset, source, family)
        yield from ([clue] for clue in self._synonyms(synset, source))
        yield from ([clue] for clue in self._kinds(synset, source))
        blanks = (blank_clue(example, source.form) for example in synset.examples)
        yield [b for b in blanks if b]
        if source.tag is None:
            yield from ([clue] for clue in self._opposites(synset, source))

    def _definitions(self, synset: Synset, source: Source, family: Family) -> Iterator[list[str]]:
        # Only the first part: later parts of a gloss often lean on it
        # ("the leaves of the shrub …; has the effect of a … stimulant").
        text = clean_definition(synset.definition.split(";", 1)[0])
        if text and family.gives_away(text):
            # A gloss that names its own answer ("the fatty flesh of eel") is
            # about it, not a definition of it: a shortening that hides the
            # answer ("The fatty flesh") would mislead, so the sense clues otherwise.
            return
        if text and source.tag is not None:
            text = inflect_definition(text, synset.pos, source.tag, self.known) or ""
        if text:
            yield [capitalise(short) for short in shortenings(text, self.known)]

    def _is_familiar(self, phrase: str) -> bool:
        return all(normalise(w) in self.familiar for w in phrase.split())

    def _synonyms(self, synset: Synset, source: Source) -> Iterator[str]:
        others = [f for f in synset.forms if f.lower() != source.lemma and len(f) > 2 and not f.isupper()
                  and self._is_familiar(phrase_of(f))
                  and self.frequency.get(normalise(phrase_of(f)) or "", 0) >= MIN_SYNONYM_SCORE]
        found = 0
        for form in sorted(others, key=lambda f: -self.frequency[normalise(phrase_of(f))]):
            clue = synonym_clue(form, synset.pos, source.tag)
            if clue and self._is_familiar(clue.lower()):
                yield clue
                found += 1
                if found == SYNONYMS_PER_SENSE:
                    return

    def _kinds(self, synset: Synset, source: Source) -> Iterator[str]:
        """The sense's broader term, a classic clue: VOLLEYBALL "Court game", POTASSIUM "Metallic element"."""
        for pointer in synset.pointers:
            if pointer.symbol not in HYPERNYMS:
                continue
            broader = self.wordnet.synsets[pointer.target]
            form = broader.forms[0]
            if form.lower() in GENERIC or not self._is_familiar(phrase_of(form)):
                continue
            clue = synonym_clue(form, broader.pos, source.tag)
            if clue and self._is_familiar(clue.lower()):
                yield clue
                return

    def _opposites(self, synset: Synset, source: Source) -> Iterator[str]:
        for pointer in synset.pointers:
            if pointer.symbol != ANTONYM or not pointer.source_word:
                continue
            if synset.forms[pointer.source_word - 1].lower() != source.lemma:
                continue
            target = self.wordnet.synsets[pointer.target]
            clue = antonym_clue(target.forms[pointer.target_word - 1])
            if clue:
                yield clue
