"""Where a feed's entries start, found in its bytes: the frames that reading and ``--jobs`` share.

A feed is its prolog (up to the root's start tag, :func:`prolog_end`) and then *frames*: the
first holds the feed's own elements, every other one starts with an entry's start tag
(``<entry>``, ``<item>``, under any prefix bound to the entries' namespace) and runs to the next
one. Start tags inside comments, CDATA sections and processing instructions do not count.
The frames are found in the bytes alone, whatever the parser makes of them, so the reader
(which reads each frame in the state a fresh parser has after the prolog, see
:mod:`bibconv.formats.atom.xml_stream`) and the splitter (which cuts between frames) agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bibconv.patterns import lazy

__all__ = ["Frames", "Segment", "chars", "prolog_end"]

_NAME = lazy(rb"<(?:[\w.-]{1,64}:)?([\w.-]{1,64})")
_CLOSERS = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}
_LOOKAHEAD = 160
"""Bytes an entry's start tag needs to be recognised (a prefix of up to 64 bytes, the name, one more)."""


def _tag_end(data: bytes, pos: int) -> int:
    """After the ``>`` that ends the tag at ``pos`` (quoted attribute values skipped), or -1."""
    while True:
        gt = data.find(b">", pos)
        quotes = [q for q in (data.find(b'"', pos, gt), data.find(b"'", pos, gt)) if q >= 0]
        if gt < 0 or not quotes:
            return gt + 1 if gt >= 0 else -1
        quote = min(quotes)
        pos = data.find(data[quote : quote + 1], quote + 1) + 1
        if pos <= 0:
            return -1


def prolog_end(head: bytes, root: str) -> int | None:
    """The end of the root's start tag (local name ``root``) in ``head``, past the XML declaration,
    comments, processing instructions and the DOCTYPE; ``None`` if it is not there as expected."""
    pos = 0
    while (at := head.find(b"<", pos)) >= 0:
        opener = next((o for o in _CLOSERS if head.startswith(o, at)), None)
        if opener is not None:
            end = head.find(_CLOSERS[opener], at + len(opener))
            if end < 0:  # a comment or instruction that does not close
                return None
            pos = end + len(_CLOSERS[opener])
        elif head.startswith(b"<!", at):  # the DOCTYPE, with an internal subset perhaps
            bracket, gt = head.find(b"[", at), head.find(b">", at)
            end = head.find(b"]", bracket) if 0 <= bracket < gt else at
            pos = _tag_end(head, end) if end >= 0 else -1
        else:
            name = _NAME.match(head, at)
            if name is None or name[1].decode("ascii", "replace") != root:
                return None
            end = _tag_end(head, at)
            return end if end > 0 else None
        if pos <= 0:
            return None
    return None


@dataclass(frozen=True, slots=True)
class Segment:
    """Bytes of one frame; ``start`` if they begin it, on ``line`` after ``column`` characters."""

    data: bytes
    start: bool
    line: int
    column: int


class Frames:
    """Cuts bytes, given a buffer at a time, into frame segments (see the module docstring).

    ``entry`` is the local name of the entries' element; ``accept(prefix)`` says whether a prefix
    (``None``: none) names their namespace.
    """

    def __init__(self, entry: str, accept: Callable[[str | None], bool], after: bytes = b"") -> None:
        self._name = entry.encode()
        self._tag = re.compile(rb"<(?:([\w.-]{1,64}):)?" + re.escape(self._name) + rb"[\s>/]")
        self._accept = accept
        self._closer: bytes | None = None  # inside a comment, CDATA section or PI: what ends it
        self._held = b""  # bytes not given out yet
        self._resume = 0  # where in them to scan on, in the state the scan left
        self._stop = 0
        self._opening = False  # the next bytes given out start a frame
        self.line = 1 + after.count(b"\n")  # ``after``: the bytes before the first given
        self._column = chars(after[after.rfind(b"\n") + 1 :])  # characters since the last line end

    def feed(self, data: bytes, final: bool = False) -> Iterator[Segment]:
        """The segments of ``data`` (with what was held back); ``final`` at the input's end."""
        buffer = self._held + data if self._held else data
        limit = len(buffer) if final else len(buffer) - _LOOKAHEAD
        done = 0
        for start in self._scan(buffer, self._resume, limit):
            if start > done:
                yield self._segment(buffer[done:start])
            done = start
            self._opening = True
        keep = len(buffer) if final else max(done, limit, 0)
        if keep > done:
            yield self._segment(buffer[done:keep])
        self._held, self._resume = buffer[keep:], max(self._stop - keep, 0)

    def starts(self, buffer: bytes) -> list[int]:
        """Where frames start in ``buffer``, read from a frame's start (the splitter's cuts)."""
        self._closer = None
        return list(self._scan(buffer, 0, len(buffer)))

    def _scan(self, buffer: bytes, pos: int, limit: int) -> Iterator[int]:
        """The frame starts before ``limit``; ``_stop``: where the scan may go on from."""
        special = _special(buffer, pos)
        while True:
            if self._closer is not None:
                end = buffer.find(self._closer, pos)
                if end < 0:  # still inside: scan on from what may begin the closer
                    self._stop = max(pos, len(buffer) - len(self._closer) + 1)
                    return
                pos, self._closer = end + len(self._closer), None
            if 0 <= special < pos:
                special = _special(buffer, pos)
            start, end, prefix = self._entry(buffer, pos, special)
            if start >= 0 or special < 0:
                if start < 0 or start >= limit:
                    self._stop = start if start >= 0 else max(pos, limit)
                    return
                if self._accept(None if prefix is None else prefix.decode("ascii", "replace")):
                    yield start
                pos = end
                continue
            if special >= limit:
                self._stop = special
                return
            opener = next((o for o in _CLOSERS if buffer.startswith(o, special)), b"<!")
            self._closer, pos = _CLOSERS.get(opener), special + len(opener)

    def _entry(self, buffer: bytes, pos: int, before: int) -> tuple[int, int, bytes | None]:
        """The next entry start tag from ``pos`` (before ``before`` if that is not -1): its start, its
        name's end, its prefix; -1 if none."""
        match = self._tag.search(buffer, pos, before if before >= 0 else len(buffer))
        if match is None:  # (a tag holds no "<" but its first: one that starts before ``before`` ends there)
            return -1, -1, None
        return match.start(), match.end() - 1, match[1]

    def _segment(self, data: bytes) -> Segment:
        segment = Segment(data, self._opening, self.line, self._column)
        self._opening = False
        newlines = data.count(b"\n")
        if newlines:
            self.line += newlines
            self._column = chars(data[data.rfind(b"\n") + 1 :])
        else:
            self._column += chars(data)
        return segment


def _special(buffer: bytes, pos: int) -> int:
    """The next ``<!`` or ``<?`` (a comment, CDATA section or PI may start there), or -1."""
    found = [at for at in (buffer.find(b"<!", pos), buffer.find(b"<?", pos)) if at >= 0]
    return min(found) if found else -1


_NOT_CONTINUING = bytes(b for b in range(256) if not 0x80 <= b < 0xC0)


def chars(data: bytes) -> int:
    """Characters in ``data`` read as UTF-8 (bytes that do not continue one; a part of the input
    counts as the whole does)."""
    return len(data) if data.isascii() else len(data) - len(data.translate(None, _NOT_CONTINUING))
