"""The peers' own test suites (``../shared/peer-suites``): every plain fact holds; and some of those
facts as small cases of their own."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bibconv
from bibconv.latex import decode
from tests.tools import shared_root

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.shared
def test_every_plain_fact_of_the_peer_suite_holds(tmp_path: Path) -> None:
    """The harness converts each case with ``bibconv convert IN -f FROM -t csljson``; its debatable
    conventions (README: "Where bibconv differs from its peers") are counted apart, not asserted."""
    shared = shared_root()
    assert shared is not None
    harness = shared / "peer-suites" / "score.py"
    if not harness.exists():
        pytest.skip(f"{harness} is absent")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env["BIBCONV"] = f"{sys.executable} -m bibconv"
    results = tmp_path / "checks.json"
    subprocess.run(
        [sys.executable, str(harness), "--json", str(results), "--jobs", "2"],
        env=env,
        capture_output=True,
        check=False,
        timeout=1800,
    )
    checks = json.loads(results.read_text(encoding="utf-8"))
    facts = [c for c in checks if c["tier"] == "fact"]
    failing = {
        (c["case"], c["record"], c["field"]): f"expected {c['expected']}, got {c['got']}"
        for c in facts
        if not c["ok"]
    }
    assert len(facts) > 8000
    assert set(failing) == set(DIFFERS), failing


DIFFERS = {
    ("citation-js-bibtex/mapping-biblatex", 19, "genre"): (
        "biblatex's localisation key type = {patentus} is read as the words biblatex prints, "
        "'U.S. patent', as the suite's own exclusions allow for mathesis and phdthesis; "
        "citeproc would print the key"
    ),
    ("bbt-import/Import-location-to-event-place-for-conference-papers", 0, "publisher-place"): (
        "beside ACM's address (the publisher's city), location is the conference's place: the event "
        "place, as the case's own name says; the suite reads Zotero's one place field as the publisher's"
    ),
}
"""The suite's plain facts bibconv differs on by choice, each with its reason (README: "Where
bibconv differs from its peers")."""


def test_elsevier_glyphs_are_the_characters_they_name() -> None:
    # citation-js: with-commands (Elsevier's exports write a code point in hex)
    assert decode(r"ElsevierGlyph: \ElsevierGlyph{2014}") == "ElsevierGlyph: —"
    assert decode(r"\ElsevierGlyph{zz}") == r"\ElsevierGlyph{zz}"


def test_a_font_switch_used_as_an_environment_is_markup() -> None:
    # citation-js: with-rich-text
    assert decode(r"a\begin{it}b\end{it}c") == "a<i>b</i>c"
    assert decode(r"\begin{bf}x\end{bf}") == "<b>x</b>"
    assert decode(r"\begin{foo}y\end{foo}") == r"\begin{foo}y\end{foo}"


def test_beside_address_location_is_the_event_place() -> None:
    # Better BibTeX: Import-location-to-event-place-for-conference-papers (ACM's exports carry both:
    # address is the publisher's city, location the conference's)
    bib = (
        "@inproceedings{a, title={T}, booktitle={B}, location={Calgary}, publisher={ACM}, address={New York}}"
    )
    (record,) = bibconv.read(io.StringIO(bib), "bibtex")
    assert record.fields["publisher-place"] == "New York"
    assert record.fields["event-place"] == "Calgary"
    assert "bibtex:address" not in record.extra
    for dialect in ("bibtex", "biblatex"):
        (again,) = bibconv.read(io.StringIO(bibconv.write([record], dialect, normalize=True) or ""), dialect)
        assert again.fields == record.fields


def test_eprint_of_type_pubmed_is_the_pmid() -> None:
    # citation-js: mapping-biblatex (hutchinson:article)
    bib = "@article{h, title={T}, eprint={5500723}, eprinttype={pubmed}}"
    (record,) = bibconv.read(io.StringIO(bib), "biblatex")
    assert record.fields["PMID"] == "5500723"
    assert not any(k.startswith("bibtex:eprint") for k in record.extra)


def test_pages_counted_in_sections_are_the_section() -> None:
    # citation-js: mapping-biblatex (batori_river_2020: pages = {2}, bookpagination = {section})
    bib = "@article{b, title={T}, pages={2}, bookpagination={section}}"
    (record,) = bibconv.read(io.StringIO(bib), "biblatex")
    assert record.fields["section"] == "2"
    assert "page" not in record.fields
    (again,) = bibconv.read(
        io.StringIO(bibconv.write([record], "biblatex", normalize=True) or ""), "biblatex"
    )
    assert again.fields == record.fields


@pytest.mark.parametrize(
    ("field", "value", "variable", "read_as"),
    [
        ("numpages", "10", "number-of-pages", "10"),
        ("bdsk-url-1", "https://doi.org/10.1111/disa.12301", "URL", "https://doi.org/10.1111/disa.12301"),
    ],
)
def test_fields_other_programs_write_for_a_standard_one(
    field: str, value: str, variable: str, read_as: str
) -> None:
    # ACM's numpages; BibDesk's bdsk-url-1 (Better BibTeX: Dealing-with-base64-encoded-paths-…-2374)
    (record,) = bibconv.read(
        io.StringIO(f"@inproceedings{{k, title={{T}}, {field} = {{{value}}}}}"), "bibtex"
    )
    assert record.fields[variable] == read_as
    assert f"bibtex:{field}" not in record.extra


@pytest.mark.parametrize("field", ["tags", "keyword"])
def test_calibre_tags_and_the_singular_keyword_are_keywords(field: str) -> None:
    (record,) = bibconv.read(
        io.StringIO(f"@book{{k, title={{T}}, {field} = {{Ethik, Geschichte}}}}"), "bibtex"
    )
    assert record.keywords == ("Ethik", "Geschichte")
