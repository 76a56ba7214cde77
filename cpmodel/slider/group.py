"""Solvability of one-blank slider problems without search, and board facts.

Covers: the *puzzle group* of a board — the tile permutations produced by
round trips of the blank from a root vertex — built from a BFS spanning tree
and sympy's permutation groups (Schreier–Sims, skipped when Jordan's
theorem certifies that the group contains A_m); `is_reachable(problem)`,
which decides in polynomial time whether the goal can be reached and says
why; naming that group (S_m, A_m, C_k, PGL(2,5) or its order); and
`inspect(board)`: size, 2-connectivity, bipartiteness, the group, the number
of configurations reachable from any one configuration, the number of
components of the state graph and the presets the board is isomorphic to.
Leaves out: several blanks (the group test covers exactly one), finding the
moves (`search.py`, `cpsat.py`) and checking them (`verify.py`).

Why the group is right on any connected graph. Let the blank's closed walks
from the root act on the tiles. A step there and straight back restores
every tile, so the action factors through the fundamental group of the
graph, which is free on the non-tree edges of any spanning tree: each
non-tree edge (u, v) gives the loop root → u (tree path), u → v, v → root
(tree path). The images of those loops therefore generate *exactly* the
group of blank-at-root round trips — conjugates and products are loops too
and need no extra generators. On a tree there are no non-tree edges, so the
group is trivial (Wilson 1974 covers the 2-connected case; this argument
needs no 2-connectivity). A configuration with the blank elsewhere is
reached from one with the blank at the root by one fixed walk, so every
component of the state graph holds n × |G| configurations, and the n!
configurations split into n! / (n × |G|) = (n − 1)! / |G| components.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache

import networkx as nx
from sympy import isprime
from sympy.combinatorics import Permutation, PermutationGroup

from cpmodel.errors import InputError
from cpmodel.slider.board import BLANK, Board, SliderProblem, State, preset

# Any vertex works as the root (the groups at different roots are
# conjugate); vertex 0 always exists, so every query on a board shares one
# cached group.
ROOT = 0

# The transitive groups of degree 6 have orders 6, 12, 18, 24, 36, 48, 60,
# 72, 120, 360 and 720, and the only one of order 120 is PGL(2,5) (≅ S5
# acting sharply 3-transitively on the projective line over F5). So
# "transitive on 6 tiles and of order 120" identifies it exactly: theta0's
# group (Wilson 1974).
PGL25_DEGREE = 6
PGL25_ORDER = 120

# Jordan's theorem (below) needs a prime p with m/2 < p < m − 2, which first
# exists at m = 8; smaller groups are cheap for Schreier–Sims anyway.
JORDAN_MIN_TILES = 8
# Random elements tried before falling back to Schreier–Sims. Roughly a
# fraction 0.57·ln 2 / ln m of S_m or A_m has a Jordan cycle (the estimate
# behind sympy's is_alt_sym): 1 in 12 at m = 99, so 200 samples all miss
# with probability below 1e-7; a miss costs time, never correctness.
JORDAN_SAMPLES = 200
# Product replacement (Celler et al. 1995): a pool of at least 10 elements,
# stirred before sampling. Loops on a long board move few tiles each, so the
# stirring grows with the number of tiles: 50 steps left the 2×100 ladder
# (m = 199) with almost no Jordan elements, 10·m steps mix it well.
PR_POOL = 10
PR_WARMUP_PER_TILE = 10


@dataclass(frozen=True)
class PuzzleGroup:
    """The blank-at-root round trips of a board, acting on its n − 1 tiles.

    Point i of `group` is the tile position `positions[i]` (every vertex but
    the root, in increasing order); `parent` is the BFS spanning tree;
    `has_alternating` records that the group contains A_m, so membership is
    a parity test.
    """

    root: int
    parent: tuple[int, ...]
    positions: tuple[int, ...]
    group: PermutationGroup
    name: str
    order: int
    has_alternating: bool

    def contains(self, sigma: Permutation) -> bool:
        if self.has_alternating:
            return sigma.is_even or not all_even(self.group)
        return bool(self.group.contains(sigma))


@dataclass(frozen=True)
class BoardFacts:
    """What `mobius slider inspect` reports; the field names are its JSON keys."""

    vertices: int
    edges: int
    two_connected: bool
    bipartite: bool
    group: str
    group_order: int
    reachable_configurations: int
    components: int
    isomorphic_to: list[str]

    def to_json(self) -> dict[str, object]:
        return asdict(self)


# --- spanning tree and blank walks ------------------------------------------------

def bfs_parents(board: Board, root: int) -> list[int]:
    """Parent of each vertex in a BFS spanning tree (the root is its own parent).

    BFS rather than any tree: its tree paths are shortest paths, so the
    fundamental cycles — and the generators — stay short.
    """
    parent = [-1] * board.n
    parent[root] = root
    queue = deque([root])
    while queue:
        u = queue.popleft()
        for v in board.neighbours[u]:
            if parent[v] < 0:
                parent[v] = u
                queue.append(v)
    return parent


def path_to_root(parent: Sequence[int], vertex: int) -> list[int]:
    """The tree path vertex, parent(vertex), …, root."""
    path = [vertex]
    while parent[path[-1]] != path[-1]:
        path.append(parent[path[-1]])
    return path


def non_tree_edges(board: Board, parent: Sequence[int]) -> list[tuple[int, int]]:
    return [(u, v) for u, v in board.edges if parent[u] != v and parent[v] != u]


def move_blank(state: list[int], blank: int, walk: Sequence[int]) -> None:
    """Slide the blank from `blank` along `walk`, in place."""
    for vertex in walk:
        state[blank], state[vertex] = state[vertex], state[blank]
        blank = vertex


def fundamental_loop(parent: Sequence[int], u: int, v: int) -> list[int]:
    """The blank's walk root → u along the tree, across (u, v), v → root along the tree."""
    to_u = path_to_root(parent, u)[::-1]
    return to_u[1:] + path_to_root(parent, v)


