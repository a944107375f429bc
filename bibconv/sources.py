"""Opening what the library reads: a path, the text itself, bytes, a binary or text file object, or an
iterable of lines (:func:`open_source`, what a ``str`` is: :mod:`bibconv.api`), and telling its format
(:func:`sniffed`: explicit, then the file's extension, then its first bytes)."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Union

from bibconv.errors import FormatError, ReadError
from bibconv.model import SourceSpan
from bibconv.registry import detect_format
from bibconv.textio import chain_head, decode_head

__all__ = ["HEAD_SIZE", "Source", "counted_input", "open_path", "open_source", "sniffed"]

Source = Union[str, "os.PathLike[str]", bytes, IO[bytes], IO[str], Iterable[str], Iterable[bytes]]

HEAD_SIZE = 4096
"""Bytes read to tell a format by its content."""


class _IterStream(io.RawIOBase):
    """A binary stream over text or byte chunks (lines of a response, a text file object)."""

    def __init__(self, chunks: Iterable[str | bytes]) -> None:
        self._chunks = iter(chunks)
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._pending:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._pending = chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


_TEXT_STARTS = ("{", "[", "@", "<", "%")


def _is_path(source: object) -> bool:
    """Whether ``source`` names a file (see the module's docstring for what a ``str`` is)."""
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str) or not source or "\n" in source or "\r" in source:
        return False
    return not source.lstrip().startswith(_TEXT_STARTS)


def open_path(path: str) -> IO[bytes]:
    """The file at ``path``, opened for reading; a :class:`ReadError` naming it when it cannot be."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        problem = "no such file"
    except IsADirectoryError:
        problem = "is a directory, not a file"
    except OSError as exc:
        problem = f"cannot open: {exc.strerror or exc}"
    raise ReadError(problem, SourceSpan(path)) from None


@contextmanager
def open_source(source: Source) -> Iterator[tuple[IO[bytes], str | None]]:
    """Open any accepted source as a binary stream; yields ``(stream, filename or None)``."""
    if isinstance(source, str) and source == "-":
        yield sys.stdin.buffer, "<stdin>"
    elif _is_path(source):
        path = os.fspath(source)  # type: ignore[arg-type]
        with open_path(path) as handle:
            yield handle, path
    elif isinstance(source, str):
        yield io.BytesIO(source.encode("utf-8")), None
    elif isinstance(source, (bytes, bytearray)):
        yield io.BytesIO(bytes(source)), None
    elif isinstance(source, io.TextIOBase):
        yield (
            io.BufferedReader(_IterStream(iter(lambda: source.read(1 << 16), ""))),
            getattr(source, "name", None),
        )
    elif hasattr(source, "read"):
        probe = source.read(0)  # type: ignore[union-attr,unused-ignore]
        if isinstance(probe, str):
            text_source: Any = source
            yield io.BufferedReader(_IterStream(iter(lambda: text_source.read(1 << 16), ""))), None
        else:
            yield source, getattr(source, "name", None)  # type: ignore[misc,unused-ignore]
    elif isinstance(source, Iterable):
        yield io.BufferedReader(_IterStream(source)), None  # type: ignore[arg-type,unused-ignore]
    else:
        raise TypeError(f"cannot read from a {type(source).__name__}")


def sniffed(stream: IO[bytes], filename: str | None, format: str | None) -> tuple[str, IO[bytes]]:
    """The format of ``stream`` (explicit, extension, then content) and the stream to read."""
    if format:
        return format, stream
    if filename and filename != "<stdin>":
        try:
            return detect_format(filename=filename), stream
        except FormatError:
            pass
    head = stream.read(HEAD_SIZE)
    text = decode_head(head)
    named = None if filename == "<stdin>" else filename
    try:
        return detect_format(filename=named, head=text), chain_head(head, stream)
    except FormatError as exc:
        if text.lstrip().startswith(("{", "[")) and "could be" not in str(exc):
            where = f" {named}" if named else " the input"
            raise FormatError(
                f"cannot tell the format of{where}: it is JSON, but holds no CSL-JSON items (objects with"
                " an 'id', a CSL 'type' or CSL variables such as 'title', 'author', 'issued') and no arXiv"
                " metadata lines; pass --from FORMAT"
            ) from None
        raise


class _CountedStream(io.RawIOBase):
    """A stream that cannot tell its position (a pipe), telling how many bytes were read from it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._read = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = self._raw.readinto(buffer)  # type: ignore[attr-defined]
        self._read += n or 0
        return int(n or 0)

    def tell(self) -> int:
        return self._read


@contextmanager
def counted_input(name: str) -> Iterator[tuple[IO[bytes], str]]:
    """The input ``name`` (``-``: standard input) opened so that the bytes read can be told."""
    if name != "-":
        with open_path(name) as handle:
            if handle.seekable():
                yield handle, name
            else:  # a FIFO, /dev/stdin, <(process)
                yield io.BufferedReader(_CountedStream(handle)), name
        return
    yield io.BufferedReader(_CountedStream(sys.stdin.buffer)), "<stdin>"
