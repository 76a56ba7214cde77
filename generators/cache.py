"""The user's cache of derived tables: where it is, as a store to hand to cpmodel.

Covers: `user_cache_dir` (``$XDG_CACHE_HOME/mobius-puzzles``, else
``~/.cache/mobius-puzzles``), `user_store`, the `DirectoryStore` there (an
`InputError` naming the place when it, or the folder above it, is a file,
device, FIFO or socket rather than a directory), and
`word_source`, what a fill reads a word list from: an embedded list by its
name, any other list through the parsed-list cache in ``words/`` under it
(`mobius.cpmodel.crossword.word_cache`).
The CLI, the pack generators and the benchmark harness call it; cpmodel never
does (it takes whatever store its caller gives it, or none). Computed where
the work runs, so a pack job on a Dask worker uses that machine's cache.
Every entry is checked against its checksum when a process first reads it
(`mobius.cpmodel.store`); a damaged one is reported in one line on stderr and
rebuilt.

Leaves out: the store itself (`mobius.cpmodel.store`) and what goes in it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.files import kind_of

if TYPE_CHECKING:  # numpy: only the commands that use tables import the store
    from mobius.cpmodel.store import DirectoryStore
    from mobius.dictionaries import WordList

CACHE_NAME = "mobius-puzzles"
WORDS_DIR = "words"


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/mobius-puzzles`` or ``~/.cache/mobius-puzzles`` (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / CACHE_NAME


def user_store() -> DirectoryStore:
    from mobius.cpmodel.store import DirectoryStore

    root = user_cache_dir()
    for place in (root, root.parent):
        if place.exists() and not place.is_dir():
            # Said here, where the place is known, rather than as "Not a directory" under an entry's name.
            named = place == root.parent and bool(os.environ.get("XDG_CACHE_HOME"))
            what = f"{place} (XDG_CACHE_HOME)" if named else str(place)
            advice = "point XDG_CACHE_HOME at a directory" if named else \
                "remove it, or point XDG_CACHE_HOME at another directory"
            raise InputError(f"the cache folder {what} is {kind_of(place.stat().st_mode)}, not a directory; {advice}")
    return DirectoryStore(root)


def word_source(dictionary: str) -> str | WordList:
    """What a fill reads `dictionary` (a named list or a file) from: the embedded lists by name, which
    `mobius.dictionaries.load` reads with their spelling; any other list parsed once into the user's cache and
    memory-mapped from it after."""
    from mobius.cpmodel.crossword.word_cache import load_list
    from mobius.dictionaries.wordlist import EMBEDDED_LISTS

    if dictionary in EMBEDDED_LISTS:
        return dictionary
    return load_list(user_cache_dir() / WORDS_DIR, dictionary)
