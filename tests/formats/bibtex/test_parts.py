"""Fields biblatex keeps apart that CSL holds in one variable (:mod:`bibconv.subtitles`), and
biblatex's localisation keys in values (:mod:`bibconv.formats.bibtex.bibstrings`): CSL-JSON gets
what biblatex prints, BibTeX the fields back as written, through CSL-JSON too."""

from __future__ import annotations

import json

import pytest

import bibconv
from bibconv.model import Record


def _read(bib: str, dialect: str = "biblatex") -> Record:
    (record,) = bibconv.read(bib.encode(), dialect)
    return record


def _item(record: Record) -> dict[str, object]:
    (item,) = json.loads(bibconv.write([record], "csljson") or "")
    assert isinstance(item, dict)
    return item


def _through_csljson(record: Record, dialect: str) -> str:
    (again,) = bibconv.read((bibconv.write([record], "csljson") or "").encode(), "csljson")
    assert again.fields == record.fields
    return bibconv.write([again], dialect) or ""


@pytest.mark.parametrize("entry", ["booklet", "misc", "unpublished"])
def test_howpublished_is_the_publisher_of_an_entry_without_one(entry: str) -> None:
    record = _read(f"@{entry}{{k, title = {{T}}, howpublished = {{Vernier Art Center}}, year = 1988}}")
    assert _item(record)["publisher"] == "Vernier Art Center"
    for dialect in ("bibtex", "biblatex"):
        written = _through_csljson(record, dialect)
        assert "howpublished = {Vernier Art Center}" in written
        assert "publisher" not in written


def test_howpublished_beside_a_publisher_or_a_url_is_not_the_publisher() -> None:
    both = _read("@misc{k, title = {T}, howpublished = {Handed out}, publisher = {P}}")
    assert both.fields["publisher"] == "P"
    assert both.extra["bibtex:howpublished"] == "Handed out"
    url = _read(r"@misc{k, title = {T}, howpublished = {\url{https://example.org/a}}}")
    assert url.fields["URL"] == "https://example.org/a"
    assert "publisher" not in url.fields
    both_urls = _read("@misc{k, title = {T}, url = {https://a.org}, howpublished = {https://b.org}}")
    assert "publisher" not in both_urls.fields
    link = _read(r"@misc{k, title = {T}, howpublished = {\href {https://a.org} {\texttt{https://a.org}}}}")
    assert "publisher" not in link.fields  # Better BibTeX: Allow-spaces-between-href-arguments-…-2504


def test_a_changed_publisher_is_written_beside_the_kept_howpublished() -> None:
    record = _read("@booklet{k, title = {T}, howpublished = {Vernier Art Center}}")
    changed = record.replace(fields={**record.fields, "publisher": "Other Press"}, source=None)
    written = bibconv.write([changed], "bibtex") or ""
    assert "publisher = {Other Press}" in written
    assert "howpublished = {Vernier Art Center}" in written
    assert _read(written, "bibtex").fields["publisher"] == "Other Press"


@pytest.mark.parametrize("entry", ["manual", "proceedings", "inproceedings"])
def test_organization_is_the_publisher_of_a_manual_or_proceedings_without_one(entry: str) -> None:
    record = _read(f"@{entry}{{k, title = {{T}}, booktitle = {{B}}, organization = {{Chips-R-Us}}}}")
    assert _item(record)["publisher"] == "Chips-R-Us"
    for dialect in ("bibtex", "biblatex"):
        written = _through_csljson(record, dialect)
        assert "organization = {Chips-R-Us}" in written
        assert "publisher" not in written


def test_organization_beside_a_publisher_or_of_other_entries_is_kept_apart() -> None:
    both = _read("@inproceedings{k, title = {T}, organization = {ACM}, publisher = {Academic Press}}")
    assert both.fields["publisher"] == "Academic Press"  # as Zotero and citation-js read it
    assert both.extra["bibtex:organization"] == "ACM"
    other = _read("@book{k, title = {T}, organization = {ACM}}")
    assert "publisher" not in other.fields


def test_addons_end_the_container_title_as_biblatex_prints_them() -> None:
    record = _read(
        "@inproceedings{salam, title = {Weak and Electromagnetic Interactions}, titleaddon = {A talk},"
        " booktitle = {Elementary particle theory}, booksubtitle = {Relativistic groups and analyticity},"
        " booktitleaddon = {Proceedings of the {Eighth Nobel Symposium}}}"
    )
    item = _item(record)
    assert item["title"] == "Weak and Electromagnetic Interactions"  # its own addon apart, as citation-js
    assert item["container-title"] == (
        "Elementary particle theory: Relativistic groups and analyticity. "
        'Proceedings of the <span class="nocase">Eighth Nobel Symposium</span>'
    )
    biblatex = _through_csljson(record, "biblatex")
    assert "booktitle = {Elementary particle theory}" in biblatex
    assert "booktitleaddon = {Proceedings of the {Eighth Nobel Symposium}}" in biblatex
    assert "titleaddon = {A talk}" in biblatex
    bibtex = _through_csljson(record, "bibtex")  # no subtitle or booktitleaddon field: the title holds them
    assert "booktitleaddon" not in bibtex
    assert "subtitle" not in bibtex
    assert _read(bibtex, "bibtex").fields == record.fields


def test_an_addon_after_a_question_mark_takes_no_period() -> None:
    record = _read("@article{k, title = {T}, journaltitle = {Why?}, journaltitleaddon = {An answer}}")
    assert record.fields["container-title"] == "Why? An answer"
    assert "journaltitle = {Why?}" in (bibconv.write([record.replace(source=None)], "biblatex") or "")


@pytest.mark.parametrize(
    ("series", "words"), [("newseries", "New series"), ("oldseries", "Old series"), ("3", "3rd series")]
)
def test_a_journal_series_key_reads_as_the_words_biblatex_prints(series: str, words: str) -> None:
    record = _read(f"@article{{k, title = {{T}}, journaltitle = {{J}}, series = {{{series}}}, volume = 9}}")
    assert _item(record)["collection-title"] == words
    ris = bibconv.write([record], "ris") or ""
    assert words in ris
    assert series + "\r" not in ris
    assert f"series = {{{series}}}" in _through_csljson(record, "biblatex")
    assert f"series = {{{words}}}" in _through_csljson(record, "bibtex")


def test_a_book_series_is_printed_as_written() -> None:
    record = _read("@book{k, title = {T}, series = {newseries}, publisher = {P}}")
    assert record.fields["collection-title"] == "newseries"


def test_a_patent_location_of_country_keys_reads_as_the_countries() -> None:
    record = _read(
        "@patent{almendro, title = {Elektromagnetisches Signalhorn}, number = {EU-29702195U},"
        " location = {countryfr and countryuk and countryde}}"
    )
    assert _item(record)["publisher-place"] == "France and United Kingdom and Germany"
    assert "location = {countryfr and countryuk and countryde}" in _through_csljson(record, "biblatex")
    assert "address = {France and United Kingdom and Germany}" in _through_csljson(record, "bibtex")
    ris = bibconv.write([record], "ris") or ""
    assert "France and United Kingdom and Germany" in ris
    assert "country" not in ris
