"""Build the embedded `en` word list, dictionaries/data/en.txt.gz.

Covers: the developer-run build. It takes wordfreq's large English list,
keeps the entries that english-words (web2 + GCIDE) also knows, normalises
them with `dictionaries.wordlist.normalise`, scores each by its Zipf
frequency and writes sorted `WORD;SCORE` lines as gzip with a fixed header
(mtime 0), so the same inputs give the same bytes.

Score mapping: score = round(20 * (zipf - 1)), clamped to 0..100. Zipf 1 (one
occurrence per billion words, the floor of wordfreq's large list) scores 0,
Zipf 3.5 (about 3 per million) scores 50, Zipf 6 and above (the commonest
few hundred words) scores 100. Where several entries normalise to one word
(e.g. "I'm" and "im"), the highest score wins.

Leaves out: everything at runtime. wordfreq and english-words are build-time
tools only; the package reads the committed file and never downloads.
Built with wordfreq 3.1.1 and english-words 2.0.2; another version may change
the output. Run from the repository top level:

    pip install wordfreq english-words
    python -m dictionaries.build_en
"""

from __future__ import annotations

import argparse
import gzip
from collections.abc import Iterator
from pathlib import Path

from dictionaries.wordlist import EN_PATH, MAX_SCORE, MIN_SCORE, from_words, normalise

# Crossword grids go up to 23 cells a side, so no light is longer than 23;
# single letters are never crossword entries.
MIN_WORD_LENGTH = 2
MAX_WORD_LENGTH = 23
# Zipf 1 is the rarest frequency in wordfreq's large list; each further unit
# of Zipf (a tenfold frequency) is worth 20 points, so Zipf 6 reaches 100.
ZIPF_FLOOR = 1.0
POINTS_PER_ZIPF = 20
ENGLISH_WORDS_SOURCES = ("web2", "gcide")


def zipf_to_score(zipf: float) -> int:
    """Map a Zipf frequency to a 0..100 score (see the module docstring)."""
    score = round(POINTS_PER_ZIPF * (zipf - ZIPF_FLOOR))
    return max(MIN_SCORE, min(MAX_SCORE, score))


def english_vocabulary() -> set[str]:
    """english-words' entries, normalised: the filter that keeps real words."""
    # Imported here so the module (and zipf_to_score) loads without build deps.
    from english_words import get_english_words_set

    entries = get_english_words_set(list(ENGLISH_WORDS_SOURCES), alpha=True, lower=True)
    return {word for word in map(normalise, entries) if word is not None}


def scored_entries(vocabulary: set[str]) -> Iterator[tuple[str, int]]:
    """(entry, score) for wordfreq entries whose normal form is in `vocabulary`."""
    from wordfreq import iter_wordlist, zipf_frequency

    for entry in iter_wordlist("en", "large"):
        word = normalise(entry)
        if word in vocabulary and MIN_WORD_LENGTH <= len(word) <= MAX_WORD_LENGTH:
            yield entry, zipf_to_score(zipf_frequency(entry, "en", "large"))


def build(output: Path) -> int:
    """Write the list to `output`; return its word count."""
    entries, scores = zip(*scored_entries(english_vocabulary()))
    # from_words normalises and keeps the highest score per word, exactly as
    # load() will when it reads the file back.
    words = from_words(entries, scores, name="en")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(gzip.compress(words.to_text().encode("ascii"), 9, mtime=0))
    return len(words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=EN_PATH)
    args = parser.parse_args()
    try:
        count = build(args.output)
    except ImportError as error:
        raise SystemExit(
            f"{error}: run `pip install wordfreq english-words` first"
        ) from None
    print(f"wrote {count} words to {args.output} ({args.output.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
