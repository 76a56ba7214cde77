"""What reading the caches back costs: a word-list entry and its indexes, the lemma table, the kernel check.

Covers: `python -m mobius.benchmarks.cache_reads [--list PATH] [--repeats N]`,
in one process and a cache directory of its own: the list's entry in the
word-list cache (written once first) loaded `repeats` times, the memo of
loaded lists cleared in between, each time with every length's index asked
for (`word_cache.load_list`, `propagation.length_index`); the lemma table
read from the cache the same way (`word_family.lemma_table`); and, where
this version has it, the check of the loaded kernels' cache files before a
warm-up (`kernel_cache.refuse_unusable_files`). It prints the median of each
in milliseconds. It calls nothing the versions before the checks lack (bar
the kernel check), so the same file run by another version's interpreter
(`PYTHONPATH` on its checkout) measures that version side by side.

Leaves out: whole commands from the shell (`startup.py`).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SYSTEM_WORDS = "/usr/share/dict/words"


def median_ms(step: Callable[[], object], repeats: int) -> float:
    """The median wall time of `step` over `repeats` calls, in milliseconds (garbage collected between)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        began = time.perf_counter()
        step()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def word_list_ms(source: str, repeats: int, root: Path) -> tuple[float, float]:
    """(the entry loaded, the entry loaded and every length's index read from it), median ms."""
    from mobius.cpmodel.crossword import word_cache
    from mobius.cpmodel.crossword.propagation import length_index

    word_cache.load_list(root, source)  # writes the entry

    def load() -> object:
        word_cache._LOADED.clear()
        return word_cache.load_list(root, source)

    def load_and_index() -> None:
        words = load()
        for length in words.lengths():
            length_index(words, length)

    return median_ms(load, repeats), median_ms(load_and_index, repeats)


def lemma_table_ms(repeats: int) -> float:
    from mobius.generators.crossword import word_family

    word_family.lemma_table()  # writes the table

    def read() -> None:
        word_family.lemma_table.cache_clear()
        word_family.lemma_table()

    return median_ms(read, repeats)


def kernel_check_ms(repeats: int) -> float | None:
    """The check of every loaded kernel's cache files (the crossword and slider kernels loaded)."""
    from mobius.cpmodel import kernel_cache
    from mobius.cpmodel.crossword import compiled  # noqa: F401 - loads the crossword kernels
    from mobius.cpmodel.slider import compiled as slider_compiled  # noqa: F401 - the slider's

    check = getattr(kernel_cache, "refuse_unusable_files", None)
    return None if check is None else median_ms(check, repeats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", default=SYSTEM_WORDS, help="the word list (default: the system's words)")
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mobius-cache-reads-") as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp  # the lemma table's cache, this run's own
        load, indexed = word_list_ms(args.list, args.repeats, Path(tmp) / "words")
        lemmas = lemma_table_ms(args.repeats)
        kernels = kernel_check_ms(args.repeats)
    print(f"word-list entry of {args.list}: loaded {load:.1f} ms, with every length's index {indexed:.1f} ms")
    print(f"lemma table: {lemmas:.1f} ms")
    print("kernel cache check: " + ("absent in this version" if kernels is None else f"{kernels:.2f} ms"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
