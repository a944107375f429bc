"""Fields biblatex keeps apart that CSL holds in one variable: the parts of a title, and a publisher.

biblatex prints a title and its subtitle as one, "Title: Subtitle", and a book's or a journal's with its
addon too, "Title: Subtitle. Addon" (in ``container-title``); CSL has the title alone. A work's own
``titleaddon`` stays apart, as citation-js reads it (the peer suite): it is a note on the work ("of 2002",
"Translated by…") more than its title. An entry with no ``publisher`` is
published by its ``organization`` (in the entries BibTeX's styles print it for: manual, proceedings,
inproceedings) or its ``howpublished`` (when that is not a URL), as Zotero, citation-js and pandoc read
them. A record read from BibTeX holds the whole text in the variable and each such field as written in
``extra`` (``bibtex:subtitle``, ``bibtex:howpublished``: :data:`TITLE_PARTS`, :data:`PUBLISHERS`), which
CSL-JSON carries in ``custom``; the BibTeX writers take a part off again while the variable still holds
it and write the field as kept (classic BibTeX, with no field for subtitles and addons, keeps them in
the title).

>>> join("The True Frontier", "Confronting the Future"), join("Why?", "An answer")
('The True Frontier: Confronting the Future', 'Why? An answer')
>>> join("Elementary particle theory", "Proceedings of the Eighth Nobel Symposium", ". ")
'Elementary particle theory. Proceedings of the Eighth Nobel Symposium'
>>> split_off("The True Frontier: Confronting the Future", "Confronting the Future")
'The True Frontier'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = [
    "HELD",
    "PUBLISHERS",
    "TITLE_PARTS",
    "Part",
    "join",
    "kept_parts",
    "publisher_fields",
    "split_off",
    "take_off",
    "title_parts",
]


@dataclass(frozen=True)
class Part:
    """A field whose text ends a title: its ``extra`` key, the variable, the punctuation before it, and
    whether it belongs to a journal's entry (``True``), to any other (``False``) or to all (``None``)."""

    key: str
    variable: str
    punct: str
    journal: bool | None = None


TITLE_PARTS: tuple[Part, ...] = (
    Part("bibtex:subtitle", "title", ": "),
    Part("bibtex:booksubtitle", "container-title", ": ", journal=False),
    Part("bibtex:booktitleaddon", "container-title", ". ", journal=False),
    Part("bibtex:journalsubtitle", "container-title", ": ", journal=True),
    Part("bibtex:journaltitleaddon", "container-title", ". ", journal=True),
)
"""In the order biblatex prints them (``\\subtitlepunct`` ": " as citeproc and citation-js join a
subtitle, ``\\titleaddonpunct`` ". ")."""

PUBLISHERS: dict[str, frozenset[str] | None] = {
    "bibtex:organization": frozenset({"manual", "proceedings", "inproceedings", "conference"}),
    "bibtex:howpublished": None,
}
"""The fields that are the publisher of an entry without one, the first present winning, each with the
entry types it is for (``None``: every type)."""

HELD: dict[str, str] = {**{p.key: p.variable for p in TITLE_PARTS}, **dict.fromkeys(PUBLISHERS, "publisher")}
"""The ``extra`` key of each field above → the variable that holds its text."""

_ENDS_SENTENCE = tuple(".?!:;")


def title_parts(journal: bool) -> tuple[Part, ...]:
    """The parts of a title for a journal's entry or another's, in the order they are joined."""
    return tuple(p for p in TITLE_PARTS if p.journal is None or p.journal == journal)


def publisher_fields(entry: str) -> tuple[str, ...]:
    """The ``extra`` keys that give the publisher of an entry (lower-case BibTeX type) without one."""
    return tuple(key for key, types in PUBLISHERS.items() if types is None or entry in types)


def _separator(title: str, punct: str) -> str:
    ends = _ENDS_SENTENCE if punct == ": " else _ENDS_SENTENCE[:3]
    return " " if title.rstrip().endswith(ends) else punct


def join(title: str, part: str, punct: str = ": ") -> str:
    """``Title: Subtitle`` or ``Title. Addon`` (a space alone after a title that ends with its own
    punctuation)."""
    if not part:
        return title
    return title.rstrip() + _separator(title, punct) + part.strip() if title else part


def split_off(whole: str, part: str, punct: str = ": ") -> str | None:
    """The title before ``part`` when ``whole`` is :func:`join` of the two, else ``None``."""
    part = part.strip()
    if not part or not whole.endswith(part):
        return None
    head = whole[: -len(part)]
    for sep in (punct, " "):
        if head.endswith(sep) and head[: -len(sep)].strip() and join(head[: -len(sep)], part, punct) == whole:
            return head[: -len(sep)]
    return None


def kept_parts(fields: Mapping[str, str], extra: Mapping[str, object], journal: bool) -> set[str]:
    """The keys of the kept parts whose variable ``fields`` has (classic BibTeX keeps them all in it)."""
    return {p.key for p in title_parts(journal) if isinstance(extra.get(p.key), str) and p.variable in fields}


def take_off(
    fields: dict[str, str], extra: Mapping[str, object], journal: bool, text: Callable[[str], str]
) -> set[str]:
    """Take each kept part (its field's text: ``text(raw)``) off the end of its variable in ``fields``,
    the last joined first; the keys of the parts the variable no longer ends with (they stay in it)."""
    kept: set[str] = set()
    for part in reversed(title_parts(journal)):
        raw = extra.get(part.key)
        if not isinstance(raw, str) or part.variable not in fields:
            continue
        head = split_off(fields[part.variable], text(raw), part.punct)
        if head is None:
            kept.add(part.key)
        else:
            fields[part.variable] = head
    return kept
