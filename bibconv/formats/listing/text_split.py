"""Where ``--jobs`` cuts a plain-text listing (:meth:`TextListingReader.split`): before a line that
starts an entry, after the first entry.

What the reader learns of the listing's layout from the lines before a piece (the first entry's
marker and indent, the indent of entry text: :class:`~bibconv.formats.listing.text.Layout`) is
found by a first pass over the input and given to each piece as its ``state``, so that every
piece reads as it does within the whole input. Lines are told apart by the reader's own tests;
byte patterns only pick the lines worth testing. An input in UTF-16 or UTF-32, with bytes that
are not UTF-8 or NUL (:func:`_plain`), or with line ends that are a lone CR (which the pieces'
line numbers would not count), is not cut.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import IO

from bibconv.formats.listing.text_layout import BULLETS, MARKER, Layout, family_of, indent_of
from bibconv.parallel.pieces import Piece, pieces, wide
from bibconv.patterns import lazy

__all__ = ["split"]

_BLOCK = 1 << 22
_LONE_CR = lazy(rb"\r(?!\n)")
# A line that may start with a marker: white space, then a marker's first character.
_MAY_BE_MARKED = lazy(rb"^[ \t]{0,3}(?:[-*\[0-9]|[\x80-\xff])", re.M)
_FAMILY_BYTES = {
    "bullet": b"(?:" + b"|".join(re.escape(c.encode()) for c in BULLETS) + b")",
    "bracket": rb"\[[0-9]{1,4}\]",
    "number.": rb"[0-9]{1,4}\.",
    "number)": rb"[0-9]{1,4}\)",
}


@dataclass(frozen=True)
class _Survey:
    """What the first pass found: the first entry's layout and where its line ends, and the
    indent of entry text and the offset of the line that set it (``None``: no such line)."""

    layout: Layout
    first_end: int
    body_indent: int | None = None
    body_at: int | None = None

    def state(self, offset: int) -> Layout | None:
        """The layout the reader knows at ``offset`` (a piece's start; ``None`` for the first)."""
        if offset == 0:
            return None
        if self.body_at is not None and self.body_at < offset:
            return Layout(self.layout.family, self.layout.marker_indent, self.body_indent)
        return self.layout


@cache
def _line_patterns(family: str, indent: int) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """For a listing whose entries are marked by ``family`` at ``indent``: the line ends before
    lines that may start an entry, and the lines that may be entry text (neither blank nor plainly
    the start of an entry)."""
    marks = _FAMILY_BYTES.get(family) or re.escape(family.encode())
    opening = re.compile(rb"\n(?=[ \t]{0,3}" + marks + rb"[ \t]+[^ \t\r\n])")
    text = re.compile(rb"^(?![ \t]*\r?$| {0,%d}%s[ \t]+[!-~])" % (min(indent, 3), marks), re.M)
    return opening, text


def _line(buffer: bytes, start: int, first: bool = False) -> str | None:
    """The line of ``buffer`` at ``start`` as the reader sees it (``None``: it does not end there)."""
    end = buffer.find(b"\n", start)
    if end < 0:
        return None
    raw = buffer[start:end].removesuffix(b"\r")
    if first:
        raw = raw.removeprefix(codecs.BOM_UTF8)
    return raw.decode("utf-8", "surrogateescape")


def _blocks(stream: IO[bytes]) -> Iterator[tuple[int, bytes]]:
    """``(offset, block)``: the input in blocks of about :data:`_BLOCK` bytes that end at line ends
    (the last one ends the input, with a line end added)."""
    offset, tail = 0, b""
    for block in iter(lambda: stream.read(_BLOCK), b""):
        block = tail + block
        cut = block.rfind(b"\n") + 1
        if cut:
            yield offset, block[:cut]
            offset += cut
        tail = block[cut:]
    if tail:
        yield offset, tail + b"\n"


def _first_entry(offset: int, block: bytes) -> tuple[Layout, int] | None:
    """The layout the first entry of ``block`` sets, and the offset after its line."""
    for found in _MAY_BE_MARKED.finditer(block):
        line = _line(block, found.start(), first=offset + found.start() == 0)
        match = MARKER.match(line or "")
        if line is not None and match is not None:
            end = block.index(b"\n", found.start()) + 1
            return Layout(family_of(match["marker"]), indent_of(line)), offset + end
    return None


def _body_line(layout: Layout, offset: int, block: bytes, start: int) -> tuple[int, int] | None:
    """The indent and offset of the first line of ``block`` from ``start`` that is entry text:
    neither blank nor the start of an entry (lines plainly so are passed over by a pattern)."""
    text = _line_patterns(str(layout.family), layout.marker_indent)[1]
    for found in text.finditer(block, start):
        line = _line(block, found.start())
        if line is not None and line.strip() and not layout.opening(line):
            return indent_of(line), offset + found.start()
    return None


def _plain(block: bytes) -> bool:
    """Whether ``block`` is UTF-8 with no NUL and no lone CR. The reader reports a NUL or a bad
    byte as it decodes ahead of its records, and what it reads after a bad byte depends on it
    (on the mode, on the file's byte-order mark): such input is read whole."""
    if b"\x00" in block or _LONE_CR.search(block):
        return False
    try:
        block.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _survey(stream: IO[bytes]) -> _Survey | None:
    """The layout facts of the whole input, or ``None`` when it has no entry or is not :func:`_plain`."""
    first: tuple[Layout, int] | None = None
    body: tuple[int, int] | None = None
    for offset, block in _blocks(stream):
        if not _plain(block):
            return None
        if first is None:
            first = _first_entry(offset, block)
        if first is not None and body is None:
            body = _body_line(first[0], offset, block, max(first[1] - offset, 0))
    if first is None:
        return None
    return _Survey(first[0], first[1], *(body or (None, None)))


def _last_opening(buffer: bytes, lowest: int, survey: _Survey) -> int:
    """The start of the last line of ``buffer`` from ``lowest`` on that starts an entry (0: none).

    The lines are looked for in a window at the end of the buffer, widened until one is found."""
    layout = survey.layout
    candidate = _line_patterns(str(layout.family), layout.marker_indent)[0]
    window = 1 << 16
    while True:
        begin = max(len(buffer) - window, lowest - 1, 0)
        for found in reversed([m.end() for m in candidate.finditer(buffer, begin)]):
            line = _line(buffer, found)
            if found >= lowest and line is not None and layout.opening(line):
                return found
        if begin <= max(lowest - 1, 0):
            return 0
        window *= 4


def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """Plain-text listings: before entries, each piece told the layout found before it."""
    if wide(stream):
        return None
    survey = _survey(stream)
    stream.seek(0)
    if survey is None:
        return None
    return _pieces(stream, size, survey)


def _pieces(stream: IO[bytes], size: int, survey: _Survey) -> Iterator[Piece]:
    start = 0  # where the buffer that ``cut`` is given starts in the input

    def cut(buffer: bytes) -> int:
        return _last_opening(buffer, survey.first_end - start if start == 0 else 1, survey)

    for piece in pieces(stream, size, cut):
        yield Piece(piece.data, piece.line, state=survey.state(start))
        start += len(piece.data)
