"""`mobius clues check FILE`: a clue file reviewed rule by rule, as an editor reviews one.

Covers: reading a `WORD<TAB>clue` file (the form `--clues FILE` merges into
packs; a bad line is one error, exit 2), flagging each clue that breaks a
rule (`mobius.dictionaries.clue_check.clue_flags`: too long, cut off, giving the
answer away, a blocked term, an answer outside the `en` list or under the
packs' default score), one line a flag as `FILE:LINE: WORD: rule — clue`,
and the exit code: 0 when no clue is flagged, 1 when any is. Leaves out:
the rules themselves (`dictionaries/clue_check.py`) and changing the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mobius.exits import EXIT_FLAGGED, EXIT_OK
from mobius.word_options import Spelling, SpellingOpt

app = typer.Typer(help="Review clue files (WORD<TAB>clue lines, as --clues FILE takes them).", no_args_is_help=True)


@app.command("check")
def check(
    clue_file: Annotated[Path, typer.Argument(help="A WORD<TAB>clue file, one clue a line ('#' starts a comment).")],
    spelling: SpellingOpt = Spelling.american,
) -> None:
    """Flag every clue that breaks a rule, one line each; exit 1 if any is flagged, 0 if none."""
    from mobius.dictionaries.clue_check import clue_flags, clue_rules
    from mobius.generators.crossword.clues import numbered_clue_lines

    lines = numbered_clue_lines(clue_file)
    rules = clue_rules(spelling.value)
    flagged = 0
    for number, answer, clue in lines:
        for flag in clue_flags(answer, clue, rules):
            typer.echo(f"{clue_file}:{number}: {answer}: {flag} — {clue}")
            flagged += 1
    typer.echo(f"{len(lines)} clues, {flagged} flags", err=True)
    raise typer.Exit(EXIT_FLAGGED if flagged else EXIT_OK)
