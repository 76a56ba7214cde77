"""The HTML player pages and the pack index, in a real browser and as text.

Browser tests drive headless Chromium (Debian's /usr/bin/chromium) with
Playwright and skip, saying why, when either is missing; CI installs both.
The puzzles come from real code: a one-puzzle Möbius crossword pack and a
one-puzzle slider pack built by `mobius.generators.pack.build_pack`, whose pages are
then written with `html_page` and `pack_index` as the pack writes them.
Every browser test fails on a page error or a console error (a Content-
Security-Policy violation is one) and on any request other than the page's
own file. Screenshots of the players go to `$MOBIUS_ARTIFACTS/screenshots`
when that is set, otherwise to pytest's temporary directory.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from typer.testing import CliRunner

from mobius.generators.crossword.pack import CrosswordPackSpec
from mobius.generators.export.html import INDEX_FROM_PLAYER, PLAYER_DIR, embed_json, html_page, pack_index, player_file
from mobius.generators.pack import MANIFEST, PUZZLE_DIR, build_pack
from mobius.generators.slider.pack import SliderPackSpec
from mobius.cli import app
from tests.generators.test_export import PLANE_ROWS, build_crossword, striped_rows

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
CROSSWORD_SEED = 2  # a 7×5 Möbius fill found in milliseconds, with five lights across the seam
VIEWPORT = {"width": 1280, "height": 800}  # a common laptop screen
PHONE = {"width": 375, "height": 740}
NARROW_PHONE = {"width": 390, "height": 844}  # a common phone size, at which the labels used to be cut
# The index marks its rows from local storage as the page loads: slowly on a
# loaded machine, where 5 s once ran out in a full run.
MARK_TIMEOUT_MS, MARK_POLL_MS = 15_000, 50
SOLUTION_TIMEOUT_MS = 15_000  # "show solution" plays six moves 0.7 s apart
INJECTION = '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">'


# --- packs built by the real code ---------------------------------------------------------

def write_pages(out: Path, puzzles: dict[int, dict[str, Any]]) -> None:
    """The player pages and the index, laid out as in a pack directory."""
    ordered = [puzzles[i] for i in sorted(puzzles)]
    for index, puzzle in enumerate(ordered):
        (out / PUZZLE_DIR / player_file(index)).write_text(html_page(puzzle), encoding="utf-8")
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    (out / "index.html").write_text(pack_index(manifest, ordered), encoding="utf-8")


@pytest.fixture(scope="module")
def crossword_pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("crossword-pack")
    spec = CrosswordPackSpec(count=1, width=7, height=5, surface="mobius", seed=CROSSWORD_SEED)
    puzzles = build_pack(spec, out, workers=1)
    write_pages(out, puzzles)
    return out, puzzles[0]


@pytest.fixture(scope="module")
def wide_pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The default pack size, 11×5 on the Möbius strip: the widest grid a phone should show whole."""
    out = tmp_path_factory.mktemp("wide-pack")
    puzzles = build_pack(CrosswordPackSpec(count=1, width=11, height=5, surface="mobius"), out, workers=1)
    write_pages(out, puzzles)
    return out, puzzles[0]


@pytest.fixture(scope="module")
def torus_pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A page with no 3D strip: a torus has no paper band."""
    out = tmp_path_factory.mktemp("torus-pack")
    puzzles = build_pack(CrosswordPackSpec(count=1, width=7, height=5, surface="torus", seed=1), out, workers=1)
    write_pages(out, puzzles)
    return out, puzzles[0]


@pytest.fixture(scope="module")
def slider_pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("slider-pack")
    puzzles = build_pack(SliderPackSpec(count=1, board="ring", depth_min=6, depth_max=6), out, workers=1)
    write_pages(out, puzzles)
    return out, puzzles[0]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = os.environ.get("MOBIUS_ARTIFACTS")
    folder = Path(root) / "screenshots" if root else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- the browser ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="browser tests need Playwright (pip install playwright)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Visit:
    """One page in a fresh browser context (so fresh local storage), with what it asked for and what went wrong."""

    page: Any
    url: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    followed: set[str] = field(default_factory=set)  # pages the test navigates to on purpose


@pytest.fixture
def visit(browser: Any) -> Iterator[Any]:
    contexts = []
    visits: list[Visit] = []

    def open_page(path: Path, viewport: dict[str, int] = VIEWPORT) -> Visit:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        visit = Visit(page, path.resolve().as_uri())
        page.on("request", lambda request: visit.requests.append(request.url))
        page.on("pageerror", lambda error: visit.errors.append(f"page error: {error}"))
        page.on("console", lambda message: message.type == "error" and visit.errors.append(message.text))
        page.goto(visit.url)
        visits.append(visit)
        return visit

    yield open_page
    for context in contexts:
        context.close()
    for seen in visits:
        assert seen.errors == [], f"{seen.url}: {seen.errors}"
        assert set(seen.requests) <= {seen.url} | seen.followed, f"{seen.url} made requests: {seen.requests}"


def player(out: Path) -> Path:
    return out / PUZZLE_DIR / player_file(0)


def letter_at(page: Any, x: int, y: int) -> str:
    return page.inner_text(f'.cell[data-x="{x}"][data-y="{y}"] .letter').strip()


def current_cell(page: Any) -> tuple[int, int]:
    cell = page.locator(".cell.current")
    return int(cell.get_attribute("data-x")), int(cell.get_attribute("data-y"))


def seam_light(puzzle: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The first across light that crosses the seam, and its index in the entries."""
    return next((i, e) for i, e in enumerate(puzzle["entries"])
                if e["seam_crossings"] and e["direction"] == "across")


