"""The one error line of the `mobius` command: ``mobius: error: MESSAGE`` on stderr.

Covers: `one_line`, which makes any message one readable, bounded line, and
`error_line`, which prints it; used by `cli.py`'s error policy and by a
command that reports a failure itself before its exit code. Leaves out:
which failures become which exit codes (`cli.py`, `exits.py`).
"""

from __future__ import annotations

import re
import sys

# An error line quotes at most this many characters of any one word (a
# path, an argument: long real paths still fit) and is at most
# MAX_MESSAGE_CHARS long: a 100,000-character argument must not come back in full.
MAX_WORD_CHARS = 240
MAX_MESSAGE_CHARS = 800
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD_CHARS + 1},}}")


def one_line(message: str) -> str:
    """`message` as one readable line: whitespace collapsed, control characters (a NUL, a
    terminal escape from a file name) shown escaped, long words and the whole cut."""
    text = " ".join(str(message).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    text = _LONG_WORD.sub(lambda m: f"{m.group()[:MAX_WORD_CHARS - 40]}…({len(m.group())} characters)", text)
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS - 1] + "…"


def error_line(message: str) -> None:
    print(f"mobius: error: {one_line(message)}", file=sys.stderr, flush=True)
