"""No RIS value can start a new tag or record: every output line is a tag line or an indented
continuation, there is one ``TY`` and one ``ER`` per record, and an independent parser (rispy)
and bibconv's reader both read back exactly the records written.
"""

from __future__ import annotations

import re

import rispy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bibconv
from bibconv.model import Record
from tests.hostile._hostile_text import hostile_records

TAG_LINE = re.compile(r"[A-Z][A-Z0-9]  - ")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(hostile_records(), min_size=1, max_size=3))
def test_hostile_values_cannot_start_a_tag_or_a_record(records: list[Record]) -> None:
    text = bibconv.write(records, "ris") or ""
    lines = text.split("\r\n")
    assert lines[-1] == ""
    for line in lines[:-1]:
        assert line == "" or TAG_LINE.match(line) or line.startswith("  "), repr(line)
    tags = [line[:2] for line in lines if TAG_LINE.match(line)]
    assert tags.count("TY") == tags.count("ER") == len(records)
    assert len(rispy.loads(text)) == len(records)
    back = bibconv.read(text, "ris")
    assert len(back) == len(records)
    assert [len(r.authors) for r in back] == [len(r.authors) for r in records]
