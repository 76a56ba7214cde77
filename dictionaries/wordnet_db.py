"""Reading the WordNet 3.0 database files (Debian's `wordnet-base`) for the build.

Covers: the synsets of `data.{noun,verb,adj,adv}` (their word forms as
written, pointers, definition and quoted examples), the sense order of
`index.*` (most frequent sense first, wndb(5)) and the tagged-corpus count
of each sense from `cntlist.rev` (how often a reader meets that meaning),
gathered into a `WordNet` that answers "which synsets does this lemma
have, commonest first, and how common is each?".

Leaves out: choosing words or writing clues (`build_en.py`, `clue_text.py`),
and every use at runtime — only the developer-run build reads WordNet; the
package ships what the build wrote and never needs wordnet-base.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
# File suffix -> the part-of-speech letter of its synsets ("s", adjective
# satellites, are read as adjectives: a clue treats them alike).
PARTS_OF_SPEECH = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
# The pointer symbols the build follows (wninput(5)).
ANTONYM, INSTANCE_OF, HYPERNYM, USAGE_DOMAIN, TOPIC_DOMAIN = "!", "@i", "@", ";u", ";c"
# cntlist.rev's sense keys name the part of speech by number (wndb(5)).
SENSE_KEY_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
# Adjective word forms may carry a syntactic marker: "galore(ip)".
# How WordNet labels an offensive sense ("offensive term for…", "(ethnic slur)").
OFFENSIVE_LABEL = re.compile(r"\b(ethnic slur|(?:obscene|vulgar|offensive|insulting|disparaging|derogatory|contemptuous)"
                             r" (?:term|slang|word|name)s?)\b", re.IGNORECASE)
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
_EXAMPLE = re.compile(r'"([^"]*)"')


@dataclass(frozen=True)
class Pointer:
    symbol: str
    target: str  # synset key "pos:offset"
    source_word: int  # 0: the whole synset, else the 1-based word number
    target_word: int


@dataclass(frozen=True)
class Synset:
    key: str  # "pos:offset", unique across the four data files
    pos: str  # n, v, a or r
    forms: tuple[str, ...]  # word forms as written: "true_cat", "Paris", "CPA"
    pointers: tuple[Pointer, ...]
    definition: str  # the gloss without its examples
    examples: tuple[str, ...]

    @property
    def is_offensive(self) -> bool:
        return OFFENSIVE_LABEL.search(self.definition) is not None

    @property
    def is_instance(self) -> bool:
        """A particular person, place or thing (Paris), not a kind of thing."""
        return any(p.symbol == INSTANCE_OF for p in self.pointers)


@dataclass(frozen=True)
class WordNet:
    synsets: dict[str, Synset]
    # lower-case lemma ("ice_cream") -> synset keys, per part of speech in
    # the index's sense order
    senses: dict[str, dict[str, tuple[str, ...]]]
    # lower-case lemma -> the index's tagsense_cnt per part of speech: how
    # often its senses were seen in the tagged corpus (orders the POS)
    tagged: dict[str, dict[str, int]]
    # (lower-case lemma, synset key) -> times that sense was tagged (cntlist.rev); absent: 0
    counts: dict[tuple[str, str], int]

    def sense_count(self, lemma: str, key: str) -> int:
        return self.counts.get((lemma, key), 0)

    def ancestors(self, synset: Synset, depth: int) -> Iterator[Synset]:
        """The synset's broader terms (hypernyms and instance-of), up to `depth` levels up."""
        level = [synset]
        for _ in range(depth):
            level = [self.synsets[p.target] for s in level for p in s.pointers if p.symbol in (HYPERNYM, INSTANCE_OF)]
            yield from level

    def lemma_synsets(self, lemma: str) -> Iterator[Synset]:
        """The lemma's synsets, commonest part of speech first, each in sense order."""
        by_pos = self.senses.get(lemma, {})
        counts = self.tagged.get(lemma, {})
        order = sorted(by_pos, key=lambda pos: (-counts.get(pos, 0), "nvar".index(pos)))
        for pos in order:
            yield from (self.synsets[key] for key in by_pos[pos])


