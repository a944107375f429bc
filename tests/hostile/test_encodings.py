"""Encodings: invalid UTF-8, UTF-16 with a byte-order mark, Latin-1 (Windows-1252) .bib and RIS files.

Decisions (see the README): a file is UTF-8 unless a byte-order mark says UTF-16/32. A .bib or
RIS file in a single-byte encoding (not UTF-8, and its bytes beyond ASCII make fewer UTF-8
characters than they leave invalid) is read as Windows-1252 (a superset of Latin-1), with a
warning naming the first invalid byte: old .bib files and RIS files exported as "ANSI" are
Latin-1, and users need them read.
Anywhere else an invalid byte is an error naming its line, column and value; with
--skip-invalid only the record that holds it is skipped. HTML pages follow the browser rules.
"""

from __future__ import annotations

import codecs
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import bibconv
from bibconv import parallel
from bibconv.formats.encoding import HEAD_SIZE
from tests.hostile._support import assert_confined, assert_memory, broken_input, run_cli

HINT = r"\(save the file as UTF-8, or convert it with iconv\)"

BIB = (
    "@article{godel31,\n  author = {Kurt Gödel},\n  title = {Über formal unentscheidbare Sätze},\n"
    "  year = 1931\n}\n\n@book{bad2,\n  title = {Caf\udce9},\n  year = 2002\n}\n\n"
    "@book{good3,\n  author = {Émile Borel},\n  title = {Leçons},\n  year = 1898\n}\n"
)
RIS = (
    "TY  - JOUR\nID  - godel31\nTI  - Über Sätze\nER  - \n\nTY  - BOOK\nID  - bad2\nTI  - Caf\udce9\n"
    "ER  - \n\nTY  - BOOK\nID  - good3\nTI  - Leçons\nER  - \n"
)
CSL = (
    '[\n  {"id": "godel31", "type": "book", "title": "Über Sätze"},\n'
    '  {"id": "bad2", "type": "book", "title": "Caf\udce9"},\n'
    '  {"id": "good3", "type": "book", "title": "Leçons"}\n]\n'
)
JSONL = (
    '{"id":"1111.2011","authors_parsed":[["Gödel","Kurt",""]],"title":"Über","versions":[]}\n'
    '{"id":"1111.2012","authors_parsed":[["Borel","Émile",""]],"title":"Caf\udce9","versions":[]}\n'
    '{"id":"1111.2013","authors_parsed":[["Borel","Émile",""]],"title":"Leçons","versions":[]}\n'
)
TEXT = (
    "• Über formal unentscheidbare Sätze der Principia Mathematica\n\n  Kurt Gödel · 1 May 1931\n\n"
    "• Caf\udce9 au lait and other drinks considered\n\n  Émile Borel · 2 May 1932\n\n"
    "• Leçons sur la théorie des fonctions\n\n  Émile Borel · 3 May 1933\n"
)


def encoded(text: str) -> bytes:
    """UTF-8 with the byte 0xe9 where the text holds the stand-in U+DCE9."""
    return text.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize(
    ("name", "text", "line", "column", "entry"),
    [
        ("mixed.bib", BIB, 8, 15, "bad2"),
        ("bad.ris", RIS, 8, 10, "bad2"),
        ("bad.json", CSL, 3, 47, "bad2"),
        ("bad.jsonl", JSONL, 2, 71, None),
        ("bad.txt", TEXT, 5, 6, None),
    ],
)
def test_invalid_utf8_names_the_byte_and_skips_only_its_record(
    tmp_path: Path, name: str, text: str, line: int, column: int, entry: str | None
) -> None:
    escaped = name.replace(".", r"\.")
    record_line = {"mixed.bib": 7, "bad.ris": 6, "bad.json": 3, "bad.jsonl": 2, "bad.txt": 5}[name]
    key = rf" \(entry {entry}\)" if entry else ""
    broken_input(
        tmp_path,
        name,
        encoded(text),
        rf"{escaped}:{line}:{column}: invalid utf-8 byte 0xe9 {HINT}",
        good=2,
        error=rf"{escaped}:{record_line}: error: invalid utf-8 byte 0xe9 in the record {HINT}{key}",
    )


