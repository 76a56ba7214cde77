"""The parsed-list cache: an entry gives back the list and the indexes a fresh parse would,
a damaged entry is reported in one line and rebuilt, other content is another entry,
and a fill through the CLI reads the same words with or without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import mobius.dictionaries
from mobius.cpmodel.crossword import word_cache
from mobius.cpmodel.crossword.propagation import LengthIndex, length_index

WORDS = ["cat", "dog", "Émile", "ant's", "bee", "EMU", "gnu", "yak", "tiger", "zebra", "lion", "moth", "orca",
         "ibex", "newt", "puma", "hare", "mole", "mink", "wren", "crow", "kite", "toad", "frog", "stag", "ape"]


@pytest.fixture(autouse=True)
def fresh_process_memo() -> None:
    word_cache._LOADED.clear()  # each test sees what a new process would


def write_list(path: Path, words: list[str]) -> Path:
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


def warnings_of(root: Path, source: Path) -> tuple[dictionaries.WordList, list[str]]:
    said: list[str] = []
    return word_cache.load_list(root, source, warn=said.append), said


def assert_same_indexes(cached: dictionaries.WordList, parsed: dictionaries.WordList) -> None:
    for length in parsed.lengths():
        got, want = length_index(cached, length), LengthIndex(parsed.by_length(length), parsed.score, length)
        assert (got.words, got.scores, got.masks, got.group_ends, got.full) == \
               (want.words, want.scores, want.masks, want.group_ends, want.full)


def test_an_entry_gives_back_the_parsed_list_and_its_indexes(tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    built, said = warnings_of(tmp_path / "cache", source)
    word_cache._LOADED.clear()
    mapped, said_again = warnings_of(tmp_path / "cache", source)
    parsed = mobius.dictionaries.load(source)
    assert said == said_again == []
    assert mapped is not built and mapped == built == parsed  # words, scores, dropped, duplicates, name
    assert len(list((tmp_path / "cache").iterdir())) == 1
    assert_same_indexes(mapped, parsed)


def test_a_damaged_entry_is_reported_in_one_line_and_rebuilt(tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    warnings_of(tmp_path / "cache", source)
    (entry,) = (tmp_path / "cache").iterdir()
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0x01
    entry.write_bytes(bytes(data))
    word_cache._LOADED.clear()
    rebuilt, said = warnings_of(tmp_path / "cache", source)
    assert len(said) == 1 and str(entry) in said[0] and "checksum" in said[0]
    assert rebuilt == mobius.dictionaries.load(source)
    word_cache._LOADED.clear()
    assert warnings_of(tmp_path / "cache", source)[1] == []  # the rebuilt entry is sound


def test_a_truncated_entry_is_rebuilt_too(tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    warnings_of(tmp_path / "cache", source)
    (entry,) = (tmp_path / "cache").iterdir()
    entry.write_bytes(entry.read_bytes()[:10])
    word_cache._LOADED.clear()
    rebuilt, said = warnings_of(tmp_path / "cache", source)
    assert len(said) == 1 and str(entry) in said[0]
    assert rebuilt == mobius.dictionaries.load(source)


def test_other_content_is_another_entry(tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    first, _ = warnings_of(tmp_path / "cache", source)
    write_list(source, [*WORDS, "heron"])
    second, _ = warnings_of(tmp_path / "cache", source)
    assert "HERON" in second and "HERON" not in first
    assert len(list((tmp_path / "cache").iterdir())) == 2


def test_an_unwritable_cache_is_one_warning_and_the_list_still_loads(tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    words, said = warnings_of(blocker / "cache", source)
    assert words == mobius.dictionaries.load(source) and len(said) == 1 and "cannot write" in said[0]


def test_a_fill_from_the_shell_reads_the_same_words_through_the_cache(tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n#.#\n...\n", encoding="ascii")  # two across lights joined by APE
    runs = []
    for cache in ("a", "a", "b"):  # the first run writes the entry, the second maps it
        env = os.environ | {"XDG_CACHE_HOME": str(tmp_path / cache)}
        out = subprocess.run([sys.executable, "-m", "mobius", "crossword", "fill", str(grid), "--dict", str(source),
                              "--no-clues"], capture_output=True, text=True, env=env, timeout=120)
        runs.append((out.returncode, out.stdout.split("\n", 1)[1], out.stderr))
    assert runs[0][0] == 0 and runs[0] == runs[1] == runs[2]
    assert list((tmp_path / "a" / "mobius-puzzles" / "words").iterdir())
