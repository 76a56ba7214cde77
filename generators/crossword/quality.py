"""The quality report of crossword puzzles and packs.

Covers: `puzzle_quality(puzzle)`, the figures a puzzle file carries under
`quality` — entries, the share with a clue, mean entry score, the share of
three-letter entries, the plural-S entries (`plural_s`), the share of cells that are blocks, lights across a
seam (on a surface that has one: a plane puzzle has no seam to count), the
lowest-scored entry — all read from the puzzle's own entries and rows, so
anyone can recompute them; `pack_quality(puzzles)`, the same summed over a
pack for the manifest (the block share and the plural-S count as the puzzles' mean and their most,
with each puzzle's lowest-scored entry, its worst answer, by puzzle id, their
median, the word families whose answers stand in two puzzles or more
(`word_family.families_of`), how many puzzles carry a `worst_answer` record — the bound
`worst_answer.py` proved — and how many of those are proven optimal, and
per difficulty level the answers' familiarity and the clue-kind mix, from
`difficulty.pack_difficulty`, and the clues `mobius clues check` would flag
for their text or as an echo of another clue of their grid); `worst_answer_agrees`, the check of that
record against the entries; and `summary_line`, the line `mobius pack
crossword` prints at the end (with `difficulty_line`, the levels' line).

Leaves out: the rules a puzzle must keep (the pattern checker and the
verifier judge those; a puzzle breaking them is never written, so never
counted here).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from mobius.cpmodel.crossword.grid import BLOCK
from mobius.cpmodel.surface import surface
from mobius.dictionaries.clue_usage import is_s_plural
from mobius.generators.crossword.difficulty import difficulty_summary, pack_difficulty
from mobius.generators.crossword.word_family import families_of

THREE = 3  # the length the three-letter share counts
PLURAL_S = "plural-S entries"  # what `plural_s` counts, in messages


def lowest_entry(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The worst answer: the lowest-scored entry (ties by answer) as `{"answer", "score"}`, None if none."""
    lowest = min(entries, key=lambda e: (e["score"], e["answer"])) if entries else None
    return {"answer": lowest["answer"], "score": lowest["score"]} if lowest else None


def puzzle_quality(puzzle: Mapping[str, Any]) -> dict[str, Any]:
    entries = puzzle["entries"]
    n = len(entries)
    seams = {"seam_lights": sum(1 for e in entries if e["seam_crossings"] > 0)} if _has_seam(puzzle) else {}
    return {
        "entries": n,
        "clued_share": round(sum(1 for e in entries if e["clue"].strip()) / n, 4) if n else 0.0,
        "mean_score": round(sum(e["score"] for e in entries) / n, 2) if n else 0.0,
        "three_letter_share": round(sum(1 for e in entries if len(e["answer"]) == THREE) / n, 4) if n else 0.0,
        "plural_s": plural_s(entries),
        "block_share": block_share(puzzle),
        **seams,
        "lowest": lowest_entry(entries),
    }


def plural_s(entries: Sequence[Mapping[str, Any]]) -> int:
    """How many entries are plural-S (VETS, STEALS: `clue_usage.is_s_plural`), which a grid caps."""
    return sum(1 for e in entries if is_s_plural(e["answer"]))


def block_share(puzzle: Mapping[str, Any]) -> float:
    """The share of a puzzle's cells that are blocks (a barred grid has none)."""
    rows = puzzle["rows"]
    cells = sum(len(row) for row in rows)
    return round(sum(row.count(BLOCK) for row in rows) / cells, 4) if cells else 0.0


def _has_seam(puzzle: Mapping[str, Any]) -> bool:
    return surface(puzzle["surface"]).has_seam


