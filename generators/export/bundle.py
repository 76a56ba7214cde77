"""Every export of one puzzle, as the files a pack writes beside its JSON,
and the exports it could not write, each with the reason.

Covers: `export_all(puzzle) -> Exports` — the files by suffix and the
skipped formats as (suffix, reason) — over one table of formats per kind of
puzzle. A format that does not fit the puzzle (Across Lite `.puz` off the
plane, the paper template for surfaces paper cannot make) or that fails on
it (a clue character `.puz` cannot hold) is skipped with its reason, never
silently; a plane grid gets no template and no skip for it, since nothing
is glued. Reasons name no puzzle, so a pack can count them.

Leaves out: the formats themselves (one module each), the pack booklet
(`pdf.pack_pdf`) and writing files (`mobius.generators.pack_exports`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mobius.generators.export import ExportError, Puzzle, is_wrapped
from mobius.generators.export.exolve import to_exolve
from mobius.generators.export.html import html_page
from mobius.generators.export.ipuz import to_ipuz
from mobius.generators.export.pdf import crossword_pdf
from mobius.generators.export.puz import to_puz
from mobius.generators.export.qxw import to_qxw_deck
from mobius.generators.export.svg import crossword_svg, mobius_template_svg, slider_svg

Make = Callable[[Puzzle], bytes]


@dataclass
class Exports:
    """The files of one puzzle by suffix, and the formats skipped as (suffix, reason)."""

    files: dict[str, bytes] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def _text(make: Callable[[Puzzle], str]) -> Make:
    return lambda puzzle: make(puzzle).encode("utf-8")


# The player page sits beside the JSON, named as the pack index links it.
PLAYER: dict[str, Make] = {".html": _text(html_page)}
CROSSWORD_FORMATS: dict[str, Make] = {
    **PLAYER,
    ".ipuz": _text(to_ipuz),
    ".exolve.txt": _text(to_exolve),
    ".qxw-deck.txt": _text(to_qxw_deck),
    ".svg": _text(lambda p: crossword_svg(p, solution=False)),
    "-solution.svg": _text(lambda p: crossword_svg(p, solution=True)),
    ".pdf": crossword_pdf,
    ".puz": to_puz,
    "-template.svg": _text(mobius_template_svg),
}
SLIDER_FORMATS: dict[str, Make] = {**PLAYER, ".svg": _text(slider_svg)}
FORMATS = {"crossword": CROSSWORD_FORMATS, "slider": SLIDER_FORMATS}


def formats_for(puzzle: Puzzle) -> dict[str, Make]:
    """The formats to try for a puzzle: every one of its kind, less the template on the plane."""
    kind = puzzle.get("kind")
    if kind not in FORMATS:
        raise ValueError(f"expected a crossword or slider puzzle, got kind {kind!r}")
    formats = dict(FORMATS[kind])
    if kind == "crossword" and not is_wrapped(puzzle):
        del formats["-template.svg"]  # nothing is glued: there is nothing to make out of paper
    return formats


def export_all(puzzle: Puzzle) -> Exports:
    """Every format that can hold `puzzle`, and why each other one was skipped."""
    exports = Exports()
    for suffix, make in formats_for(puzzle).items():
        try:
            exports.files[suffix] = make(puzzle)
        except ExportError as exc:
            exports.skipped.append((suffix, str(exc)))
    return exports
