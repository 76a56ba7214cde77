"""`--difficulty easy|medium|hard` on crossword packs: the kinds of clue, the
clue each level chooses, the answers each level prefers, the estimate every
puzzle carries (JSON, manifest, player, booklet, the pack's closing lines),
and packs made through the CLI: the levels differ in the direction named on
the same seed, medium is the default byte for byte, and a resume at another
level is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobius.dictionaries import load
from mobius.dictionaries.clue_text import clue_head
from mobius.generators.crossword.clues import ClueBank, load_bank, naming_none
from mobius.generators.crossword.difficulty import (BLANK, DEFINITION, DIRECT, HARD_CAP, INDIRECT, KINDLESS_PENALTY, LEVELS, NAME,
                                   OPPOSITE, SYNONYM, UNFAMILIAR_BELOW, choose_clue, clue_kind, figures,
                                   pack_difficulty)
from mobius.generators.puzzles import read_puzzle_file

# Four puzzles: the worst-answer stage lifts every level's weakest answers, and
# two puzzles were too few to tell easy from medium by familiarity (64.7 and 65.3).
# Eight puzzles: on four (about 70 entries) the easy and medium packs' shares of indirect clues stood 0.002
# apart at this seed, too few entries to order two levels whose shares differ by about 0.07 over five seeds.
PACK = ("pack", "crossword", "--count", "8", "--width", "11", "--height", "5", "--seed", "0", "--workers", "1")


def mobius(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=600, check=False)


# -- clue kinds and the choice ------------------------------------------------------------

@pytest.mark.parametrize("clue, kind", [
    ("Make less active or intense", DEFINITION),
    ("Capital of Namibia in the center of the country", DEFINITION),
    ("Mass", SYNONYM),
    ("Fossil fuel", SYNONYM),  # a broader term reads as a synonym: text cannot tell them apart
    ("Feb. (Abbr.)", SYNONYM),
    ("Opposite of rural", OPPOSITE),
    ("I work ___", BLANK),
    ("Floating freely in a ___ condition", BLANK),
    ("Goya wanted to portray his mistress, the Duchess of ___", BLANK),
    ("Swedish film actress Ingrid ___", NAME),
    ("Prussian general and military theorist Karl von ___", NAME),
])
def test_clue_kinds(clue: str, kind: str) -> None:
    assert clue_kind(clue) == kind


BANK = ClueBank({"LOT": "Any collection of people or things\tMass\tI work ___",
                 "OKRA": "Tall herb with edible pods\tVegetable pods used in soups",
                 "ASHE": "Tennis player Arthur ___"}, "test")


def test_easy_takes_the_best_ranked_definition_and_hard_an_indirect_clue() -> None:
    for seed in range(20):
        assert choose_clue(BANK.clues_of("LOT"), "LOT", seed, LEVELS["easy"]) == "Any collection of people or things"
        assert choose_clue(BANK.clues_of("LOT"), "LOT", seed, LEVELS["hard"]) in ("Mass", "I work ___")
        # a word without a clue of the level's kinds keeps its own
        assert choose_clue(BANK.clues_of("OKRA"), "OKRA", seed, LEVELS["hard"]) in BANK.clues_of("OKRA")
        assert clue_kind(choose_clue(BANK.clues_of("ASHE"), "ASHE", seed, LEVELS["easy"])) in DIRECT
    hard = {choose_clue(BANK.clues_of("LOT"), "LOT", seed, LEVELS["hard"]) for seed in range(20)}
    assert hard == {"Mass", "I work ___"}  # chosen by the seed, as at medium


def test_medium_chooses_exactly_as_the_bank_does() -> None:
    bank = load_bank()
    words = [w for w in load("en", min_score=30).words if w in bank][::500]
    for seed in (0, 7, 12345):
        for word in words:
            assert choose_clue(bank.clues_of(word), word, seed, LEVELS["medium"]) == bank.clue_for(word, seed)


def test_the_hard_preference_makes_a_common_word_worth_less_than_any_allowed_one() -> None:
    from mobius.generators.crossword.difficulty import answer_penalties

    words = load("en", min_score=30)
    bank = load_bank()
    penalties = answer_penalties(words, LEVELS["hard"], 30, bank)
    assert answer_penalties(words, LEVELS["medium"], 30, bank) == {}
    for word in words.words[::200]:
        score, points = words.score(word), penalties.get(word, 0)
        kindless = not any(clue_kind(c) in INDIRECT for c in bank.clues_of(word))
        assert points == (score - 29 if score >= HARD_CAP else 0) + (KINDLESS_PENALTY if kindless else 0)
        if score >= HARD_CAP:
            assert score - points <= 29


def test_figures_count_familiarity_and_kinds_from_the_entries() -> None:
    entries = [{"answer": "LOT", "score": 80, "clue": "Mass"}, {"answer": "ADO", "score": 30, "clue": "I work ___"},
               {"answer": "OKRA", "score": 40, "clue": "Tall herb with edible pods"}]
    found = figures(entries)
    assert found["familiarity"] == 50.0 and found["unfamiliar_share"] == round(1 / 3, 4)
    assert found["clue_kinds"] == {DEFINITION: 1, NAME: 0, SYNONYM: 1, OPPOSITE: 0, BLANK: 1}
    assert found["indirect_share"] == round(2 / 3, 4)
    levels = pack_difficulty([{"difficulty": {"level": "hard"}, "entries": entries},
                              {"difficulty": {"level": "easy"}, "entries": entries[2:]}])
    assert list(levels) == ["easy", "hard"] and levels["hard"]["puzzles"] == 1


# -- packs through the CLI --------------------------------------------------------------------

@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same 8-puzzle pack at each level, and with no --difficulty at all."""
    root = tmp_path_factory.mktemp("levels")
    made = {}
    for level in ("default", "easy", "medium", "hard"):
        out = root / level
        run = mobius(*PACK, "--out", out, *(() if level == "default" else ("--difficulty", level)))
        assert run.returncode == 0, run.stderr
        (out / "stderr.txt").write_text(run.stderr, encoding="utf-8")
        made[level] = out
    return made


