"""Crossword packs keep their rules — checked here with code of the test's
own or the independent checkers (`pattern_check`, `mobius.cpmodel.crossword.verify`),
never with the generator's: seam lights, three-letter share, no repeated
answer, distinct fills and grids, quality figures; the plan replaces a grid
that does not fill, says up front when the pattern space is exhausted, and
its final check catches a broken pack."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter
from itertools import chain
from pathlib import Path
from typing import Any

import pytest
from lemminflect import getAllLemmas

from mobius.cpmodel.crossword.grid import make_grid
from mobius.cpmodel.crossword.lights import find_lights
from mobius.generators.crossword.clues import naming_none
from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.crossword.plan import CrosswordPlan
from mobius.generators.executors import PuzzleFailed
from mobius.generators.pack import build_pack
from mobius.generators.crossword.pattern_check import check_pattern
from mobius.generators.crossword.pattern_space import canonical_key
from mobius.generators.crossword.quality import pack_quality, puzzle_quality, summary_line
from tests.generators.test_export import MOBIUS_ROWS, PLANE_ROWS, build_crossword


def grid_of(puzzle: dict[str, Any]):
    return make_grid(["".join("#" if c == "#" else "." for c in row) for row in puzzle["rows"]], puzzle["surface"])


def assert_pack_rules(spec: CrosswordPackSpec, puzzles: dict[int, dict[str, Any]], *, grids_may_repeat: bool) -> None:
    assert sorted(puzzles) == list(range(spec.count))
    answers = Counter(e["answer"] for p in puzzles.values() for e in p["entries"])
    assert max(answers.values()) == 1, [a for a, n in answers.items() if n > 1]
    assert len({"/".join(p["rows"]) for p in puzzles.values()}) == spec.count
    keys = [canonical_key(grid_of(p)) for p in puzzles.values()]
    assert grids_may_repeat or len(set(keys)) == spec.count
    entries = [e for p in puzzles.values() for e in p["entries"]]
    assert sum(len(e["answer"]) == 3 for e in entries) <= 0.25 * len(entries)
    for puzzle in puzzles.values():
        # No two answers of one family in a puzzle (LET and LETS, SIT and SAT): their lemmas, by
        # lemminflect, and an answer with a final S taken off (ODDS and ODD).
        lemmas = Counter(lemma for e in puzzle["entries"]
                         for lemma in {e["answer"].lower(), e["answer"].lower().removesuffix("s"),
                                       *chain.from_iterable(getAllLemmas(e["answer"].lower()).values())})
        assert max(lemmas.values()) == 1, [lemma for lemma, n in lemmas.items() if n > 1]
        # Nor an answer of five letters or more beside one it begins (LEGIT and LEGITIMATE).
        words = [e["answer"] for e in puzzle["entries"]]
        assert not [(a, b) for a in words for b in words if a != b and len(a) >= 5 and b.startswith(a)]
        # No clue given twice in a puzzle where the answer had another (ATOP and ONTO both "Upon"),
        # nor one read as another, the same words before a comma (DON "Put on", APPLY "Put on, as
        # lotion"). The later of two such entries had none other: each of its clues is read so in
        # the puzzle or names another answer.
        def read_as(clue: str) -> str:
            return clue.partition(",")[0].strip(" ?!.").casefold()

        bank = spec.clue_bank()
        if bank is not None:
            seen: set[str] = set()
            for entry in puzzle["entries"]:
                if read_as(entry["clue"]) in seen:
                    others = [e["answer"] for e in puzzle["entries"] if e is not entry]
                    given = {read_as(e["clue"]) for e in puzzle["entries"]}
                    spare = [c for c in naming_none(bank.clues_of(entry["answer"]), others)
                             if read_as(c) not in given]
                    assert not spare, (entry["answer"], entry["clue"], spare)
                seen.add(read_as(entry["clue"]))
        grid = grid_of(puzzle)
        assert check_pattern(grid, spec.pattern_spec()) == []
        lights = find_lights(grid, 3).lights
        assert sum(1 for light in lights if light.seam_crossings) >= 2
        assert sum(light.length == 3 for light in lights) <= 0.25 * len(lights)
        assert spec.verify(puzzle) == []
        scores = [e["score"] for e in puzzle["entries"]]
        quality = puzzle["quality"]
        assert quality["entries"] == len(lights) == len(scores)
        assert quality["mean_score"] == round(sum(scores) / len(scores), 2)
        assert quality["seam_lights"] == sum(1 for light in lights if light.seam_crossings)
        assert quality["lowest"]["score"] == min(scores)


def test_a_default_pack_keeps_every_rule(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=10, width=9, height=7, surface="mobius", seed=4)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    assert_pack_rules(spec, puzzles, grids_may_repeat=False)
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["quality"]["puzzles"] == 10 and manifest["quality"]["seam_lights_min"] >= 2
    assert manifest["repeats"]["recurrences"] == 0 and not manifest["patterns"]["space"]["exhausted"]


def test_an_exhausted_pattern_space_is_said_up_front_and_grids_then_repeat(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=7, width=7, height=5, surface="mobius", seed=1, symmetry="rot180")  # 3 grids
    notes: list[str] = []
    puzzles = build_pack(spec, tmp_path / "p", exports=False, on_progress=lambda p: notes.extend(n for n in p.notes
                                                                                   if n not in notes))
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    found = manifest["patterns"]["space"]["grids_found"]
    assert found < spec.count and any(f"exactly {found} distinct grids" in n for n in notes)
    assert any("exhausted" in n for n in notes)
    assert_pack_rules(spec, puzzles, grids_may_repeat=True)
    assert manifest["patterns"]["space"]["exhausted"] and manifest["patterns"]["distinct_in_pack"] <= found


@pytest.mark.slow
def test_a_moderate_pack_has_no_duplicate_fills(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=120, width=7, height=5, surface="mobius", seed=2)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    assert len({"/".join(p["rows"]) for p in puzzles.values()}) == 120
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    # The repeat policy is checked afresh from the files: the final check would have refused the pack.
    recurring = manifest["repeats"]["recurring_lengths"]
    uses: dict[str, list[int]] = {}
    for index, puzzle in puzzles.items():
        for entry in puzzle["entries"]:
            uses.setdefault(entry["answer"], []).append(index)
    for word, where in uses.items():
        if len(where) > 1:
            gap = recurring[str(len(word))]["gap"]  # only a recurring length may repeat, and far apart
            assert min(b - a for a, b in zip(where, where[1:])) >= gap


def make_one(spec: CrosswordPackSpec, plan: CrosswordPlan, index: int) -> dict[str, Any]:
    """Run the plan's jobs for one puzzle until one makes it (as the pack runner does)."""
    for attempt in range(20):
        try:
            return spec.run_job(index, plan.job_input(index, attempt))
        except PuzzleFailed as exc:
            plan.failed(index, str(exc), puzzle=None, proven=exc.proven)
    raise AssertionError("no puzzle in 20 attempts")


