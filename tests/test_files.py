"""The one atomic write (cpmodel/files.py): the old file or the new one, the umask's mode,
nothing left behind, errors naming the file."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

import pytest

from mobius.cpmodel.files import write_atomic


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
