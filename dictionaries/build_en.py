"""Build the embedded `en` lexicon and its clue database (developer-run).

Covers: choosing the words, scoring them and writing three files —
`data/en.txt.gz` (sorted `WORD;SCORE` lines), `data/en-clues.tsv.gz`
(`WORD<TAB>clue<TAB>clue…` lines, best clue first) and the report tables in
`dictionaries/README.md` (counts per length, dropped words per reason).
A wordfreq entry is kept only when independent sources agree that it is a
familiar English word or phrase:

1. wordfreq (large English list) gives its frequency; score =
   round(20 × (Zipf − 1)) clamped to 0..100 (Zipf 1, once per billion words,
   scores 0; Zipf 3.5 scores 50; Zipf 6 and above scores 100);
2. it is in SCOWL at size ≤ 70 (Debian `scowl`) or is a WordNet lemma
   (Debian `wordnet-base`; phrases squashed: ICECREAM); a word of at most
   SHORT_WORD letters must be in SCOWL, because wordfreq's short tokens are
   often fragments of longer words and WordNet alone lists many rarities;
3. it is not an abbreviation (SCOWL's abbreviation lists, or written all in
   capitals in WordNet) nor a proper name, unless both SCOWL (size ≤
   PROPER_NAME_SIZE) and WordNet know the name — WordNet's encyclopaedic
   entry is what makes it clueable (PARIS, ELBA);
4. it passes the breakfast test: not on the shipped blocklist
   (`data/blocklist/`: LDNOOBW's English list plus the project's additions)
   and none of its first senses is labelled obscene, vulgar, offensive or a
   slur in WordNet;
5. it has at least one whole clue (`clue_text.py`) of at most 90 characters from
   its own WordNet senses or, for an inflected form, from its lemma's — or
   the project's hand-written clues (`data/clues-project.tsv`: function
   words and the clue edit of every short answer packs use), which replace
   WordNet's for the words they list.

An answer an editor read as unknown to solvers (`data/answers-unfamiliar.tsv`)
scores BELOW_PACKS, under the packs' default --min-score.

Where several entries normalise to one word the highest score wins. The
output is sorted and written with gzip mtime 0, so the same inputs give the
same bytes. Built with wordfreq 3.1.1, lemminflect 0.2.3, SCOWL 2020.12.07
and WordNet 3.0 (Debian scowl 2020.12.07-2, wordnet-base 1:3.0-37); other
versions may change the output.

Leaves out: everything at runtime — the package reads the committed files
and needs none of these sources. Run from the repository top level:

    apt-get install scowl wordnet-base && pip install wordfreq==3.1.1 lemminflect==0.2.3
    python -m mobius.dictionaries.build_en
"""

from __future__ import annotations

import argparse
import gzip
import re
import string
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from typing import TYPE_CHECKING

from mobius.dictionaries.list_format import MAX_SCORE, MIN_SCORE
from mobius.dictionaries.wordlist import EN_CLUES_PATH, EN_PATH, EN_SPELLING_PATH, from_words, normalise

if TYPE_CHECKING:
    from mobius.dictionaries.clue_bank import ClueWriter, Corrections

