"""The README's "From Python" examples run as doctests, from the repository's root."""

from __future__ import annotations

import doctest
import re
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## From Python"


def python_examples() -> str:
    """The ```pycon blocks of the README's "From Python" section, as one doctest text."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", len(SECTION))]
    blocks = re.findall(r"```pycon\n(.*?)```", section, flags=re.DOTALL)
    assert blocks, "the section has no pycon block"
    return "\n".join(blocks)


def test_the_from_python_examples_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the pack example's temporary directory
    examples = doctest.DocTestParser().get_doctest(python_examples(), {}, "README.md", str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(examples)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted >= 15
