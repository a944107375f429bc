"""Plain-text paper listings: what a topic page or a newsletter looks like when copied as text.

An entry starts with a bullet (``•``, ``-``, ``*``, ``‣``…) or a number (``1.``, ``1)``,
``[1]``) and holds, in this order::

    • Title (one or more lines)

      Authors · 20 avril 2026          (also "authors — date", "authors (date)", a date alone)

      Abstract, optional; an abstract ending in … or ... is kept as shown and noted as truncated

Lines before the first entry (the page's title, a section heading) are not records. Lines
that are only a link (``https://arxiv.org/abs/…``, ``arXiv:…``, ``doi:…``) give the entry
its URL, arXiv id or DOI. Entries are read one by one as the lines come.

Any ``.txt`` file is not assumed to be a listing: the format is chosen by content
(:meth:`TextListingReader.sniff`), and text that holds no entry is reported as an error
rather than read as nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, ClassVar

from bibconv.errors import ParseError
from bibconv.formats.listing.common import Entry, clean_space, parse_byline, title_record
from bibconv.formats.listing.text_layout import MARKER, Layout, family_of, indent_of
from bibconv.model import Arxiv, Record
from bibconv.patterns import lazy
from bibconv.registry import ReadContext, register
from bibconv.textio import iter_lines, open_text

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = ["TextListingReader"]

_LINK_LINE = lazy(
    r"^\s*(?:[\w ]{1,20}:\s+)?(?P<link>https?://\S+|arxiv:\s*\S+|doi:\s*10\.\S+|10\.\d{4,9}/\S+)\s*$",
    re.IGNORECASE,
)
_DOI = lazy(r"(10\.\d{4,9}/\S+)")
_YEARISH = lazy(r"\b(?:1[89]|20)\d\d\b")
_NOT_LISTING = lazy(r"^\s*(?:<|@\w+\s*[{(]|\{|TY {2}-|%[A-Z] )")


class _Pending:
    """Lines of the entry being read: the title line, lines right under it, then paragraphs."""

    __slots__ = ("attached", "blank", "line", "paragraphs", "title")

    def __init__(self, line: int, title: str) -> None:
        self.line = line
        self.title = title
        self.attached: list[str] = []
        self.paragraphs: list[list[str]] = []
        self.blank = False  # a blank line since the last line of text

    def add(self, text: str) -> None:
        """Take a line of text (not blank, stripped)."""
        if not self.blank and not self.paragraphs:
            self.attached.append(text)
        else:
            if self.blank or not self.paragraphs:
                self.paragraphs.append([])
            self.blank = False
            self.paragraphs[-1].append(text)


def _links(entry: Entry, line: str) -> bool:
    """Take a link-only line into ``entry``; ``True`` if the line was one."""
    from bibconv.arxiv import parse_arxiv_id

    match = _LINK_LINE.match(line)
    if not match:
        return False
    link = match.group("link").rstrip(".,;")
    found = parse_arxiv_id(link, bare=False)
    if found is not None:
        entry.arxiv = Arxiv(id=found[0], version=found[1])
        return True
    doi = _DOI.search(link)
    if doi and ("doi" in link.lower() or link.startswith("10.")):
        entry.doi = doi.group(1).rstrip(".,;")
    elif link.lower().startswith("http"):
        entry.url = entry.url or link
    return True


def _record(pending: _Pending, lang: str | None, ctx: ReadContext) -> Record | None:
    """The entry's record, or ``None`` when its text cannot be read (reported through ``ctx.fail``)."""
    try:
        if not pending.attached and not pending.paragraphs:  # a title alone (rich text cleans its spaces)
            return title_record(pending.title, ctx.span(pending.line))
        return _entry(pending, lang).to_record(ctx.span(pending.line))
    except ValueError as exc:  # TeX nested too deeply, a number too large
        ctx.fail(ParseError(str(exc), ctx.span(pending.line)))
        return None


def _entry(pending: _Pending, lang: str | None) -> Entry:
    """Title, byline and abstract of one entry that has more than a title."""
    entry = Entry(title=pending.title)
    attached = [ln for ln in pending.attached if not _links(entry, ln)]
    rest = [kept for p in pending.paragraphs if (kept := [ln for ln in p if not _links(entry, ln)])]
    found = False
    # Compact listings put the byline right under the title; the title itself may wrap.
    for index, text in enumerate(attached):
        byline = parse_byline(text, lang)
        if byline is not None:
            entry.authors, entry.issued, found = byline.authors, byline.date, True
            if attached[index + 1 :]:
                rest = [attached[index + 1 :], *rest]
            break
        entry.title += " " + text
    if not found and rest:
        for take in (len(rest[0]), 1):
            byline = parse_byline(" ".join(rest[0][:take]), lang)
            if byline is not None:
                entry.authors, entry.issued = byline.authors, byline.date
                rest = [rest[0][take:], *rest[1:]] if rest[0][take:] else rest[1:]
                break
    entry.abstract = "\n".join(clean_space(" ".join(p)) for p in rest)
    entry.title = clean_space(entry.title)
    return entry


@register
class TextListingReader:
    """Reads plain-text listings of papers (bulleted or numbered entries)."""

    name: ClassVar[str] = "text"
    extensions: ClassVar[tuple[str, ...]] = ()
    description: ClassVar[str] = "plain-text paper listing (title, authors · date, abstract)"

    @staticmethod
    def sniff(head: str) -> float:
        """Confident when the head holds several bulleted or numbered entries followed by dated bylines."""
        if _NOT_LISTING.match(head) or "<html" in head[:1000].lower():
            return 0.0
        lines = head.splitlines()
        markers = [i for i, line in enumerate(lines) if MARKER.match(line)]
        if len(markers) < 2:
            return 0.0
        dated = sum(
            1
            for i in markers
            for line in lines[i + 1 : i + 4]
            if _YEARISH.search(line) and any(sep in line for sep in ("·", " — ", " – ", "(", " | ", ","))
        )
        return 0.85 if dated >= 1 else 0.3

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input before entries into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.formats.listing.text_split import split

        return split(stream, size)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        lang = ctx.option("lang")
        pending: _Pending | None = None
        layout = ctx.state if isinstance(ctx.state, Layout) else Layout()
        count = 0
        for number, line in iter_lines(open_text(stream, ctx)):
            if not line.strip():
                if pending is not None:
                    pending.blank = True
                continue
            match = MARKER.match(line)
            indent = indent_of(line) if line[0].isspace() else 0  # most lines start at the margin
            if match is not None and layout.opens_entry(match, indent):
                if pending is not None:
                    count += 1
                    if (record := _record(pending, lang, ctx)) is not None:
                        yield record
                if layout.family is None:
                    layout = Layout(family_of(match["marker"]), indent)
                pending = _Pending(number, match["text"].strip())
            elif pending is None:
                continue
            elif layout.body_indent is None:
                layout = Layout(layout.family, layout.marker_indent, indent)
                pending.add(line.strip())
            elif layout.body_indent > layout.marker_indent >= indent:
                # An unindented line among indented entries is a heading, not part of an entry.
                count += 1
                if (record := _record(pending, lang, ctx)) is not None:
                    yield record
                pending = None
            else:
                pending.add(line.strip())
        if pending is not None:
            count += 1
            if (record := _record(pending, lang, ctx)) is not None:
                yield record
        if count == 0:
            ctx.fail(
                ParseError(
                    "no listing entries found: the text reader expects entries that start with a bullet "
                    "(•, -, *) or a number (1., [1]), with a title line, then 'authors · date'",
                    ctx.span(1),
                )
            )
