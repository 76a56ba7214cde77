"""`mobius pack crossword|slider`: batch-generate a puzzle pack.

Covers: the two commands, their options (bounded, so a 20-digit count or
worker number is refused at once), checking what can be checked before the
pack directory is touched (dictionary, board, pattern size, executor), the
progress bar, and interruptions: Ctrl-C or SIGTERM at any moment prints one
line and keeps every finished puzzle for `--resume` (the workers ignore
SIGINT and die with this process). A pack refused by `mobius.generators.pack`
(another run holds it, its inputs changed) is one line, exit 2, and so is a
Dask scheduler lost mid-pack (the line says what is kept and how to go
on); a puzzle failing its independent check, a bug, one line, exit 4. Leaves out: building packs
(`mobius.generators.pack`) and what a puzzle is (`mobius.generators.crossword.pack`, `mobius.generators.slider.pack`).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.surface import SURFACES
from mobius.exits import EXIT_INTERNAL, EXIT_INTERRUPTED
from mobius.interrupts import interruption, settle
from mobius.options import MAX_TIME_LIMIT_S, finite, one_line, time_limit_option
from mobius.word_options import AllowOpt, BanOpt, CluesOpt, NoCluesOpt, Spelling, SpellingOpt, clue_options

app = typer.Typer(help="Batch-generate puzzle packs.", no_args_is_help=True, rich_markup_mode=None)

# Packs are files a person plays through; past this a count is a typo, and
# puzzle ids stay four digits.
MAX_COUNT = 9999
# More local workers than this only adds start-up time on any machine here;
# a Dask cluster takes at most this many jobs at once from one pack too.
MAX_WORKERS = 1024
# The side of the grid advised when a smaller one has no pattern: 5x5 is the least square every surface's
# default rules admit.
SMALLEST_ADVISED = 5
# A crossword pack's grids when neither the options nor --patterns say otherwise.
DEFAULT_WIDTH, DEFAULT_HEIGHT, DEFAULT_SURFACE = 11, 5, "mobius"
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
TitleOpt = Annotated[str, typer.Option("--title", callback=one_line,
                                       help='Pack title; puzzles are "TITLE #0001"… (default: named by the '
                                            'surface and size, or the board).')]
AuthorOpt = Annotated[str, typer.Option("--author", callback=one_line, help="Author (setter) in every format.")]
CopyrightOpt = Annotated[str, typer.Option("--copyright", callback=one_line,
                                           help='Copyright notice as printed, e.g. "© 2026 A. Setter".')]


class Difficulty(str, Enum):
    easy = "easy"
    medium = "medium"
    hard = "hard"


DifficultyOpt = Annotated[Difficulty, typer.Option(
    "--difficulty", help="easy: familiar answers (scored 40+) and definitions; medium: the default mix; "
                         "hard: less common answers (still scored --min-score or more) and indirect clues "
                         "(synonyms, blanks, opposites).")]


def say(message: str) -> None:
    """One line on stderr, never wrapped to the terminal's width."""
    print(message, file=sys.stderr, flush=True)


def say_skipped(groups: list[dict[str, Any]]) -> None:
    """One line per kind of export the pack could not write, with why."""
    for group in groups[:SKIPPED_SHOWN]:
        say(f"not written: {group['count']} {group['format']} file(s), {group['reason']}")
    if len(groups) > SKIPPED_SHOWN:
        say(f"not written: {sum(g['count'] for g in groups[SKIPPED_SHOWN:])} more files, listed in the manifest")


def _check_start(spec: Any, out: Path, resume: bool, force: bool) -> None:
    from mobius.generators.pack import PackError, check_start

    try:
        check_start(spec, out, resume=resume, force=force)
    except PackError as exc:
        raise InputError(str(exc)) from None


