"""The exit codes of every `mobius` command, as the README documents them.

Covers: one name per code, shared by the command modules and the top-level
error policy in `cli.py`. Leaves out: deciding which code a failure gets
(each command and `cli.run_command` do that).
"""

from __future__ import annotations

EXIT_OK = 0  # filled, solved, reachable
EXIT_NO_SOLUTION = 1  # no fill exists, goal unreachable
EXIT_DISAGREEMENT = 1  # `bench`: solvers disagree on an instance
EXIT_FLAGGED = 1  # `clues check`: a clue breaks a rule
EXIT_BAD_INPUT = 2  # bad input or options: one line on stderr
EXIT_TIMEOUT = 3  # the time limit ran out before an answer
EXIT_INTERNAL = 4  # a solver failed (ERROR) or gave an answer its verifier refuses
EXIT_DAMAGED = 5  # `slider prepare --verify`: stored tables failed their check (and were removed)
EXIT_INTERRUPTED = 130  # Ctrl-C, SIGTERM or SIGHUP (the shell's code for a Ctrl-C), one line naming the signal
