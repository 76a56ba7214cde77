"""How hard a crossword is: the three levels of `--difficulty`, the kinds of clue, and the estimate.

Covers:

- `clue_kind(clue)`, the one classifier of clue text, used both to choose a
  clue and to report the mix: a *blank* holds "___"; a *name* is the full
  name of a person with the surname blanked ("Tennis player Arthur ___",
  which says who is meant, so it reads as a definition); *opposite* is
  "Opposite of …"; a *synonym* is one or two words (a synonym or a broader
  term: the bank writes both as a bare word or two, "Mass", "Fossil fuel",
  and their text cannot tell them apart); any longer text is a *definition*.
  Definitions and names are *direct*; synonyms, opposites and blanks make
  the solver find the word from a neighbour of its sense, and are
  *indirect*.
- `Level` and `LEVELS`: what each level asks of the fill and of the clues.
  *easy* keeps to answers scoring `EASY_FLOOR` or more (words met once per
  million or more: the `en-small` list), prefers those scoring
  `EASY_PREFER` or more, and gives each answer its
  best-ranked direct clue (the bank ranks the sense a solver thinks of
  first first); *medium* is the pack's default, unchanged; *hard* keeps the
  pack's own floor (the list's "known in print" threshold, never lower) but
  prefers answers scoring under `HARD_CAP` (`answer_penalties`: a word at
  or over the cap is worth no more than the least-known word allowed, so
  the fill and its polish take it only where the grid needs it) and gives
  each answer an indirect clue where it has one. Both prefer the words
  that have a clue of their kinds.
- `LevelledClues`, the clue source a pack's puzzles draw from at a level,
  with the clues the pack gave each answer before: a recurring answer gets
  a clue it has not had while it has one (`rotated`).
- `puzzle_difficulty(entries, level)`, the estimate a puzzle file carries
  (its answers' familiarity — their mean score, and the share scoring under
  `UNFAMILIAR_BELOW` — and its clue-kind mix), read from its entries alone
  so anyone can recompute it; `pack_difficulty(puzzles)` the same per level
  for a pack's quality report, and `difficulty_summary` its line.

Leaves out: the clues themselves (`clues.py`, the bank's build), the word
scores (`dictionaries`), and putting the level into a pack (`crossword/pack.py`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mobius.dictionaries import WordList
from mobius.generators.crossword.clues import ClueBank, fitting, seeded_pick

DEFINITION, NAME, SYNONYM, OPPOSITE, BLANK = "definition", "name", "synonym", "opposite", "blank"
CLUE_KINDS = (DEFINITION, NAME, SYNONYM, OPPOSITE, BLANK)
ALL_KINDS = frozenset(CLUE_KINDS)
DIRECT = frozenset({DEFINITION, NAME})
INDIRECT = frozenset({SYNONYM, OPPOSITE, BLANK})
BLANK_MARK = "___"
OPPOSITE_OPENING = "Opposite of "
ABBREVIATION_MARK = "(Abbr.)"
# A clue of this many words or fewer names the answer by another word (or a broader one), not by a definition.
SYNONYM_WORDS = 2
# A full name with the surname blanked: a capitalised given name, perhaps with
# a particle ("Marquis de ___", "Karl von ___"), then the blank at the end.
_NAME = re.compile(r"\b[A-Z][\w.'-]*(?: (?:von|van|de|da|du|del|della|der|di|la|le|ter))? ___$")
NAME_MIN_WORDS = 3

# Word scores (0-100, "a fan knows this"; see dictionaries/README.md): 40 is
# Zipf 3, a word met once per million words, the floor of `en-small`. Under
# it a word is *unfamiliar* in the estimate, and easy packs use none.
UNFAMILIAR_BELOW = 40
EASY_FLOOR = UNFAMILIAR_BELOW
# Hard packs prefer answers scoring under this: Zipf 3.5 and less (ADO, EBB,
# KILN, LEVEE, SALVO), which a default pack mixes with the commonest words
# (half its answers score 50 or more).
HARD_CAP = 50
# Hard packs spend this share of the worst-answer budget: 1,000 of the default
# 16,000 backtracks, enough to lift the rare answers no solver knows (under
# 30–35) but not the whole grid. The search cut at each fill climbs more slowly
# in its first backtracks than the searches begun afresh at each floor before
# it, which this share gave 600: with 600 now, seed-0 and seed-1 hard 30-packs
# had 9 and 9 worst answers under 35 (5 and 10 before), familiarity 55.0 and
# 55.6 (57.2, 56.4); with 1,000, 5 and 7, 58.3 and 56.5.
HARD_WORST_SHARE = 0.0625
# Easy packs prefer answers scoring this or more (Zipf 3.5: met three times
# per million words or more): the floor alone left a 2-puzzle easy pack with
# a lower mean score than the default's on the same seed.
EASY_PREFER = 50
# Points off a word with no clue of the level's kinds: any penalty puts it
# behind the words without one in the reference solver's value order; a few
# points weigh little against the score in the polish.
KINDLESS_PENALTY = 5

LEVEL_NAMES = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"


def clue_kind(clue: str) -> str:
    """The kind of a (non-empty) clue: definition, name, synonym, opposite or blank (see the module docstring)."""
    text = clue.replace(ABBREVIATION_MARK, "").strip()
    words = text.split()
    if BLANK_MARK in text:
        return NAME if len(words) >= NAME_MIN_WORDS and _NAME.search(text) else BLANK
    if text.startswith(OPPOSITE_OPENING):
        return OPPOSITE
    return SYNONYM if len(words) <= SYNONYM_WORDS else DEFINITION


@dataclass(frozen=True)
class Level:
    """What a level asks: answers scoring `floor` or more (with the pack's own floor if higher),
    those at `cap` or more only where needed (None: no cap), those scoring `prefer` or more
    before the others (None: no preference), clues of `kinds` where an answer
    has one, and of those the best-ranked (`best_first`) or one chosen by the puzzle's seed."""

    name: str
    floor: int = 0
    cap: int | None = None
    prefer: int | None = None  # answers scoring under this lose the points they fall short by (easy)
    kinds: frozenset[str] = ALL_KINDS
    best_first: bool = False
    # The share of the pack's worst-answer budget (`--worst`) the level spends:
    # raising every worst answer to the mid-forties would undo what makes a
    # hard pack hard (10-puzzle packs, seed 0: familiarity 64.0 against
    # medium's 65.5 with the whole budget, 50.7 with none).
    worst_share: float = 1.0


LEVELS = {"easy": Level("easy", floor=EASY_FLOOR, prefer=EASY_PREFER, kinds=DIRECT, best_first=True),
          "medium": Level("medium"),
          "hard": Level("hard", cap=HARD_CAP, kinds=INDIRECT, worst_share=HARD_WORST_SHARE)}


def choose_clue(options: Sequence[str], answer: str, seed: int, level: Level) -> str:
    """One of an answer's clues (best first) for `level`; at medium the seeded choice of `clues.py` itself."""
    preferred = tuple(clue for clue in options if clue_kind(clue) in level.kinds) or tuple(options)
    if level.best_first and preferred:
        return preferred[0]
    return seeded_pick(preferred, answer, seed)


@dataclass(frozen=True)
class LevelledClues:
    """A clue bank read at a level: the clue source of a pack's puzzles. `given`: the clues the
    pack gave each answer before, so a recurring answer gets a clue it has not had (`rotated`)."""

    bank: ClueBank
    level: Level
    given: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def clue_for(self, answer: str, seed: int, others: Collection[str] = (), taken: Collection[str] = ()) -> str:
        options = fitting(self.bank.clues_of(answer), others, taken)
        return choose_clue(rotated(options, self.given.get(answer, ())), answer, seed, self.level)


def rotated(options: Sequence[str], given: Sequence[str]) -> tuple[str, ...]:
    """The clues of `options` given least often in `given` (all of them if none was given): an
    answer's clues are used in turn, each once before any twice."""
    uses = Counter(given)
    fewest = min((uses[clue] for clue in options), default=0)
    return tuple(clue for clue in options if uses[clue] == fewest)


def answer_penalties(words: WordList, level: Level, min_score: int, bank: ClueBank | None) -> dict[str, int]:
    """Soft preferences of `level` as points off words (summed):

    - each word scoring `level.cap` or more loses enough to be worth
      `min_score` − 1, less than any word the fill may use, and among the
      penalised words the least known come first;
    - each word scoring under `level.prefer` loses the points it falls short
      by, so the solver tries the words over it first and then the best known;
    - with a clue bank, a word with no clue of the level's kinds loses
      `KINDLESS_PENALTY`: the reference solver tries it only after the words
      that have one, so the level's clues are not left to chance.

    {} at medium, which prefers nothing."""
    penalties: dict[str, int] = {}
    for word in words.words:
        score = words.score(word)
        points = score - min_score + 1 if level.cap is not None and score >= level.cap else 0
        if level.prefer is not None and score < level.prefer:
            points += level.prefer - score
        if bank is not None and level.kinds != ALL_KINDS and \
                not any(clue_kind(clue) in level.kinds for clue in bank.clues_of(word)):
            points += KINDLESS_PENALTY
        if points:
            penalties[word] = points
    return penalties


def add_penalties(base: Mapping[str, int], extra: Mapping[str, int]) -> dict[str, int]:
    """`base` with `extra` added word by word (`base` itself, as a dict, when `extra` is empty)."""
    merged = dict(base)
    for word, points in extra.items():
        merged[word] = merged.get(word, 0) + points
    return merged


# -- the estimate ---------------------------------------------------------------------------

def puzzle_difficulty(entries: Sequence[Mapping[str, Any]], level: str) -> dict[str, Any]:
    """A puzzle's difficulty: the level asked and what its entries show (see `figures`)."""
    return {"level": level, **figures(entries)}


def figures(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Answer familiarity (mean score; share under UNFAMILIAR_BELOW) and the clue-kind mix:
    the count of each kind, and the share of clues that are indirect."""
    n = len(entries)
    kinds = Counter(clue_kind(e["clue"]) for e in entries if e["clue"].strip())
    clued = sum(kinds.values())
    return {"familiarity": round(sum(e["score"] for e in entries) / n, 2) if n else 0.0,
            "unfamiliar_share": round(sum(1 for e in entries if e["score"] < UNFAMILIAR_BELOW) / n, 4) if n else 0.0,
            "clue_kinds": {kind: kinds[kind] for kind in CLUE_KINDS},
            "indirect_share": round(sum(kinds[k] for k in INDIRECT) / clued, 4) if clued else 0.0}


def pack_difficulty(puzzles: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per level asked (in LEVEL_NAMES order), the figures over all its puzzles' entries and how many puzzles."""
    by_level: dict[str, list[Mapping[str, Any]]] = {}
    for puzzle in puzzles:
        level = (puzzle.get("difficulty") or {}).get("level")
        if level:
            by_level.setdefault(level, []).append(puzzle)
    order = sorted(by_level, key=lambda name: (LEVEL_NAMES.index(name) if name in LEVEL_NAMES else len(LEVEL_NAMES),
                                               name))
    return {level: {"puzzles": len(by_level[level]),
                    **figures([e for p in by_level[level] for e in p["entries"]])} for level in order}


def difficulty_summary(levels: Mapping[str, Mapping[str, Any]]) -> str:
    """"hard: familiarity 44.1 (38% under 40); clues 30% definition, 55% synonym, …": one clause per level."""
    return "; ".join(f"{level}: familiarity {f['familiarity']:.1f} ({f['unfamiliar_share']:.0%} under "
                     f"{UNFAMILIAR_BELOW}), clues {kind_mix(f['clue_kinds'])}" for level, f in levels.items())


def kind_mix(counts: Mapping[str, int]) -> str:
    """"30% definition, 55% synonym, 15% blank": the kinds present, as shares of the clues."""
    total = sum(counts.values())
    return ", ".join(f"{n / total:.0%} {kind}" for kind, n in counts.items() if n) if total else "none"