# --- the group --------------------------------------------------------------------

def loop_permutation(n: int, root: int, positions: Sequence[int], walk: Sequence[int]) -> Permutation:
    """The tile permutation σ of a blank round trip from the root, on the group's points.

    With state[v] = the tile on v, a round trip turns `state` into
    state ∘ σ; starting from state = identity the result *is* σ.
    """
    state = list(range(n))
    move_blank(state, root, walk)
    point = {vertex: i for i, vertex in enumerate(positions)}
    return Permutation([point[state[vertex]] for vertex in positions])


def all_even(group: PermutationGroup) -> bool:
    return all(g.is_even for g in group.generators)


def compose(a: list[int], b: list[int]) -> list[int]:
    return [a[i] for i in b]


def inverse(a: list[int]) -> list[int]:
    result = [0] * len(a)
    for i, image in enumerate(a):
        result[image] = i
    return result


def random_elements(generators: Sequence[list[int]], rng: random.Random, count: int) -> Iterator[list[int]]:
    """`count` nearly uniform random group elements (array forms) by product replacement.

    Plain lists rather than sympy Permutations: thousands of products on
    large boards, each one list comprehension.
    """
    pool = [list(g) for g in generators] * (PR_POOL // len(generators) + 1)
    accumulator = list(range(len(pool[0])))
    warmup = PR_WARMUP_PER_TILE * len(accumulator)
    for step in range(warmup + count):
        s, t = rng.sample(range(len(pool)), 2)
        pool[s] = compose(pool[s], pool[t] if rng.random() < 0.5 else inverse(pool[t]))
        accumulator = compose(accumulator, pool[s])
        if step >= warmup:
            yield accumulator


def cycle_lengths(perm: list[int]) -> set[int]:
    seen = [False] * len(perm)
    lengths = set()
    for start in range(len(perm)):
        length, point = 0, start
        while not seen[point]:
            seen[point] = True
            point = perm[point]
            length += 1
        lengths.add(length)
    return lengths


def has_jordan_cycle(perm: list[int]) -> bool:
    """Does `perm` have a cycle of prime length p with m/2 < p < m − 2?

    A transitive group holding such an element contains A_m: a suitable power
    of it is a lone p-cycle (its other cycles are shorter than p, hence
    coprime to it), which makes the group primitive, and Jordan's theorem
    does the rest — the criterion sympy's `is_alt_sym` samples for.
    """
    tiles = len(perm)
    return any(2 * p > tiles and p < tiles - 2 and isprime(p) for p in cycle_lengths(perm))


def certify_alternating(group: PermutationGroup, tiles: int, seed: int = 0) -> bool:
    """Prove A_m ≤ G without Schreier–Sims; False means only "not shown".

    The answer True is certain whatever the samples, so the seed changes
    the running time, never a result.
    """
    if tiles < JORDAN_MIN_TILES or not group.is_transitive():
        return False
    generators = [g.array_form for g in group.generators]
    return any(has_jordan_cycle(g) for g in random_elements(generators, random.Random(seed), JORDAN_SAMPLES))


def group_order(group: PermutationGroup, tiles: int) -> tuple[int, bool]:
    """The order of the group and whether it contains A_m.

    Schreier–Sims on a large board (A99 for grid:10x10) takes minutes, so
    the certified Jordan test goes first; then the order is m! or m!/2 by
    the generators' parity.
    """
    if certify_alternating(group, tiles):
        full = math.factorial(tiles)
        return (full // 2 if all_even(group) else full), True
    order = int(group.order())
    # Index at most 2 in S_m means S_m itself or its only index-2 subgroup, A_m.
    return order, 2 * order >= math.factorial(tiles)


def group_name(group: PermutationGroup, order: int, tiles: int) -> str:
    """Name the puzzle group of `order` acting on `tiles` points.

    Rules, in order: order 1 → "trivial"; abelian and cyclic → "C<order>"
    (so S2 and A3, which are cyclic, read as C2 and C3, matching cycle:N →
    C_{N−1}); order tiles! → "S<tiles>" and order tiles!/2 → "A<tiles>" (a
    subgroup of S_m of that order *is* S_m, resp. its unique index-2
    subgroup A_m); transitive of order 120 on 6 tiles → "PGL(2,5)";
    otherwise "order N".
    """
    if order == 1:
        return "trivial"
    if group.is_abelian and group.is_cyclic:
        return f"C{order}"
    if order == math.factorial(tiles):
        return f"S{tiles}"
    if 2 * order == math.factorial(tiles):
        return f"A{tiles}"
    if tiles == PGL25_DEGREE and order == PGL25_ORDER and group.is_transitive():
        return "PGL(2,5)"
    return f"order {order}"


@lru_cache(maxsize=64)
def puzzle_group(board: Board, root: int = ROOT) -> PuzzleGroup:
    """The group of the blank's round trips from `root`, one generator per non-tree edge."""
    parent = bfs_parents(board, root)
    positions = tuple(v for v in range(board.n) if v != root)
    generators = [loop_permutation(board.n, root, positions, fundamental_loop(parent, u, v))
                  for u, v in non_tree_edges(board, parent)]
    group = PermutationGroup(generators or [Permutation(list(range(len(positions))))])
    order, has_alternating = group_order(group, len(positions))
    return PuzzleGroup(root, tuple(parent), positions, group, group_name(group, order, len(positions)), order,
                       has_alternating)


# --- reachability -------------------------------------------------------------------

def blank_at_root(state: State, parent: Sequence[int]) -> list[int]:
    """`state` with its blank walked to the root along the spanning tree."""
    moved = list(state)
    blank = moved.index(BLANK)
    move_blank(moved, blank, path_to_root(parent, blank)[1:])
    return moved


def tile_permutation(problem: SliderProblem, pg: PuzzleGroup) -> Permutation:
    """σ with goal' = start' ∘ σ, both blanks walked to the root first.

    The goal is reachable exactly when σ lies in the puzzle group: moves
    are reversible, so start → goal iff start' → goal'.
    """
    start = blank_at_root(problem.start, pg.parent)
    goal = blank_at_root(problem.goal, pg.parent)
    where = {tile: vertex for vertex, tile in enumerate(start)}
    point = {vertex: i for i, vertex in enumerate(pg.positions)}
    return Permutation([point[where[goal[vertex]]] for vertex in pg.positions])


def is_reachable(problem: SliderProblem) -> tuple[bool, str]:
    """Decide whether `problem.goal` can be reached from `problem.start`, with a reason."""
    if problem.blanks != 1:
        raise InputError(f"the group test covers one blank, this problem has {problem.blanks}")
    pg = puzzle_group(problem.board)
    sigma = tile_permutation(problem, pg)
    if pg.contains(sigma):
        return True, f"the tile permutation lies in the puzzle group {pg.name}"
    return False, unreachable_reason(sigma, pg)


def unreachable_reason(sigma: Permutation, pg: PuzzleGroup) -> str:
    if pg.order == 1:
        return "the board is a tree, so tiles never change their order, and the goal needs a different order"
    if sigma.is_odd and all_even(pg.group):
        only_even = "" if pg.name.startswith("A") else ", which holds only even permutations"
        return f"tile permutation is odd but the puzzle group is {pg.name}{only_even}"
    components = math.factorial(len(pg.positions)) // pg.order
    return (f"tile permutation is not in the puzzle group {pg.name} (order {pg.order}): "
            f"the goal lies in another of the board's {components} components")


# --- inspect -------------------------------------------------------------------------

def to_networkx(board: Board) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(range(board.n))
    graph.add_edges_from(board.edges)
    return graph


def candidate_presets(n: int) -> list[str]:
    """The presets with n vertices: the fixed ones, grid:RxC (R ≤ C), cycle:n, path:n."""
    names = [name for name in ("ring", "theta0", "petersen") if preset(name).n == n]
    names += [f"grid:{r}x{n // r}" for r in range(2, math.isqrt(n) + 1) if n % r == 0]
    if n >= 3:
        names.append(f"cycle:{n}")
    return names + [f"path:{n}"]


def isomorphic_presets(board: Board) -> list[str]:
    """Presets isomorphic to `board`: a "novel" board may be an old one relabelled."""
    graph = to_networkx(board)
    matches = []
    for name in candidate_presets(board.n):
        other = preset(name)
        # Edge count first: cheap, and it rules out almost every candidate.
        if len(other.edges) == len(board.edges) and nx.is_isomorphic(graph, to_networkx(other)):
            matches.append(name)
    return matches


def inspect(board: Board) -> BoardFacts:
    """The facts a designer wants before building puzzles on `board`."""
    graph = to_networkx(board)
    pg = puzzle_group(board)
    reachable = board.n * pg.order
    return BoardFacts(
        vertices=board.n,
        edges=len(board.edges),
        # K2 has no cut vertex, but "2-connected" needs more than 2 vertices.
        two_connected=board.n > 2 and nx.is_biconnected(graph),
        bipartite=nx.is_bipartite(graph),
        group=pg.name,
        group_order=pg.order,
        reachable_configurations=reachable,
        components=math.factorial(board.n) // reachable,
        isomorphic_to=isomorphic_presets(board),
    )
