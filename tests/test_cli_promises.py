"""The CLI keeps its promises on bad input, processes and files: each case a
user met (crossword grids, word lists, packs, render) ends in one clear line
on stderr and exit code 2, or in the documented behaviour.

In-process through typer's CliRunner, which goes through the same error
policy as the console script (`mobius.cli.MobiusGroup.main`); cases about
FIFOs, signals and processes run the real command in a subprocess.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mobius.cli import _os_error_message, app
from mobius.error_line import one_line

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "generators" / "examples" / "mobius-8x4.txt"
VANBEEK = ROOT / "benchmarks" / "data" / "crossword" / "vanbeek"
DEEP = 100_000


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def refused(*args: object, match: str = "") -> str:
    """Run; assert exit 2 with exactly one stderr line (containing `match`) and no traceback."""
    code, _, err = run(*args)
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("mobius: error: "), err
    assert match in err, err
    return err


def mobius_process(*args: object, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mobius", *map(str, args)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def small_pack(tmp_path: Path, name: str = "pack", *extra: str) -> Path:
    out = tmp_path / name
    code, _, err = run("pack", "slider", "--out", out, "--count", "2", "--depth", "3..4", "--workers", "1", *extra)
    assert code == 0, err
    return out


# --- crossword grids -----------------------------------------------------------------

def test_dev_zero_is_not_a_grid() -> None:
    refused("crossword", "show", "/dev/zero", match="not a regular file")


def test_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "grid.fifo"
    os.mkfifo(fifo)
    proc = mobius_process("crossword", "show", fifo)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "not a regular file" in err and len(err.splitlines()) == 1


def test_a_truncated_qxw_file_is_an_error_not_an_all_white_grid(tmp_path: Path) -> None:
    qxw = tmp_path / "cut.qxw"
    qxw.write_text("#QXW2v4 http://www.quinapalus.com\nGP 7 5 3 2 0 0\nTTL\n+Mobius\n")
    refused("crossword", "show", qxw, match="truncated")
    whole = (ROOT / "tests" / "crossword" / "fixtures" / "mobius-5x3.qxw").read_text()
    qxw.write_text(whole[: whole.index("SQ 2 1")])  # cut in the middle of the squares
    refused("crossword", "show", qxw, match="SQ")


@pytest.mark.parametrize("char", ["\v", "\f", "\x1c", "\x85", "\u2028", "\u2029"])
def test_a_line_break_character_inside_a_row_names_its_line(tmp_path: Path, char: str) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text(f"surface: mobius\n....\n..{char}..\n....\n", encoding="utf-8")
    refused("crossword", "show", grid, match=f"{grid}:3: unknown character")


def test_grid_size_is_bounded_before_building(tmp_path: Path) -> None:
    grid = tmp_path / "huge.txt"
    grid.write_text(("." * 10 + "\n") * 100_000)
    refused("crossword", "show", grid, match="is 1,100,000 bytes")
    grid.write_text(("." * 10 + "\n") * 100)
    refused("crossword", "show", grid, match="more than 64 rows")


def test_json_nested_deep_is_refused_everywhere(tmp_path: Path) -> None:
    deep = "[" * DEEP + "]" * DEEP
    grid = tmp_path / "grid.json"
    grid.write_text('{"rows": ' + deep + "}")
    refused("crossword", "show", grid, match="nested")
    puzzle = tmp_path / "puzzle.json"
    puzzle.write_text(deep)
    refused("render", puzzle, match="nested")
    out = tmp_path / "pack"
    out.mkdir()
    (out / "manifest.json").write_text('{"a": ' + deep + "}")
    refused("pack", "slider", "--out", out, "--resume", "--count", "1", "--workers", "1", match="nested")


def test_huge_integers_in_json_are_refused(tmp_path: Path) -> None:
    grid = tmp_path / "grid.json"
    grid.write_text('{"rows": ["..", ".."], "bars_right": [[' + "9" * 5000 + ", 0]]}")
    refused("crossword", "show", grid, match="more than 24 digits")


# --- word lists -----------------------------------------------------------------------

def test_a_5000_digit_score_is_refused(tmp_path: Path) -> None:
    words = tmp_path / "scored.txt"
    words.write_text("CAT;50\nDOG;" + "9" * 5000 + "\n")
    err = refused("crossword", "fill", EXAMPLE, "--dict", words, match="line 2: expected a score from 0 to 100")
    assert len(err) < 400


def test_a_gzip_bomb_is_refused_before_it_inflates(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as handle:
        block = b"\n" * (1 << 20)
        for _ in range(100):
            handle.write(block)
    assert bomb.stat().st_size < 1 << 20
    refused("crossword", "fill", EXAMPLE, "--dict", bomb, match="decompresses to more than")


def test_a_list_without_a_needed_length_is_an_error_naming_file_and_lengths(tmp_path: Path) -> None:
    words = tmp_path / "short.txt"
    words.write_text("AB\nCD\nEFG\n")
    refused("crossword", "fill", EXAMPLE, "--dict", words, match=f"{words}: no words of length 4, 11, 15")


# --- render ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_pack(tmp_path_factory.mktemp("render"))


def test_render_validates_the_puzzle_before_rendering(pack: Path, tmp_path: Path) -> None:
    puzzle = json.loads((pack / "puzzles" / "0001.json").read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(puzzle | {"solution": [None]}))
    refused("render", bad, "--out", tmp_path / "x.html", match="at .solution[0]")
    crossword = {"kind": "crossword", "entries": [None]}
    bad.write_text(json.dumps(crossword))
    refused("render", bad, "--out", tmp_path / "x.html", match="not a valid crossword puzzle")
    assert not (tmp_path / "x.html").exists()


def test_render_without_out_never_overwrites_the_packs_page(pack: Path) -> None:
    page = pack / "puzzles" / "0001.html"
    before = page.read_bytes()
    refused("render", pack / "puzzles" / "0001.json", match="already exists")
    assert page.read_bytes() == before


# --- pack options -----------------------------------------------------------------------

@pytest.mark.parametrize("surface", ["mobius", "plane"])
def test_an_impossible_grid_size_is_one_short_clear_error(tmp_path: Path, surface: str) -> None:
    # What is wrong and what to do, without the dozen rules of the pattern spec (once all in the line).
    line = refused("pack", "crossword", "--out", tmp_path / "p", "--width", "3", "--height", "3", "--count", "1",
                   "--surface", surface, match=f"no 3x3 {surface} grid keeps the pack's rules: ")
    assert line.rstrip().endswith("; try a larger grid (5x5 or more)") and len(line) <= 240, line
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize("option", ["--workers", "--count"])
def test_huge_numbers_are_refused_by_the_options(tmp_path: Path, option: str) -> None:
    refused("pack", "crossword", "--out", tmp_path / "p", option, "99999999999999999999",
            match=f"Invalid value for '{option}'")


def test_a_bad_dask_scheduler_is_one_clear_error_quickly(tmp_path: Path) -> None:
    started = time.monotonic()
    refused("pack", "slider", "--out", tmp_path / "p", "--executor", "dask", "--scheduler", "not an address",
            match="cannot reach the Dask scheduler")
    assert time.monotonic() - started < 30
    assert not (tmp_path / "p").exists()


def test_failed_starts_leave_nothing_behind(tmp_path: Path) -> None:
    out = tmp_path / "p"
    refused("pack", "slider", "--out", out, "--executor", "dask", match="needs --scheduler")
    refused("pack", "slider", "--out", out, "--depth", "40..50", "--count", "1", "--workers", "1",
            "--time-limit", "20", match="depth 40")
    assert not out.exists()
    small_pack(tmp_path, "p")  # the corrected command is not refused


def test_max_seam_crossings_minus_one_means_no_limit(tmp_path: Path) -> None:
    out = tmp_path / "p"
    code, _, err = run("pack", "crossword", "--out", out, "--count", "1", "--width", "7", "--height", "5",
                       "--workers", "1", "--max-seam-crossings", "-1")
    assert code == 0, err
    assert json.loads((out / "manifest.json").read_text())["parameters"]["max_seam_crossings"] is None


def test_a_folder_that_is_not_a_pack_is_refused_unless_forced(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "puzzles").mkdir(parents=True)
    (site / "index.html").write_text("my page")
    refused("pack", "slider", "--out", site, "--count", "1", match="not a pack")
    assert (site / "index.html").read_text() == "my page"
    (site / "index.html").unlink()
    (site / "puzzles" / "0001.json").write_text("{}")
    refused("pack", "slider", "--out", site, "--count", "1", match="not a pack")
    refused("pack", "slider", "--out", site, "--count", "1", "--resume", match="without a manifest")
    (site / "puzzles" / "0001.json").unlink()
    (site / "notes.txt").write_text("mine")
    small_pack(tmp_path, "site", "--force")
    assert (site / "notes.txt").read_text() == "mine" and (site / "manifest.json").exists()


def test_files_are_written_with_the_usual_permissions(pack: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    for path in [pack / "manifest.json", pack / "index.html", *(pack / "puzzles").iterdir()]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, path


# --- messages ---------------------------------------------------------------------------

def test_long_arguments_are_not_echoed_in_full(tmp_path: Path) -> None:
    long = "x" * 100_000
    err = refused("crossword", "fill", EXAMPLE, "--dict", long, match="no such word-list file")
    assert len(err) < 1000
    err = refused("crossword", "show", tmp_path / long[:200], match="no such file")
    assert len(err) < 1000
    assert len(one_line("y" * 100_000)) < 1000 and "\n" not in one_line("a\nb\n\nc")


def test_an_os_error_without_a_file_name_reads_well() -> None:
    assert _os_error_message(OSError("Timed out trying to connect")) == "Timed out trying to connect"
    assert _os_error_message(FileNotFoundError(2, "No such file or directory", "x.txt")) \
        == "x.txt: No such file or directory"


def test_a_solver_option_the_solver_lacks_is_one_line() -> None:
    refused("slider", "solve", "ring", "--start", "1 0 2 3 4 5 6 7 8", "--solver", "bfs:foo=1",
            match="unknown option 'foo'")
    refused("crossword", "fill", EXAMPLE, "--solver", "reference:max_backtracks=abc", match="max_backtracks")


def test_usage_errors_are_one_line_too() -> None:
    refused("pack", "crossword", "--count", "abc", match="'--count'")
    refused("crossword", "show", "--no-such-option", match="No such option")
    refused("no-such-command", match="No such command")


@pytest.mark.parametrize("command", [[], ["crossword"], ["crossword", "fill"], ["slider", "solve"],
                                     ["pack", "crossword"], ["pack", "slider"], ["render"], ["bench"]])
def test_help_shows_flags_without_a_type(command: list[str]) -> None:
    code, out, _ = run(*command, "--help")
    assert code == 0 and "Usage:" in out
    assert "<bool>" not in out


# --- processes ----------------------------------------------------------------------------

# Enough puzzles to be still running when interrupted, at any machine speed.
PACK_ARGS = ("pack", "crossword", "--count", "60", "--width", "9", "--height", "5", "--workers", "2")


def _processes() -> list[tuple[str, int, int]]:
    """(pid, parent pid, process group) of every live process, from /proc."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat_file.read_text()
        except OSError:  # gone meanwhile
            continue
        fields = text[text.rindex(")") + 2:].split()  # after "pid (name) "
        if fields[0] != "Z":  # a zombie has exited; only init's reaping is left
            found.append((stat_file.parent.name, int(fields[1]), int(fields[2])))
    return found


