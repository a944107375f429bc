"""CSL-JSON output is always valid JSON, valid against the CSL schema, and reads back to the
same records, whatever the values hold (quotes, brackets, control characters, markup)."""

from __future__ import annotations

import json

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bibconv
from bibconv.model import Record
from tests.golden import csl_schema
from tests.hostile._hostile_text import hostile_records

CONTROL = st.text(alphabet=st.characters(max_codepoint=0x2FFF, exclude_categories=["Cs"]), max_size=20)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(hostile_records(), min_size=1, max_size=3), noise=CONTROL, ascii=st.booleans())
def test_output_is_always_valid_json(records: list[Record], noise: str, ascii: bool) -> None:
    records = [r.replace(fields={**r.fields, "title-short": noise}) for r in records]
    text = bibconv.write(records, "csljson", ascii=ascii) or ""
    if ascii:
        assert text.isascii()
    items = json.loads(text)
    assert isinstance(items, list)
    assert len(items) == len(records)
    jsonschema.validate(items, csl_schema())
    back = bibconv.read(text, "csljson")
    assert [r.id for r in back] == [item["id"] for item in items]
    again = bibconv.write(back, "csljson", ascii=ascii) or ""
    assert bibconv.write(bibconv.read(again, "csljson"), "csljson", ascii=ascii) == again  # a fixed point
