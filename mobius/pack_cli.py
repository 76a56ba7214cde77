"""`mobius pack crossword|slider`: batch-generate a puzzle pack.

Covers: the two commands, their options (bounded, so a 20-digit count or
worker number is refused at once), checking what can be checked before the
pack directory is touched (dictionary, board, pattern size, executor), the
progress bar, and interruptions: Ctrl-C or SIGTERM at any moment prints one
line and keeps every finished puzzle for `--resume` (the workers ignore
SIGINT and die with this process). Leaves out: building packs
(`generators.pack`) and what a puzzle is (`generators.*_pack`).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from collections.abc import Iterator
from typing import Annotated, Any, Optional

import typer

from cpmodel.errors import InputError
from mobius.exits import EXIT_INTERRUPTED
from mobius.options import MAX_TIME_LIMIT_S, finite
from mobius.word_options import AllowOpt, BanOpt, CluesOpt, NoCluesOpt, clue_options

app = typer.Typer(help="Batch-generate puzzle packs.", no_args_is_help=True, rich_markup_mode=None)

# Packs are files a person plays through; past this a count is a typo, and
# puzzle ids stay four digits.
MAX_COUNT = 9999
# More local workers than this only adds start-up time on any machine here;
# a Dask cluster takes at most this many jobs at once from one pack too.
MAX_WORKERS = 1024
# Kinds of skipped export (format and reason) named on the terminal; the manifest lists them all.
SKIPPED_SHOWN = 3
ALL_CORES = os.cpu_count() or 1


OutOpt = Annotated[Path, typer.Option("--out", help="Pack directory to create (or complete with --resume).")]
CountOpt = Annotated[int, typer.Option("--count", min=1, max=MAX_COUNT, help="Number of puzzles.")]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, max=2**64 - 1,
                                      help="Pack seed; every random choice flows from it.")]
WorkersOpt = Annotated[int, typer.Option("--workers", min=1, max=MAX_WORKERS,
                                         help="Parallel jobs (default: all cores).")]
ExecutorOpt = Annotated[str, typer.Option("--executor", help="local (processes) or dask.")]
SchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address.")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="Complete an interrupted pack in --out.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Write the pack into a directory that holds other files.")]


def _time_limit_option(what: str) -> Any:
    return typer.Option("--time-limit", min=0.1, max=MAX_TIME_LIMIT_S, callback=finite, help=f"Seconds {what}.")


def say(message: str) -> None:
    """One line on stderr, never wrapped to the terminal's width."""
    print(message, file=sys.stderr, flush=True)


def say_skipped(groups: list[dict[str, Any]]) -> None:
    """One line per kind of export the pack could not write, with why."""
    for group in groups[:SKIPPED_SHOWN]:
        say(f"not written: {group['count']} {group['format']} file(s), {group['reason']}")
    if len(groups) > SKIPPED_SHOWN:
        say(f"not written: {sum(g['count'] for g in groups[SKIPPED_SHOWN:])} more files, listed in the manifest")


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM ends the run like Ctrl-C: one line, finished puzzles kept."""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(spec: Any, out: Path, workers: int, executor: str, scheduler: str | None, resume: bool,
         force: bool) -> None:
    from rich.console import Console

    from generators.executors import ClusterError
    from generators.pack import PackError, build_pack

    command = " ".join(["mobius", *map(shlex.quote, sys.argv[1:])])
    console = Console(stderr=True)
    try:
        with sigterm_as_interrupt(), _progress_bar(console, spec) as show:
            puzzles = build_pack(spec, out, workers=workers, executor=executor, scheduler=scheduler, resume=resume,
                                 force=force, command=command, on_progress=show)
    except (PackError, ClusterError) as exc:
        raise InputError(str(exc)) from None
    except KeyboardInterrupt:
        done = len(list((out / "puzzles").glob("*.json")))
        say(f"interrupted: {done} of {spec.count} puzzles are written in {out}; "
            f"finish with the same command and --resume" if done else "interrupted: no puzzle was written")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    rejected = sum(int(p.get("rejected", 0)) for p in puzzles.values())
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    say(f"wrote {len(puzzles)} {spec.kind} puzzles to {out} ({rejected} redone along the way); "
        f"manifest: {out / 'manifest.json'}")
    say_skipped(manifest.get("skipped_exports", []))
    if spec.kind == "crossword":
        from generators.quality import pack_quality, summary_line

        say(summary_line(pack_quality([puzzles[i] for i in sorted(puzzles)])))


@contextmanager
def _progress_bar(console: Any, spec: Any) -> Iterator[Any]:
    """A live bar on a terminal; nothing in logs and pipes, where the closing line says it all."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("redone {task.fields[rejected]}"), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False, disable=not console.is_terminal) as bar:
        task = bar.add_task(f"{spec.kind} puzzles", total=spec.count, rejected=0)
        shown: list[str] = []

        def show(p: Any) -> None:
            for note in p.notes[len(shown):]:  # what the pack plan says, as soon as it says it
                say(f"note: {note}")
                shown.append(note)
            done = p.exported if p.phase == "exports" else p.done
            doing = f": filling {p.working}" if p.phase == "puzzles" and p.working else ""
            bar.update(task, description=f"{spec.kind} {p.phase}{doing}", completed=done, rejected=p.rejected)

        yield show


