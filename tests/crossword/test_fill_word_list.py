"""`mobius crossword fill --dict LIST` fills from the whole list it is given:
words without a clue are used (printed with an empty clue) unless
`--clued-only` asks otherwise, an UNSAT names what it was drawn from, and
`--json` accounts for the list's words."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mobius.cpmodel.crossword.grid import read_grid
from mobius.cpmodel.crossword.lights import DEFAULT_MIN_LENGTH
from mobius.cpmodel.crossword.problem import FillProblem, FillRules
from mobius.cpmodel.crossword.verify import verify
from mobius.dictionaries import from_words, load
from mobius.generators.crossword.clues import load_bank
from mobius.generators.crossword.fill_words import fill_words

# A Klein bottle grid with lights across both seams and three cyclic columns.
KLEIN = "surface: klein\n#..#..\n......\n..#...\n......\n"
# Letters no English word is made of alone, so no clue bank can clue the words they spell.
NONSENSE = "QXJZ"


def mobius(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def klein(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str], list[str]]:
    """The grid, a word list for it, the list's unclued words and its clued ones.

    The unclued words are the lights of one seeded grid of nonsense letters,
    so they fill the grid together; the clued words are real words of `en`,
    one fewer of each length than the grid has lights of that length, so
    (no word filling two lights) every fill needs an unclued word."""
    folder = tmp_path_factory.mktemp("klein")
    grid_path = folder / "klein.txt"
    grid_path.write_text(KLEIN, encoding="utf-8")
    grid = read_grid(grid_path)
    rng = random.Random(7)
    letters = {cell: rng.choice(NONSENSE) for cell in grid.white_cells()}
    unclued = FillProblem(grid, from_words(["Q"]), FillRules()).entries(letters)
    bank = load_bank()
    assert len(set(unclued)) == len(unclued) and not any(word in bank for word in unclued)
    lengths = Counter(len(word) for word in unclued)
    clued = [word for length, lights in sorted(lengths.items())
             for word in [w for w in load("en").by_length(length) if w in bank][:lights - 1]]
    words = folder / "mine.txt"
    words.write_text("\n".join(unclued + clued) + "\n", encoding="utf-8")
    return grid_path, words, unclued, clued


@pytest.mark.parametrize("solver", ["reference", "cpsat"])
def test_a_fill_uses_words_without_a_clue(klein: tuple[Path, Path, list[str], list[str]], solver: str) -> None:
    grid_path, words, unclued, clued = klein
    run = mobius("crossword", "fill", grid_path, "--dict", words, "--solver", solver, "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "SOLVED" and out["note"] is None
    assert out["words"] == {"list": str(words), "given": len(unclued) + len(clued), "added": 0,
                            "used": len(unclued) + len(clued), "dropped": {}, "clued_only": False,
                            "clued": len(clued)}
    # The independent verifier, on the list as the user wrote it.
    grid = read_grid(grid_path)
    fill = {(x, y): ch for y, row in enumerate(out["rows"]) for x, ch in enumerate(row) if ch != "#"}
    assert verify(FillProblem(grid, load(words), FillRules(min_length=DEFAULT_MIN_LENGTH)), fill) == []
    entries = {e["word"]: e["clue"] for e in out["entries"]}
    assert {w for w in entries if w in unclued} and all(entries[w] == "" for w in entries if w in unclued)
    assert all(entries[w] for w in entries if w in clued)


@pytest.mark.parametrize("solver", ["reference", "cpsat"])
def test_clued_only_keeps_to_clued_words_and_its_unsat_says_so(klein: tuple[Path, Path, list[str], list[str]],
                                                               solver: str) -> None:
    grid_path, words, unclued, clued = klein
    run = mobius("crossword", "fill", grid_path, "--dict", words, "--solver", solver, "--json", "--clued-only")
    assert run.returncode == 1, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "UNSAT" and out["rows"] is None
    assert out["words"]["used"] == len(clued) and out["words"]["dropped"] == {"no_clue": len(unclued)}
    assert out["words"]["clued_only"] is True
    assert out["note"].startswith(f"no fill from the clued words of {words}")
    assert "without --clued-only every word of the list may be used" in out["note"]


def test_text_output_prints_unclued_entries_plainly_and_says_what_an_unsat_was_drawn_from(
        klein: tuple[Path, Path, list[str], list[str]]) -> None:
    grid_path, words, unclued, _ = klein
    run = mobius("crossword", "fill", grid_path, "--dict", words)
    assert run.returncode == 0, run.stderr
    assert any(f"{word}: (no clue)" in run.stdout for word in unclued)
    clued_only = mobius("crossword", "fill", grid_path, "--dict", words, "--clued-only")
    assert clued_only.returncode == 1 and clued_only.stdout.startswith("UNSAT")
    assert f"no fill from the clued words of {words}" in clued_only.stderr


def test_clued_only_and_no_clues_contradict(klein: tuple[Path, Path, list[str], list[str]]) -> None:
    grid_path, words, _, _ = klein
    run = mobius("crossword", "fill", grid_path, "--dict", words, "--clued-only", "--no-clues")
    assert run.returncode == 2 and run.stderr.strip() == \
        "mobius: error: --clued-only and --no-clues contradict each other; give one"


def test_the_account_counts_score_ban_and_allow(tmp_path: Path, klein: tuple[Path, Path, list[str], list[str]]) \
        -> None:
    grid_path, _, unclued, clued = klein
    words = tmp_path / "scored.txt"
    words.write_text("".join(f"{w};60\n" for w in unclued) + "".join(f"{w};10\n" for w in clued),
                     encoding="utf-8")
    ban, allow = tmp_path / "ban.txt", tmp_path / "allow.txt"
    needed = next(w for w in unclued if len(w) == 4)  # one of three words for the three 4-letter lights
    ban.write_text(f"{needed}\n", encoding="utf-8")
    allow.write_text("ZZZZZ\n", encoding="utf-8")
    run = mobius("crossword", "fill", grid_path, "--dict", words, "--min-score", "20", "--ban", ban,
                 "--allow", allow, "--json")
    out = json.loads(run.stdout)
    assert out["words"] == {"list": str(words), "given": len(unclued) + len(clued), "added": 1,
                            "used": len(unclued) - 1 + 1, "dropped": {"below_min_score": len(clued), "banned": 1},
                            "clued_only": False, "clued": 0}
    # The banned word was needed: the answer is UNSAT, and it names the list it was drawn from.
    assert out["status"] == "UNSAT" and out["note"].startswith(f"no fill from the words of {words}")


def test_allow_brings_back_a_word_below_min_score_and_the_counts_add_up(tmp_path: Path) -> None:
    words = tmp_path / "scored.txt"
    words.write_text("CAT;20\nDOG;60\nGNU;70\n", encoding="utf-8")
    use = fill_words(words, str(words), min_score=30, allow=frozenset({"CAT", "EMU"}), ban=frozenset({"DOG"}),
                     bank=load_bank())
    assert use.words.words == ("CAT", "EMU", "GNU") and use.words.score("CAT") == 50
    assert use.to_json() == {"list": str(words), "given": 3, "added": 2, "used": 3,
                             "dropped": {"below_min_score": 1, "banned": 1}, "clued_only": False, "clued": 3}
    assert use.given + use.added - sum(use.dropped.values()) == use.used
