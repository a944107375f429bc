"""arXiv feeds: API responses and announcement feeds, read as a stream.

Four layouts are detected by their root element and read alike:

* arXiv API responses (``export.arxiv.org/api/query``): Atom 1.0 with the ``arxiv:`` and
  ``opensearch:`` namespaces, in the 2016–2025 layout and the 2026 one;
* the announcement feeds of ``rss.arxiv.org`` since 2024: RSS 2.0 (``arxiv:announce_type``,
  comma-joined ``dc:creator``) and its Atom variant;
* the legacy announcement feed (RSS 1.0 / RDF, until January 2024), whose titles end in
  ``(arXiv:ID vN [class] UPDATED)``.

The field mapping is described in :mod:`bibconv.formats.atom.entry`.

arXiv's error answer (one entry whose id is under ``/api/errors``; the announcement service's
``Feed error for query`` feed) becomes a :class:`~bibconv.errors.RemoteError` carrying arXiv's
message; an empty feed gives no records and no error.

Parsing is streaming and hardened: lxml's pull parser clears each entry once it is mapped, so memory
does not grow with the feed; entities are never expanded, no DTD is loaded, the parser has no
network access, and a document whose DOCTYPE declares entities or names an external DTD
(billion laughs, external entities reading local files, DTDs fetched from the network) is refused
before its body is read: the head is parsed on its own up to the root's start tag, then the body,
frame by frame (:mod:`~bibconv.formats.atom.frames`): an entry that is not well-formed is
reported and costs that entry only (:class:`~bibconv.formats.atom.xml_stream.FeedEvents`).
For Atom and RSS 1.0 the parser reports only entries and the root's end (events for every element
cost more than mapping a short entry); RSS 2.0, whose channel's children count, is read level by
level.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import IO, TYPE_CHECKING, Any, ClassVar

from bibconv.arxiv import as_published
from bibconv.errors import ParseError, RemoteError
from bibconv.formats.atom.entry import RawEntry, arxiv_id_of, is_error_entry, to_record
from bibconv.formats.atom.xml_stream import FeedEvents, Tap, probe
from bibconv.model import Record
from bibconv.registry import ReadContext, register

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = ["AtomReader"]

ATOM = "{http://www.w3.org/2005/Atom}"
DC = "{http://purl.org/dc/elements/1.1/}"
RSS1 = "{http://purl.org/rss/1.0/}"
RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"

_ROOTS = {f"{ATOM}feed": "atom", "rss": "rss2", f"{RDF}RDF": "rdf"}
_ENTRIES = frozenset({f"{ATOM}entry", "item", f"{RSS1}item"})
_NAMESPACES = {"atom": ATOM[1:-1], "rss2": None, "rdf": RSS1[1:-1]}
"""The namespace of each layout's entries."""
_FEED_ERROR = "feed error for query"
_ABOUT = f"{RDF}about"
_ATOM_NAME = f"{ATOM}name"
_ROLES: dict[Any, str] = {}
"""What :func:`_role` said for a tag (bounded: a hostile feed may use any number of tags)."""
_MAX_ROLES = 1024
_SIMPLE = {
    "id": "id",
    "title": "title",
    "summary": "summary",
    "description": "summary",
    "published": "published",
    "updated": "updated",
    "pubdate": "pub_date",
    "date": "pub_date",
    "comment": "comment",
    "journal_ref": "journal_ref",
    "journal_reference": "journal_ref",
    "doi": "doi",
    "announce_type": "announce_type",
    "rights": "rights",
    "guid": "guid",
}
_FIELDS = frozenset(_SIMPLE.values())
"""The roles that are a :class:`RawEntry` text attribute (the other ones: author, category, link…)."""


@lru_cache(maxsize=1024)
def _local(tag: Any) -> tuple[str, str]:
    """``(namespace, lowercase local name)`` of an element tag (feeds use few: cached)."""
    if not isinstance(tag, str):
        return "", ""
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return namespace, local.lower()
    return "", tag.lower()


def _text(elem: Any) -> str:
    """All the text inside ``elem`` (an element without children: its own text)."""
    if len(elem) == 0:
        return elem.text or ""
    return "".join(elem.itertext())


@lru_cache(maxsize=1024)
def _role(tag: Any) -> str:
    """What a child of an entry says: ``author``, ``creator``, ``category``, ``primary``,
    ``link``, a :class:`RawEntry` attribute (``_SIMPLE``), or ``""`` for nothing read."""
    namespace, local = _local(tag)
    if local == "author":
        return "" if namespace == DC[1:-1] else "author"
    if local == "primary_category":
        return "primary"
    if local in ("creator", "category", "link"):
        return local
    return _SIMPLE.get(local, "")


