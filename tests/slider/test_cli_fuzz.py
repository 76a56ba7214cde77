"""Fuzzing every slider parser through the command line.

Each parser — board specs, board JSON files, edge-list files, `--start`,
`--depth` — gets hypothesis-made input, mostly malformed, through
`mobius.cli.main` in this process (the one place where bad input becomes a
line and exit code 2): the command must exit 2 with exactly one line on
stderr, nothing on stdout and no exception escaping, or succeed on input
that is valid. A few real subprocesses check the same promise end to end
for the cases that once hung or crashed (a FIFO, /dev/zero, 10⁹ vertex ids,
5,000 digits, JSON nested 100,000 deep).

`MOBIUS_FUZZ_EXAMPLES` sets the examples per parser (default 150: a few
seconds each).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mobius.cli import main

EXAMPLES = int(os.environ.get("MOBIUS_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

BAD_INPUT = 2


def run_main(*args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `mobius ARGS`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["mobius", *args]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


def assert_one_clear_line(code: int, out: str, err: str) -> None:
    assert code == BAD_INPUT, (code, out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("mobius: error: ") and "Traceback" not in err
    assert len(err) < 600, "a long value was echoed in full"


def assert_bad_or_fine(code: int, out: str, err: str, fine: tuple[int, ...] = (0,)) -> None:
    if code == BAD_INPUT:
        assert_one_clear_line(code, out, err)
    else:
        assert code in fine, (code, out, err)
        assert err == ""


# --- strategies ---------------------------------------------------------------------------

HUGE = st.one_of(st.integers(10 ** 5, 10 ** 40), st.just(10 ** 9), st.integers(-10 ** 6, -1))
DIGITS = st.integers(1, 6000).map(lambda k: "9" * k)
NUMBER_TEXT = st.one_of(st.integers(0, 40).map(str), HUGE.map(str), DIGITS,
                        st.sampled_from(["", "x", "+3", "3.0", "1e3", "\u0663", "\u00b3", "0x10", "nan", " "]))


def board_specs() -> st.SearchStrategy[str]:
    presets = st.sampled_from(["ring", "theta0", "petersen", "grid", "cycle", "path", "square", "ring:3"])
    sizes = st.one_of(st.integers(0, 40).map(str), NUMBER_TEXT)
    return st.one_of(
        st.text(max_size=40),
        st.builds(lambda kind, arg: f"{kind}:{arg}", presets, sizes),
        st.builds(lambda r, c: f"grid:{r}x{c}", sizes, sizes),
        st.builds(lambda r, sep, c: f"grid:{r}{sep}{c}", st.integers(0, 30), st.sampled_from(["X", "*", "x x", ""]),
                  st.integers(0, 30)),
    )


def json_values(max_leaves: int = 20) -> st.SearchStrategy[object]:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-5, 12), HUGE, st.floats(allow_nan=True),
                       st.text(max_size=8))
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                        max_leaves=max_leaves)


@st.composite
def board_json_texts(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:  # a board-shaped object with one or more fields wrong
        n = draw(st.one_of(st.integers(-2, 12), json_values(3)))
        data = {"vertices": n,
                "edges": draw(st.one_of(st.lists(st.lists(st.integers(-1, 12), max_size=3), max_size=14),
                                        json_values(5)))}
        for key in ("layout", "names", "name"):
            if draw(st.booleans()):
                data[key] = draw(json_values(6))
        return json.dumps(data)
    if kind == 1:  # any JSON at all
        return json.dumps(draw(json_values()))
    if kind == 2:  # JSON-looking text that is not JSON, deep nesting, long numbers
        return draw(st.one_of(st.text(max_size=60).map(lambda t: "{" + t),
                              st.integers(1, 200_000).map(lambda d: "[" * d + "]" * d),
                              st.integers(1, 200_000).map(lambda d: '{"a":' * d + "1" + "}" * d),
                              DIGITS.map(lambda d: '{"vertices": ' + d + ', "edges": []}')))
    return json.dumps(draw(json_values())).replace('"', "", draw(st.integers(0, 3)))  # broken quotes


@st.composite
def edge_list_texts(draw: st.DrawFn) -> str:
    token = st.one_of(st.integers(0, 12).map(str), NUMBER_TEXT)
    line = st.one_of(st.builds(lambda u, v: f"{u} {v}", token, token),
                     st.builds(lambda u, v: f"{u},{v}", token, token),
                     st.lists(token, max_size=4).map(" ".join),
                     st.text(max_size=20), st.just("# a comment"), st.just(""))
    return "\n".join(draw(st.lists(line, max_size=16)))


def state_texts() -> st.SearchStrategy[str]:
    tiles = st.lists(st.one_of(st.integers(0, 6).map(str), NUMBER_TEXT), max_size=9)
    return st.one_of(tiles.map(" ".join), tiles.map(",".join), st.permutations(range(6)).map(
        lambda p: " ".join(map(str, p))), st.text(max_size=30), st.text(max_size=20).map(lambda t: "@" + t))


def possible_on_grid_2x3(text: str) -> bool:
    """Is `text` MIN or MIN..MAX (whole numbers, spaces around allowed) with MIN <= MAX <= 21, grid:2x3's farthest?"""
    parts = [part.strip() for part in text.split("..")]
    if len(parts) > 2 or not all(part.isascii() and part.isdigit() and len(part) <= 30 for part in parts):
        return False
    return int(parts[0]) <= int(parts[-1]) <= 21


