"""`mobius slider …`: solve, check and inspect slider puzzles on graphs, and
prepare their pattern databases.

Covers: the `solve`, `check`, `inspect` and `prepare` commands, their plain
and JSON output, and their exit codes — 0 solved / reachable, 1 unreachable, 2 bad
input (an `InputError`, printed as one line by `mobius.cli.main`), 3 timeout,
4 internal error: a solver reported an error, or returned moves that the
independent `verify` rejects (details on stderr; such moves are never
printed). BOARD is a preset name or a board file everywhere; a state is
given inline or as @FILE (a 10⁵-vertex state does not fit in one command-line
argument). The solvers keep their tables in the user's cache
(`mobius.generators.cache`); `prepare` builds them up front, a phase per tile group
shown level by level (a bar on a terminal, a line at each phase's start and
end elsewhere) (exit 0 built, 3 stopped at its time limit, 130 interrupted —
both keep what was built); `prepare --verify` re-checks them completely
(checksum, then entries against true distances: `mobius.cpmodel.slider.table_check`)
and exits 5 after removing tables that fail. `solve` with a heuristic whose
tables are not built yet builds them first the same way, after a line that
says what and for about how long (with --json, only a terminal shows them;
a timeout during the build says so). Leaves out: modelling, solvability and solving, which live in
`mobius.cpmodel.slider`.
"""

from __future__ import annotations

import io
import json
import time
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional, TextIO

import typer

from mobius.cpmodel.deadline import DeadlineExceeded, deadline_of
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import read_text_bounded
from mobius.cpmodel.slider.board import SliderProblem, default_goal, load_board, parse_state, start_lines
from mobius.cpmodel.solver import (
    Solver,
    SolveResult,
    Status,
    default_slider_solver,
    get_solver,
    require_usable,
    stats_text,
)
from mobius.exits import EXIT_DAMAGED, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_OK, EXIT_TIMEOUT
from mobius.options import time_limit_option
from mobius.interrupts import interruption

if TYPE_CHECKING:  # the group module loads sympy and networkx: only the commands that need it import it
    from mobius.cpmodel.slider.board import Board, State
    from mobius.cpmodel.slider.group import BoardFacts
    from mobius.cpmodel.slider.heuristics import Partition
    from mobius.cpmodel.store import TableStore

app = typer.Typer(help="Slider puzzles on any graph.", no_args_is_help=True, rich_markup_mode=None)

BoardArg = Annotated[str, typer.Argument(
    help="A preset (ring, grid:RxC, cycle:N, theta0, path:N, petersen) or a board file (JSON or edge list).")]
StartOpt = Annotated[str, typer.Option(
    "--start", help='The tile on each vertex, 0 = blank, e.g. "1 0 2 3"; or @FILE holding them.')]
