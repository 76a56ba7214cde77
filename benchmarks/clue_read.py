"""A blind read of a default pack's clues: sample answer/clue pairs to judge by eye.

Covers: building a default crossword pack (`mobius pack crossword` with its
defaults; `--count`, `--pack-seed`) or reading one already made (`--pack
DIR`), and printing `--n` answer/clue pairs drawn with `--seed` from all its
entries, numbered, one a line (`ANSWER — clue`), so a reader can mark each
good, flat or bad. The draw is deterministic: the same pack and seed print
the same pairs.

Leaves out: the judging (a person reads the pairs; benchmarks/RESULTS.md
records the counts) and every rule check, which `mobius clues check`,
`mobius.generators.crossword.clues.clue_problems` and tests/dictionaries/ do.

    python -m mobius.benchmarks.clue_read --n 100 --seed 1
    python -m mobius.benchmarks.clue_read --pack out/pack --n 100 --seed 2
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path


def build_pack(out: Path, count: int, seed: int) -> None:
    """A default pack of `count` puzzles in `out`, made by the CLI as a user makes one."""
    subprocess.run([sys.executable, "-m", "mobius", "pack", "crossword", "--out", str(out), "--count", str(count),
                    "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL)


def pack_pairs(pack: Path) -> list[tuple[str, str]]:
    """Every (answer, clue) of the pack's puzzles, in puzzle and entry order."""
    pairs = []
    for path in sorted((pack / "puzzles").glob("*.json")):
        puzzle = json.loads(path.read_text(encoding="utf-8"))
        pairs.extend((entry["answer"], entry["clue"]) for entry in puzzle["entries"])
    return pairs


def sample(pairs: list[tuple[str, str]], n: int, seed: int) -> list[tuple[str, str]]:
    return random.Random(seed).sample(pairs, min(n, len(pairs)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", type=Path, help="a pack directory to read (default: build a default pack)")
    parser.add_argument("--count", type=int, default=30, help="puzzles in the pack built (default 30)")
    parser.add_argument("--pack-seed", type=int, default=0, help="seed of the pack built (default 0)")
    parser.add_argument("--n", type=int, default=100, help="pairs to print (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        pack = args.pack
        if pack is None:
            pack = Path(scratch) / "pack"
            build_pack(pack, args.count, args.pack_seed)
        pairs = pack_pairs(pack)
        for number, (answer, clue) in enumerate(sample(pairs, args.n, args.seed), start=1):
            print(f"{number:3d}. {answer} — {clue}")


if __name__ == "__main__":
    main()
