"""Every export is read back and checked: ipuz (the `ipuz` package and our
JSON schema), .puz (puzpy), Exolve text, Qxw decks (and Qxw itself when it is
installed), SVG/PDF pictures; and every export is byte-identical across runs.

Fixtures are puzzle JSON dicts built from real lights (`make_grid`,
`find_lights`, `surface.step`), filled with arbitrary letters: exporters only
copy words, they never check them."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import ipuz
import jsonschema
import puz
import pytest

from cpmodel.crossword.grid import make_grid
from cpmodel.crossword.lights import ACROSS, find_lights
from cpmodel.slider.board import preset
from cpmodel.surface import Cell, Direction, Glue, step
from dictionaries import wordlist
from generators.export import entry_cells, plane_reading
from generators.export.exolve import location, to_exolve
from generators.export.ipuz import CROSSWORD_KIND, WRAPPED_KIND, to_ipuz
from generators.export.puz import to_puz
from generators.export.qxw import UNIQUE_DIRECTIVE, cell_id, parse_qxw_output, to_qxw_deck
from generators.export.svg import crossword_pdf, crossword_svg, mobius_template_svg, slider_svg

SCHEMA = json.loads((Path(__file__).parents[2] / "generators" / "schema" / "ipuz-wrapped.json").read_text())
MOBIUS_ROWS = ["....#...", "........", "...#....", "#......."]  # generators/examples/mobius-8x4.txt
PLANE_ROWS = ["...#.", ".#...", ".....", "...#.", "#...."]


def build_crossword(rows: list[str], surface: str = "plane", *, bars_right: Iterable[Cell] = (),
                    bars_below: Iterable[Cell] = (), min_length: int = 2) -> dict[str, Any]:
    """A puzzle JSON dict as the pack writes it, from the real lights of `rows`."""
    bars_right, bars_below = sorted(bars_right), sorted(bars_below)
    grid = make_grid(rows, surface, bars_right=bars_right, bars_below=bars_below)
    w, h = grid.width, grid.height
    letters = {c: chr(ord("A") + (7 * c[0] + 3 * c[1]) % 26) for c in grid.white_cells()}

    def entered(cell: Cell, direction: Direction, axis: int) -> int | None:
        nxt = step(grid.surface, w, h, cell, direction)
        return None if nxt is None else nxt.cell[axis]

    entries = [{"number": light.number, "direction": light.direction, "cells": [list(c) for c in light.cells],
                "answer": "".join(letters[c] for c in light.cells), "clue": f"Clue {light.label}",
                "enumeration": f"({light.length})", "seam_crossings": light.seam_crossings,
                "cyclic": light.cyclic, "score": 50}
               for light in find_lights(grid, min_length).lights]
    return {"kind": "crossword", "id": "0001", "title": "Test grid", "surface": grid.surface.name,
            "width": w, "height": h,
            "rows": ["".join(letters.get((x, y), "#") for x in range(w)) for y in range(h)],
            "bars_right": [list(c) for c in bars_right], "bars_below": [list(c) for c in bars_below],
            "glue": {"right": [entered((w - 1, y), Direction.RIGHT, 1) for y in range(h)],
                     "bottom": [entered((x, h - 1), Direction.DOWN, 0) for x in range(w)],
                     "right_flip": grid.surface.left_right is Glue.FLIP,
                     "bottom_flip": grid.surface.top_bottom is Glue.FLIP},
            "entries": entries, "fill_score": 50.0, "solver": "reference", "stats": {}, "seed": 0}


def build_slider() -> dict[str, Any]:
    board = preset("ring")
    return {"kind": "slider", "id": "0002", "board": {"name": "ring", **board.to_json()},
            "start": [0, 2, 1, 3, 4, 5, 6, 7, 8], "goal": list(range(9)), "blanks": 1,
            "solution": [1, 2, 8, 0], "length": 4}


@pytest.fixture(scope="module")
def mobius() -> dict[str, Any]:
    return build_crossword(MOBIUS_ROWS, "mobius", bars_right=[(1, 1)], bars_below=[(2, 2)])


@pytest.fixture(scope="module")
def plane() -> dict[str, Any]:
    return build_crossword(PLANE_ROWS)


def by_direction(puzzle: dict[str, Any], direction: str) -> list[dict[str, Any]]:
    return [e for e in puzzle["entries"] if e["direction"] == direction]


# --- ipuz ---------------------------------------------------------------------------

def test_ipuz_plane_is_valid_for_the_ipuz_package_and_the_schema(plane: dict[str, Any]) -> None:
    text = to_ipuz(plane)
    data = ipuz.read(text)
    jsonschema.validate(data, SCHEMA)
    assert data["kind"] == [CROSSWORD_KIND]
    assert data["dimensions"] == {"width": 5, "height": 5}
    assert ["".join(row) for row in data["solution"]] == plane["rows"]
    assert data["puzzle"][0] == [1, 0, 2, "#", 3]  # clue numbers where lights start, 0 elsewhere
    assert data["puzzle"][1][:3] == [0, "#", 4]
    across = by_direction(plane, ACROSS)
    assert [(c["number"], c["answer"], c["enumeration"]) for c in data["clues"]["Across"]] == \
        [(e["number"], e["answer"], str(len(e["cells"]))) for e in across]
    assert all("cells" not in c for c in data["clues"]["Across"] + data["clues"]["Down"])


def test_ipuz_wrapped_clues_carry_their_cells_one_based(mobius: dict[str, Any]) -> None:
    data = json.loads(to_ipuz(mobius))
    jsonschema.validate(data, SCHEMA)
    assert data["kind"] == [CROSSWORD_KIND, WRAPPED_KIND]
    clues = data["clues"]["Across"] + data["clues"]["Down"]
    assert [c["cells"] for c in clues] == \
        [[[x + 1, y + 1] for x, y in e["cells"]] for d in ("across", "down") for e in by_direction(mobius, d)]
    assert any(c["cells"][-1][1] != c["cells"][0][1] for c in data["clues"]["Across"])  # a light crossing the seam
    assert data[WRAPPED_KIND]["right"] == [4, 3, 2, 1] and data[WRAPPED_KIND]["right_flip"] is True
    assert data["puzzle"][1][1] == {"cell": 0, "style": {"barred": "R"}}
    assert data["puzzle"][2][2] == {"cell": 0, "style": {"barred": "B"}}
    # The ipuz package (1.0) predates the clue key "cells"; everything else it validates.
    for clue in clues:
        del clue["cells"]
    ipuz.read(json.dumps(data))


# --- .puz -----------------------------------------------------------------------------

def test_puz_round_trips_through_puzpy(plane: dict[str, Any]) -> None:
    loaded = puz.load(to_puz(plane))
    assert (loaded.width, loaded.height, loaded.title) == (5, 5, "Test grid")
    assert loaded.solution == "".join(plane["rows"]).replace("#", ".")
    assert loaded.fill == "".join("." if ch == "#" else "-" for ch in "".join(plane["rows"]))
    numbering = loaded.clue_numbering()
    read = sorted((e["num"], e["dir"], e["cell"], e["len"], e["clue"]) for e in numbering.across + numbering.down)
    expected = sorted((e["number"], e["direction"], e["cells"][0][1] * 5 + e["cells"][0][0], len(e["cells"]),
                       f"{e['clue']} {e['enumeration']}") for e in plane["entries"])
    assert read == expected
    assert loaded.clues[:3] == ["Clue 1A (3)", "Clue 1D (4)", "Clue 2D (5)"]  # by number, across first


@pytest.mark.parametrize("make", [
    lambda: build_crossword(MOBIUS_ROWS, "mobius"),
    lambda: build_crossword(PLANE_ROWS, bars_right=[(1, 0)]),
    lambda: build_crossword(PLANE_ROWS, min_length=3),
], ids=["glued surface", "bars", "unclued short runs"])
def test_puz_refuses_what_it_cannot_express(make: Any) -> None:
    with pytest.raises(ValueError, match=r"\.puz"):
        to_puz(make())


# --- Exolve ----------------------------------------------------------------------------

def exolve_sections(text: str) -> dict[str, list[str]]:
    lines = text.splitlines()
    assert lines[0] == "exolve-begin" and lines[-1] == "exolve-end"
    sections: dict[str, list[str]] = {}
    current = None
    for line in lines[1:-1]:
        name, colon, value = line.strip().partition(":")
        if line.startswith("  exolve-") and colon:
            current = name
            sections[current] = [value.strip()] if value.strip() else []
        else:
            sections[current].append(line.strip())
    return sections


def test_exolve_plane_uses_plain_numbered_clues(plane: dict[str, Any]) -> None:
    sections = exolve_sections(to_exolve(plane))
    assert sections["exolve-width"] == ["5"] and sections["exolve-height"] == ["5"]
    assert sections["exolve-grid"] == [" ".join("." if ch == "#" else ch for ch in row) for row in plane["rows"]]
    assert sections["exolve-across"] == [f"{e['number']} {e['clue']} {e['enumeration']}"
                                         for e in by_direction(plane, ACROSS)]
    assert "exolve-nodir" not in sections


def parse_location(text: str, height: int) -> Cell:
    column, row = text.removeprefix("#c").split("r")
    return int(column) - 1, height - int(row)


def test_exolve_wrapped_lights_are_nodir_clues_with_their_cells(mobius: dict[str, Any]) -> None:
    text = to_exolve(mobius)
    sections = exolve_sections(text)
    assert list(sections).index("exolve-nodir") < list(sections).index("exolve-across")
    plane_lights = {(d, cells) for _, d, cells in plane_reading(mobius, bars=True)}
    seam_entries = [e for e in mobius["entries"] if (e["direction"], entry_cells(e)) not in plane_lights]
    assert seam_entries and any(e["seam_crossings"] for e in seam_entries)
    nodir = sections["exolve-nodir"][1:]  # after the heading
    assert len(nodir) == len(seam_entries)
    for line, entry in zip(nodir, seam_entries):
        where, _, rest = line.partition(" [")
        assert [parse_location(t, 4) for t in where.split()] == list(entry_cells(entry))
        assert rest.startswith(f"{entry['number']}{entry['direction'][0].upper()}] ")
    # Exolve's own numbering is off ("~" on every start cell it infers); our numbers are labels.
    grid = [row.split() for row in sections["exolve-grid"]]
    assert {(x, y) for y, row in enumerate(grid) for x, sq in enumerate(row) if "~" in sq} == \
        {cells[0] for _, _, cells in plane_reading(mobius, bars=True)}
    assert grid[1][1] == "K|" and grid[2][2] == "U_"
    first_down = by_direction(mobius, "down")[0]
    assert sections["exolve-down"][0] == \
        f"#{location(mobius, entry_cells(first_down)[0])} [{first_down['number']}] Clue 1D (3)"


# --- Qxw ---------------------------------------------------------------------------------

def test_qxw_deck_shares_ids_exactly_where_lights_cross(mobius: dict[str, Any]) -> None:
    lines = to_qxw_deck(mobius).splitlines()
    assert lines[0] == UNIQUE_DIRECTIVE
    lights = [line.split() for line in lines[1:]]
    assert lights == [[cell_id(c) for c in entry_cells(e)] for e in mobius["entries"]]
    uses = Counter(i for light in lights for i in light)
    crossed = Counter(c for e in mobius["entries"] for c in entry_cells(e))
    assert {i for i, n in uses.items() if n > 1} == {cell_id(c) for c, n in crossed.items() if n > 1}
    assert len(uses) == len(crossed)  # one id per cell


def test_parse_qxw_output_reads_words_in_deck_order() -> None:
    assert parse_qxw_output("W1 OAR\n# OAR\nW0 TOA\n# TOA\n", 2) == ["TOA", "OAR"]
    with pytest.raises(ValueError, match="W1"):
        parse_qxw_output("W0 TOA\n", 2)
    with pytest.raises(ValueError, match="twice"):
        parse_qxw_output("W0 TOA\nW0 OAR\nW1 ISE\n", 2)


QXW = shutil.which("qxw") or shutil.which("/usr/games/qxw")


@pytest.mark.skipif(QXW is None, reason="Qxw is not installed (Debian package qxw)")
def test_qxw_fills_the_mobius_deck_consistently(mobius: dict[str, Any], tmp_path: Path) -> None:
    deck, words_file = tmp_path / "mobius.qxd", tmp_path / "en.txt"
    deck.write_text(to_qxw_deck(mobius))
    words_file.write_text("\n".join(wordlist.load("en").words) + "\n")
    run = subprocess.run([QXW, "-b", "-d", str(words_file), str(deck)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    words = parse_qxw_output(run.stdout, len(mobius["entries"]))
    letters: dict[Cell, str] = {}
    for entry, word in zip(mobius["entries"], words):
        assert len(word) == len(entry["cells"])
        for cell, letter in zip(entry_cells(entry), word):
            assert letters.setdefault(cell, letter) == letter  # crossing lights agree on the shared cell
    assert len(set(words)) == len(words)


# --- SVG and PDF ---------------------------------------------------------------------------

def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.text.strip() for el in root.iter("{http://www.w3.org/2000/svg}text") if el.text and el.text.strip()]


def test_crossword_svg_has_numbers_seam_labels_and_letters(mobius: dict[str, Any]) -> None:
    blank = svg_texts(crossword_svg(mobius, solution=False))
    numbers = {str(e["number"]) for e in mobius["entries"]}
    assert numbers <= set(blank)
    # Möbius: leaving row r (1-based) on the right re-enters row 5 - r on the left.
    assert {f"→ {5 - r}" for r in range(1, 5)} | {f"{r} →" for r in range(1, 5)} <= set(blank)
    assert not any("↓" in t for t in blank)
    solved = Counter(svg_texts(crossword_svg(mobius, solution=True)))
    letters = Counter(ch for row in mobius["rows"] for ch in row if ch != "#")
    assert all(solved[ch] >= n for ch, n in letters.items())


def test_crossword_svg_labels_glued_columns_on_the_projective_plane() -> None:
    texts = set(svg_texts(crossword_svg(build_crossword(["..#.", "....", "#...", "...."], "projective"),
                                        solution=False)))
    # Leaving column c at the bottom re-enters column 5 - c at the top.
    assert {f"↓{5 - c}" for c in range(1, 5)} | {f"{c}↓" for c in range(1, 5)} <= texts


def test_plane_svg_has_no_seam_labels(plane: dict[str, Any]) -> None:
    assert not any("→" in t or "↓" in t for t in svg_texts(crossword_svg(plane, solution=False)))


def test_mobius_template_has_tab_and_half_twist_instructions(mobius: dict[str, Any]) -> None:
    texts = svg_texts(mobius_template_svg(mobius))
    assert texts.count("A") == 2  # the tab and the edge it is glued to
    assert "half twist" in " ".join(texts)
    with pytest.raises(ValueError, match="template"):
        mobius_template_svg(build_crossword(["....", "...."], "torus"))


def test_slider_svg_shows_start_and_goal_tiles() -> None:
    texts = Counter(svg_texts(slider_svg(build_slider())))
    assert texts["Start"] == 1 and texts["Goal — 4 moves"] == 1
    assert all(texts[str(tile)] == 2 for tile in range(1, 9))


def test_pdf_is_a_pdf(mobius: dict[str, Any]) -> None:
    assert crossword_pdf(mobius, solution=True).startswith(b"%PDF")


# --- every format ------------------------------------------------------------------------

EXPORTS = {
    "ipuz": lambda p: to_ipuz(p),
    "exolve": lambda p: to_exolve(p),
    "qxw": lambda p: to_qxw_deck(p),
    "svg": lambda p: crossword_svg(p, solution=True),
    "pdf": lambda p: crossword_pdf(p, solution=False),
    "template": lambda p: mobius_template_svg(p),
}


@pytest.mark.parametrize("name", list(EXPORTS))
def test_exports_are_deterministic(name: str, mobius: dict[str, Any]) -> None:
    export = EXPORTS[name]
    assert export(mobius) == export(copy.deepcopy(mobius))


def test_puz_and_slider_exports_are_deterministic(plane: dict[str, Any]) -> None:
    assert to_puz(plane) == to_puz(copy.deepcopy(plane))
    assert slider_svg(build_slider()) == slider_svg(build_slider())


def test_exporters_check_the_puzzle_kind(plane: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="slider"):
        slider_svg(plane)
    with pytest.raises(ValueError, match="crossword"):
        to_ipuz(build_slider())
