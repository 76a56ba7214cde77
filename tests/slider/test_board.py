"""Boards, presets, board files, states and the slider problem's validation,
including the input gate: sizes, ids, digits, types, nesting and file kinds
are bounded before anything is allocated."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mobius.cpmodel.errors import InputError
from mobius.cpmodel.slider.board import (
    MAX_BOARD_BYTES,
    MAX_EDGES,
    MAX_VERTICES,
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


@pytest.mark.parametrize("name", ["square", "grid:3", "grid:1x4", "grid:axb", "cycle:", "path:x", "ring:3", "cycle:2",
                                  "grid:+3x3", "path:1_000", "cycle:\u0663"])
def test_unknown_or_malformed_presets_are_input_errors(name: str) -> None:
    with pytest.raises(InputError):
        preset(name)


@pytest.mark.parametrize(("name", "message"), [
    ("cycle:100000000", "expected a whole number from 3 to 100,000, got 100,000,000"),
    ("grid:10000x10000", "has 100,000,000 vertices; boards have at most 100,000"),
    ("path:100001", "expected a whole number from 2 to 100,000, got 100,001"),
    ("path:" + "9" * 5000, "got a 5,000-digit number"),
])
def test_preset_sizes_are_bounded_before_building(name: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        preset(name)
    assert len(str(caught.value)) < 200  # a 5,000-digit argument is not echoed in full


def test_largest_presets_are_accepted() -> None:
    assert preset(f"path:{MAX_VERTICES}").n == MAX_VERTICES
    assert preset("grid:2x50000").n == MAX_VERTICES


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
    ("0\n", "expected an edge"),
    ("0 -1\n", "vertex: expected a whole number from 0 to 99,999, got '-1'"),
    ("0 \u00b9\n", "vertex: expected a whole number"),  # superscript one: a digit int() refuses
    ("0 \u0661\n", "vertex: expected a whole number"),  # Arabic-Indic one: a digit int() accepts
    ("0 1000000000\n", "got 1,000,000,000"),
    ("0 " + "7" * 5000 + "\n", "got a 5,000-digit number"),
    ("# nothing\n", "no edges"),
])
def test_bad_edge_lists(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        board_from_edge_list(text, "bad.txt")
    assert len(str(caught.value)) < 200


def test_edge_list_error_names_file_and_line() -> None:
    with pytest.raises(InputError, match=r"^bad\.txt:2: "):
        board_from_edge_list("0 1\nx y\n", "bad.txt")


def test_edge_count_is_bounded_while_reading() -> None:
    text = "0 1\n" * (MAX_EDGES + 1)  # duplicates are found later: the count stops reading first
    with pytest.raises(InputError, match=rf"bad\.txt:{MAX_EDGES + 1}: more than {MAX_EDGES:,} edges"):
        board_from_edge_list(text, "bad.txt")


@pytest.mark.parametrize(("data", "message"), [
    ([1, 2], "expected an object"),
    ({"vertices": "3", "edges": []}, "whole number"),
    ({"vertices": True, "edges": []}, "whole number"),
    ({"vertices": 1, "edges": []}, "from 2 to 100,000, got 1"),
    ({"vertices": 10 ** 9, "edges": []}, "from 2 to 100,000, got 1000000000"),
    ({"vertices": 3, "edges": [[0, 1], [1]]}, "pair of vertex numbers"),
    ({"vertices": 3, "edges": [[0, 1], [True, 2]]}, "pair of vertex numbers"),
    ({"vertices": 3, "edges": [[0, 1], [1.0, 2]]}, "pair of vertex numbers"),
    ({"vertices": 3, "edges": "0-1"}, "list of pairs"),
    ({"vertices": 3, "edges": {"0": 1}}, "list of pairs"),
    ({"vertices": 3, "edges": [[0, 1], [1, 5]]}, "outside"),
    ({"vertices": 3, "edges": [[0, 1], [1, 10 ** 90]]}, "outside"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": [[0, 0]]}, "list of 2 points"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": "nowhere"}, "layout"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": [[0, 0], [1, "x"]]}, "finite numbers"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": [[0, 0], [1, float("inf")]]}, "finite numbers"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": [[0, 0], [1, 10 ** 400]]}, "finite numbers"),
    ({"vertices": 2, "edges": [[0, 1]], "layout": [[0, 0], {"x": 1}]}, "finite numbers"),
    ({"vertices": 2, "edges": [[0, 1]], "names": ["a"]}, "names.*got 1 entries"),
    ({"vertices": 2, "edges": [[0, 1]], "names": 5}, "names.*got 5"),
    ({"vertices": 2, "edges": [[0, 1]], "names": ["a", 5]}, "vertex name must be a string"),
    ({"vertices": 2, "edges": [[0, 1]], "names": ["a", "b" * 256]}, "at most 255 characters"),
    ({"vertices": 2, "edges": [[0, 1]], "name": ["x"]}, '"name" must be a string'),
])
def test_bad_json_boards(data: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        board_from_json(data, "bad.json")


def test_invalid_json_file_reports_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n"vertices": 3,\n"edges": [[0, 1],]\n}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.json:3: invalid JSON: .*expected a board JSON"):
        load_board(str(path))


def test_missing_file_falls_back_to_presets_and_fails_clearly() -> None:
    with pytest.raises(InputError, match="unknown board 'no/such/board.json'"):
        load_board("no/such/board.json")
    with pytest.raises(InputError, match="unknown board 'x+… \\(100,000 characters\\)"):
        load_board("x" * 100_000)  # too long a name for the system: a preset name, and unknown
    with pytest.raises(InputError, match="unknown board"):
        load_board("ring\0")


@pytest.mark.parametrize(("text", "message"), [
    ('{"vertices": 2, "edges": [[0, ' + "1" * 5000 + "]]}", r"number in the board JSON .*more than 24 digits"),
    ("[" * 100_000 + "]" * 100_000, "JSON nested 100000 levels deep; a board JSON nests at most"),
    ('{"vertices": 2,\n "edges": [[0, 1],]}', r":2: invalid JSON: .*expected a board JSON"),
    ('{"vertices": 2, "edges": [[0, 1]], "names": 5}', '"names" must be a list'),
])
def test_bad_json_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "board.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_board(str(path))


def test_board_files_must_be_regular_bounded_utf8(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file .*expected a board file"):
        load_board(str(fifo))  # opened non-blocking: no writer, no hang
    with pytest.raises(InputError, match="not a regular file"):
        load_board("/dev/zero")
    with pytest.raises(InputError, match="is a directory"):
        load_board(str(tmp_path))
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        handle.truncate(MAX_BOARD_BYTES + 1)
    with pytest.raises(InputError, match=f"a board file is at most {MAX_BOARD_BYTES:,}"):
        load_board(str(big))
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"0 1\n# caf\xe9\n")
    with pytest.raises(InputError, match=r"latin\.txt:2: not a UTF-8 text file .*expected a board file"):
        load_board(str(latin))


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
    ("1 2 3 1", "start has no blank \\(0\\); expected 1$"),
    ("0 0 1 2", "start has 2 blanks \\(0s\\); expected 1$"),
    ("0 1 1 2", "tile 1 is on vertices 1 and 2$"),
    ("0 1 2 4", "start entry 4: expected a whole number from 0 to 3, got 4$"),
    ("0 1 2 three", "start entry 4: expected a whole number from 0 to 3, got 'three'$"),
    ("0 1 2 -3", "got '-3'"),
    ("0 1 2 \u00b3", "whole number"),
    ("0 1 2 " + "3" * 5000, "start entry 4: expected a whole number from 0 to 3, got a 5,000-digit number$"),
])
def test_bad_states(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_state(text, preset("grid:2x2"), "start")


def test_blank_counts_read_well() -> None:
    board = preset("grid:2x3")
    with pytest.raises(InputError, match=r"^start has 1 blank \(0\); expected 2$"):
        parse_state("0 1 2 3 4 5", board, "start", blanks=2)
    with pytest.raises(InputError, match="takes 1 to 5 blanks, not 6"):
        parse_state("0 0 0 0 0 0", board, "start", blanks=6)


def test_problem_needs_the_same_tiles_in_start_and_goal() -> None:
    board = preset("grid:2x3")
    with pytest.raises(InputError, match="different tiles"):
        SliderProblem(board, (0, 0, 1, 3, 4, 5), (0, 0, 2, 3, 4, 5), blanks=2)


def test_board_rejects_bad_graphs_directly() -> None:
    with pytest.raises(InputError, match="disconnected"):
        Board(4, ((0, 1), (2, 3)))
    with pytest.raises(InputError, match="duplicate"):
        Board(3, ((0, 1), (1, 2), (2, 1)))
