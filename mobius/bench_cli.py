"""`mobius bench`: run a benchmark suite, write records, report and plots.

Covers: the one `bench` command (registered in `mobius.cli` as a command of
the top-level app, so its options follow `mobius bench` directly), its
progress lines, the notes on solvers left out, the check of `--out` before
any work (a file, or the results of an earlier run without `--force`, is
refused), and its exit codes — 0 all
answers agree, 1 a disagreement (printed loudly on stderr and in
report.md), 2 bad input (an `InputError`, printed by `mobius.cli.main`).
Leaves out: suites, running, agreement and reporting, which live in
`benchmarks`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from mobius.cpmodel.errors import InputError
from mobius.exits import EXIT_DISAGREEMENT
from mobius.options import check_out_dir, time_limit_option

if TYPE_CHECKING:
    from mobius.benchmarks.harness import Record

# The suites' names for the help text, which must not load the suites (and
# with them the solvers and matplotlib) just to print itself; a test keeps
# this list equal to `mobius.benchmarks.suites.SUITES`.
SUITE_NAMES = ("xw-vanbeek", "xw-mobius", "xw-surfaces", "slider-ring", "slider-3x3", "slider-korf",
               "slider-korf10", "slider-cpsat", "slider-cpsat-ablation", "slider-pdb-build", "slider-limits", "quick")
MAX_REPEATS = 1000
MAX_JOBS = 256

SuiteOpt = Annotated[Optional[str], typer.Option(
    "--suite", help=f"One of {', '.join(SUITE_NAMES)} (the README says what each holds); or --grids.")]
GridsOpt = Annotated[Optional[list[Path]], typer.Option(
    "--grids", help="Your own crossword grids instead of a suite: a grid file (text, JSON or .qxw) or a "
                    "directory of them; repeat for more. Filled from --dict, lights of --min-length+.")]
DictOpt = Annotated[str, typer.Option(
    "--dict", help="With --grids: the word list (en, en-small, words, or a file).")]
MinLengthOpt = Annotated[int, typer.Option("--min-length", min=1, help="With --grids: the shortest light.")]
SurfaceOpt = Annotated[Optional[str], typer.Option(
    "--surface", help="With --grids: the surface of every grid, over what its file says.")]
BoardOpt = Annotated[Optional[str], typer.Option(
    "--board", help="With --starts: the slider board (a preset such as grid:3x3, or a board file).")]
StartsOpt = Annotated[Optional[str], typer.Option(
    "--starts", help="Your own slider starts instead of a suite: a file of states, one a line, each optionally "
                     "followed by '= N', its known optimal length (a solver that finds another disagrees).")]
SolversOpt = Annotated[Optional[str], typer.Option(
    "--solvers", help="Solver specs separated by ',' or ';'. A ',' followed by key=value continues the options "
                      "of the solver before it: 'reference:select=mrv,inference=fc,cpsat:workers=2' is two "
                      "solvers. Default: the suite's solvers.")]
TimeLimitOpt = Annotated[Optional[float], time_limit_option(
    "Seconds per run, the solver's own limit (a hard backstop kills it a little later); the suite's by default")]
RepeatsOpt = Annotated[int, typer.Option("--repeats", min=1, max=MAX_REPEATS,
                                         help="Runs per instance and solver (seed + repeat).")]
JobsOpt = Annotated[int, typer.Option("--jobs", min=1, max=MAX_JOBS,
                                      help="Runs at once. Timings are only fair with 1 on a small machine.")]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, max=2**64 - 1,
                                      help="Seeds the generated instances and the solvers.")]
BaselineOpt = Annotated[Optional[str], typer.Option(
    "--baseline", help="The solver spec the report compares against. Default: the first solver.")]
InstancesOpt = Annotated[Optional[str], typer.Option(
    "--instances", help="Only the instances whose name matches one of these comma-separated shell-style patterns "
                        "(* any characters, ? one, [0-4] one of a set), e.g. '15.*,05.01' (van Beek grids), "
                        "'korf-00?' or 'ring-d[12]?-*'. Names are not file paths: 'ring-d8-0', 'korf-001', "
                        "'05.01' for benchmarks/data/crossword/vanbeek/05.01.txt. Quote the list, as here, so "
                        "the shell passes * and ? on instead of matching them against files.")]
OutOpt = Annotated[Optional[Path], typer.Option(
    "--out", help="Directory for records.csv/json, summary.csv, report.md and the plots (required for a run).")]
ExportOpt = Annotated[Optional[str], typer.Option(
    "--export", help="Write the instances to --out as mzn, dzn, xcsp3 or cnf files (as export-instance writes one; "
                     "sliders at their first horizon) instead of running them.")]
ListSolversOpt = Annotated[bool, typer.Option(
    "--list-solvers", help="List every solver, built in or added by an installed plugin (entry-point group "
                           "mobius.solvers), with whether it can run here, and exit.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite the results of an earlier run in --out.")]
# The files of a run (shell patterns; the plots are named by suite and solver, `benchmarks/report.py`), which
# --out must not hold unless --force, and never as a device, FIFO or socket.
RESULT_FILES = ("records.csv", "summary.csv", "records.json", "report.md", "cactus-*.*", "scatter-*.*")


def solvers_text() -> str:
    """Each family's solvers, one a line: the name, where it comes from, and whether it can run here."""
    from mobius.cpmodel.solver import get_solver, plugin_solvers, solver_names

    lines = []
    for family in ("crossword", "slider"):
        lines.append(f"{family}:")
        plugins, builtin = plugin_solvers().get(family, {}), set(solver_names(family, plugins=False))
        for name in solver_names(family):
            origin = "built in" if name in builtin else f"plugin {plugins[name][1]} ({plugins[name][0]})"
            try:
                refusal = get_solver(family, name).available()
            except InputError as exc:  # a plugin that cannot be loaded says why, and the list goes on
                refusal = str(exc)
            lines.append(f"  {name:<12} {origin}" + (f"; cannot run here: {refusal}" if refusal else ""))
    return "\n".join(lines)


