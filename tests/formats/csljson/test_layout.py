"""The CSL-JSON writer's indented layout is exactly ``json.dumps(indent=n)``, line for line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv.csl.items import record_to_csl
from bibconv.formats.csljson.layout import dumps_indented
from tests.golden import samples

_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=4)
    ),
    max_leaves=20,
)


def expected(value: Any, indent: int, ascii: bool, margin: str) -> str:
    body = json.dumps(value, indent=indent, ensure_ascii=ascii)
    return "\n".join(margin + line for line in body.split("\n"))


@settings(max_examples=200, deadline=None)
@given(_VALUES, st.integers(-1, 4), st.booleans(), st.sampled_from(["", "  ", "\t"]))
def test_layout_is_json_dumps(value: Any, indent: int, ascii: bool, margin: str) -> None:
    assert dumps_indented(value, indent, ensure_ascii=ascii, margin=margin) == expected(
        value, indent, ascii, margin
    )


class _Text(str):
    pass


def test_subclasses_and_odd_values_are_written_as_json_writes_them() -> None:
    value = {"s": _Text("x"), "nan": float("nan"), "big": 1e300, "keys": {1: "int key", None: 2}}
    assert dumps_indented(value, 2) == json.dumps(value, indent=2)
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps_indented({"x": object()}, 2)


@pytest.mark.shared
@pytest.mark.parametrize("ascii", [False, True])
def test_real_items_are_laid_out_as_json_dumps_does(ascii: bool) -> None:
    inputs = samples("csljson", ".json") + samples("ris", ".ris")
    items = [record_to_csl(r) for path in inputs for r in bibconv.read(path, strict=False)]
    assert len(items) > 20
    for item in items:
        for indent in (0, 2, 4):
            text = dumps_indented(item, indent, ensure_ascii=ascii, margin=" " * indent)
            assert text == expected(item, indent, ascii, " " * indent)
