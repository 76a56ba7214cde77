"""How evenly a pack gives a recurring answer its clues: none twice while another was left.

Reads each pack folder named (its `puzzles/*.json`) and prints one line a pack: its entries,
the answers that recur, their recurrences, and the answers given one clue at least twice more
often than another of their clues in the embedded bank — a clue repeated while another was
left, whatever order the pack made its puzzles in (a puzzle tried again joins the pack after
later ones). A grid may refuse a clue that names another of its answers, so each such answer
is listed for a reader to look at. Run with the pack folders:

    python -m benchmarks.clue_rotation PACK…

Leaves out: making the packs (the commands are in RESULTS.md) and whether the clues are good.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from mobius.generators.crossword.clues import load_bank


def rotation_line(pack: Path) -> str:
    bank = load_bank()
    given: dict[str, Counter[str]] = {}
    for path in sorted((pack / "puzzles").glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8"))["entries"]:
            given.setdefault(entry["answer"], Counter())[entry["clue"]] += 1
    recurring = {answer: uses for answer, uses in given.items() if uses.total() > 1}
    uneven = sorted(answer for answer, uses in recurring.items()
                    if max(uses.values()) - min(uses[clue] for clue in bank.clues_of(answer)) >= 2)
    return (f"{pack}: {sum(uses.total() for uses in given.values())} entries, {len(recurring)} answers recur, "
            f"{sum(uses.total() - 1 for uses in recurring.values())} recurrences, {len(uneven)} answers given a "
            f"clue twice while another was left{': ' + ', '.join(uneven) if uneven else ''}")


if __name__ == "__main__":
    for folder in sys.argv[1:]:
        print(rotation_line(Path(folder)))