def _run(spec: Any, out: Path, workers: int, executor: str, scheduler: str | None, resume: bool,
         force: bool, notes: Sequence[str] = ()) -> None:
    """Build the pack; `notes` are said once the run has its folder (a refused run says its one line only)."""
    from rich.console import Console

    from mobius.generators.executors import ClusterError, SchedulerLost
    from mobius.generators.pack import PackError, VerificationError, build_pack

    command = " ".join(["mobius", *(shlex.quote(_text_of(arg)) for arg in sys.argv[1:])])
    console = Console(stderr=True)
    try:
        with _progress_bar(console, spec, notes) as show:
            puzzles = build_pack(spec, out, workers=workers, executor=executor, scheduler=scheduler, resume=resume,
                                 force=force, command=command, on_progress=show)
    except SchedulerLost as exc:
        raise InputError(_lost_line(str(exc), _written(out), spec.count, out)) from None
    except (PackError, ClusterError) as exc:
        raise InputError(str(exc)) from None
    except VerificationError as exc:  # a bug, never input: one line all the same, and the code for it
        from mobius.error_line import error_line

        error_line(str(exc))
        raise typer.Exit(EXIT_INTERNAL) from None
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (`mobius.interrupts`)
        done = _written(out)
        where = _text_of(str(out))
        say(f"{interruption(exc)}: {done} of {spec.count} puzzles are written in {where}; "
            f"finish with the same command and --resume" if done else
            f"{interruption(exc)}: no puzzle was written; the same command run again takes up the work done "
            "(kept in the user's cache)")
        settle()
        raise typer.Exit(EXIT_INTERRUPTED) from None
    rejected = sum(int(p.get("rejected", 0)) for p in puzzles.values())
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    say(f"wrote {len(puzzles)} {spec.kind} puzzles to {_text_of(str(out))} ({rejected} redone along the way: "
        f"attempts made again after a clash with another puzzle or a failed try); "
        f"manifest: {_text_of(str(out / 'manifest.json'))}")
    say_skipped(manifest.get("skipped_exports", []))
    if spec.kind == "crossword":
        from mobius.generators.crossword.quality import difficulty_line, pack_quality, summary_line

        quality = pack_quality([puzzles[i] for i in sorted(puzzles)])
        say(summary_line(quality))
        if difficulty_line(quality):
            say(difficulty_line(quality))
        say(words_line(spec.word_use()))
        for file, grid in zip(spec.pattern_files, manifest["patterns"].get("given", [])):
            if not grid["puzzles"]:  # a grid given that no puzzle has: why, as the walk found it
                say(f"{_text_of(file)}: no puzzle: {grid['outcome']}")


def _written(out: Path) -> int:
    """How many puzzle files the pack in `out` holds (a stopped run keeps them for --resume)."""
    return len(list((out / "puzzles").glob("*.json")))


def _lost_line(what: str, done: int, count: int, out: Path) -> str:
    """The one line of a pack whose Dask scheduler was lost: what happened, what is kept, how to go on."""
    if not done:
        return (f"{what} before any puzzle was written; run the command again once the scheduler is back, "
                "or with --executor local")
    return (f"{what}; the {done} of {count} puzzles finished are kept in {_text_of(str(out))}: finish with the "
            "same command and --resume, locally (--executor local) or on a running cluster (--scheduler ADDRESS)")


def words_line(use: Any) -> str:
    """What the pack's fills were drawn from; a pack clues every entry, so with clues on it keeps to clued words."""
    if not use.unclued_dropped:
        return use.summary()
    return f"{use.summary()}: a pack keeps to the clued words (--no-clues: every word, no clues)"


def _text_of(arg: str) -> str:
    """An argument as text the manifest and the index page can hold: bytes that are
    not UTF-8 (a path's, kept by Python as lone surrogates) shown as \\xNN."""
    return os.fsencode(arg).decode("utf-8", "backslashreplace")


@contextmanager
def _progress_bar(console: Any, spec: Any, notes: Sequence[str] = ()) -> Iterator[Any]:
    """A live bar on a terminal; nothing in logs and pipes, where the closing line says it all."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    from mobius.progress import Phases

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("redone {task.fields[rejected]} (after a clash or failure)"), TimeElapsedColumn(),
               TimeRemainingColumn())
    lines = None if console.is_terminal else Phases()  # without a bar: a line as each phase starts and ends
    with Progress(*columns, console=console, transient=False, disable=not console.is_terminal) as bar:
        task = bar.add_task(f"{spec.kind} puzzles", total=spec.count, rejected=0)
        shown: list[str] = []

        def show(p: Any) -> None:
            for note in [*notes, *p.notes][len(shown):]:  # what the pack plan says, as soon as it says it
                say(f"note: {note}")
                shown.append(note)
            done = p.exported if p.phase == "exports" else p.done
            doing = f": filling {p.working}" if p.phase == "puzzles" and p.working else ""
            bar.update(task, description=f"{spec.kind} {p.phase}{doing}", completed=done, rejected=p.rejected)
            if lines is not None and lines.current != f"{spec.kind} {p.phase}":
                lines.end(f"{p.done}/{p.total}, redone {p.rejected}: attempts made again after a clash or failure")
                lines.start(f"{spec.kind} {p.phase}")

        yield show
    if lines is not None:
        lines.end()


def _given(**options: Any) -> dict[str, Any]:
    """The options the user gave; the others keep the pack spec's defaults."""
    return {name: value for name, value in options.items() if value is not None}


