"""What the pattern-database modules share: partitions, the goal's vertices, store keys, the format.

`heuristics.py` (which chooses partitions and makes heuristics), `pdb.py`,
`pdb_build.py`, `compiled.py` and `reference_pdb.py` (which build and read
the tables) all import these from here, so none of them imports another
back to reach them.

Leaves out: building, reading and choosing tables.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from mobius.cpmodel.slider.board import Board, State

# Pattern databases index 2^n masks (8 MB at 20 vertices).
MAX_PDB_VERTICES = 20
# Bump when the compact layout, its encoding or the abstraction changes.
COMPACT_FORMAT = 1

Partition = tuple[tuple[int, ...], ...]


def goal_vertices(goal: State) -> list[int]:
    """where[t] = the goal vertex of tile t."""
    where = [0] * len(goal)
    for vertex, tile in enumerate(goal):
        where[tile] = vertex
    return where


def table_key(kind: str, fmt: int, board: Board, goal: State, groups: Sequence[Sequence[int]]) -> str:
    """A store key: the kind and format, the board's label, the group sizes and a hash of all of it."""
    key = json.dumps({"kind": kind, "format": fmt, "n": board.n, "edges": sorted(map(sorted, board.edges)),
                      "goal": list(goal), "groups": [list(g) for g in groups]})
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    label = "".join(c if c.isalnum() else "-" for c in board.label)
    return f"{kind}{fmt}-{label}-{'-'.join(str(len(g)) for g in groups)}-{digest}"


def compact_key(board: Board, goal: State, partition: Partition) -> str:
    return table_key("pdb", COMPACT_FORMAT, board, goal, partition)
