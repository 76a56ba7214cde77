"""A pack's title, author and copyright notice (`--title`, `--author`,
`--copyright`) and its default title ("Möbius strip …"), read back from
every format by outside readers: puzpy, ipuz, pdfinfo/pdftotext (poppler),
Exolve's text and the HTML pages' markup."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import ipuz
import puz
import pytest

TITLE, AUTHOR, NOTICE = "Möbius Weekly", "Zoë Setter", "© 2026 Zoë Setter"
CROSSWORD = ("pack", "crossword", "--count", "1", "--width", "7", "--height", "5", "--workers", "1")
# A plane pack writes .puz too; a 9×9 plane grid fills in seconds with a word cap a little above the
# area-scaled one (28), which leaves small plane grids few block patterns to fill.
PLANE = ("pack", "crossword", "--count", "1", "--width", "9", "--height", "9", "--max-words", "40", "--workers", "1",
         "--surface", "plane")


def mobius(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobius", *map(str, args)], capture_output=True, text=True,
                          timeout=300, check=False)


def made(out: Path, *args: object) -> Path:
    run = mobius(*args, "--out", out)
    assert run.returncode == 0, run.stderr
    return out


class Head(HTMLParser):
    """The <title>, the <h1>, the author meta tag and the credit line of a page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.found: dict[str, str] = {}
        self._in: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "meta" and attributes.get("name") == "author":
            self.found["author"] = attributes.get("content") or ""
        elif tag in ("title", "h1") or (tag == "p" and attributes.get("class") == "credits"):
            self._in = "credits" if tag == "p" else tag

    def handle_data(self, data: str) -> None:
        if self._in:
            self.found[self._in] = self.found.get(self._in, "") + data

    def handle_endtag(self, tag: str) -> None:
        self._in = None


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in out.splitlines())}


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def exolve_headers(path: Path) -> dict[str, str]:
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return {key: value.strip() for key, _, value in (line.partition(":") for line in lines)
            if key in ("exolve-title", "exolve-setter", "exolve-copyright")}


@pytest.fixture(scope="module")
def credited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plane pack (so that .puz is written too) with all three given."""
    return made(tmp_path_factory.mktemp("credited") / "pack", *PLANE, "--title", TITLE, "--author", AUTHOR,
                "--copyright", NOTICE)


def test_every_format_carries_the_title_author_and_copyright(credited: Path) -> None:
    puzzles = credited / "puzzles"
    numbered = f"{TITLE} #0001"
    data = json.loads((puzzles / "0001.json").read_text(encoding="utf-8"))
    assert (data["title"], data["author"], data["copyright"]) == (numbered, AUTHOR, NOTICE)
    across_lite = puz.read(str(puzzles / "0001.puz"))  # Latin-1: ö, ë and © are all in it
    assert (across_lite.title, across_lite.author, across_lite.copyright) == (numbered, AUTHOR, NOTICE)
    loaded = ipuz.read((puzzles / "0001.ipuz").read_text(encoding="utf-8"))
    assert (loaded["title"], loaded["author"], loaded["copyright"]) == (numbered, AUTHOR, NOTICE)
    assert exolve_headers(puzzles / "0001.exolve.txt") == {"exolve-title": numbered, "exolve-setter": AUTHOR,
                                                           "exolve-copyright": NOTICE}
    for pdf, heading in ((puzzles / "0001.pdf", numbered), (credited / "pack.pdf", TITLE)):
        info = pdf_info(pdf)
        assert (info["Title"], info["Author"], info["Subject"]) == (heading, AUTHOR, "Crossword puzzles")
        text = pdf_text(pdf)
        assert numbered in text and f"by {AUTHOR} · {NOTICE}" in text
    assert Head((puzzles / "0001.html").read_text(encoding="utf-8")).found == {
        "title": numbered, "h1": numbered, "author": AUTHOR, "credits": f"by {AUTHOR} · {NOTICE}"}
    assert Head((credited / "index.html").read_text(encoding="utf-8")).found == {
        "title": TITLE, "h1": TITLE, "author": AUTHOR, "credits": f"by {AUTHOR} · {NOTICE}"}
    manifest = json.loads((credited / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["title"], manifest["author"], manifest["copyright"]) == (TITLE, AUTHOR, NOTICE)
    given = manifest["parameters"]
    assert (given["title"], given["author"], given["copyright"]) == (TITLE, AUTHOR, NOTICE)


def test_the_default_title_names_the_mobius_strip_and_no_author_is_made_up(tmp_path: Path) -> None:
    pack = made(tmp_path / "pack", *CROSSWORD)
    puzzles = pack / "puzzles"
    title, booklet = "Möbius strip 7×5 #0001", "Möbius strip crosswords 7×5"
    assert json.loads((puzzles / "0001.json").read_text(encoding="utf-8"))["title"] == title
    loaded = ipuz.read((puzzles / "0001.ipuz").read_text(encoding="utf-8"))
    assert loaded["title"] == title and "author" not in loaded and "copyright" not in loaded
    assert exolve_headers(puzzles / "0001.exolve.txt") == {"exolve-title": title}
    assert pdf_info(puzzles / "0001.pdf")["Title"] == title and pdf_info(pack / "pack.pdf")["Title"] == booklet
    assert pdf_info(pack / "pack.pdf").get("Author", "") == ""  # not reportlab's "anonymous"
    assert Head((puzzles / "0001.html").read_text(encoding="utf-8")).found == {"title": title, "h1": title}
    assert Head((pack / "index.html").read_text(encoding="utf-8")).found == {"title": booklet, "h1": booklet}
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["title"], manifest["author"], manifest["copyright"]) == (booklet, "", "")


def test_a_slider_pack_carries_them_too(tmp_path: Path) -> None:
    pack = made(tmp_path / "pack", "pack", "slider", "--count", "1", "--depth", "3", "--workers", "1",
                "--title", "Rings", "--author", AUTHOR, "--copyright", NOTICE)
    info = pdf_info(pack / "pack.pdf")
    assert (info["Title"], info["Author"], info["Subject"]) == ("Rings", AUTHOR, "Slider puzzles")
    assert Head((pack / "puzzles" / "0001.html").read_text(encoding="utf-8")).found == {
        "title": "Rings #0001", "h1": "Rings #0001", "author": AUTHOR, "credits": f"by {AUTHOR} · {NOTICE}"}
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["title"], manifest["author"], manifest["copyright"]) == ("Rings", AUTHOR, NOTICE)


@pytest.mark.parametrize("option, value, expected", [("--title", "Line one\nline two", "printable"),
                                                     ("--author", "x" * 81, "at most 80 characters")])
def test_a_title_or_author_is_one_short_line(tmp_path: Path, option: str, value: str, expected: str) -> None:
    run = mobius(*CROSSWORD, "--out", tmp_path / "pack", option, value)
    assert run.returncode == 2 and expected in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "pack").exists()
