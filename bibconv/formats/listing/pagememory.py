"""What the reading of a page remembers about its elements (within :func:`remembered_texts`):
the page's events walked once, each element's text, and the facts computed about elements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

__all__ = [
    "BLOCK_TAGS",
    "PageMemory",
    "page_memory",
    "remember_as",
    "remember_tree",
    "remembered",
    "remembered_texts",
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
    without recursion."""
    stack: list[tuple[Any, bool]] = [(node, False)]
    while stack:
        current, closing = stack.pop()
        if closing:
            yield "close", current
            continue
        tag = current.tag
        if tag == "-text":
            yield "text", current.text(deep=False)
            continue
        if not tag or tag.startswith("-"):  # comments, and processing instructions (no tag)
            continue
        yield "open", current
        stack.append((current, True))
        stack.extend((child, False) for child in reversed(list(current.iter(include_text=True))))


class PageMemory:
    """What :func:`remembered_texts` keeps: the events of the page (walked once, on first use),
    each element's text and the facts computed about elements, by ``mem_id``. The elements are
    kept with them, so that no id is reused meanwhile."""

    def __init__(self, root: Any | None) -> None:
        self.root = root
        self.events: list[tuple[str, Any]] = []
        self.pieces: list[str] = []  # per event: its text, a space at a block's edges, else ""
        self.spans: dict[int, tuple[int, int]] | None = None
        self.texts: dict[int, tuple[Any, str]] = {}
        self.facts: dict[tuple[Callable[[Any], Any], int], tuple[Any, Any]] = {}
        self.trees: list[Any] = []  # the trees added, kept while their elements are

    def span(self, node: Any, tree: Any | None = None) -> tuple[int, int] | None:
        """Where the node's events are in :attr:`events`; ``None`` for a node not on the page.
        With ``tree`` (made from the page's), its elements are walked with the page's."""
        if self.spans is None:
            self.spans = self._index(self.root) if self.root is not None else {}
        if tree is not None and tree.root is not None:
            self.trees.append(tree)
            self.spans.update(self._index(tree.root))
        return self.spans.get(node.mem_id)

    def _index(self, root: Any) -> dict[int, tuple[int, int]]:
        spans: dict[int, tuple[int, int]] = {}
        opened: dict[int, int] = {}
        for kind, value in walk(root):
            if kind == "text":
                self.pieces.append(value)
            else:
                self.pieces.append(" " if value.tag in BLOCK_TAGS else "")
                if kind == "open":
                    opened[value.mem_id] = len(self.events)
                else:
                    spans[value.mem_id] = (opened[value.mem_id], len(self.events) + 1)
            self.events.append((kind, value))
        return spans


_MEMORY: ContextVar[PageMemory | None] = ContextVar("bibconv_page_memory", default=None)
_T = TypeVar("_T")


def page_memory() -> PageMemory | None:
    """The memory of :func:`remembered_texts` in force, if any."""
    return _MEMORY.get()


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


def remember_tree(tree: Any) -> None:
    """Within :func:`remembered_texts`, the elements of ``tree`` (made from the page's: rows
    joined) are walked once too, and their texts computed once."""
    if (memory := _MEMORY.get()) is not None and tree.root is not None:
        memory.span(tree.root, tree)


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
    return cast(_T, known[1])
