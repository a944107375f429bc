"""CSL-JSON, read and written completely.

Reading accepts an array of items, a single item object, or one item per line
(JSON lines); arrays are streamed item by item. Names, dates with string or number
parts, ``raw`` and ``literal`` dates are understood. Keys the schema does not know
(Zotero's ``license``, ``file``…) are kept in ``extra`` as ``csl:<key>`` and written
back under ``custom``, so the output validates against the official schema and
nothing is lost. Record data with no CSL variable travels under ``custom`` too:
``bibconv:arxiv`` (the whole arXiv block), ``bibconv:affiliations``, and ``extra``
entries of other formats under their own keys (``bibtex:addendum``; BibTeX's ``subtitle`` and
``howpublished`` travel so too, kept for BibTeX beside the title or publisher that holds their text:
:mod:`bibconv.subtitles`). What the writer keeps, as code, is
:func:`bibconv.projection.project`.

This package streams the JSON (items of an array one by one, JSON lines, a broken item skipped to
the next); what one item means as a record is :mod:`bibconv.csl.items`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, ClassVar

from bibconv import csl
from bibconv.csl.items import CORE_KEYS, record_from_csl, record_to_csl
from bibconv.errors import ParseError, ReadError
from bibconv.formats.csljson.layout import Layout
from bibconv.jsonnumbers import DECODER, NumberError
from bibconv.model import Record
from bibconv.patterns import lazy
from bibconv.registry import EntryWriter, ReadContext, WriteContext, register
from bibconv.textio import JSON_SURROGATE, open_text
from bibconv.writing import UNWRITABLE_RE, has_unwritable

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = ["CslJsonReader", "CslJsonWriter"]

_JSON_SYNTAX = lazy(r'\\.|["{}\[\],]')
_CHUNK = 1 << 16
_JSON_SPACE = lazy(r"[ \t\r\n]*")
_NEXT_ITEM = lazy(r"\}\s*,\s*(?=\{)")
_KEY = lazy(r'"([A-Za-z][A-Za-z-]*)"\s*:\s*("[^"]*")?')
# What no output holds, as json.dumps escapes it (after an even run of backslashes: an escape, not
# text) — C0 and C1 controls, DEL, U+2028/U+2029, noncharacters (of other planes as surrogate pairs) —
# or raw.
_UNWRITABLE_ESCAPE_RE = lazy(
    r"\\[bf]|\\u00[0189][0-9a-fA-F]|\\u007[fF]|\\u202[89]"
    r"|\\u[fF][dD][dDeE][0-9a-fA-F]|\\u[fF]{3}[eEfF]|\\u[dD][89abAB][37bfBF][fF]\\u[dD][fF]{2}[eEfF]"
)
_UNWRITABLE_RE = lazy(
    rf"(?<!\\)(?P<before>(?:\\\\)*)(?P<escape>{_UNWRITABLE_ESCAPE_RE.pattern})|{UNWRITABLE_RE.pattern}"
)


def _holds_unwritable_escape(text: str) -> bool:
    """Whether ``text`` has an escape of :data:`_UNWRITABLE_RE`: one after an even run of backslashes.
    (Faster than a search of that pattern, which its lookbehind makes try every character.)"""
    found = _UNWRITABLE_ESCAPE_RE.search(text)
    while found is not None:
        before = start = found.start()
        while before and text[before - 1] == "\\":
            before -= 1
        if (start - before) % 2 == 0:
            return True
        found = _UNWRITABLE_ESCAPE_RE.search(text, start + 1)
    return False


_LAID_OUT = "csljson:layout"
"""Where ``ctx.state`` keeps how the output's entries are laid out (:func:`_entry_layout`)."""


def _entry_layout(indent: Any, ascii_only: bool) -> Callable[[dict[str, Any]], str]:
    """How an item is written as an entry: a line end, then ``json.dumps`` of it with ``indent``, each
    line indented as much again (the items of the array)."""
    if isinstance(indent, int):  # json.dumps(indent=…) is pure Python: the same text, faster
        return Layout(indent, ensure_ascii=ascii_only, margin=" " * indent, before="\n").dumps

    def dumps(item: dict[str, Any]) -> str:
        body = json.dumps(item, ensure_ascii=ascii_only, indent=indent)
        if indent:
            body = "\n".join(" " * indent + line for line in body.split("\n"))
        return "\n" + body

    return dumps


def _skip_value(buffer: str, start: int) -> int | None:
    """Where a broken item that starts at ``buffer[start]`` ends: the index of the ``,`` or ``]``
    after it at the array's level (strings and nesting respected), or ``None`` if not in ``buffer``."""
    depth = 0
    in_string = False
    i = start
    for match in _JSON_SYNTAX.finditer(buffer, start):
        char = match.group(0)
        i = match.start()
        if in_string:
            if char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            if depth == 0 and char == "]":
                return i
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            return i
    return None


