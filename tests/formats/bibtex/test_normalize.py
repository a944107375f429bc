"""Entries written from their fields (``--normalize``, or changed on the way) typeset as before:
a crossref child keeps its own fields only, entry types are kept, names split back the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bibconv
from tests.formats.bibtex.bbl_check import STYLES, bibtex_items
from tests.tools import require_tool

CHILD_AND_PARENT = r"""@incollection{child,
  author = {Lopez de Molina, G. and Doe, Jane},
  title = {A Chapter},
  crossref = {parent},
  pages = {1--10}
}

@book{parent,
  title = {The Book},
  booktitle = {The Book},
  editor = {Ed, Itor},
  publisher = {Pub},
  year = {2001},
  file = {parent.pdf},
  abstract = {Parent abstract},
  note = {Parent note},
  keywords = {alpha, beta}
}
"""
TYPES = "".join(
    f"@{kind}{{{kind}1, title = {{A {kind}}}, author = {{Doe, Jane}}, date = {{2020}}, url = {{https://x.org}}}}\n"
    for kind in ("periodical", "online", "dataset", "software", "patent", "artwork")
)


def _entry(text: str, key: str) -> str:
    found = re.search(rf"^@\w+\{{{key},\n.*?^\}}", text, re.M | re.S)
    assert found is not None, key
    return found[0]


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
def test_a_crossref_child_keeps_its_own_fields_only(dialect: str) -> None:
    records = bibconv.read(CHILD_AND_PARENT, "bibtex")
    assert records[0].fields["publisher"] == "Pub"  # the record is whole, for every other format
    child = _entry(bibconv.write(records, dialect, normalize=True) or "", "child")
    assert re.findall(r"^  (\w+) =", child, re.M) == ["title", "author", "pages", "crossref"]


def test_a_changed_crossref_child_keeps_what_changed() -> None:
    child, parent = bibconv.read(CHILD_AND_PARENT, "bibtex")
    changed = child.replace(abstract="The chapter's own abstract.")
    text = _entry(bibconv.write([changed, parent], "bibtex") or "", "child")
    assert "abstract = {The chapter's own abstract.}" in text
    assert "file" not in text
    assert "editor" not in text


@pytest.mark.parametrize("style", STYLES)
def test_bibtex_typesets_the_normalised_child_as_before(tmp_path: Path, style: str) -> None:
    require_tool("bibtex")
    before, after = tmp_path / "before", tmp_path / "after"
    before.mkdir()
    after.mkdir()
    (before / "refs.bib").write_text(CHILD_AND_PARENT, encoding="utf-8")
    written = bibconv.write(bibconv.read(CHILD_AND_PARENT, "bibtex"), "bibtex", normalize=True, ascii=True)
    (after / "refs.bib").write_text(written or "", encoding="utf-8")
    items, errors = bibtex_items(before, "refs.bib", style)
    assert not errors
    assert bibtex_items(after, "refs.bib", style) == (items, False)


def test_biblatex_types_are_kept_when_normalised() -> None:
    text = bibconv.write(bibconv.read(TYPES, "bibtex"), "biblatex", normalize=True) or ""
    assert re.findall(r"^@(\w+)\{", text, re.M) == [
        "periodical",
        "online",
        "dataset",
        "software",
        "patent",
        "artwork",
    ]
    classic = bibconv.write(bibconv.read(TYPES, "bibtex"), "bibtex", normalize=True) or ""
    assert set(re.findall(r"^@(\w+)\{", classic, re.M)) == {"misc"}  # what every classic style knows


def test_names_are_written_as_bibtex_split_them() -> None:
    text = bibconv.write(bibconv.read(CHILD_AND_PARENT, "bibtex"), "bibtex", normalize=True, ascii=True) or ""
    assert "author = {Lopez de Molina, G. and Doe, Jane}" in text  # not {Lopez de Molina}, G.