# Crossword grids go up to 23 cells a side, so no light is longer than 23;
# single letters are never crossword entries.
MIN_WORD_LENGTH = 2
MAX_WORD_LENGTH = 23
# Zipf 1 is the rarest frequency in wordfreq's large list; each further unit
# of Zipf (a tenfold frequency) is worth 20 points, so Zipf 6 reaches 100.
ZIPF_FLOOR = 1.0
POINTS_PER_ZIPF = 20
SCOWL_DIR = Path("/usr/share/dict/scowl")
# SCOWL sizes: 10..35 the commonest words, 50 a medium dictionary, 70 a
# large one; from 80 up it lists rare and archaic words.
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70)
SCOWL_SPELLINGS = ("english", "american", "british")
# SCOWL's spelling lists: words of every spelling, American and British
# (-ise and -ize) only; its variant_* lists (AMEER, JUDGMENT's rivals) are in none.
SPELLING_LISTS = ("english", "american", "british", "british_z")
AMERICAN_LISTS, BRITISH_LISTS = ("english", "american"), ("english", "british", "british_z")
# Familiarity: what a general reader knows. A word outside SCOWL's medium
# dictionary (size <= 50; a name, size <= 35) or a phrase SCOWL does not list
# scores at most BELOW_PACKS, under the pack's default --min-score, so
# default packs skip it (ERT, ACYL, NAWAB, HEPARIN, MANKATO) and a lower
# --min-score still reaches it. Short words need more frequency to score as
# high: wordfreq counts their tokens also as abbreviations and names (OLA,
# SONE), and crosswordese is short.
FAMILIAR_SIZE, FAMILIAR_NAME_SIZE = 50, 35
BELOW_PACKS = 29
LENGTH_SHIFT = {2: 20, 3: 10, 4: 5}
RULE_UNFAMILIAR = f"word outside SCOWL's medium lists scored {BELOW_PACKS}, under the packs' default"
RULE_READ_UNFAMILIAR = f"word an editor read as unknown to solvers scored {BELOW_PACKS} (data/answers-unfamiliar.tsv)"
# A proper name must be common enough for SCOWL's medium lists.
PROPER_NAME_SIZE = 50
# wordfreq's tokens of this length or shorter are often pieces of longer
# words (TAA, ENT, ICS); only SCOWL vouches for them.
SHORT_WORD = 4
DATA_DIR = Path(__file__).parent / "data"
PROJECT_CLUES = DATA_DIR / "clues-project.tsv"
UNFAMILIAR = DATA_DIR / "answers-unfamiliar.tsv"
CORRECTIONS = DATA_DIR / "clue-corrections.tsv"
BLOCKLISTS = (DATA_DIR / "blocklist" / "ldnoobw-en.txt", DATA_DIR / "blocklist" / "project.txt")
README = Path(__file__).parent / "README.md"
REPORT_START, REPORT_END = "<!-- build report: start -->", "<!-- build report: end -->"
# A word whose first senses (or only sense) WordNet labels offensive fails
# the breakfast test; one such sense among others (SHRIMP, BOY) does not.
OFFENSIVE_SENSES = 2
# LDNOOBW's entries this long are blocked inside other words too (PENISES).
BLOCKED_INSIDE = 5
# Four-letter entries so strong that every word holding one goes (FUCKHEAD);
# other short ones would take innocent words with them (ASS: CLASS).
STRONG_INSIDE = ("FUCK", "SHIT", "CUNT", "TWAT", "WANK", "JIZZ")
# A clue this short fits one line of a printed clue list.
SHORT_CLUE = 60
# Reasons a wordfreq entry is dropped, in the order they are tested.
UNLISTED, SHORT_UNLISTED, ABBREVIATION, PROPER_NAME, BLOCKLISTED, OFFENSIVE_SENSE, NO_CLUE = (
    "in neither SCOWL (size <= 70) nor WordNet", f"{SHORT_WORD} letters or fewer and not in SCOWL",
    "abbreviation", "proper name not known to both SCOWL and WordNet", "on the breakfast-test blocklist",
    "unfit first senses in WordNet (offensive, or slang for drugs or sex)",
    "no whole clue of 90 characters or fewer")


def zipf_to_score(zipf: float) -> int:
    """Map a Zipf frequency to a 0..100 score (see the module docstring)."""
    score = round(POINTS_PER_ZIPF * (zipf - ZIPF_FLOOR))
    return max(MIN_SCORE, min(MAX_SCORE, score))


# -- sources -----------------------------------------------------------------------------------------

@dataclass
class Scowl:
    common: set[str] = field(default_factory=set)  # lower-case words of the word lists
    proper: dict[str, int] = field(default_factory=dict)  # capitalised words -> smallest size
    abbreviations: set[str] = field(default_factory=set)
    # lower-case words -> smallest size, per spelling list (english, american, british, british_z)
    sizes: dict[str, dict[str, int]] = field(default_factory=dict)

    def size(self, word: str, spellings: Iterable[str] = SPELLING_LISTS) -> int:
        """The smallest SCOWL size listing `word` in the given spelling lists (MAX_SCORE if none)."""
        return min((self.sizes.get(s, {}).get(word, MAX_SCORE) for s in spellings), default=MAX_SCORE)

    def __contains__(self, word: str) -> bool:
        return word in self.common or word in self.proper


