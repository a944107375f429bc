"""The BibTeX table: every row that a dialect writes is written to its field, read back, and
gives what :func:`bibconv.projection.project` says; an ambiguous table is refused."""

from __future__ import annotations

import re

import pytest

import bibconv
from bibconv.formats.bibtex import table
from bibconv.formats.bibtex.table import ROWS, Row, index_for_writing
from bibconv.formats.bibtex.types import TYPES
from bibconv.model import Date, Name, Record
from bibconv.projection import project

_VALUES = {
    "DOI": "10.1000/xyz_1",
    "URL": "https://example.org/a?b=1&c=2",
    "ISBN": "978-3-16-148410-0",
    "ISSN": "1234-5678",
    "PMID": "12345678",
    "PMCID": "PMC1234567",
}
_KIND_VALUES = {
    "rich": "Value with <i>markup</i> &amp; more",
    "plain": "A & B, shelf 3",
    "title": "A Title About the Monte Carlo Method",
    "paragraphs": "First paragraph.\nSecond paragraph.",
    "pages": "12–15",
}
# The variables ``number`` may hold go where NUMBER_BY_TYPE says: a type whose number is that one.
_NUMBER_TYPES = {"number": "document", "issue": "book"}


def _record_type(row: Row, dialect: str) -> str:
    """A CSL type the dialect writes as an entry type the row applies to."""
    if row.variable in _NUMBER_TYPES:
        return _NUMBER_TYPES[row.variable]
    if row.entries is None:
        return "book"
    for type_row in TYPES:
        if type_row.entry in row.entries and type_row.writes_for(dialect):
            return sorted(type_row.writes_for(dialect))[0]
    raise AssertionError(f"no CSL type is written as one of {sorted(row.entries)} in {dialect}")


def _record(row: Row, dialect: str) -> Record:
    record = Record(type=_record_type(row, dialect), id="k1", fields={"title": "Some Title"})
    if row.kind == "names":
        return record.replace(names={row.variable: (Name(family="Lovelace", given="Ada"),)})
    if row.kind == "date":
        return record.replace(dates={row.variable: Date(parts=((2019, 5, 24),))})
    value = _VALUES.get(row.variable) or _KIND_VALUES[row.kind]
    return record.replace(fields={**record.fields, row.variable: value})


CASES = [(row, dialect) for row in ROWS for dialect in sorted(row.writes)]


@pytest.mark.parametrize(
    ("row", "dialect"), CASES, ids=[f"{dialect}-{row.field}-{row.variable}" for row, dialect in CASES]
)
def test_every_written_row_round_trips_as_projected(row: Row, dialect: str) -> None:
    record = _record(row, dialect)
    text = bibconv.write([record], dialect) or ""
    field = "date" if row.variable == "issued" and dialect == "bibtex" else row.field
    if not (row.variable == "issued" and dialect == "bibtex"):  # classic BibTeX: year, month, day
        assert re.search(rf"^  {field} = ", text, re.M), text
    (again,) = bibconv.read(text, "bibtex")
    assert again.replace(origin=None) == project(record, dialect)


def test_every_row_is_read_by_some_entry_type() -> None:
    read = {
        (row.field, row.variable)
        for entry in ("", *table.TYPE_TO_CSL)
        for row in table.read_plan(entry).fields.values()
    }
    assert {(row.field, row.variable) for row in ROWS} <= read


def test_two_rows_writing_one_variable_are_refused() -> None:
    ambiguous = (*ROWS, Row("howpublished", "URL"))
    with pytest.raises(ValueError, match="URL written to url and howpublished"):
        index_for_writing(ambiguous, "bibtex")
    with pytest.raises(ValueError, match="@mastersthesis: publisher written to school and publisher"):
        index_for_writing((*ROWS, Row("publisher", "publisher", entries=table.THESES)), "bibtex")


def test_a_new_row_is_all_a_new_field_needs_to_be_written() -> None:
    index = index_for_writing((*ROWS, Row("eventsubtitle", "event-subtitle")), "biblatex")
    assert index[None]["event-subtitle"].field == "eventsubtitle"
    assert "event-subtitle" not in table.writes_for("biblatex", "book")
