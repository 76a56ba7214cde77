"""The CLI's fuzzer: `python -m mobius.fuzz --cases 3000 --processes 150 --seed 0`.

Covers: running `mobius ARGS` in this process through typer's CliRunner (the
same error policy as the console script, fast enough for thousands of cases:
`run_in_process`, which the test suite's hypothesis fuzz tests use too) and
the fuzzing run itself: the malformed inputs of `mobius.benchmarks.fuzz_cli`
in-process, then a sample of them as real processes, each classified and
reported there. It lives with the CLI because it drives the CLI object
itself; the benchmark layer below writes the cases and never imports the CLI.

Leaves out: the cases, their classification and the real-process runs
(`mobius.benchmarks.fuzz_cli`), and fixing what it finds.
"""

from __future__ import annotations

import argparse
import random
import resource
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from mobius.benchmarks.fuzz_cli import (CASE_TIMEOUT_S, IN_PROCESS_MEMORY_BYTES, PROCESS_MEMORY_BYTES,
                                        PROCESS_TIMEOUT_S, CaseTimeout, Inputs, Outcome, cases, classify, report,
                                        run_in_child, sample_puzzles)
from mobius.cli import app


def run_in_process(args: list[str] | tuple[str, ...], timeout: float = CASE_TIMEOUT_S) -> tuple[int | None, str, str | None]:
    """(exit code, stderr, broken promise) of `mobius ARGS` run in this process."""
    def expire(signum: int, frame: object) -> None:
        raise CaseTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        result = CliRunner().invoke(app, list(args))
    except CaseTimeout as exc:  # raised outside the command, where CliRunner does not catch it
        return None, "", classify(None, "", exception=exc)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    exception = result.exception if not isinstance(result.exception, SystemExit) else None
    stderr = result.stderr + (f"{type(exception).__name__}: {exception}" if exception is not None else "")
    return result.exit_code, stderr, classify(result.exit_code, result.stderr, exception=exception)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000, help="in-process cases")
    parser.add_argument("--processes", type=int, default=150, help="cases also run as real processes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (IN_PROCESS_MEMORY_BYTES, IN_PROCESS_MEMORY_BYTES))
    with tempfile.TemporaryDirectory(prefix="mobius-fuzz-") as tmp:
        workdir = Path(tmp)
        inp = Inputs(random.Random(args.seed), workdir, sample_puzzles(workdir))
        todo = cases(inp, args.cases)
        outcomes = []
        for case in todo:
            started = time.perf_counter()
            code, stderr, problem = run_in_process(case.args)
            outcomes.append(Outcome(case, code, stderr, problem, time.perf_counter() - started))
        print(report(outcomes, "in-process (CliRunner)"))
        # A NUL cannot be passed to a process at all: those cases run in-process only.
        passable = [case for case in todo if not any("\0" in a for a in case.args)]
        sample = random.Random(args.seed + 1).sample(passable, min(args.processes, len(passable)))
        children = []
        for case in sample:
            started = time.perf_counter()
            code, stderr, problem = run_in_child(case.args)
            children.append(Outcome(case, code, stderr, problem, time.perf_counter() - started))
        print(report(children, f"processes (python -m mobius, RLIMIT_AS {PROCESS_MEMORY_BYTES >> 30} GiB, "
                               f"timeout {PROCESS_TIMEOUT_S} s)"))
        by_parser = Counter(o.case.parser for o in outcomes)
        print("in-process cases by parser: " + ", ".join(f"{p} {n}" for p, n in sorted(by_parser.items())))


if __name__ == "__main__":
    main()
