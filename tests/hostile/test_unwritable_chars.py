"""No writer emits what no consumer reads: NUL and the other C0/C1 control characters (but the
format's own line ends and tabs), Unicode noncharacters (biber refuses a whole file for one), the
encoder's internal marks (U+FDD4/U+FDD5), or a character ``str.splitlines`` ends a line at
(U+001C–U+001E, U+0085, U+2028, U+2029: a reader of RIS would see a line, and a tag, more). Each is
dropped (white space ones written as a space) with a warning naming the entry."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bibconv
from bibconv.writing import UNWRITABLE_RE, has_unwritable

_BAD = (
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u2028", "\u2029", "\ufdd0", "\ufdd4", "\ufdd5", "\ufdef", "\ufffe", "\uffff"]
    + ["\U0001fffe", "\U0010ffff"]
)
_WRITERS = ["bibtex", "biblatex", "ris", "csljson"]


def _record(key: str | None = "k1") -> bibconv.Record:
    text = "a" + "b".join(_BAD) + "c"
    return bibconv.Record(
        type="article-journal",
        id=key,
        fields={
            "title": f"Title {text}",
            "container-title": text,
            "note": text,
            "URL": f"https://x.org/{text}",
        },
        names={"author": (bibconv.Name(family=f"Fam{text}", given=f"G{text}"),)},
        keywords=(f"kw{text}",),
    )


def _raw_bad(out: str) -> list[str]:
    """The characters of ``_BAD`` in ``out``, raw or (CSL-JSON) as JSON escapes."""
    found = [f"U+{ord(c):04X}" for c in dict.fromkeys(UNWRITABLE_RE.findall(out))]
    codes = r"00[0189][0-9a-f]|007f|202[89]|fd[de][0-9a-f]|fff[ef]|d[89ab][37bf]f"
    escape = r"(?<!\\)(?:\\\\)*(\\[bf]|\\u(?:" + codes + "))"
    return found + re.findall(escape, out)


@pytest.mark.parametrize("writer", _WRITERS)
@pytest.mark.parametrize("ascii_only", [False, True])
def test_no_writer_emits_controls_noncharacters_or_separators(writer: str, ascii_only: bool) -> None:
    diagnostics: list[bibconv.Diagnostic] = []
    out = bibconv.write([_record()], writer, diagnostics=diagnostics, ascii=ascii_only) or ""
    assert _raw_bad(out) == [], writer
    assert "\x00" not in out
    assert diagnostics  # said, naming the entry
    assert all(d.record_id == "k1" for d in diagnostics)
    again = bibconv.read(out, "bibtex" if writer == "biblatex" else writer)
    assert len(again) == 1
    assert again[0].title is not None
    assert again[0].title.startswith("Title a")


def test_a_json_nul_never_reaches_a_bib_file() -> None:
    """A JSON ``\\u0000`` became a raw NUL in .bib and .ris: bibconv then refused its own file."""
    item = {"id": "n1", "type": "book", "title": "Sec\u0000ond", "author": [{"family": "Nu\u0000ll"}]}
    records = bibconv.read(json.dumps([item]), "csljson")
    for writer in _WRITERS:
        diagnostics: list[bibconv.Diagnostic] = []
        out = bibconv.write(records, writer, diagnostics=diagnostics) or ""
        assert "\x00" not in out
        assert "\\u0000" not in out
        assert bibconv.read(out, "bibtex" if writer == "biblatex" else writer)[0].title == "Second"
        assert any("U+0000" in d.message and d.record_id == "n1" for d in diagnostics)


def test_ris_lines_are_the_lines_splitlines_sees() -> None:
    """U+001C–U+001E, U+0085, U+2028 and U+2029 end a line for ``str.splitlines``: never raw in RIS."""
    out = bibconv.write([_record()], "ris") or ""
    assert out.splitlines() == out.split("\r\n")[:-1]
    assert all(re.match(r"^(?:[A-Z][A-Z0-9]  - |$)", line) for line in out.splitlines())


@pytest.mark.parametrize("writer", _WRITERS)
def test_the_internal_mark_never_reaches_a_key(writer: str) -> None:
    """U+FDD4 (the encoder's brace mark) reached keys: a record's own, or one made from its title."""
    item = {"id": "k\ufdd4x", "type": "book", "title": "T"}
    made = _record(key=None).replace(title="\ufdd4Deep Learning")
    records = [*bibconv.read(json.dumps([item]), "csljson"), made]
    diagnostics: list[bibconv.Diagnostic] = []
    out = bibconv.write(records, writer, diagnostics=diagnostics) or ""
    assert "\ufdd4" not in out
    assert "\\ufdd4" not in out
    assert bibconv.read(out, "bibtex" if writer == "biblatex" else writer)[0].id == "kx"
    assert any("U+FDD4" in d.message and d.record_id == "kx" for d in diagnostics)


def test_the_bibtex_reader_keeps_its_mark_out_of_keys() -> None:
    """Reading ``\\}`` in a key left the reader's own mark (U+FDD4) in it."""
    records = bibconv.read("@article{k\\}x, title = {T}}\n", "bibtex", strict=False)
    assert all("\ufdd4" not in (r.id or "") for r in records)


