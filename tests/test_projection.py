"""Property tests: ``read(write(r, F), F) == project(r, F)`` for every writable format, and chains.

The strategies build records the way readers do: rich text (markup, TeX specials, math, accents,
scripts), names with particles, suffixes, literals and affiliations, dates with ranges, seasons,
circa and literals, arXiv blocks, keywords and format extras.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bibconv
from bibconv import csl
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.projection import FORMATS, project
from bibconv.registry import has_content

_WORDS = [
    *[
        "Quantum",
        "criticality",
        "of",
        "Extended",
        "Nodes",
        "on",
        "a",
        "Bethe",
        "Lattice",
        "über",
        "naïve",
        "Gödel",
        "Ångström",
        "Łódź",
        "São",
    ],
    *[
        "Paulo",
        "résumé",
        "café",
        "DNA",
        "BERT",
        "iPhone",
        "p-adic",
        "x",
        "A",
        "of",
        "the",
        "and",
        "in",
        "3D",
        "e.g.",
        "O(N)",
        "1984",
        "Zürich",
        "Ærø",
    ],
    *["Øresund", "日本語", "Ελληνικά", "Москва", "İstanbul", "Dvořák", "Erdős"],
]
_SPECIALS = ["&amp;", "&lt;", "&gt;", "%", "#", "_", "~", "^", "{", "}", "\\", "–", "—", "“", "”", "'", '"']
_MATH = ["$\\alpha$", "$x^2$", "$\\mathcal{O}(n)$", "$a_{i}$"]
_MARKUP = ["<i>{}</i>", "<b>{}</b>", "<sup>{}</sup>", "<sub>{}</sub>", '<span class="nocase">{}</span>']
# Strategies are built once: drawing from prebuilt strategies keeps generation fast.
_WORD = st.sampled_from(_WORDS)
_RICH_TOKEN = st.one_of(_WORD, _WORD, st.sampled_from(_SPECIALS + _MATH))
_MARKED = st.tuples(st.sampled_from(_MARKUP), _WORD).map(lambda t: t[0].format(t[1]))
_PLAIN_TOKEN = st.one_of(_WORD, st.sampled_from(["&", "%", "#", "_", "-", "'", "(x)", "$"]))


@st.composite
def rich_text(draw: st.DrawFn, specials: bool = True) -> str:
    """Record rich text: words, TeX specials and math, CSL markup around words."""
    words = draw(st.lists(_RICH_TOKEN if specials else _WORD, min_size=1, max_size=8))
    if draw(st.booleans()):
        words[draw(st.integers(0, len(words) - 1))] = draw(_MARKED)
    return " ".join(words)


RICH = rich_text()
PLAIN = st.lists(_PLAIN_TOKEN, min_size=1, max_size=6).map(" ".join)
"""Plain Unicode (names, affiliations, arXiv comments): words and a few specials."""

_LITERALS = st.sampled_from(["World Health Organization", "ACM & IEEE", "CERN, Geneva", "others"])
_PARTICLES = st.sampled_from([None, None, "van der", "de", "De", "von", "da", "Van den"])
_FAMILIES = st.sampled_from(["Rodríguez", "Waals", "Leo", "Murray", "O'Brien", "Smith-Jones", "Müller", "李"])
_GIVEN = st.sampled_from([None, "Pau", "Johannes Diderik", "J. R. R.", "Ana María", "Zlatko", "Ying", "Ö."])
_SUFFIXES = st.sampled_from([None, None, "Jr.", "III"])
_AFFILIATIONS = st.lists(PLAIN, max_size=2).map(tuple)


@st.composite
def names(draw: st.DrawFn) -> Name:
    """A person (particles, suffix) or an organisation (literal), with affiliations."""
    affiliation = draw(_AFFILIATIONS)
    if draw(st.integers(0, 5)) == 0:
        return Name(literal=draw(_LITERALS), affiliation=affiliation)
    particle = draw(_PARTICLES)
    dropping = particle is not None and draw(st.booleans())
    return Name(
        family=draw(_FAMILIES),
        given=draw(_GIVEN),
        non_dropping_particle=None if dropping else particle,
        dropping_particle=particle if dropping else None,
        suffix=draw(_SUFFIXES),
        affiliation=affiliation,
    )


NAMES = names()
_PART = st.tuples(st.integers(1500, 2099), st.one_of(st.none(), st.integers(1, 12)), st.integers(0, 28)).map(
    lambda p: (p[0],) if p[1] is None else (p[0], p[1]) if p[2] == 0 else p
)


@st.composite
def dates(draw: st.DrawFn) -> Date:
    """Dates as readers make them: full or partial, ranges, seasons, circa, literals."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return Date(literal=draw(st.sampled_from(["in press", "n.d.", "Spring 2020", "forthcoming"])))
    parts = (draw(_PART), draw(_PART)) if kind == 1 else (draw(_PART),)
    season = draw(st.sampled_from(["Spring", "Summer", "Autumn", "Winter"])) if kind == 2 else None
    return Date(parts=parts, season=season, circa=kind == 3)