def test_latin1_bib_is_read_as_windows_1252_with_a_warning(tmp_path: Path) -> None:
    source = tmp_path / "latin1.bib"
    text = (
        "% Saved by an old editor\n@article{descartes1641,\n  author = {René Descartes},\n"
        "  title = {Méditations métaphysiques – “Première”},\n  year = 1641\n}\n"
    )
    source.write_bytes(text.encode("cp1252"))
    out = tmp_path / "out.json"
    run = run_cli(["convert", source.name, "-t", "csljson", "-o", out.name], tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        "latin1.bib:3:16: warning: byte 0xe9 is not UTF-8: reading the file as Windows-1252 (Latin-1);"
        " save it as UTF-8 to be sure of its characters"
    ]
    (item,) = json.loads(out.read_text(encoding="utf-8"))
    assert item["title"] == "Méditations métaphysiques – “Première”"
    assert item["author"] == [{"family": "Descartes", "given": "René"}]
    assert_confined(run, [source], [out])
    assert_memory(run, 200)


def _latin1_entry(key: str) -> bytes:
    return f"@book{{{key},\n  author = {{René Descartes}},\n  title = {{Méditations}}\n}}\n".encode("cp1252")


def _utf8_entries(count: int) -> bytes:
    return "".join(
        f"@book{{k{n},\n  author = {{Kurt Gödel}},\n  title = {{Über Sätze {n}}}\n}}\n" for n in range(count)
    ).encode("utf-8")


def test_a_utf8_bib_with_a_latin1_entry_first_keeps_its_utf8(tmp_path: Path) -> None:
    # The first non-ASCII byte is Latin-1, but the file's other 200 accented letters are UTF-8:
    # reading it all as Windows-1252 would turn every one into two letters ("GÃ¶del").
    source = tmp_path / "pasted.bib"
    source.write_bytes(_latin1_entry("descartes") + _utf8_entries(100))
    reports: list[bibconv.Diagnostic] = []
    records = bibconv.iter_records(source, strict=False, diagnostics=reports)
    items = json.loads(bibconv.write(records, "csljson", diagnostics=reports) or "")
    assert len(items) == 100
    assert {item["author"][0]["family"] for item in items} == {"Gödel"}
    assert [str(r) for r in reports] == [
        f"{source}:1: error: invalid utf-8 byte 0xe9 in the record"
        " (save the file as UTF-8, or convert it with iconv) (entry descartes)"
    ]


def _latin1_ris(key: str) -> bytes:
    text = f"TY  - BOOK\r\nID  - {key}\r\nAU  - Descartes, René\r\nTI  - Méditations\r\nER  - \r\n\r\n"
    return text.encode("cp1252")


def test_an_ansi_ris_export_is_read_as_windows_1252_with_a_warning(tmp_path: Path) -> None:
    source = tmp_path / "endnote.ris"
    text = (
        "TY  - JOUR\r\nAU  - Gödel, Kurt\r\nTI  - Über formal unentscheidbare Sätze – “I”\r\n"
        "PY  - 1931\r\nER  - \r\n"
    )
    source.write_bytes(text.encode("cp1252"))
    out = tmp_path / "out.json"
    run = run_cli(["convert", source.name, "-t", "csljson", "-o", out.name], tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        "endnote.ris:2:8: warning: byte 0xf6 is not UTF-8: reading the file as Windows-1252 (Latin-1);"
        " save it as UTF-8 to be sure of its characters"
    ]
    (item,) = json.loads(out.read_text(encoding="utf-8"))
    assert item["title"] == "Über formal unentscheidbare Sätze – “I”"
    assert item["author"] == [{"family": "Gödel", "given": "Kurt"}]


def test_a_latin1_ris_from_a_pipe_is_read_as_windows_1252() -> None:
    reports: list[bibconv.Diagnostic] = []
    stream = io.BufferedReader(io.BytesIO(_latin1_ris("d1") + _latin1_ris("d2")))  # type: ignore[arg-type]
    stream.seekable = lambda: False  # type: ignore[method-assign]
    records = list(bibconv.iter_records(stream, "ris", strict=False, diagnostics=reports))
    assert [r.title for r in records] == ["Méditations", "Méditations"]
    (report,) = reports
    assert "reading the file as Windows-1252" in str(report)


def test_a_ris_stream_is_judged_by_its_head_and_still_streams() -> None:
    # A stream that cannot seek is not read whole first: its first 64 KiB decide.
    pulled = 0
    records = [_latin1_ris(f"d{n}") for n in range(20_000)]

    def lines() -> Iterator[bytes]:
        nonlocal pulled
        for record in records:
            pulled += len(record)
            yield record

    reports: list[bibconv.Diagnostic] = []
    read = bibconv.iter_records(lines(), "ris", strict=False, diagnostics=reports)
    assert next(read).title == "Méditations"
    assert pulled < 4 * HEAD_SIZE < sum(map(len, records))
    assert sum(1 for _ in read) == 19_999
    (report,) = reports
    assert "reading the file as Windows-1252" in str(report)


