"""Reading and writing grids: text, JSON and Qxw; every bad input gets one clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mobius.cpmodel.crossword.grid import Grid, from_json, make_grid, parse_qxw, parse_text, read_grid, to_json, to_text
from mobius.cpmodel.errors import InputError
from mobius.cpmodel.surface import SURFACES

FIXTURES = Path(__file__).parent / "fixtures"


def test_text_with_surface_letters_and_bars() -> None:
    g = parse_text("# a comment\nsurface: mobius\n..#.\nA...\nbars:\n.|..\n..+_\n")
    assert (g.width, g.height, g.surface.name) == (4, 2, "mobius")
    assert g.blocks == {(2, 0)}
    assert g.letters == {(0, 1): "A"}
    assert g.bars_right == {(1, 0), (2, 1)}
    assert g.bars_below == {(2, 1), (3, 1)}


def test_rows_of_blocks_are_not_comments() -> None:
    g = parse_text("###\n#.#\n...\n")
    assert g.rows == ("###", "#.#", "...")


def test_qxw_file_gives_type_size_blocks_bars_letters() -> None:
    g = read_grid(FIXTURES / "mobius-5x3.qxw")
    assert g.surface.name == "mobius"
    assert g.rows == ("..#..", ".A...", "..#..")
    assert g.bars_right == {(1, 1)}
    assert g.bars_below == {(3, 0)}


@pytest.mark.parametrize("gtype,name", [(0, "plane"), (5, "cylinder"), (7, "mobius"), (9, "torus"),
                                        (10, "klein"), (12, "projective")])
def test_qxw_grid_types(gtype: int, name: str) -> None:
    text = f"#QXW2v2\nGP {gtype} 2 2 1 0 0\nSQ 0 0 0 0 1 \nSQ 1 0 0 0 0\nSQ 0 1 0 0 0\nSQ 1 1 0 0 0 Q\n"
    g = parse_qxw(text)
    assert g.surface.name == name
    assert g.rows == ("#.", ".Q")


def test_surface_override() -> None:
    g = read_grid(FIXTURES / "mobius-5x3.qxw", "torus")
    assert g.surface.name == "torus"


@pytest.mark.parametrize("text,message,line", [
    ("...\n..\n", "ragged row", 2),
    ("..\n.x\n", "unknown character 'x'", 2),
    ("surface: sphere\n..\n", "unknown surface 'sphere'", 1),
    ("# only a comment\n", "empty grid", None),
    ("..\n..\nbars:\n..\n", "bars section has 1 rows", 4),
    ("..\n..\nbars:\n.x\n..\n", "unknown bar character 'x'", 4),
])
def test_bad_text_names_file_line_and_problem(tmp_path: Path, text: str, message: str, line: int | None) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as info:
        read_grid(path)
    assert str(path) in str(info.value)
    if line is not None:
        assert f"{path}:{line}:" in str(info.value)


@pytest.mark.parametrize("text,message", [
    ("#QXW2v4\nGP 1 5 5 1 0 0\n", "type 1 \\(hexagonal with vertical lights\\) is not rectangular"),
    ("#QXW2v4\nGP 3 5 5 1 0 0\n", "circular"),
    ("#QXW2v4\nTTL\n", "no 'GP' line"),
    ("#QXW2v4\nGP x 5 5 1 0 0\n", "malformed GP line"),
    ("#QXW2v4\nGP 0 2 2 1 0 0\nSQ 0 zero 0 0 0\n", "malformed SQ line"),
])
def test_bad_qxw(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.qxw"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        read_grid(path)


def test_missing_binary_and_bad_json_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_grid(tmp_path / "absent.txt")
    binary = tmp_path / "grid.bin"
    binary.write_bytes(b"..\n\xff\xfe\n")
    with pytest.raises(InputError, match=r"grid.bin:2: not a UTF-8"):
        read_grid(binary)
    broken = tmp_path / "grid.json"
    broken.write_text('{"rows": [".."],\n "surface": }')
    with pytest.raises(InputError, match=r"grid.json:2: invalid JSON"):
        read_grid(broken)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"rows": ["..", ".."], "width": 3}))
    with pytest.raises(InputError, match='"width" is 3 but the rows give 2'):
        read_grid(wrong)


def test_bar_outside_grid_rejected() -> None:
    with pytest.raises(InputError, match="outside"):
        make_grid(["..", ".."], bars_right=[(2, 0)])


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    w = draw(st.integers(1, 7))
    h = draw(st.integers(1, 7))
    cell = st.sampled_from(".....#ABZ")
    rows = ["".join(draw(st.lists(cell, min_size=w, max_size=w))) for _ in range(h)]
    cells = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    return make_grid(rows, draw(st.sampled_from(sorted(SURFACES))),
                     bars_right=draw(st.sets(cells, max_size=4)), bars_below=draw(st.sets(cells, max_size=4)))


@settings(max_examples=200, deadline=None)
@given(grids())
def test_text_and_json_round_trip(grid: Grid) -> None:
    assert parse_text(to_text(grid)) == grid
    assert from_json(json.loads(json.dumps(to_json(grid)))) == grid


def test_read_grid_dispatches_on_content(tmp_path: Path) -> None:
    grid = make_grid(["A.#", "..."], "klein", bars_below=[(1, 0)])
    (tmp_path / "g.json").write_text(json.dumps(to_json(grid)))
    (tmp_path / "g.txt").write_text(to_text(grid))
    assert read_grid(tmp_path / "g.json") == grid == read_grid(tmp_path / "g.txt")