class _JsonText:
    """The text of a JSON input read so far, in chunks, and where its next unread character stands.

    ``buffer[pos]`` is the next unread character, at ``line`` and ``column`` of the input; ``eof``:
    the input is read to its end."""

    __slots__ = ("buffer", "column", "ctx", "eof", "line", "pos", "text")

    def __init__(self, text: IO[str], ctx: ReadContext) -> None:
        self.text, self.ctx = text, ctx
        self.buffer = ""
        self.pos = 0
        self.line = self.column = 1
        self.eof = False

    def more(self) -> bool:
        """Read the next chunk: 64 K characters, or as many as are pending, so that an item longer
        than a chunk is read in doubling chunks (linear time) and the buffer stays near the longest
        item; ``False`` at the end of the input."""
        buffer, pos = self.buffer, self.pos
        chunk = self.text.read(max(_CHUNK, len(buffer) - pos))
        if not chunk:
            self.eof = True
            return False
        tail = buffer[-5:]  # an escape may be cut between chunks
        if "\\u" in chunk or "\\" in tail:
            self.ctx.escapes += len(JSON_SURROGATE.findall(tail + chunk))
        self.buffer = buffer[pos:] + chunk
        self.pos = 0
        return True

    def advance(self, to: int) -> None:
        """Move on to ``buffer[to]``, counting lines and columns."""
        buffer, pos = self.buffer, self.pos
        newlines = buffer.count("\n", pos, to)
        if newlines:
            self.line += newlines
            self.column = to - buffer.rfind("\n", pos, to)
        else:
            self.column += to - pos
        self.pos = to

    def skip(self) -> None:
        """Move on past white space, reading on as needed."""
        while True:
            self.advance(_JSON_SPACE.match(self.buffer, self.pos).end())  # type: ignore[union-attr]
            if self.pos < len(self.buffer) or self.eof or not self.more():
                return

    def error(self, message: str, at: int | None = None) -> ParseError:
        """A parse error at ``buffer[at]`` (by default the next unread character)."""
        buffer, pos = self.buffer, self.pos
        at = pos if at is None else at
        newlines = buffer.count("\n", pos, at)
        col = at - buffer.rfind("\n", pos, at) if newlines else self.column + at - pos
        return ParseError(message, self.ctx.span(self.line + newlines, col))

    def resync(self, problem: ParseError) -> bool:
        """Fail the item at ``pos``; True when reading can go on after it."""
        self.ctx.fail(problem)  # raises in strict mode
        while (end := _skip_value(self.buffer, self.pos)) is None:
            if self.eof or not self.more():
                # A string left open swallows what follows: go on at the next "},{" instead.
                found = _NEXT_ITEM.search(self.buffer, self.pos)
                if found is None:
                    return False
                end = found.start() + 1
                break
        self.advance(end)
        return True

    def decode(self, in_array: bool) -> tuple[bool, Any, int | None]:
        """The value at ``pos``: (whether reading goes on, the value, where it ends); a broken one is
        failed (``None`` for its end) and, in an array, skipped."""
        while True:
            try:
                value, end = DECODER.raw_decode(self.buffer, self.pos)
                return True, value, end
            except json.JSONDecodeError as exc:
                if not self.eof and self.more():
                    continue
                message = exc.msg.removesuffix(" at").removesuffix(" starting")
                problem = self.error(f"invalid JSON: {message}", exc.pos)
            except RecursionError:
                problem = self.error("invalid JSON: arrays or objects nested too deeply")
            except NumberError as exc:
                problem = self.error(f"invalid JSON: {exc}")
            if not in_array:
                self.ctx.fail(problem)
                return False, None, None
            return self.resync(problem), None, None


def _iter_json_values(text: IO[str], ctx: ReadContext) -> Iterator[tuple[int, int, Any]]:
    """``(index, line, value)`` for each item of a top-level array, object, or JSON-lines stream.

    The text is read in chunks (64 K characters, or longer for a longer item) and walked
    with an offset, so a whole file on one line (minified JSON) takes linear time and the
    buffer holds about one chunk. A broken item fails through ``ctx.fail``; in
    lenient mode the reader goes on after it (at the next ``,`` at the array's level), so
    every other item still comes through.
    """
    read = _JsonText(text, ctx)
    read.skip()
    if read.pos >= len(read.buffer):
        return
    in_array = read.buffer[read.pos] == "["
    if in_array:
        read.advance(read.pos + 1)
    index = 0
    while True:
        read.skip()
        if in_array and read.buffer.startswith("]", read.pos):
            read.advance(read.pos + 1)
            read.skip()
            if read.pos < len(read.buffer):
                ctx.fail(read.error("unexpected text after the end of the array"))
            return
        if read.pos >= len(read.buffer):
            if in_array:
                ctx.fail(read.error("the array is not closed (missing ']'); the file may be truncated"))
            return
        going, value, end = read.decode(in_array)
        if not going:
            return
        if end is not None:
            yield index, read.line, value
            read.advance(end)
        index += 1
        read.skip()
        if in_array:
            if read.buffer.startswith(",", read.pos):
                read.advance(read.pos + 1)
            elif not read.buffer.startswith("]", read.pos):
                if not read.resync(read.error("expected ',' or ']' between items")):
                    return
                if read.buffer.startswith(",", read.pos):
                    read.advance(read.pos + 1)


