"""Reading back a cache file: only a regular file of a plausible size is opened and read, a
FIFO never blocks, a device is never opened, and a pipe, device node or socket in a cache
file's place is removed so that the rebuild can take its name; a missing file is not damage."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from mobius.cpmodel.cache_files import Damaged, open_entry, read_entry, remove_special
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.inputs import open_bounded


def test_a_regular_file_is_read_with_its_stat(tmp_path: Path) -> None:
    path = tmp_path / "entry"
    path.write_bytes(b"12345")
    data, info = read_entry(path, 5, "cache file")
    assert data == b"12345" and info.st_ino == os.stat(path).st_ino


def test_no_file_and_a_parent_that_is_no_directory_are_no_entry(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_entry(tmp_path / "absent", 5, "cache file")
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileNotFoundError):
        read_entry(tmp_path / "file" / "entry", 5, "cache file")


def test_a_fifo_in_an_entry_place_is_refused_at_once_and_removed(tmp_path: Path) -> None:
    path = tmp_path / "entry"
    os.mkfifo(path)
    with pytest.raises(Damaged, match=r"entry: not a regular file .*expected a cache file \(removed\)"):
        read_entry(path, 100, "cache file")  # returns at once: a FIFO is never opened
    assert not path.exists()


def test_a_link_to_a_device_is_removed_and_the_device_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "entry"
    path.symlink_to("/dev/zero")
    with pytest.raises(Damaged, match="not a regular file"):
        with open_entry(path, 100, "cache file"):
            pass
    assert not path.is_symlink() and stat.S_ISCHR(os.stat("/dev/zero").st_mode)


def test_a_socket_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        assert remove_special(path) and not path.exists()
    finally:
        server.close()


@pytest.mark.parametrize("kind", ["large", "directory"])
def test_a_large_file_or_a_directory_is_refused_but_left_where_it_is(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "entry"
    if kind == "large":
        with open(path, "wb") as handle:
            handle.truncate(1 << 40)  # sparse: a terabyte that would take minutes to hash
        reason = "is 1,099,511,627,776 bytes; a cache file is at most 100"
    else:
        path.mkdir()
        reason = "is a directory"
    with pytest.raises(Damaged, match=reason):
        read_entry(path, 100, "cache file")
    assert path.exists()  # a regular file is replaced by the rebuild; a directory may hold anything


def test_the_input_gate_never_opens_a_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real_open = os.open

    def spying_open(path: str, *args: int) -> int:
        opened.append(str(path))
        return real_open(path, *args)

    monkeypatch.setattr(os, "open", spying_open)
    with pytest.raises(InputError, match="not a regular file"):
        open_bounded("/dev/zero", 100, "grid file")  # opening some devices acts on them
    assert opened == []
    with pytest.raises(FileNotFoundError):
        open_bounded(tmp_path / "absent", 100, "grid file")