def read_scowl(root: Path = SCOWL_DIR) -> Scowl:
    """SCOWL's lists of sizes <= 70, normalised; FileNotFoundError if absent."""
    if not (root / "english-words.10").is_file():
        raise FileNotFoundError(f"{root}: no SCOWL lists; install them with `apt-get install scowl`")
    scowl = Scowl()
    for size in SCOWL_SIZES:
        for spelling in SCOWL_SPELLINGS:
            for kind in ("words", "upper", "proper-names", "abbreviations"):
                path = root / f"{spelling}-{kind}.{size}"
                if path.is_file():
                    _add_scowl_list(scowl, kind, size, path.read_text(encoding="latin-1").split("\n"))
        for spelling in SPELLING_LISTS:
            path = root / f"{spelling}-words.{size}"
            if path.is_file():
                listed = scowl.sizes.setdefault(spelling, {})
                for entry in path.read_text(encoding="latin-1").split("\n"):
                    word = normalise(entry) if entry.islower() else None
                    if word is not None:
                        listed.setdefault(word, size)
    return scowl


def _add_scowl_list(scowl: Scowl, kind: str, size: int, entries: Iterable[str]) -> None:
    for entry in entries:
        word = normalise(entry) if entry else None
        if word is None:
            continue
        if kind == "abbreviations":
            scowl.abbreviations.add(word)
        elif kind == "words" and entry.islower():
            scowl.common.add(word)
        else:
            scowl.proper[word] = min(size, scowl.proper.get(word, size))


@dataclass(frozen=True)
class Blocklist:
    words: frozenset[str]  # every entry: blocked as a whole word and in its inflections
    inside: frozenset[str]  # LDNOOBW's entries of BLOCKED_INSIDE letters or more: blocked inside words too


def read_blocklist(ldnoobw: Path = BLOCKLISTS[0], project: Path = BLOCKLISTS[1]) -> Blocklist:
    """The entries of the two blocklist files, normalised ('#' starts a comment)."""
    lists = [{w for w in map(_entry, path.read_text(encoding="utf-8").split("\n")) if w} for path in (ldnoobw, project)]
    return Blocklist(frozenset(lists[0] | lists[1]), frozenset(w for w in lists[0] if len(w) >= BLOCKED_INSIDE))


def _entry(line: str) -> str | None:
    text = line.split("#", 1)[0].strip()
    return normalise(text) if text else None


def read_project_clues(path: Path = PROJECT_CLUES) -> dict[str, list[str]]:
    """The project's hand-written `WORD<TAB>clue` lines ('#' starts a comment line)."""
    clues: dict[str, list[str]] = {}
    for word, clue in _tab_lines(path, 2, "WORD<TAB>clue"):
        clues.setdefault(normalise(word) or "", []).append(clue.strip())
    return clues


def read_unfamiliar(path: Path = UNFAMILIAR) -> frozenset[str]:
    """The answers an editor read as unknown to a typical solver: `WORD<TAB>reason` lines."""
    return frozenset(normalise(word) or "" for word, _reason in _tab_lines(path, 2, "WORD<TAB>reason"))


