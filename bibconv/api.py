"""The library surface: read, iterate, write, convert, detect.

Sources may be a path (``os.PathLike``, or a ``str`` that is not text), the text itself,
``bytes``, a binary or text file object (an HTTP response body works), or an iterable of lines.
A ``str`` is text when it is empty, holds a line break, or starts (after white space) with
``{``, ``[``, ``@``, ``<`` or ``%`` (JSON, BibTeX, XML or HTML); any other ``str`` names a
file, and a file that does not exist is a :class:`~bibconv.errors.ReadError` naming it.

How a source is opened and its format told is :mod:`bibconv.sources`; the steps of
:func:`convert_files` are :mod:`bibconv.conversion`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, TextIO

from bibconv.conversion import Conversion, refuse_overwriting
from bibconv.errors import Diagnostic
from bibconv.model import Record
from bibconv.output import atomic_output
from bibconv.progress import Progress
from bibconv.registry import ReadContext, WriteContext, get_reader, get_writer
from bibconv.sources import Source, open_source, sniffed

if TYPE_CHECKING:
    from bibconv.limits import Limits

__all__ = ["Source", "convert", "convert_files", "detect", "iter_records", "open_source", "read", "write"]


def detect(source: Source) -> str:
    """The format name of ``source``: by file extension, then by content.

    >>> detect('[{"id": "a", "type": "book", "title": "T"}]')
    'csljson'
    """
    with open_source(source) as (stream, filename):
        return sniffed(stream, filename, None)[0]


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
        name, stream = sniffed(stream, ctx.filename, format)
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
    conversion = Conversion(
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
        refuse_overwriting(conversion.sources, dest)
        with atomic_output(dest) as stream:
            conversion.run(stream)
        return None
    if dest is not None:
        conversion.run(dest)
        return None
    buffer = io.StringIO(newline="")
    conversion.run(buffer)
    return buffer.getvalue()