def depth_texts() -> st.SearchStrategy[str]:
    number = st.one_of(st.integers(0, 2000).map(str), NUMBER_TEXT)
    return st.one_of(st.text(max_size=20), st.builds(lambda a, sep, b: f"{a}{sep}{b}", number,
                                                     st.sampled_from(["..", ".", "...", "-", " .. ", ":"]), number))


# --- the fuzz tests -----------------------------------------------------------------------

@FUZZ
@given(board_specs())
def test_fuzz_board_specs(spec: str) -> None:
    # "--": a spec such as "-0" is the argument, not an unknown option (click's usage errors are not ours).
    assert_bad_or_fine(*run_main("slider", "inspect", "--", spec))


@FUZZ
@given(board_json_texts())
def test_fuzz_board_json(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.json"
        path.write_text(text, encoding="utf-8")
        assert_bad_or_fine(*run_main("slider", "inspect", str(path)))


@FUZZ
@given(edge_list_texts())
def test_fuzz_edge_lists(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        assert_bad_or_fine(*run_main("slider", "inspect", str(path)))


@FUZZ
@given(state_texts(), st.sampled_from(["--start", "--goal"]))
def test_fuzz_states(text: str, option: str) -> None:
    other = "--goal" if option == "--start" else "--start"
    # 0 reachable, 1 unreachable: a valid state on grid:2x3 gets one of the two.
    assert_bad_or_fine(*run_main("slider", "check", "grid:2x3", f"{option}={text}", f"{other}=0 1 2 3 4 5"),
                       fine=(0, 1))


@FUZZ
@given(depth_texts())
def test_fuzz_depths(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "pack"
        if possible_on_grid_2x3(text):
            return  # a pack that can be built: see test_valid_inputs_still_work
        code, stdout, stderr = run_main("pack", "slider", "--board", "grid:2x3", "--count", "2", f"--depth={text}",
                                        "--out", str(out))
        assert_one_clear_line(code, stdout, stderr)
        assert not out.exists(), "a refused pack left files behind"


def test_valid_inputs_still_work(tmp_path: Path) -> None:
    board = tmp_path / "square.json"
    board.write_text(json.dumps({"vertices": 4, "edges": [[0, 1], [1, 2], [2, 3], [3, 0]],
                                 "layout": [[0, 0], [1, 0], [1, 1], [0, 1]], "names": list("abcd"), "name": "sq"}))
    edges = tmp_path / "square.txt"
    edges.write_text("0 1\n1,2\n2 3 # side\n3 0\n")
    state = tmp_path / "start.txt"
    state.write_text("0 2 1 3 4 5\n")
    assert run_main("slider", "inspect", str(board))[0] == 0
    assert run_main("slider", "inspect", str(edges))[0] == 0
    assert run_main("slider", "inspect", "grid:12x30")[0] == 0
    assert run_main("slider", "check", "grid:2x3", "--start", f"@{state}")[0] == 1  # odd: unreachable
    assert run_main("slider", "check", "grid:2x3", "--start", "1,0,2,3,4,5")[0] == 0
    code, out, err = run_main("pack", "slider", "--board", "grid:2x3", "--count", "2", "--depth", "3..21",
                              "--solver", "bfs", "--workers", "1", "--out", str(tmp_path / "pack"))
    assert code == 0, err
    lengths = sorted(json.loads(p.read_text())["length"] for p in (tmp_path / "pack" / "puzzles").glob("*.json"))
    assert lengths == [3, 21]


# --- the listed cases, end to end in real processes ------------------------------------------------

def _mobius(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("args", "message"), [
    (["slider", "inspect", "cycle:100000000"], "expected a whole number from 3 to 100,000, got 100,000,000"),
    (["slider", "inspect", "grid:10000x10000"], "has 100,000,000 vertices"),
    (["slider", "inspect", "{fifo}"], "not a regular file (a pipe, device or socket); expected a board file"),
    (["slider", "inspect", "/dev/zero"], "not a regular file (a pipe, device or socket); expected a board file"),
    (["slider", "inspect", "{huge-id}"], "huge-id.txt:1: vertex: expected a whole number from 0 to 99,999, "
                                         "got 1,000,000,000"),
    (["slider", "inspect", "{names}"], '"names" must be a list of 2 strings'),
    (["slider", "inspect", "{deep}"], "levels deep; a board JSON nests at most"),
    (["slider", "check", "grid:2x2", "--start", "0 1 2 " + "3" * 5000], "got a 5,000-digit number"),
    (["slider", "check", "grid:2x2", "--start", "1 2 3 1"], "start has no blank (0); expected 1"),
    (["slider", "inspect", "x" * 100_000], "(100,000 characters)"),
    (["pack", "slider", "--depth", "40..50", "--out", "{out}"], "no start on ring is 40 moves from the goal"),
])
def test_listed_cases_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    files = {"{fifo}": tmp_path / "fifo", "{huge-id}": tmp_path / "huge-id.txt", "{names}": tmp_path / "names.json",
             "{deep}": tmp_path / "deep.json", "{out}": tmp_path / "out"}
    os.mkfifo(files["{fifo}"])
    files["{huge-id}"].write_text("0 1000000000\n")
    files["{names}"].write_text('{"vertices": 2, "edges": [[0, 1]], "names": 5}')
    files["{deep}"].write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    done = _mobius(*[str(files.get(a, a)) for a in args])
    assert_one_clear_line(done.returncode, done.stdout, done.stderr)
    assert message in done.stderr
    assert not files["{out}"].exists()
