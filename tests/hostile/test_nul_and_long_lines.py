"""NUL bytes and 10 MB single lines in every format.

A NUL byte is no text character: it means a binary file or UTF-16 without a byte-order mark.
It is reported with its line and column; with --skip-invalid only its record is skipped.
Lines of 10 MB (minified JSON, a whole .bib on one line, a huge abstract) are read in bounded
memory; a field over the field-size limit is refused with the limit named.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile._support import assert_confined, assert_memory, broken_input, run_cli

NUL_HINT = "is this a binary file, or UTF-16 without a byte-order mark\\?"


@pytest.mark.parametrize(
    ("name", "text", "where", "record", "entry"),
    [
        (
            "nul.bib",
            "@book{good1, title = {First}}\n@book{bad2, title = {Sec\0ond}}\n@book{good3, title = {Third}}\n",
            "2:25",
            2,
            "bad2",
        ),
        (
            "nul.ris",
            "TY  - BOOK\nID  - good1\nTI  - First\nER  - \nTY  - BOOK\nID  - bad2\nTI  - Sec\0ond\nER  - \n"
            "TY  - BOOK\nID  - good3\nTI  - Third\nER  - \n",
            "7:10",
            5,
            "bad2",
        ),
        (
            "nul.json",
            '[{"id": "good1", "type": "book", "title": "First"},\n'
            '{"id": "bad2", "type": "book", "title": "Sec\0ond"},\n'
            '{"id": "good3", "type": "book", "title": "Third"}]\n',
            "2:45",
            2,
            "bad2",
        ),
        (
            "nul.jsonl",
            '{"id":"1111.2011","authors_parsed":[["A","B",""]],"title":"First","versions":[]}\n'
            '{"id":"1111.2012","authors_parsed":[["A","B",""]],"title":"Sec\0ond","versions":[]}\n'
            '{"id":"1111.2013","authors_parsed":[["A","B",""]],"title":"Third","versions":[]}\n',
            "2:63",
            2,
            None,
        ),
        (
            "nul.txt",
            "• First paper about nothing much\n\n  Ada Lovelace · 1 May 2021\n\n"
            "• Second paper ab\0out nothing\n\n  Alan Turing · 2 May 2021\n\n"
            "• Third paper about nothing else\n\n  Grace Hopper · 3 May 2021\n",
            "5:18",
            5,
            None,
        ),
    ],
)
def test_nul_byte_is_reported_and_skips_only_its_record(
    tmp_path: Path, name: str, text: str, where: str, record: int, entry: str | None
) -> None:
    escaped = name.replace(".", r"\.")
    key = rf" \(entry {entry}\)" if entry else ""
    broken_input(
        tmp_path,
        name,
        text.encode("utf-8"),
        rf"{escaped}:{where}: NUL byte \(0x00\) in the text: {NUL_HINT}",
        good=2,
        error=rf"{escaped}:{record}: error: NUL byte \(0x00\) in the record: {NUL_HINT}{key}",
    )


def test_nul_byte_in_a_feed_is_an_xml_error(tmp_path: Path) -> None:
    entry = "<entry><id>http://arxiv.org/abs/2101.0000{n}v1</id><title>{title}</title></entry>\n"
    text = (
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        + entry.format(n=1, title="First")
        + entry.format(n=2, title="Sec\0ond")
        + "</feed>\n"
    )
    broken_input(
        tmp_path,
        "nul.atom",
        text.encode("utf-8"),
        r"nul\.atom:3:60: not well-formed XML: Invalid character: Char 0x0 out of allowed range",
        good=1,
    )


def test_nul_byte_in_a_page_is_replaced_as_browsers_do(tmp_path: Path) -> None:
    source = tmp_path / "nul.html"
    source.write_bytes(
        b'<!DOCTYPE html><html><head><meta charset="utf-8">'
        b'<meta name="citation_title" content="Zero\x00Width">'
        b'<meta name="citation_author" content="Lovelace, Ada"></head><body>x\x00y</body></html>'
    )
    run = run_cli(["convert", source.name, "-t", "csljson", "-o", "out.json"], tmp_path)
    assert run.returncode == 0, run.stderr
    (item,) = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert item["title"] == "Zero\ufffdWidth"
    assert_confined(run, [source], [tmp_path / "out.json"])


MIB = 1 << 20


def _long_line_run(tmp_path: Path, name: str, data: bytes, mib: int = 250) -> list[dict[str, object]]:
    source = tmp_path / name
    source.write_bytes(data)
    run = run_cli(["convert", name, "-t", "csljson", "-o", "out.json", "-j", "1"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert_confined(run, [source], [tmp_path / "out.json"])
    assert_memory(run, mib)
    items: list[dict[str, object]] = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    return items


def test_minified_csljson_on_one_10mb_line(tmp_path: Path) -> None:
    item = '{"id":"k%d","type":"article-journal","title":"Paper %d","abstract":"%s"}'
    body = ",".join(item % (i, i, "x" * 1000) for i in range(10_500))
    data = f"[{body}]".encode()
    assert len(data) > 10 * MIB
    assert b"\n" not in data
    items = _long_line_run(tmp_path, "minified.json", data)
    assert len(items) == 10_500
    assert items[-1]["id"] == "k10499"


def test_whole_bib_file_on_one_10mb_line(tmp_path: Path) -> None:
    entry = "@article{k%d, author = {Lovelace, Ada and Turing, Alan}, title = {Paper %d}, abstract = {%s}} "
    data = "".join(entry % (i, i, "x" * 10_000) for i in range(1_100)).encode()
    assert len(data) > 10 * MIB
    assert b"\n" not in data
    items = _long_line_run(tmp_path, "oneline.bib", data)
    assert len(items) == 1_100
    assert items[5]["title"] == "Paper 5"


def test_arxiv_snapshot_line_with_a_10mb_abstract(tmp_path: Path) -> None:
    line = {
        "id": "2101.00001",
        "authors_parsed": [["Lovelace", "Ada", ""]],
        "title": "Long",
        "abstract": "wörd " * 1_800_000,
        "versions": [],
    }
    data = (json.dumps(line, ensure_ascii=False) + "\n").encode()
    assert len(data) > 10 * MIB
    (item,) = _long_line_run(tmp_path, "long.jsonl", data)
    assert str(item["abstract"]).count("wörd") == 1_800_000


def test_field_over_the_limit_is_refused_by_name(tmp_path: Path) -> None:
    """A 10.5 MB abstract is over the 10,000,000-character field limit: refused, named, skipped."""
    huge = "x" * (10 * MIB + 100)
    text = (
        "TY  - JOUR\nID  - good1\nTI  - First\nER  - \n"
        f"TY  - JOUR\nID  - huge2\nTI  - Second\nAB  - {huge}\nER  - \n"
        "TY  - JOUR\nID  - good3\nTI  - Third\nER  - \n"
    )
    message = r"field 'abstract' has 10,485,860 characters, over the limit of 10,000,000 \(entry huge2\)"
    broken_input(
        tmp_path,
        "huge.ris",
        text.encode(),
        rf"huge\.ris:5: {message}",
        good=2,
        mib=300,
    )
