"""Clues: the user's clue file, the embedded bank and its seeded choice, the
independent clue check, and the clue options of `mobius pack crossword` and
`mobius crossword fill` (--clues FILE, --no-clues, --ban, --allow)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mobius.cpmodel.errors import InputError
from mobius.dictionaries import DictionaryError, load, read_word_set
from mobius.generators.puzzles import grid_clues
from mobius.generators.crossword.clues import ClueBank, clue_for, clue_problems, load_bank, read_clue_file
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import build_pack
from mobius.cli import app

# A Möbius grid the curated `en` fills, with lights across the seam.
GRID = "surface: mobius\n#...#...\n........\n...#...#\n"


@pytest.fixture
def grid(tmp_path: Path) -> Path:
    path = tmp_path / "grid.txt"
    path.write_text(GRID, encoding="utf-8")
    return path


def mobius(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def mobius_process(*args: object) -> subprocess.CompletedProcess[str]:
    """The real command, so that its one-line errors and exit codes are what a user sees."""
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          check=False)


# -- WORD<TAB>clue files -------------------------------------------------------------------------

def test_read_clue_file_normalises_words_keeps_every_line_and_skips_comments(tmp_path: Path) -> None:
    path = tmp_path / "clues.tsv"
    path.write_text("# mine\n\nice cream\tFrozen treat\ncafé\t Coffee house \nCAFE\tBistro\n", encoding="utf-8")
    assert read_clue_file(path) == (("ICECREAM", "Frozen treat"), ("CAFE", "Coffee house"), ("CAFE", "Bistro"))


@pytest.mark.parametrize("text, line", [("CAT\tFeline\nDOG Canine\n", 2), ("CAT\t \n", 1), ("C4T\tRobot\n", 1)])
def test_read_clue_file_names_the_bad_line(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "clues.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=f"clues.tsv:{line}: expected 'WORD<TAB>clue'"):
        read_clue_file(path)


@pytest.mark.parametrize("content", [None, b"", b"\xff\xfe bad"])
def test_read_clue_file_refuses_missing_empty_and_binary_files(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "clues.tsv"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError, match="clues.tsv"):
        read_clue_file(path)


# -- the bank ------------------------------------------------------------------------------------

def test_the_user_file_replaces_a_words_clues_and_adds_new_words() -> None:
    bank = load_bank((("CAT", "Mouser"), ("ZZYZX", "Road in California")))
    assert bank.clues_of("CAT") == ("Mouser",)
    assert bank.clues_of("ZZYZX") == ("Road in California",)
    assert len(load_bank().clues_of("ERROR")) >= 2
    assert bank.sha256 != load_bank().sha256


def test_clue_for_is_deterministic_and_varies_with_the_seed() -> None:
    bank = load_bank()
    assert [clue_for("ERROR", seed) for seed in range(20)] == [bank.clue_for("ERROR", seed) for seed in range(20)]
    assert len({clue_for("ERROR", seed) for seed in range(20)}) >= 2
    assert {clue_for("ERROR", seed) for seed in range(20)} <= set(bank.clues_of("ERROR"))
    assert clue_for("QQQQ", 0) == ""


# -- the independent check -----------------------------------------------------------------------

@pytest.mark.parametrize("answer, clue, problems", [
    ("CAT", "Domestic cats", ["contains the answer CAT"]),
    ("HOUSE", "Living in housing", ["'housing' shares the answer's stem"]),
    ("SWIFTLY", "In a swift manner", ["'swift' is part of the answer"]),
    ("ICECREAM", "Ice cream cone", ["contains the answer ICECREAM", "'cream' is part of the answer"]),
    ("ICECREAM", "Frozen dessert with cream", ["'cream' is part of the answer"]),
    ("CAT", "The CAT sat", ["contains the answer CAT"])])
def test_clue_problems_catches_the_answer_and_its_family(answer: str, clue: str, problems: list[str]) -> None:
    assert clue_problems(answer, clue) == problems


@pytest.mark.parametrize("answer, clue", [("THEME", "Subject of a talk"), ("CAT", "Catch a mouse"),
                                          ("ASH", "It was here"), ("RAN", "Moved fast")])
def test_clue_problems_lets_unrelated_words_through(answer: str, clue: str) -> None:
    assert clue_problems(answer, clue) == []


def test_a_clue_names_no_other_answer_of_its_grid_where_another_clue_serves() -> None:
    bank = ClueBank({"AMINO": "___ acid\tProtein building block prefix", "ODE": "Poem of praise"}, "test")
    assert {bank.clue_for("AMINO", seed, ["ACIDS", "TEA"]) for seed in range(20)} == {"Protein building block prefix"}
    assert {bank.clue_for("AMINO", seed, ["TEA"]) for seed in range(20)} == {"___ acid", "Protein building block prefix"}
    # When every clue names one, the answer keeps its clues: a clue that names an answer beats none.
    assert bank.clue_for("ODE", 0, ["POEMS"]) == "Poem of praise"
    # A word the other answer is made from names it too (a pack clued LAPSE "Expire" beside EXPIRATION).
    lapse = ClueBank({"LAPSE": "Slip\tExpire"}, "test")
    assert {lapse.clue_for("LAPSE", seed, ["EXPIRATION"]) for seed in range(20)} == {"Slip"}
    assert {lapse.clue_for("LAPSE", seed, ["STARTS"]) for seed in range(20)} == {"Slip", "Expire"}


def test_no_clue_is_given_twice_in_a_grid_where_another_serves() -> None:
    bank = ClueBank({"ATOP": "Upon\tResting on", "ONTO": "Upon\tAware of", "UPON": "upon"}, "test")
    for seed in range(20):
        clues = grid_clues(bank, ["ATOP", "ONTO"], seed)
        assert clues[0] != clues[1] and set(clues) <= {"Upon", "Resting on", "Aware of"}
    # Case aside, the same words are the same clue; an answer with no other keeps its own.
    assert {grid_clues(bank, ["ATOP", "ONTO", "UPON"], seed)[2] for seed in range(20)} == {"upon"}
    assert {bank.clue_for("ONTO", seed, (), ["UPON"]) for seed in range(20)} == {"Aware of"}
    assert {bank.clue_for("ONTO", seed, (), ["Upon", "Aware of"]) for seed in range(20)} == {"Upon", "Aware of"}


def test_clue_problems_flags_empty_and_long_clues() -> None:
    assert clue_problems("CAT", "  ") == ["empty clue"]
    assert any("over 90" in p for p in clue_problems("CAT", "x" * 91))


# -- ban and allow -------------------------------------------------------------------------------

def test_ban_and_allow_files(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# mine\nIce cream\nzzyzx  # a road\n\n", encoding="utf-8")
    assert read_word_set(path) == {"ICECREAM", "ZZYZX"}
    path.write_text("cat\ncat;50\n", encoding="utf-8")
    with pytest.raises(DictionaryError, match="words.txt, line 2: expected one word"):
        read_word_set(path)


def test_spec_words_apply_ban_allow_and_clues() -> None:
    spec = CrosswordPackSpec(count=1, width=7, height=5, ban=frozenset({"CAT"}), allow=frozenset({"ZZYZX"}))
    assert "CAT" not in spec.words() and "ZZYZX" not in spec.words()  # ZZYZX has no clue
    clued = CrosswordPackSpec(count=1, width=7, height=5, allow=frozenset({"ZZYZX"}),
                              extra_clues=(("ZZYZX", "Road in California"),))
    assert "ZZYZX" in clued.words()
    unclued = CrosswordPackSpec(count=1, width=7, height=5, dictionary="words", clues=False)
    assert len(unclued.words()) > len(CrosswordPackSpec(count=1, width=7, height=5, dictionary="words").words())


# -- packs and the command line ------------------------------------------------------------------

def test_a_default_pack_clues_every_entry_fairly(tmp_path: Path) -> None:
    puzzles = build_pack(CrosswordPackSpec(count=2, width=7, height=5, seed=1), tmp_path / "pack")
    entries = [e for p in puzzles.values() for e in p["entries"]]
    assert entries and all(e["clue"] for e in entries)
    assert [(e["answer"], e["clue"]) for e in entries if clue_problems(e["answer"], e["clue"])] == []
    # No clue names another answer of its grid (a word of the clue is that answer, give or take a
    # final S) where the answer has a clue that does not.
    bank = load_bank()
    for puzzle in puzzles.values():
        answers = [e["answer"] for e in puzzle["entries"]]
        for e in puzzle["entries"]:
            others = {a.lower().removesuffix("s") for a in answers if a != e["answer"]}

            def names(clue: str) -> bool:
                return any(w.lower().removesuffix("s") in others for w in re.findall(r"[A-Za-z]+", clue))
            assert not names(e["clue"]) or all(map(names, bank.clues_of(e["answer"]))), (e["answer"], e["clue"])


def test_pack_cli_clues_file_overrides_and_no_clues_leaves_them_empty(tmp_path: Path) -> None:
    first = tmp_path / "a"
    assert mobius("pack", "crossword", "--out", first, "--count", "1", "--width", "7", "--height", "5",
                  "--workers", "1").exit_code == 0
    puzzle = json.loads(next((first / "puzzles").glob("*.json")).read_text(encoding="utf-8"))
    answer = puzzle["entries"][0]["answer"]
    clues = tmp_path / "mine.tsv"
    clues.write_text(f"{answer}\tMy own clue\n", encoding="utf-8")
    second, third = tmp_path / "b", tmp_path / "c"
    assert mobius("pack", "crossword", "--out", second, "--count", "1", "--width", "7", "--height", "5",
                  "--workers", "1", "--clues", clues).exit_code == 0
    again = json.loads(next((second / "puzzles").glob("*.json")).read_text(encoding="utf-8"))
    assert [e["clue"] for e in again["entries"] if e["answer"] == answer] == ["My own clue"]
    assert mobius("pack", "crossword", "--out", third, "--count", "1", "--width", "7", "--height", "5",
                  "--workers", "1", "--no-clues").exit_code == 0
    bare = json.loads(next((third / "puzzles").glob("*.json")).read_text(encoding="utf-8"))
    assert all(e["clue"] == "" for e in bare["entries"])


@pytest.mark.parametrize("option, content", [("--clues", "CAT Mouser\n"), ("--ban", "c4t\n"), ("--allow", None)])
def test_bad_word_and_clue_files_are_one_line_errors(tmp_path: Path, grid: Path, option: str,
                                                     content: str | None) -> None:
    path = tmp_path / "file.txt"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for command in (["pack", "crossword", "--out", tmp_path / "pack", "--count", "1"], ["crossword", "fill", grid]):
        result = mobius_process(*command, option, path)
        assert result.returncode == 2, result.stderr
        assert "file.txt" in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_fill_prints_clues_and_respects_ban(tmp_path: Path, grid: Path) -> None:
    result = mobius("crossword", "fill", grid, "--json", "--seed", "3")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)["entries"]
    assert all(e["clue"] for e in entries)
    ban = tmp_path / "ban.txt"
    ban.write_text(entries[0]["word"] + "\n", encoding="utf-8")
    again = json.loads(mobius("crossword", "fill", grid, "--json", "--seed", "3", "--ban", ban).output)
    assert entries[0]["word"] not in [e["word"] for e in again["entries"]]
    bare = json.loads(mobius("crossword", "fill", grid, "--json", "--seed", "3", "--no-clues").output)
    assert all(e["clue"] == "" for e in bare["entries"])


def test_en_small_is_a_familiar_subset() -> None:
    small, full = load("en-small"), load("en")
    assert set(small.words) < set(full.words) and len(small) >= 15_000
