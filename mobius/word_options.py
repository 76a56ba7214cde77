"""The word and clue options shared by `mobius pack crossword` and `mobius crossword fill`:
`--clues FILE`, `--no-clues`, `--ban FILE`, `--allow FILE`, `--spelling`, and reading them into spec fields."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mobius.cpmodel.errors import InputError

CluesOpt = Annotated[Optional[Path], typer.Option(
    "--clues", help="WORD<TAB>clue file: adds to the embedded clues, replacing a listed word's.")]
NoCluesOpt = Annotated[bool, typer.Option(
    "--no-clues", help="No clues: entries get none, and every word of the list may fill (a pack otherwise keeps "
                       "to the words with a clue).")]
BanOpt = Annotated[Optional[Path], typer.Option("--ban", help="File of words never to use (one a line).")]
class Spelling(str, Enum):
    american = "american"
    british = "british"


SpellingOpt = Annotated[Spelling, typer.Option(
    "--spelling", help="The embedded list's spelling: american (COLOR) or british (COLOUR); other lists are used whole.")]
AllowOpt = Annotated[Optional[Path], typer.Option(
    "--allow", help="File of words to add to the list (one a line), e.g. ones the blocklist removed.")]


def clue_options(clues: Path | None, no_clues: bool, ban: Path | None, allow: Path | None) -> dict[str, Any]:
    """The clue, ban and allow fields of a crossword spec from the command-line options."""
    from mobius.dictionaries import read_word_set
    from mobius.generators.crossword.clues import read_clue_file

    if clues is not None and no_clues:
        raise InputError("--clues FILE and --no-clues contradict each other; give one")
    return {"clues": not no_clues, "extra_clues": read_clue_file(clues) if clues else (),
            "ban": read_word_set(ban) if ban else frozenset(), "allow": read_word_set(allow) if allow else frozenset()}
