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
from generators.pack import PackError, build_pack
from generators.pack import Progress as PackProgress
from mobius.word_options import AllowOpt, BanOpt, CluesOpt, NoCluesOpt, clue_options

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
               TextColumn("rejected {task.fields[rejected]}"), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(f"{spec.kind} puzzles", total=spec.count, rejected=0)

        def show(p: PackProgress) -> None:
            done = p.exported if p.phase == "exports" else p.done
            bar.update(task, description=f"{spec.kind} {p.phase}", completed=done, rejected=p.rejected)
            seen["skipped"] = p.skipped_exports

        seen = {"skipped": 0}

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
    skipped = f"; {seen['skipped']} exports skipped, listed in it" if seen["skipped"] else ""
    console.print(f"wrote {len(puzzles)} {spec.kind} puzzles to {out} ({rejected} rejected along the way); "
                  f"manifest: {out / 'manifest.json'}{skipped}")


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
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.1, help="Seconds per fill attempt.")] = 10.0,
    unique_answers: Annotated[bool, typer.Option("--unique-answers",
                                                 help="No answer repeated across the pack (runs in order).")] = False,
    max_seam_crossings: Annotated[int, typer.Option("--max-seam-crossings", min=0,
                                                    help="Per light; -1 for no limit.")] = 1,
    max_length: Annotated[int, typer.Option("--max-length", min=0,
                                            help="Longest light (0: the grid's longer side).")] = 0,
    clues: CluesOpt = None,
    no_clues: NoCluesOpt = False,
    ban: BanOpt = None,
    allow: AllowOpt = None,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Generate crosswords: seeded patterns on the surface, filled and verified."""
    from cpmodel.surface import surface as find_surface
    from generators.crossword_pack import CrosswordPackSpec

    try:
        surface_name = find_surface(surface).name
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    spec = CrosswordPackSpec(count, width, height, surface_name, dictionary, min_score, solver, seed, time_limit,
                             unique_answers, max_seam_crossings=None if max_seam_crossings < 0 else max_seam_crossings,
                             max_length=max_length or None)
    spec = replace(spec, **clue_options(clues, no_clues, ban, allow))
    spec.words()  # a bad dictionary or word file fails here, before any worker starts
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