def crossing_step(entry: dict[str, Any]) -> int:
    """The position j in the light where the step j → j+1 goes through the seam (the x jumps back)."""
    return next(j for j, (a, b) in enumerate(zip(entry["cells"], entry["cells"][1:])) if b[0] != a[0] + 1)


def type_light(page: Any, index: int, answer: str) -> None:
    page.click(f'.clue[data-light="{index}"]')
    page.keyboard.type(answer)


# --- crossword player ---------------------------------------------------------------------------

def test_typing_a_light_across_the_seam_fills_its_cells_in_order(crossword_pack, visit, artifacts) -> None:
    out, puzzle = crossword_pack
    index, entry = seam_light(puzzle)
    page = visit(player(out)).page
    type_light(page, index, entry["answer"])
    for (x, y), letter in zip(entry["cells"], entry["answer"]):
        assert letter_at(page, x, y) == letter == puzzle["rows"][y][x]
    filled = [t for t in page.locator(".cell .letter").all_inner_texts() if t.strip()]
    assert len(filled) == len(entry["answer"])  # nothing typed anywhere else
    # The whole light is highlighted and its crossing marked on both sides of the seam.
    assert page.locator(".cell.in-light").count() == len(entry["cells"])
    assert page.locator(".cell.cross-out-r").count() == page.locator(".cell.cross-in-l").count() == 1
    assert page.locator(".seam-label.active").count() == 2
    page.screenshot(path=str(artifacts / "player-crossword.png"), full_page=True)


def test_backspace_goes_back_across_the_seam(crossword_pack, visit) -> None:
    out, puzzle = crossword_pack
    index, entry = seam_light(puzzle)
    j = crossing_step(entry)
    page = visit(player(out)).page
    type_light(page, index, entry["answer"][:j + 2])
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    cells = entry["cells"]
    assert [letter_at(page, x, y) for x, y in cells[:j]] == list(entry["answer"][:j])
    assert letter_at(page, *cells[j]) == letter_at(page, *cells[j + 1]) == ""
    assert current_cell(page) == tuple(cells[j])


def test_arrow_keys_follow_the_glue_and_tab_goes_to_the_next_light(crossword_pack, visit) -> None:
    out, puzzle = crossword_pack
    index, entry = seam_light(puzzle)
    page = visit(player(out)).page
    page.click(f'.clue[data-light="{index}"]')
    for expected in entry["cells"][1:]:
        page.keyboard.press("ArrowRight")
        assert current_cell(page) == tuple(expected)
    across = [i for i, e in enumerate(puzzle["entries"]) if e["direction"] == "across"]
    down = [i for i, e in enumerate(puzzle["entries"]) if e["direction"] == "down"]
    order = across + down
    page.keyboard.press("Tab")
    assert page.get_attribute(".clue.active", "data-light") == str(order[(order.index(index) + 1) % len(order)])


def test_check_puzzle_reports_solved_after_every_answer_is_typed(crossword_pack, visit) -> None:
    out, puzzle = crossword_pack
    page = visit(player(out)).page
    first = puzzle["entries"][0]
    wrong = "Q" if first["answer"][0] != "Q" else "Z"
    type_light(page, 0, wrong)
    page.click('[data-action="check-puzzle"]')
    assert "wrong" in page.inner_text(".status")
    assert page.locator(".cell.wrong").count() == 1
    for index, entry in enumerate(puzzle["entries"]):
        type_light(page, index, entry["answer"])
    page.click('[data-action="check-puzzle"]')
    assert "Solved" in page.inner_text(".status")
    assert page.get_attribute("#player", "data-solved") == "true"


