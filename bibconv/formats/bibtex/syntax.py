r"""BibTeX syntax on top of bibtexparser's splitter: chunks cut at entry boundaries, value resolution.

Used by :mod:`bibconv.formats.bibtex`. :func:`chunks` cuts the text before a line that starts an
entry (``@type{`` at brace depth 0) once a chunk is :data:`CHUNK_SIZE` long; :func:`blocks` reads a
chunk of plain entries with :func:`bibconv.formats.bibtex.scan.scan` (the same blocks, faster),
any other with :func:`split`, which runs the splitter on it, counting ``\{`` as a brace as BibTeX
does; :func:`resolve_value` turns a field's value expression (``{…}``, ``"…"``, numbers,
``@string`` macros joined by ``#``) into TeX text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import IO, Any, TypeVar

from bibconv.errors import ParseError
from bibconv.formats.bibtex.scan import scan
from bibconv.latex.tex import bibtex_group_end, splitter_group_end
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = [
    "CHUNK_SIZE",
    "NEWLINES_RE",
    "RAW_KEY_RE",
    "blocks",
    "chunks",
    "pieces",
    "resolve_value",
    "source_value",
    "split",
    "value_parts",
    "value_pieces",
]

CHUNK_SIZE = 1 << 18
"""Characters gathered before the text is cut at the next entry boundary."""
_MAX_CHUNK = 1 << 23
"""An entry whose braces never close is cut anyway once its chunk grows this large."""
_MARK = "\ufdd4"
# A run of spaces holding a line end, taken whole from its start (linear under search).
NEWLINES_RE = lazy(r"(?<!\s)[^\S\r\n]*+[\r\n]\s*+")
RAW_KEY_RE = lazy(r"^\s*@\w*\s*[{(]\s*([^,\s{}()=]+)\s*,")
_BLOCK_LINE_RE = lazy(r"^[ \t]*@[\w]*[ \t]*[{(]")
_CUT_RE = lazy(r"\n[ \t]*@\w*[ \t]*[{(]")
_KEYLESS_RE = lazy(r"^([ \t]*@(?!string|preamble|comment)\w+[ \t]*\{)(?=\s*[\w.-]+\s*=)", re.I | re.M)
_TOKEN_RE = lazy(r"[^\s#{}\"=,]+")
T = TypeVar("T")


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


def resolve_value(expr: str, macros: Mapping[str, str], undefined: list[str] | None = None) -> str:
    """The TeX text of a field value: delimiters removed, ``@string`` macros and ``#`` resolved.

    An undefined macro that is the whole value is kept as its name (a style may define it), one
    joined by ``#`` to other parts is the empty string, as bibtex reads it; each is described in
    ``undefined`` (``'bar' read as empty``). A value that is not ``part # part …`` raises ``ValueError``.

    >>> resolve_value('"10~" # jan', {"jan": "January"})
    '10~January'
    >>> resolve_value('"Foo" # foo # bar', {"foo": "bar"}), resolve_value("jacm", {})
    ('Foobar', 'jacm')
    """
    return "".join(value_pieces(expr, macros, undefined))


def value_pieces(expr: str, macros: Mapping[str, T], undefined: list[str] | None = None) -> list[str | T]:
    """What :func:`resolve_value` joins: the value's text and its macros' values (``macros[name]``)."""
    expr = expr.strip()
    delimited = (expr[:1] == "{" and expr[-1:] == "}") or (expr[:1] == '"' and expr[-1:] == '"')
    if delimited and "#" not in expr:
        return [expr[1:-1]]
    try:
        return _pieces(expr, macros, undefined, literal=False)
    except ValueError:
        return _pieces(expr, macros, undefined, literal=True)


def _pieces(expr: str, macros: Mapping[str, T], undefined: list[str] | None, literal: bool) -> list[str | T]:
    pieces: list[str | T] = []
    found = value_parts(expr, literal)
    for kind, text in found:
        if kind == "macro" and text.lower() in macros:
            pieces.append(macros[text.lower()])
        elif kind == "macro":
            alone = len(found) == 1
            if undefined is not None:
                how = "kept as its name" if alone else "read as empty, as bibtex does"
                undefined.append(f"{text!r} {how}")
            pieces.append(text if alone else "")
        else:
            pieces.append(text)
    return pieces


def value_parts(expr: str, literal: bool) -> list[tuple[str, str]]:
    """The parts of ``part # part …``: ``("text", inner)``, ``("number", digits)``, ``("macro", name)``."""
    if "{" not in expr and '"' not in expr and "%" not in expr:  # names and numbers only: split at '#'
        names = [name.strip() for name in expr.split("#")]
        if all(_TOKEN_RE.fullmatch(name) for name in names):
            return [("number" if name.isdigit() else "macro", name) for name in names]
    parts: list[tuple[str, str]] = []
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
        if ch in '{"':
            if ch == "{":  # a brace right after a backslash counts only for BibTeX (``literal``)
                after = (bibtex_group_end if literal else splitter_group_end)(expr, i + 1)
                end = -1 if after is None else after - 1
            else:
                end = _match_quote(expr, i)
            if end < 0:
                raise ValueError(f"unbalanced {ch!r} in value")
            parts.append(("text", expr[i + 1 : end]))
            i = end + 1
            continue
        m = _TOKEN_RE.match(expr, i)
        if m is None:
            raise ValueError(f"unexpected {ch!r} in value")
        token = m.group(0)
        parts.append(("number" if token.isdigit() else "macro", token))
        i = m.end()
    if expect_part and parts:
        raise ValueError("'#' at the end of a value")
    return parts


