"""The HTML player pages and the pack index: self-contained files to open and play.

Covers:
- `html_page(puzzle)`: one page per puzzle. The puzzle JSON is embedded as
  data (`<script type="application/json">`) and the player — this project's
  own CSS and JavaScript from `generators/export/player/` — is inlined, so
  the page works opened straight from the file system, offline. The
  crossword player reads where each light goes from the lights' cell lists,
  which of its steps cross a seam from their `seam_steps`, and where a step
  off each edge lands from `glue.neighbours`; it derives no geometry of its
  own.
- `pack_index(manifest, puzzles)`: the pack's `index.html`, a table of the
  puzzles (size, surface or board, difficulty) linking to each player page,
  with a column that a script fills from local storage (solved, revealed,
  in progress: what each player saved under its puzzle's key), and a link
  to the printable booklet.
- `player_file(index)`: the file name of puzzle `index`'s page in the pack's
  puzzle directory, which the index links to.

Safety: every string from a puzzle or manifest reaches the page as text
only. Python escapes what it writes into markup (`html.escape`); the
embedded JSON has `<`, `>` and `&` as `\\u` escapes, so no clue can close
the data block; the JavaScript inserts strings with `textContent`. Each page
carries a Content-Security-Policy that allows exactly its own inline script
and style (by hash) and no request of any kind.

Leaves out: the player's behaviour (the JavaScript files), writing files
(`mobius.generators.pack`, `mobius render`) and the other export formats.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from mobius.generators.export import (Puzzle, author, credit_line, difficulty_text, glued_edges, is_band, require_kind,
                               surface_name, title)
from mobius.generators.puzzles import encode

PLAYER_DIR = Path(__file__).with_name("player")
# The pack's puzzle directory (`mobius.generators.pack.PUZZLE_DIR`), relative to its index page. Not imported:
# the pack module imports this one to write the pages.
PUZZLES_HREF = "puzzles"
BOOKLET_HREF = "pack.pdf"  # the booklet beside the index (`mobius.generators.pack.BOOKLET`)
INDEX_FROM_PLAYER = "../index.html"  # a player page in the puzzle directory links back to the index

# Which of the player's files each page inlines, in order: shared helpers first.
STYLES = {"crossword": ("player.css", "crossword.css"), "slider": ("player.css", "slider.css"),
          "index": ("player.css",)}
SCRIPTS = {"crossword": ("common.js", "strip.js", "crossword.js"), "slider": ("common.js", "slider.js")}
INDEX_SCRIPTS = ("common.js", "index.js")

# Characters that must not appear literally inside a <script> element: `</script>` would end it, and `<!--`
# changes how the parser reads it. JSON allows the same characters as \u escapes inside strings.
SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                  0x2028: "\\u2028", 0x2029: "\\u2029"}

STORAGE_KEY_HEX = 16  # digits of the puzzle hash that name its saved progress


# --- public API ------------------------------------------------------------------------

def html_page(puzzle: Puzzle, *, index_href: str | None = INDEX_FROM_PLAYER) -> str:
    """The player page of one puzzle (crossword or slider) as HTML text.

    `index_href` is the link back to the pack index; None for a page that
    stands alone (`mobius render`)."""
    kind = puzzle.get("kind")
    if kind not in SCRIPTS:
        raise ValueError(f"expected a crossword or slider puzzle, got kind {kind!r}")
    back = f'<nav><a href="{escape(index_href)}">← All puzzles</a></nav>\n' if index_href else ""
    body = (f'<header class="page-head">\n{back}<h1>{escape(title(puzzle))}</h1>\n{_credits(credit_line(puzzle))}'
            f"{_definitions(_facts(puzzle))}\n</header>\n"
            f'<main id="player" class="player {kind}" data-storage-key="{_storage_key(puzzle)}">\n'
            "<noscript><p>This player needs JavaScript turned on.</p></noscript>\n</main>\n"
            f'<script type="application/json" id="puzzle-data">{embed_json(puzzle)}</script>\n')
    return _document(title(puzzle), body, STYLES[kind], SCRIPTS[kind], author(puzzle))


def pack_index(manifest: Mapping[str, Any], puzzles: Sequence[Puzzle]) -> str:
    """The pack's index page: one table row per puzzle, in pack order, each
    linking to its player page `puzzles/NNNN.html`."""
    kind = manifest.get("kind") or (puzzles[0]["kind"] if puzzles else "puzzle")
    heading = str(manifest.get("title") or f"{str(kind).capitalize()} pack")
    body = (f'<header class="page-head">\n<h1>{escape(heading)}</h1>\n{_credits(credit_line(manifest))}'
            f"<p>{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}. Open one to play it here, with no "
            "network needed; your progress is kept in this browser. To play on paper, print "
            f'<a href="{BOOKLET_HREF}">the booklet</a> ({_booklet_contents(puzzles)}).</p>\n</header>\n'
            f"<main>\n{_puzzle_table(puzzles)}\n{_pack_details(manifest)}\n</main>\n")
    return _document(heading, body, STYLES["index"], INDEX_SCRIPTS, author(manifest))


def _booklet_contents(puzzles: Sequence[Puzzle]) -> str:
    """What the booklet holds, in order (`pdf.pack_pdf`): strips to cut out only for a Möbius strip or cylinder."""
    strips = any(p.get("kind") == "crossword" and is_band(p) for p in puzzles)
    return f"every puzzle, {'the strips to cut out and glue, ' if strips else ''}then every solution"


def player_file(index: int) -> str:
    """The page of puzzle `index` (0-based) beside its JSON: `0001.html` for index 0."""
    return f"{index + 1:04d}.html"


# --- shared pieces -------------------------------------------------------------------------

def embed_json(value: object) -> str:
    """JSON text that is safe inside a `<script>` element."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).translate(SCRIPT_ESCAPES)


