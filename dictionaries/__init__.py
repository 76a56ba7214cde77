"""Word lists: loading, normalising and scoring; the embedded default list.

Covers: `load` for the named lists (`en`, the embedded list built from
wordfreq and english-words; `en-small`, its commoner part; `words`, the
system's /usr/share/dict/words) and for plain, `WORD;SCORE` and gzip files;
`from_words` for in-memory lists; `portable` and `ListContent`, a list
carried to a job as its content rather than a path; `normalise`, the one
rule turning an entry into upper-case A–Z; `WordList`, the immutable
result; `DictionaryError` for unusable lists.

Leaves out: grids, slots and solvers (this is the bottom layer and imports
nothing from the other packages), and any download at runtime — the `en`
data file is built by a developer with `python -m mobius.dictionaries.build_en`.
"""

from mobius.dictionaries.errors import DictionaryError
from mobius.dictionaries.wordlist import (
    NAMED_LISTS,
    ListContent,
    WordList,
    adjusted,
    from_words,
    load,
    normalise,
    portable,
    read_word_set,
)

__all__ = ["NAMED_LISTS", "DictionaryError", "ListContent", "WordList", "adjusted", "from_words", "load", "normalise",
           "portable", "read_word_set"]
