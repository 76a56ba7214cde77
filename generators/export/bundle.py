"""Every export of one puzzle, as the files a pack writes beside its JSON.

Covers: choosing which formats fit a puzzle (Across Lite only for plane
grids it can express, the paper template only for strips paper can make) and
naming them by suffix. Leaves out: the formats themselves (one module each)
and writing files (`generators.pack`).
"""

from __future__ import annotations

from collections.abc import Callable

from generators.export import Puzzle, is_wrapped
from generators.export.exolve import to_exolve
from generators.export.html import html_page
from generators.export.ipuz import to_ipuz
from generators.export.puz import to_puz
from generators.export.qxw import to_qxw_deck
from generators.export.svg import (
    crossword_pdf,
    crossword_svg,
    mobius_template_svg,
    slider_svg,
)


def _text(make: Callable[[Puzzle], str]) -> Callable[[Puzzle], bytes]:
    return lambda puzzle: make(puzzle).encode("utf-8")


CROSSWORD_EXPORTS: dict[str, Callable[[Puzzle], bytes]] = {
    ".ipuz": _text(to_ipuz),
    ".exolve.txt": _text(to_exolve),
    ".qxw-deck.txt": _text(to_qxw_deck),
    ".svg": _text(lambda p: crossword_svg(p, solution=False)),
    "-solution.svg": _text(lambda p: crossword_svg(p, solution=True)),
    ".pdf": lambda p: crossword_pdf(p, solution=False),
}


def export_all(puzzle: Puzzle) -> dict[str, bytes]:
    """File suffix -> contents for every format that can hold `puzzle`."""
    # The player page sits beside the JSON, named as the pack index links it.
    player = {".html": html_page(puzzle).encode("utf-8")}
    if puzzle["kind"] == "slider":
        return {**player, ".svg": slider_svg(puzzle).encode("utf-8")}
    files = {**player, **{suffix: make(puzzle) for suffix, make in CROSSWORD_EXPORTS.items()}}
    if is_wrapped(puzzle):
        # Paper can make a strip glued left to right (cylinder, Möbius) only.
        if puzzle["glue"]["bottom"][0] is None and puzzle["glue"]["right"][0] is not None:
            files["-template.svg"] = mobius_template_svg(puzzle).encode("utf-8")
    else:
        try:
            files[".puz"] = to_puz(puzzle)
        except ValueError:
            pass  # bars or unclued short runs: .puz would number other lights; ipuz holds it
    return files