def test_formatted_references_hold_no_control_characters() -> None:
    for output in ("text", "html", "markdown", "latex"):
        out = bibconv.format([_record()], output=output)
        assert UNWRITABLE_RE.search(out) is None, output


def test_the_quick_test_agrees_with_the_pattern_on_every_character() -> None:
    ends = [plane << 16 | low for plane in range(1, 17) for low in (0, 1, 0xFFFD, 0xFFFE, 0xFFFF)]
    for code in [*range(0x10000), *ends]:  # each character of the BMP, the ends of the other planes
        ch = chr(code)
        for text in (ch + "\n", "é" + ch):
            assert has_unwritable(text) == (UNWRITABLE_RE.search(text) is not None), hex(code)


@given(
    st.text(alphabet=st.sampled_from(["a", " ", "\t", "\n", "\r", "é", "\U0001f600", "\U0001fffe", *_BAD]))
)
def test_the_quick_test_agrees_with_the_pattern_on_strings(text: str) -> None:
    assert has_unwritable(text) == (UNWRITABLE_RE.search(text) is not None)


_JSON_PIECES = ["\\", "\\\\", "b", "f", "u", "0", "8", "d", "D", "F", "e", "7", "2", "9", "n", '"', "x", "é"]


@given(st.lists(st.sampled_from(_JSON_PIECES), max_size=40).map("".join))
def test_the_quick_json_escape_test_agrees_with_the_csljson_pattern(text: str) -> None:
    # The CSL-JSON writer looks for an escape of an unwritable character (after an even run of
    # backslashes) without its pattern's lookbehind, which tries every character.
    from bibconv.formats.csljson import _UNWRITABLE_RE, _holds_unwritable_escape

    pattern = any(m["escape"] for m in _UNWRITABLE_RE.finditer(text))
    assert _holds_unwritable_escape(text) == pattern


def test_the_quick_json_escape_test_on_real_escapes() -> None:
    from bibconv.formats.csljson import _holds_unwritable_escape

    for text, held in [
        ("\\u0000", True),
        ("\\\\u0000", False),
        ("\\\\\\u0000", True),
        ("a\\f", True),
        ("\\\\frac", False),
        ("\\ud83f\\udfff", True),
        ("\\ud83d\\ude00", False),
        ("\\u2028", True),
        ('\\"{\\u00e9', False),
    ]:
        assert _holds_unwritable_escape(text) == held, text


_FIELD_TEXT = st.text(
    alphabet=st.sampled_from(["a", " ", "\t", "\n", "\\", '"', "é", "\x7f", *_BAD]), max_size=12
)


@given(_FIELD_TEXT, _FIELD_TEXT, st.booleans(), st.sampled_from([2, 0, None]))
def test_the_csljson_entry_test_finds_every_unwritable_character(
    title: str, extra: str, ascii_only: bool, indent: int | None
) -> None:
    # On ASCII text the CSL-JSON writer looks for DEL alone: JSON escapes every other control.
    from bibconv.formats.csljson import CslJsonWriter, _holds_unwritable_escape
    from bibconv.registry import WriteContext

    writer = CslJsonWriter()
    record = bibconv.Record(id=title or None, fields={"title": title}, extra={"bibtex:x": [extra, 1.5]})
    text = writer.entry(record, WriteContext({"ascii": ascii_only, "indent": indent}))
    held = has_unwritable(text) or _holds_unwritable_escape(text)
    assert writer.may_hold_unwritable(text) == held
