"""Ex Libris Primo brief results (the classic ``EXLResult`` layout of library catalogues).

Each ``tr.EXLResult`` is one record: the title in ``.EXLResultTitle``, the authors in
``.EXLResultAuthor`` (catalogue headings, ``Family, Given [role]``, separated by ``;``), the
place and date in ``.EXLResultFourthLine`` (``Wien, 2016``), the material type in
``.EXLThumbnailCaption`` (``E-Book``), and the record's id in its anchor.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.formats.listing.sites.catalogue import catalogue_name, material_type, year_or_date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Primo"]

_PLACE = lazy(r"^(?P<place>[^,\d][^,]*?),\s*(?=\S*\d)")


def _record(node: Any, page: Page) -> Item | None:
    title = node.css_first(".EXLResultTitle a") or node.css_first(".EXLResultTitle")
    if title is None or not text_of(title):
        return None
    entry = Entry(title=rich_of(title), title_is_rich=True)
    names = [p for a in node.css(".EXLResultAuthor") for p in text_of(a).split(";")]
    entry.authors = tuple(n for p in names if (n := catalogue_name(p)) is not None)
    line = node.css_first(".EXLResultFourthLine")
    if line is not None:
        text = text_of(line)
        entry.issued = year_or_date(text.split(",")[-1], page.lang) or year_or_date(text, page.lang)
        place = _PLACE.match(text)
        if place:
            entry.fields["publisher-place"] = place.group("place").strip()
    material_type(entry, node.css_first(".EXLThumbnailCaption"), "medium")
    anchor = node.css_first("a.EXLResultRecordId[name]")
    if anchor is not None:
        entry.fields["call-number"] = anchor.attributes.get("name") or ""
        entry.fields = {k: v for k, v in entry.fields.items() if v}
    entry.url = absolute(title.attributes.get("href"), page.base)
    return Item(entry, node)


@site
class Primo:
    """Primo brief results."""

    name: ClassVar[str] = "primo"

    def claims(self, page: Page) -> bool:
        return page.tree.css_first("tr.EXLResult .EXLResultTitle, div.EXLResult .EXLResultTitle") is not None

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_record(n, page) for n in page.tree.css(".EXLResult"))
        return [item for item in found if item is not None]
