"""Cutting raw input at record boundaries, for the built-in formats (see :mod:`bibconv.parallel`).

A splitter takes a binary file opened for reading (at its start, seekable) and a target piece
size. It returns ``None`` when this input cannot be cut without changing what the reader makes
of it, or else an iterator of :class:`Piece` objects: bytes that the format's reader reads on
their own exactly as it reads that stretch of the whole input, with the line and item numbers of
the piece's start so that reports still point into the original file.

Where each built-in format is cut:

* JSON lines (CSL-JSON lines; ``arxiv-jsonl``'s own ``split`` uses :func:`split_lines` too): at
  any line end.
* CSL-JSON arrays: between two items; each piece is ``[`` + its items + ``]`` (the first keeps
  the original start, the last the original end). An array laid out one item after another at
  the same indent is cut by that layout, in pieces that are guesses for the reader to confirm
  (:attr:`Piece.guess`); other arrays, and the rest of one where a guess failed, are cut after
  items parsed with :meth:`json.JSONDecoder.raw_decode`.
* BibTeX: before an entry (``@type{`` at the start of a line, braces balanced before it) that
  follows another entry, so that ``@comment``/``@preamble`` blocks stay with the entry after
  them. A file with ``@string`` definitions, ``crossref``/``xdata`` fields or a repeated entry
  key is not cut: the reader resolves or reports those across the whole file.
* RIS: after an ``ER`` line that is followed by a ``TY`` line or a record counter.
* Atom feeds (root ``<feed>``): before an ``<entry>``. Every piece after the first starts with
  the document's prolog and ``<feed …>`` start tag, every piece but the last ends with
  ``</feed>``. RSS feeds are not cut (their channel data reaches the items).

Text in UTF-16 or UTF-32 is never cut (its line ends are not single bytes).
"""

from __future__ import annotations

import codecs
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

__all__ = ["BUILTIN_SPLITTERS", "Piece", "resume_csljson", "split_lines"]


@dataclass(frozen=True, slots=True)
class Piece:
    """Input that reads on its own; its line ``n`` is line ``n + line - 1`` of the whole input,
    its item ``i`` (JSON) item ``i + index``, a column ``c`` of its first line column ``c + column``.

    A ``guess`` (see :func:`split_csljson`) is right only if its reader reads it with no error.
    Its ``line`` and ``index`` are not counted (0; the first piece's are 1 and 0): it starts on
    the line after the previous piece's last line, with the item after its last item, which the
    reader of the previous piece finds. ``offset`` is the byte of the whole input where it
    starts, for :func:`resume_csljson` to cut again from there. A guess with no ``data`` says
    that the layout gave out: the rest must be cut by :func:`resume_csljson`.
    """

    data: bytes
    line: int = 1
    index: int = 0
    guess: bool = False
    offset: int = 0
    column: int = 0


Splitter = Callable[[IO[bytes], int], "Iterator[Piece] | None"]
Cut = Callable[[bytes], int]

