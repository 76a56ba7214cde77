"""The HTML player pages and the pack index, in a real browser and as text.

Browser tests drive headless Chromium (Debian's /usr/bin/chromium) with
Playwright and skip, saying why, when either is missing; CI installs both.
The puzzles come from real code: a one-puzzle Möbius crossword pack and a
one-puzzle slider pack built by `generators.pack.build_pack`, whose pages are
then written with `html_page` and `pack_index` as the pack writes them.
Every browser test fails on a page error or a console error (a Content-
Security-Policy violation is one) and on any request other than the page's
own file. Screenshots of the players go to `$MOBIUS_ARTIFACTS/screenshots`
when that is set, otherwise to pytest's temporary directory.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from generators.crossword_pack import CrosswordPackSpec
from generators.export.html import PLAYER_DIR, embed_json, html_page, pack_index, player_file
from generators.pack import MANIFEST, PUZZLE_DIR, build_pack
from generators.slider_pack import SliderPackSpec
from mobius.cli import app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
CROSSWORD_SEED = 2  # a 7×5 Möbius fill found in milliseconds, with five lights across the seam
VIEWPORT = {"width": 1000, "height": 760}
PHONE = {"width": 375, "height": 740}
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


def test_show_solution_plays_the_stored_moves_to_the_goal(slider_pack, visit) -> None:
    out, puzzle = slider_pack
    page = visit(player(out)).page
    click_vertex(page, puzzle["solution"][0])  # the replay starts from the start, whatever was played
    page.click('[data-action="solution"]')
    page.wait_for_selector('#player[data-solved="true"]', timeout=SOLUTION_TIMEOUT_MS)
    assert page.get_attribute("#player", "data-moves") == str(puzzle["length"])


# --- the pack index ---------------------------------------------------------------------------------

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


def test_pages_are_byte_identical_for_the_same_puzzle(crossword_pack, slider_pack) -> None:
    for _, puzzle in (crossword_pack, slider_pack):
        assert html_page(puzzle) == html_page(copy.deepcopy(puzzle))


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
