"""Key suffixing takes linear time: 20,000 records with one id (150 s when each search for a free
suffix started from ``a`` again) get ``k``, ``ka`` … in well under a second's work each."""

from __future__ import annotations

import time

from bibconv.keys import KeyAssigner
from bibconv.model import Record


def _keys(ids: list[str]) -> list[str]:
    assigner = KeyAssigner()
    return [assigner.assign(Record(type="article", id=i, fields={"title": "T"})).id or "" for i in ids]


def test_twenty_thousand_equal_ids() -> None:
    start = time.perf_counter()
    keys = _keys(["k"] * 20_000)
    took = time.perf_counter() - start
    assert len(set(keys)) == 20_000
    assert keys[:4] == ["k", "ka", "kb", "kc"]
    assert keys[26:29] == ["kz", "kaa", "kab"]
    assert took < 5, f"{took:.1f} s"  # about 0.1 s; quadratic suffixing took minutes


def test_suffixes_skip_keys_taken_in_between() -> None:
    keys = _keys(["k", "kb", "k", "k", "ka", "k", "kd", "k"])
    assert keys == ["k", "kb", "ka", "kc", "kaa", "kd", "kda", "ke"]
