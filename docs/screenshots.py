"""The README's three images, made again from the README's default packs: `python docs/screenshots.py`.

It builds a two-puzzle Möbius crossword pack (11×5) and a two-puzzle ring
slider pack (6 to 15 moves) with the real CLI in a temporary directory, then
writes, over the files in docs/:

- `player-crossword.png`: the first crossword's player page at 820 px,
  full page, with one light across the seam typed in and the "See it as a real
  Möbius strip" view open;
- `player-slider.png`: the first slider's player page at 640 px, full page,
  after the first two moves of its solution;
- `pdf-page.png`: the top half of page 1 of the crossword pack's booklet,
  rendered by poppler's `pdftoppm` at 110 dpi.

It needs Debian's Chromium at /usr/bin/chromium, Playwright, poppler-utils and
Pillow; run it from the project root with the project on PYTHONPATH. It
checks nothing about the pages (tests/generators/test_html_player.py does)
and leaves out the pack index, phone widths, other surfaces and the
booklet's other pages. The seed is chosen by reading the clues it gives, so a
new clue bank or generator may call for another: look at the images.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, Page, sync_playwright

DOCS = Path(__file__).resolve().parent
CROSSWORD_IMAGE, SLIDER_IMAGE, PDF_IMAGE = (DOCS / name for name in ("player-crossword.png", "player-slider.png",
                                                                     "pdf-page.png"))
SEED = 1  # its first crossword's clues read well and its long ADOPTIVE runs across the seam onto another row
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
CROSSWORD_WIDTH, SLIDER_WIDTH = 820, 640  # the widths of the images the README has shown
VIEWPORT_HEIGHT = 480  # below either page's height, so that a full-page shot ends where the page does
SLIDER_MOVES = 2
PDF_DPI = 110
PACKS = {
    "crossword": ["--count", "2", "--width", "11", "--height", "5"],
    "slider": ["--board", "ring", "--count", "2", "--depth", "6..15"],
}


def make_pack(kind: str, out: Path) -> Path:
    """One of the README's default packs (two puzzles instead of ten), made by the CLI."""
    command = [sys.executable, "-m", "mobius", "pack", kind, *PACKS[kind], "--seed", str(SEED), "--out", str(out)]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[1:])} failed:\n{done.stderr}")
    return out


def first_puzzle(pack: Path) -> dict[str, Any]:
    return json.loads((pack / "puzzles" / "0001.json").read_text(encoding="utf-8"))


def first_player(pack: Path) -> str:
    return (pack / "puzzles" / "0001.html").resolve().as_uri()


def changes_row(entry: dict[str, Any]) -> bool:
    """Whether the light comes back from the seam on another row (the middle row comes back onto itself)."""
    return len({y for _, y in entry["cells"]}) > 1


def shown_light(puzzle: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The across light to type: the longest that crosses the seam onto another row, where the flip shows best."""
    lights = [(i, e) for i, e in enumerate(puzzle["entries"])
              if e["direction"] == "across" and e["seam_crossings"] and changes_row(e)]
    if not lights:
        raise SystemExit(f"seed {SEED}: the first crossword has no across light that crosses the seam onto another row")
    return max(lights, key=lambda light: len(light[1]["answer"]))


def save_png(image: Image.Image, path: Path) -> None:
    image.convert("RGB").save(path, optimize=True)


def shoot(page: Page, path: Path) -> None:
    """A full-page screenshot of the page, saved small."""
    with Image.open(io.BytesIO(page.screenshot(full_page=True))) as image:
        save_png(image, path)


def open_player(browser: Browser, pack: Path, width: int) -> Page:
    # Reduced motion: a slid tile is drawn where it ends at once, not caught halfway by the screenshot.
    context = browser.new_context(viewport={"width": width, "height": VIEWPORT_HEIGHT}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(first_player(pack))
    return page


def shoot_crossword(browser: Browser, pack: Path) -> None:
    """One light across the seam typed in, and the strip view open (it opens by default; open it if that changes)."""
    index, entry = shown_light(first_puzzle(pack))
    page = open_player(browser, pack, CROSSWORD_WIDTH)
    page.click(f'.clue[data-light="{index}"]')
    page.keyboard.type(entry["answer"])
    strip = page.locator("details.strip-view")
    if strip.get_attribute("open") is None:
        strip.locator("summary").click()
    shoot(page, CROSSWORD_IMAGE)


def shoot_slider(browser: Browser, pack: Path) -> None:
    """Make the first moves of the stored solution (with one blank, each names the vertex whose tile slides)."""
    page = open_player(browser, pack, SLIDER_WIDTH)
    for vertex in first_puzzle(pack)["solution"][:SLIDER_MOVES]:
        page.click(f'.sl-board .tile[data-vertex="{vertex}"]')
    shoot(page, SLIDER_IMAGE)


def shoot_pdf_page(pack: Path, scratch: Path) -> None:
    """The top half of the booklet's first page: the first puzzle's grid, note and clues."""
    prefix = scratch / "page"
    subprocess.run(["pdftoppm", "-png", "-r", str(PDF_DPI), "-f", "1", "-l", "1", "-singlefile",
                    str(pack / "pack.pdf"), str(prefix)], check=True)
    with Image.open(prefix.with_suffix(".png")) as page:
        save_png(page.crop((0, 0, page.width, page.height // 2)), PDF_IMAGE)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="mobius-screenshots-") as temp:
        scratch = Path(temp)
        crosswords = make_pack("crossword", scratch / "mobius")
        sliders = make_pack("slider", scratch / "ring")
        shoot_pdf_page(crosswords, scratch)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            shoot_crossword(browser, crosswords)
            shoot_slider(browser, sliders)
            browser.close()
    print(f"wrote {PDF_IMAGE}, {CROSSWORD_IMAGE} and {SLIDER_IMAGE}")


if __name__ == "__main__":
    main()
