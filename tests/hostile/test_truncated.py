"""Truncated files, unbalanced braces, unterminated strings and bad JSON in every format.

Each case goes through the command line twice: strictly (status 1, ``file:line[:col]: message
(entry key)``, no output file) and with --skip-invalid (status 1, every good record written,
the count of skipped records on the last line). Nothing but the input and the output is
touched and memory stays small.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile._support import assert_confined, assert_memory, broken_input, run_cli

BIB_1 = "@article{good1,\n  author = {Ada Lovelace},\n  title = {First},\n  year = 2001\n}\n\n"
BIB_3 = "@article{good3,\n  author = {Alan Turing},\n  title = {Third},\n  year = 2003\n}\n"
CSL_1 = '[\n  {"id": "good1", "type": "book", "title": "First"},\n'
CSL_3 = '  {"id": "good3", "type": "book", "title": "Third"}'
JSONL_1 = '{"id":"1111.2011","authors_parsed":[["Lovelace","Ada",""]],"title":"First","versions":[]}\n'
JSONL_3 = '{"id":"1111.2013","authors_parsed":[["Turing","Alan",""]],"title":"Third","versions":[]}\n'
ATOM_HEAD = '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
ATOM_ENTRY = "<entry><id>http://arxiv.org/abs/2101.0000{n}v1</id><title>{title}</title></entry>\n"
RIS_1 = "TY  - JOUR\nID  - good1\nTI  - First\nER  - \n\n"
RIS_3 = "TY  - JOUR\nID  - good3\nTI  - Third\nER  - \n"


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        pytest.param(
            "unbalanced.bib",
            BIB_1 + "@article{bad2,\n  title = {Sec{ond},\n  year = 2002\n}\n\n" + BIB_3,
            r"unbalanced\.bib:7: Unexpected block start: `@article`\. Was still looking for "
            r"field-value closing `,` or `}` \(entry bad2\)",
            id="bibtex-unbalanced-braces",
        ),
        pytest.param(
            "unterminated.bib",
            BIB_1 + '@article{bad2,\n  title = "Second,\n  year = 2002\n}\n\n' + BIB_3,
            r"unterminated\.bib:7: Unexpected block start: `@article`\. Was still looking for "
            r'field-value closing `"` \(entry bad2\)',
            id="bibtex-unterminated-string",
        ),
        pytest.param(
            "truncated.bib",
            BIB_1 + BIB_3 + "\n@article{bad4,\n  title = {Fou",
            r"truncated\.bib:13: Unexpectedly reached end of file\. \(entry bad4\)",
            id="bibtex-truncated",
        ),
        pytest.param(
            "bad.json",
            CSL_1 + '  {"id": "bad2", "type": "book", "title": "Sec" "ond"},\n' + CSL_3 + "\n]\n",
            r"bad\.json:3:49: invalid JSON: Expecting ',' delimiter",
            id="csljson-bad-json",
        ),
        pytest.param(
            "unterminated.json",
            CSL_1 + '  {"id": "bad2", "type": "book", "title": "Second},\n' + CSL_3 + "\n]\n",
            r"unterminated\.json:3:52: invalid JSON: Invalid control character",
            id="csljson-unterminated-string",
        ),
        pytest.param(
            "unbalanced.json",
            CSL_1 + '  {"id": "bad2", "type": "book", "title": "Second"]},\n' + CSL_3 + "\n]\n",
            r"unbalanced\.json:3:51: invalid JSON: Expecting ',' delimiter",
            id="csljson-unbalanced-brackets",
        ),
        pytest.param(
            "truncated.json",
            CSL_1 + CSL_3 + ',\n  {"id": "bad4", "type": "bo',
            r"truncated\.json:4:26: invalid JSON: Unterminated string",
            id="csljson-truncated",
        ),
        pytest.param(
            "bad.jsonl",
            JSONL_1 + '{"id":"1111.2012","title":"Sec\n' + JSONL_3,
            r"bad\.jsonl:2:27: invalid JSON: Unterminated string",
            id="arxiv-jsonl-unterminated-string",
        ),
        pytest.param(
            "truncated.atom",
            ATOM_HEAD
            + ATOM_ENTRY.format(n=1, title="First")
            + ATOM_ENTRY.format(n=3, title="Third")
            + "<entry><id>http://arxiv.org/abs/2101.00004v1</id><title>Fou",
            r"truncated\.atom:5:60: not well-formed XML: Premature end of data in tag title line 5, "
            r"line 5, column 60",
            id="atom-truncated",
        ),
    ],
)
def test_broken_record_is_reported_and_the_others_come_through(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    broken_input(tmp_path, name, text.encode("utf-8"), message, good=2)


def test_truncated_ris_keeps_the_last_record_with_a_warning(tmp_path: Path) -> None:
    """RIS has no nesting: a record cut short is kept, and the missing ``ER`` is reported."""
    source = tmp_path / "truncated.ris"
    source.write_text(RIS_1 + RIS_3 + "\nTY  - JOUR\nID  - cut4\nTI  - Fou", encoding="utf-8")
    run = run_cli(["convert", source.name, "-t", "csljson", "-o", "out.json"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        "truncated.ris:11: warning: the last record has no ER line (the file may be truncated); record kept"
    ]
    items = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [(i["id"], i["title"]) for i in items] == [("good1", "First"), ("good3", "Third"), ("cut4", "Fou")]
    assert_confined(run, [source], [tmp_path / "out.json"])
    assert_memory(run, 200)


@pytest.mark.parametrize(
    ("name", "text", "titles"),
    [
        pytest.param(
            "cut.html",
            "<!DOCTYPE html><html><head><title>Cut</title>"
            '<meta name="citation_title" content="A Study of Truncation">'
            '<meta name="citation_author" content="Lovelace, Ada">'
            '<meta name="citation_publication_date" content="2021/05/01">'
            '<meta name="citation_doi" content="10.1234/tr',
            ["A Study of Truncation"],
            id="html",
        ),
        pytest.param(
            "cut.txt",
            "• First paper on truncation\n\n  Ada Lovelace · 1 May 2021\n\n"
            "• Second paper on truncation\n\n  Alan Turing · 2 May 2021\n\n  An abstract that is cu",
            ["First paper on truncation", "Second paper on truncation"],
            id="text",
        ),
    ],
)
def test_truncated_page_or_listing_reads_what_is_there(
    tmp_path: Path, name: str, text: str, titles: list[str]
) -> None:
    """A page or a listing cut short is read as a browser shows it: what arrived is there."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    run = run_cli(["convert", name, "-t", "csljson", "-o", "out.json"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    items = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [i["title"] for i in items] == titles
    assert_confined(run, [source], [tmp_path / "out.json"])
    assert_memory(run, 200)
