r"""Citation commands in a field (``\cite{knuth84}`` in a note): TeX-free in plain text, kept for BibTeX."""

from __future__ import annotations

import json
import subprocess
import sys

import bibconv
from bibconv.formats.bibtex.commands import cited
from tests.tools import require_shared

ENTRY = r"""@article{a, author = {Aamport, Leslie}, title = {Gnats}, journal = {J}, year = 1986,
  note = {Volume~2 is listed under Knuth \cite{book-full}; see also \citep[see][p.~3]{x, y}\nocite{z}},
  abstract = {As shown
    in~\citeauthor{lamport},
    it works.\par
    A second paragraph \parencite*{b}.}}
"""


def test_plain_text_outputs_show_the_cited_keys() -> None:
    records = bibconv.read(ENTRY, "bibtex")
    ris = bibconv.write(records, "ris") or ""
    assert "N1 - Volume 2 is listed under Knuth [book-full]; see also [see x, y, p. 3] " in " ".join(
        ris.split()
    )
    assert "\\cite" not in ris
    (item,) = json.loads(bibconv.write(records, "csljson") or "")
    assert item["abstract"] == "As shown in\u00a0[lamport], it works.\nA second paragraph [b]."
    assert "\\" not in item["note"]
    done = subprocess.run(
        [sys.executable, "-m", "bibconv", "format", "-f", "bibtex", "-"],
        input=ENTRY,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Knuth [book-full]" in done.stdout
    assert "\\cite" not in done.stdout


def test_bibtex_keeps_the_commands_as_written() -> None:
    records = bibconv.read(ENTRY, "bibtex")
    for dialect in ("bibtex", "biblatex"):
        text = bibconv.write(records, dialect) or ""
        assert r"Knuth \cite{book-full}; see also \citep[see][p.~3]{x, y}\nocite{z}" in text
        assert r"in~\citeauthor{lamport}, it works.\par A second paragraph \parencite*{b}." in text
        (again,) = bibconv.read(text, "bibtex")
        assert (again.fields, again.extra) == (records[0].fields, records[0].extra)
    through = bibconv.read(bibconv.write(records, "csljson") or "", "csljson")
    assert r"\cite{book-full}" in (bibconv.write(through, "bibtex") or "")


def test_a_real_library_round_trips() -> None:
    path = require_shared(
        "corpus", "bibtex", "bbt_import_Some_bibtex_entries_quietly_discarded_on_import_from_bib_file_873.bib"
    )
    records = bibconv.read(str(path), strict=False)
    record = next(r for r in records if r.id == "DeanETAL:95")
    assert record.fields["annote"].startswith(
        "Full version of conference papers [Dean:93] also [DeanETAL:93]."
    )
    again = bibconv.read(bibconv.write([record], "biblatex") or "", "bibtex")[0]
    assert again.fields == record.fields
    assert again.extra == record.extra


def test_cited() -> None:
    assert cited(r"\cite{a,b}") == "[a, b]"
    assert cited(r"\Textcite[p.~5]{k}") == "[k, p.~5]"
    assert cited(r"\citep[][]{k}") == "[k]"
    assert cited(r"\nocite{*}") == ""
    assert cited(r"\citation{x} \excite{y}") == r"\citation{x} \excite{y}"  # other commands
