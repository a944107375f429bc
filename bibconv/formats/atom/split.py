"""Where ``--jobs`` cuts Atom feeds (:meth:`AtomReader.split`): between frames, before an ``<entry>``
(:mod:`bibconv.formats.atom.frames`, which the reader reads by too).

Every piece after the first starts with the document's prolog (up to the ``<feed …>`` start tag),
a line end and as many spaces as the entry's line has characters before it, so that the parser
reports the lines and columns of the whole input; every piece but the last ends with ``</feed>``.
RSS feeds are not cut (their channel data reaches the items).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from bibconv.formats.atom.frames import Frames, chars, prolog_end
from bibconv.formats.atom.xml_stream import PARSER_OPTIONS
from bibconv.parallel.pieces import Piece, pieces, wide

__all__ = ["split"]

_ATOM = "http://www.w3.org/2005/Atom"
_ATOM_END = b"</feed>\n"
_HEAD = 1 << 16


def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """Atom: before ``<entry>`` elements, each piece a whole ``<feed>`` document."""
    if wide(stream):
        return None
    head = stream.read(_HEAD)
    stream.seek(0)
    end = prolog_end(head, "feed")
    root = _root(head[:end]) if end is not None else None
    if end is None or root is None or root.tag != f"{{{_ATOM}}}feed":
        return None
    nsmap = root.nsmap
    frames = Frames("entry", lambda prefix: nsmap.get(prefix) == _ATOM)
    return _atom_pieces(stream, size, head[:end] + b"\n", frames)


def _root(prolog: bytes) -> Any:
    """The root element of ``prolog`` (its start tag, with the namespaces it declares)."""
    from lxml import etree

    parser = etree.XMLPullParser(events=("start",), **PARSER_OPTIONS)
    try:
        parser.feed(prolog)
    except etree.XMLSyntaxError:
        return None
    return next((elem for _event, elem in parser.read_events()), None)


def _atom_pieces(stream: IO[bytes], size: int, prolog: bytes, frames: Frames) -> Iterator[Piece]:
    def cut(buffer: bytes) -> int:
        """Before the last frame that starts after the buffer's first byte."""
        starts = frames.starts(buffer)
        return next((at for at in reversed(starts) if at > 0), 0)

    lines = prolog.count(b"\n")
    column = 0  # characters before the piece's start on its line
    previous: Piece | None = None
    for piece in pieces(stream, size, cut):
        if previous is not None:
            yield Piece(previous.data + _ATOM_END, previous.line)
            data = prolog + b" " * column + piece.data
            previous = Piece(data, piece.line - lines)
        else:
            previous = piece
        newline = piece.data.rfind(b"\n")
        tail = piece.data[newline + 1 :]
        column = (0 if newline >= 0 else column) + chars(tail)
    if previous is not None:
        yield previous