def test_allow_repeats_lifts_the_pack_wide_ban_but_keeps_the_preference() -> None:
    strict = CrosswordPackSpec(count=20, width=9, height=7, surface="mobius")
    loose = dataclasses.replace(strict, allow_repeats=True)
    for spec, barred in ((strict, True), (loose, False)):
        plan = spec.plan()
        puzzle = make_one(spec, plan, 0)
        assert plan.judge(0, puzzle) is None
        plan.record(0, puzzle)
        job = plan.job_input(1, 0).assignment
        used = {e["answer"] for e in puzzle["entries"]}
        assert (used <= job.excluded) is barred and (not job.excluded) is not barred
        assert all(job.penalties.get(w, 0) > 0 for w in used) is not barred


def test_a_grid_that_does_not_fill_is_replaced() -> None:
    plan = CrosswordPackSpec(count=5, width=9, height=7, surface="mobius").plan()
    first = plan.job_input(0, 0).assignment
    plan.failed(0, "no fill", puzzle=None, proven=False)
    second = plan.job_input(0, 1).assignment
    assert second.pattern != first.pattern and first.pattern in plan.walk.retired  # it never filled


def test_a_clash_keeps_its_grid_and_mends_only_the_answers_taken() -> None:
    # The mend alone: the stages after it (the worst answer, the polish) take a
    # mended fill as they take any other, and may change more of it.
    spec = CrosswordPackSpec(count=5, width=9, height=7, surface="mobius", worst=0, polish=0)
    mended_any = False
    for attempt in range(4):  # a short answer taken by an earlier puzzle, one at a time
        plan = spec.plan()
        refused = make_one(spec, plan, 1)
        answers = [e["answer"] for e in refused["entries"]]
        taken = sorted(answers, key=lambda w: (len(w), w))[attempt]
        plan.ledger.add(0, [taken])  # an earlier puzzle, accepted meanwhile, holds it
        reason = plan.judge(1, refused)
        assert reason is not None and taken in reason
        plan.failed(1, reason, puzzle=refused, proven=False)
        avoid = plan.job_input(1, int(refused["rejected"]) + 1)
        job = avoid.assignment
        assert job.pattern == plan.walk.current(1) and job.start == tuple(refused["rows"]) and taken in job.excluded
        try:
            made = spec.run_job(1, avoid)
        except PuzzleFailed:
            continue  # not mendable in place, and the fresh fill of its grid ran out of budget
        kept = [e["answer"] for e in made["entries"]]
        assert taken not in kept and spec.verify(made) == [] and plan.judge(1, made) is None
        if "mended_entries" not in made["stats"]:
            continue  # not mendable in place: filled afresh
        mended_any = True
        assert made["stats"]["mended_entries"] == sum(a != b for a, b in zip(answers, kept)) >= 1
        # a light sharing no cell with the taken one or the lights crossing it keeps its answer
        bad = next(e for e in refused["entries"] if e["answer"] == taken)
        near = {tuple(c) for e in refused["entries"] if {tuple(c) for c in e["cells"]} & {tuple(c) for c in bad["cells"]}
                for c in e["cells"]}
        for before, after in zip(refused["entries"], made["entries"]):
            if not near & {tuple(c) for c in before["cells"]}:
                assert after["answer"] == before["answer"]
    assert mended_any


