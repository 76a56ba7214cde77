"""Checking stored pattern tables completely: the checksum, then table entries against true distances.

Covers: `verify_stored`, what `mobius slider prepare --verify` runs on the
tables of one partition (the compiled engine's compact tables or the python
engine's sparse ones) in the caller's store:

- the checksum of the data and the metadata, recomputed whatever this
  process verified before (`TableStore.verify`), with its cost in seconds;
- per group, the exact entries near the goal: a breadth-first search of the
  group's abstract space (written here in plain Python, sharing no code with
  either build: a state is where the group's tiles stand plus the lowest
  vertex of the blank's component among the free vertices, a move slides a
  group tile into that component) from the goal, whole levels up to
  `BALL_STATES` states; every placement it settles must read its distance;
- per group, seeded random placements anywhere in the table against their
  neighbours (Bellman bounds, true of exact distances d): d(p) ≥ 1 + min d
  over every placement one move away (p not the goal), and d(p) ≤ 1 + d(p′)
  for each p′ one move away whose free vertices form one component (there
  d(p′) is the distance of the only abstract state of p′, which moves back).
  Entries at their width's ceiling hold only a lower bound and are skipped
  where the bound needs the exact value.

The same checks, smaller (`BUILD_BALL_STATES`, `BUILD_SAMPLES`), are what
every stored compact build runs on its finished tables before they are
stamped (`build_check`, called by `pdb_build.py`).

Leaves out: building (`pdb_build.py`, `reference_pdb.py`) and rebuilding
(the caller discards an entry that fails).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mobius.cpmodel.slider.board import BLANK, Board, State
from mobius.cpmodel.slider.pdb_keys import Partition, compact_key, goal_vertices
from mobius.cpmodel.store import Entry, Expected, TableStore

# States of the abstract search near the goal per group (whole levels): a few seconds of Python.
BALL_STATES = 20_000
# Random placements per group checked against their neighbours.
SAMPLES = 1_000
# The check a build runs before it stamps its tables: small enough to cost little next to any build
# (a ball that covers every placement of the 3×3's groups, so there it is complete).
BUILD_BALL_STATES = 3_000
BUILD_SAMPLES = 200

Positions = tuple[int, ...]  # the vertex of each tile of a group, in group order
Lookup = Callable[[Positions], tuple[int, bool]]  # the distance a table stores, and whether it is at its ceiling


@dataclass
class Report:
    """What was checked, line by line, and whether every check passed."""

    lines: list[str] = field(default_factory=list)
    ok: bool = True
    failed: list[str] = field(default_factory=list)  # the keys of the entries that failed
    missing: bool = False  # some table is not built (nothing was checked past it)

    def fail(self, key: str, line: str) -> None:
        self.ok = False
        self.failed.append(key)
        self.lines.append(f"FAILED {line}")


# --- the abstract space, independently --------------------------------------------------

def free_components(board: Board, occupied: set[int]) -> dict[int, int]:
    """Free vertex -> the lowest vertex of its component among the free vertices."""
    lowest: dict[int, int] = {}
    for v in range(board.n):
        if v in occupied or v in lowest:
            continue
        stack, members = [v], [v]
        lowest[v] = v
        while stack:
            u = stack.pop()
            for w in board.neighbours[u]:
                if w not in occupied and w not in lowest:
                    lowest[w] = v
                    stack.append(w)
                    members.append(w)
    return lowest


def moves(board: Board, positions: Positions, component: int | None) -> list[tuple[Positions, int, dict[int, int]]]:
    """Every (placement, blank's component, free components of it) one slide of a group tile away from
    `positions` with the blank in `component` (None: in any component)."""
    comp = free_components(board, set(positions))
    found = []
    for i, v in enumerate(positions):
        for q in board.neighbours[v]:
            if q in comp and (component is None or comp[q] == component):
                after = positions[:i] + (q,) + positions[i + 1:]
                comp_after = free_components(board, set(after))
                found.append((after, comp_after[v], comp_after))  # the blank ends where the tile was
    return found


def settled_distances(board: Board, goal: State, group: Sequence[int], budget: int) -> dict[Positions, int]:
    """The exact distance of every placement settled by a breadth-first search from the goal, whole levels
    only, stopping once `budget` abstract states are held."""
    home = goal_vertices(goal)
    start = tuple(home[t] for t in group)
    blank = free_components(board, set(start))[goal.index(BLANK)]
    seen = {(start, blank)}
    frontier = [(start, blank)]
    distance = {start: 0}
    depth = 0
    while frontier and len(seen) < budget:
        depth += 1
        following = []
        for positions, component in frontier:
            for after, blank_after, _ in moves(board, positions, component):
                if (after, blank_after) not in seen:
                    seen.add((after, blank_after))
                    following.append((after, blank_after))
                    distance.setdefault(after, depth)
        frontier = following
    return distance


def neighbour_bounds(board: Board, positions: Positions, lookup: Lookup, at_goal: bool) -> str | None:
    """What is wrong with the table at `positions` by the Bellman bounds, or None."""
    value, ceiling = lookup(positions)
    if at_goal != (value == 0 and not ceiling):
        return f"placement {positions} reads {value}, but it is {'' if at_goal else 'not '}the goal's"
    nearby = [(after, len(set(comp.values())) == 1, *lookup(after)) for after, _, comp in moves(board, positions, None)]
    if not at_goal and not ceiling and nearby and value < 1 + min(d for _, _, d, _ in nearby):
        return f"placement {positions} reads {value}, below 1 + the least of its neighbours"
    for after, single, d, at_ceiling in nearby:
        if single and not at_ceiling and value > d + 1:
            return f"placement {positions} reads {value}, above 1 + {d} of its neighbour {after}"
    return None


def check_group(board: Board, goal: State, group: Sequence[int], lookup: Lookup, rng: random.Random,
                ball: int = BALL_STATES, samples: int = SAMPLES) -> tuple[str, str | None]:
    """(what was checked, the first problem or None) for one group's table."""
    exact = settled_distances(board, goal, group, ball)
    for positions, d in exact.items():
        value, ceiling = lookup(positions)
        if value != d and not (ceiling and value < d):
            return "", f"placement {positions} reads {value}, but its distance is {d}"
    home = goal_vertices(goal)
    at_home = tuple(home[t] for t in group)
    for _ in range(samples):
        positions = tuple(rng.sample(range(board.n), len(group)))
        problem = neighbour_bounds(board, positions, lookup, positions == at_home)
        if problem:
            return "", problem
    deepest = max(exact.values())
    return (f"{len(exact):,} placements within {deepest} moves of the goal exact, {samples:,} random "
            f"placements consistent with their neighbours"), None


# --- the stored tables ---------------------------------------------------------------------

def _checked_entry(store: TableStore, key: str, expected: Expected, report: Report) -> Entry | None:
    """The entry `key` once its checksum and metadata are re-checked (the line says so, with the cost), or
    None (missing, or failed: the report says which)."""
    began = time.perf_counter()
    problem = store.verify(key, expected)
    seconds = time.perf_counter() - began
    if problem == "missing":
        report.missing = True
        return None
    if problem:
        report.fail(key, f"checksum and metadata of {key}: {problem}")
        return None
    report.lines.append(f"checksum (xxh3-128) and metadata of {key} ({math.prod(expected.shape):,} bytes): ok in "
                        f"{seconds:.3f} s")
    entry = store.load(key, expected)
    if entry is None:
        report.fail(key, f"{key}: changed while it was being checked")
    return entry


def _group_lines(board: Board, goal: State, key: str, groups: Sequence[Sequence[int]], lookups: Sequence[Lookup],
                 seed: int, report: Report, first: int = 0) -> None:
    for g, (group, lookup) in enumerate(zip(groups, lookups), start=first):
        began = time.perf_counter()
        checked, problem = check_group(board, goal, group, lookup, random.Random(f"{seed}:{g}"))
        what = f"group {g + 1} ({len(group)} tiles)"
        if problem:
            report.fail(key, f"{what}: {problem}")
            return
        report.lines.append(f"{what}: {checked} ({time.perf_counter() - began:.1f} s)")


def verify_stored(board: Board, goal: State, partition: Partition, engine: str, store: TableStore,
                  seed: int = 0) -> Report:
    """Check the stored tables of `partition` (built already) for `engine`: checksums, then entries."""
    report = Report()
    if engine == "python":
        _verify_sparse(board, goal, partition, store, seed, report)
    else:
        _verify_compact(board, goal, partition, store, seed, report)
    return report


def compact_lookups(board: Board, goal: State, partition: Partition, table: Any, layout: Mapping[str, Any]
                    ) -> list[Lookup]:
    """One lookup per group into compact tables laid out as `layout` says (bases, bits, scale)."""
    from mobius.cpmodel.slider import pdb

    lookups = []
    for g, group in enumerate(partition):
        home = [board.distances[goal_vertices(goal)[t]] for t in group]

        def lookup(positions: Positions, g: int = g, home: list[tuple[int, ...]] = home) -> tuple[int, bool]:
            bits = layout["bits"][g]
            entry_value = pdb.read_entry(table, layout["bases"][g], pdb.placement_index(board.n, positions), bits)
            return (sum(h[v] for h, v in zip(home, positions)) + layout["scale"] * entry_value,
                    entry_value == (1 << bits) - 1)
        lookups.append(lookup)
    return lookups


def build_check(board: Board, goal: State, partition: Partition, table: Any, layout: Mapping[str, Any],
                seed: int = 0) -> tuple[int, str] | None:
    """(the group, what is wrong) for the first group of freshly built compact tables that fails the
    build's check, or None when every group passes."""
    for g, (group, lookup) in enumerate(zip(partition, compact_lookups(board, goal, partition, table, layout))):
        _, problem = check_group(board, goal, group, lookup, random.Random(f"{seed}:{g}"), BUILD_BALL_STATES,
                                 BUILD_SAMPLES)
        if problem:
            return g, problem
    return None


def _verify_compact(board: Board, goal: State, partition: Partition, store: TableStore, seed: int,
                    report: Report) -> None:
    from mobius.cpmodel.slider import pdb

    key = compact_key(board, goal, partition)
    expected = pdb.expected_entry(board, goal, partition)
    entry = _checked_entry(store, key, expected, report)
    if entry is None:
        return
    _group_lines(board, goal, key, partition, compact_lookups(board, goal, partition, entry.table, expected.metadata),
                 seed, report)


def _verify_sparse(board: Board, goal: State, partition: Partition, store: TableStore, seed: int,
                   report: Report) -> None:
    from mobius.cpmodel.slider.reference_pdb import UNSEEN, sparse_expected, sparse_key

    for g, group in enumerate(partition):
        key = sparse_key(board, goal, group)
        entry = _checked_entry(store, key, sparse_expected(board, group), report)
        if entry is None:
            return
        table = entry.table

        def lookup(positions: Positions, table: object = table) -> tuple[int, bool]:
            value = int(table[sum(v * board.n ** i for i, v in enumerate(positions))])  # type: ignore[index]
            return value, value == UNSEEN
        _group_lines(board, goal, key, [group], [lookup], seed, report, first=g)
