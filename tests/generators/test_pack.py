"""Packs: byte-identical across worker counts and executors, complete after an
interrupt and resume, every puzzle re-checked, bad requests refused. (The
crossword pack's rules are tested in test_crossword_pack.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.pack import PackError, build_pack, by_reason, derive_seed
from mobius.generators.slider.pack import SliderPackSpec, parse_depths

CROSSWORD = CrosswordPackSpec(count=5, width=9, height=7, surface="mobius", seed=11, time_limit=20.0)
SLIDER = SliderPackSpec(count=6, board="ring", depth_min=3, depth_max=8, seed=5)


def puzzle_bytes(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "puzzles").iterdir())}


def test_derive_seed_is_stable_and_spreads() -> None:
    # a golden value: the same seed in every process, whatever its hash seed
    assert derive_seed(1, 2, 3) == 5689346328975807818
    assert len({derive_seed(0, i) for i in range(1000)}) == 1000


def test_a_pack_is_the_same_bytes_under_any_hash_seed(tmp_path: Path) -> None:
    # Python salts hash() per process: a pack made twice in one process could not show a choice resting on it.
    made = {}
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        done = subprocess.run([sys.executable, "-m", "mobius", "pack", "crossword", "--surface", "plane", "--width", "5",
                               "--height", "5", "--count", "2", "--seed", "3", "--out", str(out)],
                              env={**os.environ, "PYTHONHASHSEED": hash_seed}, capture_output=True, text=True,
                              check=False, timeout=600)
        assert done.returncode == 0, done.stderr
        made[hash_seed] = puzzle_bytes(out)
    assert made["1"] == made["2"] and len([name for name in made["1"] if name.endswith(".json")]) == 2


@pytest.mark.parametrize("spec", [CROSSWORD, SLIDER], ids=["crossword", "slider"])
def test_same_seed_same_bytes_whatever_the_worker_count(tmp_path: Path, spec) -> None:
    build_pack(spec, tmp_path / "one", workers=1)
    build_pack(spec, tmp_path / "two", workers=2)
    one, two = puzzle_bytes(tmp_path / "one"), puzzle_bytes(tmp_path / "two")
    assert one == two
    assert len([n for n in one if n.endswith(".json")]) == spec.count
    manifest = json.loads((tmp_path / "one" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["counts"]["written"] == spec.count
    assert manifest["parameters"]["seed"] == spec.seed
    # Every puzzle's job time, as wall and as CPU seconds of the worker that ran it.
    timings = json.loads((tmp_path / "two" / "manifest.json").read_text())["timings"]
    ids = {f"{i + 1:04d}" for i in range(spec.count)}
    assert set(timings["per_puzzle_cpu_s"]) == set(timings["per_puzzle_s"]) == ids
    assert all(t >= 0 for t in timings["per_puzzle_cpu_s"].values()) and sum(timings["per_puzzle_cpu_s"].values()) > 0


def test_crossword_pack_puzzles_are_valid_and_distinct(tmp_path: Path) -> None:
    puzzles = build_pack(CROSSWORD, tmp_path / "p")
    assert len({"/".join(p["rows"]) for p in puzzles.values()}) == CROSSWORD.count
    for puzzle in puzzles.values():
        assert CROSSWORD.verify(puzzle) == []
        answers = [e["answer"] for e in puzzle["entries"]]
        assert len(answers) == len(set(answers)), "no answer repeated within a puzzle"
        assert all(e["seam_crossings"] <= 1 for e in puzzle["entries"])
        assert puzzle["glue"]["right"] == [puzzle["height"] - 1 - y for y in range(puzzle["height"])]


def test_no_answer_repeats_across_a_default_pack(tmp_path: Path) -> None:
    puzzles = build_pack(CROSSWORD, tmp_path / "u", workers=2)
    answers = [e["answer"] for p in puzzles.values() for e in p["entries"]]
    assert len(answers) == len(set(answers))


def test_slider_depths_spread_evenly_and_solutions_replay(tmp_path: Path) -> None:
    puzzles = build_pack(SLIDER, tmp_path / "s")
    assert [puzzles[i]["length"] for i in range(SLIDER.count)] == [3, 4, 5, 6, 7, 8]
    assert len({tuple(p["start"]) for p in puzzles.values()}) == SLIDER.count
    for puzzle in puzzles.values():
        assert SLIDER.verify(puzzle) == []


def test_a_corrupted_puzzle_is_caught_by_the_check(tmp_path: Path) -> None:
    puzzles = build_pack(SLIDER, tmp_path / "s")
    bad = dict(puzzles[0], solution=puzzles[0]["solution"][:-1])
    assert SLIDER.verify(bad)
    cw = build_pack(CROSSWORD, tmp_path / "c")
    rows = list(cw[0]["rows"])
    first = rows[0].index(next(ch for ch in rows[0] if ch != "#"))
    rows[0] = rows[0][:first] + ("Q" if rows[0][first] != "Q" else "X") + rows[0][first + 1:]
    assert CROSSWORD.verify(dict(cw[0], rows=rows))


def test_existing_pack_is_not_overwritten_and_resume_checks_parameters(tmp_path: Path) -> None:
    build_pack(SLIDER, tmp_path / "s")
    with pytest.raises(PackError, match="already holds a pack"):
        build_pack(SLIDER, tmp_path / "s")
    other = SliderPackSpec(count=6, board="ring", depth_min=3, depth_max=8, seed=6)
    # the line names what differs, in the manifest's words
    with pytest.raises(PackError, match=r"different parameters than the pack was started with \(seed 5 then, 6 now\)"):
        build_pack(other, tmp_path / "s", resume=True)


def test_a_failed_packs_line_gives_each_reason_once_with_its_puzzles() -> None:
    # Once "puzzle 1: R; puzzle 2: R; puzzle 3: R": the same reason as often as puzzles failed.
    assert by_reason({0: "no fill", 1: "no fill", 2: "no fill", 4: "a clash"}) == \
        "puzzles 1, 2 and 3: no fill; puzzle 5: a clash"
    assert by_reason({i: "no fill" for i in range(9)}) == "puzzles 1, 2, 3, 4, 5 and 4 more: no fill"
    assert by_reason({i: f"reason {i}" for i in range(5)}).endswith("puzzle 3: reason 2; and 2 other reasons")


def test_parse_depths() -> None:
    assert parse_depths("4..9") == (4, 9) and parse_depths("7") == (7, 7)
    from mobius.cpmodel.errors import InputError
    with pytest.raises(InputError):
        parse_depths("9..4")


def _mobius(*args: str) -> list[str]:
    return [sys.executable, "-m", "mobius", *args]


def test_interrupt_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    args = ["pack", "crossword", "--count", "8", "--width", "9", "--height", "5", "--seed", "21", "--workers", "2"]
    subprocess.run(_mobius(*args, "--out", str(tmp_path / "whole")), check=True, capture_output=True, timeout=600)
    part = tmp_path / "part"
    proc = subprocess.Popen(_mobius(*args, "--out", str(part)), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list((part / "puzzles").glob("*.json"))) < 2:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    written = list((part / "puzzles").glob("*.json"))
    assert len(written) >= 2
    for path in written:
        json.loads(path.read_text())  # every file present is whole
    resumed = subprocess.run(_mobius(*args, "--out", str(part), "--resume"), capture_output=True, text=True,
                             timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    whole, again = puzzle_bytes(tmp_path / "whole"), puzzle_bytes(part)
    assert again == whole  # stale temporary files of the killed run are gone too


@pytest.mark.parametrize("spec", [CROSSWORD, SLIDER], ids=["crossword", "slider"])
def test_dask_executor_gives_the_same_bytes(tmp_path: Path, spec) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        build_pack(spec, tmp_path / "dask", executor="dask", scheduler=client)
    build_pack(spec, tmp_path / "local", workers=1)
    assert puzzle_bytes(tmp_path / "dask") == puzzle_bytes(tmp_path / "local")


def test_puzzle_files_follow_the_json_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[2] / "generators" / "schema" / "puzzle.schema.json")
                        .read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    # a plane puzzle has no seam, so its quality holds no seam count: the schema must take it as it is
    plane = CrosswordPackSpec(count=2, width=5, height=5, surface="plane", seed=3, time_limit=20.0)
    for spec, name in ((CROSSWORD, "c"), (plane, "p"), (SLIDER, "s")):
        for puzzle in build_pack(spec, tmp_path / name).values():
            jsonschema.validate(puzzle, schema, cls=jsonschema.Draft202012Validator)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"kind": "slider", "board": {}}, schema, cls=jsonschema.Draft202012Validator)


def test_the_exports_a_pack_could_not_write_are_named_with_why(capsys: pytest.CaptureFixture[str]) -> None:
    from mobius.pack_cli import SKIPPED_SHOWN, say_skipped

    groups = [{"format": f".f{n}", "count": n + 1, "reason": f"reason {n}", "puzzles": []}
              for n in range(SKIPPED_SHOWN + 2)]
    say_skipped(groups)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "not written: 1 .f0 file(s), reason 0"
    assert len(lines) == SKIPPED_SHOWN + 1
    hidden = (SKIPPED_SHOWN + 1) + (SKIPPED_SHOWN + 2)  # the counts of the two groups not shown
    assert lines[-1] == f"not written: {hidden} more files, listed in the manifest"
