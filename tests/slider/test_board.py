"""Boards, presets, board files, states and the slider problem's validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpmodel.errors import InputError
from cpmodel.slider.board import (
    Board,
    SliderProblem,
    board_from_edge_list,
    board_from_json,
    default_goal,
    load_board,
    parse_state,
    preset,
)


# --- presets ----------------------------------------------------------------------

@pytest.mark.parametrize(("name", "vertices", "edges"), [
    ("ring", 9, 12),
    ("theta0", 7, 8),
    ("petersen", 10, 15),
    ("grid:3x3", 9, 12),
    ("grid:4x4", 16, 24),
    ("grid:2x5", 10, 13),
    ("cycle:6", 6, 6),
    ("path:5", 5, 4),
])
def test_preset_sizes(name: str, vertices: int, edges: int) -> None:
    board = preset(name)
    assert (board.n, len(board.edges)) == (vertices, edges)
    assert board.layout is not None and len(board.layout) == vertices


def test_ring_is_a_cycle_with_a_hub() -> None:
    board = preset("ring")
    assert board.neighbours[8] == (0, 2, 4, 6)
    assert board.neighbours[1] == (0, 2)


def test_petersen_is_cubic_with_diameter_two() -> None:
    board = preset("petersen")
    assert {len(a) for a in board.neighbours} == {3}
    assert max(max(row) for row in board.distances) == 2


def test_grid_distances_are_manhattan() -> None:
    board = preset("grid:3x4")
    assert board.distances[0][11] == 2 + 3
    assert board.adjacent(5, 6) and board.adjacent(5, 9) and not board.adjacent(3, 4)


@pytest.mark.parametrize("name", ["square", "grid:3", "grid:1x4", "grid:axb", "cycle:", "path:x", "ring:3"])
def test_unknown_or_malformed_presets_are_input_errors(name: str) -> None:
    with pytest.raises(InputError):
        preset(name)


# --- board files ---------------------------------------------------------------------

def test_json_board_round_trip(tmp_path: Path) -> None:
    board = preset("theta0")
    path = tmp_path / "theta.json"
    path.write_text(json.dumps(board.to_json()), encoding="utf-8")
    loaded = load_board(str(path))
    assert (loaded.n, loaded.edges, loaded.layout) == (board.n, board.edges, board.layout)
    assert loaded.label == "theta"


def test_edge_list_board_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "square.txt"
    path.write_text("# a square\n0 1\n1,2\n2 3  # last side\n\n3 0\n", encoding="utf-8")
    board = load_board(str(path))
    assert board.n == 4 and board.edges == ((0, 1), (1, 2), (2, 3), (3, 0))


@pytest.mark.parametrize(("text", "message"), [
    ("0 1\n2 3\n", "disconnected"),
    ("0 1\n1 1\n", "self-loop"),
    ("0 1\n1 0\n", "duplicate edge"),
    ("0 1 2\n", "expected an edge"),
    ("0 -1\n", "expected an edge"),
    ("0 \u00b9\n", "expected an edge"),  # superscript one: a digit int() refuses
    ("# nothing\n", "no edges"),
])
def test_bad_edge_lists(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        board_from_edge_list(text, "bad.txt")


def test_edge_list_error_names_file_and_line() -> None:
    with pytest.raises(InputError, match=r"^bad\.txt:2: "):
        board_from_edge_list("0 1\nx y\n", "bad.txt")


@pytest.mark.parametrize(("data", "message"), [
    ([1, 2], "expected an object"),
    ({"vertices": "3", "edges": []}, "whole number"),
    ({"vertices": True, "edges": []}, "whole number"),
    ({"vertices": 3, "edges": [[0, 1], [1]]}, "pair of vertex numbers"),
    ({"vertices": 3, "edges": "0-1"}, "pair of vertex numbers"),
    ({"vertices": 3, "edges": [[0, 1], [1, 5]]}, "outside"),
    ({"vertices": 1, "edges": []}, "at least 2 vertices"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": [[0, 0]]}, "layout has 1 points"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": "nowhere"}, "layout"),
    ({"vertices": 2, "edges": [[0, 1]], "names": ["a"]}, "names has 1 entries"),
])
def test_bad_json_boards(data: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        board_from_json(data, "bad.json")


def test_invalid_json_file_reports_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n"vertices": 3,\n"edges": [[0, 1],]\n}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.json:3: invalid JSON"):
        load_board(str(path))


def test_missing_file_falls_back_to_presets_and_fails_clearly() -> None:
    with pytest.raises(InputError, match="unknown board 'no/such/board.json'"):
        load_board("no/such/board.json")


# --- states and problems -------------------------------------------------------------------

def test_default_goal_puts_tile_v_on_vertex_v() -> None:
    board = preset("grid:2x3")
    assert default_goal(board) == (0, 1, 2, 3, 4, 5)
    assert default_goal(board, blanks=2) == (0, 0, 2, 3, 4, 5)


def test_parse_state_accepts_spaces_and_commas() -> None:
    board = preset("grid:2x2")
    assert parse_state("3, 0 1,2", board) == (3, 0, 1, 2)
    assert parse_state("0 0 2 3", board, blanks=2) == (0, 0, 2, 3)


@pytest.mark.parametrize(("text", "message"), [
    ("0 1 2", "has 3 entries"),
    ("0 1 2 3 4", "has 5 entries"),
    ("1 2 3 1", "0 blanks"),
    ("0 0 1 2", "2 blanks"),
    ("0 1 1 2", "not an arrangement"),
    ("0 1 2 4", "not an arrangement"),
    ("0 1 2 three", "whole numbers"),
    ("0 1 2 -3", "whole numbers"),
    ("0 1 2 \u00b3", "whole numbers"),
])
def test_bad_states(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_state(text, preset("grid:2x2"))


def test_problem_needs_the_same_tiles_in_start_and_goal() -> None:
    board = preset("grid:2x3")
    with pytest.raises(InputError, match="different tiles"):
        SliderProblem(board, (0, 0, 1, 3, 4, 5), (0, 0, 2, 3, 4, 5), blanks=2)


def test_board_rejects_bad_graphs_directly() -> None:
    with pytest.raises(InputError, match="disconnected"):
        Board(4, ((0, 1), (2, 3)))
    with pytest.raises(InputError, match="duplicate"):
        Board(3, ((0, 1), (1, 2), (2, 1)))
