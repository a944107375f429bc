"""Dates as web pages and listings print them, in the languages research sites use.

ISO and numeric forms (``2026-04-20``, ``2026/04/20``, ``20.04.2026``), written-out
forms (``20 avril 2026``, ``April 20, 2026``, ``20. April 2026``, ``20 abr. 2026``,
``20 de abril de 2026``, ``20 апреля 2026 г.``) and CJK forms (``2026年4月20日``,
``2026년 4월 20일``). Month and weekday names come from Babel's CLDR locale data
(:mod:`bibconv.date_words`). Text that is not a date gives ``None``: nothing is guessed.
:func:`search_date` finds a date inside free text (a byline, a citation).

>>> parse_date("20 avril 2026").parts
((2026, 4, 20),)
>>> parse_date("April 20, 2026").parts
((2026, 4, 20),)
>>> parse_date("2026年4月20日").parts
((2026, 4, 20),)
>>> parse_date("sometime soon") is None
True
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from functools import lru_cache

from bibconv.date_words import DATE_LOCALES, FILLERS, SEASON_WORDS, month_of, normalised, weekdays
from bibconv.model.date import Date
from bibconv.patterns import lazy, led_by

__all__ = ["DATE_LOCALES", "day_first_in", "parse_date", "search_date"]

_TIME = lazy(
    r"(?:\b[T ]?|,\s*)\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*(?:[ap]\.?m\.?|utc|gmt|z|[+-]\d{2}:?\d{2}))?"
    r"(?:\s*\((?:utc|gmt)\))?\s*(?:utc|gmt|[a-z]{3,4}t)?\b",
    re.IGNORECASE,
)
_SEARCH_TOKEN = lazy(r"\d+|[^\W\d_]+(?:['’][^\W\d_]+)?\.?|[年월月日년일]")
_ISO = lazy(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T.*)?$")
_YMD = lazy(r"^(\d{4})\s*[./-]\s*(\d{1,2})(?:\s*[./-]\s*(\d{1,2}))?\.?$")
_DMY_DOTS = lazy(r"^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})\.?$")
_DMY_OR_MDY = lazy(r"^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$")
_CJK = lazy(
    r"^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월](?:\s*(\d{1,2})\s*[日일])?\s*(?:[(（]\s*\w\s*[)）]|\w요일)?$"
)
_TOKEN = lazy(
    r"(?P<num>\d+)(?:st|nd|rd|th|er|e|ème|º|ª|\.)?(?![^\W\d_])"
    r"|(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)?)\.?"
    r"|(?P<sep>[\s,./;()\-–—])"
    r"|(?P<other>\S)"
)


def _language(lang: str | None) -> str | None:
    return _lang_parts(lang)[0]


@lru_cache(maxsize=256)
def _lang_parts(lang: str | None) -> tuple[str | None, str]:
    """A language tag's language and region (``"en-US"`` → ``("en", "us")``; ``""``: no region)."""
    if not lang or not lang.strip():
        return None, ""
    pieces = re.split(r"[-_]", lang.strip().lower())
    return pieces[0], pieces[1] if len(pieces) > 1 else ""


def _build(year: int, month: int | None = None, day: int | None = None) -> Date | None:
    if not 1000 <= year <= 2999:
        return None
    if month is None:
        return None if day is not None else Date(parts=((year,),))
    if not 1 <= month <= 12:
        return None
    if day is None:
        return Date(parts=((year, month),))
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return Date(parts=((year, month, day),))


def _numeric(text: str, lang: str | None, region: str, day_first: bool | None = None) -> Date | None:
    if match := _ISO.match(text):
        y, m, d = match.groups()
        return _build(int(y), int(m) if m else None, int(d) if d else None)
    if match := _YMD.match(text):
        y, m, d = match.groups()
        return _build(int(y), int(m), int(d) if d else None)
    if match := _DMY_DOTS.match(text):
        d, m, y = match.groups()
        return _build(int(y), int(m), int(d))
    if match := _CJK.match(text):
        y, m, d = match.groups()
        return _build(int(y), int(m), int(d) if d else None)
    if match := _DMY_OR_MDY.match(text):
        a, b, y = (int(g) for g in match.groups())
        if a > 12 >= b:
            return _build(y, b, a)
        if b > 12 >= a:
            return _build(y, a, b)
        if day_first is not None:
            return _build(y, b, a) if day_first else _build(y, a, b)
        if lang == "en" and region == "us":
            return _build(y, a, b)
        if lang and lang != "en":
            return _build(y, b, a)
    return None