def test_the_final_check_finds_a_repeated_fill_grid_and_answer(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=3, width=9, height=7, surface="mobius", seed=8)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    plan = spec.plan()
    assert plan.final_problems(puzzles) == {}
    twice = {0: puzzles[0], 1: puzzles[1], 2: puzzles[0]}
    assert "the same fill as puzzle 1" in plan.final_problems(twice)[2]
    renamed = json.loads(json.dumps(puzzles[1]))
    renamed["entries"][0]["answer"] = puzzles[0]["entries"][0]["answer"]
    assert "is also in puzzle 1" in plan.final_problems({0: puzzles[0], 1: renamed})[1]


def mobius(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *args], capture_output=True, text=True, timeout=300)


def test_a_size_without_any_pattern_is_one_clear_error(tmp_path: Path) -> None:
    result = mobius("pack", "crossword", "--count", "2", "--width", "3", "--height", "3", "--out", str(tmp_path / "p"))
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("mobius: error:")]
    assert len(errors) == 1 and "no 3x3 mobius grid keeps the pack's rules" in errors[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "p").exists()


def test_a_seam_rule_on_the_plane_is_one_clear_error(tmp_path: Path) -> None:
    result = mobius("pack", "crossword", "--surface", "plane", "--width", "9", "--height", "9",
                    "--min-seam-lights", "2", "--out", str(tmp_path / "p"))
    assert result.returncode == 2 and "the plane has no seam" in result.stderr


