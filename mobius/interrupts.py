"""The signals that end a run: SIGINT, SIGTERM and SIGHUP all become `Interrupted`.

Covers: `install`, called first thing when the process starts (before the
CLI is imported), which turns each of these signals into `Interrupted`, a
KeyboardInterrupt naming its signal, so that every `finally` and `except
KeyboardInterrupt` on the way out runs — children are killed, finished work
kept — and the CLI reports one line and exit code 130 whichever signal it
was; `interruption`, that line's words; `settle`, which ignores further
signals once the run is over and its line printed, so that a second Ctrl-C
cannot break the process's exit with a traceback. A signal whose
disposition the process inherited as ignored (`nohup`, a background job)
stays ignored.

Leaves out: killing children (`mobius.cpmodel.processes` and the code that owns
them) and the exit codes (`mobius.exits`). Only the main thread sees
signals; a signal before the interpreter has run this module (its first
few milliseconds) keeps the system's default action.
"""

from __future__ import annotations

import signal
from types import FrameType

ENDING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """A signal asked this process to stop."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


def install() -> None:
    """Turn the ending signals into `Interrupted` (those not ignored when the process started)."""
    for signum in ENDING:
        if signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(signum, _interrupt)


def settle() -> None:
    """The run is over: ignore the ending signals from now on."""
    for signum in ENDING:
        if signal.getsignal(signum) is _interrupt:
            signal.signal(signum, signal.SIG_IGN)


def interruption(exc: BaseException) -> str:
    """``interrupted (SIGTERM)``: what to say about `exc`, an interruption (a bare Ctrl-C is SIGINT)."""
    name = signal.Signals(exc.signum).name if isinstance(exc, Interrupted) else "SIGINT"
    return f"interrupted ({name})"
