"""Test-wide settings: caches go to a temporary directory, never the user's; in CI
(``MOBIUS_CI=1``) an unexpected skip fails the run (`skip_guard.py`); `special_file`
makes the FIFOs, sockets and devices that outputs must never replace."""

from __future__ import annotations

import importlib.util
import os
import socket
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def load_skip_guard() -> object:
    """skip_guard.py, loaded by its path (the tests folder is not a package)."""
    spec = importlib.util.spec_from_file_location("skip_guard", Path(__file__).with_name("skip_guard.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_configure(config: pytest.Config) -> None:
    guard = load_skip_guard()
    if os.environ.get(guard.CI_VARIABLE) == "1":
        config.pluginmanager.register(guard.SkipGuard(guard.read_expected(guard.EXPECTED_SKIPS)), "skip_guard")


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Pattern databases are cached under XDG_CACHE_HOME; a test run must not
    # leave files in (or read stale ones from) the user's own cache.
    cache = tmp_path_factory.mktemp("cache")
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    yield cache
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


SPECIAL_KINDS = ("fifo", "socket", "device")


@pytest.fixture
def special_file() -> Callable[[Path, str], Path]:
    """A maker of a FIFO, a socket or a character device at a path (`SPECIAL_KINDS`).

    The device is a copy of the null device's numbers made by root; any other user gets
    a link to /dev/null instead, which a broken write could not replace either (only root
    can write in /dev), so no test run can ever turn the real /dev/null into a file."""

    def make(path: Path, kind: str) -> Path:
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            listener = socket.socket(socket.AF_UNIX)
            listener.bind(str(path))
            listener.close()  # the name stays, a socket file
        elif os.geteuid() == 0:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        else:
            path.symlink_to(os.devnull)
        return path

    return make