def _collect(elem: Any, kind: str, line: int | None) -> RawEntry:
    """Gather what one entry or item (at ``line``) says."""
    raw = RawEntry(kind=kind, line=line, about=elem.get(_ABOUT))
    creators: list[str] = []
    roles = _ROLES
    for child in elem:
        tag = child.tag
        role = roles.get(tag)
        if role is None:
            role = _role(tag)
            if len(roles) < _MAX_ROLES:
                roles[tag] = role
        if not role:
            continue
        if role in _FIELDS:
            if getattr(raw, role) is None:
                setattr(raw, role, "".join(child.itertext()) if len(child) else child.text or "")
        elif role == "author":
            raw.authors.append(_author(child))
        elif role == "category":
            raw.categories.append(child.get("term") or _text(child))
        elif role == "link":
            if child.get("href") is not None:
                raw.links.append(dict(sorted(child.items())))
            else:
                raw.link = _text(child)
        elif role == "creator":
            creators.append(_text(child))
        else:  # primary
            raw.primary = child.get("term")
    if creators:
        raw.creators = ", ".join(creators)
    return raw


def _author(elem: Any) -> tuple[str, tuple[str, ...]]:
    """An author's name (``atom:name``, else a bare ``name``) and affiliations, in one pass.

    An affiliation without a name is not read (an author of one child has none).
    """
    if len(elem) == 1:  # the usual author: one atom:name
        only = elem[0]
        if only.tag == _ATOM_NAME:
            return only.text or "", ()
    name = bare = None
    affiliations: list[str] = []
    for child in elem:
        tag = child.tag
        if tag == _ATOM_NAME:
            if name is None:
                name = child.text or ""
        elif tag == "name":
            if bare is None:
                bare = child.text or ""
        elif _local(tag)[1] == "affiliation":
            affiliations.append(_text(child))
    return name or bare or "", tuple(affiliations) if affiliations and len(elem) > 1 else ()


def _read_channel(elem: Any, channel: dict[str, str]) -> None:
    """One of the feed's own elements: note its title, subtitle, description or date; free it."""
    _namespace, local = _local(elem.tag)
    if local in ("title", "subtitle", "description", "date") and local not in channel:
        channel[local] = _text(elem)
    elif local == "channel":
        date = elem.findtext(f"{DC}date")
        channel.setdefault("date", date or "")
    _discard(elem)


def _catch_up(root: Any, stop: Any, done: Any, channel: dict[str, str]) -> Any:
    """Read the root's children after ``done`` up to ``stop`` (all with ``None``); the last one read."""
    child = done.getnext() if done is not None else next(iter(root), None)
    while child is not None and child is not stop:
        if isinstance(child.tag, str):  # an element (an entity reference has no end of its own)
            _read_channel(child, channel)
            done = child
        child = child.getnext()
    return done


def _discard(elem: Any) -> None:
    """Free an element that has been read, and the siblings before it."""
    elem.clear(keep_tail=False)
    parent = elem.getparent()
    if parent is not None:
        while elem.getprevious() is not None:
            del parent[0]