def pack_quality(puzzles: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The puzzles' quality summed: shares and means over all entries of the pack."""
    entries = [e for p in puzzles for e in p["entries"]]
    n = len(entries)
    seams = [sum(1 for e in p["entries"] if e["seam_crossings"] > 0) for p in puzzles if _has_seam(p)]
    shares = [block_share(p) for p in puzzles]
    return {
        "puzzles": len(puzzles),
        "entries": n,
        "clued_share": round(sum(1 for e in entries if e["clue"].strip()) / n, 4) if n else 0.0,
        "mean_score": round(sum(e["score"] for e in entries) / n, 2) if n else 0.0,
        "three_letter_share": round(sum(1 for e in entries if len(e["answer"]) == THREE) / n, 4) if n else 0.0,
        # plural-S entries: the most in one puzzle, and the mean
        "plural_s_max": max((plural_s(p["entries"]) for p in puzzles), default=0),
        "plural_s_mean": round(sum(plural_s(p["entries"]) for p in puzzles) / len(puzzles), 2) if puzzles else 0.0,
        # blocks per cell, over the puzzles: editors look at the mean and at the choppiest grid
        "block_share_mean": round(sum(shares) / len(shares), 4) if shares else 0.0,
        "block_share_max": max(shares, default=0.0),
        # a pack of plane puzzles has no seam to count (an empty pack keeps the figures, at 0)
        **({"seam_lights_min": min(seams) if seams else 0,
            "seam_lights_mean": round(sum(seams) / len(seams), 2) if seams else 0.0} if seams or not puzzles else {}),
        "distinct_answers": len({e["answer"] for e in entries}),
        # answers of one word family in two puzzles (USE and USED): within a puzzle the fill bars them
        "families_twice": families_of(e["answer"] for e in entries),
        # clues breaking a rule of `mobius clues check` (the text rules: any word list may fill;
        # and the echoes between one grid's clues)
        "flagged_clues": _flagged_clues(puzzles),
        "lowest": lowest_entry(entries),
        # each puzzle's worst answer, by puzzle id, read from its own entries
        "lowest_by_puzzle": {p["id"]: lowest_entry(p["entries"]) for p in puzzles},
        "difficulty": pack_difficulty(puzzles),
        **_worst_answers(puzzles),
    }


def _worst_answers(puzzles: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The median worst answer's score and, over the puzzles whose worst answer
    was raised (`worst_answer` in the puzzle), how many are proven optimal."""
    lowest = [lowest_entry(p["entries"]) for p in puzzles if p["entries"]]
    raised = [p["worst_answer"] for p in puzzles if "worst_answer" in p]
    return {"lowest_median": statistics.median(e["score"] for e in lowest) if lowest else 0,
            "worst_answer_raised": len(raised),
            "worst_answer_optimal": sum(1 for r in raised if r["optimal"])}


def worst_answer_agrees(puzzle: Mapping[str, Any]) -> bool:
    """A puzzle's `worst_answer` record (if any) names its lowest-scored entry,
    a bound no lower than its score, and is optimal exactly when they meet."""
    record = puzzle.get("worst_answer")
    if record is None:
        return True
    lowest = lowest_entry(puzzle["entries"]) or {}
    return (record["answer"], record["score"]) == (lowest.get("answer"), lowest.get("score")) \
        and record["bound"] >= record["score"] and record["optimal"] == (record["bound"] == record["score"])


def _flagged_clues(puzzles: Sequence[Mapping[str, Any]]) -> int:
    """The clues `mobius clues check` would flag: for their text, or as an echo of another clue of their grid."""
    from mobius.dictionaries.clue_check import clue_text_flags, grid_flags

    flagged = 0
    for puzzle in puzzles:
        clued = [(e["answer"], e["clue"]) for e in puzzle["entries"] if e["clue"].strip()]
        echoes = {index for index, _flag in grid_flags(clued)}
        flagged += sum(1 for index, (answer, clue) in enumerate(clued)
                       if index in echoes or clue_text_flags(answer, clue))
    return flagged


def summary_line(quality: Mapping[str, Any]) -> str:
    """The line `pack` prints; a pack with no light across a seam (a plane pack) is not told of seams."""
    lowest = quality.get("lowest") or {"answer": "-", "score": 0}
    seams = f"seam lights >= {quality['seam_lights_min']} per puzzle, " if quality.get("seam_lights_mean") else ""
    return (f"quality: {quality['puzzles']} puzzles, {quality['entries']} entries "
            f"({quality['distinct_answers']} distinct), {quality['clued_share']:.0%} clued, "
            f"{quality['block_share_mean']:.0%} blocks (at most {quality['block_share_max']:.0%} a grid), mean score "
            f"{quality['mean_score']:.1f}, {quality['three_letter_share']:.0%} three-letter, {_plurals(quality)}"
            f"{seams}lowest {lowest['answer']} ({lowest['score']}){_raised(quality)}{_families(quality)}")


def _plurals(quality: Mapping[str, Any]) -> str:
    """The summary's words on plural-S entries (none for an older manifest without them)."""
    most = quality.get("plural_s_max")
    return "" if most is None else f"at most {most} plural-S a grid, "


def _families(quality: Mapping[str, Any]) -> str:
    """The summary's words on word families used twice (none said for an older manifest without them)."""
    families = quality.get("families_twice")
    if families is None:
        return ""
    shown = "; ".join("/".join(family) for family in families[:3])
    return f", {len(families)} word famil{'y' if len(families) == 1 else 'ies'} twice" + (
        f" ({shown}{', …' if len(families) > 3 else ''})" if families else "")


def _raised(quality: Mapping[str, Any]) -> str:
    """The summary's words on raised worst answers, if the pack raised any."""
    raised = quality.get("worst_answer_raised")
    if not raised:
        return ""
    return (f", worst answer median {quality['lowest_median']:g}, "
            f"proven optimal in {quality['worst_answer_optimal']}/{raised}")


def difficulty_line(quality: Mapping[str, Any]) -> str:
    """The levels' line `pack` prints: familiarity and clue kinds per level ("" for puzzles made without one)."""
    levels = quality.get("difficulty")
    return f"difficulty {difficulty_summary(levels)}" if levels else ""