def test_progress_survives_a_reload(crossword_pack, visit) -> None:
    out, puzzle = crossword_pack
    index, entry = seam_light(puzzle)
    page = visit(player(out)).page
    type_light(page, index, entry["answer"])
    page.reload()
    assert [letter_at(page, x, y) for x, y in entry["cells"]] == list(entry["answer"])


def test_phone_sized_screen_shows_the_whole_grid(crossword_pack, visit) -> None:
    out, _ = crossword_pack
    page = visit(player(out), PHONE).page
    box = page.locator(".board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.click('.cell:not(.block)')
    assert page.evaluate("document.activeElement.classList.contains('type-here')")


def test_plane_page_says_nothing_of_seams_or_glue(visit, tmp_path) -> None:
    plane = build_crossword(PLANE_ROWS)
    path = tmp_path / "plane.html"
    path.write_text(html_page(plane, index_href=None), encoding="utf-8")
    page = visit(path).page
    text = page.inner_text("body").lower()
    assert "arrows move;" in text
    assert "seam" not in text and "glue" not in text and "⟲" not in text


def test_glued_page_explains_its_seam(torus_pack, visit) -> None:
    out, _ = torus_pack
    page = visit(player(out)).page
    assert "arrows move, across the seam too" in page.inner_text(".help")
    assert "glued" in page.inner_text(".seam-legend")


def test_no_stray_text_on_a_page_without_the_strip(torus_pack, visit) -> None:
    out, puzzle = torus_pack
    assert puzzle["glue"]["band"] is False
    page = visit(player(out)).page
    assert page.locator(".strip-view").count() == 0
    text = page.inner_text("#player")
    assert "null" not in text and "undefined" not in text


def test_arrows_on_a_torus_wrap_both_ways(torus_pack, visit) -> None:
    out, puzzle = torus_pack
    w, h = puzzle["width"], puzzle["height"]
    page = visit(player(out)).page
    rows = puzzle["rows"]
    # From the first white cell of the top row, ArrowUp goes through the top edge: on a torus to the
    # bottom row of the same column, skipping blocks upwards from there.
    x = rows[0].index(next(ch for ch in rows[0] if ch != "#"))
    page.click(f'.cell[data-x="{x}"][data-y="0"]')
    page.keyboard.press("ArrowUp")  # the first press turns the selection to down, where a down light exists
    if current_cell(page) == (x, 0):
        page.keyboard.press("ArrowUp")
    y = h - 1
    while rows[y][x] == "#":
        y -= 1
    assert current_cell(page) == (x, y)
    page.keyboard.press("ArrowDown")
    assert current_cell(page) == (x, 0)
    # Along the row: ArrowLeft from the first white cell of a row that is white at both ends wraps to column W-1.
    row = next(r for r in range(h) if rows[r][0] != "#" and rows[r][w - 1] != "#")
    page.click(f'.cell[data-x="0"][data-y="{row}"]')
    page.keyboard.press("ArrowLeft")
    if current_cell(page) == (0, row):
        page.keyboard.press("ArrowLeft")
    assert current_cell(page) == (w - 1, row)


def test_the_player_reads_the_neighbours_from_the_puzzle_json(crossword_pack, visit, tmp_path) -> None:
    """Change where the glue says a step off the right edge lands; the player must follow the data."""
    _, puzzle = crossword_pack
    w, h = puzzle["width"], puzzle["height"]
    rows = puzzle["rows"]
    y = next(r for r in range(h) if rows[r][w - 1] != "#" and rows[r][0] != "#")
    target = next(r for r in range(h) if rows[r][0] != "#" and [0, r] != puzzle["glue"]["neighbours"]["right"][y])
    edited = copy.deepcopy(puzzle)
    edited["glue"]["neighbours"]["right"][y] = [0, target]
    path = tmp_path / "edited.html"
    path.write_text(html_page(edited, index_href=None), encoding="utf-8")
    page = visit(path).page
    page.click(f'.cell[data-x="{w - 1}"][data-y="{y}"]')
    page.keyboard.press("ArrowRight")
    if current_cell(page) == (w - 1, y):
        page.keyboard.press("ArrowRight")
    assert current_cell(page) == (0, target)


def test_clue_lists_and_the_current_clue(crossword_pack, visit, tmp_path) -> None:
    _, puzzle = crossword_pack
    clued = copy.deepcopy(puzzle)
    for i, entry in enumerate(clued["entries"]):
        entry["clue"] = f"Clue number {i}"
    path = tmp_path / "clued.html"
    path.write_text(html_page(clued, index_href=None), encoding="utf-8")
    page = visit(path).page
    for direction, heading in (("across", "Across"), ("down", "Down")):
        section = page.locator(f'.clue-list[aria-label="{heading} clues"]')
        assert section.locator("h2").inner_text() == heading
        entries = [e for e in clued["entries"] if e["direction"] == direction]
        items = section.locator(".clue")
        assert items.count() == len(entries)
        for i, entry in enumerate(entries):
            text = items.nth(i).inner_text()
            assert text.startswith(f"{entry['number']} {entry['clue']}") and entry["enumeration"] in text
    index, entry = seam_light(clued)
    page.click(f'.clue[data-light="{index}"]')
    assert page.inner_text(".clue-bar-label") == f"{entry['number']} across {entry['enumeration']}"
    assert page.inner_text(".clue-bar-text") == entry["clue"]
    assert page.get_attribute(f'.clue[data-light="{index}"]', "aria-current") == "true"


def test_grid_cells_have_roles_and_labels(crossword_pack, visit) -> None:
    out, puzzle = crossword_pack
    w, h = puzzle["width"], puzzle["height"]
    page = visit(player(out)).page
    assert page.locator('[role="grid"]').count() == 1
    assert page.locator('[role="grid"] [role="row"]').count() == h
    assert page.locator('[role="row"] [role="gridcell"]').count() == w * h
    index, entry = seam_light(puzzle)
    type_light(page, index, entry["answer"][:1])
    x, y = entry["cells"][0]
    label = page.get_attribute(f'.cell[data-x="{x}"][data-y="{y}"]', "aria-label")
    assert label.startswith(f"Row {y + 1}, column {x + 1}, ") and f"{entry['number']} across" in label
    assert label.endswith(f": {entry['answer'][0]}")
    block = next((bx, by) for by, row in enumerate(puzzle["rows"]) for bx, ch in enumerate(row) if ch == "#")
    assert page.get_attribute(f'.cell[data-x="{block[0]}"][data-y="{block[1]}"]', "aria-label").endswith("block")
    assert page.locator('[role="gridcell"][aria-selected="true"]').count() == 1


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """The bounding boxes of every element the selector matches, in one round trip."""
    return page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.getBoundingClientRect().toJSON())")


