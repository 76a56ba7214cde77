"""Independent check of a crossword fill.

Covers: `verify(problem, fill)` — every light (taken from the surface's
lights, not re-derived) reads a dictionary word allowed by the rules, cells
hold single letters A–Z (so crossing lights agree by construction of a
per-cell fill), prefilled letters are kept, no word repeats where repeats
are forbidden, no light reads a word the rules exclude, and no letter is
written on a block. Shares no code with the
solvers. Leaves out: whether the fill is the best one.
"""

from __future__ import annotations

from collections import Counter

from mobius.cpmodel.crossword.problem import Fill, FillProblem


def verify(problem: FillProblem, fill: Fill) -> list[str]:
    """Return the problems found in `fill` (an empty list means it is valid)."""
    errors: list[str] = []
    grid = problem.grid
    for cell, letter in fill.items():
        x, y = cell
        if not (0 <= x < grid.width and 0 <= y < grid.height) or grid.is_block(cell):
            errors.append(f"letter {letter!r} written on {cell}, which is not a white cell")
        elif not (isinstance(letter, str) and len(letter) == 1 and "A" <= letter <= "Z"):
            errors.append(f"cell {cell} holds {letter!r}, not one letter A-Z")
    for cell, letter in grid.letters.items():
        if fill.get(cell) != letter:
            errors.append(f"prefilled cell {cell} should hold {letter!r}, holds {fill.get(cell)!r}")
    used: Counter[str] = Counter()
    for light in problem.lights.lights:
        missing = [c for c in light.cells if c not in fill]
        if missing:
            errors.append(f"light {light.label} has empty cells {missing}")
            continue
        word = "".join(fill[c] for c in light.cells)
        used[word] += 1
        if word not in problem.words:
            errors.append(f"light {light.label} reads {word!r}, which is not in the dictionary")
        elif word in problem.rules.excluded:
            errors.append(f"light {light.label} reads {word!r}, which the rules exclude")
        elif problem.words.score(word) < problem.rules.min_score:
            errors.append(f"light {light.label} reads {word!r}, scored {problem.words.score(word)} "
                          f"< minimum {problem.rules.min_score}")
    if not problem.rules.allow_repeats:
        errors.extend(f"word {w!r} is used {n} times" for w, n in sorted(used.items()) if n > 1)
    cap = problem.rules.cap
    if cap is not None:
        capped = sorted(w for w, n in used.items() for _ in range(n) if w in cap.words)
        if len(capped) > cap.most:
            errors.append(f"{len(capped)} lights read {cap.name} ({', '.join(capped)}), at most {cap.most} allowed")
    return errors
