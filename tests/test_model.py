"""The canonical record: immutability, equality, CSL names and dates."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest

import bibconv
from bibconv.errors import BibconvError
from bibconv.model import Arxiv, Date, FrozenDict, Name, Record, SourceSpan
from bibconv.model.frozen import EMPTY
from bibconv.model.record import final_record, span_at
from tests.golden import FIXTURES


def test_record_is_immutable() -> None:
    record = Record(type="book", fields={"title": "T"})
    with pytest.raises(AttributeError):
        record.type = "article"  # type: ignore[misc]
    with pytest.raises(TypeError):
        record.fields["title"] = "U"  # type: ignore[index]
    with pytest.raises(TypeError):
        record.names["author"] = ()  # type: ignore[index]


def test_origin_does_not_count_in_equality() -> None:
    a = Record(type="book", fields={"title": "T"}, origin=SourceSpan("a.bib", 3))
    b = Record(type="book", fields={"title": "T"}, origin=SourceSpan("b.bib", 9))
    assert a == b
    assert hash(a) == hash(b)


def test_records_pickle_for_worker_processes() -> None:
    record = Record(
        type="article",
        id="k",
        fields={"title": "T"},
        names={"author": [Name(family="Rodríguez", given="Pau", affiliation=("UPC",))]},
        dates={"issued": Date(((2026, 4, 20),))},
        keywords=("a", "b"),
        arxiv=Arxiv(id="2604.12345", version=2, categories=("cs.LG",)),
        extra={"bibtex:howpublished": "x", "ris:C5": ["1", "2"]},
    )
    again = pickle.loads(pickle.dumps(record))
    assert again == record
    assert isinstance(again.fields, FrozenDict)


def test_with_fields_and_replace_copy() -> None:
    record = Record(type="book", fields={"title": "T", "volume": "2"})
    changed = record.with_fields(volume=None, **{"container-title": "C"})
    assert dict(changed.fields) == {"title": "T", "container-title": "C"}
    assert dict(record.fields) == {"title": "T", "volume": "2"}
    assert record.replace(type="report").type == "report"


def test_replace_of_a_plain_attribute_is_a_whole_record() -> None:
    """Changing ``id`` (or ``type``, ``arxiv``, ``origin``) copies the record without freezing again."""
    import dataclasses

    record = Record(type="book", fields={"title": "T"}, keywords=["k"], origin=SourceSpan("a.bib", 3))
    keyed = record.replace(id="key", origin=SourceSpan("b.bib", 9))
    assert keyed == dataclasses.replace(record, id="key")
    assert (keyed.id, keyed.origin, record.id) == ("key", SourceSpan("b.bib", 9), None)
    assert isinstance(keyed.fields, FrozenDict)
    assert keyed.replace(fields={"title": "U"}).fields == {"title": "U"}
    assert isinstance(keyed.replace(fields={"title": "U"}).fields, FrozenDict)


@pytest.mark.parametrize(
    ("name", "csl", "display"),
    [
        (
            Name(family="Knuth", given="Donald E."),
            {"family": "Knuth", "given": "Donald E."},
            "Donald E. Knuth",
        ),
        (
            Name(family="Waals", given="J. D.", non_dropping_particle="van der"),
            {"family": "Waals", "given": "J. D.", "non-dropping-particle": "van der"},
            "J. D. van der Waals",
        ),
        (
            Name(family="Gogh", given="Vincent", dropping_particle="van"),
            {"family": "Gogh", "given": "Vincent", "dropping-particle": "van"},
            "Vincent van Gogh",
        ),
        (
            Name(family="King", given="Martin Luther", suffix="Jr."),
            {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
            "Martin Luther King, Jr.",
        ),
        (Name(literal="World Health Organization"), {"literal": "World Health Organization"}, None),
        (Name(family="张"), {"family": "张"}, "张"),
    ],
)
def test_name_csl_round_trip(name: Name, csl: dict[str, str], display: str | None) -> None:
    assert name.to_csl() == csl
    assert Name.from_csl(csl) == name
    assert name.display() == (display or name.literal)


def test_literal_name_excludes_other_parts() -> None:
    with pytest.raises(ValueError, match="literal"):
        Name(literal="WHO", family="X")


@pytest.mark.parametrize(
    ("text", "parts", "edtf"),
    [
        ("2026", ((2026,),), "2026"),
        ("2026-04", ((2026, 4),), "2026-04"),
        ("2026-04-20", ((2026, 4, 20),), "2026-04-20"),
        ("2026-04-20T17:59:59Z", ((2026, 4, 20),), "2026-04-20"),
        ("2003/2005", ((2003,), (2005,)), "2003/2005"),
        ("2011-05-25/2012-06-26", ((2011, 5, 25), (2012, 6, 26)), "2011-05-25/2012-06-26"),
        ("-0043-03-15", ((-44, 3, 15),), "-0043-03-15"),  # 44 BC: EDTF counts a year 0, CSL does not
        ("0000", ((-1,),), "0000"),
        ("2014-12-31/", ((2014, 12, 31), (0,)), "2014-12-31/"),  # open end (biblatex), CSL's year 0
    ],
)
def test_date_from_edtf(text: str, parts: tuple[tuple[int, ...], ...], edtf: str) -> None:
    date = Date.from_edtf(text)
    assert date.parts == parts
    assert date.to_edtf() == edtf


@pytest.mark.parametrize("text", ["Spring 2019", "2026-13-01", "around 1900", "2019-02-30x"])
def test_unparseable_dates_stay_literal(text: str) -> None:
    date = Date.from_edtf(text)
    assert date.parts == ()
    assert date.literal == text


def test_circa_date() -> None:
    date = Date.from_edtf("1850~")
    assert date.circa
    assert date.to_edtf() == "1850~"


@pytest.mark.parametrize(
    ("csl", "expected"),
    [
        ({"date-parts": [["2023", 6, 29]]}, Date(((2023, 6, 29),))),
        ({"date-parts": [[2003], [2005]]}, Date(((2003,), (2005,)))),
        ({"date-parts": [["2019"]], "season": 1}, Date(((2019,),), season="1")),
        ({"date-parts": [[1850]], "circa": True}, Date(((1850,),), circa=True)),
        ({"literal": "Spring, 1999"}, Date(literal="Spring, 1999")),
        ({"raw": "2011-05-25"}, Date(((2011, 5, 25),))),
        ("2004-10-27", Date(((2004, 10, 27),))),
    ],
)
def test_date_from_csl(csl: object, expected: Date) -> None:
    assert Date.from_csl(csl) == expected  # type: ignore[arg-type]


def test_date_to_csl() -> None:
    assert Date(((2003,), (2005,))).to_csl() == {"date-parts": [[2003], [2005]]}
    assert Date(literal="n.d.").to_csl() == {"literal": "n.d."}
    assert Date(((2019,),), season="2").to_csl() == {"date-parts": [[2019]], "season": "2"}


def test_arxiv_block() -> None:
    old = Arxiv(id="hep-th/9901001", version=1, primary_class="hep-th")
    assert old.doi == "10.48550/arXiv.hep-th/9901001"
    assert old.versioned_id == "hep-th/9901001v1"
    assert old.pdf_url == "https://arxiv.org/pdf/hep-th/9901001v1"


def test_span_renders_like_a_compiler() -> None:
    assert str(SourceSpan("refs.bib", 12, 3)) == "refs.bib:12:3"
    assert str(SourceSpan("items.json", index=4)) == "items.json:item 4"
    assert str(SourceSpan()) == "<input>"


def test_empty_name_parts_are_no_parts() -> None:
    assert Name(family="Knuth", given="") == Name(family="Knuth")
    assert Name(literal="", family="X").literal is None


def test_spans_and_arxiv_blocks_are_immutable_once_made() -> None:
    """Each is filled as a twin class that takes plain stores, then is of its own class again."""
    span, arxiv = SourceSpan("a.bib", 3, 4, reader="r"), Arxiv("2604.12345", 2, categories=("cs.LG",))
    assert (type(span), type(arxiv)) == (SourceSpan, Arxiv)
    parts = ("a.bib", 3, 4, None, "r", None)
    assert (span.filename, span.line, span.column, span.index, span.reader, span.where) == parts
    direct = span_at(*parts)  # the readers' way, every slot given
    assert (type(direct), direct, str(direct)) == (SourceSpan, span, "a.bib:3:4 (r)")
    assert (arxiv.id, arxiv.version, arxiv.categories, arxiv.comment) == ("2604.12345", 2, ("cs.LG",), None)
    for made in (
        span,
        direct,
        arxiv,
        Record(type="book"),
        final_record("book", None, EMPTY, EMPTY, EMPTY, (), None, EMPTY, span),
    ):
        with pytest.raises(AttributeError, match="immutable"):
            made.line = 9  # type: ignore[union-attr]
        assert pickle.loads(pickle.dumps(made)) == made


def _fixture_records() -> Iterator[Record]:
    """Every record read from the fixtures' inputs (and goldens) that a reader can read."""
    for path in sorted(FIXTURES.glob("*/read/**/*")):
        if path.is_file() and path.suffix != ".md":
            try:
                yield from bibconv.read(path, strict=False)
            except BibconvError:
                continue


