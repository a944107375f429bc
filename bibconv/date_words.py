"""The words of written dates: month and weekday names from Babel's CLDR locale data, season
words and the small words between a date's parts.

Building the month lookup from Babel takes half a second, so the lookup is saved with the
package (``date_words.json``, for the Babel version it was made from; ``python -m
bibconv.date_words`` writes it again) and built from Babel only for another version.

A name that means different months in different languages (Czech *listopad* is November,
Croatian *listopad* October) is only read when a language hint settles it.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["DATE_LOCALES", "FILLERS", "SEASON_WORDS", "month_of", "normalised", "saved_text", "weekdays"]

_SAVED = Path(__file__).with_name("date_words.json")

DATE_LOCALES: tuple[str, ...] = (
    "en", "fr", "de", "es", "it", "pt", "nl", "ca", "gl", "eu", "sv", "da", "nb", "nn", "fi",
    "is", "et", "lv", "lt", "pl", "cs", "sk", "sl", "hr", "bs", "sr", "ro", "hu", "el", "ru",
    "uk", "be", "bg", "mk", "tr", "az", "id", "ms", "vi", "af", "ga", "cy", "sq", "mt", "ja",
    "zh", "ko", "he", "ar", "fa", "hi", "th",
)  # fmt: skip
"""Languages whose month and weekday names are recognised."""

# Small words that sit between the parts of a written date in these languages.
FILLERS = frozenset(
    {"de", "del", "of", "the", "le", "la", "el", "den", "der", "am", "on", "d", "г", "года", "r", "roku", "m"}
)
# Season words (EDTF's 21-24 less 20) in the languages whose seasons are written before a year.
SEASON_WORDS = {
    **dict.fromkeys(("spring", "printemps", "frühling", "frühjahr", "primavera", "lente", "vår"), 1),
    **dict.fromkeys(("summer", "été", "sommer", "verano", "verão", "zomer"), 2),
    **dict.fromkeys(("autumn", "fall", "automne", "herbst", "otoño", "autunno", "outono", "herfst"), 3),
    **dict.fromkeys(("winter", "hiver", "invierno", "inverno", "vinter", "zima"), 4),
}  # fmt: skip


@dataclass(frozen=True)
class _Names:
    """Month names (normalised) to ``{month: languages}``; weekday names."""

    months: dict[str, dict[int, frozenset[str]]]
    folded: dict[str, dict[int, frozenset[str]]]
    weekdays: frozenset[str]


@lru_cache(maxsize=4096)
def normalised(word: str) -> str:
    """``word`` as the tables hold it: NFC, case-folded, no final period, no elided ``d'``/``l'``."""
    text = unicodedata.normalize("NFC", word).casefold().replace("’", "'").rstrip(".")
    return text[2:] if text.startswith(("d'", "l'")) and len(text) > 3 else text


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _add(table: dict[str, dict[int, set[str]]], name: str, month: int, language: str) -> None:
    key = normalised(name)
    if key and not key.isdigit():
        table.setdefault(key, {}).setdefault(month, set()).add(language)


def _freeze(table: dict[str, dict[int, set[str]]]) -> dict[str, dict[int, frozenset[str]]]:
    return {k: {m: frozenset(langs) for m, langs in v.items()} for k, v in table.items()}


@lru_cache(maxsize=1)
def _names() -> _Names:
    """The month and weekday lookup: the table saved for the installed Babel, else built from it."""
    return _saved() or _from_babel()


def _saved() -> _Names | None:
    """The table of ``date_words.json``, when it was made from the installed Babel's data."""
    import babel

    try:
        data = json.loads(_SAVED.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("babel") != babel.__version__ or data.get("locales") != list(DATE_LOCALES):
        return None

    def thawed(table: dict[str, dict[str, list[str]]]) -> dict[str, dict[int, frozenset[str]]]:
        return {k: {int(m): frozenset(langs) for m, langs in v.items()} for k, v in table.items()}

    return _Names(thawed(data["months"]), thawed(data["folded"]), frozenset(data["weekdays"]))


def saved_text() -> str:
    """``date_words.json`` as the installed Babel makes it (``python -m bibconv.date_words`` writes it)."""
    import babel

    names = _from_babel()

    def frozen(table: dict[str, dict[int, frozenset[str]]]) -> dict[str, dict[str, list[str]]]:
        return {
            k: {str(m): sorted(langs) for m, langs in sorted(v.items())} for k, v in sorted(table.items())
        }

    data = {
        "babel": babel.__version__,
        "locales": list(DATE_LOCALES),
        "months": frozen(names.months),
        "folded": frozen(names.folded),
        "weekdays": sorted(names.weekdays),
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n"


def _from_babel() -> _Names:
    """Build the month and weekday lookup from Babel's CLDR data (half a second)."""
    from babel import Locale, UnknownLocaleError

    months: dict[str, dict[int, set[str]]] = {}
    weekdays: set[str] = set()
    for code in DATE_LOCALES:
        try:
            locale = Locale.parse(code)
        except (UnknownLocaleError, ValueError):  # pragma: no cover - depends on Babel's data
            continue
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for month, name in locale.months[context][width].items():
                    _add(months, name, month, code)
                for name in locale.days[context][width].values():
                    weekdays.add(normalised(name))
    folded: dict[str, dict[int, set[str]]] = {}
    for key, by_month in months.items():
        plain = _fold(key)
        if plain != key:
            for month, langs in by_month.items():
                for language in langs:
                    _add(folded, plain, month, language)
    return _Names(_freeze(months), _freeze(folded), frozenset(weekdays))


@lru_cache(maxsize=4096)
def month_of(word: str, lang: str | None) -> int | None:
    """The month a name means, or ``None`` (not a month, or ambiguous without a hint)."""
    names = _names()
    key = normalised(word)
    for table, key_form in ((names.months, key), (names.folded, _fold(key))):
        candidates = table.get(key_form)
        if not candidates:
            continue
        if len(candidates) == 1:
            return next(iter(candidates))
        if lang:
            hinted = [m for m, langs in candidates.items() if lang in langs]
            if len(hinted) == 1:
                return hinted[0]
        return None
    return None


def weekdays() -> frozenset[str]:
    """The weekday names of every language (normalised)."""
    return _names().weekdays


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    _SAVED.write_text(saved_text(), encoding="utf-8")
