"""crossref and xdata inheritance (biblatex's default rules): which fields a child takes from its
parent, and under which names."""

from __future__ import annotations

__all__ = ["ALIASES", "INHERIT_SKIP", "INHERIT_TITLES", "inherit_renames"]


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Fields that say the same thing: a child inherits none of a group it already has one of.
ALIASES: dict[str, str] = {
    "journal": "container",
    "journaltitle": "container",
    "booktitle": "container",
    "address": "location",
    "location": "location",
    "annote": "annotation",
    "annotation": "annotation",
    "date": "date",
    "year": "date",
    "school": "institution",
    "institution": "institution",
    "archiveprefix": "eprinttype",
    "eprinttype": "eprinttype",
    "primaryclass": "eprintclass",
    "eprintclass": "eprintclass",
}

# Fields a child never inherits through crossref/xdata (biblatex's default rules).
INHERIT_SKIP: frozenset[str] = frozenset(
    _words(
        "ids crossref xref xdata entryset entrysubtype execute label options presort related "
        "relatedoptions relatedstring relatedtype shorthand shorthandintro sortkey"
    )
)
# Parent type -> child types -> field renames (biblatex: a book's title is an inbook's booktitle).
_BOOKISH = ("book", "collection", "proceedings", "reference")
_PARTS = (
    "inbook",
    "bookinbook",
    "suppbook",
    "incollection",
    "suppcollection",
    "inproceedings",
    "inreference",
)
INHERIT_TITLES: dict[str, tuple[str, ...]] = {
    "title": ("booktitle",),
    "subtitle": ("booksubtitle",),
    "titleaddon": ("booktitleaddon",),
}
_INHERIT_MV: dict[str, tuple[str, ...]] = {
    "title": ("maintitle",),
    "subtitle": ("mainsubtitle",),
    "titleaddon": ("maintitleaddon",),
}


def inherit_renames(parent_type: str, child_type: str) -> dict[str, tuple[str, ...]]:
    """Field renames biblatex applies when ``child_type`` inherits from ``parent_type``.

    A field maps to the fields it fills in the child (a ``@book``'s author is an ``@inbook``'s
    ``author`` and ``bookauthor``); a field not listed is inherited under its own name.
    """
    parent, child = parent_type.lower(), child_type.lower()
    if parent.startswith("mv") and parent[2:] in _BOOKISH:
        return _INHERIT_MV
    if parent in _BOOKISH and child in _PARTS:
        renames = dict(INHERIT_TITLES)
        if parent == "book":
            renames["author"] = ("author", "bookauthor")
        return renames
    if parent == "periodical" and child in ("article", "suppperiodical"):
        return {"title": ("journaltitle",), "subtitle": ("journalsubtitle",)}
    return {}
