"""What the reading of a page remembers about its elements (within :func:`remembered_texts`):
the page's events walked once, each element's text, and the facts computed about elements.
Elements read as one (an authors row and the title row under it) are :func:`joined` where they
stand: their children's events are added after the page's, under an element of their own.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = [
    "BLOCK_TAGS",
    "Joined",
    "PageMemory",
    "joined",
    "page_memory",
    "remember_as",
    "remembered",
    "remembered_texts",
    "select",
    "select_first",
    "walk",
]

_BLOCK_TAGS = (
    "address article aside blockquote body dd details dialog div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section table tbody thead tfoot tr td th "
    "ul br caption summary"
)
BLOCK_TAGS = frozenset(_BLOCK_TAGS.split())


def walk(node: Any) -> Iterator[tuple[str, Any]]:
    """``("open"|"close", element)`` and ``("text", str)`` under ``node`` in document order,
    without recursion: lexbor's own walk of the tree, each element closed once the walk has left it."""
    nodes = node.traverse(include_text=True)
    first = next(nodes, None)
    if first is None or not _read(first.tag):
        return
    if first.tag == "-text":
        yield "text", first.text(deep=False)
        return
    yield "open", first
    opened, ids = [first], [first.mem_id]  # the elements open at this point of the walk, outermost first
    passed: set[int] = set()  # elements not read (comments…), whose children are not read either
    for current in nodes:
        parent = current.parent.mem_id
        if parent in passed:
            passed.add(current.mem_id)
            continue
        while ids[-1] != parent:
            ids.pop()
            yield "close", opened.pop()
        tag = current.tag
        if tag == "-text":
            yield "text", current.text(deep=False)
        elif not _read(tag):
            passed.add(current.mem_id)
        else:
            yield "open", current
            opened.append(current)
            ids.append(current.mem_id)
    while opened:
        yield "close", opened.pop()


def _read(tag: str | None) -> bool:
    """Whether a node of this tag is read: elements and text, not comments or processing instructions."""
    return bool(tag) and (tag == "-text" or not tag.startswith("-"))  # type: ignore[union-attr]


class Joined:
    """An element made of the children of elements of the page (:func:`joined`), as a row made of
    two rows' cells is read: their tag, no attributes, a ``mem_id`` no element of the page has."""

    __slots__ = ("mem_id", "tag")

    def __init__(self, mem_id: int, tag: str) -> None:
        self.mem_id, self.tag = mem_id, tag


class PageMemory:
    """What :func:`remembered_texts` keeps: the events of the page (walked once, on first use),
    each element's text and the facts computed about elements, by ``mem_id``. The elements are
    kept with them, so that no id is reused meanwhile."""

    def __init__(self, root: Any | None) -> None:
        self.root = root
        self.kinds: list[str] = []  # the page's events: their kinds, and their elements or texts
        self.values: list[Any] = []
        self.pieces: list[str] = []  # per event: its text, a space at a block's edges, else ""
        self.starts: dict[int, int] | None = None  # by mem_id: where the element's events start
        self.ends = array("q")  # per event: for an element's first, where its events end
        self.texts: dict[int, tuple[Any, str]] = {}
        self.facts: dict[tuple[Callable[[Any], Any], int], tuple[Any, Any]] = {}
        self.found: dict[str, array[int]] = {}  # by query of :data:`_SIMPLE`: where its elements open
        self.parts: dict[int, list[tuple[int, int]]] = {}  # by where a joined element starts: its parts

    def events(self, start: int, end: int) -> Iterator[tuple[str, Any]]:
        """The events from ``start`` to ``end``, as :func:`walk` gives them."""
        return zip(self.kinds[start:end], self.values[start:end], strict=True)

    def elements(self, node: Any) -> list[Any] | None:
        """The node and the elements under it, in document order (``None``: not on the page)."""
        span = self.span(node)
        if span is None:
            return None
        return [value for kind, value in self.events(*span) if kind == "open"]

    def span(self, node: Any) -> tuple[int, int] | None:
        """Where the node's events are (in :attr:`kinds`, :attr:`values`); ``None``: not on the page."""
        starts = self.starts
        if starts is None:
            starts = self.starts = {}
            if self.root is not None:
                self._index(self.root)
        start = starts.get(node.mem_id)
        return None if start is None else (start, self.ends[start])

    def joined(self, nodes: list[Any]) -> Joined:
        """An element holding the children of ``nodes`` (elements of the page), in order: their events
        copied after the page's (the children's own spans stay where they are, on the page)."""
        spans = [self.span(node) for node in nodes]
        assert self.starts is not None
        kinds, values, pieces, ends = self.kinds, self.values, self.pieces, self.ends
        node = Joined(-1 - len(self.parts), nodes[0].tag)
        start = len(kinds)
        kinds.append("open")
        values.append(node)
        pieces.append(" " if node.tag in BLOCK_TAGS else "")
        ends.append(0)
        parts = self.parts[start] = []
        for span in spans:
            assert span is not None, "only elements of the page are joined"
            first, last = span[0] + 1, span[1] - 1  # the element's children, not itself
            by = len(kinds) - first
            kinds.extend(kinds[first:last])
            values.extend(values[first:last])
            pieces.extend(pieces[first:last])
            ends.extend(end + by if end else 0 for end in ends[first:last])
            parts.append((first, last))
        kinds.append("close")
        values.append(node)
        pieces.append(pieces[start])
        ends.append(0)
        self.starts[node.mem_id] = start
        ends[start] = len(kinds)
        return node

    def _index(self, root: Any) -> None:
        assert self.starts is not None
        starts, ends, kinds, values, pieces = self.starts, self.ends, self.kinds, self.values, self.pieces
        opened: list[int] = []  # where each element open at this point of the walk starts
        for kind, value in walk(root):
            ends.append(0)
            if kind == "text":
                pieces.append(value)
            else:
                pieces.append(" " if value.tag in BLOCK_TAGS else "")
                if kind == "open":
                    opened.append(len(kinds))
                else:
                    start = starts[value.mem_id] = opened.pop()
                    ends[start] = len(kinds) + 1
            kinds.append(kind)
            values.append(value)

    def matching(self, span: tuple[int, int], query: str) -> list[Any]:
        """The elements of the events in ``span`` that ``query`` (one of :data:`_SIMPLE`) selects,
        in page order: the page's elements are selected once per query, then found by position."""
        parts = self.parts.get(span[0])
        if parts is not None:  # a joined element: its parts' elements, where they are on the page
            return [element for part in parts for element in self.matching(part, query)]
        found = self.found.get(query)
        if found is None:
            found = self.found[query] = array("q", self._opened(self.root, query) if self.root else ())
        low = bisect_left(found, span[0])
        high = bisect_left(found, span[1], low)
        if low == high:
            return []
        values = self.values
        return [values[p] for p in found[low:high]]

    def _opened(self, root: Any, query: str) -> list[int]:
        """Where the elements under ``root`` that ``query`` selects open, in page order."""
        assert self.starts is not None
        starts = self.starts
        return sorted(p for node in root.css(query) if (p := starts.get(node.mem_id)) is not None)


