"""Readers for the listing pages of known sites (DBLP, Google Scholar, ACL Anthology, CVF…).

A site reader is a module in this package holding one class decorated with
:func:`site`: ``claims(page)`` says, from the page's own markers (canonical link,
generator meta, ``og:site_name``, markup only that site writes), never from a file name,
whether the page is one of that site's listings; ``read(page, ctx)`` gives every paper on
it, each an :class:`Item` (the entry and where on the page it was). The ``html`` reader asks
the site readers, in :data:`MODULES` order, before it looks at structured data and the
generic block reader; the first that claims a page reads it. :func:`explain` asks every one
of them, for ``bibconv detect --explain``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from bibconv.formats.listing.common import Entry
from bibconv.model import Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = [
    "MODULES",
    "Finding",
    "Item",
    "Locator",
    "Page",
    "SiteReader",
    "claimed_by",
    "claiming",
    "explain",
    "person",
    "readers",
    "site",
    "without_final_period",
]

MODULES = (
    "dblp",
    "scholar",
    "acl",
    "cvf",
    "pmlr",
    "neurips",
    "openreview",
    "huggingface",
    "paperswithcode",
    "semanticscholar",
    "pubmed",
    "highwire",
    "eprints",
    "hal",
    "ssrn",
    "ieee",
    "atypon",
    "mlconf",
    "dspace",
    "primo",
    "vufind",
    "bibliotheca",
    "iah",
    "redalyc",
)
"""The site modules, in the order they are asked (a module imported registers its reader)."""


@dataclass
class Page:
    """A parsed page as the site readers see it.

    ``tree`` has had scripts, styles and controls removed (see
    :func:`bibconv.formats.listing.dom.clean`); ``scripts`` keeps what the scripts held,
    as ``(attributes, text)``, for sites that embed their list as JSON, and
    ``cut_author_lists`` the elements where a removed control said more authors exist.
    """

    tree: Any
    base: str | None
    metas: list[tuple[str, str]]
    scripts: list[tuple[dict[str, str | None], str]] = field(default_factory=list)
    lang: str | None = None
    cut_author_lists: frozenset[int] = frozenset()
    """``mem_id`` of the elements whose author list a control says is cut (``+ 5 authors``)."""

    def meta(self, *names: str) -> str | None:
        """The first ``<meta>`` content under one of ``names`` (lower case)."""
        return next((v for k, v in self.metas if k in names), None)

    @property
    def host(self) -> str:
        """The host of the page's own address (``<base>``, canonical link, ``og:url``), or ``""``."""
        from bibconv.formats.listing.dom import url_parts

        parts = url_parts(self.base) if self.base else None
        return (parts.hostname or "").lower() if parts is not None else ""

    def on(self, *hosts: str) -> bool:
        """Whether the page's address is on one of ``hosts`` (or a subdomain of one)."""
        host = self.host
        return any(host == h or host.endswith("." + h) for h in hosts)

    @property
    def about_one_work(self) -> bool:
        """Whether the page's meta tags describe one work (an article's page: its "similar
        articles" and "cited by" lists are not the page's list)."""
        return bool(self.meta("citation_title", "dc.title"))

    @property
    def title(self) -> str:
        """The text of the page's ``<title>``, or ``""``."""
        from bibconv.formats.listing.dom import text_of

        return text_of(self.tree.css_first("title"))


@dataclass
class Item:
    """One paper a site reader found: the entry, the element it was read from (``None`` for
    JSON), a note on where inside it (``DailyPapers paper 3``), and names in roles besides author.
    """

    entry: Entry
    node: Any
    detail: str = ""
    names: dict[str, tuple[Name, ...]] = field(default_factory=dict)


class SiteReader(Protocol):
    """What a site module registers (see the module docstring)."""

    name: ClassVar[str]

    def claims(self, page: Page) -> bool: ...

    def read(self, page: Page, ctx: ReadContext) -> list[Item]: ...


@dataclass(frozen=True)
class Finding:
    """What one site reader makes of a page: whether it claims it, and how many items it found."""

    reader: str
    claimed: bool
    items: int


_READERS: dict[str, SiteReader] = {}
_Reader = TypeVar("_Reader", bound=type)