def _tab_lines(path: Path, fields: int, expected: str) -> Iterator[list[str]]:
    """The tab-separated lines of a data file, each with `fields` non-empty fields ('#' starts a comment line)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != fields or not all(part.strip() for part in parts):
            raise ValueError(f"{path}:{number}: expected '{expected}', got {line!r}")
        yield parts


def read_corrections(path: Path = CORRECTIONS) -> "Corrections":
    """The corrections table: `fix<TAB>wrong text<TAB>right text<TAB>reason` lines (WordNet's
    typos) and `skip<TAB>lemma<TAB>words of the definition<TAB>reason` lines (senses a solver does not
    think of first); '#' starts a comment line. Every line must give its reason."""
    from mobius.dictionaries.clue_bank import Corrections

    fixes: list[tuple[str, str]] = []
    skips: dict[str, tuple[str, ...]] = {}
    for kind, first, second, _reason in _tab_lines(path, 4, "fix|skip<TAB>…<TAB>…<TAB>reason"):
        if kind not in ("fix", "skip"):
            raise ValueError(f"{path}: expected 'fix' or 'skip' first, got {kind!r}")
        if kind == "fix":
            fixes.append((first, second))
        else:
            skips[first] = (*skips.get(first, ()), second.lower())
    return Corrections(tuple(fixes), skips)


def wordfreq_scores() -> dict[str, int]:
    """Normalised wordfreq entry -> its best score."""
    from wordfreq import iter_wordlist, zipf_frequency

    best: dict[str, int] = {}
    for entry in iter_wordlist("en", "large"):
        word = normalise(entry)
        if word is not None and MIN_WORD_LENGTH <= len(word) <= MAX_WORD_LENGTH:
            best[word] = max(best.get(word, MIN_SCORE), zipf_to_score(zipf_frequency(entry, "en", "large")))
    return best


# -- the build ---------------------------------------------------------------------------------------

@dataclass
class Build:
    words: dict[str, int]  # kept word -> score
    clues: dict[str, list[str]]
    dropped: Counter[str]
    before: dict[int, int]  # wordfreq entries per length, before any filter
    spellings: dict[str, str]  # word -> "american" or "british" where SCOWL lists one spelling only
    rules: Counter[str]  # clue rule -> how many clues or senses it dropped or rewrote


def build_lexicon() -> Build:
    """Read every source and decide each wordfreq entry (see the module docstring)."""
    # Imported here so the module (and zipf_to_score) loads without build deps.
    from mobius.dictionaries.clue_bank import MAX_CLUES, ClueWriter
    from mobius.dictionaries.wordnet_db import read_wordnet

    scowl, blocked, scores, project = read_scowl(), read_blocklist(), wordfreq_scores(), read_project_clues()
    unfamiliar = read_unfamiliar()
    writer = ClueWriter(read_wordnet(), frequency=scores, familiar=scowl.common, corrections=read_corrections(),
                        american=american_spellings(scowl))
    kept: dict[str, int] = {}
    clues: dict[str, list[str]] = {}
    dropped: Counter[str] = Counter()
    for word in sorted(scores):
        reason = _reason_to_drop(word, scowl, writer, blocked)
        if reason is None:
            # A word the project clued by hand takes those clues only: an editor read WordNet's
            # senses and chose what a solver thinks of first (ABBOT is no "Superior").
            found = [clue for clue in dict.fromkeys(project.get(word) or writer.clues(word))
                     if not clue_blocked(clue, blocked)][:MAX_CLUES]
            if found:
                kept[word], clues[word] = familiarity(word, scores[word], scowl), found
                writer.report[RULE_UNFAMILIAR] += kept[word] == BELOW_PACKS < scores[word] - LENGTH_SHIFT.get(len(word), 0)
                if word in unfamiliar and kept[word] > BELOW_PACKS:
                    kept[word] = BELOW_PACKS
                    writer.report[RULE_READ_UNFAMILIAR] += 1
                continue
            reason = NO_CLUE
        dropped[reason] += 1
    spellings = {word: mark for word in kept if (mark := spelling_of(word, scowl))}
    return Build(kept, clues, dropped, dict(Counter(len(w) for w in scores)), spellings, writer.report)


# The one-letter fallback of `american_spellings` pairs only words of one SCOWL size that open and end
# alike (GREY: GRAY; not MATT: MATH, FERE: CERE, nor GREY: the rarer GEY), and never takes the U from an
# OUR one letter in, which is no British ending (POURER: PORER, FOURB: FORB).
NOT_OUR = re.compile(r"^[A-Z]?OUR")
# Whole-word British spellings the patterns of `clue_text.american` leave alone (ENQUIRE, TYRE,
# CHEQUE, STOREY, SULPHUR, TSAR, AEROPLANE, LIQUORICE, PRACTISE); used only where the result is American-listed.
BRITISH_WORDS = ((r"^ENQUIR", "INQUIR"), (r"^TYR(E|ES)$", r"TIR\1"), (r"^CHEQUE", "CHECK"), (r"^STOREY(S)?$", r"STORY\1"),
                 (r"^STOREYS$", "STORIES"), (r"SULPH", "SULF"), (r"^TSAR", "CZAR"), (r"^AERO(PLANE|FOIL)", r"AIR\1"),
                 (r"^LIQUORICE", "LICORICE"), (r"^PRACTIS", "PRACTIC"), (r"^DEPENDANT", "DEPENDENT"),
                 (r"^DESCENDENT", "DESCENDANT"), (r"LLINGS$", "LINGS"))


def american_spellings(scowl: Scowl) -> dict[str, str]:
    """British-only words (SCOWL) -> their American spelling: what the British patterns
    (`clue_text.american`) give if SCOWL's American lists have it (REALISED -> REALIZED), else
    the one American-only word a single letter apart (GREY -> GRAY, SIZEABLE -> SIZABLE; see NOT_OUR)."""
    from mobius.dictionaries.clue_text import american

    words = {w for listed in scowl.sizes.values() for w in listed}
    marks = {w: spelling_of(w, scowl) for w in words}
    only_american = {w for w, mark in marks.items() if mark == "american"}
    spellings = {}
    for word in sorted(w for w, mark in marks.items() if mark == "british"):
        patterned = [other for other in (american(word), *(re.sub(p, r, word) for p, r in BRITISH_WORDS))
                     if other != word and scowl.size(other, AMERICAN_LISTS) < MAX_SCORE]
        if patterned:
            spellings[word] = patterned[0]
        elif not NOT_OUR.match(word) and len(near := [
                w for w in one_edit(word) & only_american
                if (w[0], w[-1]) == (word[0], word[-1]) and scowl.size(w, AMERICAN_LISTS) == scowl.size(word, BRITISH_LISTS)]) == 1:
            spellings[word] = near[0]
    return spellings


def one_edit(word: str) -> set[str]:
    """The A–Z words one deletion, insertion or substitution away from `word`."""
    letters = string.ascii_uppercase
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b} | {a + c + b for a, b in splits for c in letters}
            | {a + c + b[1:] for a, b in splits if b for c in letters}) - {word}


def familiarity(word: str, score: int, scowl: Scowl) -> int:
    """The word's score as "a solver knows this": its frequency score, less LENGTH_SHIFT for a
    short word, at most BELOW_PACKS outside SCOWL's medium lists (see FAMILIAR_SIZE)."""
    score = max(MIN_SCORE, score - LENGTH_SHIFT.get(len(word), 0))
    listed = scowl.size(word) <= FAMILIAR_SIZE or scowl.proper.get(word, MAX_SCORE) <= FAMILIAR_NAME_SIZE
    return score if listed else min(score, BELOW_PACKS)


