"""Where ``--jobs`` cuts Atom feeds (:meth:`AtomReader.split`): before an ``<entry>``.

Every piece after the first starts with the document's prolog and ``<feed …>`` start tag, every
piece but the last ends with ``</feed>``. RSS feeds are not cut (their channel data reaches the
items).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from bibconv.parallel.pieces import Piece, pieces, wide

__all__ = ["split"]

_ATOM_ROOT = re.compile(rb"<(?:[\w.-]+:)?(feed|rss|RDF)\b[^>]*>")
_ATOM_ENTRY = re.compile(rb"<(?:[\w.-]+:)?entry[\s>/]")
_ATOM_END = b"</feed>\n"


def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """Atom: before ``<entry>`` elements, each piece a whole ``<feed>`` document."""
    if wide(stream):
        return None
    head = stream.read(1 << 16)
    stream.seek(0)
    root = _ATOM_ROOT.search(head)
    if root is None or root[1] != b"feed":
        return None
    prolog = head[: root.end()] + b"\n"
    return _atom_pieces(stream, size, prolog, prolog.count(b"\n"))


def _atom_cut(buffer: bytes) -> int:
    """Before the last ``<entry`` (any prefix) after the first byte, looked for from the end."""
    end = len(buffer)
    while (at := buffer.rfind(b"entry", 1, end)) > 0:
        start = buffer.rfind(b"<", 0, at)  # an element name holds no "<": its own
        if start >= 1:
            found = _ATOM_ENTRY.match(buffer, start)
            if found and found.end() == at + 6:
                return start
        end = at + 4
    return 0


def _atom_pieces(stream: IO[bytes], size: int, prolog: bytes, prolog_lines: int) -> Iterator[Piece]:
    first = True
    previous: Piece | None = None
    for piece in pieces(stream, size, _atom_cut):
        if previous is not None:
            yield previous
        if first:
            data, line = piece.data, piece.line
        else:
            data, line = prolog + piece.data, piece.line - prolog_lines
        previous = Piece(data + _ATOM_END, line)
        first = False
    if previous is not None:
        yield Piece(previous.data[: -len(_ATOM_END)], previous.line)