def _group_members(pgid: int) -> list[str]:
    return [pid for pid, _, group in _processes() if group == pgid]


def _children(pid: int) -> list[str]:
    return [child for child, parent, _ in _processes() if parent == pid]


@pytest.mark.parametrize("delay", [0.6, 4.0])
def test_ctrl_c_prints_one_line_and_leaves_no_process(tmp_path: Path, delay: float) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while
    workers start up and while they run."""
    proc = mobius_process(*PACK_ARGS, "--out", tmp_path / "p", start_new_session=True)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    said = [line for line in err.splitlines() if not line.startswith("note: ")]  # the pack plan's notes may precede it
    assert len(said) == 1 and "interrupted" in said[0], err
    deadline = time.monotonic() + 10
    while _group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_members(proc.pid)


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    out = tmp_path / "p"
    proc = mobius_process(*PACK_ARGS, "--out", out, start_new_session=True)
    deadline = time.monotonic() + 120
    children: list[str] = []
    while time.monotonic() < deadline and len(children) < 3:  # two workers and the resource tracker
        children = _children(proc.pid)
        time.sleep(0.1)
    assert len(children) >= 3
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(map(_alive, children)):
        time.sleep(0.1)
    assert not any(map(_alive, children))


def _alive(pid: str) -> bool:
    """Running, not a zombie waiting to be reaped by init."""
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def test_ctrl_c_while_a_compiled_module_loads_is_an_interruption(capsys: pytest.CaptureFixture[str]) -> None:
    """OR-Tools interrupted in its initialisation raises ImportError from the KeyboardInterrupt."""
    import typer

    from mobius.cli import run_command

    app = typer.Typer()

    @app.command()
    def load() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise ImportError("initialization failed") from exc

    assert run_command(typer.main.get_command(app), "mobius", [], {}) == 130
    assert capsys.readouterr().err.strip() == "mobius: interrupted (SIGINT)"

    @app.command()
    def broken() -> None:
        raise ImportError("no module named nothing")

    with pytest.raises(ImportError):  # a real broken install still shows itself
        run_command(typer.main.get_command(app), "mobius", ["broken"], {})


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    assert run("--version") == (0, f"mobius {version('mobius-puzzles')}\n", "")


@pytest.mark.parametrize(("args", "said"), [
    (["--bogus"], "mobius: error: No such option: --bogus (see '"),
    (["pack", "crossword", "--width", "x"], "mobius: error: pack crossword: Invalid value for '--width'"),
])
def test_a_usage_error_names_the_tool_once(args: list[str], said: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith(said) and err.count("mobius:") == 1 and len(err.splitlines()) == 1
