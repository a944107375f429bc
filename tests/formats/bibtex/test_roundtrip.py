"""Round trips: BibTeX → BibTeX keeps every field of the real samples; BibTeX → CSL-JSON → BibTeX
keeps what the record holds; adversarial values survive read → write → read (property tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bibconv
from bibconv import latex
from bibconv.formats.bibtex import table as bibtex_map
from bibconv.formats.bibtex.write import entry_type_for
from bibconv.latex.allow import preamble_commands
from bibconv.model import Date, Name, Record
from tests.golden import samples

SAMPLES = samples("bibtex", ".bib", ".bibtex", ".biblatex")
_BIBLATEX_ONLY_TYPES = bibtex_map.BIBLATEX_TYPES - bibtex_map.BIBTEX_TYPES


def _is_preamble(block: str) -> bool:
    return block.lstrip().lower().startswith("@preamble")


def _without_unsafe_preambles(record: Record) -> Record:
    extra = dict(record.extra)
    for key in ("bibtex:before", "bibtex:after"):
        blocks = extra.get(key)
        if isinstance(blocks, list):
            kept = [b for b in blocks if not _is_preamble(b) or preamble_commands(b) is not None]
            if kept:
                extra[key] = kept
            else:
                del extra[key]
    return record.replace(extra=extra) if extra != dict(record.extra) else record


def _dialect(records: list[Record]) -> str:
    """``biblatex`` for a file using biblatex-only entry types; the BibTeX writer maps those."""
    for record in records:
        kept = str(record.extra.get("bibtex:entrytype", "")).lower()
        mapped_to_misc = bibtex_map.entry_type(record.type, "bibtex") == "misc"
        if kept in _BIBLATEX_ONLY_TYPES or (record.type not in ("document", "article") and mapped_to_misc):
            return "biblatex"
        typed = entry_type_for(record, "bibtex") != entry_type_for(record, "biblatex")
        if record.type in ("thesis", "report") and ("genre" not in record.fields or typed):
            return "biblatex"  # classic BibTeX's @phdthesis, @techreport say a genre; biblatex's type field
    return "bibtex"


def _comparable(records: list[Record]) -> list[Record]:
    """Records with generated or renamed keys set aside (a missing key is made, a repeated one renamed),
    and without the kept ``@preamble`` blocks that hold TeX not allowed in output (written with a warning)."""
    seen: set[str] = set()
    out = []
    for record in records:
        record = _without_unsafe_preambles(record)
        if record.id is None or record.id in seen:
            record = record.replace(id=None)
        seen.add(record.id or "")
        out.append(record)
    return out


def _read(source: Path | str) -> list[Record]:
    return bibconv.read(source, "bibtex", strict=False)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_bibtex_to_bibtex_keeps_every_field(path: Path) -> None:
    records = _read(path)
    for dialect in {_dialect(records), "biblatex"}:
        again = _read(bibconv.write(records, dialect) or "")
        assert len(again) == len(records)
        for before, after in zip(_comparable(records), again, strict=True):
            if before.id is None:
                after = after.replace(id=None)
            assert after == before, (dialect, before.id)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_bibtex_to_csljson_to_bibtex(path: Path) -> None:
    records = _read(path)
    dialect = _dialect(records)
    through = bibconv.read(bibconv.write(records, "csljson") or "", "csljson")
    assert [r.replace(id=None) for r in _comparable(through)] == [
        r.replace(id=None) for r in _comparable(records)
    ]
    # Through CSL-JSON the entries as read are gone: the output is the normalised one (of records
    # that no longer know their entry, so a crossref child is written whole).
    unread = [r.replace(source=None) for r in records]
    assert bibconv.write(through, dialect) == bibconv.write(unread, dialect, normalize=True)


_SPECIALS = "{}@%\\#&_~^\"',=()[]<>–—"
_ALPHABET = st.sampled_from(
    list("abcXYZ019 .:;!?-") + list(_SPECIALS) + list("Кириллица中文日本語😀🎉éüßøŁ") + ["\u00a0"]
)
# A dollar pair is math (TeX, kept verbatim) by pandoc's rule; text dollars come alone ("costs $ 5").
_MATH = st.sampled_from(["$x^2$", "$\\alpha$", "$\\mathcal{O}(n)$", "$a_{i}$", "$"])


@st.composite
def _values(draw: st.DrawFn) -> str:
    piece = st.one_of(st.text(_ALPHABET, min_size=1, max_size=12), _MATH)
    pieces = draw(st.lists(piece, min_size=1, max_size=5))
    return " ".join(" ".join(pieces).split())


def _text(value: str) -> str:
    """The record form of plain text: what a reader stores (rich text, whitespace collapsed)."""
    return latex.escape_markup(value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=_values().filter(bool),
    note=_values().filter(bool),
    family=_values().filter(bool),
    given_name=_values().filter(bool),
)
def test_adversarial_values_survive(title: str, note: str, family: str, given_name: str) -> None:
    record = Record(
        type="article-journal",
        id="k",
        fields={"title": _text(title), "note": _text(note), "container-title": _text(note)},
        names={"author": (Name(family=family, given=given_name), Name(literal=title))},
        dates={"issued": Date(parts=((2020, 5),))},
    )
    for dialect in ("bibtex", "biblatex"):
        for ascii_only in (False, True):
            out = bibconv.write([record], dialect, ascii=ascii_only) or ""
            assert bibconv.read(out, "bibtex") == [record], out
