"""The CI skip guard (skip_guard.py), run on a small test file of its own in a child pytest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GUARD = Path(__file__).with_name("skip_guard.py")
TESTS = '''
import pytest

def test_runs():
    pass

def test_skips():
    pytest.skip("no such program")
'''
# The child loads the guard by its path, as conftest.py does, with the expected list given.
CHILD = '''
import importlib.util, sys
import pytest
spec = importlib.util.spec_from_file_location("skip_guard", sys.argv[1])
guard = importlib.util.module_from_spec(spec)
spec.loader.exec_module(guard)
expected = set(sys.argv[2].split(",")) - {""}
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[3]], plugins=[guard.SkipGuard(expected)]))
'''


# A module that skips whole at collection, as one needing a package CI lacks would.
SKIPPED_MODULE = """
import pytest

pytest.importorskip("no_such_module_anywhere")


def test_never_collected():
    pass
"""


def run_guarded(tmp_path: Path, expected: list[str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_sample.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "test_module_skip.py").write_text(SKIPPED_MODULE, encoding="utf-8")
    return subprocess.run([sys.executable, "-c", CHILD, str(GUARD), ",".join(expected), str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_an_unexpected_skip_fails_the_session(tmp_path: Path) -> None:
    run = run_guarded(tmp_path, [])
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout
    assert "skipped but expected to run in CI: test_sample.py::test_skips (no such program)" in run.stdout


def test_a_module_skipped_at_collection_fails_the_session(tmp_path: Path) -> None:
    run = run_guarded(tmp_path, ["test_sample.py::test_skips"])
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout
    assert "skipped but expected to run in CI: test_module_skip.py (could not import" in run.stdout


def test_an_expected_skip_passes(tmp_path: Path) -> None:
    run = run_guarded(tmp_path, ["test_sample.py::test_skips", "test_module_skip.py"])
    assert run.returncode == pytest.ExitCode.OK, run.stdout


def test_a_listed_test_that_ran_is_a_stale_entry(tmp_path: Path) -> None:
    run = run_guarded(tmp_path, ["test_sample.py::test_skips", "test_module_skip.py", "test_sample.py::test_runs"])
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout
    assert "but ran: test_sample.py::test_runs" in run.stdout
