"""Web pages that list papers, or describe one: arXiv pages, publisher pages, any listing.

What the reader looks for, in this order:

1. arXiv's own listing (``/list/…``) and search-result pages: every field they show
   (:mod:`bibconv.formats.listing.arxiv_pages`).
2. The listing pages of known sites (DBLP, Google Scholar, ACL Anthology, CVF, PMLR…): each
   site reader claims a page by its own markers and reads every field it shows
   (:mod:`bibconv.formats.listing.sites`).
3. A page about one work: Highwire ``citation_*`` meta tags (or Dublin Core), merged with
   the JSON-LD, microdata and COinS that describe the same work; on an arXiv abstract
   page, the body adds the version, comments, subjects and dates. Structured data wins
   over visible text.
4. Works listed as structured data: schema.org JSON-LD (``ScholarlyArticle``, ``ItemList``
   of them), microdata, COinS spans.
5. Any other listing: its repeated blocks (:mod:`bibconv.formats.listing.generic`).

A page with none of these is an error that names the file and what was looked for
(a warning with ``--skip-invalid``): a site's home page, a login page, a search that
found nothing. The page's
``lang`` attribute (or the ``lang`` read option) tells the date parser which language
month names are in when they are ambiguous; on a page about one work it is the work's language
when the title agrees (:mod:`bibconv.formats.listing.page_lang`). Relative links are resolved against
``<base href>`` or the page's canonical URL when the page has one. Each record's ``origin``
names what found it (``arxiv-list``, ``dblp``, ``meta``, ``json-ld``, ``generic``…) and, where it
can, the element it was read from.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import IO, Any, ClassVar

from bibconv.collector import few_collections
from bibconv.errors import ParseError
from bibconv.formats.listing import arxiv_pages, generic, schema, sites, structured
from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import absolute, clean, decode_html, parse
from bibconv.formats.listing.page_lang import page_lang_near, work_language
from bibconv.model import Name, Record
from bibconv.patterns import lazy
from bibconv.registry import ReadContext, register

__all__ = ["HtmlListingReader", "explain", "load_page", "page_of"]

_LIMIT = 64 << 20


def _base(tree: Any, metas: list[tuple[str, str]]) -> str | None:
    node = tree.css_first("base[href]")
    candidates = [node.attributes.get("href") if node is not None else None]
    canonical = tree.css_first("link[rel=canonical][href]")
    candidates.append(canonical.attributes.get("href") if canonical is not None else None)
    candidates.append(next((v for k, v in metas if k == "og:url"), None))
    return next((u for u in (absolute(c, None) for c in candidates) if u), None)


def _is_arxiv(base: str | None, metas: list[tuple[str, str]], tree: Any) -> bool:
    if base and "arxiv.org" in base:
        return True
    return any(k == "citation_arxiv_id" for k, _ in metas) or tree.css_first("#abs h1.title") is not None


def _single(
    tree: Any, metas: list[tuple[str, str]], items: list[Entry], base: str | None, ctx: ReadContext
) -> Entry | None:
    """The work a single-article page describes, all its sources merged; ``None`` if it has none."""
    entry = structured.highwire(metas, base)
    dublin = structured.dublin_core(metas)
    visible = arxiv_pages.abs_entry(tree, base) if _is_arxiv(base, metas, tree) else None
    if entry is None and visible is None:
        if dublin is None:
            return None
        entry, dublin = dublin, None
    if entry is None and visible is not None:
        entry = visible[0]
    if entry is None:
        return None
    for other in items:
        if structured.same_work(entry, other):
            structured.merge(entry, other)
    if dublin is not None and structured.same_work(entry, dublin):
        structured.merge(entry, dublin)
    if visible is not None:
        shown, arxiv = visible
        if entry is not shown:
            structured.merge(entry, shown)
        meta = entry.arxiv
        if meta is not None and meta.id == arxiv.id:
            arxiv = replace(
                arxiv,
                submitted=meta.submitted or arxiv.submitted,
                updated=meta.updated or arxiv.updated,
                version=arxiv.version or meta.version,
            )
        arxiv_pages.finish(entry, arxiv, ctx)
    elif entry.arxiv is not None:
        arxiv_pages.finish(entry, entry.arxiv, ctx)
    if entry.arxiv is not None:
        entry.extra.pop("html:pdf_url", None)  # arXiv's PDF link follows from the id
    if entry.arxiv is not None and entry.arxiv.version is None and base:
        from bibconv.arxiv import parse_arxiv_id

        found = parse_arxiv_id(base, bare=False)
        if found and found[0] == entry.arxiv.id and found[1]:
            entry.arxiv = replace(entry.arxiv, version=found[1])
    return entry


def _structured_items(tree: Any, scripts: list[str], base: str | None, ctx: ReadContext) -> list[Entry]:
    """JSON-LD, microdata and COinS works, each work once (the first source wins)."""
    found: list[Entry] = []
    sources = (
        schema.json_ld(scripts, base, ctx.warn),
        schema.microdata(tree, base),
        structured.coins(tree),
    )
    for source in sources:
        for entry in source:
            twin = next((e for e in found if structured.same_work(e, entry)), None)
            if twin is None:
                found.append(entry)
            else:
                structured.merge(twin, entry)
    return found


_MORE_AUTHORS = lazy(r"^\s*\+\s*\d+\s+(?:more\s+)?authors?\s*$", re.IGNORECASE)
_TABLE_FRAGMENT = lazy(r"^\s*<(?:tr|td|th|tbody|thead)[\s>]", re.IGNORECASE)


def _as_document(text: str) -> str:
    """``text``, in a ``<table>`` when it is a bare run of table rows (a saved part of a page)."""
    return f"<table>{text}</table>" if _TABLE_FRAGMENT.match(text) else text


@dataclass
class _Found:
    """An entry, the reader that found it, and where on the page."""

    entry: Entry
    reader: str
    where: str | None = None
    names: dict[str, tuple[Name, ...]] = field(default_factory=dict)


def page_of(tree: Any, ctx: ReadContext) -> sites.Page:
    """The page as the site readers see it; cleans ``tree`` (scripts are kept in the page)."""
    metas = structured.metas(tree)
    scripts = [(dict(s.attributes), s.text(deep=True)) for s in tree.css("script")]
    html = tree.css_first("html[lang]")
    lang = ctx.option("lang") or (html.attributes.get("lang") if html is not None else None)
    cut = frozenset(
        b.parent.mem_id for b in tree.css("button") if b.parent is not None and _MORE_AUTHORS.match(b.text())
    )
    clean(tree)
    return sites.Page(tree, _base(tree, metas), metas, scripts, lang, cut)


def _site_entries(page: sites.Page, reader: sites.SiteReader, ctx: ReadContext) -> Iterator[_Found]:
    locate = sites.Locator()
    for item in reader.read(page, ctx):
        entry = item.entry
        if entry.arxiv is not None and entry.record_type == "article":
            arxiv_pages.finish(entry, entry.arxiv, ctx)
        yield _Found(entry, reader.name, locate(item), item.names)


def load_page(data: bytes, ctx: ReadContext) -> sites.Page:
    """The page as the readers see it: decoded, parsed (a bare run of table rows as a table), cleaned.

    ``bibconv detect --explain`` asks :func:`bibconv.formats.listing.sites.explain` about it.
    Raises ``ValueError`` or ``RuntimeError`` when the page cannot be parsed.
    """
    return page_of(parse(_as_document(decode_html(data, ctx))), ctx)


def _entries(page: sites.Page, ctx: ReadContext) -> Iterator[_Found]:
    tree, metas, base, lang = page.tree, page.metas, page.base, page.lang
    scripts = [text for attrs, text in page.scripts if attrs.get("type") == "application/ld+json"]
    if arxiv_pages.is_list(tree):
        yield from (_Found(e, "arxiv-list") for e in arxiv_pages.list_entries(tree, ctx))
        return
    if arxiv_pages.is_search(tree):
        yield from (_Found(e, "arxiv-search") for e in arxiv_pages.search_entries(tree, ctx))
        return
    with few_collections():
        reader = sites.claiming(page)
        found = list(_site_entries(page, reader, ctx)) if reader is not None else []
    if found:  # a site reader that finds nothing leaves the page to the readers below
        yield from found
        return
    with few_collections():
        items = _structured_items(tree, scripts, base, ctx)
        single = _single(tree, metas, items, base, ctx)
    if single is not None:
        if "language" not in single.fields:  # the page's lang, where the title agrees (page_lang)
            language = work_language(page_lang_near(tree, single.title), single.title)
            if language is not None:
                single.fields["language"] = language
        yield _Found(single, "meta")
        return
    listed: list[tuple[Entry, str]] = []
    if len(items) < 3:  # a page's own metadata (one CreativeWork) does not replace the list it shows
        with few_collections():
            generic.remove_chrome(tree)
            listed = generic.listing_entries(tree, base, lang)
    if items and len(listed) < max(3, 2 * len(items)):
        for entry in items:
            if entry.arxiv is not None:
                arxiv_pages.finish(entry, entry.arxiv, ctx)
        yield from (_Found(e, "structured") for e in items)
        return
    for entry, where in listed:
        finished = arxiv_pages.finish(entry, entry.arxiv, ctx) if entry.arxiv is not None else entry
        yield _Found(finished, "generic", where)


PAGE_METADATA = "page metadata"  # the reader name :func:`explain` gives the page's own metadata


def explain(data: bytes, ctx: ReadContext) -> list[sites.Finding]:
    """For ``bibconv detect --explain``: the arXiv readers' and each site reader's answer, the
    generic reader's (it finds this many; it claims the page when a read takes its papers, or
    when nothing else gives any), then the page's own metadata (meta tags, JSON-LD, microdata,
    COinS), claimed when a read takes its records."""
    read = Counter(found.reader for found in _entries(load_page(data, ctx), ctx))
    page = load_page(data, ctx)
    arxiv = [sites.Finding(name, name in read, read[name]) for name in ("arxiv-list", "arxiv-search")]
    findings = sites.explain(page, ctx)
    generic.remove_chrome(page.tree)
    found = len(generic.listing_entries(page.tree, page.base, page.lang))
    metadata = read["meta"] + read["structured"]
    return [
        *arxiv,
        *findings,
        sites.Finding("generic", "generic" in read or not read, found),
        sites.Finding(PAGE_METADATA, bool(metadata), metadata),
    ]


def _nothing(ctx: ReadContext) -> None:
    """Report a page that gave no record: an error, or a warning when bad input is skipped."""
    looked = ", ".join(r.name for r in sites.readers())
    message = (
        "no records: no paper listing or bibliographic metadata found in this page (looked for "
        f"an arXiv listing, the listings of {looked}, citation_* or Dublin Core meta tags, "
        "JSON-LD, microdata, COinS, repeated blocks with titles, free-text citations)"
    )
    if ctx.strict:
        ctx.fail(ParseError(message, ctx.span(1)))
    else:
        ctx.warn(message, 1)


@register
class HtmlListingReader:
    """Reads web pages that list papers (arXiv, aggregators, any listing) or describe one."""

    name: ClassVar[str] = "html"
    extensions: ClassVar[tuple[str, ...]] = (".html", ".htm", ".xhtml")
    description: ClassVar[str] = (
        "web page listing papers (arXiv, DBLP, Google Scholar, ACL Anthology, proceedings sites,"
        " publisher meta tags, JSON-LD, COinS, any listing)"
    )

    @staticmethod
    def sniff(head: str) -> float:
        text = head.lstrip().lower()
        if text.startswith("<!doctype html") or text.startswith("<html"):
            return 0.95
        if text.startswith("<?xml") and ("<html" in text or "xhtml" in text):
            return 0.9
        if not text.startswith("<") or any(feed in text for feed in ("<feed", "<rss", "<rdf:rdf")):
            return 0.0
        if any(tag in text for tag in ("<html", "<head", "<body", "<meta ", "<div", "<p>", "<table")):
            return 0.7
        return 0.0

    @staticmethod
    def explain(data: bytes, ctx: ReadContext) -> list[sites.Finding]:
        """What each listing reader makes of the page (``bibconv detect --explain``)."""
        return explain(data, ctx)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        data = stream.read(_LIMIT + 1)
        if len(data) > _LIMIT:
            from bibconv.errors import LimitError

            ctx.fail(LimitError(f"the page is larger than {_LIMIT >> 20} MiB", ctx.span(1)))
            return
        if not data.strip():
            _nothing(ctx)
            return
        try:
            with few_collections():
                page = load_page(data, ctx)
        except (ValueError, RuntimeError) as exc:
            ctx.fail(ParseError(f"cannot parse the page as HTML: {exc}", ctx.span(1)))
            return
        count = 0
        for count, found in enumerate(_entries(page, ctx), 1):
            span = replace(ctx.span(index=count - 1), reader=found.reader, where=found.where)
            try:
                record = found.entry.to_record(span)
            except ValueError as exc:  # TeX nested too deeply
                ctx.fail(ParseError(str(exc), span))
                continue
            yield replace(record, names={**record.names, **found.names}) if found.names else record
        if count == 0:
            _nothing(ctx)
