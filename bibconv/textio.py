"""Bytes to text for readers: byte-order marks, UTF-16, and precise decoding errors."""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from typing import IO

from bibconv.errors import ParseError
from bibconv.registry import ReadContext

__all__ = ["chain_head", "decode_head", "iter_lines", "open_text", "sniff_encoding"]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def sniff_encoding(head: bytes, default: str = "utf-8") -> str:
    """The encoding a byte-order mark announces, else ``default``."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    return default


def decode_head(head: bytes) -> str:
    """Decode the first bytes of an input for sniffing, forgiving a cut character."""
    return head.decode(sniff_encoding(head), errors="replace").lstrip("\ufeff")


class _LineCountingDecoder(io.TextIOBase):
    """Text stream over bytes that reports invalid bytes with their line and column."""

    def __init__(self, raw: IO[bytes], encoding: str, ctx: ReadContext) -> None:
        self._raw = raw
        self._decoder = codecs.getincrementaldecoder(encoding)("strict")
        self._ctx = ctx
        self._encoding = encoding
        self._line = 1
        self._column = 0
        self._pending = ""

    def readable(self) -> bool:
        return True

    def _fill(self, size: int = 1 << 16) -> bool:
        chunk = self._raw.read(size)
        try:
            text = self._decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            good = exc.object[: exc.start].decode(self._encoding, errors="replace")
            line = self._line + good.count("\n")
            column = len(good) - good.rfind("\n") if "\n" in good else self._column + len(good) + 1
            raise ParseError(
                f"invalid {self._encoding} byte {exc.object[exc.start]:#04x}"
                " (save the file as UTF-8, or convert it with iconv)",
                self._ctx.span(line, column),
            ) from None
        newlines = text.count("\n")
        if newlines:
            self._line += newlines
            self._column = len(text) - text.rfind("\n") - 1
        else:
            self._column += len(text)
        self._pending += text
        return bool(chunk)

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

    def readline(self, size: int | None = -1) -> str:
        while "\n" not in self._pending and self._fill():
            pass
        cut = self._pending.find("\n")
        end = len(self._pending) if cut < 0 else cut + 1
        if size is not None and size >= 0:
            end = min(end, size)
        out, self._pending = self._pending[:end], self._pending[end:]
        return out

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def open_text(stream: IO[bytes], ctx: ReadContext, default: str = "utf-8") -> IO[str]:
    """A text view of ``stream``: BOM removed, UTF-16/32 by BOM, bad bytes reported by line.

    Newlines are left as they are (``\\r\\n`` stays), so readers that count lines
    must treat ``\\r`` themselves; :func:`iter_lines` does.
    """
    peek = stream.read(4)
    encoding = sniff_encoding(peek, default)
    return _LineCountingDecoder(chain_head(peek, stream), encoding, ctx)  # type: ignore[return-value]


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
    """``(line number, line without its end)`` for every line; CR, LF and CRLF all end a line."""
    number = 0
    pending = ""
    for chunk in iter(lambda: text.read(1 << 16), ""):
        pending += chunk
        # A chunk ending in CR may be the first half of a CRLF: decide with the next one.
        held_cr = pending.endswith("\r")
        lines = pending[: -1 if held_cr else None].replace("\r\n", "\n").replace("\r", "\n").split("\n")
        pending = lines.pop() + ("\r" if held_cr else "")
        for line in lines:
            number += 1
            yield number, line
    if pending:
        yield number + 1, pending.rstrip("\r")
