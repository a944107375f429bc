"""Human dates as pages print them (bibconv.dates)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv.dates import parse_date, search_date


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("2026-04-20", None, "2026-04-20"),
        ("2021-10-20T17:56:01Z", None, "2021-10-20"),
        ("2026/04/20", None, "2026-04-20"),
        ("2014/03", None, "2014-03"),
        ("1955", None, "1955"),
        ("20.04.2026", None, "2026-04-20"),
        ("20 avril 2026", None, "2026-04-20"),
        ("mer. 15 avril 2026", "fr", "2026-04-15"),
        ("April 20, 2026", None, "2026-04-20"),
        ("April 20th, 2026", None, "2026-04-20"),
        ("Wednesday, 12 August 2026", None, "2026-08-12"),
        ("2 December, 2025", None, "2025-12-02"),
        ("December 2025", None, "2025-12"),
        ("Thu, 17 Jun 2021 15:45:54 UTC", None, "2021-06-17"),
        ("20. April 2026", None, "2026-04-20"),
        ("3. März 2026", "de", "2026-03-03"),
        ("20 abr. 2026", None, "2026-04-20"),
        ("3 de marzo de 2026", None, "2026-03-03"),
        ("20 d’abril de 2026", "ca", "2026-04-20"),
        ("20 aprile 2026", None, "2026-04-20"),
        ("20 de abril de 2026", "pt", "2026-04-20"),
        ("20 апреля 2026 г.", None, "2026-04-20"),
        ("20 kwietnia 2026", None, "2026-04-20"),
        ("2026. április 20.", None, "2026-04-20"),
        ("20 Nisan 2026", None, "2026-04-20"),
        ("20 Απριλίου 2026", None, "2026-04-20"),
        ("2026年4月20日", None, "2026-04-20"),
        ("2026年4月", None, "2026-04"),
        ("2026년 4월 20일", None, "2026-04-20"),
        ("13/05/2026", None, "2026-05-13"),
        ("04/05/2026", "en-US", "2026-04-05"),
        ("04/05/2026", "fr", "2026-05-04"),
        ("listopad 2025", "cs", "2025-11"),
        ("listopad 2025", "hr", "2025-10"),
    ],
)
def test_parse_date(text: str, lang: str | None, expected: str) -> None:
    found = parse_date(text, lang)
    assert found is not None
    assert found.to_edtf() == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "sometime soon",
        "20 avril",  # no year: not guessed
        "04/05/2026",  # day and month could be either way round
        "listopad 2025",  # November in Czech and Polish, October in Croatian
        "31 April 2026",
        "2026-13-01",
        "2 days ago",
        "Narrative Inquiry 23 (2)",
    ],
)
def test_not_a_date(text: str) -> None:
    assert parse_date(text) is None


def test_search_date_finds_the_date_inside_a_byline() -> None:
    text = "Jiesong Chen, Jun You · 20 avril 2026"
    found = search_date(text)
    assert found is not None
    date, start, end = found
    assert (date.to_edtf(), text[start:end]) == ("2026-04-20", "20 avril 2026")


def test_search_date_takes_the_first_date_and_needs_a_month() -> None:
    found = search_date("Submitted 17 December, 2025; v1 submitted 1 December, 2025")
    assert found is not None
    assert found[0].to_edtf() == "2025-12-17"
    assert search_date("2026 Narrative Inquiry 23 (2)") is None


@pytest.mark.parametrize(
    ("text", "lang", "parts", "shown"),
    [
        ("ICML, Helsinki, 20th of July 2008, pages 1-8", None, ((2008, 7, 20),), "20th of July 2008"),
        ("posted 2019-05-03T10:00 Proceedings", None, ((2019, 5, 3),), "2019-05-03T10:00 Proceedings"),
        ("Proc. 2019-05Tdraft notes", None, ((2019, 5),), "2019-05Tdraft notes"),
        ("Tokyo 2026年4月20日 (月) talk", None, ((2026, 4, 20),), "2026年4月20日"),
        ("Conference de\u0301cembre 2019 Paris", "fr", ((2019, 12),), "de\u0301cembre 2019"),
        ("Symposium 03.04.2020, Lyon", None, ((2020, 4, 3),), "03.04.2020"),
    ],
)
def test_search_date_beside_words_that_are_no_date(
    text: str, lang: str | None, parts: tuple[tuple[int, ...], ...], shown: str
) -> None:
    """Words that are no month ("pages", "Proceedings") leave a date beside them found: an ordinal,
    an ISO time, CJK date characters, a decomposed accent (the month is read in NFC)."""
    found = search_date(text, lang)
    assert found is not None
    assert (found[0].parts, text[found[1] : found[2]]) == (parts, shown)


_LOCALES = [
    "en",
    "fr",
    "de",
    "es",
    "it",
    "pt",
    "nl",
    "sv",
    "da",
    "fi",
    "pl",
    "cs",
    "hu",
    "ru",
    "tr",
    "el",
    "ja",
    "zh",
    "ko",
]


@settings(max_examples=150, deadline=None)
@given(
    day=st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2099, 12, 31)),
    locale=st.sampled_from(_LOCALES),
    width=st.sampled_from(["long", "medium"]),
)
def test_dates_written_by_cldr_read_back(day: datetime.date, locale: str, width: str) -> None:
    from babel.dates import format_date

    text = format_date(day, format=width, locale=locale)
    found = parse_date(text, locale)
    assert found is not None, text
    assert found.parts == ((day.year, day.month, day.day),), text


def test_the_saved_month_table_is_babels() -> None:
    """The month and weekday lookup saved with the package is the one Babel's data makes (for
    another Babel version it is built from Babel instead)."""
    from bibconv import date_words

    assert date_words._names() == date_words._from_babel()