@pytest.mark.parametrize(
    ("name", "entry", "writer", "written", "place"),
    [
        ("old.bib", _latin1_entry, "csljson", "Méditations", "2:16"),
        ("old.ris", _latin1_ris, "bibtex", "M{\\'{e}}ditations", "3:21"),
    ],
)
def test_a_latin1_file_in_pieces_reads_as_one_with_one_warning(
    tmp_path: Path, name: str, entry: Callable[[str], bytes], writer: str, written: str, place: str
) -> None:
    # --jobs reads pieces on their own: each is told the file's encoding and where its warning goes.
    source = tmp_path / name
    source.write_bytes(b"".join(entry(f"d{n}") for n in range(400)))
    serial: list[bibconv.Diagnostic] = []
    expected = bibconv.write(bibconv.iter_records(source, strict=False, diagnostics=serial), writer)
    reports: list[bibconv.Diagnostic] = []
    out = io.StringIO(newline="")
    pieces = {"jobs": 2, "strict": False, "diagnostics": reports, "piece_size": 2000}
    assert parallel.convert([str(source)], writer, out, **pieces)
    assert out.getvalue() == expected
    assert written in out.getvalue()
    assert (
        [str(r) for r in reports]
        == [str(r) for r in serial]
        == [
            f"{source}:{place}: warning: byte 0xe9 is not UTF-8: reading the file as Windows-1252 (Latin-1);"
            " save it as UTF-8 to be sure of its characters"
        ]
    )


def test_a_few_utf8_looking_bytes_do_not_make_a_latin1_file_utf8() -> None:
    # "groß”" in Windows-1252 is 0xdf 0x94, which is also a UTF-8 character (U+07D4).
    text = "@misc{a, title = {Groß” und größer}, note = {Café, élan, déjà}}\n"
    (record,) = bibconv.read(text.encode("cp1252"), "bibtex", strict=False)
    assert record.title == "Groß” und größer"


UTF16_SAMPLES = {
    "bibtex": "@book{kg, author = {Kurt Gödel}, title = {Über Sätze – 𝔄}, year = 1931}\n",
    "ris": "TY  - BOOK\r\nID  - kg\r\nAU  - Gödel, Kurt\r\nTI  - Über Sätze – 𝔄\r\nPY  - 1931\r\nER  - \r\n",
    "csljson": '[{"id": "kg", "type": "book", "title": "Über Sätze – 𝔄", "author": [{"family": "Gödel",'
    ' "given": "Kurt"}], "issued": {"date-parts": [[1931]]}}]',
    "arxiv-jsonl": '{"id":"1111.2011","authors_parsed":[["Gödel","Kurt",""]],"title":"Über Sätze – 𝔄",'
    '"versions":[{"version":"v1","created":"Mon, 1 Jan 1931 00:00:00 GMT"}]}\n',
    "atom": '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
    "<id>http://arxiv.org/abs/1111.2011v1</id><title>Über Sätze – 𝔄</title>"
    "<author><name>Kurt Gödel</name></author><published>1931-01-01T00:00:00Z</published></entry></feed>\n",
    "html": '<!DOCTYPE html><html><head><meta name="citation_title" content="Über Sätze – 𝔄">'
    '<meta name="citation_author" content="Gödel, Kurt">'
    '<meta name="citation_publication_date" content="1931"></head><body></body></html>',
    "text": "• Über Sätze – 𝔄 and other undecidable things\n\n  Kurt Gödel · 1 January 1931\n",
}


@pytest.mark.parametrize("reader", sorted(UTF16_SAMPLES))
def test_utf16_with_a_byte_order_mark_reads_like_utf8(tmp_path: Path, reader: str) -> None:
    text = UTF16_SAMPLES[reader]
    source = tmp_path / "utf16"
    source.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    run = run_cli(["convert", source.name, "-f", reader, "-t", "csljson", "-o", "out.json"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert_confined(run, [source], [tmp_path / "out.json"])
    assert_memory(run, 200)
    items = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    (item,) = items
    assert item["title"].startswith("Über Sätze – 𝔄")
    assert item["author"][0]["family"] == "Gödel"
    as_utf8 = bibconv.read(text.encode("utf-8"), reader)
    as_utf16_be = bibconv.read(codecs.BOM_UTF16_BE + text.encode("utf-16-be"), reader)
    assert as_utf16_be == as_utf8
    assert json.loads(bibconv.write(as_utf8, "csljson") or "") == items
