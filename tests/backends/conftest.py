"""Shared helpers for the outside backends' tests: each test skips with the
backend's own reason where its program or package is absent (CI installs
them, so there they run)."""

from __future__ import annotations

import pytest

from mobius.cpmodel.solver import Solver, get_solver

CROSSWORD_BACKENDS = ("gecode", "choco", "sat", "sat:solver=glucose4")
SLIDER_BACKENDS = ("gecode", "choco", "sat", "sat:solver=glucose4")


def usable(family: str, spec: str) -> Solver:
    """The solver, or a skip saying why it cannot run here."""
    solver = get_solver(family, spec)
    reason = solver.available()
    if reason:
        pytest.skip(reason)
    return solver
