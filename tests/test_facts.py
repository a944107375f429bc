"""bibconv's own notes on a record travel through every format where no style prints them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import bibconv
from bibconv import facts
from bibconv.facts import MORE_AUTHORS_NOTE, TRUNCATED_NOTE
from bibconv.projection import project
from tests.tools import require_tool

NOTES = f"{TRUNCATED_NOTE}; {MORE_AUTHORS_NOTE}"
RECORD = bibconv.Record(
    type="article",
    id="doe2026study",
    fields={
        "title": "A Study",
        "abstract": "We study…",
        "note": "Seen on a slide",
        "URL": "https://example.org/a",
    },
    names={"author": [bibconv.Name(family="Doe", given="Jane")]},
    dates={"issued": bibconv.Date(parts=((2026,),))},
    extra={facts.NOTE_KEY: NOTES},
)
WRITERS = ("bibtex", "biblatex", "csljson", "ris")


@pytest.mark.parametrize("fmt", WRITERS)
def test_notes_are_written_apart_and_read_back(fmt: str) -> None:
    text = bibconv.write([RECORD], fmt) or ""
    (back,) = bibconv.read(text, "bibtex" if fmt == "biblatex" else fmt)
    assert facts.notes(back.extra) == [TRUNCATED_NOTE, MORE_AUTHORS_NOTE]
    assert back.fields["note"] == "Seen on a slide"  # the work's own note stays the work's
    assert back == project(RECORD, fmt).replace(id=back.id)


def test_where_each_format_keeps_them() -> None:
    assert f"bibconv-note = {{{NOTES}}}" in (bibconv.write([RECORD], "bibtex") or "")
    item = json.loads(bibconv.write([RECORD], "csljson") or "")[0]
    assert (item["note"], item["custom"]["bibconv:note"]) == ("Seen on a slide", NOTES)
    ris = (bibconv.write([RECORD], "ris") or "").splitlines()
    assert [line for line in ris if line.startswith("N1")] == [
        "N1  - Seen on a slide",
        f"N1  - bibconv: {TRUNCATED_NOTE}",
        f"N1  - bibconv: {MORE_AUTHORS_NOTE}",
    ]


@pytest.mark.parametrize("style", ["plain", "alpha", "ieeetr"])
def test_bibtex_does_not_print_them(tmp_path: Path, style: str) -> None:
    require_tool("bibtex")
    (tmp_path / "refs.bib").write_text(bibconv.write([RECORD], "bibtex") or "", encoding="utf-8")
    (tmp_path / "a.aux").write_text(
        f"\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{refs}}\n", encoding="utf-8"
    )
    subprocess.run(["bibtex", "a"], cwd=tmp_path, capture_output=True, timeout=60, check=True)
    bbl = (tmp_path / "a.bbl").read_text(encoding="utf-8")
    assert "Seen on a slide" in bbl
    assert "source listing" not in bbl


def test_biber_does_not_print_them(tmp_path: Path) -> None:
    require_tool("pdflatex")
    require_tool("biber")
    (tmp_path / "refs.bib").write_text(bibconv.write([RECORD], "biblatex") or "", encoding="utf-8")
    (tmp_path / "a.tex").write_text(
        "\\documentclass{article}\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}"
        "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n",
        encoding="utf-8",
    )
    subprocess.run(
        ["pdflatex", "-interaction=batchmode", "-draftmode", "a.tex"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    run = subprocess.run(
        ["biber", "a"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stdout
    assert "WARN" not in run.stdout
    bbl = (tmp_path / "a.bbl").read_text(encoding="utf-8")
    assert "Seen on a slide" in bbl
    assert "source listing" not in bbl


def test_a_users_ris_note_that_starts_like_ours_stays_the_users() -> None:
    ris = (
        "TY  - JOUR\nTI  - A title\nAU  - Doe, Jane\nPY  - 2020\n"
        "N1  - bibconv: converted twice, check the accents\n"
        f"N1  - bibconv: {MORE_AUTHORS_NOTE}\nER  - \n"
    )
    (record,) = bibconv.read(ris, "ris")
    assert record.fields["note"] == "bibconv: converted twice, check the accents"
    assert facts.notes(record.extra) == [MORE_AUTHORS_NOTE]
    assert "note = {bibconv: converted twice, check the accents}" in (bibconv.write([record], "bibtex") or "")
