"""Hypothesis fuzz tests, one per crossword, dictionary, pack and render parser,
through the CLI: whatever the input, the tool ends with a documented exit code
and, when it refuses the input (exit 2), exactly one line on stderr and no
traceback. Bounded: a few seconds each (the long run is
`python -m mobius.fuzz`, reported in benchmarks/RESULTS.md).
"""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mobius.benchmarks.fuzz_cli import CONTROL, GRID_TEXT, QXW_TEXT, TINY_GRID
from mobius.fuzz import run_in_process

FUZZ = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_names = itertools.count()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def fresh(workdir: Path, data: str | bytes, suffix: str = ".txt") -> str:
    """A new file each time: the word-list cache keys on path, size and mtime."""
    path = workdir / f"f{next(_names):05d}{suffix}"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    return str(path)


def keeps_promise(*args: str) -> None:
    code, stderr, problem = run_in_process(args)
    assert problem is None, f"{problem}: exit {code}: {stderr[-500:]}"


# Text close to real input: its own characters, the awkward ones, and some of anything.
def near(text: str) -> st.SearchStrategy[str]:
    pieces = st.sampled_from(sorted(set(text)) + CONTROL + ["9" * 40, "-", ";", "\n"]) | st.text(max_size=3)
    edits = st.lists(st.tuples(st.integers(0, len(text)), pieces), max_size=6)
    return edits.map(lambda changes: _apply(text, changes))


def _apply(text: str, changes: list[tuple[int, str]]) -> str:
    for where, piece in sorted(changes, reverse=True):
        text = text[:where] + piece + text[where:]
    return text


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                               st.sampled_from(["rows", "width", "height", "surface", "bars_right", "kind",
                                                "entries", "cells", "x"]), inner, max_size=5),
                           max_leaves=12)


@FUZZ
@given(text=near(GRID_TEXT))
def test_fuzz_grid_text(workdir: Path, text: str) -> None:
    keeps_promise("crossword", "lights", fresh(workdir, text))


@FUZZ
@given(data=st.dictionaries(st.sampled_from(["rows", "width", "height", "surface", "bars_right", "bars_below"]),
                            json_values, max_size=6))
def test_fuzz_grid_json(workdir: Path, data: dict) -> None:
    keeps_promise("crossword", "show", fresh(workdir, json.dumps(data), ".json"))


@FUZZ
@given(text=near(QXW_TEXT), cut=st.integers(0, len(QXW_TEXT)))
def test_fuzz_qxw(workdir: Path, text: str, cut: int) -> None:
    keeps_promise("crossword", "show", fresh(workdir, text[: max(cut, 20)], ".qxw"))


@FUZZ
@given(lines=st.lists(st.sampled_from(["CAT", "DOG", "ABC;50", "XYZ;" + "9" * 50, "été", "cat's", ";", ""])
                      | st.text(max_size=12), max_size=12),
       compress=st.booleans())
def test_fuzz_word_list(workdir: Path, lines: list[str], compress: bool) -> None:
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    keeps_promise("crossword", "fill", fresh(workdir, TINY_GRID), "--dict",
                  fresh(workdir, gzip.compress(data) if compress else data), "--time-limit", "5")


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    out = tmp_path_factory.mktemp("pack") / "p"
    code, stderr, problem = run_in_process(["pack", "slider", "--out", str(out), "--count", "1", "--depth", "3",
                                            "--workers", "1"])
    assert code == 0 and problem is None, stderr
    return [json.loads(p.read_text()) for p in sorted((out / "puzzles").glob("*.json"))]


@FUZZ
@given(key=st.sampled_from(["board", "start", "goal", "solution", "blanks", "kind", "id", "stats", "title"]),
       value=json_values)
def test_fuzz_render_puzzle(workdir: Path, puzzles: list[dict], key: str, value: object) -> None:
    puzzle = puzzles[0] | {key: value}
    keeps_promise("render", fresh(workdir, json.dumps(puzzle), ".json"), "--out", str(workdir / "page.html"))


OPTION_VALUES = st.sampled_from(["-1", "0", "abc", "nan", "inf", "9" * 25, "", "1e9", "0.01"]) | st.text(max_size=6)


@FUZZ
@given(option=st.sampled_from(["--count", "--width", "--height", "--workers", "--seed", "--time-limit",
                               "--min-score", "--max-seam-crossings", "--max-length", "--max-blocks", "--surface",
                               "--executor"]),
       value=OPTION_VALUES)
def test_fuzz_pack_options(workdir: Path, option: str, value: str) -> None:
    foreign = workdir / "someone-else"
    foreign.mkdir(exist_ok=True)
    (foreign / "index.html").write_text("not a pack")  # a run that gets past its options stops here
    keeps_promise("pack", "crossword", "--out", str(foreign), "--count", "1", option, value)