def spelling_of(word: str, scowl: Scowl) -> str | None:
    """"american" or "british" for a word SCOWL lists in one spelling only (COLOR, COLOUR), else None."""
    american, british = scowl.size(word, AMERICAN_LISTS), scowl.size(word, BRITISH_LISTS)
    if american < MAX_SCORE and british == MAX_SCORE:
        return "american"
    if british < MAX_SCORE and american == MAX_SCORE:
        return "british"
    return None


def _blocked(word: str, writer: "ClueWriter", blocked: Blocklist) -> bool:
    """On the blocklist, an inflection of a word on it (FUCKED), or holding one of LDNOOBW's
    longer entries (PENISES); short entries, and the project's, only match whole words
    (ASS, not CLASS; ORGAN, not ORGANIC)."""
    if word in blocked.words or any(normalise(s.lemma.replace("_", " ")) in blocked.words
                                    for s in writer.sources(word)):
        return True
    return any(entry in word for entry in blocked.inside) or any(entry in word for entry in STRONG_INSIDE)


def clue_blocked(clue: str, blocked: Blocklist) -> bool:
    """Does the clue text hold a blocklisted word? WordNet's examples and glosses
    can ("She questioned the rape victim…"); the breakfast test covers clues too."""
    return any(normalise(token) in blocked.words for token in re.findall(r"[A-Za-z']+", clue))


