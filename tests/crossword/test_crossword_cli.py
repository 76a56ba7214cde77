"""`mobius crossword lights|show`: output shapes and one-line errors with exit code 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "generators" / "examples" / "mobius-8x4.txt"


def mobius(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def test_lights_json_follows_the_glue() -> None:
    out = mobius("crossword", "lights", EXAMPLE, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["width"], data["height"], data["surface"]) == (8, 4, "mobius")
    seam = [lt for lt in data["lights"] if lt["seam_crossings"]]
    assert seam, "the example should have a light across the seam"
    for light in seam:
        cells = light["cells"]
        jumps = [(a, b) for a, b in zip(cells, cells[1:]) if a[0] == 7 and b[0] == 0]
        assert all(b[1] == 3 - a[1] for a, b in jumps)


def test_lights_text_shows_seam_markers_and_numbers() -> None:
    out = mobius("crossword", "lights", EXAMPLE)
    assert out.returncode == 0
    assert "→ row 3" in out.stdout and "→ row 0" in out.stdout
    across, _, down = out.stdout.partition("\nDOWN\n")
    assert "\nACROSS\n" in across and down
    # every light stands under its direction with its number and length, as the JSON lists them
    lights = json.loads(mobius("crossword", "lights", EXAMPLE, "--json").stdout)["lights"]
    assert lights
    for light in lights:
        section = across if light["direction"] == "across" else down
        assert re.search(rf"^ +{light['number']} \({light['length']}\) ", section, re.M), light


def test_show_with_surface_override() -> None:
    out = mobius("crossword", "show", EXAMPLE, "--surface", "torus")
    assert out.returncode == 0
    assert "surface: torus" in out.stdout and "→ row 1" in out.stdout


@pytest.mark.parametrize("content,args,message", [
    (None, ["lights", "/no/such/grid.txt"], "no such file"),
    ("..\n.", ["lights"], "ragged row"),
    ("..\n..", ["lights", "--surface", "sphere"], "unknown surface"),
    ("#QXW2v4\nGP 3 5 5 1 0 0\n", ["show"], "not rectangular"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: str | None, args: list[str],
                                          message: str) -> None:
    if content is not None:
        path = tmp_path / "grid.txt"
        path.write_text(content)
        args = [args[0], str(path), *args[1:]]
    out = mobius("crossword", *args)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_fill_json_is_verified_and_exit_0(tmp_path: Path) -> None:
    # A grid the curated `en` fills, with lights across the seam (EXAMPLE's 15-letter light it cannot).
    grid = tmp_path / "grid.txt"
    grid.write_text("surface: mobius\n#...#...\n........\n...#...#\n", encoding="utf-8")
    out = mobius("crossword", "fill", grid, "--dict", "en", "--json", "--seed", "3")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["status"] == "SOLVED" and data["solver"] == "reference"
    letters = {(x, y): ch for y, row in enumerate(data["rows"]) for x, ch in enumerate(row)}
    for entry in data["entries"]:
        assert "".join(letters[tuple(c)] for c in entry["cells"]) == entry["word"]
    words = [e["word"] for e in data["entries"]]
    assert len(words) == len(set(words))


def test_fill_text_says_solved_like_every_command(tmp_path: Path) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("surface: mobius\n#...#...\n........\n...#...#\n", encoding="utf-8")
    out = mobius("crossword", "fill", grid, "--dict", "en", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("SOLVED by reference")


@pytest.mark.parametrize("solver", ["reference", "cpsat"])
def test_fill_exit_1_when_no_fill_exists(tmp_path: Path, solver: str) -> None:
    words = tmp_path / "words.txt"
    words.write_text("ABC\nDEF\n")
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n...\n...\n")
    out = mobius("crossword", "fill", grid, "--dict", words, "--solver", solver, "--no-clues")
    assert out.returncode == 1, out.stderr
    assert out.stdout.startswith("UNSAT")


def test_fill_exit_3_on_timeout(tmp_path: Path) -> None:
    # A 6x6 open torus from the full list: far more work than a millisecond allows.
    grid = tmp_path / "grid.txt"
    grid.write_text("surface: torus\n" + "......\n" * 6)
    out = mobius("crossword", "fill", grid, "--dict", "en", "--time-limit", "0.001", "--json")
    assert out.returncode == 3, out.stderr
    assert json.loads(out.stdout)["status"] == "TIMEOUT"


@pytest.mark.parametrize("solver", ["reference", "cpsat"])
def test_a_timeout_says_in_one_line_what_to_try(tmp_path: Path, solver: str) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("surface: torus\n" + "......\n" * 6)
    out = mobius("crossword", "fill", grid, "--dict", "en", "--solver", solver, "--time-limit", "0.001")
    assert out.returncode == 3 and out.stdout.startswith("TIMEOUT"), out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "a longer --time-limit than 0.001 s" in lines[0]
    # CP-SAT is the solver that can prove a grid has no fill: suggested unless it is the one that ran.
    assert ("--solver cpsat" in lines[0]) is (solver != "cpsat")
    answer = json.loads(mobius("crossword", "fill", grid, "--dict", "en", "--solver", solver,
                               "--time-limit", "0.001", "--json").stdout)
    assert answer["note"] == lines[0]


def test_fill_bad_dictionary_is_exit_2(tmp_path: Path) -> None:
    out = mobius("crossword", "fill", EXAMPLE, "--dict", tmp_path / "missing.txt")
    assert out.returncode == 2 and "missing.txt" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("solver", ["reference:select=foo", "cpsat:prepass=maybe", "reference:nosuch=1", "annealing"])
def test_fill_bad_solver_spec_is_exit_2(solver: str) -> None:
    out = mobius("crossword", "fill", EXAMPLE, "--solver", solver)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
