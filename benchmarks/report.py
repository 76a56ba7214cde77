"""Benchmark reports: records as CSV and JSON, Markdown tables, cactus and scatter plots.

Covers: per (suite, family), each solver's time on each instance — the median
over repeats, an undecided run counting as infinitely slow, so an instance is
decided when at least half its repeats are (`instance_times`); the summary
table (instances decided, run statuses, median and total time over decided
instances, the PAR-2 score competitions rank by — with repeats its spread
over them — and the ratio to a baseline solver: the median over instances
both decided of time / baseline time), with a row for the virtual best
solver (per instance, the best time of any); a cactus plot (instances decided
against time) and one scatter plot of per-instance times of the baseline
against each other solver, undecided runs drawn on the time-limit line
(matplotlib, Agg, PNG and SVG); a table of counters (nodes, table set-up
time, how far TIMEOUT runs went past their limit); and `write_outputs`, which puts
records.csv, summary.csv, records.json, report.md and the plots into one directory, each
file written whole (`write_atomic`: never over a device, FIFO or socket).

Leaves out: running anything and deciding what disagrees (`harness.py`, `agreement.py`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mobius.benchmarks.agreement import Disagreement
from mobius.benchmarks.harness import Record
from mobius.cpmodel.files import write_atomic
from mobius.cpmodel.solver import Status, is_count, stat_text

# Times below a millisecond are timer noise and process jitter; flooring them
# keeps a ratio of two trivial runs from reading as 50x.
TIME_FLOOR_S = 1e-3
PLOT_FORMATS = ("png", "svg")
CSV_OMITTED = ("solution",)  # too large for a spreadsheet cell; records.json has it

GroupKey = tuple[str, str]  # (suite, family)

if TYPE_CHECKING:  # matplotlib loads only when a plot is drawn: reports and the CLI start without it
    from matplotlib.figure import Figure


# --- per-instance times -----------------------------------------------------------

def run_time(r: Record) -> float:
    """A run's time, inf when it decided nothing: undecided, or an answer the verifier rejects."""
    return r.wall_s if r.decided and r.verified is not False and r.wall_s is not None else math.inf


