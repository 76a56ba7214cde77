"""Every export is read back and checked: ipuz (the `ipuz` package and our
JSON schema), .puz (puzpy), Exolve text, Qxw decks (and Qxw itself when it is
installed), SVG pictures (as XML), PDFs (through poppler's pdftotext and
pdfinfo); every skipped export is reported with its reason; and every
export is byte-identical across runs.

Fixtures are puzzle JSON dicts built from real lights (`make_grid`,
`find_lights`) and the real glue (`mobius.generators.puzzles.glue_of`), filled with
arbitrary letters: exporters only copy words, they never check them."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import ipuz
import jsonschema
import puz
import pytest

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.qxw import UNIQUE_DIRECTIVE, cell_id, parse_qxw_output
from mobius.cpmodel.crossword.lights import ACROSS, find_lights
from mobius.cpmodel.slider.board import preset
from mobius.cpmodel.surface import SURFACES, Cell
from mobius.dictionaries import wordlist
from mobius.generators.export import ExportError, entry_cells, plane_reading
from mobius.generators.export.bundle import export_all
from mobius.generators.export.exolve import location, to_exolve
from mobius.generators.export.ipuz import CROSSWORD_KIND, WRAPPED_KIND, to_ipuz
from mobius.generators.export.layout import Block, fill_columns
from mobius.generators.export.pdf import crossword_pdf, pack_pdf, tiles_moved
from mobius.generators.export.puz import latin1_text, to_puz
from mobius.generators.export.qxw import to_qxw_deck
from mobius.generators.export.svg import crossword_svg, mobius_template_svg, slider_svg
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import BOOKLET, MANIFEST, PUZZLE_DIR, Progress, build_pack
from mobius.generators.puzzles import glue_of, seam_steps
from mobius.generators.slider.pack import SliderPackSpec

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
    entries = [{"number": light.number, "direction": light.direction, "cells": [list(c) for c in light.cells],
                "answer": "".join(letters[c] for c in light.cells), "clue": f"Clue {light.label}",
                "enumeration": f"({light.length})", "seam_crossings": light.seam_crossings,
                "seam_steps": seam_steps(grid, light), "cyclic": light.cyclic, "score": 50}
               for light in find_lights(grid, min_length).lights]
    return {"kind": "crossword", "id": "0001", "title": "Test grid", "surface": grid.surface.name,
            "width": w, "height": h,
            "rows": ["".join(letters.get((x, y), "#") for x in range(w)) for y in range(h)],
            "bars_right": [list(c) for c in bars_right], "bars_below": [list(c) for c in bars_below],
            "glue": glue_of(grid), "entries": entries, "fill_score": 50.0, "solver": "reference", "stats": {},
            "seed": 0}


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


# --- the glue data of the puzzle JSON ------------------------------------------------------

def documented_neighbour(surface: str, w: int, h: int, cell: Cell, side: str) -> Cell | None:
    """Where a step off the rectangle lands, from the README's table (Qxw's conventions), not from cpmodel."""
    x, y = cell
    rows, columns = {"plane": ("", ""), "cylinder": ("plain", ""), "mobius": ("flip", ""),
                     "torus": ("plain", "plain"), "klein": ("flip", "plain"), "projective": ("flip", "flip"),
                     "cylinder-v": ("", "plain"), "mobius-v": ("", "flip"), "klein-v": ("plain", "flip")}[surface]
    if side in ("right", "left"):
        if not rows:
            return None
        return (0 if side == "right" else w - 1, h - 1 - y if rows == "flip" else y)
    if not columns:
        return None
    return (w - 1 - x if columns == "flip" else x, 0 if side == "down" else h - 1)


@pytest.mark.parametrize("surface", list(SURFACES))
def test_glue_lists_the_neighbour_of_every_edge_cell(surface: str) -> None:
    puzzle = build_crossword(GLUED_ROWS, surface)
    w, h = puzzle["width"], puzzle["height"]
    neighbours = puzzle["glue"]["neighbours"]
    edges = {"right": [(w - 1, y) for y in range(h)], "left": [(0, y) for y in range(h)],
             "down": [(x, h - 1) for x in range(w)], "up": [(x, 0) for x in range(w)]}
    for side, cells in edges.items():
        assert [None if c is None else tuple(c) for c in neighbours[side]] == \
            [documented_neighbour(surface, w, h, cell, side) for cell in cells], side
    assert puzzle["glue"]["band"] == (surface in ("cylinder", "mobius"))


@pytest.mark.parametrize("surface", ["mobius", "torus", "projective", "klein-v"])
def test_seam_steps_are_the_steps_that_jump_in_the_unfolded_picture(surface: str) -> None:
    puzzle = build_crossword(GLUED_ROWS, surface)
    for entry in puzzle["entries"]:
        dx, dy = (1, 0) if entry["direction"] == ACROSS else (0, 1)
        cells = entry["cells"]
        steps = range(len(cells) if entry["cyclic"] else len(cells) - 1)
        jumps = [j for j in steps if cells[(j + 1) % len(cells)] != [cells[j][0] + dx, cells[j][1] + dy]]
        assert entry["seam_steps"] == jumps
        assert len(jumps) == entry["seam_crossings"]


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


def test_ipuz_wrapped_lights_carry_their_cells_in_the_extension(mobius: dict[str, Any]) -> None:
    data = ipuz.read(to_ipuz(mobius))  # the reader accepts it as it is
    jsonschema.validate(data, SCHEMA)
    assert data["kind"] == [CROSSWORD_KIND, WRAPPED_KIND]
    extension = data[WRAPPED_KIND]
    assert [light["cells"] for d in ("Across", "Down") for light in extension["lights"][d]] == \
        [[[x + 1, y + 1] for x, y in e["cells"]] for d in ("across", "down") for e in by_direction(mobius, d)]
    assert [light["number"] for light in extension["lights"]["Across"]] == \
        [c["number"] for c in data["clues"]["Across"]]
    assert any(light["cells"][-1][1] != light["cells"][0][1] for light in extension["lights"]["Across"])
    assert extension["right"] == [4, 3, 2, 1] and extension["right_flip"] is True
    assert all(set(c) == {"number", "clue", "enumeration", "answer"} for c in data["clues"]["Across"] +
               data["clues"]["Down"])  # only standard clue keys
    assert data["puzzle"][1][1] == {"cell": 0, "style": {"barred": "R"}}
    assert data["puzzle"][2][2] == {"cell": 0, "style": {"barred": "B"}}


GLUED_ROWS = ["..#..", ".....", "#...#", ".....", "..#.."]


@pytest.mark.parametrize("surface", [name for name, s in SURFACES.items() if s.has_seam])
def test_ipuz_of_every_glued_surface_passes_the_reader_and_the_schema(surface: str) -> None:
    puzzle = build_crossword(GLUED_ROWS, surface)
    data = ipuz.read(to_ipuz(puzzle))
    jsonschema.validate(data, SCHEMA)
    lights = data[WRAPPED_KIND]["lights"]
    assert sum(len(v) for v in lights.values()) == len(puzzle["entries"])
    assert data[WRAPPED_KIND]["surface"] == surface


def test_the_schema_refuses_cells_inside_clues(mobius: dict[str, Any]) -> None:
    data = json.loads(to_ipuz(mobius))
    data["clues"]["Across"][0]["cells"] = [[1, 1]]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


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
    with pytest.raises(ExportError, match=r"\.puz"):
        to_puz(make())


def test_puz_transliterates_typographic_characters(plane: dict[str, Any]) -> None:
    puzzle = copy.deepcopy(plane)
    puzzle["title"] = "Café “Möbius” — 1…"
    puzzle["entries"][0]["clue"] = "‘Quoted’ – “twice” — Dvořák’s ﬁnale…"
    loaded = puz.load(to_puz(puzzle))
    assert loaded.title == 'Café "Möbius" -- 1...'
    assert loaded.clues[0] == "'Quoted' - \"twice\" -- Dvorák's finale... (3)"


def test_puz_reports_what_latin1_cannot_hold(plane: dict[str, Any]) -> None:
    puzzle = copy.deepcopy(plane)
    puzzle["entries"][0]["clue"] = "Greek letter Ω"
    with pytest.raises(ExportError, match=r"U\+03A9.*clue 1 across"):
        to_puz(puzzle)
    exports = export_all(puzzle)
    assert ".puz" not in exports.files
    assert [(fmt, "U+03A9" in reason) for fmt, reason in exports.skipped] == [(".puz", True)]
    assert latin1_text("naïve – ok") == ("naïve - ok", [])
    assert latin1_text("Ω and 日本") == (" and ", ["Ω", "日", "本"])


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


# --- PDF ---------------------------------------------------------------------------------

PDFTOTEXT = shutil.which("pdftotext")
needs_poppler = pytest.mark.skipif(PDFTOTEXT is None or shutil.which("pdfinfo") is None,
                                   reason="PDF tests read PDFs back with poppler (Debian poppler-utils)")


def pdf_text(data: bytes, tmp_path: Path, *, page: int | None = None) -> str:
    """The text of a PDF in drawing order (-raw), whitespace collapsed."""
    path = tmp_path / "read.pdf"
    path.write_bytes(data)
    pages = ["-f", str(page), "-l", str(page)] if page else []
    run = subprocess.run([PDFTOTEXT, "-raw", *pages, str(path), "-"], capture_output=True, text=True, check=True)
    return " ".join(run.stdout.split())


def pdf_pages(data: bytes, tmp_path: Path) -> int:
    path = tmp_path / "count.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def word_boxes(data: bytes, tmp_path: Path) -> list[tuple[float, float, float, float, float, float]]:
    """Every word's box and its page's size, from pdftotext -bbox: (x0, y0, x1, y1, width, height)."""
    path = tmp_path / "boxes.pdf"
    path.write_bytes(data)
    html = subprocess.run([PDFTOTEXT, "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    root = ET.fromstring(html.replace('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"', "<!--")
                         .replace('"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">', "-->", 1))
    boxes = []
    for page in root.iter("{http://www.w3.org/1999/xhtml}page"):
        width, height = float(page.get("width")), float(page.get("height"))
        for word in page.iter("{http://www.w3.org/1999/xhtml}word"):
            boxes.append((*(float(word.get(k)) for k in ("xMin", "yMin", "xMax", "yMax")), width, height))
    return boxes


def clue_line(entry: dict[str, Any]) -> str:
    return f"{entry['number']} {entry['clue']} {entry['enumeration']}".replace("  ", " ") if entry["clue"] \
        else f"{entry['number']} {entry['enumeration']}"


@needs_poppler
def test_crossword_pdf_prints_grid_clues_note_and_solution(mobius: dict[str, Any], tmp_path: Path) -> None:
    data = crossword_pdf(mobius)
    assert pdf_pages(data, tmp_path) == 3  # the puzzle, the strip to cut out and glue, the solution
    page = pdf_text(data, tmp_path, page=1)
    for heading in ("ACROSS", "DOWN"):
        assert heading in page
    for entry in mobius["entries"]:
        assert clue_line(entry) in page  # number, clue and enumeration, in order
    assert "Möbius strip: the right edge is glued to the left with a half twist" in page
    assert all(f"{r} →" in page and f"→ {5 - r}" in page for r in range(1, 5))  # the seam markers
    assert pdf_text(data, tmp_path, page=2).startswith(f"Cut out and glue: {mobius['title']}")
    solution = pdf_text(data, tmp_path, page=3)
    assert "Solution" in solution and all(ch in solution for row in mobius["rows"] for ch in row if ch != "#")


@needs_poppler
def test_pdf_without_clues_prints_numbers_and_enumerations(plane: dict[str, Any], tmp_path: Path) -> None:
    unclued = copy.deepcopy(plane)
    for entry in unclued["entries"]:
        entry["clue"] = ""
    page = pdf_text(crossword_pdf(unclued), tmp_path, page=1)
    assert all(clue_line(e) in page for e in unclued["entries"])
    assert "glued" not in page  # no seam note on the plane


LONG_CLUE = ("A deliberately long clue that goes on and on, with words such as incomprehensibilities, "
             "so that it must wrap over several lines in every column width")


@needs_poppler
@pytest.mark.parametrize("size", [5, 15, 25])
def test_pdf_fits_every_grid_size_and_long_clue_lists_without_clipping(size: int, tmp_path: Path) -> None:
    puzzle = build_crossword(striped_rows(size, size), "mobius")
    for i, entry in enumerate(puzzle["entries"]):
        entry["clue"] = f"{LONG_CLUE} number {i}" if i % 3 == 0 else f"Short clue {i}"
    data = crossword_pdf(puzzle)
    text = pdf_text(data, tmp_path)
    assert all(clue_line(e) in text for e in puzzle["entries"])  # every clue, whole, wrapped or not
    for x0, y0, x1, y1, width, height in word_boxes(data, tmp_path):
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, (x0, y0, x1, y1)


@needs_poppler
def test_unicode_clues_get_an_embedded_font(mobius: dict[str, Any], tmp_path: Path) -> None:
    puzzle = copy.deepcopy(mobius)
    puzzle["entries"][0]["clue"] = "Greek letter Ω, or Japanese 日"
    text = pdf_text(crossword_pdf(puzzle), tmp_path, page=1)
    assert "Greek letter Ω" in text


def titled(puzzle: dict[str, Any], name: str) -> dict[str, Any]:
    return {**puzzle, "title": name}


def striped_rows(width: int, height: int) -> list[str]:
    """A grid with no fill needed: a block every fourth cell of every other row."""
    return ["".join("#" if (x % 4 == 3 and y % 2 == 1) else "." for x in range(width)) for y in range(height)]


def page_titles(data: bytes, tmp_path: Path, starts: tuple[str, ...]) -> list[list[str]]:
    """The titles on each page: the lines that start with one of `starts`."""
    return [[line for line in pdf_lines(data, tmp_path, page) if line.startswith(starts)
             and not line.startswith("Cut out the strip")]
            for page in range(1, pdf_pages(data, tmp_path) + 1)]


def pdf_lines(data: bytes, tmp_path: Path, page: int) -> list[str]:
    path = tmp_path / "lines.pdf"
    path.write_bytes(data)
    run = subprocess.run([PDFTOTEXT, "-raw", "-f", str(page), "-l", str(page), str(path), "-"],
                         capture_output=True, text=True, check=True)
    return run.stdout.splitlines()


@needs_poppler
def test_pack_booklet_holds_every_puzzle_then_the_strips_then_every_solution(mobius: dict[str, Any],
                                                                            plane: dict[str, Any],
                                                                            tmp_path: Path) -> None:
    """Small grids share their pages two by two; a 15×15 puzzle, or its strip, has a page of its own (its
    cells would be under 7 mm on half a page), but its solution shares one; each Möbius strip or cylinder
    has its strip to cut out and glue, after the puzzles; pages are numbered."""
    large = build_crossword(striped_rows(15, 15), "cylinder")
    puzzles = [titled(mobius, "First"), titled(plane, "Second"), titled(large, "Large"),
               titled(build_crossword(GLUED_ROWS, "torus"), "Fourth")]
    data = pack_pdf(puzzles, "Test pack")
    starts = ("First", "Second", "Large", "Fourth", "Solution:", "Cut out and glue:")
    assert page_titles(data, tmp_path, starts) == [
        ["First", "Second"], ["Large"], ["Fourth"], ["Cut out and glue: First"], ["Cut out and glue: Large"],
        ["Solution: First", "Solution: Second"], ["Solution: Large", "Solution: Fourth"]]
    for number in range(1, 8):
        assert pdf_text(data, tmp_path, page=number).endswith(f" {number}")
    for page, puzzle in ((1, puzzles[0]), (1, puzzles[1]), (2, puzzles[2]), (3, puzzles[3])):
        text = pdf_text(data, tmp_path, page=page)
        assert all(clue_line(e) in text for e in puzzle["entries"])
    assert "half twist" in pdf_text(data, tmp_path, page=4) and "without twisting" in pdf_text(data, tmp_path, page=5)


def page_words(data: bytes, tmp_path: Path, page: int) -> list[tuple[str, float, float]]:
    """(text, top, bottom) of every word on a page, from pdftotext -bbox (y grows downwards)."""
    path = tmp_path / "words.pdf"
    path.write_bytes(data)
    run = subprocess.run([PDFTOTEXT, "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
                         capture_output=True, text=True, check=True)
    return [(word, float(top), float(bottom)) for top, bottom, word in
            re.findall(r'yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">([^<]*)</word>', run.stdout)]


@needs_poppler
def test_a_shared_page_keeps_its_two_puzzles_apart(mobius: dict[str, Any], plane: dict[str, Any],
                                                   tmp_path: Path) -> None:
    data = pack_pdf([titled(mobius, "Upper"), titled(plane, "Lower")], "Test pack")
    words = page_words(data, tmp_path, 1)
    lower = next(top for word, top, _ in words if word == "Lower")
    upper_half = [bottom for word, top, bottom in words if top < lower]
    assert next(top for word, top, _ in words if word == "Upper") < lower
    assert max(upper_half) < lower - 20  # a clear gap between the upper puzzle's last clue and the lower title
    last_upper_clue = clue_line(by_direction(mobius, "down")[-1])
    assert last_upper_clue in pdf_text(data, tmp_path, page=1).split("Lower")[0]


@needs_poppler
def test_clues_across_the_seam_carry_the_mark_the_note_explains(mobius: dict[str, Any], plane: dict[str, Any],
                                                                tmp_path: Path) -> None:
    crossing = [e for e in mobius["entries"] if e["seam_crossings"]]
    assert crossing and len(crossing) < len(mobius["entries"])
    text = pdf_text(pack_pdf([mobius], "Test pack"), tmp_path, page=1)
    assert "↔ marks a clue whose light crosses the seam." in text
    for entry in mobius["entries"]:
        marked = f"{clue_line(entry)} ↔" in text
        assert marked == bool(entry["seam_crossings"]), entry["number"]
    assert "↔" not in pdf_text(pack_pdf([plane], "Test pack"), tmp_path, page=1)


def test_every_column_that_starts_inside_a_list_repeats_its_heading() -> None:
    across = [Block("heading", "Across", (), 20.0, keep_with_next=True)] + \
        [Block("clue", str(n), ("clue",), 10.0) for n in range(1, 11)]
    down = [Block("heading", "Down", (), 20.0, keep_with_next=True)] + \
        [Block("clue", str(n), ("clue",), 10.0) for n in range(11, 31)]
    columns, rest = fill_columns(across + down, 3, 80.0)
    assert len(columns) == 3 and rest
    for column in columns:
        assert column[0].kind == "heading"  # each column says which list it holds
    # Across and five clues fill the first column; the second goes on with Across; Down starts the third.
    assert [(c[0].label, c[0].continued) for c in columns] == [("Across", False), ("Across", True), ("Down", False)]
    labels = [b.label for column in columns for b in column if b.kind == "clue"]
    assert labels == [str(n) for n in range(1, len(labels) + 1)]  # every clue once, in order
    assert rest[0].kind == "heading" and rest[0].continued and rest[0].label == "Down"  # the next page too
    assert all(sum(b.height for b in column) <= 80.0 for column in columns)


@needs_poppler
def test_a_clue_list_going_on_over_a_page_repeats_its_heading(tmp_path: Path) -> None:
    puzzle = build_crossword(striped_rows(25, 25), "mobius")
    for i, entry in enumerate(puzzle["entries"]):
        entry["clue"] = f"{LONG_CLUE} number {i}"
    data = crossword_pdf(puzzle)
    assert pdf_pages(data, tmp_path) >= 3  # the clues go on over a page of their own
    second = pdf_text(data, tmp_path, page=2)
    first_heading = re.search(r"(ACROSS|DOWN)( \(continued\))?", second)
    assert first_heading and first_heading.group(2), second[:200]
    assert second.index(first_heading.group(0)) < second.index(clue_line(next(
        e for e in puzzle["entries"] if clue_line(e) in second)))


@needs_poppler
def test_slider_booklet_shows_the_boards_and_the_tiles_to_slide(tmp_path: Path) -> None:
    # A real four-move puzzle: walk the blank away from the goal; the solution walks it back.
    slider = build_slider()
    adjacent = {v: sorted({w for e in slider["board"]["edges"] if v in e for w in e} - {v}) for v in range(9)}
    walk = [0]
    while len(walk) < 5:
        walk.append(next(w for w in adjacent[walk[-1]] if w not in walk))
    state = list(slider["goal"])
    for here, there in zip(walk, walk[1:]):
        state[here], state[there] = state[there], 0
    slider.update(start=list(state), solution=walk[-2::-1], length=4)
    expected = [slider["start"][v] for v in walk[-2::-1]]  # each slid tile sat next to the blank's path
    assert tiles_moved(slider) == expected
    data = pack_pdf([slider], "Sliders")
    assert pdf_pages(data, tmp_path) == 2
    assert "Start" in pdf_text(data, tmp_path, page=1) and "Goal — 4 moves" in pdf_text(data, tmp_path, page=1)
    assert f"(4 moves): {', '.join(map(str, expected))}." in pdf_text(data, tmp_path, page=2)
    two = pack_pdf([titled(slider, "Upper"), titled(slider, "Lower")], "Sliders")  # boards share their pages
    assert page_titles(two, tmp_path, ("Upper", "Lower", "Solution:")) == [["Upper", "Lower"],
                                                                         ["Solution: Upper", "Solution: Lower"]]


# --- skipped exports ------------------------------------------------------------------------

def test_export_all_reports_every_skipped_format(mobius: dict[str, Any], plane: dict[str, Any]) -> None:
    on_strip = export_all(mobius)
    assert {".html", ".ipuz", ".exolve.txt", ".qxw-deck.txt", ".svg", "-solution.svg", ".pdf",
            "-template.svg"} == set(on_strip.files)
    assert [fmt for fmt, _ in on_strip.skipped] == [".puz"] and "glued edges" in on_strip.skipped[0][1]
    torus = export_all(build_crossword(GLUED_ROWS, "torus"))
    assert sorted(fmt for fmt, _ in torus.skipped) == ["-template.svg", ".puz"]
    assert all("0001" not in reason for _, reason in torus.skipped)  # reasons name no puzzle: a pack counts them
    flat = export_all(plane)
    assert ".puz" in flat.files and flat.skipped == [] and "-template.svg" not in flat.files
    assert set(export_all(build_slider()).files) == {".html", ".svg"}


# --- the export phase of a pack ---------------------------------------------------------------

@needs_poppler
@pytest.mark.parametrize("spec", [CrosswordPackSpec(count=3, width=7, height=5, surface="mobius", seed=2),
                                  SliderPackSpec(count=2, board="ring", depth_min=4, depth_max=5)],
                         ids=["crossword", "slider"])
def test_a_pack_writes_its_exports_as_a_phase_with_the_booklet_and_the_skips(spec: Any, tmp_path: Path) -> None:
    seen: list[tuple[str, int, int]] = []

    def on_progress(p: Progress) -> None:
        seen.append((p.phase, p.done, p.exported))

    out = tmp_path / "pack"
    puzzles = build_pack(spec, out, workers=1, on_progress=on_progress)
    phases = [phase for phase, _, _ in seen]
    assert phases.index("exports") > 0 and set(phases[phases.index("exports"):]) == {"exports"}
    assert [exported for phase, _, exported in seen if phase == "exports"][:spec.count] == \
        list(range(1, spec.count + 1))
    booklet = (out / BOOKLET).read_bytes()
    text = pdf_text(booklet, tmp_path)  # every puzzle, then every solution
    solutions = text.index("Solution:")
    assert text.count("Solution:") == spec.count
    assert all(0 <= text.index(f"{p['title']} ") < solutions for p in puzzles.values())
    manifest = json.loads((out / MANIFEST).read_text())
    files = {p.name for p in (out / PUZZLE_DIR).iterdir()}
    if spec.kind == "crossword":
        assert manifest["skipped_exports"] == [{"format": ".puz", "reason": manifest["skipped_exports"][0]["reason"],
                                                "count": 3, "puzzles": ["0001", "0002", "0003"]}]
        assert {"0001.pdf", "0001.ipuz", "0001-template.svg"} <= files and "0001.puz" not in files
        text = pdf_text(booklet, tmp_path, page=1)
        assert all(clue_line(e) in text for e in puzzles[0]["entries"])
    else:
        assert manifest["skipped_exports"] == []
        assert {"0001.html", "0001.svg"} <= files


# --- every format ------------------------------------------------------------------------

EXPORTS = {
    "ipuz": lambda p: to_ipuz(p),
    "exolve": lambda p: to_exolve(p),
    "qxw": lambda p: to_qxw_deck(p),
    "svg": lambda p: crossword_svg(p, solution=True),
    "pdf": lambda p: crossword_pdf(p),
    "template": lambda p: mobius_template_svg(p),
}


def export_digests(mobius: dict[str, Any], plane: dict[str, Any]) -> dict[str, str]:
    """The SHA-256 of every export of the two crosswords and the slider, and of two booklets."""
    slider = build_slider()
    made = {**{name: export(mobius) for name, export in EXPORTS.items()},
            "puz": to_puz(plane), "slider-svg": slider_svg(slider),
            "crossword-booklet": pack_pdf([mobius, plane], "P"), "slider-booklet": pack_pdf([slider], "S")}
    return {name: hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()
            for name, data in made.items()}


def test_exports_are_the_same_bytes_in_any_process(mobius: dict[str, Any], plane: dict[str, Any],
                                                   tmp_path: Path) -> None:
    """Every export, made again from the puzzle JSON in processes with different hash seeds (set and
    dict orders differ between them), is byte for byte the export made here; exporting changes
    nothing in the puzzle it reads."""
    source = tmp_path / "puzzles.json"
    source.write_text(json.dumps([mobius, plane]), encoding="utf-8")
    mobius, plane = json.loads(source.read_text(encoding="utf-8"))
    before = copy.deepcopy([mobius, plane])
    here = export_digests(mobius, plane)
    assert [mobius, plane] == before
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); from test_export import export_digests; "
              "print(json.dumps(export_digests(*json.load(open(sys.argv[2], encoding='utf-8')))))")
    for seed in ("1", "2"):
        child = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent), str(source)],
                               env={**os.environ, "PYTHONHASHSEED": seed}, check=True, capture_output=True,
                               text=True)
        assert json.loads(child.stdout) == here, seed


def test_exporters_check_the_puzzle_kind(plane: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="slider"):
        slider_svg(plane)
    with pytest.raises(ValueError, match="crossword"):
        to_ipuz(build_slider())
