"""BOND (OCLC) Bibliotheca Web-OPAC result lists, the catalogues of many German public libraries.

Each row of ``table.resulttab`` (``tr.result_treffer`` or ``tr.result_trefferX``) is one record:
the material's icon, whose ``alt`` names it (``Monographie``, ``Noten``, ``Spielfilm``), and the
short display linked to the details. The display may open with a heading of names
(``Beuning, Brigitte ; Knobloch, Jörg:``) and a line break; then comes the title statement
(``Title : other title information / statement of responsibility``), areas after `` - `` (an
edition ``1. Aufl.``, areas the display cuts with ``...``) and the year last (``2013``, a
weekly issue ``51/2014``). A line break after the title statement starts its areas.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.formats.listing.sites.catalogue import catalogue_name
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Bibliotheca"]

_ROWS = "table.resulttab tr.result_treffer, table.resulttab tr.result_trefferX"
_DATE = lazy(r"^(?:\d{1,2}/)?((?:1[5-9]|20)\d\d)$")
_EDITION = lazy(r"^\d+\.\s*(?:Aufl|Ausg|Auflage|ed)\b", re.IGNORECASE)
_KINDS = {
    "monographie": "book",
    "klassensatz": "book",
    "noten": "musical_score",
    "software": "software",
    "spielfilm": "motion_picture",
    "sachfilm": "motion_picture",
    "musikfilm": "motion_picture",
    "munzinger online": "entry-encyclopedia",
}
"""The CSL type of the materials the icons name; another material is a ``document``."""


def _lines(node: Any) -> list[str]:
    """The text of ``node`` cut at its line breaks, each line's spaces made single."""
    lines: list[str] = []
    current: list[str] = []

    def walk(parent: Any) -> None:
        for child in parent.iter(include_text=True):
            if child.tag == "-text":
                current.append(child.text(deep=False))
            elif child.tag == "br":
                lines.append(clean_space("".join(current)))
                current.clear()
            else:
                walk(child)

    walk(node)
    lines.append(clean_space("".join(current)))
    return [line for line in lines if line]


def _is_area(segment: str) -> bool:
    """Whether a `` - `` segment after the title is an area: an edition, or one the display cuts."""
    return segment.endswith("...") or _EDITION.match(segment) is not None


def _areas(title_part: str, after_break: list[str]) -> tuple[str, list[str], int | None]:
    """The title statement, the areas after it and the year, from the display's parts."""
    title_segments = title_part.split(" - ")
    rest = " - ".join(after_break).split(" - ") if after_break else []
    tail = rest if rest else title_segments
    year = _DATE.match(tail[-1]) if len(tail) > 1 or rest else None
    if year:
        tail.pop()
    areas: list[str] = []
    while len(title_segments) > 1 and _is_area(title_segments[-1]):
        areas.insert(0, title_segments.pop())
    return " - ".join(title_segments), areas + rest, int(year.group(1)) if year else None


def _title(statement: str) -> tuple[str, str]:
    """The title (``Title: other title information``) and the statement of responsibility."""
    title, _, responsibility = statement.partition(" / ")
    main, _, other = title.partition(" : ")
    main, other = main.strip(" ;:/"), other.strip(" ;:/")
    return (f"{main}: {other}" if other else main), responsibility.strip()


def _record(row: Any) -> Item | None:
    cells = row.css("td")
    link = cells[1].css_first("a") if len(cells) > 1 else None
    lines = _lines(link) if link is not None else []
    if not lines:
        return None
    heading = lines.pop(0)[:-1] if len(lines) > 1 and lines[0].endswith(":") else ""
    statement, areas, year = _areas(lines[0], lines[1:])
    title, responsibility = _title(statement)
    if not title:
        return None
    entry = Entry(title=title)
    entry.authors = tuple(n for part in heading.split(" ; ") if (n := catalogue_name(part)) is not None)
    if year is not None:
        entry.issued = Date(parts=((year,),))
    edition = next((a for a in areas if _EDITION.match(a)), None)
    if edition:
        entry.fields["edition"] = edition
    named = [] if entry.authors or not responsibility else [responsibility]  # no heading: as shown
    shown = named + [a for a in areas if a != edition]
    if shown:
        entry.fields["note"] = "; ".join(shown)
    icon = cells[0].css_first("img[alt]")
    material = clean_space(icon.attributes.get("alt") or "") if icon is not None else ""
    if material:
        entry.fields["genre"] = material
    entry.record_type = _KINDS.get(material.lower(), "document")
    return Item(entry, row)


@site
class Bibliotheca:
    """Bibliotheca Web-OPAC result lists."""

    name: ClassVar[str] = "bibliotheca"

    def claims(self, page: Page) -> bool:
        if page.tree.css_first(_ROWS) is None:
            return False
        vendor = page.tree.css_first("a[href*='bond-online.de']")
        return page.title.startswith("Web-OPAC") or vendor is not None

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_record(row) for row in page.tree.css(_ROWS))
        return [item for item in found if item is not None]