@register
class CslJsonReader:
    """Reads CSL-JSON: an array of items, one item, or JSON lines."""

    name: ClassVar[str] = "csljson"
    extensions: ClassVar[tuple[str, ...]] = (".json", ".csl.json", ".csljson")
    description: ClassVar[str] = "CSL-JSON (citeproc, pandoc, Zotero)"

    @staticmethod
    def sniff(head: str) -> float:
        """JSON whose head holds CSL items' keys (``id``, a CSL ``type``, ``title``, ``author``…);
        an empty array; JSON without them is not CSL-JSON."""
        text = head.lstrip()
        if not text.startswith(("[", "{")):
            return 0.0
        keys = {m.group(1): m.group(2) for m in _KEY.finditer(text)}
        csl_type = (keys.get("type") or '""')[1:-1] in csl.TYPES
        if csl_type and ("id" in keys or "title" in keys):
            return 0.9
        if "id" in keys or csl_type or not CORE_KEYS.isdisjoint(keys):
            return 0.3 if text.startswith("[") else 0.2
        return 0.3 if text[1:].lstrip().startswith("]") else 0.0

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input between array items or lines into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.formats.csljson.split import split

        return split(stream, size)

    @staticmethod
    def resume(stream: IO[bytes], size: int, at: Piece) -> Iterator[Piece]:
        """The pieces from the guessed piece ``at`` on, each item parsed (a guess was wrong)."""
        from bibconv.formats.csljson.split import resume

        return resume(stream, size, at)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        text = open_text(stream, ctx)
        for index, line, value in _iter_json_values(text, ctx):
            if isinstance(value, list):  # JSON lines holding arrays
                items: Iterable[Any] = value
            else:
                items = (value,)
            for item in items:
                try:
                    record = record_from_csl(item, ctx, index, line)
                except (ValueError, TypeError, KeyError) as exc:
                    key = item.get("id") if isinstance(item, Mapping) else None
                    ctx.fail(ReadError(str(exc), ctx.span(line, index=index), str(key) if key else None))
                    continue
                yield record


@register
class CslJsonWriter(EntryWriter):
    """Writes a CSL-JSON array, one item at a time, valid against the official schema."""

    name: ClassVar[str] = "csljson"
    extensions: ClassVar[tuple[str, ...]] = (".json", ".csl.json", ".csljson")
    description: ClassVar[str] = "CSL-JSON (citeproc, pandoc, Zotero)"

    separator: ClassVar[str] = ","

    @staticmethod
    def project(record: Record) -> Record:
        """What ``record`` reads back as from this output (:mod:`~bibconv.formats.csljson.project`)."""
        from bibconv.formats.csljson.project import project

        return project(record)

    def header(self, ctx: WriteContext) -> str:
        return "["

    def entry(self, record: Record, ctx: WriteContext) -> str:
        laid_out = ctx.state.get(_LAID_OUT)
        if laid_out is None:  # the same for every entry of the output
            laid_out = ctx.state[_LAID_OUT] = _entry_layout(
                ctx.option("indent", 2), bool(ctx.option("ascii"))
            )
        return laid_out(record_to_csl(record, ctx.keys.key(record)))

    def footer(self, ctx: WriteContext) -> str:
        return "\n]\n" if ctx.entries else "]\n"

    unwritable: ClassVar[re.Pattern[str]] = _UNWRITABLE_RE

    def may_hold_unwritable(self, text: str) -> bool:
        """A JSON escape (after a backslash) or a raw character of :data:`UNWRITABLE_RE` in an entry.
        JSON writes every character below U+0020 as an escape and the layout puts in only line
        ends and spaces: the one such character ASCII text may hold raw is DEL."""
        raw = "\x7f" in text if text.isascii() else has_unwritable(text)
        return raw or ("\\" in text and _holds_unwritable_escape(text))

    def respell(self, m: re.Match[str]) -> tuple[str, str]:
        """A JSON escape of an unwritable character (``\\u0000``, ``\\f``) goes, the backslashes
        before it stay; a raw one goes as in every output."""
        if m["escape"] is None:
            return super().respell(m)
        ch = json.loads(f'"{m["escape"]}"')
        return m["before"] + (" " if ch.isspace() else ""), ch[0]