def _progress(record: Record, done: int, total: int) -> None:
    time_s = "" if record.wall_s is None else f" {record.wall_s:.2f}s"
    check = {True: " verified", False: " REJECTED BY THE VERIFIER", None: ""}[record.verified]
    print(f"[{done}/{total}] {record.instance} {record.solver} #{record.repeat}: {record.status}{time_s}{check}",
          flush=True)


def bench(out: OutOpt = None, suite: SuiteOpt = None, grids: GridsOpt = None, dictionary: DictOpt = "en",
          min_length: MinLengthOpt = 2, surface: SurfaceOpt = None, board: BoardOpt = None,
          starts: StartsOpt = None, solvers: SolversOpt = None,
          time_limit: TimeLimitOpt = None, repeats: RepeatsOpt = 1, jobs: JobsOpt = 1, seed: SeedOpt = 0,
          baseline: BaselineOpt = None, instances: InstancesOpt = None, force: ForceOpt = False,
          export: ExportOpt = None, list_solvers: ListSolversOpt = False) -> None:
    """Run every solver on every instance of a suite (or of your own grids), check they agree, and report."""
    if list_solvers:
        print(solvers_text())
        return
    if out is None:
        raise InputError("--out DIR is required: the directory for the records, report and plots")
    given = [what for what, value in (("--suite", suite), ("--grids", grids), ("--starts", starts)) if value]
    if len(given) != 1:
        raise InputError("give one of a suite (--suite NAME), your own grids (--grids PATH) and your own slider "
                         "starts (--board B --starts FILE)" + (f", not {' and '.join(given)}" if given else ""))
    if (board is None) != (starts is None):
        raise InputError("--board and --starts go together: the starts are states of the board")
    if export is None:
        check_out_dir(out, force, RESULT_FILES)  # before the suite is built and run, which can take minutes
    from mobius.benchmarks.agreement import check_agreement, errors_of
    from mobius.benchmarks.harness import RunConfig, make_jobs, run_jobs
    from mobius.benchmarks.solver_plan import parse_solver_list, plan_solvers
    from mobius.benchmarks.report import write_outputs
    from mobius.benchmarks.suites import export_suite, get_suite, grid_suite, select_instances, starts_suite

    chosen = get_suite(suite) if suite is not None else \
        grid_suite([str(place) for place in grids], dictionary, min_length, surface) if grids else \
        starts_suite(str(board), str(starts))
    config = RunConfig(time_limit=chosen.time_limit if time_limit is None else time_limit, repeats=repeats,
                       jobs=jobs, seed=seed)
    selected = select_instances(chosen.build(seed), [p.strip() for p in (instances or "").split(",") if p.strip()])
    if export is not None:
        written = export_suite(selected, export, out, force)
        print(f"wrote {len(written)} {export} instance{'s' if len(written) != 1 else ''} of {chosen.name} to {out}")
        return
    plan = plan_solvers(chosen, {i.family for i in selected}, parse_solver_list(solvers) if solvers else None)
    if baseline is not None:
        plan.require(baseline)
    for note in plan.left_out:
        print(f"note: {note}", file=sys.stderr)
    records = run_jobs(make_jobs(selected, plan, config), config, on_record=_progress)
    disagreements = check_agreement(records)
    meta = {"suite": chosen.name, **({"grids": [str(g) for g in grids], "dictionary": dictionary,
                                      "min_length": min_length, "surface": surface} if grids else {}),
            **({"board": board, "starts": starts} if starts else {}),
            "solvers": {f: list(s) for f, s in plan.by_family.items()},
            "time_limit_s": config.time_limit, "repeats": repeats, "jobs": jobs, "seed": seed,
            "baseline": baseline, "instances": instances, "backstop_grace_s": config.grace}
    written = write_outputs(records, out, baseline=baseline, disagreements=disagreements,
                            notes=plan.left_out, meta=meta)
    for warning in errors_of(records):
        print(f"warning: run ended in ERROR: {warning}", file=sys.stderr)
    print(f"{len(records)} runs; wrote {', '.join(p.name for p in written if p.suffix != '.svg')} to {out}")
    if disagreements:
        print("\n" + "!" * 72 + f"\nDISAGREEMENT: {len(disagreements)} problem(s)", file=sys.stderr)
        for d in disagreements:
            print(f"  {d}", file=sys.stderr)
        print("!" * 72, file=sys.stderr)
        raise typer.Exit(EXIT_DISAGREEMENT)
