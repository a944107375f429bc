"""A date as CSL date parts (one date or a range, seasons, circa, or literal text), and its EDTF and
CSL-JSON forms."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bibconv.model.frozen import immutable
from bibconv.patterns import lazy

__all__ = ["SEASON_NAMES", "Date", "season_number", "valid_date_part"]

SEASON_NAMES = ("Spring", "Summer", "Autumn", "Winter")
"""Seasons in EDTF's order: a month of ``21`` + index in :attr:`Date.parts` is that season."""
_SEASON_WORDS = {"spring": 1, "summer": 2, "autumn": 3, "fall": 3, "winter": 4}
_EDTF = lazy(r"^(-?\d{1,4})(?:-(\d{2})(?:-(\d{2}))?)?$")


_TWO_DIGITS = tuple(f"{n:02d}" for n in range(100))


def valid_date_part(part: tuple[int, ...]) -> bool:
    """A year; a month (1-12) or an EDTF season (21-24); a day (1-31) after a month."""
    size = len(part)
    if size == 1:
        return True
    if size == 2:
        return 1 <= part[1] <= 12 or 21 <= part[1] <= 24
    return size == 3 and 1 <= part[1] <= 12 and 1 <= part[2] <= 31


def season_number(text: str | int | None) -> int | None:
    """1-4 for a season CSL's ``season`` may hold (``3``, ``"3"``, ``"Autumn"``, ``"fall"``), else ``None``.

    >>> season_number("Fall"), season_number(2), season_number("Christmas")
    (3, 2, None)
    """
    if text is None:
        return None
    word = str(text).strip().lower()
    if word in ("1", "2", "3", "4"):
        return int(word)
    return _SEASON_WORDS.get(word)


