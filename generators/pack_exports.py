"""The export phase of a pack: every puzzle's files beside its JSON, the
`pack.pdf` booklet, and the summary of the exports that were skipped.

Covers: `write_exports(puzzles, folder, booklet, write, on_puzzle, title)` —
for each puzzle in pack order every format `mobius.generators.export.bundle.export_all`
can make, written as `folder/NNNN<suffix>` with the given atomic writer;
then the booklet, titled with the pack's title, of all puzzles and, at the
back, all solutions; and the skipped exports grouped by (format, reason)
with the puzzles they concern, as the manifest records them. `on_puzzle(n)` is told after each puzzle's files, so
a progress display can show the phase.

Leaves out: the formats (`generators/export/`), the manifest and the rest of
the pack's life (`generators/pack.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mobius.generators.export.bundle import export_all
from mobius.generators.export.pdf import pack_pdf

Writer = Callable[[Path, bytes], None]


def write_exports(puzzles: Sequence[dict[str, Any]], folder: Path, booklet: Path, write: Writer,
                  on_puzzle: Callable[[int], None] | None = None, title: str = "") -> list[dict[str, Any]]:
    """Write every export of every puzzle and the booklet (`title`, by default one naming the
    puzzles); returns the skipped exports, grouped."""
    skipped: dict[tuple[str, str], list[str]] = {}
    for index, puzzle in enumerate(puzzles):
        exports = export_all(puzzle)
        for suffix, data in exports.files.items():
            write(folder / f"{index + 1:04d}{suffix}", data)
        for suffix, reason in exports.skipped:
            skipped.setdefault((suffix, reason), []).append(f"{index + 1:04d}")
        if on_puzzle:
            on_puzzle(index + 1)
    if puzzles:
        write(booklet, pack_pdf(puzzles, title or _booklet_title(puzzles)))
    return [{"format": suffix, "reason": reason, "count": len(ids), "puzzles": ids}
            for (suffix, reason), ids in sorted(skipped.items())]


def _booklet_title(puzzles: Sequence[dict[str, Any]]) -> str:
    kind = str(puzzles[0].get("kind", "puzzle"))
    return f"{len(puzzles)} {kind} puzzle{'s' if len(puzzles) != 1 else ''}"
