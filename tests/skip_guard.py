"""In CI, a skipped test is a failure unless it is on the expected list.

CI installs every program and package the tests use, so a test that skips
there has lost what it needs without anyone noticing. `.ci/run` sets
``MOBIUS_CI=1``; `conftest.py` then registers `SkipGuard`, which fails the
session when a test that ran skipped without being listed in
`expected_skips.txt`, or when a listed test ran without skipping (a stale
entry); a test module skipped whole at collection (a module-level
`importorskip`) is judged the same way, by its file's node id. Tests not
run (a ``-k`` or a file named) are not judged. Outside CI skips are only
reported by pytest, as usual.
"""

from __future__ import annotations

from pathlib import Path

import pytest

EXPECTED_SKIPS = Path(__file__).with_name("expected_skips.txt")
CI_VARIABLE = "MOBIUS_CI"


def read_expected(path: Path) -> set[str]:
    """The node ids listed in `path`, one a line; `#` starts a comment."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {line for line in lines if line}


class SkipGuard:
    """Collects which tests skipped and which ran; judges them at the session's end."""

    def __init__(self, expected: set[str]) -> None:
        self.expected = expected
        self.skipped: dict[str, str] = {}
        self.ran: set[str] = set()
        self.problems: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.skipped and not hasattr(report, "wasxfail"):
            self.skipped[report.nodeid] = _reason(report)
        elif report.when == "call":
            self.ran.add(report.nodeid)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        # A module skipped whole (a module-level `importorskip`) skips at collection: no test of it
        # reports, so it is judged by the module's node id.
        if report.skipped:
            self.skipped[report.nodeid] = _reason(report)
        elif report.passed:
            self.ran.add(report.nodeid)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.problems = [f"skipped but expected to run in CI: {node} ({reason})"
                         for node, reason in sorted(self.skipped.items()) if node not in self.expected]
        self.problems += [f"listed in {EXPECTED_SKIPS.name} but ran: {node}"
                          for node in sorted(self.expected & (self.ran - set(self.skipped)))]
        if self.problems and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        for problem in self.problems:
            terminalreporter.write_line(f"{CI_VARIABLE}: {problem}", red=True)


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    """Why a test or a module skipped, as pytest.skip was told."""
    reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else ""
    return str(reason).removeprefix("Skipped: ")