def test_default_packs_of_seeds_zero_and_one_share_no_grid_and_no_fill(tmp_path: Path) -> None:
    """The Quick start's size: grids are compared up to the surface's isometries, by this test's own
    enumeration of shifts and mirrors of the Möbius rectangle."""
    packs = [build_pack(CrosswordPackSpec(count=6, width=11, height=5, seed=seed), tmp_path / str(seed), exports=False)
             for seed in (0, 1)]

    def images(puzzle: dict[str, Any]) -> set[str]:
        rows = ["".join("#" if c == "#" else "." for c in row) for row in puzzle["rows"]]
        width = len(rows[0])
        # The strip's cells in order along it: row y, then (across the seam) row H-1-y read on.
        band = ["".join(rows[y]) + "".join(rows[len(rows) - 1 - y]) for y in range(len(rows))]
        found = set()
        for shift in range(2 * width):
            for flip in (False, True):
                turned = [line[shift:] + line[:shift] for line in band]
                picked = [turned[y][:width] for y in range(len(rows))]
                found.add("/".join(reversed(picked) if flip else picked))
                found.add("/".join(row[::-1] for row in (reversed(picked) if flip else picked)))
        return found

    zero, one = (list(pack.values()) for pack in packs)
    assert not {"/".join(p["rows"]) for p in zero} & {"/".join(p["rows"]) for p in one}
    assert not set().union(*map(images, zero)) & {"/".join("".join("#" if c == "#" else "." for c in r)
                                                            for r in p["rows"]) for p in one}


def test_the_summary_speaks_of_seams_only_for_a_pack_that_has_them() -> None:
    plane = summary_line(pack_quality([build_crossword(PLANE_ROWS)]))
    assert "seam" not in plane and plane.startswith("quality: 1 puzzles")
    strip = build_crossword(MOBIUS_ROWS, "mobius")
    crossing = sum(1 for e in strip["entries"] if e["seam_crossings"])
    assert crossing > 0 and f"seam lights >= {crossing} per puzzle" in summary_line(pack_quality([strip]))


def blocks_per_cell(rows: list[str]) -> float:
    return sum(row.count("#") for row in rows) / sum(len(row) for row in rows)


def test_the_quality_report_gives_the_block_share_of_each_puzzle_and_the_packs_mean_and_most() -> None:
    strip, plane = build_crossword(MOBIUS_ROWS, "mobius"), build_crossword(PLANE_ROWS)
    shares = [blocks_per_cell(MOBIUS_ROWS), blocks_per_cell(PLANE_ROWS)]
    assert [puzzle_quality(p)["block_share"] for p in (strip, plane)] == [round(s, 4) for s in shares]
    quality = pack_quality([strip, plane])
    mean = sum(round(s, 4) for s in shares) / 2
    assert (quality["block_share_mean"], quality["block_share_max"]) == (round(mean, 4), round(max(shares), 4))
    assert f"{mean:.0%} blocks (at most {max(shares):.0%} a grid)" in summary_line(quality)


def test_max_blocks_caps_the_block_share_of_every_grid_and_is_recorded(tmp_path: Path) -> None:
    spec = CrosswordPackSpec(count=3, width=11, height=5, seed=7, max_blocks=0.2)
    puzzles = build_pack(spec, tmp_path / "pack", exports=False)
    assert max(blocks_per_cell(p["rows"]) for p in puzzles.values()) <= 0.2
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text())
    assert manifest["parameters"]["max_blocks"] == 0.2
    assert "max_blocks" not in dataclasses.replace(spec, max_blocks=None).parameters()
    # On the plane it lowers the American ceiling; a ceiling under the floor takes the floor with it.
    plane = CrosswordPackSpec(count=1, width=15, height=15, surface="plane", max_blocks=0.12)
    assert plane.pattern_spec().density == (0.10, 0.12)
    assert dataclasses.replace(plane, max_blocks=0.05).pattern_spec().density == (0.05, 0.05)


def test_the_quality_report_lists_the_word_families_used_twice() -> None:
    first, second = build_crossword(PLANE_ROWS), build_crossword(PLANE_ROWS)
    assert pack_quality([first])["families_twice"] == []  # one puzzle: its fill keeps families apart
    first["entries"][0]["answer"], second["entries"][0]["answer"] = "USE", "USED"
    quality = pack_quality([first, second])
    assert ["USE", "USED"] in quality["families_twice"]
    line = summary_line(quality)
    assert f"{len(quality['families_twice'])} word famil" in line and "USE/USED" in line


