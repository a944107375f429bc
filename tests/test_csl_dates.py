"""CSL dates in every form they come in (seasons, circa, raw, literal, ranges, open ranges),
read and written in each format as it can hold them, and reported where it cannot."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import bibconv
from bibconv.errors import Diagnostic
from bibconv.model import Date, Record
from tests.golden import check_golden, golden, sample

SEASONS_FILE = "bbt_export_Season_ranges_should_be_exported_as_pseudo-months_13-16_or_21-24_860.csl.json"
WRITERS = {"bibtex": ".bib", "biblatex": ".biblatex", "ris": ".ris", "csljson": ".csl.json"}


@pytest.mark.parametrize(
    ("csl", "parts", "edtf"),
    [
        ({"date-parts": [[2017, 13]]}, ((2017, 21),), "2017-21"),  # citeproc-js / Better BibTeX spring
        ({"date-parts": [["2017", "16"]]}, ((2017, 24),), "2017-24"),
        ({"date-parts": [[2017, 23]]}, ((2017, 23),), "2017-23"),  # EDTF autumn
        ({"date-parts": [[2017, 15], [2018, 14]]}, ((2017, 23), (2018, 22)), "2017-23/2018-22"),
        ({"date-parts": [["-1", 13], ["-1", 16]]}, ((-1, 21), (-1, 24)), "0000-21/0000-24"),
        ({"date-parts": [[2014], [0]]}, ((2014,), (0,)), "2014/"),  # open range
        ({"date-parts": [[2017, 0, 0]]}, ((2017,),), "2017"),  # Zotero's zero month and day
        ({"raw": "2017-23"}, ((2017, 23),), "2017-23"),
        ({"raw": "Autumn 2017"}, ((2017, 23),), "2017-23"),
        ({"raw": "2014/.."}, ((2014,), (0,)), "2014/"),
        ({"raw": "April 20, 2026"}, ((2026, 4, 20),), "2026-04-20"),
        ({"date-parts": [[1850]], "circa": True}, ((1850,),), "1850~"),
    ],
)
def test_csl_date_forms(csl: dict[str, object], parts: tuple[tuple[int, ...], ...], edtf: str) -> None:
    date = Date.from_csl(csl)
    assert (date.parts, date.to_edtf(), date.literal) == (parts, edtf, None)
    assert Date.from_csl(date.to_csl()) == date  # written back as CSL reads back the same


def test_seasons_are_written_as_citeproc_months() -> None:
    """CSL-JSON output uses months 13-16, which citeproc-js, pandoc and Better BibTeX read."""
    assert Date(((2017, 23), (2018, 21))).to_csl() == {"date-parts": [[2017, 15], [2018, 13]]}
    assert (Date(((2017, 23),)).month, Date(((2017, 23),)).season_name) == (None, "Autumn")


@pytest.mark.parametrize(
    ("csl", "literal"),
    [
        ({"date-parts": [[2017, 99]]}, "2017-99"),
        ({"date-parts": [[2017, 2, 45]]}, "2017-2-45"),
        ({"date-parts": [[2017, 14, 3]]}, "2017-14-3"),  # a season has no day
        ({"date-parts": [[2017], [2018], [2019]]}, "2017/2018/2019"),
        ({"date-parts": [["spring", 2017]]}, "spring-2017"),
        ({"date-parts": [[2017, 99]], "literal": "about 2017"}, "about 2017"),
    ],
)
def test_out_of_range_parts_become_literal_text_and_are_reported(
    csl: dict[str, object], literal: str
) -> None:
    item = {"id": "k", "type": "book", "title": "T", "issued": csl}
    diagnostics: list[Diagnostic] = []
    (record,) = bibconv.read(json.dumps([item]).encode(), "csljson", diagnostics=diagnostics)
    assert record.issued == Date(literal=literal)
    assert [(d.severity, d.record_id) for d in diagnostics] == [("warning", "k")]
    assert "are not a date" in diagnostics[0].message
    assert "'issued'" in diagnostics[0].message


@pytest.mark.parametrize("target", ["bibtex", "biblatex", "ris", "csljson"])
def test_out_of_range_parts_convert_to_every_format(target: str) -> None:
    text = json.dumps([{"id": "k", "type": "book", "title": "T", "issued": {"date-parts": [[2017, 99]]}}])
    out = bibconv.convert(text, target, "csljson")
    assert "2017-99" in out


@pytest.mark.parametrize(
    ("date", "bibtex", "biblatex", "ris"),
    [
        (
            Date(((2017, 23),)),
            ["year = {2017}", "date = {2017-23}"],
            "date = {2017-23}",
            "DA  - 2017///Autumn",
        ),
        (
            Date(((2017,),), season="1"),
            ["year = {2017}", "date = {2017-21}"],
            "date = {2017-21}",
            "DA  - 2017///Spring",
        ),
        (
            Date(((2017, 23), (2018, 21))),
            ["year = {2017}", "date = {2017-23/2018-21}"],
            "date = {2017-23/2018-21}",
            "DA  - 2017///Autumn",
        ),
        (
            Date(((2017, 24),), circa=True),
            ["year = {2017}", "date = {2017-24~}"],
            "date = {2017-24~}",
            "PY  - 2017",
        ),
        (Date(((2014,), (0,))), ["year = {2014}", "date = {2014/}"], "date = {2014/}", "PY  - 2014"),
    ],
)
def test_seasons_in_each_format(date: Date, bibtex: list[str], biblatex: str, ris: str) -> None:
    record = Record(type="book", id="k", fields={"title": "T"}, dates={"issued": date})
    diagnostics: list[Diagnostic] = []
    written = bibconv.write([record], "bibtex", diagnostics=diagnostics)
    assert written is not None
    assert all(f"  {line}" in written for line in bibtex)
    assert "month" not in written
    assert not diagnostics
    assert f"  {biblatex}" in (bibconv.write([record], "biblatex") or "")
    assert ris in (bibconv.write([record], "ris") or "")
    read_back = bibconv.read(written.encode(), "bibtex")[0].issued
    assert read_back == date.with_season_in_parts()


def test_a_season_the_formats_cannot_hold_is_reported() -> None:
    record = Record(
        type="book", id="k", fields={"title": "T"}, dates={"issued": Date(((2017, 5),), season="Lent")}
    )
    diagnostics: list[Diagnostic] = []
    written = bibconv.write([record], "bibtex", diagnostics=diagnostics)
    assert written is not None
    assert "month = may" in written
    assert [d.message for d in diagnostics] == ["season 'Lent' of the date is not written"]


SEASONS = sample(f"csljson/{SEASONS_FILE}")
"""Better BibTeX's export of seasons and season ranges (fixtures/SOURCES.md)."""
SEASON_WARNINGS = {
    "bibtex": [],
    "biblatex": [],
    "ris": [
        "RIS dates cannot be ranges; the end of 'issued' is dropped",
        "RIS has no tag for the 'original-date' date; dropped",
    ],
}


@pytest.mark.shared
@pytest.mark.parametrize("target", sorted(SEASON_WARNINGS))
def test_better_bibtex_season_ranges_convert(target: str, update_golden: bool) -> None:
    """The real export crashed ``-t bibtex`` with an IndexError; each format keeps what it can."""
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(SEASONS, diagnostics=diagnostics)
    assert not diagnostics
    out = bibconv.write(records, target, diagnostics=diagnostics)
    assert out is not None
    assert [d.message for d in diagnostics] == SEASON_WARNINGS[target]
    check_golden(golden(SEASONS, "write", WRITERS[target]), out, update_golden)


@pytest.mark.shared
def test_better_bibtex_season_ranges_on_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bibconv", "convert", str(SEASONS), "-t", "bibtex"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, "Traceback" in done.stderr) == (0, False)
    assert "date = {2017-23/2017-24}" in done.stdout
