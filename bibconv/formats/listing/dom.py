"""HTML plumbing for the ``html`` reader: bytes to text, the parse, cleaning, text of a node.

Pages are parsed with lexbor (through selectolax), an HTML5 parser that builds the tree
a browser builds, malformed nesting included. The encoding is the one the page declares:
a byte-order mark, then ``<meta charset>`` / ``http-equiv`` or an XML declaration in the
first bytes, as browsers look for it; undeclared pages are read as UTF-8, and as
Windows-1252 (with a warning) when they are not valid UTF-8. A page that declares Latin-1
but whose bytes are all valid UTF-8 (saved from a server that sent UTF-8) is read as UTF-8,
with a warning.

Text never comes from scripts, styles, templates, comments, frames, form controls or
attributes: :func:`clean` removes them before anything is read.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import SplitResult, urljoin, urlsplit

from bibconv.formats.listing.common import clean_space
from bibconv.formats.listing.pagememory import (
    BLOCK_TAGS,
    PageMemory,
    joined,
    page_memory,
    remember_as,
    remembered,
    remembered_texts,
    walk,
)
from bibconv.patterns import lazy
from bibconv.registry import ReadContext
from bibconv.textio import sniff_encoding

__all__ = [
    "BLOCK_TAGS",
    "absolute",
    "clean",
    "decode_html",
    "events",
    "fragment_text",
    "joined",
    "line_links",
    "lines_of",
    "parse",
    "remember_as",
    "remembered",
    "remembered_texts",
    "rich_of",
    "text_of",
    "url_parts",
]

_PRESCAN = 4096
_META_CHARSET = lazy(rb"<meta[^>]+?charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.IGNORECASE)
_XML_ENCODING = lazy(rb"^\s*<\?xml[^>]+encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)", re.IGNORECASE)
# What browsers read instead of what pages say (WHATWG Encoding: "latin1" means windows-1252).
_ALIASES = {"iso8859-1": "cp1252", "latin-1": "cp1252", "ascii": "cp1252", "utf-16": "utf-8"}
_NOISE = (
    "script, style, noscript, template, iframe, frame, frameset, object, embed, svg, canvas, "
    "button, select, input, textarea, option, dialog, [hidden]"
)
_COINS = frozenset({"Z3988", "z3988"})
# Start tags that make an HTML5 parser scan its whole stack of open elements ("close a p
# element in button scope"), and their end tags: the nesting :func:`parse` limits.
_NESTING_TAG = lazy(
    r"<(/?)(address|article|aside|blockquote|center|details|dialog|dir|div|dl|fieldset|figcaption"
    r"|figure|footer|header|hgroup|main|menu|nav|ol|pre|listing|search|section|summary|ul)[\s/>]",
    re.IGNORECASE,
)
MAX_DEPTH = 10_000
MAX_ATTRIBUTES = 256  # past a few hundred, lexbor's time grows faster than their number's square
# A start tag that may hold MAX_ATTRIBUTES attributes, up to its '>' or the next '<' (each character
# looked at once), and quoted values.
_LONG_TAG = lazy(rf"<[A-Za-z][^<>]{{{2 * MAX_ATTRIBUTES},}}")
_QUOTED = lazy(r"\"[^\"]*\"|'[^']*'")
_RICH = {"i": "i", "em": "i", "cite": "i", "b": "b", "strong": "b", "sup": "sup", "sub": "sub"}


def _encoding_name(label: str) -> str | None:
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    name = _ALIASES.get(name, name)
    return "utf-8" if name.startswith("utf-16") or name.startswith("utf-32") else name


def _is_utf8(data: bytes) -> bool:
    """Whether ``data`` holds non-ASCII text and all of it is valid UTF-8 (Latin-1 text almost never is)."""
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode_html(data: bytes, ctx: ReadContext) -> str:
    """The page's text in the encoding it declares (see the module docstring)."""
    encoding = sniff_encoding(data[:4], default="")
    declared = bool(encoding)
    if not encoding:
        head = data[:_PRESCAN]
        match = _XML_ENCODING.match(head) or _META_CHARSET.search(head)
        if match:
            label = match.group(1).decode("ascii", "replace")
            encoding = _encoding_name(label) or ""
            declared = bool(encoding)
            if not encoding:
                ctx.warn(f"unknown encoding {label!r} declared by the page; reading it as UTF-8")
    encoding = encoding or "utf-8"
    if encoding == "cp1252" and _is_utf8(data):
        # A page saved from a server that sent UTF-8 while its meta tag still says Latin-1.
        ctx.warn("the page declares Windows-1252 (Latin-1) but its bytes are UTF-8; reading it as UTF-8")
        encoding = "utf-8"
    try:
        return data.decode(encoding).lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        if not declared and encoding == "utf-8":
            ctx.warn("the page declares no encoding and is not valid UTF-8; reading it as Windows-1252", line)
            return data.decode("cp1252", errors="replace")
        ctx.warn(f"invalid {encoding} bytes in the page (first at byte {exc.start}) were replaced", line)
        return data.decode(encoding, errors="replace").lstrip("\ufeff")


