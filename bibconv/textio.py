"""Bytes to text for readers: byte-order marks, UTF-16, and precise decoding errors."""

from __future__ import annotations

import codecs
import io
import itertools
import shutil
import tempfile
from collections.abc import Iterator
from typing import IO

from bibconv.errors import ParseError
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = [
    "ESCAPED_BYTE",
    "JSON_SURROGATE",
    "chain_head",
    "decode_head",
    "iter_lines",
    "open_text",
    "seekable",
    "single_byte_start",
    "sniff_encoding",
    "spooled",
]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

# Windows-1252 for the bytes 0x80-0x9f it defines; the other bytes as in Latin-1.
_CP1252 = {
    b: bytes([b]).decode("cp1252") for b in range(0x80, 0xA0) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
}

_SCAN_BLOCK = 1 << 16
"""Bytes decoded at a time by :func:`single_byte_start`."""
_SPOOL_SIZE = 1 << 24
"""Bytes of a stream :func:`spooled` keeps in memory; the rest goes to a temporary file."""
_BAD_BYTE = lazy("[\udc80-\udcff]")
"""What ``surrogateescape`` makes of each byte that is not UTF-8."""

# Lone surrogates: the ``surrogateescape`` stand-ins for bytes that are not valid text
# (and U+DC00 for NUL) that lenient reads leave for :mod:`bibconv.limits` to find.
ESCAPED_BYTE = lazy("[\udc00-\udcff]")
# A JSON escape of a surrogate: half of a pair, or a lone one that a JSON parser keeps.
JSON_SURROGATE = lazy(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def sniff_encoding(head: bytes, default: str = "utf-8") -> str:
    """The encoding a byte-order mark announces, else ``default``."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    return default


def decode_head(head: bytes) -> str:
    """Decode the first bytes of an input for sniffing, forgiving a cut character."""
    return head.decode(sniff_encoding(head), errors="replace").lstrip("\ufeff")


def seekable(stream: IO[bytes]) -> bool:
    """Whether ``stream`` can seek (``False`` for one that cannot say, or is closed)."""
    try:
        return stream.seekable()
    except (AttributeError, ValueError):
        return False


def spooled(stream: IO[bytes]) -> IO[bytes]:
    """``stream`` if it is seekable, else a seekable copy of it (standard input, a pipe), for a
    reader that looks at the whole input before it reads its records."""
    if seekable(stream):
        return stream
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_SIZE)  # noqa: SIM115 - returned
    shutil.copyfileobj(stream, spool)
    spool.seek(0)
    return spool  # type: ignore[return-value,unused-ignore]


def single_byte_start(stream: IO[bytes]) -> int | None:
    """Where the first byte that is not UTF-8 is in a file in a single-byte encoding (Latin-1,
    Windows-1252); ``None`` for a UTF-8 file, even one with a few bytes that are not UTF-8.

    A file is taken to be in a single-byte encoding when it is not valid UTF-8 and its bytes
    beyond ASCII make fewer UTF-8 characters than they leave invalid: in Latin-1 text a letter
    followed by bytes that happen to continue it (``ß”``) is rare, while a UTF-8 file with an
    entry in Latin-1 pasted in has far more good characters than bad bytes. The stream is read
    from where it is and left there.
    """
    start = stream.tell()
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")  # a bad byte: one stand-in
    first: int | None = None
    fed = characters = invalid = 0  # fed: the bytes given to the decoder
    for block in itertools.chain(iter(lambda: stream.read(_SCAN_BLOCK), b""), [b""]):
        at = fed - len(decoder.getstate()[0])  # where the block's text starts (a cut character held)
        fed += len(block)
        text = decoder.decode(block, final=not block)
        if text.isascii():
            continue
        bad = len(_BAD_BYTE.findall(text))
        found = _BAD_BYTE.search(text) if first is None else None
        if found is not None:
            first = at + len(text[: found.start()].encode("utf-8", "surrogateescape"))
        invalid += bad
        characters += len(text) - len(text.encode("ascii", "ignore")) - bad
    stream.seek(start)
    return first if first is not None and characters < invalid else None


class _LineCountingDecoder(io.TextIOBase):
    """Text stream over bytes that reports invalid bytes with their line and column.

    With ``single_byte`` (see :func:`open_text`) the bytes are read as Windows-1252, with a
    warning at that offset. Otherwise an invalid byte raises a :class:`ParseError` in strict
    mode; in lenient mode it becomes a lone surrogate (``surrogateescape``) and
    :func:`bibconv.limits.checked_records` skips the record that holds it; ``ctx.escapes``
    then tells it to look.
    """

    def __init__(
        self, raw: IO[bytes], encoding: str, ctx: ReadContext, single_byte: int | None = None
    ) -> None:
        self._raw = raw
        self._decoder = codecs.getincrementaldecoder(encoding)("strict")
        self._ctx = ctx
        self._encoding = encoding
        self._single_byte = single_byte is not None
        self._warn_at = single_byte if single_byte is not None and single_byte >= 0 else None
        self._offset = 0  # bytes read
        self._line = 1
        self._column = 0
        self._pending = ""

    def readable(self) -> bool:
        return True

    def _fill(self, size: int = 1 << 16) -> bool:
        chunk = self._raw.read(size)
        if self._single_byte:
            text = chunk.decode("latin-1").translate(_CP1252)
            at = -1 if self._warn_at is None else self._warn_at - self._offset
            if 0 <= at < len(chunk):
                self._warn_single_byte(text[:at], chunk[at])
            self._offset += len(chunk)
        else:
            try:
                text = self._decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                text = self._recover(exc, final=not chunk)
        if "\x00" in text:
            text = self._nul(text)
        newlines = text.count("\n")
        if newlines:
            self._line += newlines
            self._column = len(text) - text.rfind("\n") - 1
        else:
            self._column += len(text)
        self._pending += text
        return bool(chunk)

    def _nul(self, text: str) -> str:
        """NUL is no text character: an error in strict mode, else it skips its record."""
        if self._ctx.strict:
            line, column = self._position(text[: text.index("\x00")])
            raise ParseError(
                "NUL byte (0x00) in the text: is this a binary file, or UTF-16 without a byte-order mark?",
                self._ctx.span(line, column),
            )
        self._ctx.escapes += text.count("\x00")
        return text.replace("\x00", "\udc00")

    def _position(self, prefix: str) -> tuple[int, int]:
        """The line and column of the character after ``prefix``, text after what is read."""
        line = self._line + prefix.count("\n")
        column = len(prefix) - prefix.rfind("\n") if "\n" in prefix else self._column + len(prefix) + 1
        return line, column

    def _warn_single_byte(self, prefix: str, byte: int) -> None:
        line, column = self._position(prefix)
        self._warn_at = None
        self._ctx.warn(
            f"byte {byte:#04x} is not UTF-8: reading the file as Windows-1252 (Latin-1);"
            " save it as UTF-8 to be sure of its characters",
            line,
            column=column,
        )

    def _recover(self, exc: UnicodeDecodeError, final: bool) -> str:
        """Text of the chunk that failed to decode: lenient, or an error."""
        data: bytes = exc.object
        good = data[: exc.start].decode(self._encoding, errors="replace")
        line, column = self._position(good)
        byte = data[exc.start]
        if self._ctx.strict:
            raise ParseError(
                f"invalid {self._encoding} byte {byte:#04x}"
                " (save the file as UTF-8, or convert it with iconv)",
                self._ctx.span(line, column),
            ) from None
        if self._encoding != "utf-8":  # no record boundaries to resync on: keep the rest
            self._ctx.warn(f"invalid {self._encoding} bytes replaced by U+FFFD", line, column=column)
            self._decoder = codecs.getincrementaldecoder(self._encoding)("replace")
        else:
            self._decoder = codecs.getincrementaldecoder(self._encoding)("surrogateescape")
            self._ctx.escapes += 1  # and more, maybe: from here on every record is looked at
        return self._decoder.decode(data, final=final)

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            while self._fill():
                pass
            out, self._pending = self._pending, ""
            return out
        while len(self._pending) < size and self._fill(max(size, 1 << 16)):
            pass
        out, self._pending = self._pending[:size], self._pending[size:]
        return out

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        while "\n" not in self._pending and self._fill():
            pass
        cut = self._pending.find("\n")
        end = len(self._pending) if cut < 0 else cut + 1
        if size is not None and size >= 0:
            end = min(end, size)
        out, self._pending = self._pending[:end], self._pending[end:]
        return out

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        return self

    def __next__(self) -> str:  # type: ignore[override]
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def open_text(
    stream: IO[bytes], ctx: ReadContext, default: str = "utf-8", single_byte: int | None = None
) -> IO[str]:
    """A text view of ``stream``: BOM removed, UTF-16/32 by BOM, bad bytes reported by line.

    ``single_byte`` (an offset from :func:`single_byte_start`) reads a file in a single-byte
    encoding as Windows-1252, a superset of Latin-1, with a warning naming the byte at that
    offset (none when it is negative: a piece of a file that had the warning before it). In
    lenient mode an invalid byte skips the record that holds it (see
    :class:`_LineCountingDecoder`).

    Newlines are left as they are (``\\r\\n`` stays), so readers that count lines
    must treat ``\\r`` themselves; :func:`iter_lines` does.
    """
    peek = stream.read(4)
    encoding = sniff_encoding(peek, default)
    if encoding != "utf-8":  # a byte-order mark said what the file is in
        single_byte = None
    decoder = _LineCountingDecoder(chain_head(peek, stream), encoding, ctx, single_byte)
    return decoder  # type: ignore[return-value]


def chain_head(head: bytes, stream: IO[bytes]) -> IO[bytes]:
    """A binary stream that yields ``head`` and then the rest of ``stream`` (after a peek)."""
    if not head:
        return stream
    return io.BufferedReader(_Prefixed(head, stream))


class _Prefixed(io.RawIOBase):
    """A raw stream that yields ``prefix`` then the rest of ``stream``."""

    def __init__(self, prefix: bytes, stream: IO[bytes]) -> None:
        self._prefix = prefix
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._stream.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n


def iter_lines(text: IO[str]) -> Iterator[tuple[int, str]]:
    """``(line number, line without its end)`` for every line; CR, LF and CRLF all end a line.

    Each chunk is split once, so a line of any length costs time in proportion to it.
    """
    number = 0
    parts: list[str] = []  # the pieces of the line being read
    held_cr = False
    for chunk in iter(lambda: text.read(1 << 16), ""):
        if held_cr:
            chunk = "\r" + chunk
        # A chunk ending in CR may be the first half of a CRLF: decide with the next one.
        held_cr = chunk.endswith("\r")
        lines = chunk[: -1 if held_cr else None].replace("\r\n", "\n").replace("\r", "\n").split("\n")
        parts.append(lines[0])
        if len(lines) == 1:
            continue
        number += 1
        yield number, "".join(parts)
        for line in lines[1:-1]:
            number += 1
            yield number, line
        parts = [lines[-1]]
    tail = "".join(parts)
    if tail or held_cr:
        yield number + 1, tail