def read_wordnet(root: Path = WORDNET_DIR) -> WordNet:
    """Every synset and index line of the database in `root`."""
    missing = [f"{kind}.{suffix}" for suffix in PARTS_OF_SPEECH for kind in ("index", "data")
               if not (root / f"{kind}.{suffix}").is_file()]
    if missing:
        raise FileNotFoundError(f"{root}: no WordNet database (missing {', '.join(missing)}); "
                                "install it with `apt-get install wordnet-base`")
    synsets: dict[str, Synset] = {}
    senses: dict[str, dict[str, tuple[str, ...]]] = {}
    tagged: dict[str, dict[str, int]] = {}
    for suffix, pos in PARTS_OF_SPEECH.items():
        for synset in _data_lines(root / f"data.{suffix}", pos):
            synsets[synset.key] = synset
        for lemma, keys, count in _index_lines(root / f"index.{suffix}", pos):
            senses.setdefault(lemma, {})[pos] = keys
            tagged.setdefault(lemma, {})[pos] = count
    return WordNet(synsets, senses, tagged, _sense_counts(root / "cntlist.rev", senses))


def _sense_counts(path: Path, senses: dict[str, dict[str, tuple[str, ...]]]) -> dict[tuple[str, str], int]:
    """`lemma%ss_type:… sense_number tag_cnt` lines as (lemma, synset key) -> count.

    The sense number is the sense's place in the lemma's index line, which
    names its synset; a line the index does not match (none in WordNet 3.0)
    is skipped."""
    counts: dict[tuple[str, str], int] = {}
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no WordNet sense counts; install them with `apt-get install wordnet-base`")
    for line in _content_lines(path):
        key, number, count = line.split()
        lemma, _, rest = key.partition("%")
        keys = senses.get(lemma, {}).get(SENSE_KEY_POS[rest[0]], ())
        if int(number) <= len(keys):
            counts[(lemma, keys[int(number) - 1])] = int(count)
    return counts


def _content_lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as lines:
        yield from (line for line in lines if not line.startswith(" "))  # skip the licence header


def _index_lines(path: Path, pos: str) -> Iterator[tuple[str, tuple[str, ...], int]]:
    """`lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...`."""
    for line in _content_lines(path):
        fields = line.split()
        synset_count, pointer_count = int(fields[2]), int(fields[3])
        tagsense_count = int(fields[5 + pointer_count])
        offsets = fields[-synset_count:]
        yield fields[0], tuple(f"{pos}:{offset}" for offset in offsets), tagsense_count


def _data_lines(path: Path, pos: str) -> Iterator[Synset]:
    """`offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr… [frames] | gloss`."""
    for line in _content_lines(path):
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        word_count = int(fields[3], 16)
        forms = tuple(_ADJ_MARKER.sub("", fields[4 + 2 * i]) for i in range(word_count))
        at = 4 + 2 * word_count
        pointer_count = int(fields[at])
        pointers = []
        for i in range(pointer_count):
            symbol, offset, target_pos, numbers = fields[at + 1 + 4 * i: at + 5 + 4 * i]
            target_pos = "a" if target_pos == "s" else target_pos
            pointers.append(Pointer(symbol, f"{target_pos}:{offset}", int(numbers[:2], 16), int(numbers[2:], 16)))
        definition, examples = split_gloss(gloss.strip())
        yield Synset(f"{pos}:{fields[0]}", pos, forms, tuple(pointers), definition, examples)


def split_gloss(gloss: str) -> tuple[str, tuple[str, ...]]:
    """(definition, examples): the quoted examples come out, the rest is the definition."""
    examples = tuple(e.strip() for e in _EXAMPLE.findall(gloss) if e.strip())
    definition = _EXAMPLE.sub("", gloss)
    # What separated the examples (";", spaces) is left dangling at the end.
    definition = re.sub(r"[\s;,]*;[\s;]*$", "", definition).strip(" ;")
    return definition, examples