def _words(text: str, lang: str | None) -> Date | None:
    year: int | None = None
    day: int | None = None
    months: list[tuple[int, str]] = []
    seasons: list[int] = []
    for match in _TOKEN.finditer(text):
        if match.group("sep"):
            continue
        if match.group("other"):
            return None
        number = match.group("num")
        if number is not None:
            if len(number) == 4 and year is None:
                year = int(number)
            elif len(number) <= 2 and day is None and 1 <= int(number) <= 31:
                day = int(number)
            else:
                return None
            continue
        word = match.group("word")
        month = month_of(word, lang)
        if month is not None:
            months.append((month, normalised(word)))
        elif normalised(word) in SEASON_WORDS:
            seasons.append(SEASON_WORDS[normalised(word)])
        elif normalised(word) not in weekdays() and normalised(word) not in FILLERS:
            return None
    if len(months) > 1:  # "mar. 20 avril": a weekday abbreviation that is also a month name
        months = [m for m in months if m[1] not in weekdays()]
    if seasons:  # "Autumn 2017": EDTF's season 23
        if year is None or months or day is not None or len(seasons) > 1:
            return None
        return _build(year) and Date(parts=((year, 20 + seasons[0]),))
    if year is None or len(months) > 1 or (day is not None and not months):
        return None
    return _build(year, months[0][0] if months else None, day)


def parse_date(text: str, lang: str | None = None, *, day_first: bool | None = None) -> Date | None:
    """The date ``text`` states, whole, or ``None`` when it is not exactly one date.

    ``lang`` (``"fr"``, ``"en-US"``, a page's ``lang`` attribute) settles month names
    shared by several languages and the order of ``04/05/2026``; ``day_first`` (what the
    other dates of the same page show) settles that order before the language does.

    >>> parse_date("20. April 2026", "de").parts
    ((2026, 4, 20),)
    >>> parse_date("Thu, 17 Jun 2021 15:45:54 UTC").parts
    ((2021, 6, 17),)
    >>> parse_date("December 2025").parts
    ((2025, 12),)
    >>> parse_date("Autumn 2017").parts, parse_date("printemps 2020").season_name
    (((2017, 23),), 'Spring')
    """
    return _parse(text, lang, day_first, words=True)


def _parse(text: str, lang: str | None, day_first: bool | None, words: bool) -> Date | None:
    """:func:`parse_date`; with ``words=False`` only the numeric forms are tried."""
    if _FOUR_DIGITS.search(text) is None:  # every form of a date holds its year in four digits
        return None
    cleaned = unicodedata.normalize("NFC", text).replace("\u00a0", " ").replace("\u202f", " ").strip()
    if not cleaned or len(cleaned) > 80:
        return None
    language, region = _lang_parts(lang)
    found = _numeric(cleaned, language, region, day_first)
    if found is not None:
        return found
    without_time = (_TIME.sub(" ", cleaned) if ":" in cleaned else cleaned).strip(" ,")  # a time has a ":"
    if without_time != cleaned:
        found = _numeric(without_time, language, region, day_first)
    return found if found is not None or not words else _words(without_time, language)


_AMBIGUOUS = led_by(r"\d", r"(?<![\d/.-])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?![\d/.-])")
# What every match of _AMBIGUOUS holds; starting with a digit, it is looked for a character class at a
# time (a page without one is not searched position by position for _AMBIGUOUS's lookbehind).
_AMBIGUOUS_SHAPE = lazy(r"\d[/.-]\d{1,2}[/.-]\d{4}")


def day_first_in(text: str, lang: str | None = None) -> bool | None:
    """Whether the ``12-03-2016`` dates of ``text`` put the day first: a date that can only be
    read one way (``18-03-2016``) decides for all of them, then the language; ``None`` if neither does.
    """
    firsts = seconds = 0
    for match in _AMBIGUOUS.finditer(text) if _AMBIGUOUS_SHAPE.search(text) else ():
        a, b = int(match.group(1)), int(match.group(2))
        firsts += a > 12 >= b
        seconds += b > 12 >= a
    if firsts != seconds:
        return firsts > seconds
    if not lang or not lang.strip():
        return None
    pieces = re.split(r"[-_]", lang.strip().lower())
    if pieces[0] == "en":
        return False if pieces[1:2] == ["us"] else None
    return True


