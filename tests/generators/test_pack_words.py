"""`mobius pack crossword --dict LIST` keeps to the clued words of LIST (every
entry of a pack has a clue) and says so: a note up front, the closing
summary, the manifest's `words` counts, and every no-fill message."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from mobius.dictionaries import load
from mobius.generators.crossword.clues import load_bank

PACK = ("pack", "crossword", "--count", "1", "--width", "7", "--height", "5", "--workers", "1")


def mobius(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=300, check=False)


def nonsense(count: int, seed: int) -> list[str]:
    """Distinct words of Q, X, J and Z only: no clue bank clues them."""
    rng = random.Random(seed)
    words = {"".join(rng.choice("QXJZ") for _ in range(rng.randint(3, 7))) for _ in range(count)}
    assert not any(word in load_bank() for word in words)
    return sorted(words)


def test_a_pack_uses_the_clued_words_and_counts_the_others(tmp_path: Path) -> None:
    clued = [w for w in load("en", min_score=30).words if 3 <= len(w) <= 7]
    unclued = nonsense(300, 1)
    words = tmp_path / "mine.txt"
    words.write_text("\n".join(clued + unclued) + "\n", encoding="utf-8")
    run = mobius(*PACK, "--out", tmp_path / "pack", "--dict", words)
    assert run.returncode == 0, run.stderr
    line = (f"words: {len(clued):,} used of the {len(clued) + len(unclued):,} of {words} "
            f"({len(unclued):,} without a clue): a pack keeps to the clued words")
    assert f"note: {line}" in run.stderr  # up front
    assert run.stderr.strip().splitlines()[-1].startswith(line)  # and in the closing summary
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["words"] == {"list": str(words), "given": len(clued) + len(unclued), "added": 0,
                                 "used": len(clued), "dropped": {"no_clue": len(unclued)}, "clued_only": True,
                                 "clued": len(clued)}
    puzzle = json.loads(next((tmp_path / "pack" / "puzzles").glob("*.json")).read_text(encoding="utf-8"))
    assert all(e["clue"] and e["answer"] not in unclued for e in puzzle["entries"])


def test_a_pack_that_cannot_fill_says_it_drew_from_the_clued_words(tmp_path: Path) -> None:
    bank = load_bank()
    en = load("en")
    clued = [w for length in range(3, 8) for w in [w for w in en.by_length(length) if w in bank][:5]]
    words = tmp_path / "few.txt"
    words.write_text("\n".join(clued + nonsense(400, 2)) + "\n", encoding="utf-8")
    run = mobius(*PACK, "--out", tmp_path / "pack", "--dict", words)
    assert run.returncode == 2
    error = run.stderr.strip().splitlines()[-1]
    assert error.startswith("mobius: error: 1 of 1 puzzles could not be made")
    assert f"from the clued words of {words}" in error


def test_the_embedded_list_loses_no_word_for_want_of_a_clue(tmp_path: Path) -> None:
    run = mobius(*PACK, "--out", tmp_path / "pack")
    assert run.returncode == 0, run.stderr
    assert "note: words:" not in run.stderr
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["words"]["list"] == "en" and "no_clue" not in manifest["words"]["dropped"]
    assert manifest["words"]["used"] == manifest["words"]["clued"] == manifest["dictionary"]["words"]
