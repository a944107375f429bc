"""Section headings of a listing that say what the items under them are.

A publication list sorts its items under headings: a year (``2019``), an item type
(``Journal Papers``, ``Conference Papers``, ``Theses``, ``Book chapters``, ``Preprints``) or a
venue (``NeurIPS 2019``, ``Proceedings of …``, a proceedings page's ``31st International
Symposium on …``). Each item is under the headings of the page's outline before it (a heading
closes the deeper ones), leaving out headings inside items (their titles). A type heading gives
its type to the items under it; a venue heading gives its name as the container, the type the
name says and its year, to items that show none of their own. A heading naming several types
(``Journal and conference papers``) says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import events, text_of
from bibconv.formats.listing.pagememory import page_memory
from bibconv.model import Date
from bibconv.patterns import lazy

__all__ = ["Outline", "apply_outline", "outlines"]

_LEVELS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_ROW_LEVEL = 7  # a table's heading row sits under the page's headings
_HEADING_OR_ROW = "h1, h2, h3, h4, h5, h6, tr"
_TYPE_WORDS = (
    ("article-journal", r"journals?|journal articles?|zeitschrift\w*|revues?|revistas?|riviste"),
    ("paper-conference", r"conferences?|proceedings|workshops?|symposi(?:a|um|ums)|konferenz\w*|"
     r"tagung\w*|congr[eè]s|conf[ée]rences?|congresos?|conferencias?|convegni|congressi"),
    ("chapter", r"(?:book )?chapters?|buchkapitel|chapitres?|cap[ií]tulos?|capitoli"),
    ("book", r"books?|monographs?|b[üu]cher|livres?|libros?|libri|edited volumes?"),
    ("thesis", r"thes[ie]s|dissertations?|doktorarbeit\w*|abschlussarbeiten|th[èe]ses?|tesis|tesi"),
    ("report", r"(?:technical |tech\.? )?reports?|berichte|rapports?|working papers?"),
    ("article", r"preprints?|pre-prints?|vorabdrucke?"),
    ("patent", r"patents?|patente"),
    ("speech", r"talks?|presentations?|vortr[äa]ge"),
)  # fmt: skip
_TYPES = [(kind, lazy(rf"\b(?:{words})\b", re.IGNORECASE)) for kind, words in _TYPE_WORDS]
_EDITED = lazy(r"\bedited\b|\bherausgegeben|\bhrsg\b", re.IGNORECASE)
_MOST_WORDS = 10
_MOST_VENUE_WORDS = 18
_LIST_WORDS = lazy(
    r"(?:(?<!\s)\s++)?(?:[-–—:|]\s*+)?(?:list of\s++)?(?:(?:accepted|selected|all)\s*+)?"
    r"(?:papers|publications|articles|contributions|submissions|program(?:me)?)\s*$",
    re.IGNORECASE,
)
_VOLUME = lazy(r"(?:,|(?<!\s))\s++(?:vol\.?|volume)\s*(\d+)\b.*$", re.IGNORECASE)
_YEAR = lazy(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_CONFERENCE_VENUE = lazy(
    r"^(?:the\s+)?proceedings\s+of\b|\b\d+(?:st|nd|rd|th)\b.*\b(?:conference|symposium|workshop|congress|"
    r"meeting|colloquium)\b|\b(?:conference|symposium|workshop|congress|meeting|colloquium)\b.*(?<!\d)"
    r"(?:19|20)\d\d(?!\d)|(?<!\d)(?:19|20)\d\d\s+(?:\w+\s+){0,3}(?:conference|symposium|workshop|congress|"
    r"meeting|colloquium)\b",
    re.IGNORECASE,
)
_JOURNAL_VENUE = lazy(r"^(?:the\s+)?(?:journal|transactions|annals|bulletin)\s+(?:of|on)\b", re.I)
# Two capitals or more (the second seen ahead, so that the letters are read once), then a year.
_ACRONYM_YEAR = lazy(r"^[A-Z](?=[a-z]*+[A-Z])[A-Za-z]*+\s*+(?:['’]\d\d|(?:19|20)\d\d)$")


@dataclass(frozen=True)
class Outline:
    """Where an item is: the text of the last heading before it, and the headings it is under."""

    last: str = ""
    under: tuple[str, ...] = ()


def outlines(root: Any, members: list[Any], heading_row: Callable[[Any], bool]) -> dict[int, Outline]:
    """For each member (by ``mem_id``), its :class:`Outline` on the page."""
    steps = _steps(root, members, heading_row)
    wanted = {m.mem_id for m in members}
    found: dict[int, Outline] = {}
    last, inside = "", 0
    outline: list[tuple[int, str]] = []
    for node, level in steps:
        if level < 0:  # a member's end
            inside -= 1
        elif level:
            last = text_of(node)
            if not inside:
                outline = [h for h in outline if h[0] < level] + [(level, last)]
        elif node.mem_id in wanted:
            found[node.mem_id] = Outline(last, tuple(text for _, text in outline))
            inside += 1
    return found


def _level(node: Any, heading_row: Callable[[Any], bool]) -> int:
    return _LEVELS.get(node.tag) or (_ROW_LEVEL if heading_row(node) else 0)


def _steps(root: Any, members: list[Any], heading_row: Callable[[Any], bool]) -> list[tuple[Any, int]]:
    """The headings and members under ``root`` in page order, each with its level (0: a member),
    and each member's end (level -1) after its last element."""
    memory = page_memory()
    span = memory.span(root) if memory is not None else None
    if memory is not None and span is not None and memory.starts is not None:
        starts, ends = memory.starts, memory.ends
        at: dict[int, tuple[Any, int]] = {}  # by event: the element opened there, and its level
        for node in (*root.css(_HEADING_OR_ROW), *members):  # only these have a level or are members
            start = starts.get(node.mem_id)
            if start is None or not span[0] <= start < span[1]:
                break
            at[start] = (node, _level(node, heading_row))
        else:
            wanted = {m.mem_id for m in members}
            for start, (node, level) in list(at.items()):
                if not level and node.mem_id in wanted:
                    at[ends[start] - 1] = (node, -1)
            return [at[index] for index in sorted(at)]
    steps: list[tuple[Any, int]] = []  # not on the page's walk: walked here
    wanted = {m.mem_id for m in members}
    opened: set[int] = set()
    for kind, node in events(root):
        if kind == "close" and node.mem_id in opened:
            steps.append((node, -1))
        elif kind == "open":
            level = _level(node, heading_row)
            if level or node.mem_id in wanted:
                steps.append((node, level))
                opened.update(() if level else (node.mem_id,))
    return steps