def instance_times(records: Iterable[Record]) -> dict[GroupKey, dict[str, dict[str, float]]]:
    """(suite, family) -> solver -> instance -> median time over repeats (inf = not decided)."""
    runs: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for r in records:
        runs[(r.suite, r.family, r.solver, r.instance)].append(run_time(r))
    table: dict[GroupKey, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for (suite, family, solver, instance), times in runs.items():
        # median_low: with an even number of repeats, decided in half of them still counts as decided
        table[(suite, family)][solver][instance] = statistics.median_low(times)
    return table


def median_ratio(times: Mapping[str, float], baseline: Mapping[str, float]) -> tuple[float | None, int]:
    """Median over instances both decided of time / baseline time, and how many such instances."""
    common = [i for i, t in times.items() if math.isfinite(t) and math.isfinite(baseline.get(i, math.inf))]
    if not common:
        return None, 0
    ratios = [max(times[i], TIME_FLOOR_S) / max(baseline[i], TIME_FLOOR_S) for i in common]
    return statistics.median(ratios), len(common)


# --- the summary table ----------------------------------------------------------

@dataclass(frozen=True)
class SolverSummary:
    solver: str
    instances: int
    decided: int  # instances decided (see instance_times)
    runs: int
    solved: int  # runs by status
    unsat: int
    timeout: int
    error: int
    median_s: float | None  # over decided instances
    total_s: float
    ratio: float | None  # median per-instance ratio to the baseline
    common: int  # instances both this solver and the baseline decided
    par2_s: float | None  # PAR-2: the times summed, an undecided instance counting twice the limit
    par2_spread: tuple[float, float, float] | None  # with repeats: PAR-2 of each repeat, min, median, max


# The row of the virtual best solver: per instance, the best time any solver of the group decided it in.
VIRTUAL_BEST = "virtual best"


def par2(times: Iterable[float], limit: float | None) -> float | None:
    """The PAR-2 score of per-instance times: decided ones summed, each undecided one counting twice the
    time limit (None without a limit)."""
    if limit is None:
        return None
    return sum(t if math.isfinite(t) else 2 * limit for t in times)


def _par2_spread(records: Sequence[Record], limit: float | None) -> tuple[float, float, float] | None:
    """PAR-2 of each repeat on its own (min, median, max), None with one repeat or no limit."""
    by_repeat: dict[int, list[float]] = defaultdict(list)
    for r in records:
        by_repeat[r.repeat].append(run_time(r))
    scores = [par2(times, limit) for _, times in sorted(by_repeat.items())]
    if len(scores) < 2 or limit is None:
        return None
    values = [score for score in scores if score is not None]
    return min(values), statistics.median(values), max(values)


def choose_baseline(solvers: Sequence[str], wanted: str | None) -> str:
    """`wanted` if it ran in this group, else the first solver."""
    return wanted if wanted in solvers else solvers[0]


def solver_order(records: Iterable[Record]) -> dict[GroupKey, list[str]]:
    """Solvers of each group in the order they first ran (the order they were asked for)."""
    order: dict[GroupKey, list[str]] = defaultdict(list)
    for r in records:
        if r.solver not in order[(r.suite, r.family)]:
            order[(r.suite, r.family)].append(r.solver)
    return order


Summaries = dict[GroupKey, tuple[str, list[SolverSummary]]]  # (suite, family) -> (baseline used, rows)


def summarise(records: Sequence[Record], baseline: str | None) -> Summaries:
    """(suite, family) -> (the baseline used, one summary per solver)."""
    times = instance_times(records)
    statuses: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for r in records:
        statuses[(r.suite, r.family, r.solver)].append(r.status)
    result = {}
    for key, solvers in solver_order(records).items():
        group = [r for r in records if (r.suite, r.family) == key]
        limits = [r.time_limit_s for r in group if r.time_limit_s is not None]
        limit = max(limits) if limits else None
        base = choose_baseline(solvers, baseline)
        rows = [_summary(solver, times[key][solver], times[key][base], statuses[(*key, solver)], limit,
                         [r for r in group if r.solver == solver]) for solver in solvers]
        if len(solvers) > 1:
            best = {i: min(times[key][solver].get(i, math.inf) for solver in solvers) for i in times[key][base]}
            rows.append(_summary(VIRTUAL_BEST, best, times[key][base], [], limit, []))
        result[key] = (base, rows)
    return result


def _summary(solver: str, times: Mapping[str, float], baseline: Mapping[str, float], runs: list[str],
             limit: float | None, records: Sequence[Record]) -> SolverSummary:
    decided = [t for t in times.values() if math.isfinite(t)]
    ratio, common = median_ratio(times, baseline)
    return SolverSummary(solver=solver, instances=len(times), decided=len(decided), runs=len(runs),
                         solved=runs.count(Status.SOLVED.value), unsat=runs.count(Status.UNSAT.value),
                         timeout=runs.count(Status.TIMEOUT.value), error=runs.count(Status.ERROR.value),
                         median_s=statistics.median(decided) if decided else None, total_s=sum(decided),
                         ratio=ratio, common=common, par2_s=par2(times.values(), limit),
                         par2_spread=_par2_spread(records, limit))


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown_rows(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain Markdown table: the header, then one line per row."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown_table(rows: Sequence[SolverSummary], baseline: str) -> str:
    """The summary table; a column of PAR-2 over repeats where any row has repeats."""
    spread = any(s.par2_spread for s in rows)
    header = ["Solver", "Decided", "Solved", "UNSAT", "Timeout", "Error", "Median s", "Total s", "PAR-2 s",
              *(["PAR-2 over repeats (min–median–max)"] if spread else []), "× baseline", "Both decided"]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    for s in rows:
        name = f"**{s.solver}** (baseline)" if s.solver == baseline else \
            f"*{s.solver}*" if s.solver == VIRTUAL_BEST else s.solver
        runs = ["–"] * 4 if s.solver == VIRTUAL_BEST else [s.solved, s.unsat, s.timeout, s.error]
        repeats = ["–" if s.par2_spread is None else "–".join(f"{v:.3f}" for v in s.par2_spread)] if spread else []
        cells = [name, f"{s.decided}/{s.instances}", *runs, _seconds(s.median_s), f"{s.total_s:.3f}",
                 _seconds(s.par2_s), *repeats, "–" if s.ratio is None else f"{s.ratio:.2f}", s.common]
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    return "\n".join(lines)


def summary_rows(summaries: Summaries) -> list[dict[str, Any]]:
    """Every summary row with its suite, family and baseline: for summary.csv and records.json."""
    return [{"suite": suite, "family": family, "baseline": base, **asdict(row)}
            for (suite, family), (base, rows) in summaries.items() for row in rows]


# --- plots -----------------------------------------------------------------------

def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("_")


def _save(figure: Figure, stem: Path) -> list[Path]:
    paths = [stem.with_name(f"{stem.name}.{fmt}") for fmt in PLOT_FORMATS]
    for path in paths:
        write_atomic(path, lambda handle: figure.savefig(handle, format=path.suffix[1:], bbox_inches="tight"))
    return paths


def cactus_plot(times: Mapping[str, Mapping[str, float]], title: str, stem: Path) -> list[Path]:
    """Instances decided (x) against the time each took, sorted (y, log scale), one line per solver."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(6.4, 4.4))
    axes = figure.add_subplot()
    for solver, per_instance in times.items():
        decided = sorted(t for t in per_instance.values() if math.isfinite(t))
        axes.plot(range(1, len(decided) + 1), [max(t, TIME_FLOOR_S) for t in decided], marker=".",
                  drawstyle="steps-post", label=solver)
    axes.set(xlabel="instances decided", ylabel="time per instance (s)", yscale="log", title=title)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    return _save(figure, stem)


def scatter_plot(x_times: Mapping[str, float], y_times: Mapping[str, float], labels: tuple[str, str],
                 limit: float, title: str, stem: Path) -> list[Path]:
    """Per-instance times of two solvers, log-log; an undecided run sits on the `limit` line."""
    instances = sorted(set(x_times) & set(y_times))
    points = [(max(min(x_times[i], limit), TIME_FLOOR_S), max(min(y_times[i], limit), TIME_FLOOR_S),
               math.isfinite(x_times[i]) and math.isfinite(y_times[i])) for i in instances]
    low = min((min(x, y) for x, y, _ in points), default=TIME_FLOOR_S) / 2
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.2, 5.2))
    axes = figure.add_subplot()
    for both, marker, label in ((True, "o", "both decided"), (False, "x", "undecided by one or both (at the limit)")):
        chosen = [(x, y) for x, y, b in points if b is both]
        if chosen:
            axes.scatter([x for x, _ in chosen], [y for _, y in chosen], marker=marker, label=label)
    axes.plot([low, limit], [low, limit], color="grey", linewidth=0.8)
    axes.set(xscale="log", yscale="log", xlabel=f"{labels[0]} (s)", ylabel=f"{labels[1]} (s)", title=title,
             xlim=(low, limit * 1.5), ylim=(low, limit * 1.5))
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    return _save(figure, stem)


def _plot_limit(records: Iterable[Record], times: Mapping[str, Mapping[str, float]]) -> float:
    """Where undecided runs are drawn: the time limit, or past the slowest decided time without one."""
    limits = [r.time_limit_s for r in records if r.time_limit_s is not None]
    finite = [t for per in times.values() for t in per.values() if math.isfinite(t)]
    return max(limits) if limits else 2 * max(finite, default=1.0)


def plot_group(records: Sequence[Record], key: GroupKey, times: Mapping[str, Mapping[str, float]], baseline: str,
               out: Path) -> list[Path]:
    suite, family = key
    prefix = f"{_slug(suite)}-{family}"
    paths = cactus_plot(times, f"{suite} ({family})", out / f"cactus-{prefix}")
    limit = _plot_limit((r for r in records if (r.suite, r.family) == key), times)
    for other in times:
        if other != baseline:
            paths += scatter_plot(times[baseline], times[other], (baseline, other), limit,
                                  f"{suite} ({family})", out / f"scatter-{prefix}-{_slug(other)}")
    return paths


# --- files ------------------------------------------------------------------------

def _csv_value(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, (dict, list, tuple)) else value


def csv_text(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> bytes:
    table = io.StringIO(newline="")
    writer = csv.DictWriter(table, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _csv_value(v) for k, v in row.items()})
    return table.getvalue().encode("utf-8")


def write_records(records: Sequence[Record], out: Path, meta: Mapping[str, Any],
                  summary: Sequence[Mapping[str, Any]]) -> list[Path]:
    """records.csv and summary.csv (one row per solver, the virtual best included), and records.json
    holding both."""
    csv_path, json_path, summary_path = out / "records.csv", out / "records.json", out / "summary.csv"
    write_atomic(csv_path, csv_text([r.to_json() for r in records],
                                    [f.name for f in fields(Record) if f.name not in CSV_OMITTED]))
    write_atomic(summary_path, csv_text(summary, list(summary[0]) if summary else []))
    write_atomic(json_path, json.dumps({"meta": dict(meta), "records": [r.to_json() for r in records],
                                        "summary": list(summary)}, indent=1).encode("utf-8"))
    return [csv_path, summary_path, json_path]


# The counters summarised beside the times, where a solver reports them.
COUNTER_STATS = ("nodes", "generated", "setup_s")


def counters_table(records: Sequence[Record], solvers: Sequence[str]) -> str | None:
    """Per solver: median and mean of each counter in `COUNTER_STATS` over its runs, and how far past its
    time limit a TIMEOUT run's own clock went (the overshoot); None when no run has any of them."""
    keys = [k for k in COUNTER_STATS if any(k in r.stats for r in records)]
    timeouts = [r for r in records if r.status == Status.TIMEOUT.value and r.wall_s is not None
                and r.time_limit_s is not None]
    if not keys and not timeouts:
        return None
    header = [f"{stat} {how}" for stat in keys for how in ("median", "mean")] + ["timeouts", "max overshoot s"]
    lines = ["| Solver (counters) | " + " | ".join(header) + " |", "|---|" + "---:|" * len(header)]
    for solver in solvers:
        mine = [r for r in records if r.solver == solver]
        cells = []
        for stat in keys:
            values = [r.stats[stat] for r in mine if stat in r.stats]
            count = is_count(stat, values)
            cells += [stat_text(statistics.median(values), count=count, grouped=True) if values else "–",
                      stat_text(statistics.fmean(values), count=count, grouped=True) if values else "–"]
        late = [r.wall_s - r.time_limit_s for r in timeouts if r.solver == solver]  # type: ignore[operator]
        cells += [str(len(late)), f"{max(late):+.3f}" if late else "–"]
        lines.append(f"| {solver} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown_report(records: Sequence[Record], summaries: Summaries, disagreements: Sequence[Disagreement],
                    notes: Sequence[str], meta: Mapping[str, Any], plots: Mapping[GroupKey, list[Path]]) -> str:
    first = records[0] if records else None
    lines = ["# Benchmark report", ""]
    if first is not None:
        lines += [f"Machine: {first.cpu_model}, {first.cpu_cores} cores; Python {first.python_version}, "
                  f"OR-Tools {first.ortools_version}, numpy {first.numpy_version}.", ""]
    lines += ["Settings: " + ", ".join(f"{k} = {v}" for k, v in meta.items()) + ".", ""]
    lines += [f"- {note}" for note in notes] + ([""] if notes else [])
    if disagreements:
        lines += ["## DISAGREEMENTS", ""] + [f"- **{d}**" for d in disagreements] + [""]
    for (suite, family), (base, rows) in summaries.items():
        lines += [f"## {suite} — {family} ({rows[0].instances} instances)", "", markdown_table(rows, base), ""]
        lines += ["Time per instance: median over repeats, decided when at least half the repeats were (an "
                  "answer the verifier rejects decides nothing). Median and total: over the instances the "
                  "solver decided. PAR-2: the times summed, each instance not decided counting twice the time "
                  f"limit. × baseline: median over instances both decided of time / time of {base}. "
                  f"{VIRTUAL_BEST.capitalize()}: per instance, the best time of any solver.", ""]
        group = [r for r in records if (r.suite, r.family) == (suite, family)]
        counters = counters_table(group, [row.solver for row in rows if row.solver != VIRTUAL_BEST])
        if counters is not None:
            lines += [counters, "", "Counters over all runs (the solver's stats; setup_s: loading or building "
                      "tables). Overshoot: a TIMEOUT run's own wall time minus its time limit.", ""]
        lines += [f"![{p.stem}]({p.name})" for p in plots.get((suite, family), []) if p.suffix == ".png"]
        lines.append("")
    return "\n".join(lines)


def write_outputs(records: Sequence[Record], out: Path, *, baseline: str | None,
                  disagreements: Sequence[Disagreement], notes: Sequence[str], meta: Mapping[str, Any]) -> list[Path]:
    """records.csv, records.json, the plots and report.md in `out` (created if needed)."""
    out.mkdir(parents=True, exist_ok=True)
    times = instance_times(records)
    summaries = summarise(records, baseline)
    written = write_records(records, out, meta, summary_rows(summaries))
    plots = {key: plot_group(records, key, times[key], base, out) for key, (base, _) in summaries.items()}
    report = out / "report.md"
    write_atomic(report, markdown_report(records, summaries, disagreements, notes, meta, plots).encode("utf-8"))
    return [*written, *(p for ps in plots.values() for p in ps), report]
