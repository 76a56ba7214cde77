"""The glue of every surface: stepping is a bijection, reversible, and flips
exactly where the surface says."""

from __future__ import annotations

import pytest

from mobius.cpmodel.surface import SURFACES, Direction, Glue, step, surface

SIZES = [(w, h) for w in range(1, 7) for h in range(1, 7)]


def all_states(w: int, h: int):
    return [((x, y), d) for x in range(w) for y in range(h) for d in Direction]


@pytest.mark.parametrize("name", sorted(SURFACES))
def test_step_is_a_bijection_and_reversible(name: str) -> None:
    surf = surface(name)
    for w, h in SIZES:
        images = {}
        for cell, d in all_states(w, h):
            nxt = step(surf, w, h, cell, d)
            if nxt is None:
                continue
            assert 0 <= nxt.cell[0] < w and 0 <= nxt.cell[1] < h
            key = (nxt.cell, nxt.direction)
            assert key not in images, f"{name} {w}x{h}: {(cell, d)} and {images[key]} both step to {key}"
            images[key] = (cell, d)
            back = step(surf, w, h, nxt.cell, nxt.direction.reverse)
            assert back is not None and back.cell == cell and back.direction == d.reverse
            assert back.crossed == nxt.crossed


@pytest.mark.parametrize("name", sorted(SURFACES))
def test_borders_are_exactly_the_unglued_edges(name: str) -> None:
    surf = surface(name)
    w, h = 5, 4
    for cell, d in all_states(w, h):
        x, y = cell
        leaves_lr = (d is Direction.RIGHT and x == w - 1) or (d is Direction.LEFT and x == 0)
        leaves_tb = (d is Direction.DOWN and y == h - 1) or (d is Direction.UP and y == 0)
        nxt = step(surf, w, h, cell, d)
        if leaves_lr:
            assert (nxt is None) == (surf.left_right is Glue.BORDER)
        elif leaves_tb:
            assert (nxt is None) == (surf.top_bottom is Glue.BORDER)
        else:
            assert nxt is not None and not nxt.crossed


def test_seed_example_mobius_8x4() -> None:
    m = surface("mobius")
    first = step(m, 8, 4, (6, 1), Direction.RIGHT)
    assert first is not None and first.cell == (7, 1) and not first.crossed
    second = step(m, 8, 4, first.cell, Direction.RIGHT)
    assert second is not None and second.cell == (0, 2) and second.crossed
    assert second.direction is Direction.RIGHT
    back = step(m, 8, 4, (0, 2), Direction.LEFT)
    assert back is not None and back.cell == (7, 1)


@pytest.mark.parametrize("w,h", SIZES)
def test_mobius_w_steps_flip_the_row_and_2w_steps_return(w: int, h: int) -> None:
    m = surface("mobius")
    for x in range(w):
        for y in range(h):
            cell = (x, y)
            for i in range(2 * w):
                nxt = step(m, w, h, cell, Direction.RIGHT)
                assert nxt is not None
                cell = nxt.cell
                if i == w - 1:
                    assert cell == (x, h - 1 - y)
            assert cell == (x, y)


@pytest.mark.parametrize("name", ["cylinder", "torus"])
def test_cylinder_and_torus_never_flip(name: str) -> None:
    surf = surface(name)
    for w, h in SIZES:
        for y in range(h):
            nxt = step(surf, w, h, (w - 1, y), Direction.RIGHT)
            assert nxt is not None and nxt.cell == (0, y) and nxt.crossed
        for x in range(w):
            nxt = step(surf, w, h, (x, h - 1), Direction.DOWN)
            if name == "torus":
                assert nxt is not None and nxt.cell == (x, 0)
            else:
                assert nxt is None


def test_projective_flips_both_ways_and_klein_one() -> None:
    p, k = surface("projective"), surface("klein")
    assert step(p, 5, 4, (1, 3), Direction.DOWN).cell == (3, 0)
    assert step(p, 5, 4, (4, 1), Direction.RIGHT).cell == (0, 2)
    assert step(k, 5, 4, (1, 3), Direction.DOWN).cell == (1, 0)
    assert step(k, 5, 4, (4, 1), Direction.RIGHT).cell == (0, 2)


def test_unknown_surface_names_the_choices() -> None:
    with pytest.raises(KeyError, match="mobius"):
        surface("sphere")
    assert surface("Möbius").name == "mobius"