def kind_named(heading: str) -> str | None:
    """The one item type a heading names (``Journal Papers``: ``article-journal``), if it names one."""
    if len(heading.split()) > _MOST_WORDS:
        return None
    kinds = {kind for kind, words in _TYPES if words.search(heading)}
    if "chapter" in kinds and kinds <= {"chapter", "book"}:
        return "chapter"  # "Chapters in books"
    if _EDITED.search(heading) and kinds <= {"book", "paper-conference"} and kinds:
        return "book"  # "Edited Conference Proceedings": the volumes, not their papers
    return kinds.pop() if len(kinds) == 1 else None


def venue_named(heading: str) -> tuple[str, str] | None:
    """The venue a heading names and the type of its papers, if it names one. ``Conference Papers``
    names a type, not a venue: a venue has a name (``Proceedings of …``, ``Journal of …``), a
    number (``31st … Symposium``) or a year."""
    if len(heading.split()) > _MOST_VENUE_WORDS:
        return None
    name = _LIST_WORDS.sub("", heading).strip(" -–—:|")
    if not name:
        return None
    if _JOURNAL_VENUE.search(name):
        return name, "article-journal"
    if _CONFERENCE_VENUE.search(name) or _ACRONYM_YEAR.match(name):
        return name, "paper-conference"
    return None


@lru_cache(maxsize=256)
def _named(under: tuple[str, ...]) -> tuple[tuple[str, str] | None, str | None]:
    """The venue and the item type that the nearest headings naming one name: found once for the
    many items under the same headings."""
    venue = next((v for v in map(venue_named, reversed(under)) if v is not None), None)
    return venue, next((k for k in map(kind_named, reversed(under)) if k is not None), None)


def apply_outline(entry: Entry, outline: Outline) -> None:
    """Give ``entry`` what the headings it is under say (see the module docstring)."""
    if "genre" in entry.fields:  # the item says what it is
        return
    venue, kind = _named(outline.under)
    if venue is not None:
        name, papers = venue
        volume = _VOLUME.search(name)
        if volume and "volume" not in entry.fields and "container-title" not in entry.fields:
            entry.fields["volume"], name = volume.group(1), name[: volume.start()]
        if "container-title" not in entry.fields:
            entry.fields["container-title"] = name
            if entry.record_type == "article":
                entry.record_type = papers
        year = _YEAR.search(name)
        if entry.issued is None and year:
            entry.issued = Date(parts=((int(year.group(1)),),))
    if kind is not None:
        entry.record_type = kind
