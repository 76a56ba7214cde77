"""The error type for bad word lists (missing, empty, binary, wrong lengths)."""

from __future__ import annotations


class DictionaryError(ValueError):
    """A word list that cannot be used, with the path and the reason."""
