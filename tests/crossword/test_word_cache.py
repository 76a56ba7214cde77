"""The parsed-list cache: an entry gives back the list and the indexes a fresh parse would,
a damaged entry is reported in one line and rebuilt — a FIFO, a device or a sparse terabyte in
its place, or an entry forged with a digest to match, too (the forgeries of the fault family
`entries`) — other content is another entry, a fill through the CLI reads the same words with
or without it, and a list with a line of millions of letters loads in bounded memory."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import mobius.dictionaries
from mobius.benchmarks.faults import cache_entries as faults
from mobius.cpmodel.crossword import word_cache
from mobius.cpmodel.crossword.propagation import LengthIndex, length_index
from mobius.dictionaries.wordlist import MAX_WORD_LETTERS

WORDS = ["cat", "dog", "Émile", "ant's", "bee", "EMU", "gnu", "yak", "tiger", "zebra", "lion", "moth", "orca",
         "ibex", "newt", "puma", "hare", "mole", "mink", "wren", "crow", "kite", "toad", "frog", "stag", "ape"]


@pytest.fixture(autouse=True)
def fresh_process_memo() -> None:
    word_cache._LOADED.clear()  # each test sees what a new process would


def write_list(path: Path, words: list[str]) -> Path:
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


def warnings_of(root: Path, source: Path) -> tuple[mobius.dictionaries.WordList, list[str]]:
    said: list[str] = []
    return word_cache.load_list(root, source, warn=said.append), said


def assert_same_indexes(cached: mobius.dictionaries.WordList, parsed: mobius.dictionaries.WordList) -> None:
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


# --- entries that are no entry, forged entries, and entries of the longest words --------------------------

def built_entry(tmp_path: Path) -> tuple[Path, Path]:
    """(the list file, its entry), built once."""
    source = write_list(tmp_path / "list.txt", WORDS)
    warnings_of(tmp_path / "cache", source)
    (entry,) = (tmp_path / "cache").iterdir()
    word_cache._LOADED.clear()
    return source, entry


def loaded_with_every_index(root: Path, source: Path) -> tuple[mobius.dictionaries.WordList, list[str]]:
    """The list from its entry with every length's index asked for (a damaged index is found when asked)."""
    words, said = warnings_of(root, source)
    for length in words.lengths():
        length_index(words, length)
    return words, said


@pytest.mark.parametrize(("damage", "reason"), [
    (faults.fifo, "not a regular file (a pipe, device or socket); expected a word-list cache entry (removed)"),
    (faults.device_link, "not a regular file (a pipe, device or socket); expected a word-list cache entry (removed)"),
    (faults.sparse_terabyte, "is 1,099,511,627,776 bytes; a word-list cache entry is at most ")],
    ids=["fifo", "link to /dev/zero", "sparse terabyte"])
def test_an_entry_that_is_no_regular_file_of_its_size_is_one_warning_and_rebuilt(
        tmp_path: Path, damage: Callable[[Path], None], reason: str) -> None:
    """Never a hang (a FIFO), a device read or a terabyte hashed (minutes) before the digest is found wrong."""
    source, entry = built_entry(tmp_path)
    damage(entry)
    words, said = warnings_of(tmp_path / "cache", source)
    assert words == mobius.dictionaries.load(source)
    assert len(said) == 1 and said[0].startswith(f"{entry}: {reason}") and said[0].endswith("; not used, rebuilt")
    assert entry.is_file() and entry.stat().st_size < 1 << 20
    word_cache._LOADED.clear()
    assert warnings_of(tmp_path / "cache", source)[1] == []


FORGED = [name for name in faults.WORD_ENTRY if name.startswith("forged")]


@pytest.mark.parametrize("forgery", FORGED)
def test_an_entry_forged_with_a_matching_digest_is_one_warning_and_rebuilt(tmp_path: Path, forgery: str) -> None:
    source, entry = built_entry(tmp_path)
    faults.WORD_ENTRY[forgery](entry)
    words, said = loaded_with_every_index(tmp_path / "cache", source)  # never a TypeError or an IndexError
    parsed = mobius.dictionaries.load(source)
    assert words == parsed
    assert_same_indexes(words, parsed)
    assert len(said) == 1 and said[0].startswith(f"{entry}: "), said
    word_cache._LOADED.clear()
    again, said_again = loaded_with_every_index(tmp_path / "cache", source)
    assert said_again == [] and again == parsed  # rebuilt: sound from the next run on


def test_the_largest_entry_a_list_can_have_is_within_the_bound(tmp_path: Path) -> None:
    # one word of each length up to the longest: every mask of every length rounds 1 bit up to a byte
    words = ["".join(chr(ord("A") + (k + n) % 26) for k in range(n)) for n in range(1, MAX_WORD_LETTERS + 1)]
    source = write_list(tmp_path / "list.txt", words)
    built, said = warnings_of(tmp_path / "cache", source)
    (entry,) = (tmp_path / "cache").iterdir()
    assert said == [] and len(built) == MAX_WORD_LETTERS
    assert entry.stat().st_size <= word_cache._largest_entry(source.stat().st_size)
    word_cache._LOADED.clear()
    assert loaded_with_every_index(tmp_path / "cache", source)[1] == []


LOAD_HUGE_LINE = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from mobius.cpmodel.crossword import word_cache
words = word_cache.load_list(Path(sys.argv[1]), sys.argv[2])
print(max(words.lengths()), words.dropped, len(words))
"""


def test_a_list_with_a_line_of_twenty_million_letters_loads_in_bounded_memory(tmp_path: Path) -> None:
    """The line is dropped and counted before any index is built: the list loads within 1 GB of address
    space (indexing its length would take tens of GB)."""
    source = tmp_path / "huge-line.txt"
    source.write_bytes("\n".join(WORDS).encode() + b"\n" + b"a" * 20_000_000 + b"\n")
    done = subprocess.run([sys.executable, "-c", LOAD_HUGE_LINE, str(tmp_path / "cache"), str(source)],
                          capture_output=True, text=True, timeout=300)
    parsed = mobius.dictionaries.load(write_list(tmp_path / "plain.txt", WORDS))
    assert done.returncode == 0, done.stderr[-300:]
    assert done.stdout.split() == [str(max(parsed.lengths())), str(parsed.dropped + 1), str(len(parsed))]
