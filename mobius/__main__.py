"""The console script and `python -m mobius`: the CLI, with signals that end the run handled from its start.

The ending signals (Ctrl-C, SIGTERM, SIGHUP) become KeyboardInterrupt before
anything else is imported (`mobius.interrupts`); importing the CLI takes a
few tenths of a second, and a signal in that time would otherwise print a
traceback of whatever module was loading, or end the process without a word.
"""

import sys

from mobius.exits import EXIT_INTERRUPTED
from mobius.interrupts import install, interruption, settle


def main() -> None:
    install()
    try:
        from mobius.cli import main as run

        # Inside the try as well: before a command runs, typer builds the command tree (reading every
        # option's annotations, a few tenths of a second), where a signal would otherwise show a traceback.
        run()
    except KeyboardInterrupt as exc:
        settle()
        print(f"mobius: {interruption(exc)}", file=sys.stderr, flush=True)
        raise SystemExit(EXIT_INTERRUPTED) from None


if __name__ == "__main__":
    main()