def _form(record: Record) -> tuple[object, ...]:
    """The class of each part of ``record`` (what the general constructor makes them)."""
    names = {k: v.__class__ for k, v in record.names.items()}
    parts = (record.fields, record.names, record.dates, record.keywords, record.extra)
    return (type(record), *(part.__class__ for part in parts), names)


def test_readers_records_are_what_the_general_constructor_makes() -> None:
    """Readers that build records with ``final_record`` (the listing readers) give records equal to,
    and in the same form as, what ``Record(…)`` makes of the same values as plain dicts and lists."""
    records = list(_fixture_records())
    assert len({r.origin.filename for r in records if r.origin}) > 150
    assert len(records) > 1000
    for record in records:
        general = Record(
            type=record.type,
            id=record.id,
            fields=dict(record.fields),
            names={k: list(v) for k, v in record.names.items()},
            dates=dict(record.dates),
            keywords=list(record.keywords),
            arxiv=record.arxiv,
            extra=dict(record.extra),
            origin=record.origin,
            source=record.source,
        )
        final = final_record(*(getattr(record, name) for name in Record.__slots__))
        for made in (general, final):
            assert made == record
            assert _form(made) == _form(record)
            assert (made.origin, made.source) == (record.origin, record.source)
        assert record.replace(id="k") == Record(
            **{**{n: getattr(record, n) for n in Record.__slots__}, "id": "k"}
        )