def _check_patterns(spec: Any) -> None:
    """The grid size and rules admit a pattern: found out here, not in a worker."""
    from mobius.generators.crossword.pattern_rules import PatternError
    from mobius.generators.crossword.patterns import generate_pattern

    try:
        generate_pattern(spec.pattern_spec(), spec.seed)
    except PatternError as exc:
        # The reason alone: with the spec's dozen rules (the exception's message) the line was too long to read.
        small = min(spec.width, spec.height) < SMALLEST_ADVISED
        advice = f"a larger grid ({SMALLEST_ADVISED}x{SMALLEST_ADVISED} or more)" if small else "fewer or looser rules"
        raise InputError(f"no {spec.width}x{spec.height} {spec.surface} grid keeps the pack's rules: {exc.reason}; "
                         f"try {advice}") from None


def _given_grids(places: list[Path], width: int | None, height: int | None, surface: str | None) -> Any:
    """The grids of --patterns (None without), refused in one line if a --width, --height or --surface given
    says otherwise."""
    if not places:
        return None
    from mobius.cpmodel.surface import surface as find_surface
    from mobius.generators.crossword.given_grids import read_given

    given = read_given(places)
    try:
        surface_name = find_surface(surface).name if surface is not None else None
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    for option, value, theirs in (("--width", width, given.width), ("--height", height, given.height),
                                  ("--surface", surface_name, given.surface)):
        if value is not None and value != theirs:
            raise InputError(f"{option} {value} conflicts with the grids of --patterns, which are "
                             f"{given.width}x{given.height} {given.surface} (leave {option} out: the grids set it)")
    return given