def parse(text: str) -> Any:
    """The HTML5 tree of ``text`` (a selectolax ``LexborHTMLParser``).

    Raises ``ValueError`` for pages that nest block elements more than :data:`MAX_DEPTH`
    deep: an HTML5 parser checks the stack of open elements at each such tag, so a page of
    nested ``<div>`` tags takes time growing with the square of their number (browsers cap
    the depth too). Real pages nest a few dozen levels.
    """
    from selectolax.lexbor import LexborHTMLParser

    _check_attributes(text)
    depth = deepest = 0
    for match in _NESTING_TAG.finditer(text):
        depth = max(depth - 1, 0) if match.group(1) else depth + 1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                raise ValueError(
                    f"<{match.group(2).lower()}> elements nest more than {MAX_DEPTH:,} deep"
                    " (a real page nests a few dozen); refusing the page"
                )
    return LexborHTMLParser(text, scripting=True)


def _check_attributes(text: str) -> None:
    """``ValueError`` if a start tag has more than :data:`MAX_ATTRIBUTES` attributes."""
    for match in _LONG_TAG.finditer(text):
        tokens = _QUOTED.sub(" ", match.group()).split()[1:]  # after the tag name
        names = sum(1 for token in tokens if token[0] != "=")  # ``a = "v"`` is one
        if names > MAX_ATTRIBUTES:
            line = text.count("\n", 0, match.start()) + 1
            raise ValueError(
                f"an element on line {line:,} has {names:,} attributes, more than {MAX_ATTRIBUTES:,}"
                " (a real page has a few dozen); refusing the page"
            )


def clean(tree: Any) -> None:
    """Remove everything that is not page text: scripts, styles, controls, comments, UI toggles."""
    root = tree.root
    if root is None:
        return
    for node in root.css(_NOISE):
        node.decompose()
    for node in root.css("[aria-hidden=true]"):
        if not _COINS.intersection((node.attributes.get("class") or "").split()):
            node.decompose()  # a COinS span is hidden from screen readers, but holds the work's data
    for node in root.css("a[onclick]:not([href]), a[href^='javascript:']"):
        if _in_heading_cell(node):
            node.unwrap()  # a sortable column's heading: its text names the column
        else:
            node.decompose()
    comments = [n for n in root.traverse(include_text=True) if n.is_comment_node]
    for node in comments:
        node.decompose()


def _in_heading_cell(node: Any) -> bool:
    parent = node.parent
    while parent is not None and parent.tag not in ("th", "table", "body"):
        parent = parent.parent
    return parent is not None and parent.tag == "th"


def _events(node: Any) -> Iterator[tuple[str, Any]]:
    """``("open"|"close", element)`` and ``("text", str)`` in document order, without recursion."""
    memory = page_memory()
    if memory is not None and (span := memory.span(node)) is not None:
        return memory.events(*span)
    return walk(node)


def events(node: Any) -> Iterator[tuple[str, Any]]:
    """``("open"|"close", element)`` and ``("text", str)`` under ``node`` (itself included), in
    document order."""
    return _events(node)


def line_links(node: Any) -> list[tuple[str, list[str]]]:
    """The node's text as lines, each with the ``href`` of the links on it (never to be changed by
    the caller: within :func:`remembered_texts`, the lines of an element are found once).

    Block elements and ``<br>`` end lines; a ``<br>`` on an empty line gives one empty line
    (a paragraph break in ``<br>``-separated text).
    """
    return remembered(node, _line_links)


def _line_links(node: Any) -> list[tuple[str, list[str]]]:
    lines: list[tuple[str, list[str]]] = []
    current: list[str] = []
    links: list[str] = []

    def flush(blank: bool = False) -> None:
        text = clean_space("".join(current))
        if text:
            lines.append((text, list(links)))
        elif blank and lines and lines[-1][0] != "":
            lines.append(("", []))
        current.clear()
        links.clear()

    for kind, value in _events(node):
        if kind == "text":
            current.append(value)
        elif value.tag == "br":
            if kind == "open":
                flush(blank=not clean_space("".join(current)))
        elif value.tag in BLOCK_TAGS and value is not node:
            flush()
        elif kind == "open" and value.tag == "a" and value.attributes.get("href"):
            links.append(value.attributes["href"])
    flush()
    while lines and lines[-1][0] == "":
        lines.pop()
    return lines


def lines_of(node: Any) -> list[str]:
    """The node's text as lines (see :func:`line_links`)."""
    return [text for text, _ in line_links(node)]


def text_of(node: Any | None) -> str:
    """The node's text on one line (block boundaries become spaces)."""
    if node is None:
        return ""
    memory = page_memory()
    if memory is None:
        return _text(node)
    known = memory.texts.get(node.mem_id)
    if known is None:
        span = memory.span(node)
        text = _span_text(memory, *span) if span else _text(node)
        known = memory.texts[node.mem_id] = (node, text)
    return known[1]


