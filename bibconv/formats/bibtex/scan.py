r"""A fast scanner for the common shape of BibTeX entries, exact or silent.

:func:`scan` reads a chunk (see :func:`bibconv.formats.bibtex.syntax.chunks`) made only of
well-formed ``@type{key, name = value, …}`` entries and the text between them, and gives the
same entries, keys, fields and raw text that bibtexparser's splitter gives through
:func:`bibconv.formats.bibtex.syntax.split` (every brace counted, ``\{`` too, as BibTeX does), and
the same ``@string`` blocks of the plain shape ``@string{name = "text" # {text} # macro}`` (no
backslash, ``@`` or nested braces in the value). Anything else — other ``@string`` blocks,
``@preamble`` and ``@comment`` blocks, ``(``-delimited entries, a
``{"}`` in a quoted value, a field name it would not take as written, an entry that does not close,
a block start at the start of a line inside an entry — makes it give ``None``, and the chunk goes
through the splitter. Text outside entries is skipped (the reader has no use for it).
"""

from __future__ import annotations

from typing import NamedTuple

from bibconv.latex.tex import bibtex_group_end
from bibconv.patterns import lazy

__all__ = ["ScannedEntry", "ScannedField", "ScannedString", "scan"]

# The splitter's block start: '@', a type, blanks, and an opening delimiter.
_BLOCK_START = lazy(r"@\w*[ \t]*(?=[{(])")
_OTHER_BLOCKS = ("@comment", "@preamble", "@string")
# A block start at the start of a line, which would end an entry still open (the splitter's rule).
_LINE_START_BLOCK = lazy(r"\n[^\S\n]*+@\w*+[ \t]*+[{(]")  # from the last line end before it
# The key: no delimiter, quote, '=', '@' or backslash before the ',' (or the '}' of an empty entry).
_KEY = lazy(r"([^,{}\"=@\\]*)([,}])")
_NAME = lazy(r"\s*([^\s,{}\"=@\\#%()]+)\s*=")
_CLOSE = lazy(r"\s*\}")
# A plain @string block after its '{': the name, '=', parts joined by '#', the closing '}'.
_STRING_PART = r'(?:"[^"{}\\@]*"|\{[^{}\\@]*\}|[^\s{}"=,@\\#%()]+)'
_STRING_BODY = lazy(rf'\s*([^\s{{}}"=,@\\#%()]+)\s*=\s*({_STRING_PART}(?:\s*#\s*{_STRING_PART})*)\s*\}}')
# What ends or nests a value: braces (all of them, escaped or not), unescaped quotes and commas.
_VALUE_MARK = lazy(r'[{}]|(?<!\\)[",]')
# A value of one braced group holding no brace, with no brace, quote, comma or backslash around it,
# up to the ',' or '}' that ends it: the common value, whose end _value_end would find.
_BRACED_VALUE = lazy(r'[^{}",\\]*\{[^{}]*\}[^{}",\\]*[,}]')


class ScannedField(NamedTuple):
    """One ``name = value`` of an entry, both as the splitter gives them (stripped)."""

    key: str
    value: str


class ScannedEntry:
    """An entry as :func:`scan` found it: the attributes of bibtexparser's ``Entry`` the reader uses."""

    __slots__ = ("entry_type", "fields", "key", "raw", "start_line", "written_type")

    def __init__(
        self, written_type: str, key: str, fields: list[ScannedField], raw: str, start_line: int
    ) -> None:
        self.written_type = written_type  # as written (``ARTICLE``); ``entry_type`` is in lower case
        self.entry_type = written_type.lower()
        self.key = key
        self.fields = fields
        self.raw = raw
        self.start_line = start_line


class ScannedString(NamedTuple):
    """A ``@string`` block as :func:`scan` found it: the attributes of bibtexparser's ``String``."""

    key: str
    value: str
    raw: str
    start_line: int


def _value_end(text: str, start: int) -> int:
    """Index of the ``,`` or ``}`` that ends the value starting at ``start``, or -1 if unusual."""
    quoted = False
    pos = start
    while True:
        match = _VALUE_MARK.search(text, pos)
        if match is None:
            return -1
        mark, pos = match.group(), match.start()
        if mark == '"':
            if quoted and text[pos - 1] == "{":
                return -1  # {"} inside quotes: the splitter's own rule, left to it
            quoted = not quoted
        elif quoted:
            pass  # braces and commas inside quotes are text to the splitter
        elif mark == "{":
            after = bibtex_group_end(text, pos + 1)
            if after is None:
                return -1
            pos = after - 1
        else:
            return pos  # ',' or '}' outside braces and quotes
        pos += 1


def _entry(chunk: str, at: int, body: int) -> tuple[str, list[ScannedField], int] | None:
    """Key, fields and end of the entry whose ``{`` is at ``body``; ``None`` if unusual."""
    head = _KEY.match(chunk, body + 1)
    if head is None:
        return None
    key = head.group(1).strip()
    fields: list[ScannedField] = []
    pos = head.end()
    if head.group(2) == "}":
        end = pos
    else:
        while True:
            name = _NAME.match(chunk, pos)
            if name is None:
                close = _CLOSE.match(chunk, pos)
                if close is None:
                    return None
                end = close.end()
                break
            braced = _BRACED_VALUE.match(chunk, name.end())
            stop = braced.end() - 1 if braced else _value_end(chunk, name.end())
            if stop < 0:
                return None
            fields.append(ScannedField(name.group(1), chunk[name.end() : stop].strip()))
            pos = stop + 1
            if chunk[stop] == "}":
                end = pos
                break
    if chunk.find("@", body, end) >= 0 and _LINE_START_BLOCK.search(chunk, body, end):
        return None
    return key, fields, end


def scan(chunk: str) -> list[ScannedEntry | ScannedString] | None:
    """The entries and ``@string`` blocks of ``chunk``, or ``None`` when it holds anything but
    plain ones."""
    entries: list[ScannedEntry | ScannedString] = []
    pos = 0
    line = 0
    counted = 0
    while True:
        start = _BLOCK_START.search(chunk, pos)
        if start is None:
            return entries
        written = start.group()
        kind = written.lower()
        body = start.end()
        if chunk[body] != "{":
            return None
        # The splitter does not count a line end after a backslash (it takes it for an escape).
        line += chunk.count("\n", counted, start.start()) - chunk.count("\\\n", counted, start.start())
        counted = start.start()
        if kind.rstrip() == "@string":
            string = _STRING_BODY.match(chunk, body + 1)
            if string is None:
                return None
            pos = string.end()
            entries.append(ScannedString(string[1], string[2], chunk[start.start() : pos], line))
            continue
        if kind.startswith(_OTHER_BLOCKS):
            return None
        found = _entry(chunk, start.start(), body)
        if found is None:
            return None
        key, fields, pos = found
        entries.append(ScannedEntry(written[1:].strip(), key, fields, chunk[start.start() : pos], line))
