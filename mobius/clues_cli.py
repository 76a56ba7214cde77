"""`mobius clues check PATH…`: clue files and puzzles reviewed rule by rule, as an editor reviews them.

Covers: reading each PATH — a `WORD<TAB>clue` file (the form `--clues FILE` merges
into packs), a crossword puzzle file (`NNNN.json`) or a folder of them (a pack: its
`puzzles/`); a bad file is one error, exit 2 — and flagging each clue that breaks a
rule (`mobius.dictionaries.clue_check.clue_flags`: too long, cut off, giving the answer
away, a blocked term, untagged British use, valency, a shortening unmarked, an answer
outside the `en` list or under the packs' default score), and in a puzzle each echo
between its clues (`grid_flags`: a clue naming another answer, two clues read alike).
One line a flag, `WHERE: WORD: rule — clue` (WHERE is `FILE:LINE` or `FILE 3-across`);
with `--questions`, the questions an editor answers (`clue_usage.number_question`) print as
`question:` lines (off by default: on the embedded bank none of 30 read was a fault).
Exit code: 1 when any clue is flagged, 0 when none (questions do not count).
Leaves out: the rules themselves (`dictionaries/`) and changing the files.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from mobius.exits import EXIT_FLAGGED, EXIT_OK
from mobius.word_options import Spelling, SpellingOpt

app = typer.Typer(help="Review clue files (WORD<TAB>clue lines, as --clues FILE takes them) and puzzles.",
                  no_args_is_help=True)

# One clue to review: where it stands (`FILE:LINE` or `FILE 3-across`), its answer and its clue.
Reviewed = tuple[str, str, str]


@app.command("check")
def check(
    paths: Annotated[list[Path], typer.Argument(
        help="WORD<TAB>clue files ('#' starts a comment), crossword puzzle files (NNNN.json) or pack folders.")],
    spelling: SpellingOpt = Spelling.american,
    questions: Annotated[bool, typer.Option(
        "--questions", help="Also print a 'question:' line for each one-word clue whose number may differ from its "
                            "answer's (EMPLOYMENT \"Jobs\"); collectives and mass nouns clue across number by "
                            "convention (AUDIENCE \"Spectators\"), so most are fine. They never change the exit code.")] = False,
) -> None:
    """Flag every clue that breaks a rule, one line each; exit 1 if any is flagged, 0 if none."""
    from mobius.dictionaries.clue_check import clue_flags, clue_rules, grid_flags
    from mobius.dictionaries.clue_usage import number_question

    rules = clue_rules(spelling.value)
    flagged = asked = clues = 0
    for is_puzzle, reviewed in _sources(paths):
        clues += len(reviewed)
        lines = [(*entry, flag) for entry in reviewed for flag in clue_flags(entry[1], entry[2], rules)]
        if is_puzzle:  # a puzzle's clues are read together, as a solver reads them
            lines += [(*reviewed[i], flag) for i, flag in grid_flags([(answer, clue) for _, answer, clue in reviewed])]
        for where, answer, clue, flag in lines:
            typer.echo(f"{where}: {answer}: {flag} — {clue}")
        flagged += len(lines)
        for where, answer, clue in reviewed if questions else ():
            if (question := number_question(answer, clue)) is not None:
                typer.echo(f"{where}: {answer}: question: {question} — {clue}")
                asked += 1
    typer.echo(f"{clues} clues, {flagged} flags" + (f", {asked} questions" if questions else ""), err=True)
    raise typer.Exit(EXIT_FLAGGED if flagged else EXIT_OK)


def _sources(paths: list[Path]) -> Iterator[tuple[bool, list[Reviewed]]]:
    """Each file named or found in a folder named — whether it is a puzzle, and its clues; InputError
    for a file that is neither a clue file nor a crossword puzzle, or a folder holding no puzzle."""
    from mobius.cpmodel.errors import InputError
    from mobius.generators.crossword.clues import numbered_clue_lines

    for path in paths:
        if path.is_dir():
            found = sorted((path / "puzzles").glob("*.json")) or sorted(path.glob("*.json"))
            if not found:
                raise InputError("expected a pack folder (puzzles/*.json) or a folder of puzzle files", source=str(path))
            for puzzle in found:
                yield True, _puzzle_clues(puzzle)
        elif path.suffix == ".json":
            yield True, _puzzle_clues(path)
        else:
            yield False, [(f"{path}:{number}", answer, clue) for number, answer, clue in numbered_clue_lines(path)]


def _puzzle_clues(path: Path) -> list[Reviewed]:
    """A crossword puzzle file's clued entries, each placed as `FILE 3-across`."""
    from mobius.cpmodel.errors import InputError
    from mobius.generators.puzzles import read_puzzle_file

    puzzle = read_puzzle_file(path)
    if puzzle["kind"] != "crossword":
        raise InputError(f"expected a crossword puzzle, got a {puzzle['kind']} puzzle", source=str(path))
    return [(f"{path} {e['number']}-{e['direction']}", e["answer"], e["clue"])
            for e in puzzle["entries"] if e["clue"].strip()]
