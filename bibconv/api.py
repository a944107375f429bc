"""The library surface: read, iterate, write, convert, detect.

Sources may be a path (``os.PathLike``, or a ``str`` that is not text), the text itself,
``bytes``, a binary or text file object (an HTTP response body works), or an iterable of lines.
A ``str`` is text when it is empty, holds a line break, or starts (after white space) with
``{``, ``[``, ``@``, ``<`` or ``%`` (JSON, BibTeX, XML or HTML); any other ``str`` names a
file, and a file that does not exist is a :class:`~bibconv.errors.ReadError` naming it.
"""

from __future__ import annotations

import io
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TextIO, Union

from bibconv.errors import Diagnostic, FormatError, OutputError, ReadError
from bibconv.model import Record, SourceSpan
from bibconv.output import atomic_output, same_file
from bibconv.progress import Progress
from bibconv.registry import ReadContext, WriteContext, detect_format, get_reader, get_writer
from bibconv.textio import chain_head, decode_head

if TYPE_CHECKING:
    from bibconv.limits import Limits

__all__ = ["Source", "convert", "convert_files", "detect", "iter_records", "open_source", "read", "write"]

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


_TEXT_STARTS = ("{", "[", "@", "<", "%")


def _is_path(source: object) -> bool:
    """Whether ``source`` names a file (see the module's docstring for what a ``str`` is)."""
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str) or not source or "\n" in source or "\r" in source:
        return False
    return not source.lstrip().startswith(_TEXT_STARTS)


