"""What pyproject.toml installs: every package of the tree under the one name `mobius`.

The folders stay at the top of the repository and install as subpackages of `mobius`
(pyproject.toml's package-dir). The package list there is written out by hand, so a new
subfolder would silently be left out of a wheel: this checks the list against the tree,
and that every package-data pattern still matches a file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def folder_of(package: str) -> Path:
    """The folder `package` installs from: its longest package-dir prefix, then the rest as subfolders."""
    mapped = max((name for name in SETUPTOOLS["package-dir"] if package == name or package.startswith(name + ".")),
                 key=len)
    rest = package.removeprefix(mapped).lstrip(".")
    return ROOT / SETUPTOOLS["package-dir"][mapped] / Path(*rest.split(".") if rest else ())


def tree_packages() -> set[Path]:
    return {init.parent for top in SETUPTOOLS["package-dir"].values() for init in (ROOT / top).rglob("__init__.py")}


def test_every_package_of_the_tree_is_installed_and_no_other() -> None:
    assert {folder_of(p) for p in SETUPTOOLS["packages"]} == tree_packages()


def test_every_package_installs_under_mobius() -> None:
    assert all(p == "mobius" or p.startswith("mobius.") for p in SETUPTOOLS["packages"])


def test_every_package_data_pattern_matches_a_file() -> None:
    empty = [(package, pattern) for package, patterns in SETUPTOOLS["package-data"].items()
             for pattern in patterns if not list(folder_of(package).glob(pattern))]
    assert empty == []
