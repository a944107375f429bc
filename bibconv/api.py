"""The library surface: read, iterate, write, convert, detect.

Sources may be a path (``str`` naming an existing file, or ``os.PathLike``), the
text itself (``str`` with a newline, or that names no file), ``bytes``, a binary or
text file object (an HTTP response body works), or an iterable of lines.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TextIO, Union

from bibconv.errors import Diagnostic, FormatError, ReadError
from bibconv.model import Record, SourceSpan
from bibconv.output import atomic_output
from bibconv.registry import ReadContext, WriteContext, detect_format, get_reader, get_writer
from bibconv.textio import chain_head, decode_head

__all__ = ["Source", "convert", "detect", "iter_records", "open_source", "read", "write"]

Source = Union[str, "os.PathLike[str]", bytes, IO[bytes], IO[str], Iterable[str], Iterable[bytes]]

HEAD_SIZE = 4096


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


def _is_path(source: object) -> bool:
    if isinstance(source, os.PathLike):
        return True
    if isinstance(source, str) and source and "\n" not in source and len(source) < 4096:
        try:
            return Path(source).is_file()
        except OSError:
            return False
    return False


@contextmanager
def open_source(source: Source) -> Iterator[tuple[IO[bytes], str | None]]:
    """Open any accepted source as a binary stream; yields ``(stream, filename or None)``."""
    if isinstance(source, str) and source == "-":
        yield sys.stdin.buffer, "<stdin>"
    elif _is_path(source):
        path = os.fspath(source)  # type: ignore[arg-type]
        try:
            handle = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise ReadError(f"cannot open: {exc.strerror}", SourceSpan(path)) from None
        with handle:
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


def _sniffed(stream: IO[bytes], filename: str | None, format: str | None) -> tuple[str, IO[bytes]]:
    """The format of ``stream`` (explicit, extension, then content) and the stream to read."""
    if format:
        return format, stream
    if filename and filename != "<stdin>":
        try:
            return detect_format(filename=filename), stream
        except FormatError:
            pass
    head = stream.read(HEAD_SIZE)
    return detect_format(
        filename=None if filename == "<stdin>" else filename, head=decode_head(head)
    ), chain_head(head, stream)


def detect(source: Source) -> str:
    """The format name of ``source``: by file extension, then by content.

    >>> detect('[{"id": "a", "type": "book", "title": "T"}]')
    'csljson'
    """
    with open_source(source) as (stream, filename):
        return _sniffed(stream, filename, None)[0]


def iter_records(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = True,
    diagnostics: list[Diagnostic] | None = None,
    filename: str | None = None,
    **options: Any,
) -> Iterator[Record]:
    """Yield the records of ``source`` one by one (memory does not grow with their number).

    In strict mode (the default) the first bad record raises a :class:`~bibconv.errors.ReadError`;
    with ``strict=False`` bad records are skipped and reported in ``diagnostics``.
    Options go to the reader (for example ``arxiv_date="version"`` for Atom feeds);
    ``limits=bibconv.limits.Limits(...)`` changes the size limits.

    >>> [r.title for r in iter_records('[{"id": "a", "type": "book", "title": "T"}]')]
    ['T']
    """
    from bibconv.limits import DEFAULT_LIMITS, checked_records, limited_stream

    limits = options.pop("limits", None) or DEFAULT_LIMITS
    with open_source(source) as (stream, opened_name):
        ctx = ReadContext(filename=filename or opened_name, strict=strict, options=options)
        if diagnostics is not None:
            ctx.diagnostics = diagnostics
        stream = limited_stream(stream, limits, ctx)
        name, stream = _sniffed(stream, ctx.filename, format)
        reader = get_reader(name)
        yield from checked_records(reader.read(stream, ctx), limits, ctx)


def read(source: Source, format: str | None = None, **kwargs: Any) -> list[Record]:
    """All records of ``source`` as a list (see :func:`iter_records` for the arguments).

    >>> read('[{"id": "knuth84", "type": "article-journal", "title": "Literate Programming"}]')[0].id
    'knuth84'
    """
    return list(iter_records(source, format, **kwargs))


def write(
    records: Iterable[Record],
    format: str,
    dest: str | os.PathLike[str] | TextIO | None = None,
    *,
    diagnostics: list[Diagnostic] | None = None,
    **options: Any,
) -> str | None:
    """Write ``records`` in ``format``: to a path (atomically), to a text stream, or return the text.

    Options go to the writer (``ascii=True``, ``key_format="authyear"``, ``indent=2``…).

    >>> from bibconv.model import Record
    >>> print(write([Record(type="book", id="k", fields={"title": "T"})], "csljson", indent=None))
    [
    {"id": "k", "type": "book", "citation-key": "k", "title": "T"}
    ]
    <BLANKLINE>
    """
    writer = get_writer(format)
    ctx = WriteContext(options=options)
    if diagnostics is not None:
        ctx.diagnostics = diagnostics
    if dest is None:
        buffer = io.StringIO(newline="")
        writer.write(records, buffer, ctx)
        return buffer.getvalue()
    if isinstance(dest, (str, os.PathLike)):
        with atomic_output(dest) as stream:
            writer.write(records, stream, ctx)
        return None
    writer.write(records, dest, ctx)
    return None


def convert(text: str | bytes, to: str, from_: str | None = None, **options: Any) -> str:
    """Convert ``text`` from one format (detected when not given) to another.

    >>> out = convert('[{"id": "a", "type": "book", "title": "T"}]', "csljson", indent=None)
    >>> out.splitlines()[1]
    '{"id": "a", "type": "book", "citation-key": "a", "title": "T"}'
    """
    source: Source = text.encode("utf-8") if isinstance(text, str) else text
    result = write(iter_records(source, from_), to, **options)
    assert result is not None
    return result
