"""Where ``--jobs`` cuts BibTeX and biblatex input (:meth:`BibtexReader.split`).

Before an entry (``@type{`` at the start of a line, braces balanced before it) that follows
another entry, so that ``@comment``/``@preamble`` blocks stay with the entry after them. A file
with ``@string`` definitions, a ``@preamble`` (it may define commands) or ``crossref``/``xdata``
fields is not cut: the reader resolves those across the whole file. Each piece is told the
file's encoding (:mod:`bibconv.formats.encoding`). (An entry key repeated in
another piece is reported by the parent, :meth:`bibconv.parallel.parent._Parent.duplicates`.)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import IO

from bibconv.formats.encoding import told
from bibconv.parallel.pieces import Piece, pieces, wide
from bibconv.patterns import lazy
from bibconv.textio import single_byte_start

__all__ = ["split"]

_BIBTEX_BLOCK = lazy(rb"^[ \t]*@[ \t]*(\w*)[ \t]*[{(]", re.M)
_BIBTEX_SPECIAL = {b"comment", b"preamble", b"string"}
_BIBTEX_STRING = lazy(rb"@[ \t]*string[ \t]*[{(]", re.I)
_BIBTEX_PREAMBLE = lazy(rb"@[ \t]*preamble[ \t]*[{(]", re.I)
_BIBTEX_REF = lazy(rb"\b(?:crossref|xdata)[ \t]*=", re.I)
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_BLOCK = 1 << 22


def _bibtex_cut(buffer: bytes) -> int:
    """Before the last entry that follows an entry with balanced braces before it (0: none).

    The block starts are looked for in a window at the end of the buffer, widened until a cut
    is found or the window is the whole buffer (a block's kind is known for all but the first).
    """
    window = 1 << 16
    while True:
        start = max(len(buffer) - window, 0)
        blocks = [(m.start(), m[1].lower()) for m in _BIBTEX_BLOCK.finditer(buffer, start)]
        best = 0
        if blocks:  # the brace depth before each block, counted forward once
            at = blocks[0][0]
            depth = buffer.count(b"{", 0, at) - buffer.count(b"}", 0, at)
            for (before, previous), (at, kind) in itertools.pairwise(blocks):
                depth += buffer.count(b"{", before, at) - buffer.count(b"}", before, at)
                if depth == 0 and kind not in _BIBTEX_SPECIAL and previous not in _BIBTEX_SPECIAL:
                    best = at
        if best or start == 0:
            return best
        window *= 4


def _lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The input in blocks of about :data:`_BLOCK` bytes that end at line ends."""
    tail = b""
    for block in iter(lambda: stream.read(_BLOCK), b""):
        block = tail + block
        cut = block.rfind(b"\n") + 1
        if cut:
            yield block[:cut]
        tail = block[cut:]
    if tail:
        yield tail


def _bibtex_whole_file(stream: IO[bytes]) -> bool:
    """Whether reading this input needs all of it at once: strings, commands, cross-references.
    It is read in blocks of whole lines (no match spans lines); ``crossref =`` and ``xdata =``
    are only searched for in a block whose lower-cased text has the words."""
    for block in _lines(stream):
        if _BIBTEX_STRING.search(block) or _BIBTEX_PREAMBLE.search(block):
            return True  # macros and commands the entries after them use
        lowered = block.translate(_LOWER)
        if (b"crossref" in lowered or b"xdata" in lowered) and _BIBTEX_REF.search(block):
            return True
    return False


def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """BibTeX/biblatex: before entries, unless strings, commands or cross-references need the whole
    file."""
    if wide(stream):
        return None
    whole = _bibtex_whole_file(stream)
    empty = stream.tell() == 0
    stream.seek(0)
    if whole or empty:
        return None
    return told(pieces(stream, size, _bibtex_cut), single_byte_start(stream))
