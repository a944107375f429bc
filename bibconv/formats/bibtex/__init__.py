r"""BibTeX and biblatex: the reader (``bibtex``, also registered as ``biblatex``) and, through
:mod:`bibconv.formats.bibtex.write`, the two writers.

Reading is streaming. The text is cut into chunks at entry boundaries (a line starting with
``@type{`` or ``@type(`` at brace depth 0), and each chunk goes through bibtexparser v2's
fault-tolerant :class:`~bibtexparser.splitter.Splitter`; a block it cannot parse is reported with
its file, line and entry key (``ctx.fail``) and the rest come through. On top of the splitter:

* ``@string`` macros are kept across chunks and ``#`` concatenation is resolved (bibtexparser#396);
  the month macros ``jan`` … ``dec`` are predefined; an undefined macro is reported and kept as its
  name when it is the whole value, read as the empty string (as bibtex does) when joined by ``#``.
  Macros are expanded on use, within limits (:mod:`~bibconv.formats.bibtex.macros`).
* ``@preamble`` and ``@comment`` blocks have no home in a record: each is kept, as written, in the
  ``extra`` of the next entry (``bibtex:before``; blocks after the last entry go to its
  ``bibtex:after``), and the BibTeX writers write them back in place. Other writers drop them, as they
  drop ``@string`` definitions (values are always written expanded) and text between entries.
* ``crossref`` and ``xdata`` inheritance (biblatex rules: a ``@book`` parent's ``title`` is an
  ``@inbook`` child's ``booktitle``; BibTeX copies missing fields by name). A child may come before its
  parent, so the reader makes a first pass that finds the referenced keys with a regular expression
  and, only if there are any, a second pass that keeps those parents' fields; then the records are read.
  Memory holds only the parents. A stream that cannot seek (a pipe) is first copied to a temporary
  spool file (in memory up to 16 MiB, on disk beyond). The children keep ``crossref``/``xdata`` in
  ``extra``; their records hold the inherited fields too, so they are complete in every output.
* Duplicate keys and fields are reported (the first field wins, as in BibTeX); entry keys that are
  missing (EndNote writes ``@article{`` followed by fields) are reported and left for the key module.

The hashes of the keys seen (for duplicate reports, about 60 bytes an entry) and the ``@string``
macros (unexpanded) are the only things that grow with the input.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any, ClassVar

from bibconv.errors import ParseError
from bibconv.formats.bibtex.commands import Commands
from bibconv.formats.bibtex.faithful import dialect_of
from bibconv.formats.bibtex.fields import build_record
from bibconv.formats.bibtex.inherit import ALIASES, INHERIT_SKIP, inherit_renames
from bibconv.formats.bibtex.macros import ExpansionError, Macros
from bibconv.formats.bibtex.safety import NEWLINES_RE
from bibconv.formats.bibtex.scan import ScannedEntry, ScannedString
from bibconv.formats.bibtex.syntax import RAW_KEY_RE, blocks, chunks, resolve_value, source_value
from bibconv.formats.bibtex.table import MONTH_MACROS, TEX_KEPT
from bibconv.formats.bibtex.write import BiblatexWriter, BibtexWriter
from bibconv.formats.encoding import read_as_single_byte
from bibconv.model import Record, Source
from bibconv.patterns import lazy
from bibconv.registry import ReadContext, register
from bibconv.textio import open_text, sniff_encoding, spooled

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = [
    "MONTH_MACROS",
    "RAW_TYPE_RE",
    "TEX_KEPT",
    "BiblatexReader",
    "BiblatexWriter",
    "BibtexReader",
    "BibtexWriter",
    "Entries",
    "ExpansionError",
    "Macros",
    "build_record",
    "resolve_value",
]


_REF_RE = lazy(r"\b(?:crossref|xdata)\s*=\s*[{\"]?\s*([^}\"\n]+)", re.I)
RAW_TYPE_RE = lazy(r"\s*@\s*(\w+)")
"""The entry type as written at the start of a block (``@ARTICLE``), which parsers lower-case."""

_SNIFF_RE = lazy(r"^[ \t]*@[ \t]*(\w+)[ \t]*[{(]", re.M)
_KNOWN_SNIFF = frozenset([
    "article", "book", "booklet", "inbook", "incollection", "inproceedings", "conference", "manual",
    "mastersthesis", "phdthesis", "misc", "proceedings", "techreport", "unpublished", "online",
    "report", "thesis", "string", "preamble", "comment", "collection", "software", "dataset",
])  # fmt: skip


def _quiet_splitter() -> None:
    # The splitter logs every failed block; bibconv reports them itself. (logging is loaded only for
    # bibtexparser, which reads: writing BibTeX needs neither.)
    import logging

    logging.getLogger("bibtexparser.splitter").setLevel(logging.CRITICAL)


class Entries:
    """Turns the blocks of one input into records: strings, inheritance, file-level blocks.

    Public with :func:`build_record` so that other sources of BibTeX entries (pybtex's and
    bibtexparser's objects, :mod:`bibconv.interop`) are read with the same rules.
    """

    def __init__(
        self, ctx: ReadContext, parents: dict[str, tuple[str, dict[str, str]]] | None = None
    ) -> None:
        self.ctx = ctx
        self.macros = Macros()
        self.parents = parents or {}
        self.keys: set[int] = set()  # hashes of the keys seen: the one thing that grows
        # A context reading one piece of an input (bibconv.parallel) notes the keys first seen in it.
        self.first_key: Callable[[str, int], None] | None = getattr(ctx, "first_key", None)
        self.pending: list[str] = []
        self.commands = Commands()

    def expand(self, fields: dict[str, str]) -> dict[str, list[str]]:
        """Expand the ``@preamble`` commands and sorting hints in ``fields`` (in place); what each
        changed field was as written and what it reads as (``extra["bibtex:tex"]``)."""
        kept: dict[str, list[str]] = {}
        for name, raw in fields.items():
            expanded = self.commands.expand(raw)
            if expanded is not None and expanded != raw:
                kept[name] = [_one_line(raw), _one_line(expanded)]
                fields[name] = expanded
        return kept

    def fields(self, block: Any, line: int) -> dict[str, str]:
        """Field name (lower case) -> TeX text; duplicates reported, the first kept."""
        out: dict[str, str] = {}
        undefined: list[str] = []
        for field in block.fields:
            name = field.key.strip().lower()
            if "%" in name:  # a commented-out line before the field name (biber skips such lines)
                name = name.rsplit("\n", 1)[-1].lstrip("% \t")
            try:
                value = self.macros.resolve(field.value, undefined)
            except ExpansionError as exc:
                raise ExpansionError(f"field {name!r}: {exc}") from None
            if name in out:
                self.ctx.warn(
                    f"duplicate field {field.key!r}: the first value is kept", line, block.key or None
                )
                continue
            out[name] = value
        if undefined:
            for token in dict.fromkeys(undefined):
                self.ctx.warn(f"undefined @string macro {token}", line, block.key or None)
        return out

    def string(self, block: Any) -> None:
        name = block.key.strip().lower()
        self.macros.define(name, block.value)

    def source(self, block: Any) -> tuple[tuple[str, str], ...]:
        """The entry's fields as written (names in lower case, the first of duplicates), macros of
        the input's ``@string`` blocks put in (see :func:`~bibconv.formats.bibtex.syntax.source_value`)."""
        out: dict[str, str] = {}
        for field in block.fields:
            name = field.key.strip().lower()
            if "%" in name:
                name = name.rsplit("\n", 1)[-1].lstrip("% \t")
            if name not in out:
                out[name] = source_value(field.value, self.macros.defined)
        return tuple(out.items())

    def inherit(self, fields: dict[str, str], entry_type: str, line: int, key: str | None) -> dict[str, str]:
        refs = [("crossref", fields["crossref"])] if "crossref" in fields else []
        refs += [("xdata", k) for k in fields.get("xdata", "").split(",") if k.strip()]
        for kind, ref in refs:
            parent = self.parents.get(ref.strip().lower())
            if parent is None:
                self.ctx.warn(f"{kind} target {ref.strip()!r} not found", line, key)
                continue
            parent_type, parent_fields = parent
            renames = inherit_renames(parent_type, entry_type) if kind == "crossref" else {}
            renamed = {t for targets in renames.values() for t in targets}
            have = {ALIASES.get(name, name) for name in fields}
            for name, value in parent_fields.items():
                if name in INHERIT_SKIP:
                    continue
                for target in renames.get(name, () if name in renamed else (name,)):
                    group = ALIASES.get(target, target)
                    if group not in have:  # the parent's journal does not add to a child's booktitle
                        fields[target] = value
                        have.add(group)
        return fields


def _one_line(tex: str) -> str:
    """``tex`` on one line, as bibtex reads a field and the writers write it (line breaks are spaces)."""
    return NEWLINES_RE.sub(" ", tex.strip())


def _may_name_parents(stream: IO[bytes]) -> bool:
    """Whether the input has the word ``crossref`` or ``xdata`` (any case), from its bytes.

    Text in UTF-16 or UTF-32 (by its byte-order mark) is taken to have them.
    """
    start = stream.tell()
    head = stream.read(4)
    found = sniff_encoding(head) not in ("utf-8", "utf-8-sig")
    tail = head
    while not found:
        block = stream.read(1 << 16)
        if not block:
            break
        window = (tail + block).lower()
        found = b"crossref" in window or b"xdata" in window
        tail = block[-7:]
    stream.seek(start)
    return found


def _parents(
    stream: IO[bytes], ctx: ReadContext, single_byte: int | None
) -> dict[str, tuple[str, dict[str, str]]]:
    """The fields of every entry that a ``crossref`` or ``xdata`` field names (two quick passes)."""
    from bibtexparser.model import Entry, String

    start = stream.tell()
    if not _may_name_parents(stream):
        return {}
    wanted: set[str] = set()
    quiet = ReadContext(ctx.filename, strict=False)
    for _, chunk in chunks(open_text(stream, quiet, single_byte=single_byte)):
        if "crossref" in chunk.lower() or "xdata" in chunk.lower():
            for m in _REF_RE.finditer(chunk):
                wanted.update(k.strip().lower() for k in m[1].split(",") if k.strip())
    stream.seek(start)
    if not wanted:
        return {}
    entries = Entries(quiet)
    parents: dict[str, tuple[str, dict[str, str]]] = {}
    for line, block in blocks(open_text(stream, quiet, single_byte=single_byte), quiet):
        try:
            if isinstance(block, (String, ScannedString)):
                entries.string(block)
            elif isinstance(block, (Entry, ScannedEntry)) and block.key.strip().lower() in wanted:
                parents.setdefault(block.key.strip().lower(), (block.entry_type, entries.fields(block, line)))
        except ValueError:  # reported when the entry itself is read
            continue
    stream.seek(start)
    # A parent may itself inherit (an @inbook crossref'ing a @book with xdata).
    resolver = Entries(quiet, parents)
    for key, (entry_type, fields) in list(parents.items()):
        parents[key] = (entry_type, resolver.inherit(dict(fields), entry_type, 0, key))
    return parents


def _with_extra(record: Record, key: str, value: object) -> Record:
    """``record`` with ``extra[key]`` set, in the record as read (its ``source``) too."""
    extra = {**record.extra, key: value}
    source = record.source
    if source is not None:
        source = replace(source, read=source.read.replace(extra=extra))
    return record.replace(extra=extra, source=source)


@register
class BibtexReader:
    """Reads BibTeX and biblatex files (both dialects' fields, every entry type)."""

    name: ClassVar[str] = "bibtex"
    extensions: ClassVar[tuple[str, ...]] = (".bib", ".bibtex")
    description: ClassVar[str] = "BibTeX (.bib), also reads biblatex"

    @staticmethod
    def sniff(head: str) -> float:
        types = [m.lower() for m in _SNIFF_RE.findall(head)]
        if not types:
            return 0.0
        return 0.9 if any(t in _KNOWN_SNIFF for t in types) else 0.5

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input before entries into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.formats.bibtex.split import split

        return split(stream, size)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        from bibtexparser.model import Entry, ExplicitComment, ParsingFailedBlock, Preamble, String

        _quiet_splitter()
        stream = spooled(stream)
        single_byte = read_as_single_byte(stream, ctx.state)
        entries = Entries(ctx, _parents(stream, ctx, single_byte))
        held: Record | None = None
        for line, block in blocks(open_text(stream, ctx, single_byte=single_byte), ctx):
            if type(block) is not ScannedEntry:  # the common block, told at once (the others are ABCs)
                if isinstance(block, ParsingFailedBlock):
                    key = RAW_KEY_RE.match(block.raw or "")
                    reason = getattr(block.error, "abort_reason", None) or str(block.error)
                    ctx.fail(ParseError(reason.strip(), ctx.span(line), key[1] if key else None))
                    continue
                if isinstance(block, (String, ScannedString)):
                    try:
                        entries.string(block)
                    except ValueError as exc:
                        ctx.fail(ParseError(f"@string {block.key}: {exc}", ctx.span(line)))
                    continue
                if isinstance(block, (Preamble, ExplicitComment)):
                    entries.pending.append(block.raw)  # type: ignore[arg-type,unused-ignore]
                    if isinstance(block, Preamble):
                        with contextlib.suppress(ValueError):  # kept as written, its commands not expanded
                            entries.commands.define(entries.macros.resolve(block.value))
                    continue
                if not isinstance(block, Entry):
                    continue
            record = self._record(block, line, entries)
            if record is None:
                continue
            if held is not None:
                yield held
            held = record
        if held is not None:
            if entries.pending:
                held = _with_extra(held, "bibtex:after", entries.pending)
            yield held
        elif entries.pending:
            ctx.warn("@preamble/@comment blocks dropped: the input has no entries")

    @staticmethod
    def _record(block: Any, line: int, entries: Entries) -> Record | None:
        ctx = entries.ctx
        key = block.key.strip()
        if not key:
            ctx.warn("entry has no key; one will be made when it is written", line)
        elif (hashed := hash(key.lower())) in entries.keys:
            ctx.warn(f"duplicate entry key {key!r}", line, key)
        else:
            entries.keys.add(hashed)
            if entries.first_key is not None:
                entries.first_key(key, line)
        kind = getattr(block, "written_type", None)  # a ScannedEntry's; else from the text
        if kind is None:
            written = RAW_TYPE_RE.match(block.raw or "")
            kind = written[1] if written else block.entry_type
        try:
            fields = entries.fields(block, line)
            if "crossref" in fields or "xdata" in fields:
                fields = entries.inherit(fields, block.entry_type, line, key or None)
            tex = entries.expand(fields)
            record = build_record(kind, key, fields, line, ctx)
        except (ValueError, TypeError, KeyError) as exc:  # a value the mapping cannot take
            ctx.fail(ParseError(str(exc), ctx.span(line), key or None))
            return None
        if tex or entries.pending:
            extra = {**record.extra, TEX_KEPT: tex} if tex else dict(record.extra)
            if entries.pending:
                extra["bibtex:before"] = entries.pending
                entries.pending = []
            record = record.replace(extra=extra)
        try:
            written_fields = entries.source(block)
        except ValueError:  # a value the record took but that cannot be written back as it is
            return record
        dialect = dialect_of([name for name, _ in written_fields])
        return record.replace(source=Source("bibtex", record, kind, written_fields, dialect))


@register
class BiblatexReader(BibtexReader):
    """The BibTeX reader under the name ``biblatex`` (same dialect-agnostic reading)."""

    name: ClassVar[str] = "biblatex"
    extensions: ClassVar[tuple[str, ...]] = (".biblatex",)
    description: ClassVar[str] = "biblatex (.bib); read like BibTeX"

    @staticmethod
    def sniff(head: str) -> float:
        return BibtexReader.sniff(head) / 2
