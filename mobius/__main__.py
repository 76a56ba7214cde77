"""The console script and `python -m mobius`: the CLI, with Ctrl-C during its start-up reported too.

Importing the CLI takes a few tenths of a second; a Ctrl-C in that time
would otherwise print a traceback of whatever module was loading.
"""

import sys

from mobius.exits import EXIT_INTERRUPTED


def main() -> None:
    try:
        from mobius.cli import main as run
    except KeyboardInterrupt:
        print("mobius: interrupted", file=sys.stderr)
        raise SystemExit(EXIT_INTERRUPTED) from None
    run()


if __name__ == "__main__":
    main()
