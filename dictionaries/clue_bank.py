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
from collections import Counter
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain

from lemminflect import getAllInflections, getAllLemmas

from mobius.dictionaries.clue_text import (
    CLIPPED,
    SHARES_PART,
    WITHOUT_PREFIX,
    COMPARATIVE,
    MAX_BLANK_WORDS,
    MAX_FUNCTION_BLANK_WORDS,
    MAX_CLUE_CHARS,
    GERUND,
    PARTICIPLE,
    PAST,
    PLURAL,
    SUPERLATIVE,
    THIRD_PERSON,
    UPOS,
    Family,
    americanise,
    antonym_clue,
    blank_clue,
    capitalise,
    clean_definition,
    inflect_definition,
    is_usage_label,
    phrase_of,
    shortenings,
    synonym_clue,
)
from mobius.dictionaries.wordlist import normalise
from mobius.dictionaries.wordnet_db import ANTONYM, TOPIC_DOMAIN, USAGE_DOMAIN, Synset, WordNet

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
                    "move get go put".split())
# A synonym is a fair clue only if solvers know it: at least this score
# (Zipf 2.75, about once per two million words), and at most two a sense.
MIN_SYNONYM_SCORE = 35
SYNONYMS_PER_SENSE = 2
# Clues kept per word: enough to vary between puzzles, all of them good.
MAX_CLUES = 4
# Senses beyond the first few are rare meanings a solver would not know.
MAX_SENSES = 8
# A counted sense clues the word only if it was met at least a quarter as
# often as the commonest (SIT: "be seated", "pose"; not "sit (an exam)"),
# and at most this many senses clue one word.
DOMINANT_SHARE = 4
MAX_DOMINANT = 3
# A synonym clues a sense only if it means that at least half as often as its
# commonest meaning: a solver reads a one-word clue in its usual sense
# ("Logical" for LEGITIMATE, "Built up" for ARMED, "Suckers" for MUGS mislead).
SYNONYM_SHARE = 2
# A sense seen once in the corpus may be chance: beside the commonest it needs this many.
MIN_COUNT = 2
# An abbreviation is at least this much shorter than the word it stands for
# (GAL: gallon), and marked "(Abbr.)" when it has at most MARKED_ABBREVIATION letters.
ABBREVIATED, MARKED_ABBREVIATION = 3, 4
TIER_OWN, TIER_INFLECTION, TIER_RARE_INFLECTION, TIER_NAME, TIER_PHRASE = range(5)
# Senses no clue may use: WordNet's usage labels for derogatory and vulgar
# words; slang and colloquial senses under a drug or sex topic.
STREET_NAME = re.compile(r"\bstreet names?\b", re.IGNORECASE)
UNFIT_USAGES = frozenset({"disparagement", "obscenity", "vulgarism", "ethnic_slur"})
SLANG_USAGES = frozenset({"slang", "colloquialism"})
SENSITIVE_TOPICS = frozenset({"drug_of_abuse", "narcotic", "sexual_activity", "sexual_intercourse", "sex_act",
                              "genitalia", "sex_organ", "reproductive_organ", "prostitute", "sexual_desire",
                              "buttocks", "breast", "homosexual", "semen", "sexual_urge"})
# The rules the build counts (`ClueWriter.report`).
RULE_UNFIT = "sense unfit: offensive, or slang for drugs or sex"
RULE_RARE_SENSE = "sense met under a quarter as often as the word's commonest"
RULE_SYNONYM_SENSE = ("synonym meaning this under half as often as its commonest sense, or seen under twice and"
                      " not its only sense (mint: a lot), a name's (triton) or another word's inflection (needs)")
