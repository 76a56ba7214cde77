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

SuiteOpt = Annotated[str, typer.Option(
    "--suite", help=f"One of {', '.join(SUITE_NAMES)} (the README says what each holds).")]
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
OutOpt = Annotated[Path, typer.Option("--out", help="Directory for records.csv/json, report.md and the plots.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite the results of an earlier run in --out.")]
# The files of a run (shell patterns; the plots are named by suite and solver, `benchmarks/report.py`), which
# --out must not hold unless --force, and never as a device, FIFO or socket.
RESULT_FILES = ("records.csv", "records.json", "report.md", "cactus-*.*", "scatter-*.*")


def _progress(record: Record, done: int, total: int) -> None:
    time_s = "" if record.wall_s is None else f" {record.wall_s:.2f}s"
    check = {True: " verified", False: " REJECTED BY THE VERIFIER", None: ""}[record.verified]
    print(f"[{done}/{total}] {record.instance} {record.solver} #{record.repeat}: {record.status}{time_s}{check}",
          flush=True)


def bench(suite: SuiteOpt, out: OutOpt, solvers: SolversOpt = None, time_limit: TimeLimitOpt = None,
          repeats: RepeatsOpt = 1, jobs: JobsOpt = 1, seed: SeedOpt = 0, baseline: BaselineOpt = None,
          instances: InstancesOpt = None, force: ForceOpt = False) -> None:
    """Run every solver on every instance of a suite, check they agree, and report."""
    check_out_dir(out, force, RESULT_FILES)  # before the suite is built and run, which can take minutes
    from mobius.benchmarks.agreement import check_agreement, errors_of
    from mobius.benchmarks.harness import RunConfig, make_jobs, run_jobs
    from mobius.benchmarks.solver_plan import parse_solver_list, plan_solvers
    from mobius.benchmarks.report import write_outputs
    from mobius.benchmarks.suites import get_suite, select_instances

    chosen = get_suite(suite)
    config = RunConfig(time_limit=chosen.time_limit if time_limit is None else time_limit, repeats=repeats,
                       jobs=jobs, seed=seed)
    selected = select_instances(chosen.build(seed), [p.strip() for p in (instances or "").split(",") if p.strip()])
    plan = plan_solvers(chosen, {i.family for i in selected}, parse_solver_list(solvers) if solvers else None)
    if baseline is not None:
        plan.require(baseline)
    for note in plan.left_out:
        print(f"note: {note}", file=sys.stderr)
    records = run_jobs(make_jobs(selected, plan, config), config, on_record=_progress)
    disagreements = check_agreement(records)
    meta = {"suite": suite, "solvers": {f: list(s) for f, s in plan.by_family.items()},
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
