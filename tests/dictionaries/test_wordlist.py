"""Tests for mobius.dictionaries.wordlist: normalisation, formats, filters, errors, named lists."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import pickle
import re
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mobius.dictionaries import DictionaryError, ListContent, WordList, from_words, load, normalise, portable
from mobius.dictionaries import wordlist
from mobius.dictionaries.build_en import zipf_to_score

A_TO_Z = re.compile("[A-Z]+")


def write(path: Path, text: str, *, compress: bool = False) -> Path:
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


# --- normalisation -----------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("cat", "CAT"),
        ("  Cat \r", "CAT"),
        ("café", "CAFE"),
        ("naïve", "NAIVE"),
        ("Ångström", "ANGSTROM"),
        ("cafe\u0301", "CAFE"),  # already decomposed
    ],
)
def test_normalise_upper_cases_and_folds_accents(entry: str, expected: str) -> None:
    assert normalise(entry) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("ice cream", "ICECREAM"),
        ("jack-in-the-box", "JACKINTHEBOX"),
        ("o'clock", "OCLOCK"),
        ("rock ’n’ roll", "ROCKNROLL"),
        ("cat's cradle", "CATSCRADLE"),  # only a trailing 's is a possessive
    ],
)
def test_normalise_joins_phrases(entry: str, expected: str) -> None:
    assert normalise(entry) == expected


@pytest.mark.parametrize("entry", ["cat's", "CAT'S", "cat’s", "Aaron's"])
def test_normalise_drops_possessives_whole(entry: str) -> None:
    assert normalise(entry) is None


@pytest.mark.parametrize("entry", ["", "   ", "R2D2", "e.g.", "a/b", "日本", "x_y", "#"])
def test_normalise_drops_other_characters(entry: str) -> None:
    assert normalise(entry) is None


def test_dropped_entries_are_counted_not_lost() -> None:
    words = from_words(["cat", "r2d2", "dog's", "e.g.", "dog"])
    assert words.words == ("CAT", "DOG")
    assert words.dropped == 3
    assert words.duplicates == 0


def test_entries_longer_than_any_light_are_dropped_and_counted(tmp_path: Path) -> None:
    longest = "a" * wordlist.MAX_WORD_LETTERS
    phrase = " ".join(["ab"] * (wordlist.MAX_WORD_LETTERS // 2))  # spaces do not count: 128 letters
    lines = ["cat", longest, phrase, "b" * (wordlist.MAX_WORD_LETTERS + 1), "c" * 20_000_000, "-" * 2_000]
    words = load(write(tmp_path / "long.txt", "\n".join(lines) + "\n"))
    assert words.words == (longest.upper(), "AB" * (wordlist.MAX_WORD_LETTERS // 2), "CAT")
    assert words.dropped == 3 and max(words.lengths()) == wordlist.MAX_WORD_LETTERS
    scored = load(write(tmp_path / "scored.txt", f"cat;60\n{'d' * 5_000};70\n"))
    assert scored.words == ("CAT",) and scored.dropped == 1


def test_a_ban_or_allow_word_longer_than_any_light_is_refused_on_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "allow.txt", f"cat\n{'e' * (wordlist.MAX_WORD_LETTERS + 1)}\n")
    with pytest.raises(DictionaryError, match=r"allow.txt, line 2: a word of 129 letters; no grid has a light "
                                              r"longer than 128"):
        wordlist.read_word_set(path)


@given(st.text())
def test_normalise_output_is_a_to_z_and_idempotent(entry: str) -> None:
    _check_normalise_property(entry)


@given(st.text(alphabet="abcXYZéüÅß '’-\u0301\t9."))
def test_normalise_property_on_word_like_text(entry: str) -> None:
    _check_normalise_property(entry)


def _check_normalise_property(entry: str) -> None:
    word = normalise(entry)
    assert word is None or A_TO_Z.fullmatch(word)
    if word is not None:
        assert normalise(word) == word


# --- formats -----------------------------------------------------------------


def test_plain_list_gets_uniform_score(tmp_path: Path) -> None:
    words = load(write(tmp_path / "plain.txt", "dog\ncat\n\nice cream\n"))
    assert words.words == ("CAT", "DOG", "ICECREAM")
    assert set(words.scores) == {wordlist.PLAIN_SCORE}
    assert words.name == str(tmp_path / "plain.txt")


def test_scored_list(tmp_path: Path) -> None:
    words = load(write(tmp_path / "scored.dict", "cat;70\nDOG; 20 \nrock 'n' roll;100\n"))
    assert words.words == ("CAT", "DOG", "ROCKNROLL")
    assert words.scores == (70, 20, 100)


@pytest.mark.parametrize("text", ["cat\ndog\n", "cat;10\ndog;90\n"])
def test_gzip_is_detected_by_magic_bytes_not_extension(tmp_path: Path, text: str) -> None:
    plain = load(write(tmp_path / "list.gz", text))  # not really gzip
    packed = load(write(tmp_path / "list.txt", text, compress=True))
    assert packed.words == plain.words == ("CAT", "DOG")
    assert packed.scores == plain.scores


def test_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfcat;40\n")
    assert load(path).words == ("CAT",)


def test_duplicates_collapse_keeping_highest_score(tmp_path: Path) -> None:
    words = load(write(tmp_path / "dupes.txt", "cat;10\nCAT;70\nCat;30\ncafé;5\ncafe;60\n"))
    assert words.words == ("CAFE", "CAT")
    assert words.scores == (60, 70)
    assert words.duplicates == 3
    assert words.dropped == 0


def test_from_words_matches_load(tmp_path: Path) -> None:
    loaded = load(write(tmp_path / "l.txt", "b;10\na;20\n"))
    built = from_words(["b", "a"], [10, 20])
    assert built.words == loaded.words and built.scores == loaded.scores
    assert built.content_hash == loaded.content_hash
    assert built.name == "<memory>"


# --- filters -----------------------------------------------------------------


def test_length_and_score_filters(tmp_path: Path) -> None:
    path = write(tmp_path / "f.txt", "a;90\nab;10\nabc;50\nabcd;80\nabcde;30\n")
    assert load(path, min_length=3).words == ("ABC", "ABCD", "ABCDE")
    assert load(path, max_length=2).words == ("A", "AB")
    assert load(path, min_length=2, max_length=4, min_score=50).words == ("ABC", "ABCD")
    assert load(path, min_score=80).scores == (90, 80)


def test_filter_leaving_nothing_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / "short.txt", "ab\nabc\n")
    message = r"short\.txt: no words of length >= 10 .*lengths 2..3"
    with pytest.raises(DictionaryError, match=message):
        load(path, min_length=10)


@pytest.mark.parametrize(
    "kwargs", [{"min_length": 0}, {"min_length": 5, "max_length": 4}, {"min_score": 101}]
)
def test_bad_filter_arguments(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        load("en", **kwargs)


# --- WordList ------------------------------------------------------------------


def test_wordlist_queries() -> None:
    words = from_words(["cat", "dog", "house", "at"], [60, 40, 90, 20], name="mini")
    assert len(words) == 4
    assert "CAT" in words and "cat" not in words and "EMU" not in words
    assert words.score("HOUSE") == 90
    with pytest.raises(KeyError):
        words.score("EMU")
    assert words.by_length(3) == ("CAT", "DOG")
    assert words.by_length(4) == ()
    assert words.lengths() == {2: 1, 3: 2, 5: 1}
    words.require_lengths([2, 3, 5])
    with pytest.raises(DictionaryError, match=r"mini: no words of length 4, 7"):
        words.require_lengths([3, 7, 4])


def test_content_hash_is_of_normalised_lines() -> None:
    words = from_words(["b", "a", "A"], [50, 10, 50])
    assert words.content_hash == hashlib.sha256(b"A;50\nB;50\n").hexdigest()
    assert from_words(["a", "b"], [50, 49]).content_hash != words.content_hash


def test_wordlist_is_immutable() -> None:
    words = from_words(["cat"])
    with pytest.raises(AttributeError):
        words.name = "other"  # type: ignore[misc]
    assert isinstance(words, WordList)


def test_from_words_rejects_bad_scores() -> None:
    with pytest.raises(DictionaryError, match=r"<memory>, entry 2.*101"):
        from_words(["cat", "dog"], [1, 101])
    with pytest.raises(ValueError, match="2 words but 1 scores"):
        from_words(["cat", "dog"], [1])


# --- bad input ---------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DictionaryError, match=r"nope\.txt: no such word-list file"):
        load(tmp_path / "nope.txt")


def test_directory_is_not_a_list(tmp_path: Path) -> None:
    with pytest.raises(DictionaryError, match="not a regular file"):
        load(tmp_path)


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_empty_list(tmp_path: Path, text: str) -> None:
    with pytest.raises(DictionaryError, match=r"empty\.txt: the list is empty"):
        load(write(tmp_path / "empty.txt", text))


def test_empty_after_normalisation(tmp_path: Path) -> None:
    with pytest.raises(DictionaryError, match=r"junk\.txt: none of its 3 entries"):
        load(write(tmp_path / "junk.txt", "cat's\n1234\n%%\n"))


def test_binary_file_names_line(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"cat\ndog\n\x89PNG\x00\x01\x02")
    with pytest.raises(DictionaryError, match=r"image\.png, line 3: binary data"):
        load(path)


def test_non_utf8_names_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("cat\ndog\ncafé\n".encode("latin-1"))
    message = r"latin1\.txt, line 3: not valid UTF-8 \(byte 0xe9\)"
    with pytest.raises(DictionaryError, match=message):
        load(path)


def test_corrupt_gzip(tmp_path: Path) -> None:
    path = tmp_path / "broken.gz"
    path.write_bytes(gzip.compress(b"cat\ndog\n" * 100)[:30])
    with pytest.raises(DictionaryError, match=r"broken\.gz: starts like gzip"):
        load(path)


@pytest.mark.parametrize("score", ["101", "-5", "abc", "7.5"])
def test_bad_score_names_file_and_line(tmp_path: Path, score: str) -> None:
    path = write(tmp_path / "scores.txt", f"cat;50\n\ndog;{score}\n")
    message = r"scores\.txt, line 3: expected a score from 0 to 100"
    with pytest.raises(DictionaryError, match=message):
        load(path)


def test_scored_list_line_without_score(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.txt", "cat;50\n\ndog\n")
    with pytest.raises(DictionaryError, match=r"mixed\.txt, line 3: expected WORD;SCORE"):
        load(path)


def test_reload_after_file_changes(tmp_path: Path) -> None:
    path = write(tmp_path / "live.txt", "cat\n")
    assert load(path).words == ("CAT",)
    write(path, "cat\ndog\n")
    assert load(path).words == ("CAT", "DOG")


# --- named lists ---------------------------------------------------------------


def test_en_loads_with_sensible_scores() -> None:
    en = load("en")
    assert en.name == "en"
    assert len(en) > 50_000
    assert {"CAT", "HOUSE", "WATER", "PUZZLE"} <= set(en.words)
    assert 60 <= en.score("CAT") <= 90
    assert en.score("HOUSE") >= 80
    assert en.score("HOUSE") > en.score("PUZZLE") > 0
    assert en.dropped == 0 and en.duplicates == 0  # the file is already normal
    assert list(en.words) == sorted(set(en.words))
    assert all(A_TO_Z.fullmatch(w) for w in en.words)
    assert all(0 <= s <= 100 for s in en.scores)
    assert min(en.lengths()) >= 2 and max(en.lengths()) <= 23
    assert load("en") is en  # cached in-process


def test_en_file_is_deterministic_gzip() -> None:
    header = wordlist.EN_PATH.read_bytes()[:8]
    assert header[:2] == b"\x1f\x8b"
    assert header[4:8] == b"\0\0\0\0"  # mtime 0: same inputs, same bytes


def test_en_small_is_the_common_part_of_en() -> None:
    en, small = load("en"), load("en-small")
    assert small.name == "en-small"
    assert 0 < len(small) < len(en)
    assert set(small.words) <= set(en.words)
    assert all(s >= wordlist.EN_SMALL_MIN_SCORE for s in small.scores)
    assert all(small.score(w) == en.score(w) for w in small.words[::100])
    assert "HOUSE" in small


def test_named_list_filters_apply() -> None:
    five = load("en-small", min_length=5, max_length=5)
    assert set(five.lengths()) == {5}


@pytest.mark.parametrize(
    ("value", "score"), [(0.0, 0), (1.0, 0), (3.0, 40), (3.5, 50), (6.0, 100), (7.7, 100)]
)
def test_zipf_to_score_mapping(value: float, score: int) -> None:
    assert zipf_to_score(value) == score


@pytest.mark.skipif(not wordlist.SYSTEM_WORDS_PATH.is_file(), reason="wamerican not installed")
def test_system_words_list_drops_possessives() -> None:
    words = load("words")
    assert words.name == "words"
    assert "HOUSE" in words
    raw = wordlist.SYSTEM_WORDS_PATH.read_text(encoding="utf-8").split("\n")
    possessives = [line for line in raw if line.endswith("'s")]
    assert possessives and words.dropped >= len(possessives)
    plain_forms = {normalise(line) for line in raw if not line.endswith("'s")}
    # A possessive whose would-be form (e.g. AARONS) is no entry of its own
    # must not appear: it was dropped, not turned into a plural.
    orphans = [normalise(p.replace("'", "")) for p in possessives]
    orphans = [w for w in orphans if w not in plain_forms]
    assert orphans and not any(w in words for w in orphans)


def test_missing_system_words_says_install_wamerican(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wordlist, "SYSTEM_WORDS_PATH", tmp_path / "words")
    with pytest.raises(DictionaryError, match="wamerican"):
        load("words")


def test_a_path_named_like_a_named_list_is_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "en", "emu\n")
    assert load(Path("en")).words == ("EMU",)
    assert load("./en").words == ("EMU",)


# -- lists carried as content (for workers that cannot read the file) ----------------------------

@given(st.lists(st.text(alphabet="abcdeé -'", min_size=1, max_size=6), min_size=1, max_size=30),
       st.integers(1, 4), st.integers(0, 60))
def test_a_shipped_list_loads_as_the_file_does(entries: list[str], min_length: int, min_score: int) -> None:
    scored = [f"{entry};{(7 * i) % 101}" for i, entry in enumerate(entries)]
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder) / "mine.txt", "\n".join(scored) + "\n")
        try:
            expected = load(path, min_length=min_length, min_score=min_score)
        except DictionaryError:
            return  # nothing usable: portable refuses it the same way
        shipped = portable(path)
        assert isinstance(shipped, ListContent) and shipped.sha256 == load(path).content_hash
    assert load(shipped, min_length=min_length, min_score=min_score) == expected  # the file is gone by now


def test_a_shipped_list_survives_pickling_and_loads_once_per_process(tmp_path: Path) -> None:
    shipped = portable(write(tmp_path / "mine.txt", "emu\nyak\nyak\nx-ray\ncat's\n"))
    copy = pickle.loads(pickle.dumps(shipped))
    assert copy == shipped and copy is not shipped
    assert load(copy) is load(shipped)  # cached by content hash
    assert (load(copy).dropped, load(copy).duplicates, load(copy).name) == (1, 1, str(tmp_path / "mine.txt"))


def test_damaged_shipped_bytes_are_refused(tmp_path: Path) -> None:
    shipped = portable(write(tmp_path / "mine.txt", "emu\nyak\n"))
    other = zlib.compress(b"EMU;50\nGNU;50\n")
    with pytest.raises(DictionaryError, match="does not match its sha256"):
        load(dataclasses.replace(shipped, packed=other))
    with pytest.raises(DictionaryError, match="does not decompress"):
        load(dataclasses.replace(shipped, sha256="0" * 64, packed=b"not zlib"))


def test_embedded_lists_travel_by_name_and_the_system_list_as_content() -> None:
    assert portable("en") == "en" and portable("en-small") == "en-small"
    if wordlist.SYSTEM_WORDS_PATH.exists():
        shipped = portable("words")
        assert isinstance(shipped, ListContent) and load(shipped) == load("words")