GoalOpt = Annotated[Optional[str], typer.Option(
    "--goal", help="Default: tile v on vertex v, with the first K vertices blank. Or @FILE.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]

# A state file: 10⁵ tiles of up to 5 digits and a separator each (600 kB),
# with room for formatting.
MAX_STATE_BYTES = 1 << 20
# A starts file: thousands of 15-puzzle states, or a few large ones.
# States a pattern-table build reaches per second, for the estimate `solve` gives before building (a
# little under what was measured): the 15-puzzle's 7-8 tables, 1,565,040,960 states, were built in 162 s
# on a shared 2-core AMD EPYC (benchmarks/RESULTS.md, "The first 15-puzzle solve").
BUILD_STATES_PER_S = 8_000_000


# --- shared steps ------------------------------------------------------------------

def state_text(option: str, what: str) -> str:
    """The option's value, or the text of the file it names as @FILE."""
    if option.startswith("@"):
        return read_text_bounded(option[1:], MAX_STATE_BYTES, f"{what} file")
    return option


def build_problem(board_spec: str, start: str, goal: str | None, blanks: int) -> SliderProblem:
    board = load_board(board_spec)
    start_state = parse_state(state_text(start, "start"), board, "start", blanks)
    goal_state = (default_goal(board, blanks) if goal is None
                  else parse_state(state_text(goal, "goal"), board, "goal", blanks))
    return SliderProblem(board, start_state, goal_state, blanks)


def choose_solver(spec: str | None, blanks: int) -> Solver:
    """The solver named by `spec` (``name`` or ``name:key=value,…``) or the default for `blanks`,
    keeping its tables in the user's cache."""
    from mobius.cpmodel.store import attach_tables  # numpy: loaded only by the commands that solve
    from mobius.generators.cache import user_store

    return attach_tables(get_solver("slider", spec or default_slider_solver(blanks)), user_store())


def emit(payload: dict[str, object], as_json: bool, lines: list[str]) -> None:
    """Print `payload` as JSON, or the plain-text `lines`."""
    typer.echo(json.dumps(payload, indent=2) if as_json else "\n".join(lines))


def format_move(move: object) -> str:
    """One blank: the vertex the blank moves to; several: `from->to` of the sliding tile."""
    if isinstance(move, (list, tuple)):
        return f"{move[0]}->{move[1]}"
    return str(move)


def format_state(state: tuple[int, ...]) -> str:
    return " ".join(map(str, state))


def format_stats(stats: dict[str, int | float]) -> str:
    return "stats: " + stats_text(stats)


# --- solve ---------------------------------------------------------------------------

def solve_payload(status: str, solver: str, wall_s: float, stats: dict[str, int | float],
                  moves: list[object] | None = None, optimal: bool = False) -> dict[str, object]:
    return {
        "status": status,
        "solver": solver,
        "length": None if moves is None else len(moves),
        "moves": moves,
        # Only a printed solution can be optimal.
        "optimal": moves is not None and optimal,
        "wall_s": round(wall_s, 4),
        "stats": stats,
    }


def report_unreachable(problem: SliderProblem, solver: str, wall_s: float, stats: dict[str, int | float],
                       reason: str, as_json: bool) -> NoReturn:
    payload = solve_payload("UNREACHABLE", solver, wall_s, stats) | {"reason": reason}
    emit(payload, as_json, [f"UNREACHABLE ({solver}, {wall_s:.2f} s): {reason}",
                            f"start: {format_state(problem.start)}", f"goal:  {format_state(problem.goal)}"])
    raise typer.Exit(EXIT_NO_SOLUTION)


def report_internal_error(result: SolveResult, message: str, as_json: bool) -> NoReturn:
    typer.echo(f"mobius: internal error: solver {result.solver}: {message}", err=True)
    if as_json:
        emit(solve_payload("ERROR", result.solver, result.wall_s, result.stats) | {"error": message}, True, [])
    raise typer.Exit(EXIT_INTERNAL)


def report_solved(problem: SliderProblem, result: SolveResult, moves: list[object], as_json: bool) -> None:
    payload = solve_payload("SOLVED", result.solver, result.wall_s, result.stats, moves, result.optimal is True)
    optimal = "optimal" if payload["optimal"] else "not proven optimal"
    emit(payload, as_json, [
        f"SOLVED by {result.solver} in {result.wall_s:.2f} s: {len(moves)} move{'' if len(moves) == 1 else 's'}"
        f" ({optimal})",
        f"start: {format_state(problem.start)}",
        f"goal:  {format_state(problem.goal)}",
        "moves: " + (" ".join(format_move(m) for m in moves) or "(none: start is the goal)"),
        format_stats(result.stats),
    ])


@app.command("solve")
def solve_command(
    board: BoardArg,
    start: StartOpt,
    goal: GoalOpt = None,
    blanks: Annotated[int, typer.Option("--blanks", min=1, help="Number of interchangeable blanks (0s).")] = 1,
    solver: Annotated[Optional[str], typer.Option(
        help="bfs, astar, idastar or cpsat (options: name:key=value,…). Default: idastar, bfs for K > 1.")] = None,
    time_limit: Annotated[Optional[float], time_limit_option("Seconds")] = None,
    seed: Annotated[int, typer.Option(help="Seed for every random choice.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Solve a slider puzzle. Exit 0 solved, 1 unreachable, 2 bad input, 3 timeout, 4 internal error."""
    from mobius.cpmodel.slider.group import is_reachable
    from mobius.cpmodel.slider.verify import verify

    problem = build_problem(board, start, goal, blanks)
    engine = choose_solver(solver, blanks)
    require_usable(engine, problem)
    if blanks == 1:
        # Decided in linear time, so no search is spent on an impossible goal.
        started = time.perf_counter()
        reachable, reason = is_reachable(problem)
        if not reachable:
            report_unreachable(problem, "group", time.perf_counter() - started, {}, reason, as_json)
    left = _tables_first(problem, engine, time_limit, as_json)
    result = engine.solve(problem, time_limit=left, seed=seed)
    if result.status is Status.UNSAT:
        report_unreachable(problem, result.solver, result.wall_s, result.stats,
                           f"the {result.solver} solver proved the goal unreachable", as_json)
    if result.status is Status.TIMEOUT:
        emit(solve_payload("TIMEOUT", result.solver, result.wall_s, result.stats), as_json,
             [f"TIMEOUT: {result.solver} found no solution in {result.wall_s:.2f} s",
              format_stats(result.stats)])
        raise typer.Exit(EXIT_TIMEOUT)
    if result.status is not Status.SOLVED:
        # A backend says why it failed in its notes (Choco out of memory, a refusal).
        why = result.notes.get("error") or result.notes.get("refused")
        report_internal_error(result, why or f"status {result.status.value}", as_json)
    moves = [list(m) if isinstance(m, (list, tuple)) else m for m in result.solution or []]
    problems = verify(problem, moves)
    if problems:
        report_internal_error(result, "returned an invalid solution: " + "; ".join(problems[:5]), as_json)
    report_solved(problem, result, moves, as_json)


def _tables_first(problem: SliderProblem, engine: Solver, time_limit: float | None, as_json: bool) -> float | None:
    """Build the pattern tables the solver's heuristic needs, where they are not built yet, before it
    searches: a line first says what and for how long, then the build shows its progress as `prepare`
    does (the first 15-puzzle solve otherwise sat silent for minutes). A TIMEOUT during the build says
    so. The time limit left for the search (None: none)."""
    from mobius.cpmodel.slider.heuristics import partition_name
    from mobius.cpmodel.slider.pdb_build import build_status

    tables_to_build = getattr(engine, "tables_to_build", None)  # the heuristic searches'
    groups = tables_to_build(problem) if tables_to_build is not None else None
    if groups is None:
        return time_limit
    board, goal, store = problem.board, problem.goal, engine.store  # type: ignore[attr-defined]
    reached, total = build_status(board, goal, groups, store)
    if reached == total:
        return time_limit
    seconds = (total - reached) / BUILD_STATES_PER_S
    about = "a few seconds" if seconds < 10 else f"about {seconds:.0f} s" if seconds < 100 else \
        f"about {seconds / 60:.0f} min"
    first = (f"building the {partition_name(groups)} pattern tables of {board.label}, once "
             f"({total - reached:,} states to reach: {about}); `mobius slider prepare {board.label}` builds them ahead")
    began = time.perf_counter()
    try:
        # As `prepare` shows it: a bar on a terminal's stderr, else lines on stdout before the answer,
        # but none there with --json (stdout is the JSON; stderr keeps to errors and warnings).
        _build_tables(board, goal, groups, "compiled", store, time_limit, io.StringIO() if as_json else None,
                      first)
    except DeadlineExceeded:
        wall = time.perf_counter() - began
        emit(solve_payload("TIMEOUT", engine.name, wall, {"tables_reached": build_status(board, goal, groups,
                                                                                          store)[0]}),
             as_json, [f"TIMEOUT: the pattern tables were still being built at the time limit ({wall:.2f} s); "
                       "what was built is kept: the same command, or `mobius slider prepare "
                       f"{board.label}`, continues it"])
        raise typer.Exit(EXIT_TIMEOUT) from None
    return None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - began))


@app.command("solve-all")
def solve_all_command(
    board: BoardArg,
    starts: Annotated[str, typer.Argument(
        help="File of starts, one a line (the tiles on each vertex, 0 = blank); '#' starts a comment.")],
    goal: GoalOpt = None,
    solver: Annotated[Optional[str], typer.Option(
        help="bfs, astar, idastar or cpsat (options: name:key=value,…). Default: idastar.")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64,
                                         help="Processes solving at once, forked once the tables are mapped.")] = 1,
    time_limit: Annotated[Optional[float], time_limit_option("Seconds for each start")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve every start of STARTS (one blank), mapping the pattern tables once for the whole run.
    Exit 0 all solved, 1 some unreachable, 3 some timed out, 4 internal error."""
    from mobius.cpmodel.slider.batch import solve_all

    began = time.perf_counter()
    shape = load_board(board)
    goal_state = default_goal(shape, 1) if goal is None else parse_state(state_text(goal, "goal"), shape, "goal", 1)
    problems = [SliderProblem(shape, parse_state(line, shape, f"{starts}, line {number}: start", 1), goal_state, 1)
                for number, line in start_lines(starts)]
    if not problems:
        raise InputError(f"{starts}: no start in the file (expected one state a line)")
    engine = choose_solver(solver, 1)
    for problem in problems:
        require_usable(engine, problem)
    prepare_s, outcomes = solve_all(engine, problems, workers=workers, time_limit=time_limit)
    payloads, worst = [], EXIT_OK
    for outcome in outcomes:
        result = outcome.result
        status = {Status.SOLVED: "SOLVED", Status.UNSAT: "UNREACHABLE", Status.TIMEOUT: "TIMEOUT"}.get(
            result.status, "ERROR")
        if outcome.problems:
            status = "ERROR"
            typer.echo(f"mobius: internal error: solver {result.solver}: start {outcome.index + 1} returned an "
                       "invalid solution: " + "; ".join(outcome.problems[:5]), err=True)
        worst = max(worst, BATCH_EXITS[status])
        payload = solve_payload(status, result.solver, result.wall_s, result.stats,
                                outcome.moves if status == "SOLVED" else None, result.optimal is True)
        payloads.append(payload)
        if not as_json:
            length = "" if payload["length"] is None else f" {payload['length']} moves"
            typer.echo(f"{outcome.index + 1}: {status}{length} in {result.wall_s:.2f} s  "
                       + stats_text(result.stats))
    wall_s = time.perf_counter() - began
    solved = sum(p["status"] == "SOLVED" for p in payloads)
    summary = (f"{solved}/{len(payloads)} solved in {wall_s:.2f} s wall (tables mapped once: {prepare_s:.2f} s; "
               f"{workers} worker{'s' if workers > 1 else ''})")
    emit({"results": payloads, "wall_s": round(wall_s, 4), "prepare_s": round(prepare_s, 4), "workers": workers},
         as_json, [summary])
    raise typer.Exit(worst)


# Exit code of a batch: its worst start's (an internal error over a timeout over an unreachable goal).
BATCH_EXITS = {"SOLVED": EXIT_OK, "UNREACHABLE": EXIT_NO_SOLUTION, "TIMEOUT": EXIT_TIMEOUT, "ERROR": EXIT_INTERNAL}


# --- check ---------------------------------------------------------------------------

@app.command("check")
def check_command(board: BoardArg, start: StartOpt, goal: GoalOpt = None, as_json: JsonOpt = False) -> None:
    """Decide without search whether the goal is reachable (one blank). Exit 0 reachable, 1 not."""
    from mobius.cpmodel.slider.group import is_reachable

    reachable, reason = is_reachable(build_problem(board, start, goal, blanks=1))
    emit({"reachable": reachable, "reason": reason}, as_json,
         [f"{'reachable' if reachable else 'unreachable'}: {reason}"])
    raise typer.Exit(EXIT_OK if reachable else EXIT_NO_SOLUTION)


# --- inspect -------------------------------------------------------------------------

def facts_lines(label: str, facts: BoardFacts) -> list[str]:
    yes_no = {True: "yes", False: "no"}
    total = facts.reachable_configurations * facts.components
    return [
        f"board: {label}",
        f"vertices: {facts.vertices}",
        f"edges: {facts.edges}",
        f"2-connected: {yes_no[facts.two_connected]}",
        f"bipartite: {yes_no[facts.bipartite]}",
        f"blocks: {facts.blocks}, cut vertices: {facts.cut_vertices}",
        f"puzzle group: {facts.group} (order {facts.group_order.readable()})",
        f"reachable configurations: {facts.reachable_configurations.readable()} of {total.readable()} (one blank)",
        f"components: {facts.components.readable()}",
        f"isomorphic to: {', '.join(facts.isomorphic_to) or 'no preset'}",
    ]


@app.command("inspect")
def inspect_command(board: BoardArg, as_json: JsonOpt = False) -> None:
    """Facts about BOARD: size, 2-connectivity, bipartiteness, blocks, puzzle group, components, preset twins."""
    from mobius.cpmodel.slider.group import inspect

    loaded = load_board(board)
    facts = inspect(loaded)
    emit(facts.to_json(), as_json, facts_lines(loaded.label, facts))


# --- prepare -------------------------------------------------------------------------

@app.command("prepare")
def prepare_command(
    board: BoardArg,
    partition: Annotated[Optional[str], typer.Option(
        "--partition", help="A preset (7-8 or 6-6-3 on grid:4x4, 4-4 on grid:3x3) or tile groups such as "
                            "1-2-3/4-5-6. Default: the engine's preset.")] = None,
    goal: GoalOpt = None,
    engine: Annotated[str, typer.Option(
        "--engine", help="compiled (the solvers' default) or python: whose tables to build.")] = "compiled",
    time_limit: Annotated[Optional[float], time_limit_option("Seconds")] = None,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Re-check the stored tables completely (checksum, then entries against true distances); "
                         "exit 5 and remove them if they fail.")] = False,
) -> None:
    """Build the pattern databases of BOARD into the cache, showing each group's build level by level. An
    interrupted build (Ctrl-C, the time limit) keeps what it did; the same command continues it."""
    from mobius.generators.cache import user_cache_dir, user_store

    from mobius.cpmodel.slider.heuristics import check_engine, resolve_partition

    check_engine(engine, "--engine")
    loaded = load_board(board)
    goal_state = default_goal(loaded) if goal is None else parse_state(goal, loaded, "goal")
    groups = resolve_partition(loaded, goal_state, partition, engine)
    store = user_store()
    began = time.perf_counter()
    # --verify checks what is stored before anything is loaded (a load would replace a damaged entry
    # quietly but for one warning); tables not built yet are built, then checked.
    checked = _verified(loaded, goal_state, groups, engine, store, missing_ok=True) if verify else None
    if checked is False:
        raise typer.Exit(EXIT_DAMAGED)
    try:
        name = _build_tables(loaded, goal_state, groups, engine, store, time_limit)
    except DeadlineExceeded:
        typer.echo(f"stopped at the time limit ({time_limit:g} s): what was built is kept; "
                   "run the same command to continue", err=True)
        raise typer.Exit(EXIT_TIMEOUT) from None
    typer.echo(f"{name} tables for {loaded.label} ready in {user_cache_dir()} "
               f"({time.perf_counter() - began:.1f} s)")
    if verify and checked is None and not _verified(loaded, goal_state, groups, engine, store, missing_ok=False):
        raise typer.Exit(EXIT_DAMAGED)


def _build_tables(board: Board, goal: State, groups: Partition, engine: str, store: TableStore,
                  time_limit: float | None, stream: TextIO | None = None, first: str | None = None) -> str:
    """Load or build the tables, a phase per group, after the line `first` if given (lines off a terminal
    on `stream`, stdout by default); the heuristic's name. DeadlineExceeded past the time limit, what was
    built kept."""
    from mobius.cpmodel.slider.heuristics import make_heuristic
    from mobius.progress import Phases, table_progress

    with Phases(stream) as phases:
        if first is not None:
            phases.line(first)
        try:
            phases.start(f"pattern tables for {board.label}: loading the search and any stored tables")
            heuristic = make_heuristic("pdb", board, goal, engine=engine, partition=groups, store=store,
                                       deadline=deadline_of(time_limit),
                                       progress=table_progress(phases, f"pattern tables for {board.label}"))
        except KeyboardInterrupt as exc:
            typer.echo(f"{interruption(exc)}: what was built is kept; run the same command to continue", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
    return heuristic.name


def _verified(board: Board, goal: State, groups: Partition, engine: str, store: TableStore,
              missing_ok: bool) -> bool | None:
    """Check the stored tables completely and print what was checked; a failed entry is removed so the next
    `prepare` rebuilds it. True when sound, False when not; None when not built yet (with `missing_ok`)."""
    from mobius.cpmodel.slider.table_check import verify_stored

    report = verify_stored(board, goal, groups, engine, store)
    if report.missing and missing_ok:
        return None
    for line in report.lines:
        typer.echo(f"verify: {line}")
    if report.missing:
        typer.echo("verify: FAILED the tables are not in the cache", err=True)
        return False
    for key in report.failed:
        store.discard(key)
    if not report.ok:
        typer.echo("verify: the damaged tables were removed from the cache; run the same command without "
                   "--verify to rebuild them", err=True)
    return report.ok
