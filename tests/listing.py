"""What the listing-page tests share: reading a page, checking what a reader made of it, its golden."""

from __future__ import annotations

from pathlib import Path

import bibconv
from bibconv.errors import Diagnostic
from bibconv.model import Record
from tests.golden import check_golden

__all__ = ["check_listing", "check_listing_golden", "read_page"]


def read_page(path: Path, **options: object) -> tuple[list[Record], list[Diagnostic]]:
    """The records the ``html`` reader gives for ``path``, and its diagnostics."""
    diagnostics: list[Diagnostic] = []
    return bibconv.read(path, "html", diagnostics=diagnostics, **options), diagnostics


def check_listing(path: Path, reader: str, count: int) -> list[Record]:
    """``path`` read without errors into exactly ``count`` records, each made by ``reader`` in page
    order and saying where on the page it was (a page about one work, ``meta``, is all of it)."""
    records, diagnostics = read_page(path)
    assert len(records) == count, [r.fields.get("title") for r in records]
    assert not [d for d in diagnostics if d.severity == "error"]
    for index, record in enumerate(records):
        assert record.origin is not None
        assert (record.origin.reader, record.origin.index) == (reader, index)
        assert record.origin.where or reader == "meta"
    return records


def check_listing_golden(records: list[Record], golden: Path, update: bool) -> None:
    """The records written as CSL-JSON are exactly the golden ``golden``."""
    result = bibconv.write(records, "csljson")
    assert result is not None
    check_golden(golden, result, update)