def _storage_key(puzzle: Puzzle) -> str:
    """The local-storage name of a puzzle's progress. Puzzle ids repeat from
    pack to pack ("0001"), so the key is a hash of the whole puzzle."""
    digest = hashlib.sha256(encode(puzzle)).hexdigest()[:STORAGE_KEY_HEX]
    return f"mobius-puzzles/{puzzle['kind']}/{digest}"


@cache
def _asset(name: str) -> str:
    return (PLAYER_DIR / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _document(page_title: str, body: str, styles: Sequence[str], scripts: Sequence[str], author: str = "") -> str:
    """A complete page: the inlined style and script, and a policy that lets
    exactly those two run and the page fetch nothing at all; `author` is its author meta tag."""
    style = "\n".join(_asset(name) for name in styles)
    script = "\n".join(_asset(name) for name in scripts)
    policy = ["default-src 'none'", f"style-src {_csp_hash(style)}", "base-uri 'none'", "form-action 'none'"]
    if script:
        policy.insert(1, f"script-src {_csp_hash(script)}")
    script_element = f"<script>{script}</script>\n" if script else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{"; ".join(policy)}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            + (f'<meta name="author" content="{escape(author)}">\n' if author else "") +
            f"<title>{escape(page_title)}</title>\n<style>{style}</style>\n</head>\n"
            f"<body>\n{body}{script_element}</body>\n</html>\n")


# --- what the index and the page headers say about a puzzle ------------------------------

def _facts(puzzle: Puzzle) -> list[tuple[str, str]]:
    """(label, value) pairs describing a puzzle: size, surface or board, difficulty."""
    if puzzle["kind"] == "slider":
        return _slider_facts(puzzle)
    require_kind(puzzle, "crossword")
    return _crossword_facts(puzzle)


def _crossword_facts(puzzle: Puzzle) -> list[tuple[str, str]]:
    entries = puzzle["entries"]
    crossing = sum(1 for e in entries if e.get("seam_crossings"))
    lights = f"{len(entries)}, {crossing} across the seam" if any(glued_edges(puzzle)) else str(len(entries))
    return [("Surface", surface_name(puzzle)),
            ("Size", f"{puzzle['width']}×{puzzle['height']}"),
            ("Lights", lights),
            # Word scores run 0–100, higher for commoner words: a higher mean is an easier fill.
            ("Fill score", f"{float(puzzle.get('fill_score', 0.0)):.1f}"),
            # The level asked and the estimate: familiarity is the answers' mean score, and indirect clues
            # (synonyms, blanks, opposites) are harder than definitions.
            ("Difficulty", difficulty_text(puzzle))]


def _slider_facts(puzzle: Puzzle) -> list[tuple[str, str]]:
    board = puzzle["board"]
    return [("Board", str(board.get("name", "board"))),
            ("Size", f"{board['vertices']} vertices, {len(board['edges'])} edges"),
            ("Blanks", str(puzzle.get("blanks", 1))),
            ("Optimal", f"{puzzle['length']} moves")]


def _credits(line: str) -> str:
    """The author and copyright line under a heading, or nothing."""
    return f'<p class="credits">{escape(line)}</p>\n' if line else ""


def _definitions(pairs: Sequence[tuple[str, str]]) -> str:
    """(label, value) pairs as a definition list; empty values are left out."""
    items = "".join(f"<div><dt>{escape(label)}</dt><dd>{escape(value)}</dd></div>" for label, value in pairs if value)
    return f'<dl class="facts">{items}</dl>'


def _puzzle_table(puzzles: Sequence[Puzzle]) -> str:
    """The puzzles, each row linking to its page; the progress column, filled by the index script from local
    storage, comes right after the title, where a phone shows it without scrolling the table."""
    if not puzzles:
        return "<p>This pack holds no puzzles.</p>"
    labels = ["#", "Puzzle", "Progress", *(label for label, _ in _facts(puzzles[0]))]
    head = "".join(f'<th scope="col">{escape(label)}</th>' for label in labels)
    rows = []
    for index, puzzle in enumerate(puzzles):
        href = f"{PUZZLES_HREF}/{player_file(index)}"
        facts = "".join(f"<td>{escape(value)}</td>" for _, value in _facts(puzzle))
        rows.append(f'<tr><td>{index + 1}</td><th scope="row"><a href="{escape(href)}">{escape(title(puzzle))}</a>'
                    f'</th><td class="progress" data-storage-key="{_storage_key(puzzle)}"></td>{facts}</tr>')
    return (f'<div class="table-wrap"><table class="pack">\n<thead><tr>{head}</tr></thead>\n'
            "<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table></div>")


def _pack_details(manifest: Mapping[str, Any]) -> str:
    """How the pack was made, from its manifest: enough to make it again."""
    dictionary = manifest.get("dictionary")
    items = [("Made by", f"{manifest.get('tool', 'mobius-puzzles')} {manifest.get('version', '')}".strip()),
             ("Command", str(manifest.get("command", ""))),
             ("Seed", str(manifest.get("seed", ""))),
             ("Dictionary", f"{dictionary.get('name')} ({dictionary.get('words')} words)"
              if isinstance(dictionary, Mapping) else ""),
             ("Status", str(manifest.get("status", "")))]
    return f'<details class="pack-details"><summary>How this pack was made</summary>{_definitions(items)}</details>'
