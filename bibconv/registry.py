"""Formats by name: readers, writers, extensions, sniffers, and detection.

A format module defines a reader class, a writer class, or both, and decorates them
with :func:`register`. Built-in formats are imported only when first used, so that
``bibconv --version`` and small conversions stay fast. Other packages add formats
through the ``bibconv.formats`` entry-point group: each entry point names a module
(or an object) whose import registers its classes.

>>> from bibconv.registry import detect_format
>>> detect_format(head='@article{knuth84, title={Literate Programming}}')
'bibtex'
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import IO, Any, ClassVar, Protocol, TextIO, TypeVar, runtime_checkable

from bibconv.errors import Diagnostic, FormatError, ReadError
from bibconv.formats import BUILTINS
from bibconv.model import Record, SourceSpan
from bibconv.model.record import span_at
from bibconv.writing import EntryWriter, WriteContext

__all__ = [
    "ENTRY_POINT_GROUP",
    "EntryWriter",
    "FormatInfo",
    "ReadContext",
    "Reader",
    "WriteContext",
    "Writer",
    "detect_format",
    "format_name",
    "formats",
    "get_reader",
    "get_writer",
    "has_content",
    "register",
    "with_content",
    "written_with_content",
]

ENTRY_POINT_GROUP = "bibconv.formats"


@dataclass
class ReadContext:
    """What a reader needs besides its input: the file name, the error policy, options.

    In strict mode :meth:`fail` raises; otherwise it records the error as a
    diagnostic and the reader goes on with the next record. ``escapes`` counts the lone
    surrogates the input may have put into records (invalid bytes a lenient decode kept,
    JSON ``\\u`` escapes of half a pair); while it is 0 no record needs a scan for them.
    ``state`` is what a reader reading one piece of an input (``--jobs``) is told of the input
    before the piece (:attr:`bibconv.parallel.pieces.Piece.state`, from the reader's ``split``).

    >>> from bibconv.errors import ParseError
    >>> ctx = ReadContext("refs.bib", strict=False)
    >>> ctx.fail(ParseError("missing comma", ctx.span(12), "knuth84"))
    >>> print(ctx.diagnostics[0], ctx.skipped)
    refs.bib:12: error: missing comma (entry knuth84) 1
    """

    filename: str | None = None
    strict: bool = True
    options: dict[str, Any] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    skipped: int = 0
    escapes: int = 0
    state: Any = None

    def span(
        self, line: int | None = None, column: int | None = None, index: int | None = None
    ) -> SourceSpan:
        return span_at(self.filename, line, column, index, None, None)

    def warn(
        self,
        message: str,
        line: int | None = None,
        record_id: str | None = None,
        column: int | None = None,
        index: int | None = None,
    ) -> None:
        """Note something odd that did not stop the record from coming through."""
        self.diagnostics.append(Diagnostic(message, self.span(line, column, index), record_id, "warning"))

    def fail(self, error: ReadError) -> None:
        """Raise ``error`` in strict mode; otherwise record it and count a skipped record."""
        if self.strict:
            raise error
        self.skipped += 1
        self.diagnostics.append(Diagnostic(error.message, error.span, error.record_id, "error"))

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


@runtime_checkable
class Reader(Protocol):
    """Reads one format into records, streaming.

    A reader may also offer ``split(stream, size) -> Iterator[bibconv.parallel.Piece] | None``
    (optional, so not part of this protocol): it cuts a seekable binary input into pieces of
    about ``size`` bytes that it reads on their own exactly as within the whole input, or
    returns ``None`` when this input cannot be cut (see :mod:`bibconv.parallel.pieces`).
    ``--jobs`` uses it to spread the work over processes (see :mod:`bibconv.parallel`). A reader
    whose pieces may be guesses (:attr:`~bibconv.parallel.pieces.Piece.guess`) also offers
    ``resume(stream, size, at)``, which cuts the input again from the guess ``at`` that failed.
    """

    name: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]
    description: ClassVar[str]

    @staticmethod
    def sniff(head: str) -> float:
        """How sure (0 to 1) that a text starting with ``head`` is in this format."""
        ...

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        """Yield the records of ``stream``; report bad ones through ``ctx.fail``."""
        ...


@runtime_checkable
class Writer(Protocol):
    """Writes records in one format, as they come.

    A writer may also be made of parts (optional, so not part of this protocol; see
    :class:`EntryWriter`): ``header(ctx)``, ``entry(record, ctx)`` and ``footer(ctx)`` return
    text, and ``separator`` goes between two entries. ``--jobs`` then writes the entries in
    several processes (see :mod:`bibconv.parallel`); a writer without them is run in one.

    A writer may also offer ``project(record) -> Record`` (optional, so not part of this
    protocol): what reading back what it writes gives, which :func:`bibconv.projection.project`
    returns and the round-trip tests check.
    """

    name: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]
    description: ClassVar[str]

    def write(self, records: Iterable[Record], stream: TextIO, ctx: WriteContext) -> None:
        """Write ``records`` to ``stream`` (opened with ``newline=""``)."""
        ...


@dataclass
class FormatInfo:
    """What the registry knows about one format name."""

    name: str
    extensions: tuple[str, ...] = ()
    description: str = ""
    reader: type[Reader] | None = None
    writer: type[Writer] | None = None
    aliases: tuple[str, ...] = ()


_REGISTRY: dict[str, FormatInfo] = {}
_ALIASES = {alias: name for name, builtin in BUILTINS.items() for alias in builtin.aliases}
_loaded_builtins = False
_loaded_entry_points = False
_plugins: bool | None = None

T = TypeVar("T", bound=type)


def register(cls: T) -> T:
    """Class decorator: add a reader or writer class (it has ``read`` or ``write``).

    >>> import bibconv
    >>> @bibconv.register
    ... class TitleLines:
    ...     name, extensions, description = "titles", (".titles",), "one title a line"
    ...     def write(self, records, stream, ctx):
    ...         stream.writelines(f"{r.title}\\n" for r in records)
    >>> print(bibconv.write(bibconv.read("fixtures/text/read/numbered_en.txt")[:2], "titles"), end="")
    Speculative Decoding with Tree Drafts
    A Study of $k$-sparse Attention
    >>> _ = bibconv.registry._REGISTRY.pop("titles")  # unregistered again
    """
    name: str = cls.name  # type: ignore[attr-defined]
    builtin = BUILTINS.get(name)
    info = _REGISTRY.setdefault(name, FormatInfo(name, aliases=builtin.aliases if builtin else ()))
    info.extensions = tuple(dict.fromkeys(info.extensions + tuple(cls.extensions)))  # type: ignore[attr-defined]
    info.description = info.description or getattr(cls, "description", "")
    if hasattr(cls, "read"):
        info.reader = cls
    if hasattr(cls, "write"):
        info.writer = cls
    return cls


def _load_builtin(name: str) -> None:
    builtin = BUILTINS.get(name)
    if builtin and (name not in _REGISTRY):
        try:
            importlib.import_module(builtin.module)
        except ModuleNotFoundError as exc:
            if exc.name != builtin.module:
                raise


def _load_all() -> None:
    global _loaded_builtins, _loaded_entry_points
    if not _loaded_builtins:
        for name in BUILTINS:
            _load_builtin(name)
        _loaded_builtins = True
    if not _loaded_entry_points:
        _loaded_entry_points = True
        from importlib.metadata import entry_points

        for ep in entry_points(group=ENTRY_POINT_GROUP):
            ep.load()


def _plugins_present() -> bool:
    """Whether any package adds formats through the entry-point group (looked up once)."""
    global _plugins
    if _plugins is None:
        from importlib.metadata import entry_points

        _plugins = bool(entry_points(group=ENTRY_POINT_GROUP))
    return _plugins


def format_name(name: str) -> str:
    """The format ``name`` means: a registered name as it is, else the built-in whose name or alias it
    is, letter case aside (``BibTeX``, ``bib`` → ``bibtex``; ``json``, ``csl``, ``CSL-JSON`` →
    ``csljson``). A name bibconv does not know is returned as it is.

    >>> format_name("BibTeX"), format_name("csl-json"), format_name("RIS"), format_name("mine")
    ('bibtex', 'csljson', 'ris', 'mine')
    """
    if name in _REGISTRY:
        return name
    lower = name.lower()
    if lower in BUILTINS or lower in _REGISTRY:
        return lower
    return _ALIASES.get(lower, name)


def _info(name: str) -> FormatInfo:
    name = format_name(name)
    _load_builtin(name)
    if name not in _REGISTRY or _plugins_present():  # a plugin may add to a built-in name
        _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}; known formats: {', '.join(sorted(formats()))}") from None


def formats() -> dict[str, FormatInfo]:
    """Every registered format by name (built-ins and entry points); ``bibconv.list_formats``.

    >>> import bibconv
    >>> info = bibconv.list_formats()["ris"]
    >>> info.extensions, info.reader is not None, info.writer is not None
    (('.ris',), True, True)
    """
    _load_all()
    return dict(sorted(_REGISTRY.items()))


def get_reader(name: str) -> Reader:
    """A reader instance for ``name``; :class:`FormatError` if it cannot read."""
    info = _info(name)
    if info.reader is None:
        raise FormatError(f"format {name!r} can be written but not read")
    return info.reader()


def get_writer(name: str) -> Writer:
    """A writer instance for ``name`` (records without content skipped, see :func:`with_content`);
    :class:`FormatError` if it cannot write."""
    info = _info(name)
    if info.writer is None:
        readers_only = ", ".join(n for n, i in formats().items() if i.writer is not None)
        raise FormatError(f"format {name!r} can be read but not written (writers: {readers_only})")
    return _with_content_check(info.writer)()


_TYPE_KEYS = frozenset({"ris:TY", "bibtex:entrytype", "csl:type"})
"""``extra`` keys that only say what type the source named: no content of their own."""


def has_content(record: Record) -> bool:
    """Whether ``record`` holds anything to write: a field, a name, a date, a keyword, an arXiv
    block or another format's field (a type and a key alone are not a reference)."""
    if record.fields or record.names or record.dates or record.keywords or record.arxiv is not None:
        return True
    return any(key not in _TYPE_KEYS for key in record.extra)


def with_content(records: Iterable[Record], ctx: WriteContext) -> Iterator[Record]:
    """``records`` without those that hold nothing to write, each reported with where it came from
    (an entry with no field is one BibTeX tools stop on); counts ``ctx.written`` and ``ctx.skipped``.

    >>> ctx = WriteContext()
    >>> [r.id for r in with_content([Record(id="empty"), Record(id="t", fields={"title": "T"})], ctx)]
    ['t']
    >>> print(ctx.diagnostics[0], ctx.written, ctx.skipped)
    warning: the record has no field to write; skipped (entry empty) 1 1
    """
    for record in records:
        if written_with_content(record, ctx):
            yield record


def written_with_content(record: Record, ctx: WriteContext) -> bool:
    """Whether ``record`` is to be written (it has content: counted in ``ctx.written``); if not,
    it is counted in ``ctx.skipped`` and reported, naming where it came from."""
    if has_content(record):
        ctx.written += 1
        return True
    ctx.skipped += 1
    ctx.diagnostics.append(
        Diagnostic("the record has no field to write; skipped", record.origin, record.id, "warning")
    )
    return False


@cache
def _with_content_check(cls: type[Writer]) -> type[Writer]:
    """``cls`` with a ``write`` that is given only records with content (:func:`with_content`)."""

    def write(self: Writer, records: Iterable[Record], stream: TextIO, ctx: WriteContext) -> None:
        cls.write(self, with_content(records, ctx), stream, ctx)

    namespace = {"write": write, "__doc__": cls.__doc__, "__module__": cls.__module__}
    return type(cls.__name__, (cls,), namespace)


def format_for_extension(filename: str, *, writing: bool = False) -> str | None:
    """The format whose extensions match ``filename``, if exactly one does."""
    lower = os.fspath(filename).lower()
    table = {
        name: info.extensions
        for name, info in (formats() if _plugins_present() else _REGISTRY).items()
        if (info.writer if writing else info.reader) is not None
    }
    if not _plugins_present():  # the built-ins not imported yet, from what they register
        for name, builtin in BUILTINS.items():
            if name not in _REGISTRY and (builtin.writes if writing else builtin.reads):
                table[name] = builtin.extensions
    matches = sorted(name for name, extensions in table.items() if any(lower.endswith(e) for e in extensions))
    # Prefer the longest matching extension (".csl.json" over ".json").
    if not matches:
        return None
    best = max(len(ext) for n in matches for ext in table[n] if lower.endswith(ext))
    top = [n for n in matches if any(lower.endswith(e) and len(e) == best for e in table[n])]
    return top[0] if len(top) == 1 else None


def detect_format(filename: str | None = None, head: str | None = None) -> str:
    """Detect a readable format: extension first, then sniffing the head of the input.

    Raises :class:`FormatError` listing the candidates when unsure.
    """
    if filename:
        by_extension = format_for_extension(filename)
        if by_extension:
            return by_extension
    where = f" of {filename}" if filename else ""
    if head is None:
        raise FormatError(f"cannot tell the format{where}; pass --from FORMAT")
    scores = sorted(
        ((info.reader.sniff(head), name) for name, info in formats().items() if info.reader),
        reverse=True,
    )
    scores = [(s, n) for s, n in scores if s > 0]
    if not scores:
        readable = ", ".join(n for n, i in formats().items() if i.reader)
        raise FormatError(
            f"cannot tell the format{where}: it looks like none of {readable}; pass --from FORMAT"
        )
    if len(scores) > 1 and scores[0][0] - scores[1][0] < 0.2:
        candidates = ", ".join(n for s, n in scores if scores[0][0] - s < 0.2)
        raise FormatError(f"cannot tell the format{where}: it could be {candidates}; pass --from FORMAT")
    return scores[0][1]
