"""Size limits: over-large input, fields and name lists fail fast and clearly."""

from __future__ import annotations

import json

import pytest

import bibconv
from bibconv.errors import LimitError
from bibconv.limits import Limits


def test_input_larger_than_the_limit_is_refused() -> None:
    text = json.dumps([{"id": f"k{i}", "type": "book"} for i in range(1000)])
    with pytest.raises(LimitError, match="input is larger than the limit of 1,000 bytes"):
        bibconv.read(text, "csljson", limits=Limits(max_input_bytes=1000))
    assert len(bibconv.read(text, "csljson", limits=Limits(max_input_bytes=len(text)))) == 1000


def test_long_field_and_long_name_list() -> None:
    items = [
        {"id": "long", "type": "book", "title": "x" * 101},
        {"id": "many", "type": "book", "author": [{"family": f"A{i}"} for i in range(11)]},
        {"id": "ok", "type": "book", "title": "fine"},
    ]
    limits = Limits(max_field_chars=100, max_names=10)
    with pytest.raises(LimitError, match="field 'title' has 101 characters, over the limit of 100"):
        bibconv.read(json.dumps(items), "csljson", limits=limits)
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.read(json.dumps(items), "csljson", limits=limits, strict=False, diagnostics=diagnostics)
    assert [r.id for r in records] == ["ok"]
    assert [d.record_id for d in diagnostics] == ["long", "many"]
    assert "'author' has 11 names, over the limit of 10" in str(diagnostics[1])