@dataclass(frozen=True, slots=True)
class Date:
    """A date as CSL date parts: one date ``((2003, 7),)`` or a range ``((2003,), (2005,))``.

    A month of 21-24 is a season (EDTF's spring, summer, autumn, winter: ``((2017, 23),)`` is
    autumn 2017); ``season`` keeps CSL's ``season`` variable as given; a range's end of year 0
    (``((2014,), (0,))``) is open. Text that cannot be parsed is kept verbatim in ``literal`` and
    never guessed.

    >>> Date.from_edtf("2026-04-20").parts
    ((2026, 4, 20),)
    >>> Date.from_edtf("2003/2005").to_edtf()
    '2003/2005'
    >>> Date.from_csl({"date-parts": [[2017, 15]]}).parts, Date.from_edtf("2017-23").season_name
    (((2017, 23),), 'Autumn')
    """

    parts: tuple[tuple[int, ...], ...] = ()
    season: str | None = None
    circa: bool = False
    literal: str | None = None

    def __post_init__(self) -> None:
        parts = self.parts
        if len(parts) > 2 or not all(len(p) == 1 or valid_date_part(p) for p in parts):
            raise ValueError(f"bad date parts {parts!r}")

    @property
    def year(self) -> int | None:
        return self.parts[0][0] if self.parts else None

    @property
    def month(self) -> int | None:
        """The month (1-12) of the first date; ``None`` for none or a season."""
        if self.parts and len(self.parts[0]) > 1 and self.parts[0][1] <= 12:
            return self.parts[0][1]
        return None

    @property
    def day(self) -> int | None:
        return self.parts[0][2] if self.parts and len(self.parts[0]) > 2 else None

    @property
    def season_number(self) -> int | None:
        """1-4 for the first date's season: a month of 21-24, else the ``season`` variable."""
        if self.parts and len(self.parts[0]) == 2 and self.parts[0][1] > 20:
            return self.parts[0][1] - 20
        return season_number(self.season)

    @property
    def season_name(self) -> str | None:
        """``Spring``, ``Summer``, ``Autumn``, ``Winter``, or the ``season`` variable's own text."""
        number = self.season_number
        return SEASON_NAMES[number - 1] if number else self.season

    def with_season_in_parts(self) -> Date:
        """The ``season`` variable of a one-year date moved into its parts (2017 + autumn: ``2017-23``)."""
        number = season_number(self.season)
        if number is None or len(self.parts) != 1 or len(self.parts[0]) != 1:
            return self
        return Date(parts=((self.parts[0][0], 20 + number),), circa=self.circa, literal=self.literal)

    @staticmethod
    def _part_to_edtf(part: tuple[int, ...]) -> str:
        year = part[0]
        if len(part) == 3 and 1000 <= year <= 9999 and 0 <= part[1] < 100 and 0 <= part[2] < 100:
            return f"{year}-{_TWO_DIGITS[part[1]]}-{_TWO_DIGITS[part[2]]}"  # the usual date, quicker
        rest = part[1:]
        if year == 0:  # CSL's open end of a range (``[[2014], [0]]``) is EDTF's empty one (``2014/``)
            return ""
        if year < 0:  # CSL has no year 0 (-44 is 44 BC); EDTF counts astronomically (-0043 is 44 BC)
            year += 1
        text = f"-{abs(year):04d}" if year < 0 else f"{year:04d}"
        return text + "".join(f"-{n:02d}" for n in rest)

    def to_edtf(self) -> str | None:
        """EDTF text (``2003-07``, ``2003/2005``, ``2017-23`` for autumn 2017), or ``None`` for a
        literal-only date."""
        parts = self.parts
        if not parts:
            return None
        if len(parts) == 1:
            text = self._part_to_edtf(parts[0])
            return text + "~" if self.circa else text
        return "/".join([self._part_to_edtf(p) for p in parts])

    @classmethod
    def from_edtf(cls, text: str) -> Date:
        """Parse an ISO/EDTF date or range (seasons 21-24, open ends); anything else is a literal date."""
        stripped = text.strip()
        circa = stripped.endswith("~")
        body = stripped.rstrip("~?%")
        # A time part (``2026-04-20T17:59:59Z``) carries no bibliographic meaning.
        body = re.sub(r"[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$", "", body)
        parts: list[tuple[int, ...]] = []
        pieces = body.split("/") if body else []
        open_ends = ("", "..")
        for piece in pieces:
            if piece in open_ends and len(pieces) == 2 and not all(p in open_ends for p in pieces):
                parts.append((0,))  # an open or unknown end (``2014/``, ``2014/..``): CSL's year 0
                continue
            match = _EDTF.match(piece)
            if not match:
                return cls(literal=stripped)
            numbers = tuple(int(g) for g in match.groups() if g is not None)
            if numbers[0] <= 0:  # EDTF counts astronomically (0000 is 1 BC); CSL has no year 0
                numbers = (numbers[0] - 1, *numbers[1:])
            if not valid_date_part(numbers):
                return cls(literal=stripped)
            parts.append(numbers)
        if not parts or len(parts) > 2:
            return cls(literal=stripped) if stripped else cls()
        return cls(parts=tuple(parts), circa=circa)

    def to_csl(self) -> dict[str, Any]:
        """The CSL-JSON date object; a season is written as month 13-16, as citeproc-js reads it."""
        out: dict[str, Any] = {}
        if self.parts:
            out["date-parts"] = [
                [p[0], p[1] - 8] if len(p) == 2 and p[1] > 20 else list(p) for p in self.parts
            ]
        if self.season:
            out["season"] = self.season
        if self.circa:
            out["circa"] = True
        if self.literal:
            out["literal"] = self.literal
        return out

    @classmethod
    def from_csl(cls, data: Mapping[str, Any] | str) -> Date:
        """Read a CSL-JSON date object or an EDTF string (see :func:`bibconv.csl.dates.date_from_csl`)."""
        from bibconv.csl.dates import date_from_csl

        return date_from_csl(data)


immutable(Date)
