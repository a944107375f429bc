"""Hardened streaming XML input for the feed reader: a byte tap that notes the DOCTYPE's line and
replays the head, a probe that finds the root element before the body is parsed, and the parse
events of the body read frame by frame (:class:`FeedEvents`), a bad frame costing itself only.

lxml is passed in (``etree``), so importing this module stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from bibconv.errors import ParseError
from bibconv.formats.atom.frames import Frames, Segment, prolog_end
from bibconv.patterns import lazy

__all__ = ["PARSER_OPTIONS", "FeedEvents", "Tap", "probe"]

PARSER_OPTIONS: dict[str, Any] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
}
_CHUNK = 32768
"""Bytes read at a time (lxml's iterparse reads as much)."""
_FRAME_CHUNK = 1 << 16
_PROBE_SLICE = 512


class Tap:
    """Passes a byte stream to the parser, notes the line of a ``<!DOCTYPE``, and can replay the head."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self.scanning = True
        self.doctype_line: int | None = None
        self._newlines = 0
        self._tail = b""
        self._again: list[bytes] = []

    def replay(self, chunks: list[bytes]) -> None:
        """Give ``chunks`` (read already) once more before reading on."""
        self._again = chunks[::-1]

    def head(self) -> bytes:
        """The bytes that will be given again."""
        return b"".join(self._again[::-1])

    def take(self, size: int) -> bytes:
        """The first ``size`` bytes of those to be given again (the rest still are)."""
        head = self.head()
        self._again = [head[size:]] if len(head) > size else []
        return head[:size]

    def read(self, size: int = -1) -> bytes:
        if self._again:
            return self._again.pop()
        data = self._stream.read(size)
        if self.scanning and data and self.doctype_line is None:
            window = self._tail + data
            found = window.find(b"<!DOCTYPE")
            if found >= 0:
                self.doctype_line = (
                    self._newlines - self._tail.count(b"\n") + window.count(b"\n", 0, found) + 1
                )
            self._newlines += data.count(b"\n")
            self._tail = window[-9:]
        return data


def probe(tap: Tap, etree: Any) -> Any:
    """The root element, or ``None`` if the document breaks (or ends) before it.

    The head is parsed on its own, in small slices, until the root's start tag; its bytes are
    then handed to the main parser again, so the root and DOCTYPE are checked before the body
    is parsed, and the main parser can ask for entries and the root's end only.
    """
    parser = etree.XMLPullParser(events=("start",), **PARSER_OPTIONS)
    chunks: list[bytes] = []
    try:
        while True:
            data = tap.read(_CHUNK)
            if not data:
                parser.close()
                break
            chunks.append(data)
            for start in range(0, len(data), _PROBE_SLICE):
                parser.feed(data[start : start + _PROBE_SLICE])
                for _event, elem in parser.read_events():
                    return elem
    except etree.XMLSyntaxError:
        pass
    finally:
        tap.replay(chunks)
    for _event, elem in parser.read_events():
        return elem
    return None


_MISMATCH = lazy(r"^Opening and ending tag mismatch: (\S+) line (\d+) and ([^\s,]+)")
_LINE = lazy(r"\bline (\d+)")


@dataclass
class _Frame:
    """The frame being read: where it starts, and whether its entry has started where it should."""

    line: int
    column: int
    fresh: bool  # read by a parser that began with it
    verified: bool = False
    fed: list[bytes] = field(default_factory=list)  # its bytes, until verified


class FeedEvents:
    """Parse events of a feed read frame by frame (:mod:`bibconv.formats.atom.frames`).

    A frame that is not well-formed gives one ``("error", ParseError)`` and its other bytes are
    not parsed; the next frame is read by a fresh parser fed the prolog (``("reset", None)``
    comes first), so an error costs that frame only and each frame reads the same in any piece
    of the input. Without ``frames`` (no prolog found) the first error ends the events.
    """

    def __init__(
        self, tap: Tap, etree: Any, ctx: Any, root: Any, frames: Frames | None, prolog: bytes
    ) -> None:
        self._tap, self._etree, self._ctx, self._frames = tap, etree, ctx, frames
        self._prolog = prolog
        self._prolog_lines = prolog.count(b"\n") + 1  # the lines that are the prolog's in every parser
        self._root_name = _qname(root) if root is not None else None
        self.entries: frozenset[Any] = frozenset()
        self.events: tuple[str, ...] = ("start", "end")
        self.tags: tuple[Any, ...] | None = None
        self._parser: Any = None
        self._offset = 0  # parser line + offset = input line
        self._frame = _Frame(1, 0, fresh=True, verified=True)
        self._skipping = False
        self.path: list[Any] | None = None  # the tags of every entry's ancestors (None: the first's)
        self.wrapper = b""  # their start tags (but the root's), for a fresh parser

    @classmethod
    def of(
        cls, tap: Tap, etree: Any, ctx: Any, root: Any, entry: str, namespace: str | None, in_root: bool
    ) -> FeedEvents:
        """The events of a feed whose entries are ``entry`` elements of ``namespace`` (``in_root``:
        the root's children, else in RSS 2.0's ``<channel>``), read frame by frame when the prolog is
        found (not in UTF-16 or UTF-32)."""
        end = prolog_end(tap.head(), root.tag.rpartition("}")[2] if root is not None else "")
        if root is None or end is None or b"\0" in tap.head()[:4]:
            return cls(tap, etree, ctx, root, None, b"")
        prolog = tap.take(end)
        nsmap = root.nsmap  # the root's namespaces (lxml makes this dict at every look)
        frames = Frames(entry, lambda prefix: nsmap.get(prefix) == namespace, prolog)
        events = cls(tap, etree, ctx, root, frames, prolog)
        if in_root:
            events.path = [root.tag]
        else:  # until the first item shows where they are
            events.wrapper = b"<channel>"
        return events

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        self._parser = self._new()
        yield from self._push(self._prolog)
        for segment in self._segments():
            if segment.start:
                if self._parser is not None and not self._frame.verified:
                    yield from self._stalled()
                self._frame = _Frame(segment.line, segment.column, fresh=self._parser is None)
                self._skipping = False
                if self._parser is None:
                    yield from self._restart()
            elif self._skipping:
                continue
            yield from self._push(segment.data)
        while self._parser is not None:  # the end (a frame read again is ended again)
            yield from self._push(None)

    def _segments(self) -> Iterator[Segment]:
        read = self._tap.read
        if self._frames is None:
            while data := read(_CHUNK):
                yield Segment(data, False, 0, 0)
            return
        while data := read(_FRAME_CHUNK):
            yield from self._frames.feed(data)
        yield from self._frames.feed(b"", final=True)

    def _new(self) -> Any:
        return self._etree.XMLPullParser(events=self.events, tag=self.tags, **PARSER_OPTIONS)

    def _restart(self) -> Iterator[tuple[str, Any]]:
        """A fresh parser for the current frame, given the prolog as in a piece of the input."""
        frame = self._frame
        self._parser = self._new()
        self._offset = frame.line - self._prolog_lines - 1
        yield "reset", None
        head = self._prolog + self.wrapper + b"\n" + b" " * frame.column
        yield from self._push(head, keep=False)

    def _push(self, data: bytes | None, keep: bool = True) -> Iterator[tuple[str, Any]]:
        """Parse ``data`` (``None``: the end) and give the events it completes."""
        frame, parser = self._frame, self._parser
        if keep and data is not None and not frame.verified:
            frame.fed.append(data)
        try:
            if data is None:
                parser.close()
            else:
                parser.feed(data)
        except self._etree.XMLSyntaxError as exc:
            yield from self._events()
            if self._parser is parser:  # not read again already (an element left open before)
                yield from self._failed(exc, at_end=data is None)
            return
        yield from self._events()
        if data is None and self._parser is parser:
            self._parser = None

    def _events(self) -> Iterator[tuple[str, Any]]:
        parser = self._parser
        for event, elem in parser.read_events():
            frame = self._frame
            if event == "start" and not frame.verified and elem.tag in self.entries:
                path = [a.tag for a in elem.iterancestors()]
                if self.path is None:  # the first entry: where the others must be too
                    self.path, self.wrapper = path, _wrapper(elem)
                elif path != self.path:  # an element before is not closed: read this entry again
                    yield from self._not_closed(elem.getparent())
                    return
                frame.verified, frame.fed = True, []
            yield event, elem
            if self._parser is not parser:
                return

    def _not_closed(self, element: Any) -> Iterator[tuple[str, Any]]:
        """The entry's parent is not where entries are: something before is not closed (or, with no
        parent, the root is closed already); the entry is read again by a fresh parser."""
        frame = self._frame
        if element is None:
            message = "not well-formed XML: Extra content at the end of the document"
            yield "error", ParseError(message, self._ctx.span(frame.line))
        else:
            yield "error", self._unclosed(_qname(element, local=True), element.sourceline)
        yield from self._again(frame)

    def _again(self, frame: _Frame, at_end: bool = False) -> Iterator[tuple[str, Any]]:
        """Read ``frame`` again with a fresh parser (``at_end``: and end the input there)."""
        fed, frame.fed, frame.fresh = frame.fed, [], True
        yield from self._restart()
        for data in [*fed, None] if at_end else fed:
            if self._frame is not frame or self._skipping:
                break
            yield from self._push(data)

    def _stalled(self) -> Iterator[tuple[str, Any]]:
        """A frame read whole without its entry's start: libxml2 waits (after a ``&``, for a
        ``;``) or met an error it has not raised yet; it is made to finish."""
        parser = self._parser
        try:
            parser.close()
        except self._etree.XMLSyntaxError as exc:
            yield from self._events()
            if self._parser is parser:
                yield from self._failed(exc)
            return
        yield from self._again(self._frame)  # pragma: no cover - an open root always gives an error

    def _failed(self, exc: Any, at_end: bool = False) -> Iterator[tuple[str, Any]]:
        frame = self._frame
        error = self._error(exc)
        if frame.fresh or frame.verified:  # this frame's own error: the rest of it is not read
            self._parser, self._skipping = None, True
            yield "error", error
            return
        line, column = exc.position if exc.position else (exc.lineno, 0)
        if (self.line(line) or 0, column or 0) <= (frame.line, frame.column):  # the frame before's
            yield "error", error
            yield from self._again(frame, at_end)
            return
        # At or after this frame's start, before its entry's: the error may be either's; read it again.
        again = list(self._again(frame, at_end))
        if not any(kind == "error" and _same(found, error) for kind, found in again):
            yield "error", error
        yield from again

    def _error(self, exc: Any) -> ParseError:
        line, column = exc.position if exc.position else (exc.lineno, None)
        mismatch = _MISMATCH.match(exc.msg)
        if mismatch and mismatch[3] == self._root_name:  # the feed ends with an element open
            return self._unclosed(mismatch[1], int(mismatch[2]))
        message = _LINE.sub(lambda m: f"line {self._shown(int(m[1]))}", exc.msg)
        if line is None or line <= self._prolog_lines < self._frame.line:  # not where it is (an entity's)
            line, column = self._frame.line - self._offset, None
        return ParseError(f"not well-formed XML: {message}", self._ctx.span(self.line(line), column))

    def _unclosed(self, name: str, line: int) -> ParseError:
        """An element (that started on ``line``) still open where the next entry starts or the feed ends."""
        return ParseError(f"not well-formed XML: <{name}> is not closed", self._ctx.span(self.line(line)))

    def line(self, line: int | None) -> int | None:
        """A parser's line (``sourceline``) as a line of the input read."""
        return line if line is None or line <= self._prolog_lines else line + self._offset

    def _shown(self, line: int) -> int:
        """A parser's line as a line of the whole input (prolog lines are the same in every piece)."""
        mapped = self.line(line)
        return line if mapped is None or line <= self._prolog_lines else self._ctx.span(mapped).line


def _same(a: ParseError, b: ParseError) -> bool:
    return (a.message, a.span) == (b.message, b.span)


def _qname(elem: Any, local: bool = False) -> str:
    """An element's name as written (``local``: without its prefix, as libxml2 names open elements)."""
    name = elem.tag.rpartition("}")[2] if isinstance(elem.tag, str) else ""
    return f"{elem.prefix}:{name}" if elem.prefix and not local else name


def _wrapper(entry: Any) -> bytes:
    """Start tags of the elements between the root and ``entry`` (RSS 2.0: ``<channel>``)."""
    names = [_qname(a) for a in entry.iterancestors()][:-1]
    return "".join(f"<{name}>" for name in reversed(names)).encode("utf-8")