def puzzles_of(out: Path) -> list[dict]:
    return [read_puzzle_file(path) for path in sorted((out / "puzzles").glob("*.json"))]


def test_the_levels_differ_in_the_direction_named(packs: dict[str, Path]) -> None:
    bank = load_bank()
    found = {level: figures([e for p in puzzles_of(packs[level]) for e in p["entries"]])
             for level in ("easy", "medium", "hard")}
    assert found["easy"]["familiarity"] > found["medium"]["familiarity"] > found["hard"]["familiarity"]
    assert found["easy"]["indirect_share"] < found["medium"]["indirect_share"] < found["hard"]["indirect_share"]
    assert found["easy"]["unfamiliar_share"] == 0.0  # easy answers all score 40 or more
    for puzzle in puzzles_of(packs["easy"]):
        for entry in puzzle["entries"]:
            assert entry["score"] >= UNFAMILIAR_BELOW
            # The first direct clue that names no other answer of the grid (GAS "Step on it" beside
            # STEP; PETER "Apostle who was a fisherman" beside WERE), unless another entry's clue
            # reads as it.
            others = [e for e in puzzle["entries"] if e is not entry]
            direct = [c for c in naming_none(bank.clues_of(entry["answer"]), [e["answer"] for e in others])
                      if clue_kind(c) in DIRECT]
            taken = {clue_head(e["clue"]) for e in others}
            assert entry["clue"] == next((c for c in direct if clue_head(c) not in taken), entry["clue"])
    for puzzle in puzzles_of(packs["hard"]):
        for entry in puzzle["entries"]:
            assert entry["score"] >= 30  # never below the default's floor
            if any(clue_kind(c) in INDIRECT for c in bank.clues_of(entry["answer"])):
                assert clue_kind(entry["clue"]) in INDIRECT


def test_medium_is_the_default_byte_for_byte(packs: dict[str, Path]) -> None:
    for name in sorted(p.name for p in (packs["default"] / "puzzles").iterdir()):
        assert (packs["medium"] / "puzzles" / name).read_bytes() == (packs["default"] / "puzzles" / name).read_bytes()
    assert (packs["medium"] / "pack.pdf").read_bytes() == (packs["default"] / "pack.pdf").read_bytes()
    manifests = [json.loads((packs[level] / "manifest.json").read_text()) for level in ("default", "medium")]
    assert manifests[0]["parameters"] == manifests[1]["parameters"]
    assert "difficulty" not in manifests[0]["parameters"]  # a medium pack's parameters are those of older packs


def test_every_output_carries_the_level_and_its_estimate(packs: dict[str, Path]) -> None:
    for level in ("easy", "medium", "hard"):
        out = packs[level]
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["difficulty"] == level
        report = manifest["quality"]["difficulty"]
        assert list(report) == [level] and report[level]["puzzles"] == int(PACK[PACK.index("--count") + 1])
        assert set(report[level]["clue_kinds"]) == {DEFINITION, NAME, SYNONYM, OPPOSITE, BLANK}
        index = (out / "index.html").read_text(encoding="utf-8")
        booklet = subprocess.run(["pdftotext", str(out / "pack.pdf"), "-"], capture_output=True, text=True,
                                 check=True).stdout
        for puzzle in puzzles_of(out):
            made = puzzle["difficulty"]
            assert made == {"level": level, **figures(puzzle["entries"])}
            line = f"{level.capitalize()} (familiarity {made['familiarity']:.0f}, {made['indirect_share']:.0%} indirect"
            page = (out / "puzzles" / f"{puzzle['id']}.html").read_text(encoding="utf-8")
            assert line in page and line in index and line in booklet
        stderr = (out / "stderr.txt").read_text(encoding="utf-8")
        assert f"difficulty {level}: familiarity {report[level]['familiarity']:.1f}" in stderr
    assert json.loads((packs["hard"] / "manifest.json").read_text())["parameters"]["difficulty"] == "hard"


def test_a_resume_at_another_level_is_refused(packs: dict[str, Path], tmp_path: Path) -> None:
    import shutil

    out = tmp_path / "hard"
    shutil.copytree(packs["hard"], out)
    for other in (("--difficulty", "easy"), ()):
        run = mobius(*PACK, "--out", out, "--resume", *other)
        assert run.returncode == 2 and "different parameters" in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1


def test_a_bad_level_is_one_line_and_exit_2(tmp_path: Path) -> None:
    run = mobius(*PACK, "--out", tmp_path / "pack", "--difficulty", "fiendish")
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "fiendish" in run.stderr and "easy" in run.stderr
    assert not (tmp_path / "pack").exists()
