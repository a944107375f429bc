"""biblatex's localisation keys in field values, and the English words biblatex prints for them.

biblatex prints a journal's ``series`` given as a key (``newseries``, ``oldseries``) or an integer
(``3``: "3rd series") in words, and a patent's ``location`` keys (``countryfr and countryde``) as the
countries' names (``biblatex.def``, ``english.lbx``). The reader gives the words, so CSL-JSON, RIS and
formatted references print them (as pandoc reads them); the biblatex writer writes the keys back from
the same tables, classic BibTeX (which has no keys) the words. ``countryep`` and ``countryeu`` both print
"European Union": the words are written back as ``countryeu``.

>>> words("collection-title", "article", "newseries"), words("collection-title", "article", "3")
('New series', '3rd series')
>>> keys("collection-title", "article", "3rd series")
'3'
>>> words("publisher-place", "patent", "countryfr and countryde")
'France and Germany'
>>> keys("publisher-place", "patent", "France and Germany")
'countryfr and countryde'
"""

from __future__ import annotations

from bibconv.patterns import lazy

__all__ = ["COUNTRY_KEYS", "SERIES_KEYS", "VARIABLES", "keys", "words"]

VARIABLES = frozenset({"collection-title", "publisher-place"})
"""The variables whose values may be keys (a series, a patent's location); others are their own words."""

SERIES_KEYS: dict[str, str] = {"newseries": "New series", "oldseries": "Old series"}
"""The keys of a journal's series (``english.lbx``: newseries, oldseries)."""

COUNTRY_KEYS: dict[str, str] = {
    "countryde": "Germany",
    "countryeu": "European Union",
    "countryep": "European Union",
    "countryfr": "France",
    "countryuk": "United Kingdom",
    "countryus": "United States of America",
}
"""The country keys of a patent's location (``english.lbx``)."""

# the entries biblatex formats a series for as a journal's ([article,periodical]; the others are aliases)
_JOURNALS = frozenset({"article", "periodical", "suppperiodical", "review"})
_COUNTRY_OF: dict[str, str] = {}
for _key, _name in COUNTRY_KEYS.items():
    _COUNTRY_OF.setdefault(_name, _key)
_SERIES_OF = {name: key for key, name in SERIES_KEYS.items()}
_ORDINAL_SERIES = lazy(r"([1-9]\d{0,3})(?:st|nd|rd|th) series")
_AND = " and "


def _ordinal(number: int) -> str:
    """English ordinals as biblatex's ``\\mkbibordinal`` writes them (1st, 2nd, 3rd, 11th, 21st)."""
    suffix = "th" if 11 <= number % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _table(variable: str, entry: str) -> str | None:
    if variable == "collection-title" and entry in _JOURNALS:
        return "series"
    if variable == "publisher-place" and entry == "patent":
        return "country"
    return None


def words(variable: str, entry: str, text: str) -> str:
    """What biblatex prints for ``text`` in a variable of an entry (lower-case type)."""
    table = _table(variable, entry)
    if table == "series":
        value = text.strip()
        if value.isascii() and value.isdigit() and 0 < int(value) < 10000:
            return f"{_ordinal(int(value))} series"
        return SERIES_KEYS.get(value, text)
    if table == "country":
        return _AND.join(COUNTRY_KEYS.get(item.strip(), item) for item in text.split(_AND))
    return text


def keys(variable: str, entry: str, text: str) -> str:
    """The biblatex key for the words of :func:`words`, else ``text``."""
    table = _table(variable, entry)
    if table == "series":
        found = _ORDINAL_SERIES.fullmatch(text)
        if found and _ordinal(int(found[1])) + " series" == text:
            return found[1]
        return _SERIES_OF.get(text, text)
    if table == "country":
        return _AND.join(_COUNTRY_OF.get(item, item) for item in text.split(_AND))
    return text
