r"""How a BibTeX value expression's brace groups are found: first by the splitter's rule (bibtexparser
counts a brace unless a backslash stands right before it, so ``\\}`` does not close), then, when that
reading fails, by BibTeX's (every brace counts, escaped or not). TeX's rule, where ``\\`` is one
control symbol and the brace after it counts, is neither."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv.formats.bibtex.syntax import resolve_value, value_parts

_MACROS = {"jan": "January"}
_NEITHER = "no reading"
_TOKEN_RE = re.compile(r'[^\s#{}"=,]+')


def _parts(expr: str, literal: bool) -> list[tuple[str, str]] | str:
    try:
        return value_parts(expr, literal)
    except ValueError:
        return _NEITHER


@pytest.mark.parametrize(
    ("expr", "by_the_splitter", "by_bibtex", "value"),
    [
        (r"{a \} b}", [("text", r"a \} b")], _NEITHER, r"a \} b"),
        (r"{x \{ } # {y}", [("text", r"x \{ "), ("text", "y")], _NEITHER, r"x \{ y"),
        (
            r"{Thi\{'ebaux} # jan",
            [("text", r"Thi\{'ebaux"), ("macro", "jan")],
            _NEITHER,
            r"Thi\{'ebauxJanuary",
        ),
        # ``\\}``: the splitter does not count the brace (TeX would), BibTeX does.
        (r"{a\\} # {b}", _NEITHER, [("text", "a\\\\"), ("text", "b")], "a\\\\b"),
        (r"{a\\{}}", _NEITHER, [("text", "a\\\\{}")], "a\\\\{}"),
        (r"{a} # {\\}}", [("text", "a"), ("text", "\\\\}")], _NEITHER, "a\\\\}"),
        (r"{ # \{\\}", _NEITHER, _NEITHER, _NEITHER),
        (
            '"a {\\"} b" # {c}',
            [("text", 'a {\\"} b'), ("text", "c")],
            [("text", 'a {\\"} b'), ("text", "c")],
            'a {\\"} bc',
        ),
    ],
)
def test_value_groups_by_the_splitter_then_by_bibtex(
    expr: str, by_the_splitter: object, by_bibtex: object, value: str
) -> None:
    assert _parts(expr, literal=False) == by_the_splitter
    assert _parts(expr, literal=True) == by_bibtex
    try:
        resolved = resolve_value(expr, _MACROS)
    except ValueError:
        resolved = _NEITHER
    assert resolved == value


def _closing_by_characters(text: str, start: int, literal: bool) -> int:
    """The ``}`` closing the ``{`` at ``start``, one character at a time: a brace right after a
    backslash does not count, unless ``literal`` (then every brace counts)."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        counted = literal or i == 0 or text[i - 1] != "\\"
        if ch == "{" and counted:
            depth += 1
        elif ch == "}" and counted:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _parts_by_characters(expr: str, literal: bool) -> list[tuple[str, str]] | str:
    """:func:`value_parts` for expressions of braced parts, macro names and ``#`` only."""
    parts: list[tuple[str, str]] = []
    i = 0
    expect_part = True
    while i < len(expr):
        ch = expr[i]
        if ch == " ":
            i += 1
        elif ch == "#":
            if expect_part:
                return _NEITHER
            expect_part, i = True, i + 1
        elif not expect_part:
            return _NEITHER
        elif ch == "{":
            end = _closing_by_characters(expr, i, literal)
            if end < 0:
                return _NEITHER
            parts.append(("text", expr[i + 1 : end]))
            expect_part, i = False, end + 1
        else:
            token = _TOKEN_RE.match(expr, i)
            if token is None:
                return _NEITHER
            parts.append(("macro", token[0]))
            expect_part, i = False, token.end()
    return _NEITHER if expect_part and parts else parts


_EXPRESSIONS = st.lists(st.sampled_from(["{", "}", "\\", "\\\\", "a", " # ", "jan", " "]), max_size=14).map(
    "".join
)


@settings(max_examples=800, deadline=None)
@given(_EXPRESSIONS, st.booleans())
def test_value_groups_equal_a_character_loop(expr: str, literal: bool) -> None:
    assert _parts(expr, literal) == _parts_by_characters(expr, literal), expr