def source_value(expr: str, defined: Mapping[str, Any]) -> str:
    r"""A value expression as a writer may write it back: as read, but with each macro that an
    ``@string`` of the input defines (``defined``) replaced by its text in braces; month macros and
    macros a style may define are kept by name, so each style still spells them its own way.

    >>> source_value('"10~" # jan', {})
    '{10~} # jan'
    >>> source_value('acm # ", " # {1986}', {"acm": "ACM Press"})
    '{ACM Press} # {, } # {1986}'
    """
    expr = expr.strip()
    delimited = (expr[:1] == "{" and expr[-1:] == "}") or (expr[:1] == '"' and expr[-1:] == '"')
    if delimited and "#" not in expr:
        return expr if expr[0] == "{" else "{" + expr[1:-1] + "}"
    if "%" not in expr and _TOKEN_RE.fullmatch(expr) and (expr.isdigit() or expr.lower() not in defined):
        return expr  # a number, or a name the input does not define: as written
    try:
        parts = value_parts(expr, literal=False)
    except ValueError:
        parts = value_parts(expr, literal=True)
    out = []
    for kind, text in parts:
        if kind == "macro" and text.lower() in defined:
            value = defined[text.lower()]  # text, or a Macro (bibconv.formats.bibtex.macros)
            out.append("{" + (value if isinstance(value, str) else value.text()) + "}")
        elif kind == "text":
            out.append("{" + text + "}")
        else:
            out.append(text)
    return " # ".join(out)


def chunks(text: IO[str]) -> Iterator[tuple[int, str]]:
    """``(first line number, text)`` pieces of the input, each ending before an entry boundary.

    Line ends become ``\\n``. A piece is cut before the first line that starts a block
    (``@type{``) once the piece is :data:`CHUNK_SIZE` long and its braces are balanced (``\\{``
    does not count), or once it is :data:`_MAX_CHUNK` long whatever its braces. The text is
    searched in bulk, not line by line; where it is cut depends on the text alone.
    """
    buffer = ""  # the piece being gathered, from its first line
    parts: list[str] = []  # text read after buffer
    size = 0  # and its length
    first = 1  # line number of buffer[0]
    depth = 0  # brace depth at buffer[counted]
    counted = 0
    searched = 0  # no line before this one starts a cut

    def cut_pieces(final: bool) -> Iterator[tuple[int, str]]:
        nonlocal buffer, first, depth, counted, searched
        # A line can be judged once it is whole: up to the last line end, or to the end.
        end = len(buffer) if final else buffer.rfind("\n") + 1
        while True:
            found = _CUT_RE.search(buffer, max(CHUNK_SIZE - 1, counted, searched), end)
            if found is None:
                searched = max(searched, end - 1)
                return
            cut = found.start() + 1
            depth += _depth(buffer, counted, cut)
            counted = cut
            if depth > 0 and cut < _MAX_CHUNK:
                continue
            yield first, buffer[: cut - 1]
            first += buffer.count("\n", 0, cut)
            buffer, end = buffer[cut:], end - cut
            depth = counted = searched = 0

    held_cr = False
    for read in iter(lambda: text.read(1 << 16), ""):
        if held_cr:
            read = "\r" + read
        # A read ending in CR may be the first half of a CRLF: decide with the next one.
        held_cr = read.endswith("\r")
        if held_cr:
            read = read[:-1]
        if "\r" in read:
            read = read.replace("\r\n", "\n").replace("\r", "\n")
        parts.append(read)
        size += len(read)
        # Join when a cut may be due, and not for every read of a long piece (no quadratic copying).
        if len(buffer) + size >= CHUNK_SIZE and size >= len(buffer) >> 2:
            buffer += "".join(parts)
            parts, size = [], 0
            yield from cut_pieces(final=False)
    buffer += "".join(parts) + ("\n" if held_cr else "")
    yield from cut_pieces(final=True)
    if buffer:
        yield first, buffer[:-1] if buffer.endswith("\n") else buffer


def _depth(text: str, start: int, end: int) -> int:
    """How much deeper in braces ``text[end]`` is than ``text[start]`` (``\\{`` and ``\\}`` not counted)."""
    if "{" not in text[start:end] and "}" not in text[start:end]:
        return 0
    opened = text.count("{", start, end) - text.count("\\{", start, end)
    return opened - text.count("}", start, end) + text.count("\\}", start, end)


def split(chunk: str, literal: bool = True) -> list[Any]:
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
    starts = dict(pieces(chunk))
    for block in blocks:
        piece = starts.get(block.start_line or 0)
        if isinstance(block, ParsingFailedBlock) and block.ignore_error_block is None and piece:
            again = split(piece, literal=False)
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
    for name in ("key", "_key", "value", "comment", "_value", "_comment"):
        value = getattr(block, name, None)
        if isinstance(value, str) and _MARK in value:
            setattr(block, name, value.replace(_MARK, ""))


def blocks(text: IO[str], ctx: ReadContext) -> Iterator[tuple[int, Any]]:
    """``(line, block)`` for every block of the input, with file line numbers."""
    from bibtexparser.model import ParsingFailedBlock

    for first, chunk in chunks(text):
        scanned = scan(chunk)  # plain entries only; anything else goes through the splitter
        if scanned is not None:
            for entry in scanned:
                yield first + entry.start_line, entry
            continue
        try:
            blocks = split(chunk)
        except Exception:
            blocks = []
            for line_offset, piece in pieces(chunk):
                try:
                    part = split(piece)
                except Exception:
                    key = RAW_KEY_RE.match(piece)
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


def pieces(chunk: str) -> Iterator[tuple[int, str]]:
    lines = chunk.split("\n")
    start = 0
    for i, line in enumerate(lines):
        if i > start and _BLOCK_LINE_RE.match(line):
            yield start, "\n".join(lines[start:i])
            start = i
    yield start, "\n".join(lines[start:])