_MEMORY: ContextVar[PageMemory | None] = ContextVar("bibconv_page_memory", default=None)
_T = TypeVar("_T")


page_memory: Callable[[], PageMemory | None] = _MEMORY.get
"""The memory of :func:`remembered_texts` in force, if any (the context variable's own ``get``: it is
asked for every element's text and query)."""


@contextmanager
def remembered_texts(root: Any | None = None) -> Iterator[None]:
    """Within the block, :func:`~bibconv.formats.listing.dom.text_of` computes each element's text
    once, and :func:`remembered` each fact about an element; the elements under ``root`` are walked
    once for all (the tree must not change meanwhile)."""
    token = _MEMORY.set(PageMemory(root))
    try:
        yield
    finally:
        _MEMORY.reset(token)


def joined(nodes: list[Any]) -> Joined:
    """Within :func:`remembered_texts`, an element holding the children of ``nodes`` (elements of the
    page), in order, read where they stand: :func:`select`, texts and lines as a row made of their
    cells would give them."""
    memory = _MEMORY.get()
    assert memory is not None, "elements are joined within remembered_texts"
    return memory.joined(nodes)


def remember_as(node: Any, compute: Callable[[Any], _T], value: _T) -> None:
    """Within :func:`remembered_texts`, ``compute(node)`` is ``value`` (known another way)."""
    if (memory := _MEMORY.get()) is not None:
        memory.facts[(compute, node.mem_id)] = (node, value)


def remembered(node: Any, compute: Callable[[Any], _T]) -> _T:
    """``compute(node)``, computed once per element within :func:`remembered_texts`."""
    memory = _MEMORY.get()
    if memory is None:
        return compute(node)
    key = (compute, node.mem_id)
    known = memory.facts.get(key)
    if known is None:
        known = memory.facts[key] = (node, compute(node))
    return known[1]


_SIMPLE = frozenset(
    {"h1, h2, h3, h4, h5, h6", "[class]", "a[href]", "a", "b, strong", "td, th", "th, td", "th",
     "em, i, cite", "time"}
)  # fmt: skip
"""The queries :func:`select` answers from the page's walk: each asked of many elements, each run
once over the page."""


def select(node: Any, query: str) -> list[Any]:
    """``node.css(query)`` (the node itself included, in page order); within :func:`remembered_texts`,
    for an element of the page and a query of :data:`_SIMPLE`, the page's elements selected once
    for all instead of the query compiled and run for every element asked."""
    memory = _MEMORY.get()
    if memory is not None and query in _SIMPLE and (span := memory.span(node)) is not None:
        return memory.matching(span, query)
    return list(node.css(query))


def select_first(node: Any, query: str) -> Any | None:
    """``node.css_first(query)``, as :func:`select` finds it."""
    memory = _MEMORY.get()
    if memory is not None and query in _SIMPLE and (span := memory.span(node)) is not None:
        elements = memory.matching(span, query)
        return elements[0] if elements else None
    return node.css_first(query)