def _windows(count: int, anchor: int, before: int, after: int) -> list[tuple[int, int]]:
    """Token ranges around ``anchor``, the widest first."""
    low, high = min(anchor, before), min(count - 1 - anchor, after)
    return [(anchor + start, anchor + end) for start, end in _spans(low, high)]


@lru_cache(maxsize=64)
def _spans(before: int, after: int) -> tuple[tuple[int, int], ...]:
    """Ranges from ``-before``..0 to 0..``after``, the widest first (ties in order of their start)."""
    spans = [(start, end) for start in range(-before, 1) for end in range(0, after + 1)]
    return tuple(sorted(spans, key=lambda span: span[0] - span[1]))


def search_date(
    text: str, lang: str | None = None, *, day_first: bool | None = None
) -> tuple[Date, int, int] | None:
    """The first date with at least a month inside free text: ``(date, start, end)``.

    >>> date, start, end = search_date("J. Chen, Z. Li · 20 avril 2026")
    >>> date.parts, "J. Chen, Z. Li · 20 avril 2026"[start:end]
    (((2026, 4, 20),), '20 avril 2026')
    """
    if not _FOUR_DIGITS.search(text):  # no year to search around
        return None
    tokens = list(_SEARCH_TOKEN.finditer(text))
    stops: dict[int, int] | None = {} if unicodedata.is_normalized("NFC", text) else None
    language = _language(lang)
    # The letters of the only numeric forms that hold any: without them, a stretch a word stops is no date.
    lettered = "年" in text or "년" in text or _ISO_WITH_TIME.search(text) is not None
    for index in [i for i, token in enumerate(tokens) if len(year := token[0]) == 4 and year.isdigit()]:
        low, high = index - min(index, 4), index + min(len(tokens) - 1 - index, 6)
        nearest: list[tuple[int, int]] | None = None
        if stops is not None and not lettered:  # only the stretches no word stops may be dates, each
            # parsed whole: those between the nearest stop before the year and the nearest after it
            first, last = _nearest_stops(text, tokens, stops, index, low, high, language)
            if _numbers_alone(text, tokens, first + 1, last - 1):
                continue
            windows = _windows(len(tokens), index, index - first - 1, last - index - 1)
        else:
            windows = _windows(len(tokens), index, 4, 6)
        if stops is not None and lettered:
            seen = _seen_stops(text, tokens, stops, low, high, language)
            nearest = [
                (max((i for i in range(low, index + 1) if seen[i - low] >= least), default=low - 1),
                 min((i for i in range(index, high + 1) if seen[i - low] >= least), default=high + 1))
                for least in (_NO_DATE, _NOT_WRITTEN)
            ]  # fmt: skip
        for start, end in windows:
            if start == end:  # the year alone: a date without a month
                continue
            begin, finish = tokens[start].start(), tokens[end].end()
            stop = 0 if nearest is None else _strongest(nearest, start, end)
            if (
                stop
                and not _ISO_WITH_TIME.match(text, begin, finish)
                and not _may_be_cjk(stop, text, begin, finish)
            ):
                continue
            found = _parse(text[begin:finish], lang, day_first, words=stop == 0)
            if found is not None and found.month is not None:
                return found, begin, finish
    return None


# What spares search_date parsing stretches of text: a word that is not a month, season, weekday
# or filler means a stretch holding it is no written date (_NOT_WRITTEN: only the numeric forms can
# match); one of two letters or more, not right after a number and without the letters of CJK
# dates, means no numeric date either (_NO_DATE), but for an ISO date with a time (2019-05-03T…).
# Any such word is a letter, which no numeric form but those two (2026年4月20日 (月)) holds.
# A word right after a number may be read with it ("20th"), so it never counts. The text is in NFC
# and only the words before any time (which _parse takes out) count, so they are words _parse sees.
_NOT_WRITTEN, _NO_DATE = 1, 2
_NUMBER_SUFFIXES = frozenset({"st", "nd", "rd", "th", "er", "e", "ème", "º", "ª"})
_CJK_DATE_CHARS = frozenset("年년月월日일요")
_FOUR_DIGITS = lazy(r"\d{4}")
_ISO_WITH_TIME = lazy(r"\d{4}(?:-\d{2}){0,2}T")


_CLOCK = lazy(r"\d{1,2}:\d\d")  # what every time _parse takes out holds


