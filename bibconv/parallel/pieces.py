"""Pieces of input for :mod:`bibconv.parallel`, and the loop that cuts a stream into them.

A reader's optional ``split(stream, size)`` (see :class:`bibconv.registry.Reader`) returns
``None`` when an input cannot be cut without changing what the reader makes of it, or else an
iterator of :class:`Piece` objects: bytes that the reader reads on their own exactly as it reads
that stretch of the whole input, with the line and item numbers of the piece's start so that
reports still point into the original file. :func:`pieces` does the reading and the cutting for
a format that only has to say where a piece may end; :func:`split_lines` cuts at line ends.
Text in UTF-16 or UTF-32 is never cut (:func:`wide`: its line ends are not single bytes).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["Cut", "Piece", "Splitter", "line_cut", "pieces", "split_lines", "wide"]


@dataclass(frozen=True, slots=True)
class Piece:
    """Input that reads on its own; its line ``n`` is line ``n + line - 1`` of the whole input,
    its item ``i`` (JSON) item ``i + index``, a column ``c`` of its first line column ``c + column``.

    A ``guess`` is right only if its reader reads it with no error; when it is not, the reader's
    ``resume(stream, size, at)`` cuts the rest again (see :mod:`bibconv.formats.csljson.split`).
    Its ``line`` and ``index`` are not counted (0; the first piece's are 1 and 0): it starts on
    the line after the previous piece's last line, with the item after its last item, which the
    reader of the previous piece finds. ``offset`` is the byte of the whole input where it
    starts, for ``resume`` to cut again from there. A guess with no ``data`` says that the
    layout gave out: the rest must be cut by ``resume``. ``state`` is what the reader knows of
    the input before the piece when it reads the whole input (what its ``split`` found there, in
    a form of its own), given to the piece's reader as :attr:`bibconv.registry.ReadContext.state`.

    >>> Piece(b"@book{a,}\\n", line=40).line
    40
    """

    data: bytes
    line: int = 1
    index: int = 0
    guess: bool = False
    offset: int = 0
    column: int = 0
    state: Any = None


Splitter = Callable[[IO[bytes], int], "Iterator[Piece] | None"]
Cut = Callable[[bytes], int]

_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def wide(stream: IO[bytes]) -> bool:
    """Whether ``stream`` (at its start; left there) opens with a UTF-16 or UTF-32 byte-order mark."""
    head = stream.read(4)
    stream.seek(0)
    return head.startswith(_WIDE_BOMS)


def pieces(stream: IO[bytes], size: int, cut: Cut) -> Iterator[Piece]:
    """Read ``size`` bytes at a time; ``cut(buffer)`` tells where a piece may end (0: not yet).

    After a buffer with no place to cut, the next try waits until the buffer has doubled, so
    that input which cannot be cut for long (a brace never closed) costs linear time.

    >>> import io
    >>> [p.line for p in pieces(io.BytesIO(b"a\\nb\\nc\\n"), 2, lambda b: b.rfind(b"\\n") + 1)]
    [1, 2, 3]
    """
    parts: list[bytes] = []
    pending = 0  # bytes in parts
    tried = 0  # the buffer's length at the last try that found no cut
    line = 1
    while True:
        block = stream.read(size)
        if not block:
            if parts:
                yield Piece(b"".join(parts), line)
            return
        parts.append(block)
        pending += len(block)
        if pending < 2 * tried:
            continue
        buffer = b"".join(parts)
        end = cut(buffer)
        if end <= 0:
            parts, tried = [buffer], pending
            continue
        piece, rest = buffer[:end], buffer[end:]
        parts, pending, tried = [rest] if rest else [], len(rest), 0
        yield Piece(piece, line)
        line += piece.count(b"\n")


def line_cut(buffer: bytes) -> int:
    """After the last line end of ``buffer`` (0: none)."""
    return buffer.rfind(b"\n") + 1


def split_lines(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """Pieces that end at line ends, for formats with one record per line.

    >>> import io
    >>> [p.data for p in split_lines(io.BytesIO(b'{"a": 1}\\n{"b": 2}\\n'), 4)]
    [b'{"a": 1}\\n', b'{"b": 2}\\n']
    """
    return None if wide(stream) else pieces(stream, size, line_cut)
