"""`mobius clues check FILE`, run as a user runs it: one line a flag naming the file, the line
and the rule, exit 1 when a clue is flagged, 0 when none is, 2 and one line for a file it
cannot read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mobius.generators.crossword.clues import load_bank


def clues_check(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", "clues", "check", *map(str, args)], capture_output=True,
                          text=True, check=False)


def test_every_broken_rule_is_flagged_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "clues.tsv"
    path.write_text("# an editor's file\n"
                    "CAT\tHouse pet that purrs\n"
                    "VETERINARY\tVet\n"
                    "KOREA\tAsian peninsula separating the Yellow Sea and the\n"
                    "\n"
                    "COLOR\tColour\n"
                    "RAN\tDid run quickly\n"
                    "QWERTZ\tA keyboard\n"
                    f"LONG\t{'Very ' * 20}long\n"
                    "DUPE\tSlang\n", encoding="utf-8")
    done = clues_check(path)
    assert done.returncode == 1, done.stderr
    flags = done.stdout.splitlines()
    assert "Traceback" not in done.stderr

    def flagged(line: int, rule: str) -> bool:
        return any(f.startswith(f"{path}:{line}: ") and rule in f for f in flags)

    assert flagged(3, "clipping")  # Vet for VETERINARY
    assert flagged(4, "cut off: ends on 'the'")
    assert flagged(6, "other spelling")  # Colour for COLOR
    assert flagged(7, "family")  # run for RAN
    assert flagged(8, "not in the en list")
    assert flagged(9, "too long")
    assert flagged(10, "usage label")  # Slang for DUPE
    assert not any(f.startswith(f"{path}:2: ") for f in flags)  # a fine clue


def test_a_blocked_term_is_flagged(tmp_path: Path) -> None:
    path = tmp_path / "clues.tsv"
    path.write_text("PARTY\tWhere to get wasted\nPARTY\tWhere they sell heroin\nSEATS\tArses\n", encoding="utf-8")
    done = clues_check(path)
    assert done.returncode == 1
    assert f"{path}:2: PARTY: uses a blocked term" in done.stdout
    assert f"{path}:3: SEATS: uses a blocked term" in done.stdout  # a plural the blocklist names
    assert f"{path}:1: " not in done.stdout


def test_clean_clues_pass_with_exit_0(tmp_path: Path) -> None:
    # The embedded bank's own clues of a few common words keep every rule.
    bank = load_bank()
    lines = [f"{word}\t{clue}" for word in ("CAT", "HOUSE", "RIVER", "WATER", "TENNIS") for clue in bank.clues_of(word)]
    assert len(lines) >= 5
    path = tmp_path / "clues.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = clues_check(path)
    assert (done.returncode, done.stdout) == (0, "")


@pytest.mark.parametrize("content", [None, "CAT Feline\n", b"\xff\xfe\x00bad"])
def test_unreadable_input_is_one_line_and_exit_2(tmp_path: Path, content: str | bytes | None) -> None:
    path = tmp_path / "clues.tsv"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif content is not None:
        path.write_bytes(content)
    done = clues_check(path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and str(path) in done.stderr


def test_the_pack_report_counts_the_clues_the_check_flags() -> None:
    from mobius.generators.crossword.quality import pack_quality

    entries = [{"answer": answer, "clue": clue, "score": 50, "seam_crossings": 0}
               for answer, clue in (("CAT", "House pet that purrs"), ("VETERINARY", "Vet"), ("RIVER", "Stream of the"),
                                    ("DOG", ""), ("STEP", "Footfall"), ("STAIRS", "Steps"))]
    puzzle = {"id": "0001", "surface": "plane", "rows": ["VETERINARY"], "entries": entries}  # rows: the block share
    # Vet and "Stream of the" for their text, "Steps" for naming STEP, another answer of the grid
    assert pack_quality([puzzle])["flagged_clues"] == 3


def test_the_faults_an_editor_marks_are_flagged_and_fair_clues_are_not(tmp_path: Path) -> None:
    faults = {  # the faults issue 46 names, each with the rule's words expected in its flag
        "CROSSINGS\tCrosswalks, e.g.": "made from", "GRANDCHILD\tGrandparent's joy": "made from",
        "STEPFATHER\tStepparent": "made from", "REDO\tDo again": "without its prefix",
        "REPAY\tPay back": "without its prefix", "FLASHLIGHT\tTorch": "British", "ELEVATOR\tLift": "British",
        "COOKIE\tBiscuit": "British", "GASOLINE\tPetrol": "British", "FLAT\tApartment": "British",
        "CRAVE\tYearn": "needs 'for'", "EVERY\tAll": "different number", "REP\tSalesperson": "shortening",
        "VET\tAnimal doctor": "shortening", "UMP\tBaseball official": "shortening", "GRAD\tAlum": "shortening",
        "TEACUP\tCup": "ends with", "WATCHDOG\tGuard dog": "ends with", "DOOMSDAY\tJudgment Day": "ends with",
    }
    fair = ["LIFTS\tElevators, to Brits", "PROF\tTeacher, for short", "PINE\tYearn", "ACHE\tYearn", "HURTS\tAches",
            "VET\tCheck out", "FLAT\tLondon apartment", "RUBBER\tEraser material", "DOC\t\"What's up, ___?\"",
            "REIN\tHold in check", "UNDO\tReverse", "URGE\tItch", "LENGTHY\tLong", "EACH\tEvery", "SHEEP\tEwes",
            "TEACUP\tSaucer's partner", "FORAGE\tHunt for food", "SOMEONE\tAny one person"]
    path = tmp_path / "clues.tsv"
    path.write_text("\n".join([*faults, *fair]) + "\n", encoding="utf-8")
    done = clues_check(path)
    assert done.returncode == 1, done.stderr
    flags = done.stdout.splitlines()
    for line, (text, rule) in enumerate(faults.items(), start=1):
        answer, _, clue = text.partition("\t")
        assert any(f.startswith(f"{path}:{line}: {answer}: ") and rule in f and f.endswith(clue) for f in flags), text
    assert not [f for f in flags if int(f.split(":")[1]) > len(faults)]


def test_a_number_mismatch_is_a_question_that_fails_nothing(tmp_path: Path) -> None:
    # Collectives clue across number by convention (AUDIENCE "Spectators"), so the rule asks.
    path = tmp_path / "clues.tsv"
    path.write_text("EMPLOYMENT\tJobs\nCREDENTIALS\tCertificate\nWAGES\tPay\nMEN\tFellows\n", encoding="utf-8")
    assert clues_check(path).stdout == ""  # asked for only
    done = clues_check(path, "--questions")
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines() == [
        f"{path}:1: EMPLOYMENT: question: 'jobs' is plural, EMPLOYMENT is not — Jobs",
        f"{path}:2: CREDENTIALS: question: CREDENTIALS is plural, 'certificate' is not — Certificate"]
    assert done.stderr.strip() == "4 clues, 0 flags, 2 questions"


def test_a_pack_is_checked_puzzle_by_puzzle_with_its_echoes(tmp_path: Path) -> None:
    import json

    from mobius.generators.crossword.pack import CrosswordPackSpec
    from mobius.generators.pack import build_pack

    build_pack(CrosswordPackSpec(count=1, width=5, height=5, surface="plane", seed=7), tmp_path / "p", exports=False)
    path = tmp_path / "p" / "puzzles" / "0001.json"
    puzzle = json.loads(path.read_text(encoding="utf-8"))
    first, second, third = puzzle["entries"][:3]
    # plant two echoes: a clue holding another answer's word, and two clues read alike
    first["clue"], second["clue"] = f"Not a {third['answer'].lower()}", "Put on"
    third["clue"] = "Put on, as lotion"
    path.write_text(json.dumps(puzzle), encoding="utf-8")
    done = clues_check(tmp_path / "p")
    assert done.returncode == 1, done.stderr
    place = {e["answer"]: f"{path} {e['number']}-{e['direction']}" for e in puzzle["entries"]}
    assert (f"{place[first['answer']]}: {first['answer']}: '{third['answer'].lower()}' names another answer of "
            f"the grid, {third['answer']} — {first['clue']}") in done.stdout.splitlines()
    assert (f"{place[third['answer']]}: {third['answer']}: reads as {second['answer']}'s clue, 'Put on' — "
            "Put on, as lotion") in done.stdout.splitlines()
    slider = tmp_path / "slider.json"
    slider.write_text(json.dumps({"kind": "slider"}), encoding="utf-8")
    refused = clues_check(slider)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
