"""The tree passes ruff with the project's rules (`[tool.ruff]` in pyproject.toml): no unused or
undefined name, no redefinition, no statement a reader would take for another."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", str(ROOT)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_would_find_an_unused_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("import os\n")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
                           str(planted)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1 and "F401" in done.stdout
