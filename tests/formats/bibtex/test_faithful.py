"""An entry written as read (:func:`~bibconv.formats.bibtex.faithful.as_read`) is the same, warnings
included, whether a plain value in braces takes the shortcut or every value is checked."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv.formats.bibtex import faithful
from bibconv.model import Record, Source

_PIECES = [
    *("T", "a b", "Title", "0", '"', "'", "(", ")", ":", "~", "-", "_", "@", "$", "$x$", "=", ",", " "),
    *("{", "}", "{x}", "\\", "\\emph{x}", "\\input{x}", "\\&", "\\url{a&b}", "&", "%", "#", "^", "^^"),
    *("\t", "\n", "\r", "\x00", "\x7f", "\x85", "é", "Ü", "中", "\u00a0", "\u0301", "\ufffd"),
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=6).map("".join)
_EXPRS = st.one_of(
    _TEXT.map(lambda text: "{" + text + "}"),
    _TEXT.map(lambda text: '"' + text + '"'),
    st.sampled_from(["jan", "1999", "{T} # jan", "{a}b}", "x y"]),
)
_NAMES = st.sampled_from(["title", "note", "url", "year", "month", "odd name", "keywords"])
_NEVER = re.compile(r"(?!)")


def _as_read(fields: tuple[tuple[str, str], ...], options: tuple[bool, bool]) -> tuple[object, list[str]]:
    record = Record(type="book", fields={"title": "T"})
    record = record.replace(source=Source("bibtex", record, "book", fields))
    warned: list[str] = []
    return faithful.as_read(record, "biblatex", options, frozenset(), warned.append), warned


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(_NAMES, _EXPRS), max_size=4), st.booleans())
def test_plain_values_are_written_as_every_value_is_checked(
    fields: list[tuple[str, str]], ascii_only: bool
) -> None:
    written = tuple(dict(fields).items())
    fast = _as_read(written, (False, ascii_only))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(faithful, "_PLAIN_RE", _NEVER)
        assert _as_read(written, (False, ascii_only)) == fast


def test_the_shortcut_takes_plain_values_only() -> None:
    assert faithful._PLAIN_RE.fullmatch('{A title, (2nd ed.): "x" -- y~z $n$}')
    others = ["{a{b}}", "{a\\b}", "{a&b}", "{x^2}", "{é}", "{a\nb}", "{a\x7fb}", '"T"', "jan", "{T} # jan"]
    for expr in others:
        assert not faithful._PLAIN_RE.fullmatch(expr), expr