def _reason_to_drop(word: str, scowl: Scowl, writer: "ClueWriter", blocked: Blocklist) -> str | None:
    in_wordnet = writer.is_lemma(word)
    if word not in scowl and not in_wordnet:
        return UNLISTED
    if len(word) <= SHORT_WORD and word not in scowl:
        return SHORT_UNLISTED
    if word not in scowl.common and (word in scowl.abbreviations or writer.is_acronym(word)):
        return ABBREVIATION
    if word not in scowl.common and not writer.has_common_form(word):
        if not (in_wordnet and scowl.proper.get(word, MAX_SCORE) <= PROPER_NAME_SIZE):
            return PROPER_NAME
    if _blocked(word, writer, blocked):
        return BLOCKLISTED
    first = list(writer.first_senses(word, OFFENSIVE_SENSES))
    if first and all(writer.unfit_sense(s) for s in first):
        return OFFENSIVE_SENSE
    return None


# -- output ------------------------------------------------------------------------------------------

def write_gzip(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))


def clue_lines(clues: dict[str, list[str]]) -> str:
    """One line a word, `WORD<TAB>clue<TAB>clue…`, best clue first: one split per word to load."""
    return "".join(f"{word}\t" + "\t".join(clues[word]) + "\n" for word in sorted(clues))


def report(build: Build) -> str:
    """The README's tables: words per length before and after, and drops per reason."""
    after = Counter(len(w) for w in build.words)
    small = Counter(len(w) for w, s in build.words.items() if s >= 40)
    lengths = sorted(set(build.before) | set(after))
    rows = [f"| {n} | {build.before.get(n, 0):,} | {after.get(n, 0):,} | {small.get(n, 0):,} |" for n in lengths]
    rows.append(f"| all | {sum(build.before.values()):,} | {sum(after.values()):,} | {sum(small.values()):,} |")
    reasons = [f"| {reason} | {count:,} |" for reason, count in build.dropped.most_common()]
    rules = [f"| {rule} | {count:,} |" for rule, count in build.rules.most_common()]
    marks = Counter(build.spellings.values())
    short = sum(len(c) <= SHORT_CLUE for cs in build.clues.values() for c in cs)
    total = sum(len(cs) for cs in build.clues.values())
    return "\n".join([
        REPORT_START,
        "| length | wordfreq entries | `en` | `en-small` (score >= 40) |", "|---:|---:|---:|---:|", *rows, "",
        "| dropped because | entries |", "|---|---:|", *reasons, "",
        "| clue rule (senses or clues) | applied |", "|---|---:|", *rules, "",
        f"Spelling marks: {marks['american']:,} American-only, {marks['british']:,} British-only words.", "",
        f"Clues: {total:,} for {len(build.clues):,} words ({total / len(build.clues):.2f} a word), "
        f"{short / total:.1%} of them {SHORT_CLUE} characters or fewer (one printed line).",
        REPORT_END])


def update_readme(text: str, path: Path = README) -> None:
    current = path.read_text(encoding="utf-8")
    start, end = current.index(REPORT_START), current.index(REPORT_END) + len(REPORT_END)
    path.write_text(current[:start] + text + current[end:], encoding="utf-8")


def build(output: Path = EN_PATH, clue_output: Path = EN_CLUES_PATH,
          spelling_output: Path = EN_SPELLING_PATH) -> Build:
    result = build_lexicon()
    # from_words normalises and sorts exactly as load() will read the file back.
    words = from_words(result.words, [result.words[w] for w in result.words], name="en")
    write_gzip(output, words.to_text())
    write_gzip(clue_output, clue_lines(result.clues))
    write_gzip(spelling_output, "".join(f"{w};{result.spellings[w]}\n" for w in sorted(result.spellings)))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=EN_PATH)
    parser.add_argument("--clues", type=Path, default=EN_CLUES_PATH)
    parser.add_argument("--spelling", type=Path, default=EN_SPELLING_PATH)
    parser.add_argument("--no-readme", action="store_true", help="do not rewrite the report in README.md")
    args = parser.parse_args()
    try:
        result = build(args.output, args.clues, args.spelling)
    except ImportError as error:
        raise SystemExit(f"{error}: run `pip install wordfreq==3.1.1 lemminflect==0.2.3` first") from None
    except FileNotFoundError as error:
        raise SystemExit(str(error)) from None
    text = report(result)
    if not args.no_readme:
        update_readme(text)
    print(text)
    print(f"wrote {len(result.words)} words to {args.output}, their clues to {args.clues}")


if __name__ == "__main__":
    main()
