"""`mobius bench` on a user's own instances: a folder of grids (text and .qxw) with a word list, and a slider
board with starts and their known optimal lengths — run by every solver with the suites' guarantees (answers
verified, solvers agreeing, a wrong known length a disagreement and exit 1), and bad input refused in one
line naming it before anything runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.test_cli_inputs import mobius, refused

ROOT = Path(__file__).resolve().parents[2]
VANBEEK = ROOT / "benchmarks" / "data" / "crossword" / "vanbeek"
QXW_GRID = ROOT / "tests" / "crossword" / "fixtures"


def grid_folder(tmp: Path) -> Path:
    folder = tmp / "grids"
    folder.mkdir()
    for name in ("05.01", "05.02"):
        shutil.copy(VANBEEK / f"{name}.txt", folder)
    qxw = sorted(QXW_GRID.glob("*.qxw"))
    assert qxw, "a .qxw fixture"
    shutil.copy(qxw[0], folder / "from-qxw.qxw")
    return folder


def test_a_folder_of_grids_runs_with_every_solver_and_a_bad_file_is_refused_naming_it(tmp_path: Path) -> None:
    folder = grid_folder(tmp_path)
    out = tmp_path / "out"
    done = mobius("bench", "--grids", folder, "--dict", "words", "--solvers", "reference,cpsat", "--time-limit", 30,
                  "--out", out, timeout=600)
    assert done.returncode == 0, done.stderr
    saved = json.loads((out / "records.json").read_text())
    assert {r["instance"] for r in saved["records"]} == {"05.01", "05.02", "from-qxw"}
    assert all(r["verified"] for r in saved["records"] if r["status"] == "SOLVED")
    assert saved["meta"]["suite"] == "grids" and {row["solver"] for row in saved["summary"]} == {
        "reference", "cpsat", "virtual best"}
    (folder / "zz-bad.txt").write_text("..x\n")
    refused("bench", "--grids", folder, "--dict", "words", "--out", tmp_path / "out2", match="zz-bad.txt")
    assert not (tmp_path / "out2" / "records.json").exists()


def test_two_grids_of_one_name_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(VANBEEK / "05.01.txt", tmp_path / "a")
    shutil.copy(VANBEEK / "05.02.txt", tmp_path / "b" / "05.01.txt")
    refused("bench", "--grids", tmp_path / "a", "--grids", tmp_path / "b", "--out", tmp_path / "out",
            match="two grids named '05.01'")


@pytest.mark.parametrize(("known", "exit_code"), [("1", 0), ("5", 1)])
def test_slider_starts_run_with_every_solver_and_a_wrong_known_length_disagrees(tmp_path: Path, known: str,
                                                                                exit_code: int) -> None:
    # The 8-puzzle's goal has tile i on vertex i; the blank moved one step right is one move away.
    starts = tmp_path / "starts.txt"
    starts.write_text(f"# one move\n1 0 2 3 4 5 6 7 8 = {known}\n3 1 2 0 4 5 6 7 8\n")
    out = tmp_path / "out"
    done = mobius("bench", "--board", "grid:3x3", "--starts", starts, "--time-limit", 60, "--out", out, timeout=600)
    assert done.returncode == exit_code, done.stderr
    records = json.loads((out / "records.json").read_text())["records"]
    assert {r["solver"] for r in records} == {"bfs", "astar", "idastar", "cpsat"}
    assert {r["instance"] for r in records} == {"start-2", "start-3"}  # named by line
    assert all(r["length"] == 1 for r in records)
    if exit_code:
        assert "expected optimal length 5" in done.stderr


@pytest.mark.parametrize(("args", "match"), [
    (("--board", "grid:3x3", "--starts", "STARTS"), "entries, the board has 9 vertices"),
    (("--suite", "quick", "--grids", "GRIDS"), "not --suite and --grids"),
    (("--starts", "STARTS"), "--board and --starts go together"),
    ((), "give one of a suite"),
])
def test_bad_user_instances_are_one_line(tmp_path: Path, args: tuple[str, ...], match: str) -> None:
    starts = tmp_path / "starts.txt"
    starts.write_text("1 0 2 3 4 5 6 7 = 1\n")
    given = [str(starts) if a == "STARTS" else str(VANBEEK) if a == "GRIDS" else a for a in args]
    refused("bench", *given, "--out", tmp_path / "out", match=match)


def test_a_three_line_suite_file_runs_and_a_bad_key_is_one_line(tmp_path: Path) -> None:
    grid_folder(tmp_path)
    suite = tmp_path / "mine.toml"
    suite.write_text('grids = ["grids"]\ndict = "words"\nmin_length = 2\n')  # paths relative to the file
    done = mobius("bench", "--suite", suite, "--solvers", "reference", "--out", tmp_path / "out", timeout=600)
    assert done.returncode == 0, done.stderr
    records = json.loads((tmp_path / "out" / "records.json").read_text())["records"]
    assert sorted(r["instance"] for r in records) == ["05.01", "05.02", "from-qxw"]
    suite.write_text('grid = ["grids"]\n')
    refused("bench", "--suite", suite, "--out", tmp_path / "out2", match=("mine.toml", "unknown key 'grid'"))


def test_a_users_suite_is_exported_instance_by_instance_as_export_instance_writes_one(tmp_path: Path) -> None:
    folder = grid_folder(tmp_path)
    out = tmp_path / "mzn"
    done = mobius("bench", "--grids", folder, "--dict", "words", "--export", "mzn", "--out", out)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["05.01.mzn", "05.02.mzn", "from-qxw.mzn"]
    single = tmp_path / "single.mzn"
    alone = mobius("export-instance", folder / "05.01.txt", "--format", "mzn", "--dict", "words", "--min-length", 2,
                   "--out", single)
    assert alone.returncode == 0, alone.stderr
    assert (out / "05.01.mzn").read_bytes() == single.read_bytes()
    refused("bench", "--grids", folder, "--dict", "words", "--export", "mzn", "--out", out, match="--force")
    starts = tmp_path / "starts.txt"
    starts.write_text("1 0 2 3 4 5 6 7 8 = 1\n")
    done = mobius("bench", "--board", "grid:3x3", "--starts", starts, "--export", "cnf", "--out", tmp_path / "cnf")
    assert done.returncode == 0 and (tmp_path / "cnf" / "start-1.cnf").read_text().startswith("c slider, exactly 1")
