"""The group test against brute force: every small connected graph, the presets.

The oracle is a tiny breadth-first search over whole state spaces, written
here and sharing nothing with `cpmodel.slider.group`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque

import networkx as nx
import pytest

from cpmodel.errors import InputError
from cpmodel.slider.board import Board, SliderProblem, default_goal, load_board, preset
from cpmodel.slider.group import certify_alternating, inspect, is_reachable, puzzle_group

State = tuple[int, ...]


# --- the brute-force oracle ---------------------------------------------------------

def adjacency(board: Board) -> list[list[int]]:
    adj: list[list[int]] = [[] for _ in range(board.n)]
    for u, v in board.edges:
        adj[u].append(v)
        adj[v].append(u)
    return adj


def successors(state: State, adj: list[list[int]]) -> list[State]:
    blank = state.index(0)
    result = []
    for v in adj[blank]:
        nxt = list(state)
        nxt[blank], nxt[v] = nxt[v], 0
        result.append(tuple(nxt))
    return result


def component_of(start: State, adj: list[list[int]]) -> set[State]:
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in successors(queue.popleft(), adj):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def all_components(board: Board) -> list[set[State]]:
    adj = adjacency(board)
    labelled: set[State] = set()
    components = []
    for state in itertools.permutations(range(board.n)):
        if state not in labelled:
            components.append(component_of(state, adj))
            labelled |= components[-1]
    return components


def small_connected_graphs() -> list[nx.Graph]:
    return [g for g in nx.graph_atlas_g() if 2 <= g.number_of_nodes() <= 6 and nx.is_connected(g)]


def board_of(graph: nx.Graph) -> Board:
    return Board(graph.number_of_nodes(), tuple(graph.edges()))


def relabelled(board: Board, seed: int) -> Board:
    order = list(range(board.n))
    random.Random(seed).shuffle(order)
    return Board(board.n, tuple((order[u], order[v]) for u, v in board.edges))


# --- decision and counts vs brute force ---------------------------------------------

SMALL_GRAPHS = small_connected_graphs()


def test_atlas_holds_every_small_connected_graph() -> None:
    # 1 + 2 + 6 + 21 + 112 connected graphs on 2..6 vertices (OEIS A001349).
    assert len(SMALL_GRAPHS) == 142


@pytest.mark.parametrize("graph", SMALL_GRAPHS, ids=lambda g: f"n{g.number_of_nodes()}e{g.number_of_edges()}")
def test_counts_and_decision_match_bfs_on_small_graphs(graph: nx.Graph) -> None:
    board = board_of(graph)
    components = all_components(board)
    facts = inspect(board)
    assert facts.components == len(components)
    assert {len(c) for c in components} == {facts.reachable_configurations}

    rng = random.Random(graph.number_of_edges() * 100 + board.n)
    start = rng.choice(sorted(components[rng.randrange(len(components))]))
    own = next(c for c in components if start in c)
    for target in itertools.permutations(range(board.n)):
        reachable, reason = is_reachable(SliderProblem(board, start, target))
        assert reachable == (target in own), (board.edges, start, target, reason)
        assert reason


def test_trees_have_trivial_groups_and_cycles_cyclic_ones() -> None:
    for graph in SMALL_GRAPHS:
        facts = inspect(board_of(graph))
        if nx.is_tree(graph):
            assert (facts.group, facts.group_order) == ("trivial", 1)
        elif graph.number_of_edges() == graph.number_of_nodes() and all(d == 2 for _, d in graph.degree()):
            assert facts.group == f"C{graph.number_of_nodes() - 1}"


def test_theta0_full_state_space() -> None:
    board = preset("theta0")
    components = all_components(board)
    facts = inspect(board)
    assert (facts.group, facts.group_order) == ("PGL(2,5)", 120)
    assert (facts.reachable_configurations, facts.components) == (840, 6)
    assert len(components) == 6 and {len(c) for c in components} == {840}
    start = default_goal(board)
    own = next(c for c in components if start in c)
    for target in itertools.permutations(range(board.n)):
        assert is_reachable(SliderProblem(board, start, target))[0] == (target in own)


def grid_3x3_with_a_diagonal() -> Board:
    return Board(9, preset("grid:3x3").edges + ((0, 4),), label="grid:3x3+diagonal")


@pytest.mark.slow
@pytest.mark.parametrize(("board", "group", "components"), [
    (preset("ring"), "A8", 2),
    (preset("grid:3x3"), "A8", 2),
    (grid_3x3_with_a_diagonal(), "S8", 1),  # an odd cycle: every permutation
], ids=lambda x: x.label if isinstance(x, Board) else str(x))
def test_nine_vertex_boards_against_one_bfs_component(board: Board, group: str, components: int) -> None:
    # 9! = 362,880 states: search one component, then sample targets from all of them.
    start = default_goal(board)
    own = component_of(start, adjacency(board))
    facts = inspect(board)
    assert facts.reachable_configurations == len(own) == math.factorial(9) // components
    assert (facts.group, facts.components) == (group, components)
    rng = random.Random(9)
    for _ in range(400):
        target = tuple(rng.sample(range(board.n), board.n))
        assert is_reachable(SliderProblem(board, start, target))[0] == (target in own)


# --- inspect on the presets ---------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 9))
def test_cycle_group_is_cyclic_on_the_tiles(n: int) -> None:
    facts = inspect(preset(f"cycle:{n}"))
    assert (facts.group, facts.group_order) == (f"C{n - 1}", n - 1)
    assert facts.reachable_configurations == n * (n - 1)
    assert facts.components == math.factorial(n - 2)
    assert facts.two_connected and facts.bipartite == (n % 2 == 0)


@pytest.mark.parametrize("n", range(2, 9))
def test_path_group_is_trivial(n: int) -> None:
    facts = inspect(preset(f"path:{n}"))
    assert (facts.group, facts.group_order) == ("trivial", 1)
    assert (facts.reachable_configurations, facts.components) == (n, math.factorial(n - 1))
    assert not facts.two_connected and facts.bipartite


def test_grid_3x3_is_the_eight_puzzle_and_the_ring_in_disguise() -> None:
    facts = inspect(preset("grid:3x3"))
    assert facts.to_json() == {
        "vertices": 9, "edges": 12, "two_connected": True, "bipartite": True,
        "group": "A8", "group_order": 20_160, "reachable_configurations": 181_440,
        "components": 2, "isomorphic_to": ["ring", "grid:3x3"],
    }
    assert inspect(preset("ring")).isomorphic_to == ["ring", "grid:3x3"]


def test_petersen_group_is_symmetric() -> None:
    board = preset("petersen")
    facts = inspect(board)
    assert (facts.group, facts.group_order, facts.components) == ("S9", math.factorial(9), 1)
    assert facts.two_connected and not facts.bipartite
    assert facts.isomorphic_to == ["petersen"]
    goal = default_goal(board)
    swapped = goal[:8] + (goal[9], goal[8])
    assert is_reachable(SliderProblem(board, swapped, goal)) == (
        True, "the tile permutation lies in the puzzle group S9")


def test_fifteen_puzzle_and_a_large_grid() -> None:
    assert (inspect(preset("grid:4x4")).group, inspect(preset("grid:4x4")).components) == ("A15", 2)
    # 99 tiles: Schreier–Sims would take minutes; the Jordan certificate does not.
    assert inspect(preset("grid:10x10")).group == "A99"
    assert inspect(Board(60, tuple((i, i + 1) for i in range(59)) + ((0, 59), (0, 30)))).group == "S59"


@pytest.mark.parametrize(("name", "certified"), [
    ("ring", True), ("petersen", True), ("grid:3x4", True), ("cycle:10", False), ("grid:2x3", False),
])
def test_jordan_shortcut_agrees_with_schreier_sims(name: str, certified: bool) -> None:
    pg = puzzle_group(preset(name))
    assert certify_alternating(pg.group, len(pg.positions)) == certified
    assert pg.order == pg.group.order()


def test_jordan_shortcut_on_a_board_with_a_cut_vertex() -> None:
    # A 3x3 grid with a pendant vertex hung on a corner: 9 tiles, not 2-connected.
    board = Board(10, preset("grid:3x3").edges + ((0, 9),))
    pg = puzzle_group(board)
    assert pg.order == pg.group.order()
    assert not inspect(board).two_connected


# --- isomorphism ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_relabelled_grid_is_recognised(seed: int) -> None:
    assert "grid:3x3" in inspect(relabelled(preset("grid:3x3"), seed)).isomorphic_to


def test_relabelled_theta0_and_grid_2x2_as_a_cycle() -> None:
    assert inspect(relabelled(preset("theta0"), 5)).isomorphic_to == ["theta0"]
    assert inspect(preset("grid:2x2")).isomorphic_to == ["grid:2x2", "cycle:4"]


def test_novel_board_matches_no_preset() -> None:
    lollipop = Board(5, ((0, 1), (1, 2), (2, 0), (2, 3), (3, 4)))
    assert inspect(lollipop).isomorphic_to == []


# --- reasons and limits -------------------------------------------------------------------------

def test_odd_permutation_on_the_fifteen_puzzle() -> None:
    board = load_board("grid:4x4")
    goal = default_goal(board)
    start = list(goal)
    start[14], start[15] = start[15], start[14]
    assert is_reachable(SliderProblem(board, tuple(start), goal)) == (
        False, "tile permutation is odd but the puzzle group is A15")


def test_tree_reason_and_reachable_reason() -> None:
    board = preset("path:4")
    reachable, reason = is_reachable(SliderProblem(board, (1, 0, 2, 3), (0, 1, 2, 3)))
    assert reachable and "trivial" in reason
    reachable, reason = is_reachable(SliderProblem(board, (0, 2, 1, 3), (0, 1, 2, 3)))
    assert not reachable and "tree" in reason


def test_theta0_reason_names_the_components() -> None:
    board = preset("theta0")
    goal = default_goal(board)
    start = (0, 2, 3, 1, 4, 5, 6)  # a 3-cycle: even, yet outside PGL(2,5)
    reachable, reason = is_reachable(SliderProblem(board, start, goal))
    assert not reachable
    assert reason == ("tile permutation is not in the puzzle group PGL(2,5) (order 120): "
                      "the goal lies in another of the board's 6 components")


def test_several_blanks_are_refused() -> None:
    board = preset("grid:2x3")
    problem = SliderProblem(board, (0, 0, 2, 3, 4, 5), (0, 0, 2, 3, 4, 5), blanks=2)
    with pytest.raises(InputError, match="one blank"):
        is_reachable(problem)
