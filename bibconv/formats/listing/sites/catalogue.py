"""What the library catalogue and repository readers share: names as catalogues write them
(``Glattauer, Robin [VerfasserIn]``), the kind of a record from its material type in the
languages these sites use, and dates as they print them.
"""

from __future__ import annotations

import re
from typing import Any

from bibconv.dates import parse_date, search_date
from bibconv.formats.listing.common import Entry, clean_space, plain_name
from bibconv.formats.listing.dom import text_of
from bibconv.model import Date, Name
from bibconv.patterns import lazy

__all__ = ["catalogue_name", "kind_of", "material_type", "year_or_date"]

_ROLE = lazy(
    r"(?:(?:(?<!\s)\s++)?(?:\((?:author|autor|auteur|verfasser\w*|hrsg\.?|ed\.?|eds\.?|editor|orientador\w*|"
    r"advisor|supervisor|thesis advisor)\)|,\s+(?:author|autor|verfasserIn|editor|orientador\w*)\.?)"
    r"|(?<!\s)\s++(?:author|autor|verfasserIn|editor|orientador\w*)\.?)\s*$",
    re.IGNORECASE,
)
"""A role at the end of a heading, in parentheses or after a comma or a space (a role in brackets:
:func:`_bracket_start`)."""
_DATES_OF_LIFE = lazy(r"(?:,|(?<!\s))\s*+\(?\d{4}\s*-\s*(?:\d{4})?\)?\.?\s*$")
_KINDS = (
    (lazy(r"doctoral|doctorado|doutorado|dottorato|doktor|ph\.?\s?d|thèse|these|tese|tesi|thesis|"
                r"dissertation|dissertação|disserta|master|mestrado|laurea|diplom", re.IGNORECASE), "thesis"),
    (lazy(r"e-?book|\bbook\b|buch|livre|libro|livro|monogra", re.IGNORECASE), "book"),
    (lazy(r"chapter|kapitel|chapitre|capítulo|capitolo|book part", re.IGNORECASE), "chapter"),
    (lazy(r"conference|proceedings|konferenz|congrès|congresso|conferência|evento", re.IGNORECASE),
     "paper-conference"),
    (lazy(r"article|artikel|artículo|artigo|articolo|journal|zeitschrift", re.IGNORECASE),
     "article-journal"),
    (lazy(r"report|bericht|rapport|relatório|working paper|preprint", re.IGNORECASE), "report"),
    (lazy(r"data ?set|datensatz|dados", re.IGNORECASE), "dataset"),
)  # fmt: skip


def _bracket_start(text: str) -> int:
    """Where a role in brackets at the end of ``text`` starts, with the spaces before it
    (``Doe, Ann [VerfasserIn]``): the first ``[`` after the ``]`` before the last; ``len(text)``
    when it ends in none. The search from the end looks at each character once, where a pattern
    tried at every ``[`` would scan on to the ``]`` from each."""
    end = len(text.rstrip())
    if not end or text[end - 1] != "]":
        return len(text)
    opening = text.find("[", text.rfind("]", 0, end - 1) + 1, end - 1)
    if opening < 0:
        return len(text)
    start = opening
    while start and text[start - 1].isspace():
        start -= 1
    return start


def _without_role(text: str) -> str:
    """``text`` without the role at its end (in brackets, parentheses, or after a comma or a space)."""
    role = _ROLE.search(text)
    return text[: min(_bracket_start(text), role.start() if role else len(text))]


def catalogue_name(text: str) -> Name | None:
    """One catalogue heading: ``Family, Given`` (a role in brackets and dates of life dropped)."""
    from bibconv.formats.listing.sites import person

    text = clean_space(plain_name(text))
    text = _DATES_OF_LIFE.sub("", _without_role(text)).strip(" ,;.")
    if not text:
        return None
    if text.count(",") == 1:
        family, given = (part.strip() for part in text.split(","))
        if family and given:
            return Name(family=family, given=given)
    return person(text)


def kind_of(label: str) -> str | None:
    """The CSL type a catalogue's material type (``Tese de doutorado``, ``E-Book``) names, if any."""
    for pattern, kind in _KINDS:
        if pattern.search(label):
            return kind
    return None


def material_type(entry: Entry, node: Any | None, field: str) -> None:
    """Keep the material type ``node`` shows (``Tese de doutorado``) in ``field``; the record's
    type becomes the one it names, if it names one."""
    label = text_of(node) if node is not None else ""
    if label:
        entry.fields[field] = label
        entry.record_type = kind_of(label) or entry.record_type


def year_or_date(text: str, lang: str | None = None) -> Date | None:
    """The date a catalogue prints (``2016``, ``Published 2016``, ``Wien, 2016, 2016``)."""
    found = parse_date(text, lang)
    if found is not None:
        return found
    dated = search_date(text, lang)
    if dated is not None:
        return dated[0]
    year = re.search(r"(?<!\d)((?:1[5-9]|20)\d\d)(?!\d)", text)
    return Date(parts=((int(year.group(1)),),)) if year else None