def _given(**options: Any) -> dict[str, Any]:
    """The options the user gave; the others keep the pack spec's defaults."""
    return {name: value for name, value in options.items() if value is not None}


def _check_patterns(spec: Any) -> None:
    """The grid size and rules admit a pattern: found out here, not in a worker."""
    from generators.patterns import PatternError, generate_pattern

    try:
        generate_pattern(spec.pattern_spec(), spec.seed)
    except PatternError as exc:
        raise InputError(f"--width {spec.width} --height {spec.height} --surface {spec.surface}: {exc}") from None


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
    solver: Annotated[str, typer.Option("--solver", help="reference, cpsat, gecode, choco or sat "
                                                         "(name:key=value,...).")] = "reference",
    seed: SeedOpt = 0,
    workers: WorkersOpt = ALL_CORES,
    time_limit: Annotated[Optional[float], _time_limit_option(
        "per fill attempt: only a backstop, fills are bounded by deterministic budgets (default 120)")] = None,
    allow_repeats: Annotated[bool, typer.Option("--allow-repeats",
                                                help="Answers may recur across the pack (never within a puzzle); "
                                                     "unused words are still preferred.")] = False,
    min_seam_lights: Annotated[Optional[int], typer.Option(
        "--min-seam-lights", min=0, max=50, help="Lights across the seam per puzzle (default 2 on a glued "
                                                 "surface, 0 on the plane).")] = None,
    polish: Annotated[Optional[float], typer.Option(
        "--polish", min=0.0, max=MAX_TIME_LIMIT_S, callback=finite,
        help="CP-SAT deterministic seconds per puzzle to improve its fill (default: about twenty "
             "neighbourhoods); 0 for none.")] = None,
    symmetry: Annotated[Optional[str], typer.Option(
        "--symmetry", help="Block symmetry of the unfolded rectangle: rot180 or mirror (far fewer grids); "
                           "default none.")] = None,
    max_seam_crossings: Annotated[int, typer.Option("--max-seam-crossings", min=-1, max=50,
                                                    help="Per light; -1 for no limit.")] = 1,
    max_length: Annotated[int, typer.Option("--max-length", min=0, max=50,
                                            help="Longest light (0: the grid's longer side).")] = 0,
    clues: CluesOpt = None,
    no_clues: NoCluesOpt = False,
    ban: BanOpt = None,
    allow: AllowOpt = None,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
    force: ForceOpt = False,
) -> None:
    """Generate crosswords: distinct patterns on the surface, filled, polished and verified."""
    from cpmodel.solver import get_solver
    from cpmodel.surface import surface as find_surface
    from generators.crossword_pack import CrosswordPackSpec

    try:
        surface_name = find_surface(surface).name
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    spec = CrosswordPackSpec(count=count, width=width, height=height, surface=surface_name,
                             dictionary=dictionary, min_score=min_score, solver=solver, seed=seed,
                             allow_repeats=allow_repeats,
                             max_seam_crossings=None if max_seam_crossings < 0 else max_seam_crossings,
                             max_length=max_length or None, min_seam_lights=min_seam_lights,
                             **_given(polish=polish, symmetry=symmetry, time_limit=time_limit))
    get_solver("crossword", spec.solver_spec)  # a bad solver or option fails here, before any worker starts
    spec = replace(spec, **clue_options(clues, no_clues, ban, allow))
    spec.words()  # so does a bad dictionary or word file
    _check_patterns(spec)
    _run(spec, out, workers, executor, scheduler, resume, force)


@app.command("slider")
def slider_command(
    out: OutOpt,
    board: Annotated[str, typer.Option("--board", help="Preset (ring, grid:3x3, …) or board file.")] = "ring",
    count: CountOpt = 10,
    depth: Annotated[str, typer.Option("--depth", help="Optimal lengths MIN..MAX, spread evenly.")] = "4..12",
    blanks: Annotated[int, typer.Option("--blanks", min=1, max=64)] = 1,
    solver: Annotated[str, typer.Option("--solver", help="bfs, astar, idastar or cpsat (default idastar; "
                                                         "bfs with several blanks).")] = "",
    seed: SeedOpt = 0,
    workers: WorkersOpt = ALL_CORES,
    time_limit: Annotated[float, _time_limit_option("per solve")] = 60.0,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
    force: ForceOpt = False,
) -> None:
    """Generate slider puzzles with exact optimal lengths and their solutions."""
    from cpmodel.solver import get_solver
    from generators.slider_pack import SliderPackSpec, parse_depths

    low, high = parse_depths(depth)
    spec = SliderPackSpec(count, board, low, high, blanks, solver, seed, time_limit)
    get_solver("slider", spec.solver_spec)  # a bad solver or option fails here, before any worker starts
    spec.load_board()  # so does a bad board
    _run(spec, out, workers, executor, scheduler, resume, force)
