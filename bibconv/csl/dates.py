"""Dates of CSL-JSON items: ``date-parts``, seasons, ``raw`` and ``literal`` dates, EDTF strings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bibconv.dates import parse_date
from bibconv.model.date import Date, valid_date_part

__all__ = ["date_from_csl"]

_CSL_SEASON_MONTHS = range(13, 17)
"""citeproc-js and Better BibTeX write seasons as months 13-16 in CSL-JSON ``date-parts``."""


def date_from_csl(data: Mapping[str, Any] | str) -> Date:
    """A CSL-JSON date object (or an EDTF string) as a :class:`Date`.

    Parts may be strings or numbers; a month of 13-16 (citeproc-js, Better BibTeX) or 21-24
    (EDTF) is a season; a zero month or day is none. ``raw`` is read as EDTF, else as a written
    date (``Autumn 2017``, ``20 April 2026``). Parts that are not a date (``[[2017, 99]]``) are
    kept as literal text (``2017-99``), which the CSL-JSON reader reports.

    >>> date_from_csl({"date-parts": [["2017", 15], ["2018", 21]]}).to_edtf()
    '2017-23/2018-21'
    >>> date_from_csl({"raw": "Autumn 2017"}).parts, date_from_csl({"date-parts": [[2017, 99]]}).literal
    (((2017, 23),), '2017-99')
    """
    if isinstance(data, str):
        return Date.from_edtf(data)
    raw_parts = data.get("date-parts") or []
    season = data.get("season")
    season_text = str(season) if season not in (None, "") else None
    circa = bool(data.get("circa")) and str(data.get("circa")).lower() not in ("0", "false")
    literal = str(data["literal"]) if data.get("literal") not in (None, "") else None
    parts = _csl_parts(raw_parts)
    if parts is None:
        return Date(literal=literal or _parts_text(raw_parts) or None, season=season_text)
    if not parts and data.get("raw"):
        parsed = _raw_date(str(data["raw"]))
        return replace(parsed, season=season_text or parsed.season, circa=circa or parsed.circa)
    return Date(parts=tuple(parts), season=season_text, circa=circa, literal=literal)


def _csl_parts(raw_parts: Any) -> list[tuple[int, ...]] | None:
    """The parts of CSL ``date-parts``, seasons as months 21-24; ``None`` when they are not a date."""
    if not isinstance(raw_parts, (list, tuple)) or len(raw_parts) > 2:
        return None
    parts: list[tuple[int, ...]] = []
    for part in raw_parts:
        if not isinstance(part, (list, tuple)):
            return None
        try:
            numbers = [int(str(n).strip()) for n in part if str(n).strip() != ""]
        except ValueError:
            return None
        while len(numbers) > 1 and numbers[-1] == 0:  # Zotero's [2017, 0, 0]: no month, no day
            numbers.pop()
        if len(numbers) == 2 and numbers[1] in _CSL_SEASON_MONTHS:
            numbers[1] += 8
        if not numbers:
            continue
        if not valid_date_part(tuple(numbers)):
            return None
        parts.append(tuple(numbers))
    return parts


def _parts_text(raw_parts: Any) -> str:
    """Date parts that are not a date, as text (``2017-99``, ``2017-02-45/2018``)."""
    if not isinstance(raw_parts, (list, tuple)):
        return str(raw_parts)
    return "/".join(
        "-".join(str(n) for n in p) if isinstance(p, (list, tuple)) else str(p) for p in raw_parts
    )


def _raw_date(text: str) -> Date:
    """A CSL ``raw`` date: EDTF, else a date written out (``Autumn 2017``, ``April 20, 2026``)."""
    parsed = Date.from_edtf(text)
    return parsed if parsed.literal is None else parse_date(text) or parsed