def _seen_stops(
    text: str, tokens: list[re.Match[str]], stops: dict[int, int], low: int, high: int, language: str | None
) -> list[int]:
    """The stops of tokens ``low``-``high`` (remembered in ``stops``) that _parse surely sees: a time it
    takes out (``10:20 pm UTC``, ``T10:20``) may take words with it, so the tokens from the first
    clock of these on, or touching it, count as none."""
    before = _clock_at(text, tokens, low, high)
    return [
        _stop_at(text, tokens, stops, i, language) if tokens[i].end() < before else 0
        for i in range(low, high + 1)
    ]


def _nearest_stops(
    text: str,
    tokens: list[re.Match[str]],
    stops: dict[int, int],
    index: int,
    low: int,
    high: int,
    language: str | None,
) -> tuple[int, int]:
    """The nearest tokens before and after token ``index`` (within ``low``-``high``) that a seen stop
    (:func:`_seen_stops`) is on; ``low - 1`` and ``high + 1`` where there is none. The tokens between
    are asked from the year out, not the whole of ``low``-``high``."""
    before = _clock_at(text, tokens, low, high)
    first = next(
        (i for i in range(index - 1, low - 1, -1)
         if tokens[i].end() < before and _stop_at(text, tokens, stops, i, language)),
        low - 1,
    )  # fmt: skip
    last = next(
        (i for i in range(index + 1, high + 1)
         if tokens[i].end() < before and _stop_at(text, tokens, stops, i, language)),
        high + 1,
    )  # fmt: skip
    return first, last


def _numbers_alone(text: str, tokens: list[re.Match[str]], low: int, high: int) -> bool:
    """Whether tokens ``low``-``high`` are numbers with no ``-``, ``/`` or ``.`` among them
    (``13:435, 2026``): no stretch of them is a date with a month, which needs a word (a month's or a
    season's name) or a numeric form, and each numeric form but the CJK ones (whose marks are tokens)
    holds one of those three."""
    if not all(tokens[i][0].isdigit() for i in range(low, high + 1)):
        return False
    between = text[tokens[low].start() : tokens[high].end()]
    return "-" not in between and "/" not in between and "." not in between


def _clock_at(text: str, tokens: list[re.Match[str]], low: int, high: int) -> int:
    """Where the first clock of tokens ``low``-``high`` starts (past the text's end if none)."""
    clock = _CLOCK.search(text, tokens[low].start(), tokens[high].end())
    return clock.start() if clock else len(text) + 1


def _stop_at(
    text: str, tokens: list[re.Match[str]], stops: dict[int, int], i: int, language: str | None
) -> int:
    """:func:`_stop` of token ``i``, remembered in ``stops``."""
    if i not in stops:
        stops[i] = _stop(text, tokens[i], language)
    return stops[i]


def _stop(text: str, token: re.Match[str], language: str | None) -> int:
    """How a token stops a stretch of text from being a date (0: it does not)."""
    word = token.group()
    if not word[:1].isalpha():
        return 0
    return _word_stop(word, token.start() > 0 and text[token.start() - 1].isdigit(), language)


@lru_cache(maxsize=4096)
def _word_stop(word: str, after_number: bool, language: str | None) -> int:
    """:func:`_stop` for a word (right after a number or not): words repeat, their answers with them."""
    word = word[:-1] if word.endswith(".") else word
    key = normalised(word)
    if (
        (after_number and word in _NUMBER_SUFFIXES)
        or month_of(word, language) is not None
        or key in SEASON_WORDS
        or key in weekdays()
        or key in FILLERS
    ):
        return 0
    hard = len(word) >= 2 and not after_number and not _CJK_DATE_CHARS.intersection(word)
    return _NO_DATE if hard else _NOT_WRITTEN


def _may_be_cjk(stop: int, text: str, begin: int, finish: int) -> bool:
    """Whether a stretch stopped only softly holds the year mark of a CJK date."""
    return stop == _NOT_WRITTEN and (
        text.find("年", begin, finish) >= 0 or text.find("년", begin, finish) >= 0
    )


def _strongest(nearest: list[tuple[int, int]], start: int, end: int) -> int:
    """The strongest stop in tokens ``start``-``end``, from the nearest tokens of each stop around
    the anchor (at or before it, at or after it)."""
    (hard_before, hard_after), (soft_before, soft_after) = nearest
    if start <= hard_before or end >= hard_after:
        return _NO_DATE
    return _NOT_WRITTEN if start <= soft_before or end >= soft_after else 0
