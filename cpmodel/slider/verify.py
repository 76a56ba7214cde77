"""Independent check of a slider answer: replay the moves, compare with the goal.

Covers: `verify(problem, moves)` for one blank (moves = the vertices the blank
moves to) and for several blanks (moves = (from, to) pairs: the tile on
`from` slides into the blank on `to`). Shares no code with any solver: it
uses only the board's edge list and plain list operations. Leaves out:
optimality, which the tests establish by comparing solvers.
"""

from __future__ import annotations

from collections.abc import Sequence

from mobius.cpmodel.slider.board import BLANK, SliderProblem


def verify(problem: SliderProblem, moves: Sequence[int] | Sequence[Sequence[int]]) -> list[str]:
    """Return the problems found replaying `moves` (empty list = a valid solution)."""
    edges = {frozenset(e) for e in problem.board.edges}
    state = list(problem.start)
    for i, move in enumerate(moves):
        if problem.blanks == 1:
            if isinstance(move, (list, tuple)):
                return [f"move {i}: expected a vertex number, got {move!r}"]
            src, dst = move, state.index(BLANK)
        else:
            if not (isinstance(move, (list, tuple)) and len(move) == 2):
                return [f"move {i}: expected a (from, to) pair, got {move!r}"]
            src, dst = move
        if not (0 <= src < problem.board.n and 0 <= dst < problem.board.n):
            return [f"move {i}: vertex outside the board: {move!r}"]
        if frozenset((src, dst)) not in edges:
            return [f"move {i}: no edge between {src} and {dst}"]
        if state[dst] != BLANK or state[src] == BLANK:
            return [f"move {i}: vertex {dst} holds no blank or vertex {src} holds no tile"]
        state[dst], state[src] = state[src], BLANK
    if tuple(state) != tuple(problem.goal):
        return [f"after {len(moves)} moves the board is {state}, not the goal {list(problem.goal)}"]
    return []
