"""Input promises kept through the real command (`python -m mobius` in a
subprocess): boards without a layout give finished packs; choice-like options,
time limits and malformed grid, board and JSON files end in exactly one
stderr line naming the value and what was expected, with exit code 2.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from mobius.fuzz import run_in_process
from mobius.cpmodel.slider.board import circle_points
from mobius.cpmodel.slider.drawing import closest_pair, drawn_layout, normalised, separated

ROOT = Path(__file__).resolve().parents[1]


def mobius(*args: object, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def refused(*args: object, match: str | tuple[str, ...] = ()) -> str:
    """Run; assert exit 2, one stderr line holding every `match`, no traceback; the line."""
    done = mobius(*args)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for part in (match,) if isinstance(match, str) else match:
        assert part in lines[0], lines[0]
    return lines[0]


# --- boards without a layout ------------------------------------------------------------------

EDGE_LIST = "# two squares sharing vertex 0\n0 1\n1 2\n2 3\n3 0\n0 4\n4 5\n5 6\n6 0\n"


SQUARES_JSON = json.dumps({"vertices": 7, "edges": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 4], [4, 5], [5, 6], [6, 0]]})


def test_a_pack_from_an_edge_list_board_is_finished(tmp_path: Path) -> None:
    board = tmp_path / "squares.txt"
    board.write_text(EDGE_LIST)
    out = tmp_path / "pack"
    done = mobius("pack", "slider", "--board", board, "--depth", "3..4", "--count", "2", "--workers", "1",
                  "--out", out)
    assert done.returncode == 0, done.stderr
    assert (out / "index.html").stat().st_size > 0 and (out / "pack.pdf").read_bytes().startswith(b"%PDF")
    for number in ("0001", "0002"):
        puzzle = json.loads((out / "puzzles" / f"{number}.json").read_text())
        layout = puzzle["board"]["layout"]
        assert len(layout) == 7 and len({tuple(p) for p in layout}) == 7
        svg = (out / "puzzles" / f"{number}.svg").read_text()
        # Start and goal panels: one circle per vertex in each.
        centres = re.findall(r'<circle cx="([^"]+)" cy="([^"]+)"', svg)
        assert len(centres) == 2 * 7 and len(set(centres)) == 2 * 7
        assert '"layout"' in (out / "puzzles" / f"{number}.html").read_text()


def test_a_puzzle_file_without_a_layout_is_drawn_as_a_pack_draws_it(tmp_path: Path) -> None:
    from mobius.cpmodel.slider.board import SliderProblem, default_goal, load_board
    from mobius.generators.puzzles import slider_puzzle

    board = tmp_path / "squares.txt"
    board.write_text(EDGE_LIST)
    loaded = load_board(str(board))
    goal = default_goal(loaded)
    puzzle = slider_puzzle(SliderProblem(loaded, goal, goal), [], puzzle_id="0001", solver="bfs", stats={}, seed=0)
    puzzle["rejected"] = 0
    assert "layout" not in puzzle["board"]
    path = tmp_path / "0001.json"
    path.write_text(json.dumps(puzzle))
    done = mobius("render", path, "--format", "svg")
    assert done.returncode == 0, done.stderr
    centres = re.findall(r'<circle cx="([^"]+)" cy="([^"]+)"', (tmp_path / "0001.svg").read_text())
    assert len(set(centres)) == 2 * 7


@pytest.mark.parametrize("name, text", [("squares.txt", EDGE_LIST), ("squares.json", SQUARES_JSON)])
def test_the_pack_board_is_drawn_before_the_first_job(tmp_path: Path, name: str, text: str) -> None:
    """The drawn layout is part of the spec, so every puzzle and the manifest carry the same one."""
    board = tmp_path / name
    board.write_text(text)
    from mobius.generators.slider.pack import SliderPackSpec

    spec = SliderPackSpec(count=2, board=str(board), depth_min=3, depth_max=4)
    assert spec.load_board().layout == drawn_layout(7, spec.load_board().edges)
    assert json.loads(spec.board_json)["layout"] == [list(p) for p in spec.load_board().layout]


NICE_GRAPHS = {
    "grid 6x6": nx.grid_2d_graph(6, 6),
    "petersen": nx.petersen_graph(),
    "star": nx.star_graph(12),
    "K2,10": nx.complete_bipartite_graph(2, 10),
    "ternary tree": nx.balanced_tree(3, 4),
}


def _layout_of(graph: nx.Graph) -> tuple[list[tuple[int, int]], tuple[tuple[float, float], ...]]:
    graph = nx.convert_node_labels_to_integers(graph)
    edges = list(graph.edges())
    layout = drawn_layout(len(graph), edges)
    assert len(layout) == len(graph)
    # The exports' convention: the closest two vertices one unit apart, so none lie on one point.
    assert closest_pair(layout) == pytest.approx(1.0, abs=2e-3)
    assert drawn_layout(len(graph), edges) == layout  # deterministic
    return edges, layout


@pytest.mark.parametrize("name", NICE_GRAPHS)
def test_drawn_layouts_keep_vertices_apart(name: str) -> None:
    edges, layout = _layout_of(NICE_GRAPHS[name])
    assert separated(layout, edges)


@pytest.mark.parametrize("n", [300, 1200])
def test_a_graph_without_a_readable_drawing_gets_the_circle(n: int) -> None:
    """A random 3-regular graph has no drawing with short edges: the spring layout crowds its vertices
    (300), and past `SPRING_MAX` none is tried (1200)."""
    _, layout = _layout_of(nx.random_regular_graph(3, n, seed=1))
    circle = circle_points(n)
    assert layout == normalised(circle, math.dist(circle[0], circle[1]))


def test_a_board_file_with_two_vertices_on_one_point_is_refused(tmp_path: Path) -> None:
    board = tmp_path / "b.json"
    board.write_text(json.dumps({"vertices": 3, "edges": [[0, 1], [1, 2]], "layout": [[0, 0], [1, 0], [0, 0]]}))
    refused("slider", "inspect", board, match=(str(board), "vertices 0 and 2", "same point"))


# --- choice-like options ------------------------------------------------------------------------

RING_START = "1 0 2 3 4 5 6 7 8"
GRID = ROOT / "generators" / "examples" / "mobius-8x4.txt"
CHOICES = {
    "slider prepare --engine": (["slider", "prepare", "ring", "--engine", "bogus"], "compiled, python"),
    "slider solve --solver": (["slider", "solve", "ring", "--start", RING_START, "--solver", "bogus"], "idastar"),
    "slider solve engine option": (["slider", "solve", "ring", "--start", RING_START, "--solver",
                                    "idastar:engine=bogus"], "compiled, python"),
    "crossword fill --surface": (["crossword", "fill", GRID, "--surface", "bogus"], "mobius"),
    "render --format": (["render", "{tmp}/none.json", "--format", "bogus"], "'html', 'svg'"),
    "export-instance --format": (["export-instance", GRID, "--format", "bogus", "--out", "{tmp}/x"], "xcsp3"),
    "bench --suite": (["bench", "--suite", "bogus", "--out", "{tmp}/b"], "slider-ring"),
}


@pytest.mark.parametrize("case", CHOICES)
def test_an_unknown_choice_names_the_value_and_the_accepted_ones(tmp_path: Path, case: str) -> None:
    args, accepted = CHOICES[case]
    refused(*[str(a).format(tmp=tmp_path) for a in args], match=("bogus", accepted))


# --- Qxw cell contents --------------------------------------------------------------------------

QXW = (ROOT / "tests" / "crossword" / "fixtures" / "mobius-5x3.qxw").read_text()


@pytest.mark.parametrize("line, content", [('SQCT 2 1 0 ""', '"7"'), ('SQCT 2 1 0 ""', '"É"'),
                                           ('SQCT 2 1 0 ""', '"AB"'), ("SQ 2 1 0 0 0 .", "4"),
                                           # letters that upper-case into A-Z ("ı": I, "ß": SS)
                                           ('SQCT 2 1 0 ""', '"ı"'), ('SQCT 2 1 0 ""', '"ß"'),
                                           ("SQ 2 1 0 0 0 .", "ſ")])
def test_a_qxw_cell_that_is_not_a_letter_is_refused(tmp_path: Path, line: str, content: str) -> None:
    changed = line.replace('""', content) if '""' in line else line.replace(" .", f" {content}")
    path = tmp_path / "grid.qxw"
    path.write_text(QXW.replace(line, changed))
    number = QXW.splitlines().index(line) + 1
    refused("crossword", "show", path, match=(f"{path}:{number}:", repr(content.strip('"')), "A-Z"))


def test_a_lower_case_qxw_letter_is_read(tmp_path: Path) -> None:
    path = tmp_path / "grid.qxw"
    path.write_text(QXW.replace('SQCT 2 1 0 ""', 'SQCT 2 1 0 "b"'))
    done = mobius("crossword", "show", path)
    assert done.returncode == 0 and ". A|B . ." in done.stdout, done.stderr


# --- keys and lines given twice -----------------------------------------------------------------

GRID_JSON = '{\n "rows": ["...", ".#.", "..."],\n "surface": "mobius",\n "surface": "torus"\n}\n'
BOARD_JSON = '{"vertices": 3,\n "edges": [[0, 1], [1, 2]],\n "layout": [[0, 0], [1, 0], [2, 0]],\n "edges": [[0, 2]]}'
NESTED_JSON = '{"kind": "slider",\n "board": {"vertices": 3, "edges": [[0, 1], [1, 2]],\n  "vertices": 4}}'


@pytest.mark.parametrize("text, command, key, line", [
    (GRID_JSON, ["crossword", "show"], "surface", 4),
    (BOARD_JSON, ["slider", "inspect"], "edges", 4),
    (NESTED_JSON, ["render"], "vertices", 3),
])
def test_a_json_key_given_twice_is_refused_on_its_line(tmp_path: Path, text: str, command: list[str], key: str,
                                                       line: int) -> None:
    path = tmp_path / "input.json"
    path.write_text(text)
    refused(*command, path, match=(f"{path}:{line}:", repr(key), "twice"))


def test_the_same_key_in_two_objects_is_no_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text('{"vertices": 3, "edges": [[0, 1], [1, 2]], "names": ["x", "{\\"x\\":", "x"], "name": "x"}')
    assert mobius("slider", "inspect", path).returncode == 0


@pytest.mark.parametrize("text, line, match", [
    ("surface: mobius\nsurface: torus\n...\n", 2, "second 'surface:' line"),
    ("# a grid\nsurface: mobius\n...\nsurface: torus\n", 4, "after the rows"),
])
def test_a_second_surface_line_is_refused(tmp_path: Path, text: str, line: int, match: str) -> None:
    path = tmp_path / "grid.txt"
    path.write_text(text)
    refused("crossword", "show", path, match=(f"{path}:{line}:", match))


# --- time limits ---------------------------------------------------------------------------------

TIME_LIMITED = {
    "crossword fill": ["crossword", "fill", GRID],
    "slider solve": ["slider", "solve", "ring", "--start", RING_START],
    "slider prepare": ["slider", "prepare", "ring"],
    "pack crossword": ["pack", "crossword", "--out", "{tmp}/p"],
    "pack slider": ["pack", "slider", "--out", "{tmp}/p"],
    "bench": ["bench", "--suite", "quick", "--out", "{tmp}/b"],
}


@pytest.mark.parametrize("command", TIME_LIMITED)
def test_every_time_limit_refuses_inf(tmp_path: Path, command: str) -> None:
    args = [str(a).format(tmp=tmp_path) for a in TIME_LIMITED[command]]
    refused(*args, "--time-limit", "inf", match=("--time-limit", "greater than 0, at most 86,400", "got inf"))
    assert not (tmp_path / "p").exists() and not (tmp_path / "b").exists()


@pytest.mark.parametrize("value", ["nan", "0", "-1", "86401"])
def test_every_time_limit_keeps_one_rule(tmp_path: Path, value: str) -> None:
    """The same rule in-process (the same error policy as the console script), for speed."""
    for command, args in TIME_LIMITED.items():
        code, stderr, problem = run_in_process([str(a).format(tmp=tmp_path) for a in args] + ["--time-limit", value])
        assert (code, problem) == (2, None) and f"greater than 0, at most 86,400, got {value}" in stderr, command


@pytest.mark.parametrize("value", ["nan", "1.5", "-0.1", "a sixth"])
def test_max_blocks_is_a_share_of_the_cells(tmp_path: Path, value: str) -> None:
    code, stderr, problem = run_in_process(["pack", "crossword", "--out", str(tmp_path / "p"), "--max-blocks", value])
    assert (code, problem) == (2, None) and "--max-blocks" in stderr and len(stderr.splitlines()) == 1, stderr
    assert not (tmp_path / "p").exists()


# --- small promises: bench help, counts as whole numbers -----------------------------------------

def test_bench_help_shows_instance_patterns_and_why_to_quote_them() -> None:
    done = mobius("bench", "--help")
    text = " ".join(done.stdout.split())
    assert done.returncode == 0 and "'15.*,05.01'" in text and "'korf-00?'" in text and "Quote the list" in text


def test_stats_lines_print_counts_as_whole_numbers() -> None:
    from mobius.cpmodel.solver import stats_text

    assert stats_text({"nodes": 12.0, "conflicts": 3, "setup_s": 0.25, "deterministic_time": 1.23456}) == \
        "nodes=12 conflicts=3 setup_s=0.250 deterministic_time=1.235"


# --- the fault family --------------------------------------------------------------------------------

def test_the_inputs_fault_family_is_found_and_judges_runs(tmp_path: Path) -> None:
    from mobius.benchmarks.faults import discover
    from mobius.benchmarks.faults.inputs import judge

    family = discover()["inputs"]
    assert family.NAME == "inputs" and family.DESCRIPTION
    assert judge(2, "mobius: error: x.json:3: key 'a' appears twice\n", None, None) is None
    assert judge(2, "Usage: mobius\nmobius: error: bad\n", None, None) == "2 lines on stderr"
    assert judge(1, "Traceback (most recent call last):\n", "traceback", None) == "traceback"
    assert judge(4, "mobius: internal error\n", None, None) == "exit 4"
    assert judge(0, "", None, tmp_path) == ("finished pack without index.html, pack.pdf, puzzles/0001.svg, "
                                            "puzzles/0002.svg")
