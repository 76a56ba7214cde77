"""The one error type for bad input read by the model layer.

Covers: a message that names the source (file, line, value) and what was
expected, so the CLI can print it as one line and exit with code 2. Leaves
out: dictionary errors, which the layer below raises as its own type.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: a file, a line or a value that is not what was expected."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None) -> None:
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(where + message)
        self.source = source
        self.line = line