def _open_path(path: str) -> IO[bytes]:
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
        with _open_path(path) as handle:
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
    dest: str | os.PathLike[str] | TextIO | IO[bytes] | None = None,
    *,
    diagnostics: list[Diagnostic] | None = None,
    **options: Any,
) -> str | None:
    """Write ``records`` in ``format``: to a path (atomically), to a text or binary file object
    (UTF-8), or return the text.

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
    if _is_binary(dest):
        binary: Any = dest
        text = io.TextIOWrapper(binary, encoding="utf-8", newline="", write_through=True)
        try:
            writer.write(records, text, ctx)
            text.flush()
        finally:
            text.detach()  # the caller's stream stays open
        return None
    writer.write(records, dest, ctx)  # type: ignore[arg-type]
    return None


def _is_binary(stream: object) -> bool:
    """Whether a file object takes bytes (``BytesIO``, ``open(…, "wb")``, a socket's file)."""
    if isinstance(stream, io.TextIOBase):
        return False
    if isinstance(stream, (io.BufferedIOBase, io.RawIOBase)) or "b" in str(getattr(stream, "mode", "")):
        return True
    if not hasattr(stream, "write"):
        raise TypeError(f"cannot write to a {type(stream).__name__}: give a path, a file object or None")
    try:
        stream.write("")
    except TypeError:
        return True
    return False


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


def _file_records(
    sources: Sequence[str],
    from_: str | None,
    strict: bool,
    diagnostics: list[Diagnostic],
    options: dict[str, Any],
    progress: Progress,
    after_input: Callable[[], None] | None,
) -> Iterator[Record]:
    """The records of each source in turn (``-``: standard input), counted by ``progress`` with the
    bytes read; a source that gives none is an error (a warning when not ``strict``) unless its
    reader said why."""
    for name in sources:
        before = len(diagnostics)
        count = 0
        with _counted_input(name) as (handle, filename):
            progress.watch(handle)
            for record in iter_records(
                handle, from_, strict=strict, diagnostics=diagnostics, filename=filename, **options
            ):
                count += 1
                progress.add()
                yield record
        if not count and not _said_why(diagnostics[before:]):
            _no_records(name, strict, diagnostics)
        if after_input is not None:
            after_input()


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
def _counted_input(name: str) -> Iterator[tuple[IO[bytes], str]]:
    """The input ``name`` (``-``: standard input) opened so that the bytes read can be told."""
    if name != "-":
        with _open_path(name) as handle:
            if handle.seekable():
                yield handle, name
            else:  # a FIFO, /dev/stdin, <(process)
                yield io.BufferedReader(_CountedStream(handle)), name
        return
    yield io.BufferedReader(_CountedStream(sys.stdin.buffer)), "<stdin>"


def _said_why(diagnostics: list[Diagnostic]) -> bool:
    """Whether a reader reported why its input gave no record (a skipped one, or "no records")."""
    return any(d.severity == "error" or "no record" in d.message for d in diagnostics)


def _no_records(name: str, strict: bool, diagnostics: list[Diagnostic]) -> None:
    """Report an input that gave no record: an error naming it, a warning when not ``strict``."""
    empty = name != "-" and os.path.getsize(name) == 0
    message = "the input is empty: no records" if empty else "no records found in the input"
    span = SourceSpan("<stdin>" if name == "-" else name)
    if strict:
        raise ReadError(message + " (--skip-invalid goes on without it)", span)
    diagnostics.append(Diagnostic(message, span, None, "warning"))


def _selected(
    records: Iterable[Record], dedupe: bool, sort: str, limit: int | None, diagnostics: list[Diagnostic]
) -> Iterable[Record]:
    """``records`` merged (``dedupe``), sorted and cut at ``limit``, in that order."""
    if dedupe or sort != "input":
        from bibconv.merge import dedupe as merge_duplicates
        from bibconv.merge import sort_records

        if dedupe:
            records = merge_duplicates(
                records, lambda message: diagnostics.append(Diagnostic(message, severity="note"))
            )
        records = sort_records(records, sort)
    if limit is not None:
        records = itertools.islice(records, limit)
    return records


@dataclass
class _Conversion:
    """What :func:`convert_files` was asked, and the run: in parallel when it may be, else serially."""

    sources: list[str]
    to: str
    from_: str | None
    jobs: int | None
    dedupe: bool
    sort: str
    limit: int | None
    strict: bool
    diagnostics: list[Diagnostic]
    read_options: dict[str, Any]
    write_options: dict[str, Any]
    progress: Progress
    after_input: Callable[[], None] | None

    def run(self, stream: TextIO) -> None:
        writer = get_writer(self.to)
        ctx = WriteContext(options=self.write_options, diagnostics=self.diagnostics)
        if not self._parallel(stream, ctx):
            records = _file_records(
                self.sources,
                self.from_,
                self.strict,
                self.diagnostics,
                self.read_options,
                self.progress,
                self.after_input,
            )
            chosen = _selected(records, self.dedupe, self.sort, self.limit, self.diagnostics)
            writer.write(chosen, stream, ctx)
        self.progress.written = ctx.written

    def _parallel(self, stream: TextIO, ctx: WriteContext) -> bool:
        """Convert with several processes if asked (or the inputs are large) and the records
        need no selection; ``False`` when the run is to be serial (nothing written then)."""
        from bibconv.parallel import convert, default_jobs

        processes = self.jobs or default_jobs(self.sources)
        if processes < 2 or self.dedupe or self.sort != "input" or self.limit is not None:
            return False
        inputs = iter(self.sources)
        counted = [self.progress.records, len(self.diagnostics)]

        def input_done() -> None:  # as _file_records does: an input with no record is said
            name = next(inputs)
            if self.progress.records == counted[0] and not _said_why(self.diagnostics[counted[1] :]):
                _no_records(name, self.strict, self.diagnostics)
            counted[:] = [self.progress.records, len(self.diagnostics)]
            if self.after_input is not None:
                self.after_input()

        return convert(
            self.sources,
            self.to,
            stream,
            jobs=processes,
            from_=self.from_,
            strict=self.strict,
            read_options=self.read_options,
            write_options=self.write_options,
            diagnostics=self.diagnostics,
            progress=self.progress,
            after_input=input_done,
            ctx=ctx,
        )


def _refuse_overwriting(sources: Sequence[str], dest: str | os.PathLike[str]) -> None:
    """An :class:`OutputError` if ``dest`` is one of the input files (devices and FIFOs may be both)."""
    for source in sources:
        if source != "-" and os.path.isfile(source) and os.path.isfile(dest) and same_file(source, dest):
            raise OutputError(f"{os.fspath(dest)}: the output would overwrite the input {source}")


def convert_files(
    sources: Sequence[str | os.PathLike[str]],
    to: str,
    dest: str | os.PathLike[str] | TextIO | None = None,
    *,
    from_: str | None = None,
    jobs: int | None = None,
    dedupe: bool = False,
    sort: str = "input",
    limit: int | None = None,
    strict: bool = True,
    limits: Limits | None = None,
    diagnostics: list[Diagnostic] | None = None,
    read_options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    after_input: Callable[[], None] | None = None,
    **options: Any,
) -> str | None:
    """Convert input files (``"-"``: standard input) into one output, as ``bibconv convert`` does.

    ``dest`` is a path (replaced atomically), a text stream, or ``None`` to return the text.
    ``jobs`` processes share the work (``None``: one per core for inputs over 4 MB; the output
    is the same for any number); ``dedupe``, ``sort`` (``input``, ``key``, ``year``, ``author``)
    and ``limit`` choose the records, in one process. With ``strict=False`` bad records are
    skipped into ``diagnostics``; ``limits`` (:class:`bibconv.limits.Limits`) bounds the input.
    Options go to the writer (``ascii=True``, ``key_format="authyear"``…), ``read_options`` to
    the reader; ``after_input`` is called after each input.

    >>> text = convert_files(["fixtures/bibtex/read/bibconv_arxiv_spellings.bib"], "ris", jobs=2)
    >>> text.count("ER  - "), text.splitlines()[0]
    (15, 'TY  - UNPB')
    """
    reading = {**(read_options or {}), **({"limits": limits} if limits is not None else {})}
    conversion = _Conversion(
        [os.fspath(source) for source in sources],
        to,
        from_,
        jobs,
        dedupe,
        sort,
        limit,
        strict,
        diagnostics if diagnostics is not None else [],
        reading,
        options,
        progress if progress is not None else Progress(enabled=False),
        after_input,
    )
    if isinstance(dest, (str, os.PathLike)):
        _refuse_overwriting(conversion.sources, dest)
        with atomic_output(dest) as stream:
            conversion.run(stream)
        return None
    if dest is not None:
        conversion.run(dest)
        return None
    buffer = io.StringIO(newline="")
    conversion.run(buffer)
    return buffer.getvalue()
