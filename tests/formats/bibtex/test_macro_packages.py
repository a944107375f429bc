"""Commands of macro packages in .bib files: ADS's AAS journal macros, biblatex's page suffixes, ACM's
``address`` beside ``location``, and commands no package bibconv knows (a warning)."""

from __future__ import annotations

import io

import pytest

import bibconv
from bibconv.errors import Diagnostic
from bibconv.latex import decode
from tests.golden import FIXTURES

EXPORTS = FIXTURES / "bibtex" / "read" / "bibconv_ads_acm_exports.bib"


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        (r"\apj", "ApJ"),
        (r"\apjl", "ApJL"),
        (r"{\mnras}", "MNRAS"),
        (r"\aap", "A&amp;A"),
        (r"\prl", "Phys. Rev. Lett."),
        (r"Published in \procspie{} 1234", "Published in Proc. SPIE 1234"),
        (r"367\psqq", "367\u202fff."),
        (r"12\psq", "12\u202ff."),
    ],
)
def test_package_commands_read_as_what_they_print(tex: str, text: str) -> None:
    assert decode(tex) == text


def test_ads_journal_macros_are_the_journal_and_are_written_back_as_read() -> None:
    records = bibconv.read(EXPORTS)
    journals = [r.fields.get("container-title") for r in records[:3]]
    assert journals == ["ApJ", "MNRAS", "A&amp;A"]
    for dialect in ("bibtex", "biblatex"):
        diagnostics: list[Diagnostic] = []
        text = bibconv.write(records, dialect, diagnostics=diagnostics) or ""
        assert r"journal = {\apj}" in text
        assert r"journal = {\mnras}" in text
        assert r"journal = {\aap}" in text
        assert "textbackslash" not in text
        assert diagnostics == []
    ris = bibconv.write(records, "ris") or ""
    assert "JO  - ApJ" in ris or "T2  - ApJ" in ris
    assert "\\apj" not in ris


def test_ads_journal_macros_written_from_the_fields_are_their_text() -> None:
    text = bibconv.write(bibconv.read(EXPORTS), "bibtex", normalize=True) or ""
    assert "journal = {ApJ}" in text
    assert "journal = {A\\&A}" in text


def test_acm_address_is_the_publishers_place_and_location_the_events() -> None:
    acm = bibconv.read(EXPORTS)[3]
    assert acm.fields["publisher-place"] == "New York, NY, USA"
    assert acm.fields["event-place"] == "Glasgow, Scotland Uk"
    as_read = bibconv.write([acm], "bibtex") or ""
    assert "address = {New York, NY, USA}" in as_read
    assert "location = {Glasgow, Scotland Uk}" in as_read
    biblatex = bibconv.write([acm], "biblatex", normalize=True) or ""
    assert "location = {New York, NY, USA}" in biblatex
    assert "venue = {Glasgow, Scotland Uk}" in biblatex


def test_biblatex_page_suffixes_stay_for_biblatex_and_print_for_bibtex() -> None:
    bib = "@article{w, author={Weinberg, Steven}, title={Leptons}, date={1967}, pages={1264\\psqq}}"
    (record,) = bibconv.read(io.StringIO(bib), "biblatex")
    assert record.fields["page"] == "1264\u202fff."
    assert "pages = {1264\\psqq}" in (bibconv.write([record], "biblatex") or "")
    assert "pages = {1264\\,ff.}" in (bibconv.write([record], "bibtex") or "")


def test_a_command_no_package_defines_is_read_as_text_with_a_warning() -> None:
    bib = "@article{a, title={Stars}, journal={\\apjx}, note={See \\cite{k} and \\LaTeX}, year=2001}"
    diagnostics: list[Diagnostic] = []
    (record,) = bibconv.read(io.StringIO(bib), "bibtex", diagnostics=diagnostics)
    assert record.fields["container-title"] == "\\apjx"
    warning = "journal: \\apjx is not a command bibconv knows; read as text"
    assert [d.message for d in diagnostics] == [warning]
