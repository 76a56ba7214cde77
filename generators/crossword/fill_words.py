"""The words a crossword fill is drawn from, and the account of how a word list became them.

Covers: `fill_words` — a word list (`mobius.dictionaries.load`) with the `--allow`
words added, then the words below `--min-score`, the `--ban` words and, only
when asked (`clued_only`), the words a clue bank cannot clue taken out — and
`WordUse`, the result with its counts (`given`, `added`, `dropped` by
reason, `used`, `clued`), which `mobius crossword fill --json` and the pack
manifest print as they are, and the phrase naming what a fill was drawn
from ("the clued words of LIST"), which every no-fill message uses, so an
UNSAT never hides a filter.

Leaves out: reading and normalising lists (`dictionaries`), the clue bank
itself (`clues.py`), and choosing whether a fill is clued-only (the
commands: a user's own list is used whole by `crossword fill` unless asked
otherwise; a pack, whose entries all need a clue, keeps to the clued words).
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mobius.dictionaries import DictionaryError, ListContent, WordList, adjusted, load
from mobius.dictionaries.list_format import PLAIN_SCORE

# Why a word of the list is not used, in the order the filters apply (a word is counted under the first),
# and how a line of text says it.
BELOW_MIN_SCORE, BANNED, NO_CLUE = "below_min_score", "banned", "no_clue"
REASON_TEXT = {BELOW_MIN_SCORE: "below --min-score", BANNED: "banned", NO_CLUE: "without a clue"}


@dataclass(frozen=True)
class WordUse:
    """The words a fill may use (`words`) and how `list_name` became them.

    `given` counts the list's distinct words after normalising (entries that
    are no word, and repeats, are not counted); `added` the `--allow` words
    missing from it at `--min-score` (added with score 50); `dropped` maps
    each reason to the words it took out; `clued` is the number of used
    words with a clue (None without a clue bank).
    `listed` is the list before the clue filter (`words` itself unless
    `clued_only`), for checking that the list has every length a grid needs."""

    list_name: str
    words: WordList
    listed: WordList
    given: int
    added: int
    dropped: Mapping[str, int]
    clued_only: bool
    clued: int | None

    @property
    def used(self) -> int:
        return len(self.words)

    @property
    def unclued_dropped(self) -> int:
        """Words of the list left out for want of a clue (only with `clued_only`)."""
        return self.dropped.get(NO_CLUE, 0)

    @property
    def source(self) -> str:
        """What a fill is drawn from, for messages: "the clued words of LIST" or "the words of LIST"."""
        return f"the {'clued ' if self.clued_only else ''}words of {self.list_name}"

    def to_json(self) -> dict[str, Any]:
        return {"list": self.list_name, "given": self.given, "added": self.added, "used": self.used,
                "dropped": {reason: count for reason, count in self.dropped.items() if count},
                "clued_only": self.clued_only, "clued": self.clued}

    def summary(self) -> str:
        """One line: how many words are used, of how many, and why the others are not."""
        why = _reasons(self.dropped)
        added = f" + {self.added:,} from --allow" if self.added else ""
        return (f"words: {self.used:,} used of the {self.given:,}{added} of {self.list_name}"
                + (f" ({why})" if why else "")
                + (f"; {self.clued:,} of them have a clue" if self.clued is not None and not self.clued_only else ""))


@lru_cache(maxsize=8)
def fill_words(source: str | ListContent | WordList, list_name: str, *, min_score: int = 0,
               allow: frozenset[str] = frozenset(), ban: frozenset[str] = frozenset(),
               bank: Container[str] | None = None, clued_only: bool = False, spelling: str = "american") -> WordUse:
    """The words of `source` a fill may use, with the account of the others (see `WordUse`).

    `bank` (hashable; a `clues.ClueBank`) counts the used words with a clue,
    and with `clued_only` keeps to them; `spelling` (american or british)
    chooses the embedded lists' spelling. DictionaryError when no word is
    left, naming the list and what took the words out."""
    if clued_only and bank is None:
        raise ValueError("clued_only needs a clue bank")
    full = load(source, spelling=spelling)  # `spelling` picks the embedded lists' variants; a user's list is whole
    scored = load(source, min_score=min_score, spelling=spelling)  # cached, like `full`; refused if no word scores that high
    fresh = frozenset(word for word in allow if word not in scored)  # --allow adds these at PLAIN_SCORE
    kept_fresh = fresh if PLAIN_SCORE >= min_score else frozenset()
    dropped = {BELOW_MIN_SCORE: len(full) - len(scored) + len(fresh) - len(kept_fresh),
               BANNED: sum(1 for word in ban if word in scored or word in kept_fresh), NO_CLUE: 0}
    if len(scored) + len(kept_fresh) == dropped[BANNED]:
        raise _none_left(list_name, len(full) + len(fresh), dropped)
    listed = adjusted(scored, allow=kept_fresh, ban=ban)  # `scored` itself when neither changes it
    if bank is None:
        return WordUse(list_name, listed, listed, len(full), len(fresh), dropped, False, None)
    clued = frozenset(word for word in listed.words if word in bank)
    if not clued_only:
        return WordUse(list_name, listed, listed, len(full), len(fresh), dropped, False, len(clued))
    dropped[NO_CLUE] = len(listed) - len(clued)
    if not clued:
        raise _none_left(list_name, len(full) + len(fresh), dropped)
    return WordUse(list_name, adjusted(listed, keep=clued), listed, len(full), len(fresh), dropped, True, len(clued))


def _none_left(list_name: str, total: int, dropped: Mapping[str, int]) -> DictionaryError:
    return DictionaryError(f"{list_name}: none of its {total:,} words is left to fill with ({_reasons(dropped)})")


def _reasons(dropped: Mapping[str, int]) -> str:
    """"12 below --min-score, 3 without a clue": the reasons that took words out."""
    return ", ".join(f"{count:,} {REASON_TEXT[reason]}" for reason, count in dropped.items() if count)