@app.command("crossword")
def crossword_command(
    out: OutOpt,
    count: CountOpt = 10,
    width: Annotated[Optional[int], typer.Option("--width", min=3, max=25, help=(
        "Grid width in cells, the unfolded rectangle's (default 11; publishers print 5, 7, 9-13, 15 and 21)."))] = None,
    height: Annotated[Optional[int], typer.Option("--height", min=3, max=25, help=(
        "Grid height in cells (default 5)."))] = None,
    surface: Annotated[Optional[str], typer.Option("--surface", help=(
        f"The surface the grid is drawn on, its edges glued: {', '.join(SURFACES)} (default mobius; plane is the "
        "flat grid of newspaper crosswords)."))] = None,
    patterns: Annotated[Optional[list[Path]], typer.Option(
        "--patterns", help="Fill these grids (a grid file, or a directory of them; repeatable) instead of "
                           "drawing grids: text, JSON or .qxw, all of one size and surface, which then set "
                           "--width, --height and --surface.")] = None,
    dictionary: Annotated[str, typer.Option("--dict", help="en, en-small, words, or a file.")] = "en",
    min_score: Annotated[Optional[int], typer.Option(
        "--min-score", min=0, max=100,
        help="Skip words scored lower (default 30, the words met in print; 25 for --patterns grids and on plane "
             "grids of 21x21 cells or more). Words under 30 are used only where the grid needs them.")] = None,
    solver: Annotated[str, typer.Option("--solver", help="reference, cpsat, gecode, choco or sat "
                                                         "(name:key=value,...).")] = "reference",
    seed: SeedOpt = 0,
    workers: WorkersOpt = ALL_CORES,
    time_limit: Annotated[Optional[float], time_limit_option(
        "Seconds per fill attempt: only a backstop, fills are bounded by deterministic budgets (default 120)")] = None,
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
    worst: Annotated[Optional[int], typer.Option(
        "--worst", min=0, max=10_000_000,
        help="Backtracks per puzzle spent raising its lowest-scored answer, proving the best where they "
             "suffice (default 16,000); 0 for none.")] = None,
    symmetry: Annotated[Optional[str], typer.Option(
        "--symmetry", help="Block symmetry of the unfolded rectangle: none, rot180, mirror, diagonal (square "
                           "plane grids) or any (one of those); default on the plane any for minis up to 8x8, "
                           "rot180 above, none elsewhere.")] = None,
    max_words: Annotated[Optional[int], typer.Option(
        "--max-words", min=1, max=1250, help="Most words a grid may have (default on the plane: 78 on 15x15, "
                                             "140 on 21x21, scaled by area, by width + height on small grids, none "
                                             "on minis up to 8x8; none elsewhere).")] = None,
    max_blocks: Annotated[Optional[float], typer.Option(
        "--max-blocks", min=0.0, max=1.0, callback=finite,
        help="Most blocks per cell of a grid, a share from 0 to 1 (default 0.30 on glued surfaces; on the "
             "plane a sixth, a quarter on minis up to 8x8).")] = None,
    max_plurals: Annotated[Optional[int], typer.Option(
        "--max-plurals", min=-1, max=1000,
        help="Most plural-S entries (VETS, STEALS) a grid may have, a rule of its fill; -1 for no limit "
             "(default: one per 36 cells, at least 2: 2 on 11x5 and on minis, 6 on 15x15; no limit on "
             "--patterns grids).")] = None,
    max_seam_crossings: Annotated[int, typer.Option("--max-seam-crossings", min=-1, max=50,
                                                    help="Per light; -1 for no limit.")] = 1,
    max_length: Annotated[int, typer.Option("--max-length", min=0, max=50,
                                            help="Longest light (0: the grid's longer side).")] = 0,
    clues: CluesOpt = None,
    no_clues: NoCluesOpt = False,
    ban: BanOpt = None,
    allow: AllowOpt = None,
    spelling: SpellingOpt = Spelling.american,
    difficulty: DifficultyOpt = Difficulty.medium,
    title: TitleOpt = "",
    author: AuthorOpt = "",
    copyright: CopyrightOpt = "",
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
    force: ForceOpt = False,
) -> None:
    """Generate crosswords: distinct patterns on the surface, filled, polished and verified."""
    from mobius.cpmodel.solver import get_solver
    from mobius.cpmodel.surface import surface as find_surface
    from mobius.generators.crossword.pack import CrosswordPackSpec
    from mobius.generators.puzzles import Credits

    given = _given_grids(patterns or [], width, height, surface)
    try:
        surface_name = given.surface if given else find_surface(surface or DEFAULT_SURFACE).name
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    shape: dict[str, Any] = {"width": width or DEFAULT_WIDTH, "height": height or DEFAULT_HEIGHT}
    if given:
        shape = {"width": given.width, "height": given.height, "min_length": given.min_length,
                 "patterns": given.rows, "pattern_files": given.sources}
    spec = CrosswordPackSpec(count=count, **shape, surface=surface_name,
                             dictionary=dictionary, min_score=min_score, solver=solver, seed=seed,
                             allow_repeats=allow_repeats, spelling=spelling.value, difficulty=difficulty.value,
                             max_seam_crossings=None if max_seam_crossings < 0 else max_seam_crossings,
                             max_length=max_length or None, min_seam_lights=min_seam_lights, max_plurals=max_plurals,
                             credits=Credits(title, author, copyright),
                             **_given(polish=polish, worst=worst, symmetry=symmetry, max_words=max_words,
                                      max_blocks=max_blocks, time_limit=time_limit))
    get_solver("crossword", spec.solver_spec)  # a bad solver or option fails here, before any worker starts
    files = {"--clues": clues, "--ban": ban, "--allow": allow,
             "--patterns": ", ".join(map(str, patterns)) if patterns else None}
    spec = replace(spec, **clue_options(clues, no_clues, ban, allow),
                   sources=tuple((option, str(path)) for option, path in files.items() if path is not None))
    spec.words()  # so does a bad dictionary or word file
    if not given:
        _check_patterns(spec)
    notes = [words_line(spec.word_use())] if spec.word_use().unclued_dropped else []
    _run(spec, out, workers, executor, scheduler, resume, force, notes)


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
    time_limit: Annotated[float, time_limit_option("Seconds per solve")] = 60.0,
    title: TitleOpt = "",
    author: AuthorOpt = "",
    copyright: CopyrightOpt = "",
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: ResumeOpt = False,
    force: ForceOpt = False,
) -> None:
    """Generate slider puzzles with exact optimal lengths and their solutions."""
    from mobius.cpmodel.solver import get_solver
    from mobius.generators.puzzles import Credits
    from mobius.generators.slider.pack import SliderPackSpec, parse_depths

    from mobius.progress import Phases, table_progress

    low, high = parse_depths(depth)
    spec = SliderPackSpec(count, board, low, high, blanks, solver, seed, time_limit, Credits(title, author, copyright))
    with Phases() as phases:
        phases.start("loading the solver")
        get_solver("slider", spec.solver_spec)  # a bad solver or option fails here, before any worker starts
        spec.load_board()  # so does a bad board
        _check_start(spec, out, resume, force)  # a run refused at its start is refused before the tables
        if executor == "local":  # Dask workers build their own, in their machines' caches
            phases.start(f"pattern tables for {spec.board}: loading any stored tables")
            spec.prepare_tables(table_progress(phases, f"pattern tables for {spec.board}"))
    _run(spec, out, workers, executor, scheduler, resume, force)
