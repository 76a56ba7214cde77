"""Long set-up that speaks: named phases with progress, on a terminal and off it.

Covers: `Phases`, the display of phases longer than a second — table
builds, a pack's puzzles and exports: when stderr is a terminal, a rich bar
there per phase (its name, what it is at, how far, elapsed and remaining
time); otherwise a line on stdout when a phase starts and one when it ends
with its time, so logs and pipes show where the time went. Stdout, because
stderr stays for errors and warnings: bad input is still one line there. And `table_progress`,
which turns a pattern-table build's reports (`mobius.cpmodel.slider.pdb_build`)
into phases: one per tile group, advanced level by level.

Leaves out: what the phases do (the commands and generators) and the pack's
own bar of puzzles (`pack_cli.py`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class Phases:
    """Phases one after another: a live bar when stderr is a terminal, else start and end lines on `stream`
    (stdout by default)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        from rich.console import Console

        self.stream = stream or sys.stdout
        self.console = Console(stderr=True)
        self.live = self.console.is_terminal
        self._bar: Any = None
        self._task: Any = None
        self._name = ""
        self._began = 0.0

    def __enter__(self) -> Phases:
        if self.live:
            from rich.progress import (BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            # The description is plain text: a phase's detail is never read as rich markup.
            self._bar = Progress(TextColumn("{task.description}", style="progress.description", markup=False),
                                 BarColumn(), TaskProgressColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(), console=self.console, transient=True)
            self._bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.end()
        if self._bar is not None:
            self._bar.__exit__(*exc)

    @property
    def current(self) -> str:
        """The name of the phase under way ("" between phases)."""
        return self._name

    def line(self, text: str) -> None:
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)

    def start(self, name: str, total: int | None = None) -> None:
        """End the current phase (if any) and start `name`."""
        self.end()
        self._name, self._began = name, time.perf_counter()
        if self._bar is not None:
            self._task = self._bar.add_task(name, total=total)
        else:
            self.line(f"{name} …")

    def update(self, done: int, total: int | None = None, detail: str = "") -> None:
        if self._bar is not None and self._task is not None:
            description = f"{self._name}: {detail}" if detail else self._name
            self._bar.update(self._task, completed=done, total=total, description=description)

    def end(self, summary: str = "") -> None:
        """Close the current phase with a line naming it and its time."""
        if not self._name:
            return
        if self._bar is not None and self._task is not None:
            self._bar.remove_task(self._task)
            self._task = None
        seconds = time.perf_counter() - self._began
        self.line(f"{self._name}: done in {seconds:.1f} s" + (f" ({summary})" if summary else ""))
        self._name = ""

    @contextmanager
    def phase(self, name: str, total: int | None = None) -> Iterator[Phases]:
        self.start(name, total)
        yield self
        self.end()


def table_progress(phases: Phases, what: str) -> Callable[[int, int, Any], None]:
    """A pattern-table build's progress callback: a phase per tile group of `what`, updated per report."""

    def report(done: int, total: int, step: Any) -> None:
        name = f"{what}: {step.phase}"
        if name != phases.current:
            phases.start(name, total)
        phases.update(done, total, f"level {step.level}, {done:,}/{total:,} states")

    return report