_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_NONBLANK_LINE = re.compile(rb"^[ \t\r]*\S", re.M)
_BIBTEX_BLOCK = re.compile(rb"^[ \t]*@[ \t]*(\w*)[ \t]*[{(]", re.M)
_BIBTEX_SPECIAL = {b"comment", b"preamble", b"string"}
_BIBTEX_STRING = re.compile(rb"@[ \t]*string[ \t]*[{(]", re.I)
_BIBTEX_REF = re.compile(rb"\b(?:crossref|xdata)[ \t]*=", re.I)
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_BLOCK = 1 << 22
_BIBTEX_KEY = re.compile(rb"@[ \t]*(\w+)[ \t]*[{(][ \t]*([^,\s{}()=]+)[ \t]*,")
_RIS_END = re.compile(
    rb"^ER[ \t]*-[^\r\n]*(?:\r\n|\r|\n)(?=(?:[ \t]*(?:\r\n|\r|\n))*(?:TY[ \t]|\d+\.))", re.M
)
_ATOM_ROOT = re.compile(rb"<(?:[\w.-]+:)?(feed|rss|RDF)\b[^>]*>")
_ATOM_ENTRY = re.compile(rb"<(?:[\w.-]+:)?entry[\s>/]")
_ATOM_END = b"</feed>\n"
# "[", then the first item alone on its line: its indent.
_ITEM_LAYOUT = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*\[[ \t]*\r?\n(?:[ \t]*\r?\n)*([ \t]*)\{[ \t]*\r?\n")


def _wide(stream: IO[bytes]) -> bool:
    head = stream.read(4)
    stream.seek(0)
    return head.startswith(_WIDE_BOMS)


def _pieces(stream: IO[bytes], size: int, cut: Cut) -> Iterator[Piece]:
    """Read ``size`` bytes at a time; ``cut(buffer)`` tells where a piece may end (0: not yet).

    After a buffer with no place to cut, the next try waits until the buffer has doubled, so
    that input which cannot be cut for long (a brace never closed) costs linear time.
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


def _line_cut(buffer: bytes) -> int:
    return buffer.rfind(b"\n") + 1


def split_lines(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """Pieces that end at line ends, for formats with one record per line."""
    return None if _wide(stream) else _pieces(stream, size, _line_cut)


def split_csljson(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """CSL-JSON: a top-level array between items, JSON lines at line ends, one object not at all.

    An array laid out one item after another at the same indent (``json.dumps(indent=…)``,
    Zotero, citeproc-js) is cut by that layout alone, without parsing it: pieces that are
    guesses, which :mod:`bibconv.parallel` has confirmed by the reader (a wrong cut, inside an
    item, leaves a piece that is not an array of items); when one is not, the rest of the
    input is cut again by :func:`resume_csljson`. Other arrays are cut by parsing each item
    (:meth:`json.JSONDecoder.raw_decode`).
    """
    if _wide(stream):
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
    for piece in _pieces(stream, size, _line_cut):
        yield Piece(piece.data, piece.line, index)
        index += len(_NONBLANK_LINE.findall(piece.data))


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def resume_csljson(stream: IO[bytes], size: int, at: Piece) -> Iterator[Piece]:
    """The pieces of a CSL-JSON array from the guessed piece ``at`` on, each item parsed."""
    stream.seek(at.offset)
    return _split_json_array(stream, size, at if at.offset else None)


def _guess_json_array(stream: IO[bytes], size: int, indent: bytes) -> Iterator[Piece]:
    """Cut where a line ``<indent>},`` is followed by a line ``<indent>{``; every piece a guess.

    Each piece ends with the ``}`` of such a line (a ``]`` added), the next one starts on the
    line after (a ``[`` before it). Where no such place comes for ``8 * size`` bytes, a guess
    with no data hands the rest over to :func:`resume_csljson`.
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


def _split_json_array(stream: IO[bytes], size: int, at: Piece | None = None) -> Iterator[Piece]:
    decoder = codecs.getincrementaldecoder("utf-8" if at else "utf-8-sig")("surrogateescape")
    raw_decode = json.JSONDecoder().raw_decode
    text = decoder.decode(stream.read(size))
    eof = False

    def more() -> bool:
        nonlocal text, eof
        if eof:
            return False
        block = stream.read(size)
        eof = not block
        text += decoder.decode(block, final=eof)
        return True

    pos = 0 if at else _skip_space(text, 0) + 1  # after "["
    line = at.line if at else 1  # line of text[0]
    index = at.index if at else 0
    before = 0  # characters before text[0] on its line

    def column(at: int) -> int:
        """The column shift of a piece "[" + text[at:]."""
        return at - text.rfind("\n", 0, at) - 2 if "\n" in text[:at] else before + at - 1

    start = -1  # where the current run of items starts
    count = 0
    while True:
        pos = _skip_space(text, pos)
        while pos >= len(text) and more():
            pos = _skip_space(text, pos)
        if start < 0:
            start = pos
        if pos >= len(text) or text[pos] == "]":
            break  # the end of the array (or of a truncated file): the reader judges the rest
        try:
            _, end = raw_decode(text, pos)
        except json.JSONDecodeError:
            if more():
                continue
            break
        if end == len(text) and more():
            continue  # a value at the very end of the buffer may go on in the next block
        count += 1
        pos = _skip_space(text, end)
        while pos >= len(text) and more():
            pos = _skip_space(text, pos)
        if pos < len(text) and text[pos] == ",":
            if end - start >= size:
                yield Piece(
                    ("[" + text[start:end] + "]").encode("utf-8", "surrogateescape"),
                    line + text.count("\n", 0, start),
                    index,
                    column=column(start),
                )
                index += count
                count = 0
                line += text.count("\n", 0, pos + 1)
                before = column(pos + 1) + 1
                text, pos, start = text[pos + 1 :], 0, -1
                continue
            pos += 1
            continue
        break  # "]" or something the reader will report
    while more():
        pass
    if start >= 0 and (count or text[start:].strip(" \t\r\n]")):
        data = ("[" + text[start:]).encode("utf-8", "surrogateescape")
        yield Piece(data, line + text.count("\n", 0, start), index, column=column(start))


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
    """Whether reading this input needs all of it at once: strings, cross-references, repeated
    keys. It is read in blocks of whole lines (no match spans lines); ``crossref =`` and
    ``xdata =`` are only searched for in a block whose lower-cased text has the words."""
    keys: set[bytes] = set()
    for block in _lines(stream):
        if _BIBTEX_STRING.search(block):
            return True
        lowered = block.translate(_LOWER)
        if (b"crossref" in lowered or b"xdata" in lowered) and _BIBTEX_REF.search(block):
            return True
        for match in _BIBTEX_KEY.finditer(block):
            if match[1].lower() in _BIBTEX_SPECIAL:
                continue
            key = match[2].lower()
            if key in keys:  # the reader reports it: keep both in one piece
                return True
            keys.add(key)
    return False


def split_bibtex(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """BibTeX/biblatex: before entries, unless strings, cross-references or repeated keys need the
    whole file."""
    if _wide(stream):
        return None
    whole = _bibtex_whole_file(stream)
    empty = stream.tell() == 0
    stream.seek(0)
    if whole or empty:
        return None
    return _pieces(stream, size, _bibtex_cut)


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


def split_ris(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """RIS: after ``ER`` lines that another record follows."""
    return None if _wide(stream) else _pieces(stream, size, _ris_cut)


def split_atom(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
    """Atom: before ``<entry>`` elements, each piece a whole ``<feed>`` document."""
    if _wide(stream):
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
    for piece in _pieces(stream, size, _atom_cut):
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


BUILTIN_SPLITTERS: dict[str, Splitter] = {
    "csljson": split_csljson,
    "bibtex": split_bibtex,
    "biblatex": split_bibtex,
    "ris": split_ris,
    "atom": split_atom,
}
"""Splitters for built-in formats whose readers offer no ``split`` method of their own."""
