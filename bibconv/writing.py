"""What writers receive and what they may be built from: :class:`WriteContext` (options, reports,
citation keys) and :class:`EntryWriter` (a header, one entry per record, a footer)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TextIO, cast

from bibconv.errors import Diagnostic, WriteError
from bibconv.model import Record
from bibconv.patterns import lazy

if TYPE_CHECKING:
    from bibconv.keys import KeyAssigner

__all__ = ["UNWRITABLE_RE", "EntryWriter", "WriteContext", "has_unwritable", "unwritable_name", "writable"]

_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029"
_BMP_NONCHARACTERS = "\ufdd0-\ufdef\ufffe\uffff"
_NONCHARACTERS = _BMP_NONCHARACTERS + "".join(
    chr(plane << 16 | 0xFFFE) + chr(plane << 16 | 0xFFFF) for plane in range(1, 17)
)
UNWRITABLE_RE = lazy(f"[{_CONTROLS}{_NONCHARACTERS}]")
"""What no output holds: C0 control characters but tab and line ends, DEL, C1, the line and paragraph
separators (``str.splitlines`` ends a line at U+001C–U+001E, U+0085, U+2028, U+2029), Unicode
noncharacters (biber refuses a file holding one; U+FDD0–U+FDD5 are bibconv's internal marks)."""

_MAYBE_UNWRITABLE_RE = lazy(f"[{_CONTROLS}{_BMP_NONCHARACTERS}\U00010000-\U0010ffff]")
""":data:`UNWRITABLE_RE` with every character beyond the BMP (a class of ranges the regex engine tests
ten times faster than the noncharacters of each plane one by one)."""


def has_unwritable(text: str) -> bool:
    """Whether :data:`UNWRITABLE_RE` finds something in ``text`` (the same answer, faster: ASCII text
    by ``str.isprintable`` once its tabs and line ends are out, other text by a cheaper class)."""
    if text.isascii():
        return not text.replace("\n", "").replace("\t", "").replace("\r", "").isprintable()
    return any(m[0] <= "\uffff" or ord(m[0]) & 0xFFFE == 0xFFFE for m in _MAYBE_UNWRITABLE_RE.finditer(text))


def writable(record: Record) -> Record:
    """``record`` as every writer writes it (:meth:`EntryWriter.written_entry`): each text without
    what :data:`UNWRITABLE_RE` matches, white space ones (U+000C, U+2028…) a space. The writers'
    projections start from it."""
    return cast(Record, _writable(record))


def _writable(value: Any) -> Any:
    if isinstance(value, str):
        return UNWRITABLE_RE.sub(_space_or_nothing, value) if has_unwritable(value) else value
    if isinstance(value, (tuple, list)):
        return type(value)(map(_writable, value))
    if isinstance(value, Mapping):
        return {key: _writable(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in dataclasses.fields(value) if f.name not in ("origin", "source")]
        return dataclasses.replace(value, **{name: _writable(getattr(value, name)) for name in names})
    return value


def _space_or_nothing(m: re.Match[str]) -> str:
    return " " if m[0].isspace() else ""


def unwritable_name(ch: str) -> str:
    """What a character of :data:`UNWRITABLE_RE` is, for a warning (``control character U+0000``)."""
    code = ord(ch)
    kind = "control character" if code < 0xA0 else "separator" if code in (0x2028, 0x2029) else "noncharacter"
    return f"{kind} U+{code:04X}"


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
    unwritable: ClassVar[re.Pattern[str]] = UNWRITABLE_RE
    """What an entry's text never holds (:data:`UNWRITABLE_RE`; a writer escaping characters adds
    their escapes): :meth:`write` drops it (white space as a space), with a warning naming the entry."""

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
            text = self.written_entry(record, ctx)
            stream.write(text if not ctx.entries or not separator else separator + text)
            ctx.entries += 1
        stream.write(self.footer(ctx))

    def written_entry(self, record: Record, ctx: WriteContext) -> str:
        """:meth:`entry`, without what :attr:`unwritable` matches (in the key too: :data:`UNWRITABLE_RE`),
        and a warning naming what it held (as :meth:`write` and ``--jobs`` write entries)."""
        found: dict[str, None] = {}
        if record.id and has_unwritable(record.id):
            found.update((unwritable_name(ch), None) for ch in UNWRITABLE_RE.findall(record.id))
            record = record.replace(id=UNWRITABLE_RE.sub(_space_or_nothing, record.id))
        text = self.entry(record, ctx)
        if self.may_hold_unwritable(text) and self.unwritable.search(text) is not None:
            text = self.unwritable.sub(lambda m: self._respelled(m, found), text)
        if found:
            ctx.warn(f"{', '.join(found)} not written (no output holds it)", record.id)
        return text

    def _respelled(self, m: re.Match[str], found: dict[str, None]) -> str:
        """What :meth:`respell` writes a match as, the character it stands for noted in ``found``."""
        written, ch = self.respell(m)
        found[unwritable_name(ch)] = None
        return written

    def may_hold_unwritable(self, text: str) -> bool:
        """False when :attr:`unwritable` cannot match ``text`` (a quick test before the search); a
        writer that adds escapes to :attr:`unwritable` says when they may be there."""
        return has_unwritable(text)

    def respell(self, m: re.Match[str]) -> tuple[str, str]:
        """What a match of :attr:`unwritable` is written as (a space for white space, such as U+2028
        or U+000C; else nothing), and the character it stands for."""
        return _space_or_nothing(m), m[0]
