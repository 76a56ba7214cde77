"""Clue sources: the `WORD<TAB>clue` file, WordNet's glosses (parsed from a
hand-written database, and from Debian's wordnet-base where installed), and
`--clues wordnet` through a whole pack."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpmodel.errors import InputError
from generators.clues import (
    MAX_CLUE_LENGTH,
    WORDNET_DIR,
    clue_from_gloss,
    gives_away,
    load_clues,
    read_clues,
    wordnet_clues,
)
from generators.crossword_pack import CrosswordPackSpec
from generators.pack import build_pack
from mobius.cli import app

needs_wordnet = pytest.mark.skipif(not (WORDNET_DIR / "data.noun").is_file(),
                                   reason=f"Debian's wordnet-base is not installed (no {WORDNET_DIR}/data.noun); "
                                          f"apt-get install wordnet-base")

LICENCE = "  1 This software and database is being provided to you, the LICENSEE, by\n"
LONG_GLOSS = ("a very long definition that goes on and on about nothing in particular, really, and keeps going "
              "well past any sensible clue length")
# index lines: lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...
# The data file lists synsets by offset; the index gives the sense order.
TINY_WORDNET = {
    "index.noun": ["cat n 2 1 @ 2 1 00000300 00000200", "ice_cream n 1 1 @ 1 0 00000400",
                   "blather n 1 0 1 0 00000500"],
    "data.noun": ["00000200 05 n 01 cat 0 000 | an informal term for a youth or man; \"a nice cat\"",
                  "00000300 05 n 01 cat 0 000 | feline mammal: domestic cats; wildcats",
                  "00000400 13 n 01 ice_cream 0 000 | frozen dessert containing cream \"have some\"",
                  f"00000500 10 n 01 blather 0 000 | {LONG_GLOSS}"],
    "index.verb": ["cat v 1 0 1 0 00000100", "purr v 1 0 1 0 00000200"],
    "data.verb": ["00000100 38 v 01 cat 0 000 | beat with a cat-o'-nine-tails",
                  "00000200 34 v 01 purr 0 000 | indicate pleasure by purring"],
    "index.adj": ["feline a 1 0 1 0 00000100"],
    "data.adj": ["00000100 00 a 01 feline 0 000 | of or relating to cats; `catlike'"],
    "index.adv": [],
    "data.adv": [],
}


@pytest.fixture
def tiny_wordnet(tmp_path: Path) -> Path:
    for name, lines in TINY_WORDNET.items():
        (tmp_path / name).write_text(LICENCE + "".join(line + "  \n" for line in lines), encoding="utf-8")
    return tmp_path


def words_of(text: str) -> list[str]:
    return re.findall(r"[A-Z]+", text.upper())


# -- WORD<TAB>clue files -------------------------------------------------------------------------

def test_read_clues_normalises_words_and_skips_comments(tmp_path: Path) -> None:
    path = tmp_path / "clues.tsv"
    path.write_text("# mine\n\nice cream\tFrozen treat\ncafé\t Coffee house \n", encoding="utf-8")
    assert read_clues(path) == {"ICECREAM": "Frozen treat", "CAFE": "Coffee house"}


@pytest.mark.parametrize("text, line", [("CAT\tFeline\nDOG Canine\n", 2), ("CAT\t \n", 1), ("C4T\tRobot\n", 1)])
def test_read_clues_names_the_bad_line(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "clues.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=f"clues.tsv:{line}: expected 'WORD<TAB>clue'"):
        read_clues(path)


def test_read_clues_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such clue file"):
        read_clues(tmp_path / "absent.tsv")


def test_load_clues_reads_a_file_called_wordnet_given_as_a_path(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "wordnet").write_text("CAT\tMouser\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_clues("./wordnet") == {"CAT": "Mouser"}


# -- WordNet's glosses, parsed from a hand-written database -----------------------------------------

def test_the_first_sense_in_index_order_gives_the_clue(tiny_wordnet: Path) -> None:
    clues = wordnet_clues(root=tiny_wordnet)
    # CAT's first sense names cats and is skipped; the second (by the index,
    # not the data file's order) is used; its quoted example is dropped.
    assert clues["CAT"] == "An informal term for a youth or man"
    assert clues["ICECREAM"] == "Frozen dessert containing cream"  # underscore lemma, quoted example cut
    assert "PURR" not in clues  # its only definition says "purring"
    assert clues["FELINE"] == "Of or relating to cats"


def test_a_long_gloss_is_cut_after_a_whole_clause(tiny_wordnet: Path) -> None:
    clue = wordnet_clues(root=tiny_wordnet)["BLATHER"]
    assert len(clue) <= MAX_CLUE_LENGTH and LONG_GLOSS.capitalize().startswith(clue)
    assert clue == "A very long definition that goes on and on about nothing in particular"


def test_a_long_clause_is_cut_at_a_word_boundary_not_on_a_dangling_word() -> None:
    clue = clue_from_gloss("(astronomy) a celestial body of hot gases that radiates energy derived from "
                           "thermonuclear reactions in the interior")
    assert clue == "(astronomy) a celestial body of hot gases that radiates energy derived"


def test_words_restrict_the_table(tiny_wordnet: Path) -> None:
    assert wordnet_clues(["cat", "ice-cream", "dog"], root=tiny_wordnet).keys() == {"CAT", "ICECREAM"}


def test_an_absent_database_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"absent.*apt-get install wordnet-base"):
        wordnet_clues(root=tmp_path / "absent")


@pytest.mark.parametrize("clue, answer", [("Domestic cats", "CAT"), ("Living in housing", "HOUSE"),
                                          ("In a swift manner", "SWIFTLY"), ("The CAT sat", "CAT")])
def test_gives_away_catches_the_answer_and_its_stem(clue: str, answer: str) -> None:
    assert gives_away(clue, answer)


def test_gives_away_lets_unrelated_short_words_through() -> None:
    assert not gives_away("The subject matter of a conversation", "THEME")
    assert clue_from_gloss("(usually followed by `to') able; \"x\"") == "(usually followed by 'to') able"


# -- Debian's wordnet-base ---------------------------------------------------------------------------

@needs_wordnet
@pytest.mark.parametrize("word", ["CAT", "HOUSE", "TREE", "RUN", "BLUE"])
def test_common_words_get_short_clues_without_their_answer(word: str) -> None:
    clue = wordnet_clues([word])[word]
    assert 0 < len(clue) <= MAX_CLUE_LENGTH and clue[0].isupper()
    assert not any(word in w for w in words_of(clue)), clue


@needs_wordnet
def test_a_pack_clued_from_wordnet(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=2, width=7, height=5, surface="mobius", seed=1, clues=wordnet_clues())
    puzzles = build_pack(spec, tmp_path / "pack")
    entries = [e for p in puzzles.values() for e in p["entries"]]
    clued = [e for e in entries if e["clue"]]
    assert len(clued) >= 0.6 * len(entries)
    assert all(e["answer"] not in words_of(e["clue"]) and e["answer"] not in e["clue"].upper() for e in clued)


@needs_wordnet
def test_clues_wordnet_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    result = CliRunner().invoke(app, ["pack", "crossword", "--out", str(out), "--count", "1", "--width", "7",
                                      "--height", "5", "--seed", "1", "--workers", "1", "--clues", "wordnet"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert 0 < manifest["parameters"]["clues"] < 100_000  # only the dictionary's words travel with the spec
    puzzle = json.loads(next((out / "puzzles").glob("*.json")).read_text(encoding="utf-8"))
    assert any(e["clue"] for e in puzzle["entries"])
