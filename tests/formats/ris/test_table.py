"""The RIS table: the writer's tables are derived from the reader's rows, an ambiguous table is
refused, and every written row survives write → read as :func:`bibconv.projection.project` says."""

from __future__ import annotations

import pytest

import bibconv
from bibconv.formats.ris import table
from bibconv.formats.ris.table import TAGS, Tag, invert
from bibconv.model import Date, Name, Record
from bibconv.projection import project


def test_two_tags_written_for_one_slot_are_refused() -> None:
    ambiguous = {**TAGS, "T1": Tag("field", ("title",), write=True, order=99)}
    with pytest.raises(ValueError, match="'title' is written as both TI and T1"):
        invert(ambiguous, ("field",))


def test_the_derived_tables_are_the_written_rows() -> None:
    written = {tag for tag, spec in TAGS.items() if spec.write}
    assert set(table.TAG_ORDER) == written | {"TY"}
    assert table.TAG_ORDER[0] == "TY"
    for mapping in (table.FIELD_TAGS, table.NAME_TAGS, table.DATE_TAGS):
        for slot, tag in mapping.items():
            assert TAGS[tag].write
            assert slot in TAGS[tag].targets


def _value(var: str) -> str:
    return {
        "ISSN": "1234-5678",
        "ISBN": "978-3-16-148410-0",
        "DOI": "10.1000/xyz",
        "URL": "https://x.org/a",
    }.get(var, f"Value of {var}")


def _records() -> list[tuple[str, Record]]:
    """One record per written row: the row's slot filled, beside a title so the record is not empty."""
    out: list[tuple[str, Record]] = []
    for tag, spec in TAGS.items():
        if not spec.write:
            continue
        for target in spec.targets:
            base = Record(type="book", id="k", fields={"title": "A title"} if target != "title" else {})
            if spec.kind in ("field", "doi", "sn", "url", "note", "page-start", "page-end"):
                value = "12-15" if target == "page" else _value(target)
                record = base.replace(fields={**base.fields, target: value})
            elif spec.kind == "name":
                record = base.replace(names={target: (Name(family="Lovelace", given="Ada"),)})
            elif spec.kind in ("date", "year"):
                record = base.replace(dates={target: Date(parts=((2019, 5, 24),))})
            else:
                continue
            out.append((f"{tag}-{target}", record))
    return out


RECORDS = _records()


@pytest.mark.parametrize(("case", "record"), RECORDS, ids=[case for case, _ in RECORDS])
def test_every_written_row_round_trips_as_projected(case: str, record: Record) -> None:
    (again,) = bibconv.read(bibconv.write([record], "ris") or "", "ris")
    assert again.replace(origin=None) == project(record, "ris"), case


def test_a_books_t2_is_its_series_unless_t3_gives_it() -> None:
    # Zotero: RIS.js test case 6 (a BOOK's T2 is its series); the 2011 list's BOOK "Series Title"
    (alone,) = bibconv.read("TY  - BOOK\nTI  - Eigentum\nT2  - Bibliothek des Eigentums\nER  - \n", "ris")
    assert alone.fields["collection-title"] == "Bibliothek des Eigentums"
    assert "container-title" not in alone.fields
    (both,) = bibconv.read("TY  - BOOK\nTI  - A\nT2  - Whole work\nT3  - Series\nER  - \n", "ris")
    assert (both.fields["container-title"], both.fields["collection-title"]) == ("Whole work", "Series")
    (chapter,) = bibconv.read("TY  - CHAP\nTI  - A\nT2  - The book\nER  - \n", "ris")
    assert chapter.fields["container-title"] == "The book"


def test_db_names_the_database_the_record_comes_from() -> None:
    # citation-js: RIS file of citation-js/citation-js pull 248 (DB  - OEB is the source)
    (alone,) = bibconv.read("TY  - CHAP\nTI  - A\nDB  - OEB\nER  - \n", "ris")
    assert alone.fields["source"] == "OEB"
    assert "archive" not in alone.fields
    (both,) = bibconv.read("TY  - CHAP\nTI  - A\nDB  - Archive\nDP  - Provider\nER  - \n", "ris")
    assert (both.fields["source"], both.fields["archive"]) == ("Provider", "Archive")


@pytest.mark.parametrize(
    "fields",
    [
        {"container-title": "Whole work", "collection-title": "Series"},
        {"collection-title": "Series"},
        {"archive": "Archive", "source": "Catalogue"},
        {"source": "Catalogue"},
    ],
)
def test_slots_that_share_a_tag_round_trip_exactly(fields: dict[str, str]) -> None:
    record = Record(type="book", id="k", fields={"title": "T", **fields})
    (again,) = bibconv.read(bibconv.write([record], "ris") or "", "ris")
    assert again.fields == record.fields == project(record, "ris").fields


def test_a_slot_read_back_as_another_is_said() -> None:
    import io

    from bibconv.registry import get_writer
    from bibconv.writing import WriteContext

    record = Record(type="book", id="k", fields={"title": "T", "container-title": "Whole", "archive": "A"})
    ctx = WriteContext()
    get_writer("ris").write([record], io.StringIO(), ctx)
    said = sorted(str(d).split(": ", 1)[-1] for d in ctx.diagnostics)
    assert said == [
        "'archive' is written as DB, which RIS reads as 'source' (entry k)",
        "'container-title' is written as T2, which RIS reads as 'collection-title' (entry k)",
    ]
    assert project(record, "ris").fields == {"title": "T", "collection-title": "Whole", "source": "A"}
