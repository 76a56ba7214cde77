"""The benchmark data shipped with the project, and its readers.

Covers: where the files under `benchmarks/data/` are (`DATA_DIR`, see its
README for each file's source), the van Beek grid files, Korf's 100
15-puzzles with their optimal lengths (`korf_table`) and the exact slider
distance distributions (`distance_counts`). Leaves out: turning them into
suite instances (`suites.py`) and solving anything.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from mobius.cpmodel.errors import InputError

DATA_DIR = Path(__file__).resolve().parent / "data"
VANBEEK_DIR = DATA_DIR / "crossword" / "vanbeek"
KORF_FILE = DATA_DIR / "slider" / "korf100.txt"
DISTANCES_FILE = DATA_DIR / "slider" / "distances.txt"
KORF_TILES = 16


def vanbeek_paths() -> list[Path]:
    """The 72 grid files, sorted by name (05.01 … puzzle22)."""
    paths = sorted(VANBEEK_DIR.glob("*.txt"))
    if not paths:
        raise InputError(f"no van Beek grids found in {VANBEEK_DIR} (the installed package is incomplete)")
    return paths


def _data_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every line that is not blank or a # comment."""
    if not path.exists():
        raise InputError(f"benchmark data file {path} is missing (the installed package is incomplete)")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if line:
            rows.append((number, line))
    return rows


@lru_cache(maxsize=1)
def korf_table() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Korf's 100: (tiles row-major with 0 = blank, optimal length), in file order."""
    rows = []
    for number, line in _data_lines(KORF_FILE):
        values = [int(v) for v in line.split()]
        if len(values) != KORF_TILES + 1:
            raise InputError(f"expected {KORF_TILES} tiles and a length, got {len(values)} numbers",
                             source=str(KORF_FILE), line=number)
        rows.append((tuple(values[:KORF_TILES]), values[KORF_TILES]))
    return tuple(rows)


def distance_counts(label: str) -> list[int]:
    """The number of configurations at each optimal distance, for a line such as ``3x3-corner``."""
    for _, line in _data_lines(DISTANCES_FILE):
        name, _, counts = line.partition(":")
        if name.strip() == label:
            return [int(x) for x in counts.split()]
    raise InputError(f"no distance distribution {label!r} in {DISTANCES_FILE}")
