"""`mobius pack crossword|slider`: batch-generate a puzzle pack."""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cpmodel.errors import InputError
from generators.crossword_pack import DEFAULT_POLISH
from generators.pack import PackError, build_pack
from generators.pack import Progress as PackProgress

app = typer.Typer(help="Batch-generate puzzle packs.", no_args_is_help=True)
console = Console(stderr=True)

OutOpt = Annotated[Path, typer.Option("--out", help="Pack directory to create (or complete with --resume).")]
CountOpt = Annotated[int, typer.Option("--count", min=1, help="Number of puzzles.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Pack seed; every random choice flows from it.")]
WorkersOpt = Annotated[int, typer.Option("--workers", min=1, help="Parallel jobs (default: all cores).")]
ExecutorOpt = Annotated[str, typer.Option("--executor", help="local (processes) or dask.")]
SchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address.")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="Complete an interrupted pack in --out.")]

EXIT_INTERRUPTED = 130
ALL_CORES = os.cpu_count() or 1


def _run(spec: Any, out: Path, workers: int, executor: str, scheduler: str | None, resume: bool) -> None:
    command = " ".join(["mobius", *map(shlex.quote, sys.argv[1:])])
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("redone {task.fields[rejected]}"), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(f"{spec.kind} pack", total=spec.count, rejected=0)
        shown: list[str] = []

        def show(p: PackProgress) -> None:
            for note in p.notes[len(shown):]:  # what the pack plan says, as soon as it says it
                bar.console.print(f"note: {note}")
                shown.append(note)
            bar.update(task, completed=p.done, rejected=p.rejected)

        try:
            puzzles = build_pack(spec, out, workers=workers, executor=executor, scheduler=scheduler, resume=resume,
                                 command=command, on_progress=show)
        except PackError as exc:
            raise InputError(str(exc)) from None
        except KeyboardInterrupt:
            done = len(list((out / "puzzles").glob("*.json")))
            console.print(f"interrupted: {done} of {spec.count} puzzles are written in {out}; "
                          f"finish with the same command and --resume")
            raise typer.Exit(EXIT_INTERRUPTED) from None
    rejected = sum(int(p.get("rejected", 0)) for p in puzzles.values())
    console.print(f"wrote {len(puzzles)} {spec.kind} puzzles to {out} ({rejected} redone along the way); "
                  f"manifest: {out / 'manifest.json'}")
    if spec.kind == "crossword":
        from generators.quality import pack_quality, summary_line

        console.print(summary_line(pack_quality([puzzles[i] for i in sorted(puzzles)])))


@app.command("crossword")
def crossword_command(
    out: OutOpt,
    count: CountOpt = 10,
    width: Annotated[int, typer.Option("--width", min=3, max=25)] = 11,
    height: Annotated[int, typer.Option("--height", min=3, max=25)] = 5,
    surface: Annotated[str, typer.Option("--surface")] = "mobius",
    dictionary: Annotated[str, typer.Option("--dict", help="en, en-small, words, or a file.")] = "en",
    min_score: Annotated[int, typer.Option("--min-score", min=0, max=100,
                                           help="Skip words scored lower (30 keeps to words met in print).")] = 30,
    solver: Annotated[str, typer.Option("--solver", help="reference or cpsat (name:key=value,...).")] = "reference",
    seed: SeedOpt = 0,
    workers: WorkersOpt = ALL_CORES,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.1,
                                              help="Seconds per fill attempt (a backstop; budgets are "
                                                   "deterministic).")] = 10.0,
    allow_repeats: Annotated[bool, typer.Option("--allow-repeats",
                                                help="Answers may recur across the pack (never within a puzzle); "
                                                     "unused words are still preferred.")] = False,
    min_seam_lights: Annotated[Optional[int], typer.Option(
        "--min-seam-lights", min=0, help="Lights across the seam per puzzle (default 2 on a glued surface, "
                                         "0 on the plane).")] = None,
    polish: Annotated[float, typer.Option("--polish", min=0.0,
                                          help="CP-SAT deterministic seconds per puzzle to improve its fill; "
                                               "0 for none.")] = DEFAULT_POLISH,
    max_seam_crossings: Annotated[int, typer.Option("--max-seam-crossings", min=-1,
                                                    help="Per light; -1 for no limit.")] = 1,
    max_length: Annotated[int, typer.Option("--max-length", min=0,
                                            help="Longest light (0: the grid's longer side).")] = 0,
    clues: Annotated[Optional[str], typer.Option(
        "--clues", help="WORD<TAB>clue file, or 'wordnet' for definitions from Debian's wordnet-base "
                        "(a file named wordnet: ./wordnet).")] = None,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Generate crosswords: distinct patterns on the surface, filled, polished and verified."""
    from cpmodel.surface import surface as find_surface
    from generators.clues import load_clues
    from generators.crossword_pack import CrosswordPackSpec
    from generators.patterns import PatternError

    try:
        surface_name = find_surface(surface).name
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    try:
        spec = CrosswordPackSpec(count=count, width=width, height=height, surface=surface_name,
                                 dictionary=dictionary, min_score=min_score, solver=solver, seed=seed,
                                 time_limit=time_limit, allow_repeats=allow_repeats,
                                 max_seam_crossings=None if max_seam_crossings < 0 else max_seam_crossings,
                                 max_length=max_length or None, min_seam_lights=min_seam_lights, polish=polish)
        spec.pattern_spec()  # a rule that cannot hold on this surface fails here
    except PatternError as exc:
        raise InputError(str(exc)) from None
    words = spec.words()  # a bad dictionary fails here, before any worker starts
    if clues:
        # Only the dictionary's words can be answers; the rest of WordNet would
        # be copied to every worker for nothing.
        spec = replace(spec, clues=load_clues(clues, words.words))
    _run(spec, out, workers, executor, scheduler, resume)


@app.command("slider")
def slider_command(
    out: OutOpt,
    board: Annotated[str, typer.Option("--board", help="Preset (ring, grid:3x3, …) or board file.")] = "ring",
    count: CountOpt = 10,
    depth: Annotated[str, typer.Option("--depth", help="Optimal lengths MIN..MAX, spread evenly.")] = "4..12",
    blanks: Annotated[int, typer.Option("--blanks", min=1)] = 1,
    solver: Annotated[str, typer.Option("--solver", help="bfs, astar, idastar or cpsat (default idastar; "
                                                         "bfs with several blanks).")] = "",
    seed: SeedOpt = 0,
    workers: WorkersOpt = ALL_CORES,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.1, help="Seconds per solve.")] = 60.0,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Generate slider puzzles with exact optimal lengths and their solutions."""
    from generators.slider_pack import SliderPackSpec, parse_depths

    low, high = parse_depths(depth)
    spec = SliderPackSpec(count, board, low, high, blanks, solver, seed, time_limit)
    spec.load_board()  # a bad board fails here, before any worker starts
    _run(spec, out, workers, executor, scheduler, resume)
