"""Plane packs keep the American rules — checked by this test's own reading
of the puzzle files, never by the generator or its checker, on a pack of
each size a publisher prints (5×5 and 7×7 minis, a 9×9 midi, a 15×15
daily, a 21×21 Sunday): the symmetry (180° on dailies; a half turn, a
mirror or the diagonal on minis), at most 78 words on 15×15 and 140 on
21×21, at most a sixth of the cells blocks (a quarter on minis), lights of 3
or more letters with every white cell in an across and a down light, white
cells connected, no 2×2 square of blocks (but in a mini's corners), no row
or column all blocks, each puzzle its own grid; and the summary says nothing
of seams. The rules' values by size, the Sunday's score floor and the
independent checker's two new rules are checked here too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobius.cpmodel.crossword.grid import make_grid
from mobius.generators.crossword.american import word_cap
from mobius.generators.crossword.difficulty import answer_penalties
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.crossword.pattern_check import check_pattern
from mobius.generators.crossword.pattern_rules import PatternSpec
from mobius.generators.crossword.patterns import generate_pattern

Rows = list[str]


def runs(rows: Rows) -> list[list[tuple[int, int]]]:
    """Every maximal run of white cells, across then down, as its cells."""
    h, w = len(rows), len(rows[0])
    found = []
    for lines in ([[(x, y) for x in range(w)] for y in range(h)], [[(x, y) for y in range(h)] for x in range(w)]):
        for line in lines:
            current: list[tuple[int, int]] = []
            for x, y in line + [(-1, -1)]:
                if x >= 0 and rows[y][x] != "#":
                    current.append((x, y))
                elif current:
                    found.append(current)
                    current = []
    return found


def connected(rows: Rows) -> bool:
    white = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "#"}
    seen, stack = set(), [min(white)]
    while stack:
        x, y = stack.pop()
        if (x, y) in seen or (x, y) not in white:
            continue
        seen.add((x, y))
        stack += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    return seen == white


def block_squares(rows: Rows) -> int:
    return sum(1 for y in range(len(rows) - 1) for x in range(len(rows[0]) - 1)
               if rows[y][x] == rows[y][x + 1] == rows[y + 1][x] == rows[y + 1][x + 1] == "#")


def symmetric(rows: Rows) -> set[str]:
    """The symmetries the blocks keep: a half turn, a mirror (left–right), the diagonal."""
    h, w = len(rows), len(rows[0])
    blocks = {(x, y) for y in range(h) for x in range(w) if rows[y][x] == "#"}
    images = {"rot180": {(w - 1 - x, h - 1 - y) for x, y in blocks}, "mirror": {(w - 1 - x, y) for x, y in blocks},
              "diagonal": {(y, x) for x, y in blocks} if w == h else set()}
    return {name for name, image in images.items() if image == blocks}


# (side, puzzles, the rules: the symmetries allowed, the most words, whether 2×2 squares of blocks may stand,
# the largest share of blocks)
SIZES = [(5, 3, {"rot180", "mirror", "diagonal"}, None, True, 1 / 4),
         (7, 3, {"rot180", "mirror", "diagonal"}, None, True, 1 / 4),
         (9, 2, {"rot180"}, 37, False, 1 / 6),
         (15, 2, {"rot180"}, 78, False, 1 / 6),
         (21, 1, {"rot180"}, 140, False, 1 / 6)]


def assert_american(rows: Rows, symmetries: set[str], most_words: int | None, squares: bool,
                    block_share: float) -> list[list[tuple[int, int]]]:
    """Every rule of the size, read from the rows alone; the lights."""
    side = len(rows)
    assert {len(row) for row in rows} == {side}
    assert symmetric(rows) & symmetries, rows
    assert sum(row.count("#") for row in rows) <= side * side * block_share
    lights = runs(rows)
    # runs of 1 or 2 would be unchecked cells or lights too short: none at all
    assert min(len(run) for run in lights) >= 3
    assert most_words is None or len(lights) <= most_words
    assert connected(rows)
    assert squares or block_squares(rows) == 0
    assert all(set(row) != {"#"} for row in rows)  # no row all blocks
    assert all(any(row[x] != "#" for row in rows) for x in range(side))  # nor any column
    return lights


@pytest.mark.slow  # a pack of each size: several minutes on 2 cores
@pytest.mark.parametrize(("side", "count", "symmetries", "most_words", "squares", "block_share"), SIZES,
                         ids=[f"{side}x{side}" for side, *_ in SIZES])
def test_plane_packs_print_the_grids_publishers_print(tmp_path: Path, side: int, count: int, symmetries: set[str],
                                                      most_words: int | None, squares: bool,
                                                      block_share: float) -> None:
    out = tmp_path / "pack"
    result = subprocess.run([sys.executable, "-m", "mobius", "pack", "crossword", "--surface", "plane", "--width",
                             str(side), "--height", str(side), "--count", str(count), "--seed", "3", "--out", str(out)],
                            capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr
    assert "seam" not in result.stderr.lower()
    manifest = json.loads((out / "manifest.json").read_text())
    assert not [key for key in manifest["quality"] if "seam" in key]
    puzzles = [json.loads(path.read_text()) for path in sorted((out / "puzzles").glob("*.json"))]
    assert len(puzzles) == count
    patterns = set()
    for puzzle in puzzles:
        rows = puzzle["rows"]
        lights = assert_american(rows, symmetries, most_words, squares, block_share)
        assert len(lights) == len(puzzle["entries"])
        letters = {"".join(rows[y][x] for x, y in run) for run in lights}
        assert letters == {e["answer"] for e in puzzle["entries"]}
        assert "seam_lights" not in puzzle["quality"]
        patterns.add(tuple("".join("#" if ch == "#" else "." for ch in row) for row in rows))
    assert len(patterns) == count  # every puzzle a grid of its own


def test_a_sunday_reaches_down_to_25_where_its_grid_needs_it() -> None:
    sunday = CrosswordPackSpec(count=1, width=21, height=21, surface="plane")
    assert (sunday.fill_min_score, sunday.level.prefer, sunday.parameters()["min_score"]) == (25, 30, 25)
    penalties = answer_penalties(sunday.words(), sunday.level, sunday.fill_min_score, None)
    scores = {word: sunday.words().score(word) for word in sunday.words().words}
    assert min(scores.values()) == 25
    assert all(penalties.get(word, 0) == max(0, 30 - score) for word, score in scores.items())
    # below the Sunday's size, on a glued surface, or with --min-score given, the floor holds everywhere
    for spec in (CrosswordPackSpec(count=1, width=15, height=15, surface="plane"),
                 CrosswordPackSpec(count=1, width=23, height=21, surface="torus"),
                 CrosswordPackSpec(count=1, width=21, height=21, surface="plane", min_score=30)):
        assert (spec.fill_min_score, spec.level.prefer) == (30, None)


def test_the_word_cap_scales_by_area_and_small_grids_by_their_edges() -> None:
    assert [word_cap(n, n) for n in (15, 13)] == [78, 58]  # ⌊78·W·H/225⌋
    assert [word_cap(n, n) for n in (21, 19, 17)] == [140, 117, 96]  # the Sunday's cap, and the line to it
    assert [word_cap(n, n) for n in (11, 9, 7)] == [45, 37, 29]  # ⌊62.4·(W+H)/30⌋ beats the area rule
    assert all(word_cap(w, h) >= w + h for w in range(3, 24) for h in range(3, 24))  # an open grid's lights


def test_plane_packs_default_to_the_american_rules_and_others_keep_theirs() -> None:
    plane = CrosswordPackSpec(count=1, width=15, height=15, surface="plane").pattern_spec()
    assert (plane.symmetry, plane.max_words, plane.max_block_squares, plane.density[1]) == ("rot180", 78, 0, 1 / 6)
    free = CrosswordPackSpec(count=1, width=15, height=15, surface="plane", symmetry="none", max_words=72)
    assert (free.pattern_spec().symmetry, free.pattern_spec().max_words) == ("none", 72)
    mini = CrosswordPackSpec(count=1, width=7, height=7, surface="plane").pattern_spec()
    assert (mini.symmetry, mini.max_words, mini.max_block_squares, mini.allow_clutter, mini.max_short_share) == \
        ("any", None, None, True, 0.4)
    strip = CrosswordPackSpec(count=1, width=11, height=5).pattern_spec()
    assert (strip.symmetry, strip.max_words, strip.max_block_squares) == ("none", None, None)
    assert "max_words" not in CrosswordPackSpec(count=1, width=11, height=5).parameters()


def test_the_checker_counts_words_and_block_squares() -> None:
    rows = ["##...", "##...", ".....", "...##", "...##"]
    grid = make_grid(rows, "plane")
    spec = PatternSpec(5, 5, "plane", density=(0.0, 1.0), max_block_squares=0, max_words=9)
    problems = check_pattern(grid, spec)
    assert [p.split(":")[0] for p in problems] == ["words", "clumps"], problems
    assert "2 2x2 squares" in problems[1] and "(0, 0)" in problems[1] and "(3, 3)" in problems[1]
    allowed = PatternSpec(5, 5, "plane", density=(0.0, 1.0), max_block_squares=2, max_words=10)
    assert check_pattern(grid, allowed) == []


def test_a_capped_spec_gets_a_grid_within_every_rule() -> None:
    spec = PatternSpec(9, 9, "plane", symmetry="rot180", density=(0.1, 1 / 6), max_words=word_cap(9, 9),
                       max_block_squares=0, max_short_share=0.25, allow_clutter=False)
    grid = generate_pattern(spec, 5)
    assert check_pattern(grid, spec) == []
    assert generate_pattern(spec, 5) == grid  # the same seed, the same grid
