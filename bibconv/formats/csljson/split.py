"""Where ``--jobs`` cuts CSL-JSON (:meth:`CslJsonReader.split` and ``resume``).

JSON lines are cut at any line end. A top-level array is cut between two items; each piece is
``[`` + its items + ``]`` (the first keeps the original start, the last the original end). An
array laid out one item after another at the same indent is cut by that layout, in pieces that
are guesses for the reader to confirm (:attr:`~bibconv.parallel.pieces.Piece.guess`); other
arrays, and the rest of one where a guess failed (:func:`resume`), are cut after items parsed
with :meth:`json.JSONDecoder.raw_decode`. One object alone is not cut.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import IO

from bibconv.jsonnumbers import DECODER
from bibconv.parallel.pieces import Piece, line_cut, pieces, wide
from bibconv.patterns import lazy

__all__ = ["resume", "split"]

_NONBLANK_LINE = lazy(rb"^[ \t\r]*\S", re.M)
# "[", then the first item alone on its line: its indent.
_ITEM_LAYOUT = lazy(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*\[[ \t]*\r?\n(?:[ \t]*\r?\n)*([ \t]*)\{[ \t]*\r?\n")


def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """CSL-JSON: a top-level array between items, JSON lines at line ends, one object not at all.

    An array laid out one item after another at the same indent (``json.dumps(indent=…)``,
    Zotero, citeproc-js) is cut by that layout alone, without parsing it: pieces that are
    guesses, which :mod:`bibconv.parallel` has confirmed by the reader (a wrong cut, inside an
    item, leaves a piece that is not an array of items); when one is not, the rest of the
    input is cut again by :func:`resume`. Other arrays are cut by parsing each item
    (:meth:`json.JSONDecoder.raw_decode`).
    """
    if wide(stream):
        return None
    raw = stream.read(4096)
    head = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    stream.seek(0)
    if head.startswith(b"["):
        layout = _ITEM_LAYOUT.match(raw)
        if layout is not None:
            return _guess_json_array(stream, size, layout[1])
        return _split_json_array(stream, size)
    if head.startswith(b"{") and b"\n{" in head.replace(b"\r", b""):
        return _split_json_lines(stream, size)
    return None


def _split_json_lines(stream: IO[bytes], size: int) -> Iterator[Piece]:
    index = 0
    for piece in pieces(stream, size, line_cut):
        yield Piece(piece.data, piece.line, index)
        index += len(_NONBLANK_LINE.findall(piece.data))


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def resume(stream: IO[bytes], size: int, at: Piece) -> Iterator[Piece]:
    """The pieces of a CSL-JSON array from the guessed piece ``at`` on, each item parsed."""
    stream.seek(at.offset)
    return _split_json_array(stream, size, at if at.offset else None)


def _guess_json_array(stream: IO[bytes], size: int, indent: bytes) -> Iterator[Piece]:
    """Cut where a line ``<indent>},`` is followed by a line ``<indent>{``; every piece a guess.

    Each piece ends with the ``}`` of such a line (a ``]`` added), the next one starts on the
    line after (a ``[`` before it). Where no such place comes for ``8 * size`` bytes, a guess
    with no data hands the rest over to :func:`resume`.
    """
    boundary = re.compile(
        rb"\n" + re.escape(indent) + rb"\}[ \t]*,[ \t]*\r?\n(?=" + re.escape(indent) + rb"\{)"
    )
    reach = 2 * len(indent) + 16  # a boundary's length, at most (but for spaces around ",")
    buffer = bytearray()
    offset = 0  # of buffer[0] in the input
    while True:
        block = stream.read(size)
        buffer += block
        line, column = (0, -1) if offset else (1, 0)  # after the first: "[" before a line's start
        if not block:  # the end of the input
            if buffer or not offset:
                yield Piece(bytes(b"[" * (offset > 0) + buffer), line, 0, True, offset, column)
            return
        found = boundary.search(buffer, max(size, len(buffer) - len(block) - reach))
        if found is None:
            if len(buffer) > 8 * size:
                yield Piece(b"", 0, 0, True, offset)
                return
            continue
        end, start = found.start() + len(indent) + 2, found.end()  # after "}"; the next line
        data = b"".join((b"[" * (offset > 0), memoryview(buffer)[:end], b"]"))
        yield Piece(data, line, 0, True, offset, column)
        offset += start
        del buffer[:start]


class _Text:
    """The decoded text of an array read so far from ``stream``, in blocks of ``size`` bytes, and
    where its first character stands in the input (``line``; ``before``: characters before it on
    that line)."""

    __slots__ = ("before", "decoder", "eof", "line", "size", "stream", "text")

    def __init__(self, stream: IO[bytes], size: int, at: Piece | None) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8" if at else "utf-8-sig")("surrogateescape")
        self.stream, self.size = stream, size
        self.text = self.decoder.decode(stream.read(size))
        self.eof = False
        self.line = at.line if at else 1
        self.before = 0

    def more(self) -> bool:
        """Read the next block; ``False`` at the end of the input."""
        if self.eof:
            return False
        block = self.stream.read(self.size)
        self.eof = not block
        self.text += self.decoder.decode(block, final=self.eof)
        return True

    def skip(self, pos: int) -> int:
        """The position of the next character after white space, reading on as needed."""
        pos = _skip_space(self.text, pos)
        while pos >= len(self.text) and self.more():
            pos = _skip_space(self.text, pos)
        return pos

    def column(self, at: int) -> int:
        """The column shift of a piece "[" + text[at:]."""
        text = self.text
        return at - text.rfind("\n", 0, at) - 2 if "\n" in text[:at] else self.before + at - 1

    def piece(self, start: int, end: int | None, index: int) -> Piece:
        """The piece "[" + text[start:end] (+ "]" when it stops before the end)."""
        body = "[" + self.text[start:end] + ("]" if end is not None else "")
        line = self.line + self.text.count("\n", 0, start)
        return Piece(body.encode("utf-8", "surrogateescape"), line, index, column=self.column(start))

    def drop(self, pos: int) -> None:
        """Forget the text up to ``pos`` and the character there (a comma between items)."""
        self.line += self.text.count("\n", 0, pos + 1)
        self.before = self.column(pos + 1) + 1
        self.text = self.text[pos + 1 :]


def _split_json_array(stream: IO[bytes], size: int, at: Piece | None = None) -> Iterator[Piece]:
    raw_decode = DECODER.raw_decode
    read = _Text(stream, size, at)
    pos = 0 if at else _skip_space(read.text, 0) + 1  # after "["
    index = at.index if at else 0
    start = -1  # where the current run of items starts
    count = 0
    while True:
        pos = read.skip(pos)
        if start < 0:
            start = pos
        if pos >= len(read.text) or read.text[pos] == "]":
            break  # the end of the array (or of a truncated file): the reader judges the rest
        try:
            _, end = raw_decode(read.text, pos)
        except ValueError:  # broken JSON, or a number the reader refuses: the reader reports it
            if read.more():
                continue
            break
        if end == len(read.text) and read.more():
            continue  # a value at the very end of the buffer may go on in the next block
        count += 1
        pos = read.skip(end)
        if pos < len(read.text) and read.text[pos] == ",":
            if end - start >= size:
                yield read.piece(start, end, index)
                index += count
                count = 0
                read.drop(pos)
                pos, start = 0, -1
                continue
            pos += 1
            continue
        break  # "]" or something the reader will report
    while read.more():
        pass
    if start >= 0 and (count or read.text[start:].strip(" \t\r\n]")):
        yield read.piece(start, None, index)
