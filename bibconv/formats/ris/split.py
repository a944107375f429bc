"""Where ``--jobs`` cuts RIS input (:meth:`RisReader.split`): after an ``ER`` line that is
followed by a ``TY`` line or a record counter. Each piece is told the file's encoding
(:mod:`bibconv.formats.encoding`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from bibconv.formats.encoding import told
from bibconv.parallel.pieces import Piece, pieces, wide
from bibconv.patterns import lazy
from bibconv.textio import single_byte_start

__all__ = ["split"]

_RIS_END = lazy(rb"^ER[ \t]*-[^\r\n]*(?:\r\n|\r|\n)(?=(?:[ \t]*(?:\r\n|\r|\n))*(?:TY[ \t]|\d+\.))", re.M)


def _ris_cut(buffer: bytes) -> int:
    """After the last ``ER`` line that a ``TY`` line or a record counter follows (0: none)."""
    end = len(buffer)
    while (at := buffer.rfind(b"ER", 0, end)) >= 0:
        if at == 0 or buffer[at - 1] == 0x0A:  # at a line start, as ^ in _RIS_END
            found = _RIS_END.match(buffer, at)
            if found:
                return found.end()
        end = at + 1
    return 0


def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """RIS: after ``ER`` lines that another record follows."""
    if wide(stream):
        return None
    first = single_byte_start(stream)
    return told(pieces(stream, size, _ris_cut), first)