def site(cls: _Reader) -> _Reader:
    """Class decorator: register an instance of the site reader ``cls`` under its module's name."""
    _READERS[cls.__module__.rpartition(".")[2]] = cls()
    return cls


def readers() -> list[SiteReader]:
    """Every site reader, in :data:`MODULES` order."""
    for module in MODULES:
        if module not in _READERS:
            importlib.import_module(f"{__name__}.{module}")
    return [_READERS[m] for m in MODULES if m in _READERS]


def claiming(page: Page) -> SiteReader | None:
    """The first site reader that claims ``page``, or ``None``."""
    return next((r for r in readers() if r.claims(page)), None)


def explain(page: Page, ctx: ReadContext) -> list[Finding]:
    """Every site reader's answer for ``page`` (items are counted only for the ones that claim it)."""
    findings = []
    for reader in readers():
        claimed = reader.claims(page)
        findings.append(Finding(reader.name, claimed, len(reader.read(page, ctx)) if claimed else 0))
    return findings


def claimed_by(
    page: Page, listing: str, hosts: tuple[str, ...], titled: tuple[str, ...] = (), linked: str = ""
) -> bool:
    """Whether ``page`` shows the site's list (an element matching ``listing``) and is the site's:
    its address is on one of ``hosts``, its ``<title>`` holds one of ``titled``, or it has an
    element matching ``linked`` (a link to the site, its logo, markup only the site writes).
    """
    if page.tree.css_first(listing) is None:
        return False
    if page.on(*hosts):
        return True
    title = page.title
    return any(t in title for t in titled) or bool(linked and page.tree.css_first(linked) is not None)


class Locator:
    """Short locators for a page's elements: ``li#conf/aaai/PeelC15``, ``div.gs_r[3]`` under the
    nearest id; an element's position among its like siblings is counted once per parent.
    """

    def __init__(self) -> None:
        self._positions: dict[int, dict[int, int]] = {}

    def _position(self, node: Any) -> int | None:
        parent = node.parent
        if parent is None:
            return None
        positions = self._positions.get(parent.mem_id)
        if positions is None:
            counts: dict[str, int] = {}
            positions = {}
            for child in parent.iter():
                counts[child.tag] = counts.get(child.tag, 0) + 1
                positions[child.mem_id] = counts[child.tag]
            positions[-1] = max(counts.values(), default=0)
            self._positions[parent.mem_id] = positions
        return positions.get(node.mem_id) if positions[-1] > 1 else None

    def __call__(self, item: Item) -> str:
        node = item.node
        if node is None:
            return item.detail
        return f"{self._label(node)} {item.detail}".strip()

    def _label(self, node: Any) -> str:
        if node.id:
            return f"{node.tag}#{node.id}"
        attributes = node.attributes  # a new dict at each ask
        for key in _KEY_ATTRIBUTES:
            value = attributes.get(key)
            if value:
                return f"{node.tag}[{key}={value}]"
        classes: list[str] = (attributes.get("class") or "").split()[:2]
        label = str(node.tag) + "".join(f".{c}" for c in classes)
        position = self._position(node)
        if position is not None:
            label += f"[{position}]"
        ancestor = node.parent
        while ancestor is not None and ancestor.tag not in ("body", "html"):
            if ancestor.id:
                return f"{ancestor.tag}#{ancestor.id} {label}"
            ancestor = ancestor.parent
        return label


_KEY_ATTRIBUTES = ("data-id", "data-paperid", "data-key", "data-cid", "data-did")
_FINAL_PERIOD = lazy(r"(?<!\.)\.\s*$")


def without_final_period(title: str) -> str:
    """A title without the period a listing closes it with (``?``, ``!`` and ``...`` stay)."""
    return _FINAL_PERIOD.sub("", title.strip()).rstrip()


def person(text: str) -> Name | None:
    """One name as a listing shows it (``Mark E. J. Newman``, ``Peter Santago II``), TeX decoded."""
    from bibconv.formats.listing.common import plain_name
    from bibconv.names import split_name_list

    text = plain_name(text).strip(" ,;")
    if not text:
        return None
    names = split_name_list(text)
    return names[0] if len(names) == 1 else Name(literal=text)
