"""The one atomic write (cpmodel/files.py): the old file or the new one, the umask's mode,
nothing left behind, errors naming the file."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import pytest

from mobius.cpmodel.files import NotRegularFile, write_atomic


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_bytes_or_a_writer_replace_the_file_with_the_umasks_mode(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "file.bin"
    write_atomic(target, b"old")
    write_atomic(target, lambda handle: handle.write(b"new"))
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~current_umask()
    assert [p.name for p in target.parent.iterdir()] == ["file.bin"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "file.bin"
    write_atomic(target, b"old")

    def half_then_fail(handle: BinaryIO) -> None:
        handle.write(b"ne")
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        write_atomic(target, half_then_fail)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["file.bin"]


def test_an_error_names_the_file_not_the_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "file.bin"
    target.mkdir()  # nothing can be renamed over a directory
    (target / "x").write_bytes(b"")
    with pytest.raises(OSError) as raised:
        write_atomic(target, b"new")
    assert raised.value.filename == str(target) and ".tmp" not in str(raised.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.bin"]


def entries(folder: Path) -> dict[str, int]:
    """Each name in `folder` and the type bits of its own mode (a link is a link)."""
    return {p.name: stat.S_IFMT(p.lstat().st_mode) for p in folder.iterdir()}


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
@pytest.mark.parametrize("linked", [False, True])
def test_a_device_fifo_or_socket_is_refused_and_left_as_it_was(tmp_path: Path, kind: str, linked: bool,
                                                               special_file: Callable[[Path, str], Path]) -> None:
    special = special_file(tmp_path / kind, kind)
    path = tmp_path / "link" if linked else special
    if linked:
        path.symlink_to(special)
    before = entries(tmp_path)
    called: list[bool] = []
    with pytest.raises(NotRegularFile) as raised:
        write_atomic(path, lambda handle: called.append(True))
    assert not called  # refused before the writer's work
    assert raised.value.filename == str(path) and "not a regular file" in raised.value.strerror
    # a link's message says where it leads
    assert (f"the link leads to {os.path.realpath(path)}" in raised.value.strerror) == path.is_symlink()
    assert entries(tmp_path) == before  # nothing replaced, no temporary file left


def test_a_link_to_a_regular_file_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.html"
    target.write_bytes(b"old")
    link = tmp_path / "page.html"
    link.symlink_to(target.name)
    write_atomic(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html", "real.html"]


def test_a_fifo_put_in_the_files_place_while_it_is_written_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "file.bin"
    target.write_bytes(b"old")

    def swap_then_write(handle: BinaryIO) -> None:
        target.unlink()
        os.mkfifo(target)
        handle.write(b"new")

    with pytest.raises(NotRegularFile):
        write_atomic(target, swap_then_write)
    assert entries(tmp_path) == {"file.bin": stat.S_IFIFO}
