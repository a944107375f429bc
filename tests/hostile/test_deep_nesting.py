"""Deeply nested input: XML elements, JSON arrays, HTML blocks, BibTeX braces.

Parsers that recurse or scan their stack per level must not crash (``RecursionError``), hang
or blow up memory: too-deep XML and JSON are parse errors naming the place, and only the
record holding them is lost; HTML deeper than 10,000 block levels is refused (its parse
time grows with the square of the depth); deep inline HTML and BibTeX braces just read.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.hostile._support import ROOT, assert_confined, assert_memory, broken_input, run_cli

DEPTH = 100_000


def test_deep_xml_elements_are_a_parse_error(tmp_path: Path) -> None:
    entry = "<entry><id>http://arxiv.org/abs/2101.0000{n}v1</id><title>{title}</title></entry>\n"
    text = (
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        + entry.format(n=1, title="First")
        + entry.format(n=2, title="<b>" * DEPTH + "deep" + "</b>" * DEPTH)
        + "</feed>\n"
    )
    broken_input(
        tmp_path,
        "deep.atom",
        text.encode(),
        r"deep\.atom:3:\d+: not well-formed XML: Excessive depth in document: 256, use XML_PARSE_HUGE"
        r" option, line 3, column \d+",
        good=1,
        mib=150,
    )


def test_deep_json_array_is_a_parse_error_and_the_next_item_is_read(tmp_path: Path) -> None:
    text = (
        '[{"id": "good1", "type": "book", "title": "First"},\n'
        + "[" * DEPTH
        + "]" * DEPTH
        + ',\n{"id": "good3", "type": "book", "title": "Third"}]\n'
    )
    broken_input(
        tmp_path,
        "deep.json",
        text.encode(),
        r"deep\.json:2:1: invalid JSON: arrays or objects nested too deeply",
        good=2,
        mib=150,
    )


def test_deep_json_line_in_a_snapshot(tmp_path: Path) -> None:
    good = '{{"id":"1111.201{n}","authors_parsed":[["A","B",""]],"title":"T{n}","versions":[]}}\n'
    text = good.format(n=1) + '{"a":' * DEPTH + "1" + "}" * DEPTH + "\n" + good.format(n=3)
    broken_input(
        tmp_path,
        "deep.jsonl",
        text.encode(),
        r"deep\.jsonl:2: invalid JSON: arrays or objects nested too deeply",
        good=2,
        mib=150,
    )


def test_html_nested_beyond_10000_blocks_is_refused(tmp_path: Path) -> None:
    page = (ROOT / "fixtures" / "html" / "read" / "own" / "list_de.html").read_text(encoding="utf-8")
    text = page.replace("</body>", "<div>" * 10_001 + "</body>")
    start = time.perf_counter()
    broken_input(
        tmp_path,
        "deep.html",
        text.encode(),
        r"deep\.html:1: cannot parse the page as HTML: <div> elements nest more than 10,000 deep"
        r" \(a real page nests a few dozen\); refusing the page",
        good=0,
        mib=150,
    )
    assert time.perf_counter() - start < 30


def test_an_element_with_100000_attributes_is_refused(tmp_path: Path) -> None:
    """lexbor's time grows faster than the square of an element's attributes (minutes for 100,000)."""
    page = (ROOT / "fixtures" / "html" / "read" / "own" / "list_de.html").read_text(encoding="utf-8")
    attributes = "".join(f' a{i} = "v w"' for i in range(100_000))
    text = page.replace('<li class="pub">', f'<li class="pub"{attributes}>', 1)
    start = time.perf_counter()
    broken_input(
        tmp_path,
        "attributes.html",
        text.encode(),
        r"attributes\.html:1: cannot parse the page as HTML: an element on line 8 has 100,001 attributes,"
        r" more than 256 \(a real page has a few dozen\); refusing the page",
        good=0,
        mib=150,
    )
    assert time.perf_counter() - start < 30
    few = page.replace('<li class="pub">', '<li class="pub"' + attributes[: attributes.index(" a200 ")] + ">")
    assert len(_reads(tmp_path, "few.html", few)) == 3


def _reads(tmp_path: Path, name: str, text: str) -> list[dict[str, object]]:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    run = run_cli(["convert", name, "-t", "csljson", "-o", "out.json"], tmp_path, timeout=60)
    assert time.perf_counter() - start < 30
    assert run.returncode == 0, run.stderr
    assert_confined(run, [source], [tmp_path / "out.json"])
    assert_memory(run, 250)
    items: list[dict[str, object]] = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    return items


def test_deep_inline_html_reads(tmp_path: Path) -> None:
    """Inline elements do not make the parser scan its stack: 100,000 nested spans just read."""
    page = (ROOT / "fixtures" / "html" / "read" / "own" / "list_de.html").read_text(encoding="utf-8")
    text = page.replace("</body>", "<span>" * DEPTH + "tief" + "</span>" * DEPTH + "</body>")
    items = _reads(tmp_path, "spans.html", text)
    assert len(items) == 3
    assert all("tief" not in str(item.get("title")) for item in items)


def test_deep_bibtex_braces_read(tmp_path: Path) -> None:
    text = (
        "@book{good1, title = {First}}\n"
        f"@book{{deep2, title = {{{'{' * DEPTH}Deep{'}' * DEPTH}}}}}\n"
        "@book{good3, title = {Third}}\n"
    )
    items = _reads(tmp_path, "deep.bib", text)
    assert [(i["id"], i["title"]) for i in items] == [
        ("good1", "First"),
        ("deep2", '<span class="nocase">Deep</span>'),
        ("good3", "Third"),
    ]


def _nested(opener: str, depth: int = 200) -> str:
    return opener * depth + "x" + "}" * depth


def _deep_tex_inputs(deep: str) -> dict[str, tuple[str, str]]:
    """One input per format: a good record, then one whose title nests TeX ``deep`` (line 2 or 3)."""
    atom_entry = "<entry><id>http://arxiv.org/abs/2101.0000{n}v1</id><title>{title}</title></entry>\n"
    jsonl = '{{"id": "2101.0000{n}", "title": {title}, "authors": "A. B", "abstract": "x"}}\n'
    return {
        "deep.bib": ("@book{good1, title = {First}}\n@book{deep2, title = {" + deep + "}}\n", ":2: "),
        "deep.atom": (
            '<feed xmlns="http://www.w3.org/2005/Atom">\n'
            + atom_entry.format(n=1, title="First")
            + atom_entry.format(n=2, title=deep)
            + "</feed>\n",
            ":3: ",
        ),
        "deep.jsonl": (
            jsonl.format(n=1, title='"First"') + jsonl.format(n=2, title=json.dumps(deep)),
            ":2: ",
        ),
        "deep.txt": (
            f"Papers\n\n• First paper\n\n  Ann Lee · 2026\n\n• {deep}\n\n  Ann Lee · 2026\n",
            ":7: ",
        ),
    }


def test_deep_tex_is_a_bad_record_in_every_reader(tmp_path: Path) -> None:
    """200 nested ``\\"{`` (888 bytes) gave a RecursionError through --skip-invalid."""
    for name, (text, line) in _deep_tex_inputs(_nested('\\"{')).items():
        folder = tmp_path / name.replace(".", "_")
        folder.mkdir()
        location = re.escape(name) + line
        broken_input(folder, name, text.encode(), location + r"TeX groups nested more than 64 deep.*", good=1)


@pytest.mark.parametrize("opener", ["\\'{", "\\c{", "\\v{", "\\url{", "\\href{x}{", "\\textcolor{red}{"])
def test_deep_tex_through_any_macro_is_one_skipped_record(opener: str) -> None:
    import bibconv

    diagnostics: list[bibconv.Diagnostic] = []
    text = "@book{good1, title = {First}}\n@book{deep2, title = {" + _nested(opener) + "}}\n"
    records = bibconv.read(text, "bibtex", strict=False, diagnostics=diagnostics)
    assert [r.id for r in records] == ["good1"]
    assert [d.message for d in diagnostics if d.severity == "error"] == [
        "TeX groups nested more than 64 deep"
    ]