RULE_FAMILY = "clue holding the answer, its other spelling or a word of its family"
RULE_NOT_WHOLE = "definition with no whole form short enough"
RULE_FULL_NAME = "name clued with its full name (Tennis player Arthur ___)"
RULE_BROADER = "word clued only by a fill-in-the-blank or its broader term"
RULE_ABBREVIATION = "abbreviation marked (Abbr.)"
RULE_PLURAL_GLOSS = "plural definition of a singular answer (ski: runners used in pairs)"
RULE_CLIPPING = "clue holding a clipping or first part of the answer (Vet for VETERINARY, cap for CAPFUL)"
RULE_LONG_BLANK = "fill-in-the-blank from a sentence too long to read one way"
RULE_SKIPPED_SENSE = "sense a solver does not think of first, from the corrections table"
RULE_CORRECTED = "definition corrected from the corrections table (WordNet's typos)"
RULE_USAGE_LABEL = "one-word clue that is a usage label in another part of speech (Slang for DUPE)"
RULE_COMPOUND = ("clue word made from a word the answer is made from: a compound's first part, its root or the"
                 " word after its prefix (Goalkeeper for GOALTENDER, Crosswalks for CROSSINGS, Pay for REPAY)")
RULE_PLURAL_LEMMA = "singular definition of a plural answer WordNet lists as a lemma, made plural (EGGS)"
RULE_AMERICAN = "British spelling in clue text made American (Realised: Realized)"
# How WordNet opens the definition of an American ("United States tennis player").
AMERICAN = re.compile(r"^United States\b")
TITLES = frozenset("Lord Lady Sir Dame Saint St. Baron Baroness Count Countess Duke King Queen Prince Princess "
                   "General President Pope Emperor Czar Tsar".split())
# Lower-case parts of a name: Marquis de Sade, Vincent van Gogh.
PARTICLES = frozenset("de da di du del della la le van von der den ten".split())
# Levels of broader terms searched for a sensitive topic (MARIJUANA: cannabis,
# soft drug, drug of abuse).
ANCESTOR_DEPTH = 6


@dataclass(frozen=True)
class Corrections:
    """The project's corrections to WordNet (`data/clue-corrections.tsv`): text replaced in
    definitions (its typos), and senses no clue uses (lemma -> words of their definitions,
    lower case), each with its reason in the file."""

    fixes: tuple[tuple[str, str], ...] = ()
    skips: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Source:
    """Where an answer's clues come from: a WordNet lemma, and the inflection of it the answer is."""

    lemma: str  # as in the index: "ice_cream"
    tag: str | None  # None: the answer is the lemma itself
    form: str  # the answer as running text: "ice cream", "ran"
    # False: a rarer inflection of the lemma (CACTI beside cactuses, COLA beside colons),
    # whose reading a solver reaches for only if the word has no other
    usual: bool = True


def _inflects_another(lemma: str) -> bool:
    """Is the one-word `lemma` an inflected form of another word (needs: need)?"""
    return "_" not in lemma and any(base != lemma for bases in getAllLemmas(lemma).values() for base in bases)


