"""`mobius crossword …`: lights, show and fill crossword grids on surfaces."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from mobius.cpmodel.crossword.grid import read_grid
from mobius.cpmodel.crossword.lights import DEFAULT_MIN_LENGTH, find_lights
from mobius.cpmodel.crossword.render import render_grid, render_lights
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.solver import (Status, budget_spent, budget_text, get_solver, parse_spec, require_usable, solver_names,
                                   stats_text)
from mobius.exits import EXIT_INTERNAL, EXIT_NO_SOLUTION, EXIT_OK, EXIT_TIMEOUT
from mobius.generators.puzzles import grid_clues
from mobius.options import time_limit_option
from mobius.word_options import AllowOpt, BanOpt, CluesOpt, NoCluesOpt, Spelling, SpellingOpt, clue_options

app = typer.Typer(help="Crosswords on surfaces: plane, cylinder, mobius, torus, klein, projective.", rich_markup_mode=None,
                  no_args_is_help=True)

GridArg = Annotated[Path, typer.Argument(help="Grid file: plain text, JSON or Qxw .qxw.")]
SurfaceOpt = Annotated[Optional[str], typer.Option("--surface", help="Override the grid file's surface.")]
MinLengthOpt = Annotated[int, typer.Option("--min-length", min=1, help="Shortest run that counts as a light.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]

# Exit codes of `fill`, as documented in the README; any other status is EXIT_INTERNAL.
FILL_EXITS = {Status.SOLVED: EXIT_OK, Status.UNSAT: EXIT_NO_SOLUTION, Status.TIMEOUT: EXIT_TIMEOUT}
# The solver a TIMEOUT points to: it can prove that a grid has no fill, which the searches cannot in time.
PROVING_SOLVER = "cpsat"


def timeout_note(solver: str, time_limit: float | None, budget: str = "") -> str:
    """What to try after a TIMEOUT, in one line: `budget` is the deterministic budget the solver ran out
    of (`budget_text`), which a longer time limit does not raise; "" when the time limit stopped it."""
    if budget:
        tries = []
        head = f"no fill within the budget of {budget}; not proven that none exists"
    else:
        tries = [] if time_limit is None else [f"a longer --time-limit than {time_limit:g} s"]
        head = "no answer within the limit"
    if solver != PROVING_SOLVER:
        tries.append(f"--solver {PROVING_SOLVER}, which can also prove that no fill exists")
    return head + (f": try {' or '.join(tries)}" if tries else "")


@app.command("lights")
def lights_command(grid: GridArg, surface: SurfaceOpt = None, min_length: MinLengthOpt = DEFAULT_MIN_LENGTH,
                   as_json: JsonOpt = False) -> None:
    """Print the numbered lights of GRID, following the glue of its surface."""
    g = read_grid(grid, surface)
    found = find_lights(g, min_length)
    if as_json:
        typer.echo(json.dumps(found.to_json()))
        return
    typer.echo(render_grid(g))
    typer.echo(render_lights(found))


@app.command("show")
def show_command(grid: GridArg, surface: SurfaceOpt = None) -> None:
    """Render GRID (with its letters, if filled) with seam markers."""
    typer.echo(render_grid(read_grid(grid, surface)))


@app.command("fill")
def fill_command(
    grid: GridArg,
    surface: SurfaceOpt = None,
    dictionary: Annotated[str, typer.Option("--dict", help="Word list: en, en-small, words, or a file.")] = "en",
    solver: Annotated[str, typer.Option(help=f"{', '.join(solver_names('crossword', plugins=False))} or an installed plugin's (options: "
                                             "name:key=value,...; reference runs compiled wherever its options "
                                             "allow, reference:compiled=false is the pure-Python search).")] = "reference",
    seed: Annotated[int, typer.Option(help="Seed for every random choice.")] = 0,
    time_limit: Annotated[Optional[float], time_limit_option(
        "Seconds for the whole solve, set-up included")] = None,
    min_score: Annotated[int, typer.Option("--min-score", min=0, max=100, help="Skip words scored lower.")] = 0,
    min_length: MinLengthOpt = DEFAULT_MIN_LENGTH,
    allow_repeats: Annotated[bool, typer.Option("--allow-repeats", help="Let a word fill two lights.")] = False,
    clues: CluesOpt = None,
    no_clues: NoCluesOpt = False,
    clued_only: Annotated[bool, typer.Option(
        "--clued-only", help="Fill only from the words that have a clue (default: every word of the list; "
                             "an entry without a clue prints with an empty one).")] = False,
    ban: BanOpt = None,
    allow: AllowOpt = None,
    spelling: SpellingOpt = Spelling.american,
    as_json: JsonOpt = False,
) -> None:
    """Fill GRID from a word list. Exit 0 filled, 1 no fill exists, 2 bad input, 3 timeout, 4 internal error."""
    from mobius.cpmodel.crossword.problem import FillProblem, FillRules
    from mobius.cpmodel.crossword.verify import verify
    from mobius.generators.cache import word_source
    from mobius.generators.crossword.clues import load_bank
    from mobius.generators.crossword.fill_words import WordUse, fill_words

    g = read_grid(grid, surface)
    options = clue_options(clues, no_clues, ban, allow)
    if clued_only and no_clues:
        raise InputError("--clued-only and --no-clues contradict each other; give one")
    bank = load_bank(options["extra_clues"]) if options["clues"] else None
    # The list the user gave is used whole unless they ask for clued words only: an UNSAT
    # must mean no fill from their list, never from a part of it they did not choose.
    source, allowed, banned = word_source(dictionary), options["allow"], options["ban"]

    def words_used(counted: bool) -> WordUse:
        # Counting the clued words is a pass over the whole list: done only where the count is printed.
        return fill_words(source, dictionary, min_score=min_score, allow=allowed, ban=banned,
                          bank=bank if counted or clued_only else None, clued_only=clued_only,
                          spelling=spelling.value)

    use = words_used(as_json)
    # A length the list lacks is a wrong list, not a grid without a fill.
    use.listed.require_lengths(light.length for light in find_lights(g, min_length).lights)
    problem = FillProblem(g, use.words, FillRules(min_length=min_length, allow_repeats=allow_repeats,
                                                  min_score=min_score))
    spec = solver
    name, options = parse_spec(solver)
    if name == "cpsat" and "workers" not in options:
        # The CLI owns the machine: give CP-SAT every core unless told otherwise.
        spec = f"{solver}{',' if ':' in solver else ':'}workers={os.cpu_count() or 1}"
    engine = get_solver("crossword", spec)
    require_usable(engine, problem)
    result = engine.solve(problem, time_limit=time_limit, seed=seed)
    if result.status is Status.ERROR and result.notes:  # why the solver failed, e.g. Choco out of memory
        typer.echo(f"mobius: error: solver {result.solver}: " + "; ".join(result.notes.values()), err=True)
    fill = result.solution if result.status is Status.SOLVED else None
    if fill is not None:
        problems = verify(problem, fill)
        if problems:
            typer.echo(f"mobius: internal error: solver {result.solver} returned an invalid fill: "
                       + "; ".join(problems[:5]), err=True)
            raise typer.Exit(EXIT_INTERNAL)
    status = result.status.value  # SOLVED, UNSAT, TIMEOUT or ERROR, as every command prints it
    words_read = problem.entries(fill) if fill else None

    clues = grid_clues(bank, words_read, seed) if bank is not None and words_read else [""] * len(words_read or ())

    if result.status is Status.UNSAT:
        use = words_used(True)
    # What an UNSAT was drawn from, or what to try after a TIMEOUT, said with the
    # answer: the JSON's "note", a line on stderr.
    note = (f"no fill from {use.source} ({use.summary()})"
            + ("; without --clued-only every word of the list may be used" if clued_only else "")
            if result.status is Status.UNSAT else None)
    if result.status is Status.TIMEOUT:
        note = timeout_note(result.solver, time_limit, budget_text(engine, solver) if budget_spent(engine, result) else "")
    if as_json:
        filled = g.with_letters(fill) if fill else None
        typer.echo(json.dumps({
            "status": status, "solver": result.solver, "wall_s": round(result.wall_s, 4), "stats": result.stats,
            "words": use.to_json(), "note": note, "rows": list(filled.rows) if filled else None,
            "entries": [{"number": light.number, "direction": light.direction,
                         "cells": [list(c) for c in light.cells], "word": words_read[i],
                         "clue": clues[i]}
                        for i, light in enumerate(problem.lights.lights)] if words_read else [],
        }))
    else:
        typer.echo(f"{status} by {result.solver} in {result.wall_s:.2f} s  "
                   + stats_text(result.stats))
        if note or clued_only:
            typer.echo(note or use.summary(), err=True)
        if fill:
            typer.echo(render_grid(g, fill))
            typer.echo(render_lights(problem.lights, words_read))
            if bank is not None:
                typer.echo("\n".join(f"{light.label} {word}: {clue or '(no clue)'}"
                                      for light, word, clue in zip(problem.lights.lights, words_read, clues)))
    raise typer.Exit(FILL_EXITS.get(result.status, EXIT_INTERNAL))
