"""The rules every clue keeps, as flags an editor can review: `clue_flags(answer, clue, rules)`.

Covers: one flag per rule a clue breaks — too long for two printed lines,
cut off (ends on an article, a conjunction or a possessive), a usage label
("Slang") for a clue, giving the answer away (holds it, its other spelling,
a word of its family, a clipping or part of it, a word made from a word the
answer is made from, the answer without its prefix; the parts found as words
of `en`), a blocked term (the breakfast-test blocklist), the usage rules of
`clue_usage.py` (British use untagged, valency, a shortening unmarked), and
an answer outside the `en` list or scoring under the packs' default (a word a
solver may not know); and `grid_flags`, the echoes among one grid's clues (a
clue naming another answer, two clues read alike). Each rule is the build's
own function (`clue_text.is_whole`, `clue_text.is_usage_label`,
`clue_text.Family`, `clue_text.clue_head`, `build_en.clue_blocked`,
`MAX_CLUE_CHARS`), so the embedded bank, `mobius clues check` and the pack
report judge a clue alike.

Leaves out: WordNet — the build's family test also knows WordNet's
derivations (HOUSE: housing) and its lemmas (which make GOALTENDER a
compound of goal and tender), which the shipped package does not carry, so
here a family word is one lemminflect or the shared-stem rules find; reading
clue files (`mobius.generators.crossword.clues`) and the command (`mobius/clues_cli.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from mobius.dictionaries.build_en import Blocklist, clue_blocked, read_blocklist
from mobius.dictionaries.clue_text import MAX_CLUE_CHARS, Family, clue_head, is_usage_label, is_whole
from mobius.dictionaries.clue_usage import usage_flags
from mobius.dictionaries.wordlist import DEFAULT_SPELLING, WordList, load

# The pack's default --min-score: an answer under it is one a solver may not know.
PACK_MIN_SCORE = 30


@dataclass(frozen=True)
class ClueRules:
    """What the rules read: the `en` list in one spelling and the blocklist."""

    words: WordList
    blocked: Blocklist
    spelling: str = DEFAULT_SPELLING
    min_score: int = PACK_MIN_SCORE


@lru_cache(maxsize=2)
def clue_rules(spelling: str = DEFAULT_SPELLING) -> ClueRules:
    return ClueRules(load("en", spelling=spelling), shipped_blocklist(), spelling)


def clue_flags(answer: str, clue: str, rules: ClueRules) -> list[str]:
    """Every rule `clue` (for `answer`, A–Z) breaks, one short phrase each; [] if it keeps them all."""
    return clue_text_flags(answer, clue, rules.blocked) + answer_flags(answer, rules)


def clue_text_flags(answer: str, clue: str, blocked: Blocklist | None = None) -> list[str]:
    """The rules of the clue's text alone (any word list may fill): length, cut off, give-away (a
    compound's or a root's part found as a word of `en`), blocked term, and the usage rules
    (`clue_usage.usage_flags`: untagged British use, valency, a shortening unmarked)."""
    flags = []
    if len(clue) > MAX_CLUE_CHARS:
        flags.append(f"too long: {len(clue)} characters, over {MAX_CLUE_CHARS}")
    if "___" not in clue and not is_whole(clue, cut=False):
        flags.append(f"cut off: ends on '{clue.split()[-1]}'")
    if is_usage_label(clue):
        flags.append(f"a usage label, not a meaning: '{clue}'")
    why = family(answer).giveaway(clue)
    if why is not None:
        flags.append(f"gives the answer away: {why}")
    if clue_blocked(clue, blocked or shipped_blocklist()):
        flags.append("uses a blocked term (the breakfast-test blocklist)")
    return flags + usage_flags(answer, clue)


def grid_flags(entries: Sequence[tuple[str, str]]) -> list[tuple[int, str]]:
    """The echoes among one grid's (answer, clue) entries, as (entry index, flag): a clue with a
    word of another answer's family (STAIRS "Steps" beside STEP) and a clue read as another's
    (DON "Put on" beside APPLY "Put on, as lotion": `clue_text.clue_head`). Each pair is flagged once,
    on the later entry."""
    flags = []
    families = [family(answer) for answer, _clue in entries]
    for index, (answer, clue) in enumerate(entries):
        for other, (other_answer, other_clue) in enumerate(entries):
            if other == index or other_answer == answer or not clue.strip():
                continue
            if (word := families[other].named_in(clue)) is not None:
                flags.append((index, f"'{word}' names another answer of the grid, {other_answer}"))
            elif other < index and clue_head(clue) == clue_head(other_clue):
                flags.append((index, f"reads as {other_answer}'s clue, '{other_clue}'"))
    return flags


def family(answer: str) -> Family:
    """The give-away test of `answer` as the check runs it: lemminflect's lemmas, no WordNet
    derivations (the package does not ship WordNet), the parts of compounds read from `en`."""
    return Family(answer, (), lambda _lemma: (), is_en_word)


def is_en_word(word: str) -> bool:
    """Is the lower-case `word` a word of the `en` list (finds the parts of compound answers)?"""
    return word.upper() in load("en")


def answer_flags(answer: str, rules: ClueRules) -> list[str]:
    """Is the answer a word a solver knows: in the `en` list, at the packs' default score or more?"""
    if answer not in rules.words:
        return [f"answer {answer} is not in the en list ({rules.spelling} spelling)"]
    if rules.words.score(answer) < rules.min_score:
        return [f"answer {answer} scores {rules.words.score(answer)}, under the packs' default "
                f"{rules.min_score}: a solver may not know it"]
    return []


@lru_cache(maxsize=1)
def shipped_blocklist() -> Blocklist:
    return read_blocklist()
