"""Text that made a reader's own scanning quadratic (not a pattern of its own any more, so
test_regex_linear does not see it): each 100 KB case is read in well under a second."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from bibconv.formats.arxiv_jsonl import record_from_snapshot
from bibconv.formats.bibtex.names import split_bibtex_names
from bibconv.formats.listing.common import parse_byline
from bibconv.formats.listing.values import _has_tex
from bibconv.keys import KeyAssigner
from bibconv.latex import encode
from bibconv.latex.fast import fast_decode
from bibconv.model import Record

SIZE = 100_000


def _fast(work: Callable[[], object]) -> object:
    start = time.perf_counter()
    result = work()
    took = time.perf_counter() - start
    assert took < 2, f"{took:.1f} s"
    return result


def test_nested_braces_around_a_name() -> None:
    name = "{" * (SIZE // 2) + "Acme" + "}" * (SIZE // 2)
    assert _fast(lambda: split_bibtex_names(name)) == split_bibtex_names("{Acme}")
    [literal] = split_bibtex_names("{ {Acme Corp} }")
    assert literal.literal == "Acme Corp"


def test_a_given_name_of_many_lowercase_words() -> None:
    given = "Antal " + "van " * (SIZE // 4) + "X"
    item = {"id": "2101.00001", "title": "T", "authors_parsed": [["Bosch", given, ""]]}
    _fast(lambda: record_from_snapshot(item))
    item["authors_parsed"] = [["Bosch", "Antal van den", ""]]
    [name] = record_from_snapshot(item).names["author"]
    assert (name.given, name.non_dropping_particle, name.family) == ("Antal", "van den", "Bosch")


@pytest.mark.parametrize("filler", ["-", ",", " ", "a "])
def test_a_byline_ending_in_a_year(filler: str) -> None:
    text = "Ada Lovelace" + filler * (SIZE // len(filler)) + "x"
    _fast(lambda: parse_byline(text))
    byline = parse_byline("Ada Lovelace, Alan Turing · 2026")
    assert byline is not None
    assert [n.family for n in byline.authors] == ["Lovelace", "Turing"]
    assert byline.date is not None
    assert byline.date.parts == ((2026,),)


@pytest.mark.parametrize("opener", ["\\(", "\\[", "a\\$", "$$"])
def test_math_left_open(opener: str) -> None:
    text = opener * (SIZE // len(opener))
    _fast(lambda: encode(text))
    _fast(lambda: _has_tex(text))
    _fast(lambda: fast_decode(text))
    _fast(lambda: KeyAssigner().assign(Record(id="", type="article", fields={"title": text})))
    assert encode("a \\(x^2\\) b $y$ c \\[z\\]") == "a \\(x^2\\) b $y$ c \\[z\\]"


@pytest.mark.parametrize("opener", ["\\textcolor{red}{", "\\href{x}{", "\\url{", '\\"{'])
def test_macros_nested_in_text_to_encode(opener: str) -> None:
    """Each macro's arguments were walked to their end: nested macros took the square of their
    depth (4,000 nested ``\\textcolor{red}{`` from a CSL-JSON title: 67 s)."""
    depth = SIZE // len(opener)
    text = opener * depth + "x" + "}" * depth
    encoded = str(_fast(lambda: encode(text)))
    assert encoded.count("\\textbackslash{}") == depth  # past 64 groups deep, written as text