@register
class AtomReader:
    """Reads arXiv API responses and announcement feeds (Atom, RSS 2.0, RSS 1.0/RDF)."""

    name: ClassVar[str] = "atom"
    extensions: ClassVar[tuple[str, ...]] = (".atom",)
    description: ClassVar[str] = "arXiv API responses and announcement feeds (Atom, RSS 2.0, RSS 1.0/RDF)"

    @staticmethod
    def sniff(head: str) -> float:
        text = head.lstrip().lower()
        if not text.startswith("<"):
            return 0.0
        feed = "<feed" in text and "http://www.w3.org/2005/atom" in text
        rss = "<rss" in text or ("<rdf:rdf" in text and "purl.org/rss/1.0" in text)
        if not (feed or rss):
            return 0.0
        return 0.95 if "arxiv" in text else 0.5

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input before ``<entry>`` elements into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.formats.atom.split import split

        return split(stream, size)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        from lxml import etree

        tap = Tap(stream)
        root = probe(tap, etree)
        kind = ""
        if root is not None:  # else the document breaks before its root: the parse below says how
            tap.scanning = False
            kind = self._root(root, tap, ctx)
            if not kind:
                return
        entry = "entry" if kind == "atom" else "item"
        events = FeedEvents.of(tap, etree, ctx, root, entry, _NAMESPACES.get(kind), kind != "rss2")
        events.entries = _ENTRIES
        if kind in ("atom", "rdf"):
            yield from self._read_entries(events, root.tag, kind, ctx)
        else:
            yield from self._read_levels(events, tap, kind, ctx)

    def _read_entries(
        self, events: FeedEvents, root_tag: str, kind: str, ctx: ReadContext
    ) -> Iterator[Record]:
        """Atom and RSS 1.0: the parser reports only entries and the root's end.

        The feed's own elements that matter are the root's children (level 2); those that ended
        before an entry are read when it ends, in document order, as :meth:`_read_levels` reads them.
        """
        events.tags = (*_ENTRIES, root_tag)
        channel: dict[str, str] = {}
        root = None
        done = None  # the root's child read last: the first child left, everything after it is unread
        for event, elem in events:
            if event != "end":
                if event == "error":
                    ctx.fail(elem)
                elif event == "reset":
                    root = done = None
                continue
            parent = elem.getparent()
            if parent is None:  # the root's end
                done = _catch_up(elem, None, done, channel)
                self._feed_error(channel, events.line(elem.sourceline), ctx)
                continue
            if elem.tag not in _ENTRIES:  # an element named like the root, inside it
                continue
            if root is None:
                root = elem.getroottree().getroot()
            top = elem  # the root's child that holds the entry
            while parent is not root:
                top, parent = parent, parent.getparent()
            if top is not elem or done is None or done.getnext() is not elem:
                done = _catch_up(root, top, done, channel)
            record = self._record(_collect(elem, kind, events.line(elem.sourceline)), channel, ctx)
            _discard(elem)
            if top is elem:
                done = elem
            if record is not None:
                yield record

    def _read_levels(self, events: FeedEvents, tap: Tap, kind: str, ctx: ReadContext) -> Iterator[Record]:
        """RSS 2.0 (its channel's children count too), or a document that breaks before its root."""
        depth = 0
        channel: dict[str, str] = {}
        for event, elem in events:
            if event == "start":
                depth += 1
                if depth == 1 and not kind:
                    tap.scanning = False
                    kind = self._root(elem, tap, ctx)
                    if not kind:
                        return
                continue
            if event == "error":
                ctx.fail(elem)
                continue
            if event == "reset":
                depth = 0
                continue
            level, depth = depth, depth - 1
            if elem.tag in _ENTRIES:
                record = self._record(_collect(elem, kind, events.line(elem.sourceline)), channel, ctx)
                _discard(elem)
                if record is not None:
                    yield record
            elif level == 1:
                self._feed_error(channel, events.line(elem.sourceline), ctx)
            elif level == 2 or (kind == "rss2" and level == 3):
                _read_channel(elem, channel)

    def _root(self, elem: Any, tap: Tap, ctx: ReadContext) -> str:
        """Check the DOCTYPE and the root element; the feed layout, or "" after a failure."""
        info = elem.getroottree().docinfo
        dtd = info.internalDTD
        entities = [e.name for e in dtd.iterentities()] if dtd is not None else []
        line = tap.doctype_line or elem.sourceline
        if info.system_url or info.public_id:
            ctx.fail(
                ParseError(
                    f"the DOCTYPE names an external DTD ({info.system_url or info.public_id});"
                    " bibconv never loads DTDs (they can read local files or the network):"
                    " remove the DOCTYPE",
                    ctx.span(line),
                )
            )
            return ""
        if entities:
            shown = ", ".join(entities[:5]) + (", …" if len(entities) > 5 else "")
            ctx.fail(
                ParseError(
                    f"the DOCTYPE declares XML entities ({shown}); bibconv never expands entities"
                    " (billion-laughs and external-entity attacks): remove the DOCTYPE",
                    ctx.span(line),
                )
            )
            return ""
        kind = _ROOTS.get(elem.tag, "")
        if not kind:
            ctx.fail(
                ParseError(
                    f"not an arXiv feed: the root element is <{_local(elem.tag)[1]}>,"
                    " expected an Atom <feed>, an RSS <rss> or an RSS 1.0 <rdf:RDF>",
                    ctx.span(elem.sourceline),
                )
            )
        return kind

    @staticmethod
    def _feed_error(channel: dict[str, str], line: int | None, ctx: ReadContext) -> None:
        """The announcement service's error feed: a ``Feed error for query`` title, no items."""
        if channel.get("title", "").strip().lower().startswith(_FEED_ERROR):
            message = (channel.get("subtitle") or channel.get("description") or channel["title"]).strip()
            ctx.fail(RemoteError(f"arXiv feed error: {message}", ctx.span(line)))

    @staticmethod
    def _record(raw: RawEntry, channel: dict[str, str], ctx: ReadContext) -> Record | None:
        """Map one entry, or report it through ``ctx.fail`` and give ``None``."""
        if "title" in channel and channel.get("title", "").strip().lower().startswith(_FEED_ERROR):
            return None
        if is_error_entry(raw):
            message = " ".join((raw.summary or raw.title or "unknown error").split())
            ctx.fail(RemoteError(f"arXiv API error: {message}", ctx.span(raw.line)))
            return None
        found = arxiv_id_of(raw)
        if found is None:
            shown = raw.id or raw.guid or raw.link or raw.about or "none"
            ctx.fail(
                ParseError(f"the entry has no arXiv identifier (id: {shown.strip()})", ctx.span(raw.line))
            )
            return None
        if raw.kind == "rdf" and not raw.pub_date:
            raw.pub_date = channel.get("date") or None
        try:
            record = to_record(raw, found, ctx.options, ctx.span(raw.line))
            return as_published(record, lambda message: ctx.warn(message, raw.line, found[0]))
        except (ValueError, TypeError) as exc:
            ctx.fail(ParseError(str(exc), ctx.span(raw.line), found[0]))
            return None
