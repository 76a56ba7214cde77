"""The user's cache of derived tables: where it is, as a store to hand to cpmodel.

Covers: `user_cache_dir` (``$XDG_CACHE_HOME/mobius-puzzles``, else
``~/.cache/mobius-puzzles``) and `user_store`, the `DirectoryStore` there.
The CLI, the pack generators and the benchmark harness call it; cpmodel never
does (it takes whatever store its caller gives it, or none). Computed where
the work runs, so a pack job on a Dask worker uses that machine's cache.
Every entry is checked against its checksum when a process first reads it
(`cpmodel.store`); a damaged one is reported in one line on stderr and
rebuilt.

Leaves out: the store itself (`cpmodel.store`) and what goes in it.
"""

from __future__ import annotations

import os
from pathlib import Path

from cpmodel.store import DirectoryStore

CACHE_NAME = "mobius-puzzles"


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/mobius-puzzles`` or ``~/.cache/mobius-puzzles`` (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / CACHE_NAME


def user_store() -> DirectoryStore:
    return DirectoryStore(user_cache_dir())