def test_a_recurring_answer_gets_a_clue_it_has_not_had_while_it_has_one(tmp_path: Path) -> None:
    # With repeats allowed, answers recur within a round too, where a job cannot know the clues of
    # the puzzles judged before it: the plan clues each puzzle again as it joins the pack.
    spec = CrosswordPackSpec(count=12, width=7, height=5, surface="mobius", seed=5, allow_repeats=True)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    bank = spec.clue_bank()
    assert bank is not None
    given: dict[str, Counter[str]] = {}
    for puzzle in puzzles.values():
        for entry in puzzle["entries"]:
            given.setdefault(entry["answer"], Counter())[entry["clue"]] += 1
    recurrences = sum(uses.total() - 1 for uses in given.values())
    # whatever order the puzzles joined in, no clue of an answer is given twice more than another
    uneven = {answer: uses for answer, uses in given.items()
              if max(uses.values()) - min(uses[clue] for clue in bank.clues_of(answer)) >= 2}
    assert uneven == {}
    assert recurrences >= 5  # the pack does test rotation
    assert all(spec.verify(puzzle) == [] for puzzle in puzzles.values())  # difficulty figures follow the clues


def test_a_small_pack_with_repeats_allowed_does_not_refill_one_fill_forever(tmp_path: Path) -> None:
    # The 5x5 plane rules allow 15 grids and 7 of them fill: with repeats allowed nothing barred a
    # fill the pack already had, so its mend changed nothing and each new fill of the grid came out
    # the same, 60 times over (7 of these 30 puzzles were given up). The refused fill's worst answer
    # is now barred from the puzzle's next attempts.
    spec = CrosswordPackSpec(count=30, width=5, height=5, surface="plane", seed=4242, allow_repeats=True)
    puzzles = build_pack(spec, tmp_path / "p", exports=False)
    assert len(puzzles) == 30
    assert len({"/".join(p["rows"]) for p in puzzles.values()}) == 30
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["counts"]["rejected"] < 30


def plural_s(answer: str) -> bool:
    """An S-plural or -S verb by lemminflect's lemmas, read here without the tool's own test."""
    lower = answer.lower()
    lemmas = {lemma for found in getAllLemmas(lower).values() for lemma in found} - {lower}
    return any(lower in (f"{lemma}s", f"{lemma}es", f"{lemma[:-1]}ies") for lemma in lemmas)


def test_max_plurals_caps_the_plural_s_entries_of_every_grid_and_the_report_counts_them(tmp_path: Path) -> None:
    result = mobius("pack", "crossword", "--count", "3", "--seed", "9", "--max-plurals", "1", "--no-clues",
                    "--out", str(tmp_path / "p"))
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert manifest["parameters"]["max_plurals"] == 1
    counts = []
    for path in sorted((tmp_path / "p" / "puzzles").glob("*.json")):
        puzzle = json.loads(path.read_text())
        counts.append(sum(plural_s(e["answer"]) for e in puzzle["entries"]))
        assert puzzle["quality"]["plural_s"] == counts[-1]
    assert len(counts) == 3 and max(counts) <= 1
    assert manifest["quality"]["plural_s_max"] == max(counts)
    assert f"at most {max(counts)} plural-S a grid" in result.stderr


def test_the_plural_cap_by_default_grows_with_the_grid_and_leaves_given_grids_alone() -> None:
    assert CrosswordPackSpec(count=1, width=11, height=5).plural_cap == 2
    assert CrosswordPackSpec(count=1, width=5, height=5, surface="plane").plural_cap == 2
    assert CrosswordPackSpec(count=1, width=15, height=15, surface="plane").plural_cap == 6
    assert CrosswordPackSpec(count=1, width=21, height=21, surface="plane").plural_cap == 12
    assert CrosswordPackSpec(count=1, width=11, height=5, max_plurals=-1).plural_cap is None
    given = CrosswordPackSpec(count=1, width=3, height=3, surface="plane", patterns=(("...", "...", "..."),))
    assert given.plural_cap is None and given.rules().cap is None
    assert dataclasses.replace(given, max_plurals=0).rules().cap.most == 0