DATES = dates()
_NEW_ID = st.tuples(st.integers(7, 26), st.integers(1, 12), st.integers(1, 99999)).map(
    lambda t: f"{t[0]:02d}{t[1]:02d}.{t[2]:05d}"
)
_OLD_ID = st.tuples(st.sampled_from(["hep-th", "math", "astro-ph"]), st.integers(9101001, 9912999)).map(
    lambda t: f"{t[0]}/{t[1]}"
)
_CLASSES = ["cs.LG", "cs.CL", "stat.ML", "math.AG", "hep-th", "cond-mat.str-el", "q-bio.NC", "quant-ph"]


@st.composite
def arxiv_blocks(draw: st.DrawFn) -> Arxiv:
    """An arXiv block: new or old identifier, version, classes, dates, comment, journal reference."""
    categories = tuple(draw(st.lists(st.sampled_from(_CLASSES), unique=True, max_size=3)))
    return Arxiv(
        id=draw(st.one_of(_NEW_ID, _OLD_ID)),
        version=draw(st.one_of(st.none(), st.integers(1, 9))),
        primary_class=categories[0] if categories else draw(st.sampled_from([None, "cs.LG"])),
        categories=categories,
        submitted=draw(st.one_of(st.none(), DATES)),
        updated=draw(st.one_of(st.none(), DATES)),
        comment=draw(st.one_of(st.none(), PLAIN)),
        journal_ref=draw(st.sampled_from([None, "Phys. Rev. B 85, 115117 (2012)"])),
    )


ARXIV = arxiv_blocks()
_SKIP_FIELDS = {"citation-key", "keyword", "citation-number", "first-reference-note-number", "locator"}
_TEXT_FIELDS = sorted(csl.TEXT_VARS - csl.VERBATIM_VARS - _SKIP_FIELDS)
_NUMBER_FIELDS = sorted(csl.NUMBER_VARS - _SKIP_FIELDS)
_IDENTIFIERS = {
    "DOI": ["10.1103/PhysRevB.85.115117", "10.1000/a_b-c(2)<3>"],
    "URL": ["https://example.org/p?a=1&b=2", "https://example.org/x_y%20z#frag"],
    "ISSN": ["1234-5678", "0378-5955"],
    "ISBN": ["978-3-16-148410-0", "0-306-40615-2"],
    "PMID": ["12345678"],
    "PMCID": ["PMC1234567"],
    "language": ["en-US", "de"],
    "call-number": ["QA76.9 .D3", "QA & 76_9 {x}"],
    "archive_location": ["Box 3, folder 2"],
}
_EXTRAS: dict[str, st.SearchStrategy[Any]] = {
    "bibtex:howpublished": PLAIN,
    "bibtex:langid": st.sampled_from(["english", "french"]),
    "bibtex:eventdate-note": st.integers(1, 99),
    "ris:AD": PLAIN,
    "ris:C1": st.lists(PLAIN, min_size=1, max_size=2),
    "ris:L1": st.just("https://example.org/paper.pdf"),
    "ris:date-info": st.fixed_dictionaries({"issued": st.sampled_from(["received", "Spring"])}),
    "ris:TY": st.sampled_from(["EJOUR", "GEN", "JOUR", "WEB", "INPR", "Journal"]),
    "bibtex:entrytype": st.sampled_from(["conference", "electronic", "Article", "www", "mvbook", "Foo"]),
    "csl:license": st.just("CC-BY-4.0"),
    "csl:id": st.just("http://zotero.org/users/1/items/ABCD"),
    "csl:file": st.fixed_dictionaries({"path": st.just("a.pdf"), "pages": st.integers(1, 9)}),
    "atom:announce_type": st.sampled_from(["new", "cross"]),
    "atom:category": st.lists(st.sampled_from(["14C20", "68T05"]), min_size=1, max_size=2),
}


_TEXT_FIELD_LISTS = st.lists(st.sampled_from(_TEXT_FIELDS), unique=True, max_size=7)
_NUMBER_FIELD_LISTS = st.lists(st.sampled_from(_NUMBER_FIELDS), unique=True, max_size=3)
_NUMBERS = st.sampled_from(["12", "3", "1–10", "e1234", "IV", "2nd", "3-4"])
_IDENTIFIER_LISTS = st.lists(st.sampled_from(sorted(_IDENTIFIERS)), unique=True, max_size=3)
_NAME_VARS = st.lists(
    st.sampled_from(["author", "editor", "translator", "container-author", "director"]), unique=True
)
_DATE_VARS = st.lists(
    st.sampled_from(["issued", "accessed", "event-date", "original-date", "submitted"]), unique=True
)
_EXTRA_KEYS = st.lists(st.sampled_from(sorted(_EXTRAS)), unique=True, max_size=3)
_TYPES = st.sampled_from(sorted(csl.TYPES))
_IDS = st.one_of(
    st.none(),
    st.tuples(st.sampled_from(["knuth", "rodriguez", "a", "x9"]), st.integers(0, 99999), st.booleans()).map(
        lambda t: f"{t[0]}{t[1]}" + (":b" if t[2] else "")
    ),
)
_KEYWORDS = st.lists(rich_text(specials=False), max_size=3).map(tuple)
_ARXIV_LINKS = st.sampled_from(["https://arxiv.org/abs/", "http://arxiv.org/pdf/"])