class ClueWriter:
    def __init__(self, wordnet: WordNet, frequency: Mapping[str, int], familiar: Set[str],
                 corrections: Corrections = Corrections(), american: Mapping[str, str] | None = None) -> None:
        """`frequency`: normalised word -> score; `familiar`: the words a synonym clue may use (SCOWL's);
        `american`: British-only spellings (A–Z) -> American ones, for clue text (packs are American by default)."""
        self.wordnet = wordnet
        self.american = american or {}
        self.corrections = corrections
        self.frequency = frequency
        self.familiar = familiar
        # rule -> how many senses or clues it dropped or rewrote, for the build's report
        self.report: Counter[str] = Counter()

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
                    for place, form in enumerate(forms.get(tag, ())):
                        word = normalise(form)
                        if word and word != normalise(lemma):
                            index.setdefault(word, []).append(Source(lemma, tag, form, usual=place == 0))
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
        # A form that is a verb's past tense and its participle is clued as the past tense: "Was
        # seated" stands in for SAT, "Been seated" only after "has".
        past = {source.lemma for source in inflected if source.tag == PAST}
        return own + [source for source in inflected if not (source.tag == PARTICIPLE and source.lemma in past)]

    # -- clues ---------------------------------------------------------------------------------------

    def clues(self, word: str) -> list[str]:
        """The word's clues, best first (see the module docstring); [] if it has none.

        Clues come only from the senses a solver thinks of first
        (`senses`); a broader term ("Herb" for OKRA) is flat, so it clues
        only a word nothing else clues. A word with no WordNet sense of its
        own (THE, ABOUT as a preposition) gets fill-in-the-blank clues from
        any WordNet example using it.
        """
        sources = self.sources(word)
        family = Family(word, [s.lemma for s in sources] + [part for s in sources for part in s.form.split()],
                        lambda lemma: self._derived.get(lemma, ()), lambda w: w in self.wordnet.senses)
        dominant, counted = self.senses(word)
        # The commonest sense first; uncounted senses are in no order of familiarity,
        # so of those only the first that clues is used.
        ranked = self._ranked(dominant, family) if counted else []
        for sense in [] if counted else dominant:
            if ranked:
                break
            ranked = self._ranked([sense], family)
        if not ranked:
            # A fill-in-the-blank may read two ways ("He signed the ___"), a broader
            # term is flat ("Footwear" for SHOE), but either beats a rare sense.
            blanks = (self._blank(e, source.form) for source, synset in dominant[:1] for e in synset.examples)
            kinds = (k for source, synset in dominant[:1] for k in self._kinds(synset, source))
            ranked = [(0, 0, k) for k in (self._fair([k], family) for k in [*blanks, *kinds] if k) if k]
            self.report[RULE_BROADER] += bool(ranked)
        for sense in [s for s in self.senses(word, every=True)[0] if s not in dominant]:
            if ranked:
                break
            ranked = self._ranked([sense], family)
        if not ranked and not sources:
            texts = (self._blank(e, word.lower(), MAX_FUNCTION_BLANK_WORDS) for e in self._examples.get(word, ()))
            ranked = [(0, 0, t) for t in (self._fair([t], family) for t in texts if t) if t][:MAX_CLUES]
        chosen: dict[str, str] = {}
        for *_, text in sorted(ranked):
            chosen.setdefault(text.lower(), text)
        return list(chosen.values())[:MAX_CLUES]

    def _americanised(self, text: str) -> str:
        american = americanise(text, self.american)
        self.report[RULE_AMERICAN] += american != text
        return american

    def _ranked(self, senses: list[tuple[Source, Synset]], family: Family) -> list[tuple[int, int, str]]:
        """The senses' fair clues as (place + rank, rank, text): each sense's best clue before
        any sense's second best."""
        ranked = []
        for rank, (source, synset) in enumerate(senses):
            texts = [self._fair(slot, family) for slot in self._sense_clues(synset, source, family)]
            ranked.extend((place + rank, rank, text) for place, text in enumerate(dict.fromkeys(t for t in texts if t)))
        return ranked

    def _fair(self, slot: list[str], family: Family) -> str | None:
        """The first alternative of a clue slot that does not give the answer away, in American
        spelling (judged so: "Cosy" is no clue for COZY once it reads "Cozy")."""
        for text in map(self._americanised, slot):
            why = family.giveaway(text)
            if why is None:
                return text
            self.report[RULE_CLIPPING if why.endswith(CLIPPED) else
                        RULE_COMPOUND if why.endswith((SHARES_PART, WITHOUT_PREFIX)) else RULE_FAMILY] += 1
        return None

    def _blank(self, example: str, answer_text: str, max_words: int = MAX_BLANK_WORDS) -> str | None:
        """`blank_clue`, counting the blanks refused for a sentence over `max_words` words."""
        text = blank_clue(example, answer_text, max_words)
        self.report[RULE_LONG_BLANK] += text is None and blank_clue(example, answer_text, None) is not None
        return text

    def senses(self, word: str, *, every: bool = False) -> tuple[list[tuple[Source, Synset]], bool]:
        """The senses a solver thinks of first, commonest first, and whether WordNet counted them:
        the counted senses met at least 1/DOMINANT_SHARE as often as the commonest, else (WordNet
        counted none) every sense in index order, a common word's own before a name's (LEE: the
        sheltered side, not Spike Lee). `every`: all the fit senses, in that order."""
        found = []
        for number, source in enumerate(self.sources(word)):
            synsets = [s for s in self.wordnet.lemma_synsets(source.lemma)
                       if source.tag is None or s.pos == TAG_POS[source.tag]]
            for place, synset in enumerate(synsets[:MAX_SENSES]):
                if self.unfit_sense(synset):
                    self.report[RULE_UNFIT] += 1
                elif self._skipped(source, synset):
                    self.report[RULE_SKIPPED_SENSE] += 1
                elif source.tag is None or self._tier(synset, source) < TIER_NAME:  # no plural of a name
                    count = self.wordnet.sense_count(source.lemma, synset.key) if source.usual else 0
                    tier = self._tier(synset, source)
                    # A phrase's senses come last whatever their count (RUNAWAY: not "run away");
                    # uncounted names go better-connected first (CAIRO in Egypt, not Illinois), a
                    # common word's in index order (a part's many links make no sense common: VENT).
                    # A sense in a field's jargon (WordNet's topic domains) is no solver's
                    # first thought when WordNet counted none.
                    links = -len(synset.pointers) if tier == TIER_NAME else int(self._has_topic(synset))
                    found.append((tier == TIER_PHRASE, -count, tier, links, number, place, source, synset))
        if not found:
            return [], False
        found.sort(key=lambda f: f[:6])
        top = -found[0][1]
        if every:
            return [(source, synset) for *_, source, synset in found], top > 0
        if top == 0:
            return [(source, synset) for _, _, tier, *_, source, synset in found if tier == found[0][2]], False
        dominant = [(source, synset) for phrase, count, *_, source, synset in found
                    if -count * DOMINANT_SHARE >= top and (-count >= MIN_COUNT or -count == top)
                    and phrase == found[0][0]][:MAX_DOMINANT]
        self.report[RULE_RARE_SENSE] += len(found) - len(dominant)
        return dominant, True

    def _skipped(self, source: Source, synset: Synset) -> bool:
        """Does the corrections table take this sense away from the source's lemma (oath: not the
        curse) or from the inflected answer alone (airs: not the mixture of gases)?"""
        skips = self.corrections.skips
        return any(part in synset.definition.lower()
                   for part in (*skips.get(source.lemma, ()), *(skips.get(source.form, ()) if source.tag else ())))

    def _corrected(self, definition: str) -> str:
        """The definition with the corrections table's fixes applied (WordNet's typos)."""
        for wrong, right in self.corrections.fixes:
            if wrong in definition:
                definition = definition.replace(wrong, right)
                self.report[RULE_CORRECTED] += 1
        return definition

    def _points_here(self, lemma: str, synset: Synset) -> bool:
        """Does `lemma`, read on its own, bring this sense to mind: is it met at least MIN_COUNT
        times and 1/SYNONYM_SHARE as often as the lemma's commonest sense (FLOCK's "a lot", met
        once beside the birds' twice, is not), or, with too few counts to go by, is this its
        sole sense? KILLER is no clue for ORCA."""
        counts = [self.wordnet.sense_count(lemma, key) for keys in self.wordnet.senses.get(lemma, {}).values()
                  for key in keys]
        top = max(counts, default=0)
        count = self.wordnet.sense_count(lemma, synset.key)
        if top >= MIN_COUNT and count >= MIN_COUNT and count * SYNONYM_SHARE >= top \
                or top < MIN_COUNT and self._sole_sense(lemma, synset):
            return True
        self.report[RULE_SYNONYM_SENSE] += 1
        return False

    def _sole_sense(self, lemma: str, synset: Synset) -> bool:
        """With too few counts to go by (none, or one sighting: MINT's "a lot"), a synonym points here
        only when this is its one sense in its part of speech (ZOOLOGY is the science first, though
        WordNet lists the fauna first), it names nothing capitalised (TRITON the god and the moon,
        not the newt), and it is no other word's inflection ("needs" for INEVITABLY, an adverb only
        in "needs must"). A definition still clues the sense; a misread synonym would mislead."""
        senses = self.wordnet.senses.get(lemma, {})
        named = any(form.lower() == lemma and form[:1].isupper()
                    for key in chain.from_iterable(senses.values()) for form in self.wordnet.synsets[key].forms)
        return senses.get(synset.pos, ()) == (synset.key,) and not named and not _inflects_another(lemma)

    def _has_topic(self, synset: Synset) -> bool:
        return any(p.symbol == TOPIC_DOMAIN for p in synset.pointers)

    def _is_person(self, synset: Synset) -> bool:
        return any("person" in a.forms for a in self.wordnet.ancestors(synset, ANCESTOR_DEPTH + 4))

    def _tier(self, synset: Synset, source: Source) -> int:
        """Which senses a solver reaches for first: the word's own (COLA the drink, not
        colons), then an inflection's (SAT: sit), a name's or an abbreviation's (LEE, Sat.),
        and last a phrase's (EATON: eat on)."""
        if self.is_abbreviation(synset, source) or synset.is_instance or any(
                f.lower() == source.lemma and f[:1].isupper() for f in synset.forms):
            return TIER_NAME
        if "_" in source.lemma:
            return TIER_PHRASE
        return TIER_OWN if source.tag is None else TIER_INFLECTION if source.usual else TIER_RARE_INFLECTION

    def is_abbreviation(self, synset: Synset, source: Source) -> bool:
        """Is the answer a short form of another word of the sense (GAL: gallon, FEB: February)?"""
        return source.tag is None and any(len(f) >= len(source.lemma) + ABBREVIATED
                                          and f.lower().startswith(source.lemma) and f.isalpha() for f in synset.forms)

    def _is_marked_abbreviation(self, synset: Synset, source: Source) -> bool:
        """An abbreviation crossword style marks: a short capitalised form (Feb., Sat.), not a
        clipping that is a word of its own (DORM, PROF)."""
        return (len(source.lemma) <= MARKED_ABBREVIATION and self.is_abbreviation(synset, source)
                and any(f.lower() == source.lemma and f[:1].isupper() for f in synset.forms))

    def unfit_sense(self, synset: Synset) -> bool:
        """A sense no clue may use: offensive, derogatory or vulgar, or slang for drugs or sex
        (`street name` definitions, WordNet's slang and colloquial usage labels)."""
        if synset.is_offensive or STREET_NAME.search(synset.definition):
            return True
        usages = {p.target for p in synset.pointers if p.symbol == USAGE_DOMAIN}
        if usages & self._usage_keys(UNFIT_USAGES):
            return True
        if usages & self._usage_keys(SLANG_USAGES):
            topics = self._usage_keys(SENSITIVE_TOPICS)
            return any(a.key in topics for a in self.wordnet.ancestors(synset, ANCESTOR_DEPTH))
        return False

    def _usage_keys(self, names: frozenset[str]) -> frozenset[str]:
        return self._named_synsets.get(names, frozenset())

    @cached_property
    def _named_synsets(self) -> dict[frozenset[str], frozenset[str]]:
        """Each group of WordNet form names (SLANG_USAGES, …) -> the noun synsets holding one."""
        groups = (UNFIT_USAGES, SLANG_USAGES, SENSITIVE_TOPICS)
        return {names: frozenset(s.key for s in self.wordnet.synsets.values() if s.pos == "n"
                                 and names & {f.lower() for f in s.forms}) for names in groups}

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
        if source.tag is None:
            yield from ([clue] for clue in self._opposites(synset, source))

    def _definitions(self, synset: Synset, source: Source, family: Family) -> Iterator[list[str]]:
        # Only the first part: later parts of a gloss often lean on it
        # ("the leaves of the shrub …; has the effect of a … stimulant").
        text = clean_definition(self._corrected(synset.definition).split(";", 1)[0])
        if text and family.gives_away(text):
            # A gloss that names its own answer ("the fatty flesh of eel") is
            # about it, not a definition of it: a shortening that hides the
            # answer ("The fatty flesh") would mislead, so the sense clues otherwise.
            return
        if text and source.tag is not None:
            text = inflect_definition(text, synset.pos, source.tag, self.known) or ""
        elif text and synset.pos == "n" and self._is_plural_variant(source.lemma, synset):
            # WordNet lists EGGS beside egg in one synset, with egg's singular gloss: the answer takes a plural one.
            plural = inflect_definition(text, "n", PLURAL, self.known) or ""
            self.report[RULE_PLURAL_LEMMA] += plural != text
            text = plural
        elif text and synset.pos == "n" and inflect_definition(text, "n", PLURAL, self.known) == text:
            # WordNet defined the sense in the plural ("narrow … runners used in pairs" for ski):
            # a singular answer takes no plural clue.
            self.report[RULE_PLURAL_GLOSS] += 1
            return
        if not text:
            return
        shorts = shortenings(text, self.known)
        given = self._given_names(synset, source)
        if not shorts:
            self.report[RULE_NOT_WHOLE] += 1
        if self._is_marked_abbreviation(synset, source):
            self.report[RULE_ABBREVIATION] += 1
            shorts = [f"{short} (Abbr.)" for short in shorts if len(short) + len(" (Abbr.)") <= MAX_CLUE_CHARS]
        if given:
            self.report[RULE_FULL_NAME] += 1
            # A name is clued as crossword style has it, "Tennis player Arthur ___";
            # the bare definition ("United States tennis player") is too flat to add.
            named = (f"{capitalise(AMERICAN.sub('American', short))} {given} ___" for short in reversed(shorts))
            yield [text for text in named if len(text) <= MAX_CLUE_CHARS] or [capitalise(s) for s in shorts]
        else:
            yield [capitalise(short) for short in shorts]

    def _is_plural_variant(self, lemma: str, synset: Synset) -> bool:
        """Is `lemma` the plural of another form of the same synset (eggs beside egg)?"""
        forms = {f.lower() for f in synset.forms}
        return any(base != lemma and base in forms for base in getAllLemmas(lemma).get("NOUN", ()))

    def _given_names(self, synset: Synset, source: Source) -> str | None:
        """What precedes the answer in the shortest full name WordNet knows (Arthur Ashe: "Arthur")."""
        if source.tag is not None or not synset.is_instance or not self._is_person(synset):
            return None
        names = [f.split("_") for f in synset.forms if f.lower().endswith("_" + source.lemma)]
        names = [n for n in names if all(p[:1].isupper() or p in PARTICLES for p in n) and n[0][:1].isupper()
                 and n[-1].lower() == source.lemma and not set(n[:-1]) <= TITLES]
        # Lord Todd, Saint Bede: the given name, not the title, is what a solver knows;
        # the first given name is enough (Alexander Robertus Todd: "Alexander ___").
        best = min(names, key=lambda n: (n[0] in TITLES, len(n)), default=None)
        if best is None:
            return None
        given = best[1:-1] if best[0] in TITLES else best[:-1]
        return " ".join([given[0], *(p for p in given[1:] if p in PARTICLES)])

    def _is_familiar(self, phrase: str) -> bool:
        return all(normalise(w) in self.familiar for w in phrase.split())

    def _synonyms(self, synset: Synset, source: Source) -> Iterator[str]:
        # A capitalised form that is also a common word reads as the common word (HADES: Aides).
        others = [f for f in synset.forms if f.lower() != source.lemma and len(f) > 2 and not f.isupper()
                  and self._is_familiar(phrase_of(f)) and self._points_here(f.lower(), synset)
                  and not (f[:1].isupper() and normalise(f) in self.familiar)
                  and self.frequency.get(normalise(phrase_of(f)) or "", 0) >= MIN_SYNONYM_SCORE]
        found = 0
        for form in sorted(others, key=lambda f: -self.frequency[normalise(phrase_of(f))]):
            clue = self._unlabelled(synonym_clue(form, synset.pos, source.tag), synset.pos)
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
            clue = self._unlabelled(synonym_clue(form, broader.pos, source.tag), broader.pos)
            if clue and self._is_familiar(clue.lower()):
                yield clue
                return

    def _unlabelled(self, clue: str | None, pos: str) -> str | None:
        """The one-word clue unless it is a usage label outside its own part of speech ("Slang" for
        DUPE: WordNet lists slang as a verb for dupe; "Slang" for VERNACULAR stays)."""
        if clue and is_usage_label(clue, pos):
            self.report[RULE_USAGE_LABEL] += 1
            return None
        return clue

    def _opposites(self, synset: Synset, source: Source) -> Iterator[str]:
        """"Opposite of …" from the commonest of the sense's antonyms (EARLY: late, not middle)."""
        forms = [self.wordnet.synsets[p.target].forms[p.target_word - 1] for p in synset.pointers
                 if p.symbol == ANTONYM and p.source_word
                 and synset.forms[p.source_word - 1].lower() == source.lemma]
        best = max(forms, key=lambda f: self.frequency.get(normalise(phrase_of(f)) or "", 0), default=None)
        clue = antonym_clue(best) if best else None
        if clue:
            yield clue
