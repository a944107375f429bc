r"""BibTeX and biblatex: the reader (``bibtex``, also registered as ``biblatex``) and, through
:mod:`bibconv.formats.bibtex_write`, the two writers.

Reading is streaming. The text is cut into chunks at entry boundaries (a line starting with
``@type{`` or ``@type(`` at brace depth 0), and each chunk goes through bibtexparser v2's
fault-tolerant :class:`~bibtexparser.splitter.Splitter`; a block it cannot parse is reported with
its file, line and entry key (``ctx.fail``) and the rest come through. On top of the splitter:

* ``@string`` macros are kept across chunks and ``#`` concatenation is resolved (bibtexparser#396);
  the month macros ``jan`` … ``dec`` are predefined, an undefined macro is reported and kept as its name.
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

The hashes of the keys seen (for duplicate reports, about 60 bytes an entry) are the only thing
that grows with the input.
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from collections.abc import Iterator
from typing import IO, Any, ClassVar

from bibconv.errors import ParseError
from bibconv.formats.bibtex_fields import build_record
from bibconv.formats.bibtex_map import ALIASES, INHERIT_SKIP, MONTH_MACROS, inherit_renames
from bibconv.formats.bibtex_write import BiblatexWriter, BibtexWriter
from bibconv.model import Record
from bibconv.registry import ReadContext, register
from bibconv.textio import iter_lines, open_text

__all__ = ["BiblatexReader", "BiblatexWriter", "BibtexReader", "BibtexWriter", "resolve_value"]

CHUNK_SIZE = 1 << 18
"""Characters gathered before the text is cut at the next entry boundary."""
_MAX_CHUNK = 1 << 23
"""An entry whose braces never close is cut anyway once its chunk grows this large."""
_SPOOL_SIZE = 1 << 24
_MARK = "\ufdd4"

_BLOCK_LINE_RE = re.compile(r"^[ \t]*@[\w]*[ \t]*[{(]")
_KEYLESS_RE = re.compile(r"^([ \t]*@(?!string|preamble|comment)\w+[ \t]*\{)(?=\s*[\w.-]+\s*=)", re.I | re.M)
_RAW_KEY_RE = re.compile(r"^\s*@\w*\s*[{(]\s*([^,\s{}()=]+)\s*,")
_REF_RE = re.compile(r"\b(?:crossref|xdata)\s*=\s*[{\"]?\s*([^}\"\n]+)", re.I)
_RAW_TYPE_RE = re.compile(r"\s*@\s*(\w+)")
_TOKEN_RE = re.compile(r"[^\s#{}\"=,]+")
_SPECIAL_BLOCKS = {"comment", "preamble"}

_SNIFF_RE = re.compile(r"^[ \t]*@[ \t]*(\w+)[ \t]*[{(]", re.M)
_KNOWN_SNIFF = frozenset(
    [
        "article",
        "book",
        "booklet",
        "inbook",
        "incollection",
        "inproceedings",
        "conference",
        "manual",
        "mastersthesis",
        "phdthesis",
        "misc",
        "proceedings",
        "techreport",
        "unpublished",
        "online",
        "report",
        "thesis",
        "string",
        "preamble",
        "comment",
        "collection",
        "software",
        "dataset",
    ]
)


def _quiet_splitter() -> None:
    # The splitter logs every failed block; bibconv reports them itself.
    logging.getLogger("bibtexparser.splitter").setLevel(logging.CRITICAL)


def _match_brace(text: str, start: int, literal: bool = False) -> int:
    """Index of the ``}`` closing the ``{`` at ``start`` (``-1`` if none).

    ``\\{`` does not count unless ``literal`` (BibTeX itself counts every brace).
    """
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{" and (literal or i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (literal or i == 0 or text[i - 1] != "\\"):
            depth -= 1
            if depth == 0:
                return i
    return -1


def _match_quote(text: str, start: int) -> int:
    depth = 0
    for i in range(start + 1, len(text)):
        ch = text[i]
        if ch == "{" and text[i - 1] != "\\":
            depth += 1
        elif ch == "}" and text[i - 1] != "\\":
            depth -= 1
        elif ch == '"' and depth == 0:
            return i
    return -1


def resolve_value(expr: str, macros: dict[str, str], undefined: list[str] | None = None) -> str:
    """The TeX text of a field value: delimiters removed, ``@string`` macros and ``#`` resolved.

    Undefined macros are kept as their name and appended to ``undefined``; a value that is not
    ``part # part …`` raises ``ValueError``.

    >>> resolve_value('"10~" # jan', {"jan": "January"})
    '10~January'
    """
    expr = expr.strip()
    delimited = (expr[:1] == "{" and expr[-1:] == "}") or (expr[:1] == '"' and expr[-1:] == '"')
    if delimited and "#" not in expr:
        return expr[1:-1]
    try:
        return _parse_value(expr, macros, undefined, literal=False)
    except ValueError:
        return _parse_value(expr, macros, undefined, literal=True)


def _parse_value(expr: str, macros: dict[str, str], undefined: list[str] | None, literal: bool) -> str:
    parts: list[str] = []
    i, n = 0, len(expr)
    expect_part = True
    while i < n:
        ch = expr[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "%":  # a comment line inside the entry (biber skips these)
            newline = expr.find("\n", i)
            i = n if newline < 0 else newline + 1
            continue
        if ch == "#":
            if expect_part:
                raise ValueError("'#' without a value before it")
            expect_part = True
            i += 1
            continue
        if not expect_part:
            raise ValueError(f"missing ',' or '#' before {expr[i : i + 20]!r}")
        expect_part = False
        if ch in "{\"":
            end = _match_brace(expr, i, literal) if ch == "{" else _match_quote(expr, i)
            if end < 0:
                raise ValueError(f"unbalanced {ch!r} in value")
            parts.append(expr[i + 1 : end])
            i = end + 1
            continue
        m = _TOKEN_RE.match(expr, i)
        if m is None:
            raise ValueError(f"unexpected {ch!r} in value")
        token = m.group(0)
        if token.isdigit():
            parts.append(token)
        elif token.lower() in macros:
            parts.append(macros[token.lower()])
        else:
            if undefined is not None:
                undefined.append(token)
            parts.append(token)
        i = m.end()
    if expect_part and parts:
        raise ValueError("'#' at the end of a value")
    return "".join(parts)


def _chunks(text: IO[str]) -> Iterator[tuple[int, str]]:
    """``(first line number, text)`` pieces of the input, each ending before an entry boundary."""
    lines: list[str] = []
    size = 0
    depth = 0
    first = 1
    for number, line in iter_lines(text):
        if size >= CHUNK_SIZE and _BLOCK_LINE_RE.match(line) and (depth <= 0 or size >= _MAX_CHUNK):
            yield first, "\n".join(lines)
            lines, size, depth, first = [], 0, 0, number
        lines.append(line)
        size += len(line) + 1
        if "{" in line or "}" in line:
            escaped = line.count("\\{") - line.count("\\}")
            depth += line.count("{") - line.count("}") - escaped
    if lines:
        yield first, "\n".join(lines)


def _split(chunk: str, literal: bool = True) -> list[Any]:
    """The splitter's blocks; ``\\{`` and ``\\}`` count as braces, as they do for BibTeX.

    An entry that fails only because of that (``Thi\\{'ebaux``) is split again with the
    escaped braces not counted, as bibtexparser does.
    """
    from bibtexparser.model import ParsingFailedBlock
    from bibtexparser.splitter import Splitter

    if "{" in chunk:
        chunk = _KEYLESS_RE.sub(r"\1,", chunk)
    escaped = literal and ("\\{" in chunk or "\\}" in chunk)
    if not escaped:
        return list(Splitter(chunk).split().blocks)
    marked = chunk.replace("\\{", "\\" + _MARK + "{").replace("\\}", "\\" + _MARK + "}")
    blocks = list(Splitter(marked).split().blocks)
    for block in blocks:
        _unmark(block)
    if not any(isinstance(b, ParsingFailedBlock) and b.ignore_error_block is None for b in blocks):
        return blocks
    out: list[Any] = []
    pieces = dict(_pieces(chunk))
    for block in blocks:
        piece = pieces.get(block.start_line or 0)
        if isinstance(block, ParsingFailedBlock) and block.ignore_error_block is None and piece:
            again = _split(piece, literal=False)
            if not any(isinstance(b, ParsingFailedBlock) for b in again):
                for b in again:
                    b._start_line_in_file = (b.start_line or 0) + (block.start_line or 0)
                out.extend(again)
                continue
        out.append(block)
    return out


def _unmark(block: Any) -> None:
    inner = getattr(block, "ignore_error_block", None)
    if inner is not None:
        _unmark(inner)
    block._raw = block.raw.replace(_MARK, "") if block.raw else block.raw
    for field in getattr(block, "fields", None) or ():
        field.value = field.value.replace(_MARK, "")
    for name in ("value", "comment", "_value", "_comment"):
        value = getattr(block, name, None)
        if isinstance(value, str) and _MARK in value:
            setattr(block, name, value.replace(_MARK, ""))


def _blocks(text: IO[str], ctx: ReadContext) -> Iterator[tuple[int, Any]]:
    """``(line, block)`` for every block of the input, with file line numbers."""
    from bibtexparser.model import ParsingFailedBlock

    for first, chunk in _chunks(text):
        try:
            blocks = _split(chunk)
        except Exception:
            blocks = []
            for line_offset, piece in _pieces(chunk):
                try:
                    part = _split(piece)
                except Exception:
                    key = _RAW_KEY_RE.match(piece)
                    ctx.fail(
                        ParseError(
                            "cannot parse this block", ctx.span(first + line_offset), key[1] if key else None
                        )
                    )
                    continue
                for block in part:
                    block._start_line_in_file = (block.start_line or 0) + line_offset
                blocks.extend(part)
        for block in blocks:
            while isinstance(block, ParsingFailedBlock) and block.ignore_error_block is not None:
                block = block.ignore_error_block  # duplicate keys and fields are reported later
            yield first + (block.start_line or 0), block


def _pieces(chunk: str) -> Iterator[tuple[int, str]]:
    lines = chunk.split("\n")
    start = 0
    for i, line in enumerate(lines):
        if i > start and _BLOCK_LINE_RE.match(line):
            yield start, "\n".join(lines[start:i])
            start = i
    yield start, "\n".join(lines[start:])


def _spooled(stream: IO[bytes]) -> IO[bytes]:
    try:
        if stream.seekable():
            return stream
    except (AttributeError, ValueError):
        pass
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_SIZE)  # noqa: SIM115 - returned
    shutil.copyfileobj(stream, spool)
    spool.seek(0)
    return spool  # type: ignore[return-value]


class _Entries:
    """Turns the blocks of one input into records: strings, inheritance, file-level blocks."""

    def __init__(
        self, ctx: ReadContext, parents: dict[str, tuple[str, dict[str, str]]] | None = None
    ) -> None:
        self.ctx = ctx
        self.macros: dict[str, str] = dict(MONTH_MACROS)
        self.parents = parents or {}
        self.keys: set[int] = set()  # hashes of the keys seen: the one thing that grows
        self.pending: list[str] = []

    def fields(self, block: Any, line: int) -> dict[str, str]:
        """Field name (lower case) -> TeX text; duplicates reported, the first kept."""
        out: dict[str, str] = {}
        undefined: list[str] = []
        for field in block.fields:
            name = field.key.strip().lower()
            if "%" in name:  # a commented-out line before the field name (biber skips such lines)
                name = name.rsplit("\n", 1)[-1].lstrip("% \t")
            value = resolve_value(field.value, self.macros, undefined)
            if name in out:
                self.ctx.warn(
                    f"duplicate field {field.key!r}: the first value is kept", line, block.key or None
                )
                continue
            out[name] = value
        for token in dict.fromkeys(undefined):
            self.ctx.warn(f"undefined @string macro {token!r} kept as text", line, block.key or None)
        return out

    def string(self, block: Any) -> None:
        self.macros[block.key.strip().lower()] = resolve_value(block.value, self.macros)

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


def _parents(stream: IO[bytes], ctx: ReadContext) -> dict[str, tuple[str, dict[str, str]]]:
    """The fields of every entry that a ``crossref`` or ``xdata`` field names (two quick passes)."""
    from bibtexparser.model import Entry, String

    start = stream.tell()
    wanted: set[str] = set()
    quiet = ReadContext(ctx.filename, strict=False)
    for _, chunk in _chunks(open_text(stream, quiet)):
        if "crossref" in chunk.lower() or "xdata" in chunk.lower():
            for m in _REF_RE.finditer(chunk):
                wanted.update(k.strip().lower() for k in m[1].split(",") if k.strip())
    stream.seek(start)
    if not wanted:
        return {}
    entries = _Entries(quiet)
    parents: dict[str, tuple[str, dict[str, str]]] = {}
    for line, block in _blocks(open_text(stream, quiet), quiet):
        try:
            if isinstance(block, String):
                entries.string(block)
            elif isinstance(block, Entry) and block.key.strip().lower() in wanted:
                parents.setdefault(block.key.strip().lower(), (block.entry_type, entries.fields(block, line)))
        except ValueError:  # reported when the entry itself is read
            continue
    stream.seek(start)
    # A parent may itself inherit (an @inbook crossref'ing a @book with xdata).
    resolver = _Entries(quiet, parents)
    for key, (entry_type, fields) in list(parents.items()):
        parents[key] = (entry_type, resolver.inherit(dict(fields), entry_type, 0, key))
    return parents


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

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        from bibtexparser.model import Entry, ExplicitComment, ParsingFailedBlock, Preamble, String

        _quiet_splitter()
        stream = _spooled(stream)
        entries = _Entries(ctx, _parents(stream, ctx))
        held: Record | None = None
        for line, block in _blocks(open_text(stream, ctx), ctx):
            if isinstance(block, ParsingFailedBlock):
                key = _RAW_KEY_RE.match(block.raw or "")
                reason = getattr(block.error, "abort_reason", None) or str(block.error)
                ctx.fail(ParseError(reason.strip(), ctx.span(line), key[1] if key else None))
                continue
            if isinstance(block, String):
                try:
                    entries.string(block)
                except ValueError as exc:
                    ctx.fail(ParseError(f"@string {block.key}: {exc}", ctx.span(line)))
            elif isinstance(block, (Preamble, ExplicitComment)):
                entries.pending.append(block.raw)
            elif isinstance(block, Entry):
                record = self._record(block, line, entries)
                if record is None:
                    continue
                if held is not None:
                    yield held
                held = record
        if held is not None:
            if entries.pending:
                held = held.replace(extra={**held.extra, "bibtex:after": entries.pending})
            yield held
        elif entries.pending:
            ctx.warn("@preamble/@comment blocks dropped: the input has no entries")

    @staticmethod
    def _record(block: Any, line: int, entries: _Entries) -> Record | None:
        ctx = entries.ctx
        key = block.key.strip()
        if not key:
            ctx.warn("entry has no key; one will be made when it is written", line)
        elif hash(key.lower()) in entries.keys:
            ctx.warn(f"duplicate entry key {key!r}", line, key)
        else:
            entries.keys.add(hash(key.lower()))
        written = _RAW_TYPE_RE.match(block.raw or "")
        try:
            fields = entries.fields(block, line)
            if "crossref" in fields or "xdata" in fields:
                fields = entries.inherit(fields, block.entry_type, line, key or None)
            record = build_record(written[1] if written else block.entry_type, key, fields, line, ctx)
        except (ValueError, TypeError, KeyError) as exc:  # a value the mapping cannot take
            ctx.fail(ParseError(str(exc), ctx.span(line), key or None))
            return None
        if entries.pending:
            record = record.replace(extra={**record.extra, "bibtex:before": entries.pending})
            entries.pending = []
        return record


@register
class BiblatexReader(BibtexReader):
    """The BibTeX reader under the name ``biblatex`` (same dialect-agnostic reading)."""

    name: ClassVar[str] = "biblatex"
    extensions: ClassVar[tuple[str, ...]] = (".biblatex",)
    description: ClassVar[str] = "biblatex (.bib); read like BibTeX"

    @staticmethod
    def sniff(head: str) -> float:
        return BibtexReader.sniff(head) / 2