_WRAPPER = 2000  # events: an element this large may be a wrapper around one block of the page
_CHILDREN_LOOKED_AT = 16
_LEVELS = 32  # wrappers made at once: each copies the text, so a page nested deep is not copied at each level


def _span_text(memory: PageMemory, start: int, end: int) -> str:
    """The text of an element's events, ``start`` to ``end``. A large element that holds one block
    element and little else (a page's wrappers: ``body``, a layout table's row and cell) is that
    block's text with the little around it: its words, as its own would be, without the whole text
    collapsed again at every level (the wrappers within are found in turn, without recursion)."""
    pieces, texts, values = memory.pieces, memory.texts, memory.values
    levels: list[tuple[int, int, int, int]] = []  # each wrapper's events and its block's, outermost first
    text: str | None = None
    while (
        end - start > _WRAPPER
        and len(levels) < _LEVELS
        and (block := _one_block_child(memory, start, end)) is not None
    ):
        levels.append((start, end, *block))
        start, end = block
        if (known := texts.get(values[start].mem_id)) is not None:
            text = known[1]
            break
    if text is None:
        text = clean_space("".join(pieces[start:end]))
        if levels:
            texts[values[start].mem_id] = (values[start], text)
    for level in range(len(levels) - 1, -1, -1):  # the block's events open and close with a space
        outer, outer_end, inner, inner_end = levels[level]
        before, after = (
            clean_space("".join(pieces[outer:inner])),
            clean_space("".join(pieces[inner_end:outer_end])),
        )
        text = " ".join(part for part in (before, text, after) if part)
        if level:
            texts[values[outer].mem_id] = (values[outer], text)
    return text


def _one_block_child(memory: PageMemory, start: int, end: int) -> tuple[int, int] | None:
    """The span of the block element among the first children of the element at ``start`` that
    holds most of its events; ``None`` when none does."""
    kinds, ends, pieces = memory.kinds, memory.ends, memory.pieces
    index, looked = start + 1, 0
    while index < end - 1 and looked < _CHILDREN_LOOKED_AT:
        if kinds[index] == "open":
            after = ends[index]
            if pieces[index] == " " and after - index > 0.9 * (end - start):
                return index, after
            index, looked = after, looked + 1
        else:
            index += 1
    return None


def _text(node: Any) -> str:
    parts: list[str] = []
    for kind, value in _events(node):
        if kind == "text":
            parts.append(value)
        elif value.tag in BLOCK_TAGS:
            parts.append(" ")
    return clean_space("".join(parts))


_EMPTY_PAIRS = [lazy(rf"<{tag}>\s*</{tag}>") for tag in ("i", "b", "sup", "sub")]


def rich_of(node: Any, skip: frozenset[int] = frozenset()) -> str:
    """The node's text as record rich text: ``<i>``, ``<b>``, ``<sup>``, ``<sub>`` kept, the rest escaped.

    Elements whose ``mem_id`` is in ``skip`` (links to leave out of a title) are not read.
    """
    from bibconv import latex

    parts: list[str] = []
    skipping: list[Any] = []
    for kind, value in _events(node):
        if skipping:
            if kind == "close" and value.mem_id == skipping[-1]:
                skipping.pop()
            elif kind == "open" and value.mem_id in skip:
                skipping.append(value.mem_id)
            continue
        if kind == "text":
            parts.append(latex.escape_markup(value))
        elif kind == "open" and value.mem_id in skip:
            skipping.append(value.mem_id)
        elif value.tag in _RICH and value is not node:
            tag = _RICH[value.tag]
            parts.append(f"<{tag}>" if kind == "open" else f"</{tag}>")
        elif value.tag in BLOCK_TAGS:
            parts.append(" ")
    text = clean_space("".join(parts))
    for pattern in _EMPTY_PAIRS:  # drop empty or space-only pairs left by skipped content
        text = pattern.sub(" ", text)
    return clean_space(text)


_TAG = lazy(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


def fragment_text(value: str) -> str:
    """Text of a value that may hold HTML markup (``<em>how</em>`` in a meta tag or JSON-LD)."""
    if not _TAG.search(value):
        return value
    body = parse(f"<body>{value}</body>").body
    return text_of(body) if body is not None else value


def absolute(href: str | None, base: str | None) -> str | None:
    """``href`` made absolute against ``base``; ``None`` when it cannot be (or is not a web link)."""
    if not href:
        return None
    href = href.strip()
    if href.startswith(("javascript:", "mailto:", "#", "data:")):
        return None
    try:
        joined = urljoin(base, href) if base else href
    except ValueError:  # not a URL: an unclosed "[" in its host, say
        return None
    return joined if joined.startswith(("http://", "https://")) else None


def url_parts(url: str) -> SplitResult | None:
    """``url`` split into its parts; ``None`` when a page's text is no URL (``urlsplit`` refuses it)."""
    try:
        return urlsplit(url)
    except ValueError:
        return None
