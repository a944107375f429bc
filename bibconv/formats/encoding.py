"""The encoding a .bib or RIS file is read in: UTF-8, or Windows-1252 for a file in a single-byte one.

Old .bib files are in Latin-1 or Windows-1252, and so are RIS files exported as "ANSI" (EndNote,
older publisher exports). :func:`bibconv.textio.single_byte_start` tells them from UTF-8 files
with a few bytes that are not UTF-8, once for the whole input, and every piece of it (``--jobs``)
is told the answer, so that all pieces are read alike and the warning is given once, where a
reading of the whole file gives it.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from bibconv.textio import chain_head, seekable, single_byte_start

if TYPE_CHECKING:  # the package bibconv.parallel is loaded only for --jobs
    from bibconv.parallel.pieces import Piece

__all__ = ["HEAD_SIZE", "Encoding", "read_as_single_byte", "streamed_single_byte", "told"]

HEAD_SIZE = 1 << 16
"""Bytes of a stream that cannot seek that decide its encoding (:func:`streamed_single_byte`)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Encoding:
    """A piece's state: where the input's first byte that is not UTF-8 is, from the piece's
    start, when the input is read as Windows-1252 (negative: before the piece); else ``None``."""

    single_byte: int | None = None


def read_as_single_byte(stream: IO[bytes], state: Any) -> int | None:
    """The ``single_byte`` offset for :func:`bibconv.textio.open_text`: as a piece was told,
    else found in ``stream`` (seekable: read whole, from where it is, and left there)."""
    if isinstance(state, Encoding):
        return state.single_byte
    return single_byte_start(stream)


def streamed_single_byte(stream: IO[bytes], state: Any) -> tuple[IO[bytes], int | None]:
    """:func:`read_as_single_byte` for a reader that streams: a stream that cannot seek (a pipe,
    lines given one by one) is judged by its first :data:`HEAD_SIZE` bytes (to the end of the line
    they stop in), which are read ahead and given back in the stream returned."""
    if isinstance(state, Encoding) or seekable(stream):
        return stream, read_as_single_byte(stream, state)
    head = stream.read(HEAD_SIZE)
    if head and not head.endswith(b"\n"):
        head += stream.readline()
    return chain_head(head, stream), single_byte_start(io.BytesIO(head))


def told(pieces: Iterator[Piece], first: int | None) -> Iterator[Piece]:
    """``pieces`` of an input whose first byte that is not UTF-8 is at ``first`` (``None``: a
    UTF-8 input), each with its :class:`Encoding`."""
    offset = 0
    for piece in pieces:
        yield dataclasses.replace(piece, state=Encoding(None if first is None else first - offset))
        offset += len(piece.data)
