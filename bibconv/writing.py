"""What writers receive and what they may be built from: :class:`WriteContext` (options, reports,
citation keys) and :class:`EntryWriter` (a header, one entry per record, a footer)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from bibconv.errors import Diagnostic, WriteError
from bibconv.model import Record

if TYPE_CHECKING:
    from bibconv.keys import KeyAssigner

__all__ = ["EntryWriter", "WriteContext"]


class WriteContext:
    """Options for a writer, where it reports what the target cannot hold, and its citation keys.

    ``keys`` gives records unique keys within one output (``ctx.keys.assign(record)``); unless one
    is passed it is a :class:`bibconv.keys.KeyAssigner` for the ``key_format`` option. ``warned``
    holds the kinds :meth:`warn_once` has reported; ``entries`` counts the entries written so far
    by :meth:`EntryWriter.write` (a footer may depend on it); ``state`` is what a writer keeps
    from one entry to the next in this output (``--jobs`` gives each piece its own).

    >>> ctx = WriteContext(options={"ascii": True})
    >>> ctx.option("ascii"), ctx.option("indent", 2)
    (True, 2)
    >>> ctx.warn("field 'genre' has no RIS tag; not written", "knuth84")
    >>> print(ctx.diagnostics[0])
    warning: field 'genre' has no RIS tag; not written (entry knuth84)
    >>> ctx.warn_once("genre", "field 'genre' has no RIS tag", "a"); ctx.warn_once("genre", "again", "b")
    >>> len(ctx.diagnostics), ctx.keys.assign(Record(id="knuth84")).id
    (2, 'knuth84')
    """

    def __init__(
        self,
        options: dict[str, Any] | None = None,
        diagnostics: list[Diagnostic] | None = None,
        keys: KeyAssigner | None = None,
    ) -> None:
        self.options: dict[str, Any] = options if options is not None else {}
        self.diagnostics: list[Diagnostic] = diagnostics if diagnostics is not None else []
        self.warned: set[str] = set()
        self.entries = 0
        self.written = 0
        """Records handed to the writer (the writers of :func:`bibconv.registry.get_writer` count)."""
        self.skipped = 0
        """Records left out as holding nothing to write (:func:`bibconv.registry.with_content`)."""
        self.state: dict[str, Any] = {}
        self._keys = keys

    @property
    def keys(self) -> KeyAssigner:
        """The citation keys of this output (made on first use: most writers need none)."""
        if self._keys is None:
            from bibconv.keys import KeyAssigner

            try:
                self._keys = KeyAssigner(self.option("key_format") or "authyeartitle", warn=self.warn)
            except ValueError as exc:  # an unknown key format
                raise WriteError(str(exc)) from None
        return self._keys

    def __repr__(self) -> str:
        return f"WriteContext(options={self.options!r}, diagnostics={self.diagnostics!r})"

    def warn(self, message: str, record_id: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(message, None, record_id, "warning"))

    def warn_once(self, kind: str, message: str, record_id: str | None = None) -> None:
        """Warn about ``kind`` (a field the format cannot hold…) only the first time in this output."""
        if kind not in self.warned:
            self.warned.add(kind)
            self.warn(message, record_id)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


class EntryWriter:
    """A writer made of a header, one entry per record with a separator between two, and a
    footer; :meth:`write` puts them together. An entry takes its key from ``ctx.keys`` and
    reports through ``ctx`` (:meth:`WriteContext.warn_once` for what is said once per output);
    what it keeps for the entries after it goes in ``ctx.state`` and, for ``--jobs``, through
    :meth:`carry` and :meth:`continue_from`.

    >>> class Titles(EntryWriter):
    ...     name, extensions, description = "titles", (".titles",), "one title a line"
    ...     separator = ", "
    ...     def header(self, ctx): return "["
    ...     def entry(self, record, ctx): return ctx.keys.assign(record).id or ""
    ...     def footer(self, ctx): return f"] ({ctx.entries})\\n"
    >>> import io
    >>> out = io.StringIO()
    >>> Titles().write([Record(id="a"), Record(id="a")], out, WriteContext())
    >>> print(out.getvalue(), end="")
    [a, aa] (2)
    """

    name: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]
    description: ClassVar[str]
    separator: ClassVar[str] = ""

    def header(self, ctx: WriteContext) -> str:
        """The text before the first entry."""
        return ""

    def entry(self, record: Record, ctx: WriteContext) -> str:
        """The text of one record."""
        raise NotImplementedError

    def footer(self, ctx: WriteContext) -> str:
        """The text after the last entry (``ctx.entries`` have been written)."""
        return ""

    def carry(self, ctx: WriteContext) -> Any:
        """What the entries written so far leave for the ones after them (``None``: nothing), as a
        value that compares and pickles: ``--jobs`` hands it to the piece after, and writes a
        piece again when what came before it leaves something else than it was written with."""
        return None

    def continue_from(self, ctx: WriteContext, carried: Any) -> None:
        """Go on as after entries that left ``carried`` (see :meth:`carry`)."""

    def write(self, records: Iterable[Record], stream: TextIO, ctx: WriteContext) -> None:
        """Write the header, each record's entry (the separator between two), and the footer."""
        stream.write(self.header(ctx))
        separator = self.separator
        for record in records:
            text = self.entry(record, ctx)
            stream.write(text if not ctx.entries or not separator else separator + text)
            ctx.entries += 1
        stream.write(self.footer(ctx))
