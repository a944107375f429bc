"""Numbers in JSON input: a 5,000-digit integer, an out-of-range float, and the non-JSON
``NaN``/``Infinity``/``-Infinity`` are bad records naming file and line (never a ``ValueError``),
and every other record still comes through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bibconv.api import iter_records
from bibconv.errors import BibconvError, Diagnostic
from tests.hostile._support import broken_input

HUGE = "9" * 5000
TOO_LONG = r"invalid JSON: number 9999999999… \(5,000 characters\) is longer than 1,000 characters"
BAD_NUMBERS = (HUGE, "-" + HUGE, "1e999", "NaN", "Infinity", "-Infinity", "0." + HUGE)


def test_bad_numbers_in_csl_json_are_bad_records(tmp_path: Path) -> None:
    items = ['{"id": "good1", "type": "book", "title": "First"}']
    items += [f'{{"id": "bad{n}", "type": "book", "volume": {value}}}' for n, value in enumerate(BAD_NUMBERS)]
    items.append('{"id": "good2", "type": "book", "title": "Last", "volume": 12, "page": 3.5}')
    broken_input(
        tmp_path,
        "numbers.json",
        ("[" + ",\n".join(items) + "]\n").encode(),
        r"numbers\.json:2:1: " + TOO_LONG,
        good=2,
        skipped=len(BAD_NUMBERS),
    )


def test_bad_numbers_in_an_arxiv_snapshot_are_bad_lines(tmp_path: Path) -> None:
    good = '{{"id": "1111.201{n}", "authors_parsed": [["A", "B", ""]], "title": "T{n}", "versions": []}}'
    lines = [good.format(n=1)]
    lines += [f'{{"id": "1111.3{n:03}", "title": "T", "n": {value}}}' for n, value in enumerate(BAD_NUMBERS)]
    lines.append(good.format(n=2))
    broken_input(
        tmp_path,
        "numbers.jsonl",
        ("\n".join(lines) + "\n").encode(),
        r"numbers\.jsonl:2: " + TOO_LONG,
        good=2,
        skipped=len(BAD_NUMBERS),
    )


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_each_non_finite_number_is_named(value: str) -> None:
    diagnostics: list[Diagnostic] = []
    data = f'[{{"id": "a", "type": "book", "volume": {value}}}]'.encode()
    records = list(iter_records(data, "csljson", strict=False, diagnostics=diagnostics, filename="in.json"))
    assert records == []
    [problem] = diagnostics
    expected = "out of range" if value == "1e999" else f"{value} is not a JSON value"
    assert expected in problem.message
    assert str(problem.span).startswith("in.json:1:")
    with pytest.raises(BibconvError):
        list(iter_records(data, "csljson", filename="in.json"))


def test_ordinary_numbers_still_read() -> None:
    data = json.dumps([{"id": "a", "type": "book", "volume": 12, "issue": 3.5, "page": -7}]).encode()
    [record] = iter_records(data, "csljson")
    assert (record.fields["volume"], record.fields["issue"], record.fields["page"]) == ("12", "3.5", "-7")
