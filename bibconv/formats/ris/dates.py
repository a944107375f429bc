"""RIS date values: ``PY``/``Y1``/``DA``/``Y2`` ⇄ :class:`~bibconv.model.Date`.

They hold ``YYYY/MM/DD/other`` (every part optional, slashes kept: ``1998///Spring``), a bare
year, ISO ``2019-05-24``, or a month name (``2015/october``). A season goes to
:attr:`Date.season`; other trailing text (``received``) is returned apart so the reader can keep
it; text that is not a date becomes ``Date(literal=…)``, never a guess.
"""

from __future__ import annotations

from bibconv.model import Date
from bibconv.patterns import lazy

__all__ = ["MONTHS", "SEASONS", "format_date", "parse_date"]

SEASONS: frozenset[str] = frozenset({"spring", "summer", "autumn", "fall", "winter"})
MONTHS: dict[str, int] = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_ISO_DATE = lazy(r"^\d{4}-\d{2}(?:-\d{2})?(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")
_YEAR = lazy(r"^-?\d{4}$")  # a year before the common era is written -YYYY (ISO 8601)
_NUMBER = lazy(r"^\d{1,2}$")


def _month(text: str) -> int | None:
    """Month number of ``text`` (``07``, ``7``, ``July``, ``jul.``); 0 for none; ``None`` if not a month."""
    if not text or text in ("0", "00"):
        return 0
    if _NUMBER.match(text):
        number = int(text)
        return number if 1 <= number <= 12 else None
    return MONTHS.get(text.lower().rstrip("."))


def parse_date(text: str) -> tuple[Date, str | None]:
    """``(date, other info)`` for a RIS date value; the info is trailing text that is not a season.

    >>> parse_date("1998///Spring")
    (Date(parts=((1998,),), season='Spring', circa=False, literal=None), None)
    >>> parse_date("2013/02/15/received")[1]
    'received'
    >>> parse_date("YEAR/MONTH/DAY/")[0].literal
    'YEAR/MONTH/DAY/'
    """
    value = text.strip()
    if _ISO_DATE.match(value):
        return Date.from_edtf(value), None
    pieces = value.split("/", 3)
    year_text = pieces[0].strip()
    month_text = pieces[1].strip() if len(pieces) > 1 else ""
    day_text = pieces[2].strip() if len(pieces) > 2 else ""
    info = pieces[3].strip() if len(pieces) > 3 else ""
    month = _month(month_text)
    day_ok = not day_text or day_text in ("0", "00") or (_NUMBER.match(day_text) and 1 <= int(day_text) <= 31)
    if (year_text and not _YEAR.match(year_text)) or month is None or not day_ok:
        return Date(literal=value), None
    parts: tuple[int, ...] = ()
    if year_text:
        parts = (int(year_text),)
        if month:
            parts += (month,)
            if day_text and int(day_text):
                parts += (int(day_text),)
    elif month or (day_text and int(day_text)):
        return Date(literal=value), None  # a month without a year is not a date we can hold
    if not parts:  # "///text": only the other-info part, which the writer uses for literal dates
        return (Date(literal=info) if info else Date()), None
    season = info if info.lower() in SEASONS else None
    return Date(parts=(parts,), season=season), (info if info and season is None else None)


def format_date(date: Date, info: str | None = None) -> tuple[str | None, str | None]:
    """``(PY value, DA value)`` for a date: the year, and ``YYYY/MM/DD/other`` when there is more.

    A literal date has no year: it is written as ``DA  - ///text`` and ``PY`` is left out.

    >>> format_date(Date(parts=((2019, 5, 24),)))
    ('2019', '2019/05/24/')
    >>> format_date(Date(parts=((1998,),), season="Spring"))
    ('1998', '1998///Spring')
    >>> format_date(Date(parts=((2017, 23),)))  # a season in the parts (EDTF 2017-23) as its name
    ('2017', '2017///Autumn')
    """
    if not date.parts:
        text = " ".join(t for t in (date.literal, date.season, info) if t)
        return None, (f"///{text}" if text else None)
    year, month, day = date.year, date.month, date.day
    year_text = f"{year:04d}" if year is not None and year >= 0 else f"-{abs(year or 0):04d}"
    other = " ".join(t for t in (date.season_name, info) if t)
    if month is None and not other:
        return year_text, None
    month_text = f"{month:02d}" if month else ""
    day_text = f"{day:02d}" if day else ""
    return year_text, f"{year_text}/{month_text}/{day_text}/{other}"
