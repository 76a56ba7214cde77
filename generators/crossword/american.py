"""American-style grids on the plane: the rules publishers keep.

Covers `american_rules(width, height)`: the `PatternSpec` values of a plane
pack (besides the defaults every pack has: lights of 3 or more letters,
every white cell checked, white cells connected, no row or column all
blocks). Minis, up to `MINI_SIDE` cells a side: symmetric under a half
turn, a mirror or the diagonal, at most a quarter of the cells blocks, 2×2
squares of blocks allowed (corners), no word cap, at most two words in five
of three letters and rows of short words allowed. Larger grids, the midis and
dailies and Sundays:

- 180° rotational symmetry;
- at most one block in six (37 on 15×15, 16.4 %; the New York Times asks
  for "about a sixth");
- at most `STANDARD_WORDS` = 78 words on 15×15 (the cap of a themed daily)
  and `SUNDAY_WORDS` = 140 on 21×21 (the Sunday's), scaled by area for
  other sizes — ⌊78 · W·H / 225⌋ below 15×15 (58 on 13×13), the line through
  the two caps above it (117 on 19×19) — but never below
  ⌊EDGE_WORDS · (W + H)⌋: a small grid's lights are cut by its border as much
  as by its blocks, so the area rule is too strict there; 45 on 11×11, 37
  on 9×9;
- no 2×2 square of blocks. Published grids seldom have one and never the
  corner clumps of three by three a generator left free makes; the spec's
  `max_block_squares` can allow a few;
- lights of at most `LONGEST_LIGHT` = 10 letters (a pack's choice rather
  than a publisher's rule: a 15-letter light fills rarely from the embedded
  list; `--max-length` asks for more);
- from the Sunday's size up, a fill may reach down to answers scored
  `SUNDAY_FLOOR` = 25 where its grid needs them (`reach_floor`): under its
  140-word cap a Sunday's lights are long, and the words met in print alone
  (score 30 and up) fill few such grids.

The grids themselves come from the constructive search, annealed for fill
(`patterns.py`, `pattern_anneal.py`), as every word-capped spec's do.

Leaves out: the rules' definitions and the checks of a finished grid
(`pattern_rules.py`, `pattern_check.py`), and how a pack chooses among grids
(`crossword/plan.py`).
"""

from __future__ import annotations

from typing import Any

# The word cap of a 15×15 daily (themed; themeless ones keep to 72), scaled by area.
STANDARD_WORDS = 78
STANDARD_CELLS = 15 * 15
# The word cap of a 21×21 Sunday; between the two sizes, and beyond, the cap grows with the area at the
# pace the two set.
SUNDAY_WORDS = 140
SUNDAY_CELLS = 21 * 21
# The least cap per row and column: four fifths of the 15×15 cap's (78 / 30), so the area rule
# still decides from 13×13 up (figures: benchmarks/RESULTS.md, "Small plane grids").
EDGE_WORDS = 0.8 * STANDARD_WORDS / 30
# At most one block in six, as the published grids keep.
BLOCK_SHARE = 1 / 6
# The least share of blocks: the fill estimate the grids are annealed by takes blocks up to the
# ceiling, so the floor only keeps a spec from meaning an open grid.
BLOCK_FLOOR = 0.10
# Minis: grids of at most this many cells a side keep the rules of the published minis (the New York
# Times' 5×5 and 7×7): symmetric in any of the ways a square allows, blocks in the corners (2×2 squares
# of them too), at most a quarter of the cells blocks, no word cap, rows such as three letters, a
# block, three letters, and up to two words in five of three letters — a 5×5 with its corners blocked
# has four of its ten. The space and how much of it fills: benchmarks/RESULTS.md, "Grids drawn for fill".
MINI_SIDE = 8
MINI_BLOCK_SHARE = 0.25
MINI_SHORT_SHARE = 0.4
# The least score a Sunday-size grid's fill may reach down to where the grid needs it (the pack prefers
# the words met in print, 30 and up, everywhere else). At 30 alone, drawn 21×21 grids filled 0 of 16 at the
# pack's budget and the Sunday packs of seeds 0–2 made 4 of 9 puzzles in 42 minutes; reaching to 25, all 9
# in 4 minutes (benchmarks/RESULTS.md, "Sundays that fill").
SUNDAY_FLOOR = 25
# The longest light by default: longer lights make grids the reference
# solver cannot fill (figures: benchmarks/RESULTS.md, "Figures behind constants").
LONGEST_LIGHT = 10


def word_cap(width: int, height: int) -> int:
    """The most words a W×H American grid may have (see the module docstring)."""
    cells = width * height
    if cells <= STANDARD_CELLS:
        by_area = STANDARD_WORDS * cells // STANDARD_CELLS
    else:  # on from the daily's cap at the Sunday's pace
        by_area = STANDARD_WORDS + (SUNDAY_WORDS - STANDARD_WORDS) * (cells - STANDARD_CELLS) // (
            SUNDAY_CELLS - STANDARD_CELLS)
    return max(int(EDGE_WORDS * (width + height)), by_area)


def reach_floor(width: int, height: int) -> int | None:
    """The least word score a W×H American grid's fill may reach down to where the grid needs it, or None
    where the pack's own floor holds everywhere (below the Sunday's size)."""
    return SUNDAY_FLOOR if width * height >= SUNDAY_CELLS else None


def american_rules(width: int, height: int) -> dict[str, Any]:
    """`PatternSpec` keyword values of the American rules for a W×H plane grid: a mini's up to
    `MINI_SIDE` cells a side, else a daily's."""
    if max(width, height) <= MINI_SIDE:
        return {"symmetry": "any", "density": (0.0, MINI_BLOCK_SHARE), "max_words": None, "max_block_squares": None,
                "max_length": max(width, height), "allow_clutter": True, "max_short_share": MINI_SHORT_SHARE}
    return {"symmetry": "rot180", "density": (BLOCK_FLOOR, BLOCK_SHARE), "max_words": word_cap(width, height),
            "max_block_squares": 0, "max_length": min(LONGEST_LIGHT, max(width, height))}