def scroll_board(page: Any, to: str) -> None:
    page.eval_on_selector(".board-wrap", f"n => {{ n.scrollLeft = {'0' if to == 'start' else 'n.scrollWidth'}; }}")


def test_narrow_phone_shows_whole_seam_labels_and_scrolls(wide_pack, visit, artifacts) -> None:
    """11×5 on the Möbius strip at 390 px: cells keep their size and the grid scrolls sideways in its own box."""
    out, _ = wide_pack
    page = visit(player(out), NARROW_PHONE).page
    width = NARROW_PHONE["width"]
    for label in page.locator(".seam-label").all():
        assert label.evaluate("n => n.scrollWidth <= n.clientWidth"), label.inner_text()  # no text cut off
    assert page.locator(".seam-label.right").first.inner_text().startswith("→ ")
    for side, end in (("left", "start"), ("right", "end")):  # each side's labels whole on screen, scrolled there
        scroll_board(page, end)
        for box in boxes(page, f".seam-label.{side}"):
            assert box["left"] >= 0 and box["right"] <= width, (side, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways page scroll
    assert page.evaluate("document.documentElement.scrollHeight") > NARROW_PHONE["height"]
    page.mouse.move(width / 2, NARROW_PHONE["height"] - 100)
    page.mouse.wheel(0, 600)
    for _ in range(40):  # smooth scrolling takes a few frames (no wait_for_function: the page's policy forbids eval)
        if page.evaluate("window.scrollY") > 0:
            break
        page.wait_for_timeout(25)
    assert page.evaluate("window.scrollY") > 0
    page.screenshot(path=str(artifacts / "player-crossword-390.png"), full_page=True)


LARGE_GRIDS = {"plane-15x15": (15, 15, "plane"), "mobius-15x7": (15, 7, "mobius")}


@pytest.fixture(params=sorted(LARGE_GRIDS))
def large_page(request, tmp_path) -> tuple[str, Path, dict[str, Any]]:
    """A large grid's page with long clues, as the pack writes it (its letters are not words)."""
    w, h, surface = LARGE_GRIDS[request.param]
    puzzle = build_crossword(striped_rows(w, h), surface)
    for entry in puzzle["entries"]:
        entry["clue"] = f"A clue long enough to take two lines on a phone, for {entry['number']} {entry['direction']}"
    path = tmp_path / f"{request.param}.html"
    path.write_text(html_page(puzzle, index_href=None), encoding="utf-8")
    return request.param, path, puzzle


@pytest.mark.parametrize("screen", [NARROW_PHONE, VIEWPORT], ids=["390px", "1280px"])
def test_large_grids_keep_finger_sized_cells_and_readable_clues(large_page, screen, visit, artifacts) -> None:
    """On a phone the cells keep their size and the grid scrolls sideways in its box; on a laptop it fits.
    Either way every clue is whole, in type of 14 px or more, and the last one can be scrolled to and picked."""
    name, path, puzzle = large_page
    page = visit(path, screen).page
    width = screen["width"]
    cells = boxes(page, ".cell")
    assert len(cells) == puzzle["width"] * puzzle["height"]
    assert min(min(box["width"], box["height"]) for box in cells) >= 32
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the grid scrolls, not the page
    board_scrolls = page.eval_on_selector(".board-wrap", "n => n.scrollWidth > n.clientWidth")
    assert board_scrolls == (screen is NARROW_PHONE)
    clues = page.locator(".clue")
    assert clues.count() == len(puzzle["entries"])
    sizes = page.eval_on_selector_all(".clue, .clue-bar",
                                      "nodes => nodes.map(n => parseFloat(getComputedStyle(n).fontSize))")
    assert min(sizes) >= 14
    assert page.eval_on_selector_all(".clue", "nodes => nodes.every(n => n.scrollWidth <= n.clientWidth)")
    for box in boxes(page, ".clue"):
        assert box["left"] >= 0 and box["right"] <= width, box
    last = clues.last
    last.scroll_into_view_if_needed()  # the lists scroll into reach: the last clue can be read and picked
    last.click()
    assert page.inner_text(".clue-bar-text") == puzzle["entries"][int(last.get_attribute("data-light"))]["clue"]
    page.screenshot(path=str(artifacts / f"player-{name}-{width}.png"), full_page=True)


def test_arrows_keep_the_current_cell_in_view_on_a_phone(large_page, visit) -> None:
    name, path, puzzle = large_page
    page = visit(path, NARROW_PHONE).page
    w = puzzle["width"]
    page.click('.cell[data-x="1"][data-y="0"]')  # the top row is white: 1 across, selected across
    page.keyboard.press("ArrowLeft")
    assert current_cell(page) == (0, 0)
    wrap = page.locator(".board-wrap").bounding_box()
    seen = []
    for _ in range(w):  # along the top row and, on the strip, on across the seam
        page.keyboard.press("ArrowRight")
        cell = page.locator(".cell.current").bounding_box()
        seen.append(current_cell(page))
        assert cell["x"] >= wrap["x"] - 0.5 and cell["x"] + cell["width"] <= wrap["x"] + wrap["width"] + 0.5, seen
    assert seen[w - 2] == (w - 1, 0)
    if puzzle["surface"] == "mobius":
        assert seen[-1] == (0, puzzle["height"] - 1)  # through the seam, back at the left edge, in view


def test_clue_markup_shows_as_text_and_runs_nothing(crossword_pack, visit, tmp_path) -> None:
    _, puzzle = crossword_pack
    hostile = copy.deepcopy(puzzle)
    hostile["entries"][0]["clue"] = INJECTION
    hostile["title"] = INJECTION
    path = tmp_path / "hostile.html"
    path.write_text(html_page(hostile, index_href=None), encoding="utf-8")
    page = visit(path).page
    assert page.inner_text('.clue[data-light="0"] .clue-text') == INJECTION
    assert page.inner_text("h1") == INJECTION
    page.click('.clue[data-light="0"]')
    assert page.inner_text(".clue-bar-text") == INJECTION
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img").count() == 0


# --- slider player -----------------------------------------------------------------------------

def click_vertex(page: Any, vertex: int) -> None:
    page.click(f'.sl-board .tile[data-vertex="{vertex}"]')


def test_clicking_the_stored_solution_reaches_solved(slider_pack, visit, artifacts) -> None:
    out, puzzle = slider_pack
    assert puzzle["blanks"] == 1 and puzzle["length"] == 6
    page = visit(player(out)).page
    for vertex in puzzle["solution"]:  # with one blank: the vertex whose tile slides into the blank
        click_vertex(page, vertex)
    assert page.get_attribute("#player", "data-solved") == "true"
    assert page.get_attribute("#player", "data-state") == ",".join(map(str, puzzle["goal"]))
    assert page.get_attribute("#player", "data-moves") == str(puzzle["length"])
    assert "Solved" in page.inner_text(".status")
    page.screenshot(path=str(artifacts / "player-slider.png"), full_page=True)


def test_an_illegal_click_changes_nothing(slider_pack, visit) -> None:
    out, puzzle = slider_pack
    page = visit(player(out)).page
    board = puzzle["board"]
    blank = puzzle["start"].index(0)
    touching = {v for edge in board["edges"] if blank in edge for v in edge}
    stuck = next(v for v in range(board["vertices"]) if v not in touching)
    before = page.get_attribute("#player", "data-state")
    click_vertex(page, stuck)
    assert page.get_attribute("#player", "data-state") == before
    assert page.get_attribute("#player", "data-moves") == "0"
    assert "cannot move" in page.inner_text(".status")
    click_vertex(page, puzzle["solution"][0])
    page.click('[data-action="undo"]')
    assert page.get_attribute("#player", "data-state") == before


def layout_points(puzzle: dict[str, Any]) -> list[tuple[float, float]]:
    """The board's vertices as on screen: x to the right, y downwards (the layout's y grows upwards)."""
    return [(x, -y) for x, y in puzzle["board"]["layout"]]


def test_arrow_keys_slide_the_tile_that_lies_that_way(slider_pack, visit) -> None:
    out, puzzle = slider_pack
    points = layout_points(puzzle)
    edges = [tuple(e) for e in puzzle["board"]["edges"]]
    page = visit(player(out)).page
    state = list(puzzle["start"])
    arrows = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
    moves = 0
    for key, (ax, ay) in arrows.items():
        blank = state.index(0)
        # Independently of the player: the neighbour of the blank whose slide into it runs most nearly
        # along the arrow, within 60 degrees.
        options = []
        for u, v in edges:
            if blank in (u, v):
                tile_at = v if u == blank else u
                dx, dy = points[blank][0] - points[tile_at][0], points[blank][1] - points[tile_at][1]
                options.append(((dx * ax + dy * ay) / (dx * dx + dy * dy) ** 0.5, tile_at))
        alignment, source = max(options)
        page.keyboard.press(key)
        if alignment > 0.5:
            state[blank], state[source] = state[source], 0
            moves += 1
        else:
            assert "No tile can slide that way" in page.inner_text(".status")
        assert page.get_attribute("#player", "data-state") == ",".join(map(str, state)), key
    assert page.get_attribute("#player", "data-moves") == str(moves) and moves > 0


def test_show_solution_plays_the_stored_moves_to_the_goal_and_is_not_solving(slider_pack, visit) -> None:
    out, puzzle = slider_pack
    page = visit(player(out)).page
    click_vertex(page, puzzle["solution"][0])  # the replay starts from the start, whatever was played
    page.click('[data-action="solution"]')
    goal = ",".join(map(str, puzzle["goal"]))
    page.wait_for_selector(f'#player[data-state="{goal}"]', timeout=SOLUTION_TIMEOUT_MS)
    assert page.get_attribute("#player", "data-moves") == str(puzzle["length"])
    assert page.get_attribute("#player", "data-revealed") == "true"
    assert page.get_attribute("#player", "data-solved") == "false"
    assert "Solved" not in page.inner_text(".status") and "solution reaches the goal" in page.inner_text(".status")
    page.reload()  # still revealed, not solved, on the next visit
    assert page.get_attribute("#player", "data-state") == goal
    assert page.get_attribute("#player", "data-solved") == "false"
    assert "Solved" not in page.inner_text(".status")


def test_slider_moves_survive_a_reload(slider_pack, visit) -> None:
    out, puzzle = slider_pack
    page = visit(player(out)).page
    first, second = puzzle["solution"][:2]
    click_vertex(page, first)
    click_vertex(page, second)
    after = page.get_attribute("#player", "data-state")
    assert after != ",".join(map(str, puzzle["start"]))
    page.reload()
    assert page.inner_text(".moves") == "Moves: 2"
    assert page.get_attribute("#player", "data-state") == after
    assert page.evaluate("window.localStorage.length") == 1
    page.click('[data-action="undo"]')  # the restored moves are the undo history
    page.reload()
    assert page.inner_text(".moves") == "Moves: 1"
    page.click('[data-action="reset"]')
    page.reload()
    assert page.inner_text(".moves") == "Moves: 0"
    assert page.get_attribute("#player", "data-state") == ",".join(map(str, puzzle["start"]))


def test_a_saved_move_that_is_not_legal_is_not_replayed(slider_pack, visit) -> None:
    out, puzzle = slider_pack
    page = visit(player(out)).page
    click_vertex(page, puzzle["solution"][0])
    key = page.get_attribute("#player", "data-storage-key")
    saved = json.loads(page.evaluate(f"window.localStorage.getItem({json.dumps(key)})"))
    assert len(saved["moves"]) == 1 and saved["status"] == "started"
    blank = puzzle["start"].index(0)
    saved["moves"].append(saved["moves"][0])  # the same slide again: its source is now the blank
    saved["moves"].append([blank, 10_000])
    page.evaluate(f"window.localStorage.setItem({json.dumps(key)}, {json.dumps(json.dumps(saved))})")
    page.reload()
    # The saved moves are replayed once the page has loaded; a loaded machine may read the count before.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("document.querySelector('.moves').innerText !== 'Moves: 0'", timeout=5000)
    assert page.inner_text(".moves") == "Moves: 1"


# --- the pack index ---------------------------------------------------------------------------------

def go_to(visit_: Visit, path: Path) -> None:
    """Open another page of the pack in the same browser context (the same local storage)."""
    url = path.resolve().as_uri()
    visit_.followed.add(url)
    visit_.page.goto(url)


def index_mark(visit_: Visit, out: Path, expected: str) -> str:
    """The index's mark for the pack's one puzzle, once it reads `expected` (or, after a few seconds, whatever it
    reads: the script marks the rows as local storage tells it when the page loads). The index is opened again
    while the mark is wrong: on a loaded machine headless Chromium has shown a file:// page the local storage
    as it stood before the player's last save (a blank mark after the puzzle was solved, fifteen seconds on),
    and a page reads it only when it loads."""
    cell = visit_.page.locator("table.pack tbody tr td.progress")
    for _ in range(MARK_TIMEOUT_MS // MARK_POLL_MS):  # no wait_for_function: the page's policy forbids eval
        go_to(visit_, out / "index.html")
        if cell.inner_text().strip() == expected:
            break
        visit_.page.wait_for_timeout(MARK_POLL_MS)
    return cell.inner_text().strip()


def play_part(page: Any, puzzle: dict[str, Any], part: slice) -> None:
    """Play part of the stored answer: crossword, type those lights; slider, make those moves of the solution."""
    if puzzle["kind"] == "crossword":
        for index, entry in list(enumerate(puzzle["entries"]))[part]:
            type_light(page, index, entry["answer"])
    else:
        for vertex in puzzle["solution"][part]:
            click_vertex(page, vertex)


@pytest.mark.parametrize("pack", ["crossword_pack", "slider_pack"])
def test_index_marks_puzzles_in_progress_and_solved(pack, request, visit) -> None:
    out, puzzle = request.getfixturevalue(pack)
    index = visit(out / "index.html")
    assert index.page.inner_text("table.pack thead").split()[:3] == ["#", "Puzzle", "Progress"]
    assert index_mark(index, out, "") == ""
    go_to(index, player(out))
    play_part(index.page, puzzle, slice(0, 1))
    assert index_mark(index, out, "In progress") == "In progress"
    go_to(index, player(out))  # the rest, after coming back
    play_part(index.page, puzzle, slice(1, None))
    assert index.page.get_attribute("#player", "data-solved") == "true"
    assert index_mark(index, out, "Solved") == "Solved"
    assert index.page.get_attribute("table.pack tbody tr", "data-progress") == "solved"


def test_index_on_a_phone_shows_the_progress_column_without_sideways_scrolling(crossword_pack, visit) -> None:
    out, puzzle = crossword_pack
    index = visit(player(out), NARROW_PHONE)
    type_light(index.page, 0, puzzle["entries"][0]["answer"])
    assert index_mark(index, out, "In progress") == "In progress"
    assert index.page.evaluate("document.documentElement.scrollWidth") <= NARROW_PHONE["width"]
    box = index.page.locator("td.progress").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW_PHONE["width"]
    assert "the strips to cut out and glue" in index.page.inner_text("header")  # the booklet's contents


@pytest.mark.parametrize("pack", ["crossword_pack", "slider_pack"])
def test_a_revealed_puzzle_is_not_solved(pack, request, visit) -> None:
    out, puzzle = request.getfixturevalue(pack)
    index = visit(player(out))
    page = index.page
    if puzzle["kind"] == "crossword":
        page.click('[data-action="reveal-puzzle"]')
    else:
        page.click('[data-action="solution"]')
    page.wait_for_selector('#player[data-revealed="true"]', timeout=SOLUTION_TIMEOUT_MS)
    if puzzle["kind"] == "slider":
        page.wait_for_selector(f'#player[data-moves="{puzzle["length"]}"]', timeout=SOLUTION_TIMEOUT_MS)
    assert page.get_attribute("#player", "data-solved") == "false"
    assert "Solved" not in page.inner_text(".status")
    assert index_mark(index, out, "Revealed") == "Revealed"

@pytest.mark.parametrize("pack", ["crossword_pack", "slider_pack"])
def test_index_lists_the_puzzles_and_links_to_their_pages(pack, request, visit) -> None:
    out, puzzle = request.getfixturevalue(pack)
    index = visit(out / "index.html")
    index.followed.add(player(out).resolve().as_uri())
    page = index.page
    rows = page.locator("table.pack tbody tr")
    assert rows.count() == 1
    text = rows.first.inner_text()
    if puzzle["kind"] == "crossword":
        assert f"{puzzle['width']}×{puzzle['height']}" in text and "Möbius strip" in text
        assert f"{puzzle['fill_score']:.1f}" in text
    else:
        assert f"{puzzle['length']} moves" in text
    assert page.locator('a[href="pack.pdf"]').count() == 1 and (out / "pack.pdf").read_bytes().startswith(b"%PDF")
    page.click("table.pack a")
    assert page.url == player(out).resolve().as_uri()
    assert page.inner_text("h1") == puzzle["title"]


# --- the page as text -------------------------------------------------------------------------------

def embedded(page_html: str, pattern: str) -> str:
    found = re.search(pattern, page_html, flags=re.DOTALL)
    assert found, pattern
    return found.group(1)


def test_embedded_json_cannot_end_its_script_element(crossword_pack) -> None:
    _, puzzle = crossword_pack
    hostile = copy.deepcopy(puzzle)
    hostile["entries"][0]["clue"] = "</script><!-- & " + INJECTION
    page_html = html_page(hostile)
    data = embedded(page_html, r'<script type="application/json" id="puzzle-data">(.*?)</script>')
    assert not set("<>&") & set(data)
    assert json.loads(data) == hostile
    assert "\\u003c" in embed_json("<")


def test_the_policy_allows_only_the_inline_script_and_style(slider_pack) -> None:
    _, puzzle = slider_pack
    page_html = html_page(puzzle)
    policy = embedded(page_html, r'http-equiv="Content-Security-Policy" content="([^"]*)"')
    assert "default-src 'none'" in policy
    for tag, directive in (("script", "script-src"), ("style", "style-src")):
        text = embedded(page_html, rf"<{tag}>(.*?)</{tag}>")
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}'" in policy


@pytest.mark.parametrize("pack", ["crossword_pack", "slider_pack"])
def test_a_page_is_the_same_bytes_from_any_process(pack, request, tmp_path) -> None:
    """The pack's page, made again from its JSON by `mobius render` in processes with different hash
    seeds (set and dict orders differ between them), is byte for byte the page the pack wrote."""
    out, _ = request.getfixturevalue(pack)
    written = player(out).read_bytes()
    for seed in ("1", "2"):
        target = tmp_path / f"page-{seed}.html"
        subprocess.run([sys.executable, "-m", "mobius", "render", str(out / PUZZLE_DIR / "0001.json"),
                        "--format", "html", "--out", str(target)],
                       env={**os.environ, "PYTHONHASHSEED": seed}, check=True, capture_output=True)
        # A standalone page differs from the pack's only in its missing link back to the index.
        assert target.read_bytes() == written.replace(
            f'<nav><a href="{INDEX_FROM_PLAYER}">← All puzzles</a></nav>\n'.encode(), b"")


def test_player_sources_cannot_close_the_elements_they_are_inlined_in() -> None:
    for source in PLAYER_DIR.iterdir():
        text = source.read_text(encoding="utf-8").lower()
        assert "</script" not in text and "</style" not in text and "<!--" not in text, source.name


def test_render_command_writes_a_standalone_page_and_a_picture(crossword_pack, tmp_path) -> None:
    out, puzzle = crossword_pack
    source = out / PUZZLE_DIR / "0001.json"
    runner = CliRunner()
    result = runner.invoke(app, ["render", str(source), "--format", "html", "--out", str(tmp_path / "p.html")])
    assert result.exit_code == 0, result.output
    page_html = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert "All puzzles" not in page_html and json.loads(
        embedded(page_html, r'id="puzzle-data">(.*?)</script>')) == puzzle
    result = runner.invoke(app, ["render", str(source), "--format", "svg", "--solution",
                                 "--out", str(tmp_path / "p.svg")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "p.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert runner.invoke(app, ["render", str(source), "--format", "pdf"]).exit_code == 2
