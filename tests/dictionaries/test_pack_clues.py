"""What a default pack can put before a solver, judged with Debian's data only.

The words a default `mobius pack crossword` may use (the embedded `en` at
the pack's default --min-score, American spelling, the words the clue bank
clues) and every clue the bank holds for them: no clue is cut off, none holds
its answer, a spelling variant of it (SCOWL's variant lists) or a word of its
family, none uses a blocked term or a spelling SCOWL lists as British only,
and the answers are words a general reader knows (SCOWL's lists of size 50
or less). Judging every word a pack can use
covers every default pack, and runs in seconds where building one takes a
minute. Only Debian's `scowl` is read, with rules written here apart from
the build's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mobius.dictionaries import load
from mobius.generators.crossword.clues import clue_problems, load_bank

SCOWL = Path("/usr/share/dict/scowl")
BLOCKLISTS = Path(__file__).parents[2] / "dictionaries" / "data" / "blocklist"
PROJECT_CLUES = Path(__file__).parents[2] / "dictionaries" / "data" / "clues-project.tsv"
PACK_MIN_SCORE = 30
# SCOWL's medium dictionary: common words and proper names a general reader knows.
FAMILIAR_SIZES = (10, 20, 35, 40, 50)
# A phrase never ends on these: a clue ending on one was cut off mid-phrase.
CUT_ENDINGS = frozenset("a an the and or nor but that which who whom whose its their his her my your our".split())
# A WordNet definition cut just before one of these was cut inside a phrase
# ("warn or arouse to a sense | of danger", "the Yellow Sea and the Sea | of Japan").
INSIDE_A_PHRASE = frozenset("of in on at for from with by to into the a an than".split())
WORDNET = Path("/usr/share/wordnet")
MAX_OUTSIDE_SHARE = 0.02

needs_scowl = pytest.mark.skipif(not (SCOWL / "english-words.10").is_file(),
                                 reason="Debian's scowl is not installed (apt-get install scowl)")


def squash(entry: str) -> str:
    return re.sub(r"[^A-Z]", "", entry.upper())


def scowl_list(kinds: tuple[str, ...], spellings: tuple[str, ...], sizes: tuple[int, ...]) -> set[str]:
    words: set[str] = set()
    for spelling in spellings:
        for kind in kinds:
            for size in sizes:
                path = SCOWL / f"{spelling}-{kind}.{size}"
                if path.is_file():
                    words.update(squash(w) for w in path.read_text(encoding="latin-1").split() if "'" not in w)
    return words


@pytest.fixture(scope="module")
def pack_clues() -> dict[str, tuple[str, ...]]:
    bank = load_bank()
    words = load("en", min_score=PACK_MIN_SCORE).words
    return {w: bank.clues_of(w) for w in words if bank.clues_of(w)}


def hand_written() -> set[str]:
    """The project's hand-written clues: an editor's whole phrases, whatever a rule of thumb says."""
    return {line.split("\t", 1)[1].strip() for line in PROJECT_CLUES.read_text(encoding="utf-8").splitlines()
            if "\t" in line and not line.startswith("#")}


def test_no_clue_is_cut_off(pack_clues: dict[str, tuple[str, ...]]) -> None:
    # The project's hand-written clues for function words may end on one ("Provided that" for IF).
    written = hand_written()
    cut = [(w, c) for w, clues in pack_clues.items() for c in clues if "___" not in c and c not in written
           and c.split()[-1].lower().strip(".,;:!?") in CUT_ENDINGS and len(c.split()) > 1]
    assert cut[:20] == [], f"{len(cut)} clues cut off"


@pytest.mark.skipif(not (WORDNET / "data.noun").is_file(), reason="Debian's wordnet-base is not installed")
def test_no_clue_is_a_wordnet_definition_cut_inside_a_phrase(pack_clues: dict[str, tuple[str, ...]]) -> None:
    definitions = _wordnet_definitions()
    assert len(definitions) > 100_000  # the database really was read
    lines = _index_lines()
    nouns = {lemma for lemma, pos, _ in lines if pos == "noun" and not lemma.endswith("ing")}
    terms = {squash(lemma) for lemma, _, _ in lines}
    written = hand_written()  # an editor's "Expression of regret" (APOLOGY) is whole, not a cut gloss
    bad = []
    for answer, clues in pack_clues.items():
        for clue in clues:
            text = clue.lower()
            own = definitions.get(answer, set())
            if len(text.split()) < 3 or text in own or squash(text) in terms or clue in written:
                continue  # a synonym ("Renounce"), a whole definition or a term ("Commissioned military officer")
            # The answer's own definitions the clue is the start of: cut at a whole-phrase point?
            nexts = [d[len(text):].split()[0] for d in own if d.startswith(text + " ")]
            last = text.split()[-1].strip(",")
            # "…with the femur | and protected…" leaves a whole noun phrase; "small chiefly tropical | and…" not.
            inside = INSIDE_A_PHRASE if last in nouns or last.rstrip("s") in nouns else INSIDE_A_PHRASE | {"and"}
            if nexts and all(n in inside for n in nexts):
                bad.append((answer, clue))
    assert bad[:20] == [], f"{len(bad)} clues cut inside a phrase"


def _index_lines() -> list[tuple[str, str, list[str]]]:
    """(lemma, part of speech, synset offsets) of every index line."""
    lines = []
    for part in ("noun", "verb", "adj", "adv"):
        for line in (WORDNET / f"index.{part}").read_text(encoding="utf-8").splitlines():
            if not line.startswith(" "):
                fields = line.split()
                lines.append((fields[0], part, fields[-int(fields[2]):]))
    return lines


def _wordnet_definitions() -> dict[str, set[str]]:
    """Each lemma (A–Z) -> its synsets' definitions (asides in parentheses out, lower case, with and
    without a leading article), read straight from the database."""
    glosses: dict[tuple[str, str], list[str]] = {}
    for part in ("noun", "verb", "adj", "adv"):
        for line in (WORDNET / f"data.{part}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" ") or " | " not in line:
                continue
            gloss = line.split(" | ", 1)[1].split('"', 1)[0]
            while re.search(r"\([^()]*\)", gloss):
                gloss = re.sub(r"\s*\([^()]*\)", "", gloss)
            texts = [" ".join(d.split()).lower() for d in gloss.split(";")]
            glosses[(part, line.split(" ", 1)[0])] = [f for t in texts if t for f in (t, re.sub(r"^(a|an|the) ", "", t))]
    found: dict[str, set[str]] = {}
    for lemma, part, offsets in _index_lines():
        found.setdefault(squash(lemma), set()).update(d for o in offsets for d in glosses.get((part, o), ()))
    return found


def test_no_clue_holds_its_answer_or_a_word_of_its_family(pack_clues: dict[str, tuple[str, ...]]) -> None:
    bad = [(w, c, p) for w, clues in pack_clues.items() for c in clues if (p := clue_problems(w, c, max_chars=200))]
    assert bad[:20] == [], f"{len(bad)} clues give their answer away"


@needs_scowl
def test_no_clue_is_its_answers_other_spelling(pack_clues: dict[str, tuple[str, ...]]) -> None:
    # A word SCOWL lists in one spelling (or as a variant) and a clue word a
    # letter or two from it, with the same opening: COLOURED / Colored, SABRE / saber.
    spelled = scowl_list(("words",), ("american", "british", "british_z", "variant_1", "variant_2", "variant_3"),
                         (10, 20, 35, 40, 50, 55, 60, 70, 80, 95))
    bad = []
    for answer, clues in pack_clues.items():
        for clue in clues:
            for word in {squash(w) for w in re.findall(r"[A-Za-z]+", clue)}:
                if word != answer and (word in spelled or answer in spelled) and word[:3] == answer[:3] \
                        and _edit_distance(word, answer) <= 2 and abs(len(word) - len(answer)) <= 1:
                    bad.append((answer, clue))
    assert bad[:20] == [], f"{len(bad)} clues spell their answer another way"


def _edit_distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def test_no_clue_uses_a_blocked_term(pack_clues: dict[str, tuple[str, ...]]) -> None:
    blocked = {squash(line.split("#", 1)[0]) for path in BLOCKLISTS.glob("*.txt")
               for line in path.read_text(encoding="utf-8").splitlines()} - {""}
    assert len(blocked) > 300  # the lists really were read
    bad = [(w, c) for w, clues in pack_clues.items() for c in clues
           if {squash(t) for t in re.findall(r"[A-Za-z']+", c)} & blocked or re.search(r"street name", c, re.I)]
    assert bad[:20] == [], f"{len(bad)} clues use a blocked term"
    assert sorted(set(pack_clues) & blocked) == []


@needs_scowl
def test_pack_answers_are_words_a_reader_knows(pack_clues: dict[str, tuple[str, ...]]) -> None:
    familiar = scowl_list(("words", "proper-names", "upper"), ("english", "american", "british", "british_z"),
                          FAMILIAR_SIZES)
    outside = sorted(w for w in pack_clues if w not in familiar)
    assert len(outside) <= MAX_OUTSIDE_SHARE * len(pack_clues), (len(outside), outside[:50])


@needs_scowl
def test_default_packs_keep_to_american_spelling() -> None:
    british = scowl_list(("words",), ("british", "british_z"), FAMILIAR_SIZES)
    american = scowl_list(("words",), ("english", "american"), FAMILIAR_SIZES)
    only_british = british - american
    assert {"COLOUR", "ODOUR"} <= only_british  # the lists really were read
    assert sorted(set(load("en", min_score=PACK_MIN_SCORE).words) & only_british)[:20] == []
    british_pack = set(load("en", min_score=PACK_MIN_SCORE, spelling="british").words)
    assert "COLOUR" in british_pack and "COLOR" not in british_pack


@pytest.mark.parametrize("answer, meant", [("SAT", "seated"), ("LEE", "sheltered"), ("ASHE", "Arthur ___"),
                                          ("COLA", "drink"), ("MAY", "month"), ("IDES", "15th")])
def test_clues_use_the_sense_a_solver_thinks_of_first(answer: str, meant: str) -> None:
    assert any(meant.lower() in clue.lower() for clue in load_bank().clues_of(answer)), load_bank().clues_of(answer)


def test_words_a_solver_does_not_know_are_not_in_default_packs() -> None:
    words = set(load("en", min_score=PACK_MIN_SCORE).words)
    assert sorted(words & {"ERT", "OLA", "ACYL", "AGHA", "AMEER", "BRNO", "NOMA", "SONE", "NAWAB", "MANKATO",
                           "HEPARIN", "CRISTAL"}) == []


@needs_scowl
def test_clue_text_keeps_to_american_spelling(pack_clues: dict[str, tuple[str, ...]]) -> None:
    sizes = (*FAMILIAR_SIZES, 55, 60, 70)
    only_british = scowl_list(("words",), ("british", "british_z"), sizes) - scowl_list(("words",), ("english", "american"), sizes)
    assert {"REALISED", "GREY"} <= only_british  # the lists really were read
    found = sorted({f"{answer}: {clue}" for answer, clues in pack_clues.items() for clue in clues
                    for i, word in enumerate(re.findall(r"[A-Za-z]+", clue))
                    if squash(word) in only_british and (i == 0 or word.islower())})
    assert found == [], (len(found), found[:30])


# Pairs readers found bad in default packs, as the bank once held them.
READ_AS_BAD = [("DUPE", "Slang"), ("ELVES", "Atmospheric electricity"), ("EXEC", "White House"),
               ("MIL", "Cypriot monetary unit equal to one thousandth of a pound"),
               ("TRIO", "The cardinal number that is the sum of one and one and one"), ("RECESS", "Put"),
               ("DEB", "Woman"), ("AIRS", "Mixtures of gases required for breathing"),
               ("EGGS", "Oval reproductive body of a fowl used as food"), ("LINEARLY", "Opposite of geometrically"),
               ("GOALTENDER", "Goalkeeper"), ("ONUS", "Onerous or difficult concern")]


@pytest.mark.parametrize("answer, clue", READ_AS_BAD)
def test_clues_readers_found_bad_are_gone(answer: str, clue: str) -> None:
    clues = load_bank().clues_of(answer)
    assert clues and clue not in clues, clues