@st.composite
def records(draw: st.DrawFn) -> Record:
    """A record as a reader could produce it."""
    fields: dict[str, str] = {}
    for name in draw(_TEXT_FIELD_LISTS):
        value = draw(RICH)
        if name in ("abstract", "note") and draw(st.booleans()):
            value += "\n" + draw(RICH)
        fields[name] = value
    for name in draw(_NUMBER_FIELD_LISTS):
        fields[name] = draw(_NUMBERS)
    for name in draw(_IDENTIFIER_LISTS):
        fields[name] = draw(st.sampled_from(_IDENTIFIERS[name]))
    arxiv = draw(st.one_of(st.none(), ARXIV))
    if arxiv is not None and draw(st.integers(0, 3)) == 0:  # a link to the preprint itself
        version = draw(st.sampled_from(["", f"v{arxiv.version or 1}", "v9"]))
        fields["URL"] = draw(_ARXIV_LINKS) + arxiv.id + version
    return Record(
        type=draw(_TYPES),
        id=draw(_IDS),
        fields=fields,
        names={var: tuple(draw(st.lists(NAMES, min_size=1, max_size=3))) for var in draw(_NAME_VARS)},
        dates={var: draw(DATES) for var in draw(_DATE_VARS)},
        keywords=draw(_KEYWORDS),
        arxiv=arxiv,
        extra={key: draw(_EXTRAS[key]) for key in draw(_EXTRA_KEYS)},
    )


RECORDS = records()


def roundtrip(record: Record | None, target: str) -> Record | None:
    """``record`` written in ``target`` and read back; ``None`` when it held nothing to write."""
    text = bibconv.write([record] if record is not None else [], target)
    assert text is not None
    back = bibconv.read(text, target) if text.strip() not in ("", "[]") else []
    assert len(back) == (record is not None and has_content(record))
    return back[0].replace(origin=None) if back else None


def projected(record: Record | None, target: str) -> Record | None:
    """:func:`project`, or ``None`` for a record writers skip (nothing to write)."""
    return project(record, target) if record is not None and has_content(record) else None


@pytest.mark.parametrize("target", FORMATS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=RECORDS)
def test_read_write_is_the_projection(target: str, record: Record) -> None:
    assert roundtrip(record, target) == projected(record, target)


CHAIN = ("csljson", "bibtex", "ris", "csljson", "biblatex", "ris", "bibtex", "csljson")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=RECORDS)
def test_chains_of_conversions_lose_only_each_projection(record: Record) -> None:
    current: Record | None = record
    expected: Record | None = record
    for target in CHAIN:
        current = roundtrip(current, target)
        expected = projected(expected, target)
        assert current == expected, target
    lap = current
    for target in CHAIN:  # a second lap changes nothing: every loss happened once
        lap = roundtrip(lap, target)
    assert lap == current


@settings(max_examples=200, deadline=None)
@given(record=RECORDS, target=st.sampled_from(FORMATS))
def test_projection_is_idempotent(record: Record, target: str) -> None:
    once = project(record, target)
    assert project(once, target) == once


def test_unknown_format_has_no_projection() -> None:
    with pytest.raises(ValueError, match="no projection"):
        project(Record(), "html")


def test_a_key_bibtex_cannot_hold_is_written_and_projected_alike() -> None:
    """One key rule: ``a^b`` (``^^5c`` spells a backslash in TeX) is written as ``a_b``, and
    ``project`` says so too."""
    record = Record(type="book", id="a^b", fields={"title": "T"})
    for dialect in ("bibtex", "biblatex"):
        text = bibconv.write([record], dialect) or ""
        assert text.startswith("@book{a_b,")
        (again,) = bibconv.read(text, "bibtex")
        assert again.id == "a_b" == project(record, dialect).id


def test_an_electronic_article_without_journal_is_a_preprint_both_ways() -> None:
    """``TY  - EJOUR`` with an arXiv id and no journal reads as a preprint, and the projection says so."""
    record = Record(
        type="article",
        id=None,
        fields={"abstract": "Quantum", "URL": "https://arxiv.org/abs/0701.00001"},
        names={"author": (Name(literal="World Health Organization"),)},
        arxiv=Arxiv(id="0701.00001"),
        extra={"ris:TY": "EJOUR"},
    )
    back = roundtrip(record, "ris")
    assert back is not None
    assert back.type == "article"
    assert back == projected(record, "ris")
