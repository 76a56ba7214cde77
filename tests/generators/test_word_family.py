"""Word families: the pairs a grid may not hold, read from lemminflect's lemmas through the
cached table, which must say exactly what lemminflect says and survive damage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

import pytest
from lemminflect import Lemmatizer, getAllLemmas

from mobius.benchmarks.faults import cache_entries as faults
from mobius.dictionaries import load
from mobius.generators.cache import user_cache_dir
from mobius.generators.crossword import word_family
from mobius.generators.crossword.word_family import (TABLE_NAME, families_of, family_of, family_pair, lemma_table,
                                                     relatives_in)


@pytest.mark.parametrize(("answers", "pair"), [
    (["LET", "ATE", "LETS"], ("LET", "LETS")),  # an inflection beside its word
    (["SAT", "TEN", "SIT"], ("SAT", "SIT")),  # an irregular past
    (["AXIS", "ARC", "AXES"], ("AXIS", "AXES")),  # a plural of either AXE or AXIS
    (["ONE", "NEW", "NEWS"], ("NEW", "NEWS")),  # NEWS is no plural of NEW, but reads as NEW again
    (["ODD", "TEA", "ODDS"], ("ODD", "ODDS")),  # a lemma of its own, the same word to a solver
    (["BUS", "TEA", "ODE"], None),  # a final S alone makes no family
    (["ART", "ARTS"], ("ART", "ARTS")),
    (["MEN", "OAR", "MAN"], ("MEN", "MAN")),
    (["LEGITIMATE", "TEN", "LEGIT"], ("LEGIT", "LEGITIMATE")),  # a clipping beside its word
    (["CARICATURE", "CAR", "CAP"], None),  # a short word that begins another is another word
    (["EXPIRATION", "TEN", "EXPIRE"], ("EXPIRE", "EXPIRATION")),  # a derivation: all but the final E begins it
    (["START", "TEN", "STARE"], None),  # four letters in common are not enough
])
def test_two_answers_of_one_family_are_found(answers: list[str], pair: tuple[str, str] | None) -> None:
    assert family_pair(answers) == pair


def lemminflect_family(word: str) -> frozenset[str]:
    """The family as lemminflect gives it, asked directly (no table, no cache)."""
    lower = word.lower()
    stem = {lower[:-1]} if lower.endswith("s") else set()
    return frozenset({lower, *stem, *chain.from_iterable(getAllLemmas(lower).values())})


def forget_table() -> None:
    """Make the next `family_of` read the lemma table again (both are cached per process)."""
    lemma_table.cache_clear()
    family_of.cache_clear()


@pytest.fixture()
def fresh_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The lemma table read anew, from a cache directory of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget_table()
    yield user_cache_dir() / TABLE_NAME
    forget_table()


def test_the_cached_table_gives_every_family_lemminflect_gives(fresh_table: Path) -> None:
    lemmatizer = Lemmatizer()
    listed = {word for word in chain(lemmatizer._getLemmaDict(), lemmatizer._getOverridesDict())
              if word.isalpha() and word.islower()}
    words = sorted(listed | {word.lower() for word in load("en").words[:20000]} | {"qwxz", "mobius"})
    built = [family_of(word.upper()) for word in words]  # builds and writes the cache
    assert fresh_table.exists()
    forget_table()
    read = [family_of(word.upper()) for word in words]  # read back from the cache
    assert built == read == [lemminflect_family(word) for word in words]


def test_a_damaged_table_is_reported_once_and_rebuilt(fresh_table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = dict(lemma_table())
    data = bytearray(fresh_table.read_bytes())
    data[len(data) // 2] ^= 0x20  # one letter's case flipped: the rows' checksum no longer holds
    fresh_table.write_bytes(bytes(data))
    lemma_table.cache_clear()
    assert lemma_table() == expected
    assert capsys.readouterr().err == (f"mobius: warning: {fresh_table}: checksum mismatch (the file changed since "
                                       "it was written); not used, rebuilt\n")
    lemma_table.cache_clear()
    assert lemma_table() == expected  # the rebuilt file is whole
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("damage", list(faults.LEMMA_TABLE))
def test_a_table_that_is_no_file_of_its_size_or_forged_is_one_warning_and_rebuilt(
        fresh_table: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    """A FIFO, a device or a sparse terabyte in its place, a header nested 100,000 deep, rows that are not
    UTF-8 lines of a word, a tab and its lemmas under a checksum to match: never a hang or a traceback."""
    expected = dict(lemma_table())
    faults.LEMMA_TABLE[damage](fresh_table)
    lemma_table.cache_clear()
    assert lemma_table() == expected
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and said[0].startswith(f"mobius: warning: {fresh_table}: "), said
    lemma_table.cache_clear()
    assert lemma_table() == expected and fresh_table.is_file()
    assert capsys.readouterr().err == ""


def test_a_table_from_another_lemminflect_is_rebuilt_silently(fresh_table: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    expected = dict(lemma_table())
    head, _, rows = fresh_table.read_bytes().partition(b"\n")
    header = json.loads(head)
    header["source"]["lemma_lu.csv.gz"][0] += 1  # as if lemminflect's file had changed
    fresh_table.write_bytes(json.dumps(header).encode() + b"\n" + b"zzz\tsleep\n")
    lemma_table.cache_clear()
    assert lemma_table() == expected and "zzz" not in lemma_table()
    assert capsys.readouterr().err == ""


def test_a_cache_that_cannot_be_written_costs_time_not_the_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("the cache's parent is a file, so no directory can be made under it (even by root)")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    forget_table()
    try:
        assert family_of("SAT") == lemminflect_family("SAT")
    finally:
        forget_table()
    assert "the lemma table is not cached" in capsys.readouterr().err


def test_without_lemminflect_files_in_place_the_table_comes_from_lemminflect(
        fresh_table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(word_family, "LEMMA_FILES", ("no-such-file.csv",))
    assert family_of("WENT") == lemminflect_family("WENT") and "go" in family_of("WENT")
    assert not fresh_table.exists()


def test_a_lists_relatives_and_a_packs_families_share_a_word_or_a_lemma() -> None:
    relatives = relatives_in(["USE", "USED", "USES", "USER", "SIT", "SAT", "ODD", "ODDS"])
    assert relatives("USE") == {"USED", "USES"} and relatives("SAT") == {"SIT"} and relatives("ODDS") == {"ODD"}
    assert relatives("USER") == frozenset() and relatives("ZEBRA") == frozenset()  # not in the list: none
    assert families_of(["USES", "USE", "USER", "ERA", "SAT", "SIT", "USE"]) == [["SAT", "SIT"], ["USE", "USES"]]
