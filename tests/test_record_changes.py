"""Records are changed the Python way: ``record.replace`` and ``dataclasses.replace`` take every
attribute and every CSL variable by name; assigning says how to change a record; ``write`` takes
text and binary file objects."""

from __future__ import annotations

import dataclasses
import io

import pytest

import bibconv
from bibconv.model import Date, Name, Record

RECORD = Record(type="article-journal", id="k", fields={"title": "T", "volume": "3"})


@pytest.mark.parametrize("change", [dataclasses.replace, Record.replace])
def test_csl_variables_by_name(change) -> None:  # type: ignore[no-untyped-def]
    changed = change(
        RECORD,
        title="U",
        container_title="Mind",
        DOI="10.1/x",
        volume=None,
        author=[Name(family="Turing", given="Alan")],
        issued="1950-10",
        page=433,
    )
    assert dict(changed.fields) == {"title": "U", "container-title": "Mind", "DOI": "10.1/x", "page": "433"}
    assert changed.authors == (Name(family="Turing", given="Alan"),)
    assert changed.issued == Date(((1950, 10),))
    assert RECORD.title == "T"


@pytest.mark.parametrize(
    "attribute", ["type", "id", "keywords", "arxiv", "extra", "fields", "names", "dates"]
)
def test_every_attribute_through_dataclasses_replace(attribute: str) -> None:
    value = {
        "type": "book",
        "id": "other",
        "keywords": ("a",),
        "arxiv": None,
        "extra": {"bibtex:howpublished": "by hand"},
        "fields": {"title": "V"},
        "names": {"editor": [Name(literal="ACM")]},
        "dates": {"accessed": Date(((2020,),))},
    }[attribute]
    changed = dataclasses.replace(RECORD, **{attribute: value})
    assert changed == RECORD.replace(**{attribute: value})
    assert changed == Record(
        **{**{a: getattr(RECORD, a) for a in ("type", "id", "fields")}, attribute: value}
    )


def test_an_unknown_variable_names_what_is_accepted() -> None:
    with pytest.raises(TypeError, match=r"no attribute or CSL variable 'titel'.*container_title"):
        RECORD.replace(titel="U")
    with pytest.raises(TypeError, match="list of Name objects"):
        RECORD.replace(author="Turing, Alan")


def test_assigning_says_the_record_is_immutable_and_how_to_change_it() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"immutable.*record\.replace\(title=…\)"):
        RECORD.title = "U"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        RECORD.id = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError, match=r"a Name is immutable.*dataclasses\.replace"):
        Name(family="X").family = "Y"  # type: ignore[misc]


def test_write_takes_text_and_binary_file_objects() -> None:
    record = RECORD.replace(title="Ça va")
    binary = io.BytesIO()
    bibconv.write([record], "biblatex", binary)
    text = io.StringIO()
    bibconv.write([record], "biblatex", text)
    assert binary.getvalue().decode("utf-8") == text.getvalue()
    assert "Ça va" in text.getvalue()
    assert not binary.closed
    with pytest.raises(TypeError, match="cannot write to a int"):
        bibconv.write([record], "bibtex", 3)  # type: ignore[arg-type]
