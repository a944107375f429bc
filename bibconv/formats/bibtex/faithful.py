r"""Writing a BibTeX entry back as it was read: the faithful pass.

A record read from BibTeX carries its entry as written (:class:`bibconv.model.Source`: the entry
type, each field's value expression). While the record still equals what was read, a BibTeX writer
writes that entry back — type, fields in their order, TeX as written (``{\"O}``, ``{\noopsort{1973b}}1973``,
``Ragnhei{\d}ur``, ``{10~} # jan``), a ``crossref`` child with its own fields only — so bibtex and
biber typeset it as before. Macros of the input's ``@string`` blocks are written as their text in
braces (the output has no ``@string`` blocks); month macros and macros a style defines keep their
name, for each style spells them its own way.

An entry is written from its record's fields instead (:mod:`bibconv.formats.bibtex.write`) when the
record was changed on the way, when the ``normalize`` option is set, when it is written for classic
BibTeX and has fields BibTeX names otherwise (``journaltitle``, ``date``; biber reads BibTeX's names,
so any entry goes to biblatex as it is), when
``ascii`` is asked for and the entry is not ASCII, when a value's braces are not balanced both for
TeX and for BibTeX, or when a value holds a command off the allowlist (:mod:`bibconv.latex.allow`)
that no kept ``@preamble`` defines (the encoder then writes it as text, as for any record, and
warns); the warnings name the field. An entry written as read keeps its characters, and a warning
names a character pdflatex cannot set with T1 fonts (:mod:`bibconv.latex.charset`); a bare ``&``,
``%`` or ``#`` in a text field (one LaTeX stops on, or that comments out the rest of a ``.bbl``
line) is escaped, with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from bibconv.formats.bibtex.syntax import NEWLINES_RE, value_parts
from bibconv.formats.bibtex.table import ROWS
from bibconv.latex.allow import braces_balanced, tex_allowed
from bibconv.latex.charset import unset_char
from bibconv.model import Record
from bibconv.patterns import lazy

__all__ = ["as_read", "dialect_of"]

# Fields the writers name otherwise in classic BibTeX: an entry with one is biblatex.
_BIBLATEX_FIELDS = frozenset(["date", "journaltitle", "location", "eprinttype", "eprintclass", "annotation"])
_FIELD_NAME_RE = lazy(r"^[A-Za-z_][\w.:+-]*$")
_KIND_RE = lazy(r"^[A-Za-z]\w*$")
_MACRO_RE = lazy(r"^[A-Za-z][\w.:+/'-]*$")
# A run of spaces holding a line end, taken whole from its start (linear under search).
_SPECIAL_RE = lazy(r"[&%#]")
# A link's argument (kept), a control symbol (``\&``: kept), or a bare special.
_BARE_RE = lazy(r"\\(?:url|href|path|nolinkurl)\s*\{[^{}]*\}|\\.|[&%#]", re.S)
# A value in braces of printable ASCII with no brace, backslash, ^, & % or #: written as it is, with
# nothing to check (braces, commands, characters pdflatex cannot set) and nothing to escape.
_PLAIN_RE = lazy(r"\{[^{}\\^&%#\x00-\x1f\x7f-\U0010ffff]*\}")
_TEXT_FIELDS = frozenset(row.field for row in ROWS if row.kind != "verbatim")
"""Fields styles set as text (not identifiers, which ``\\url`` and ``\\doi`` take as they are)."""


def dialect_of(names: Iterable[str]) -> str | None:
    """``biblatex`` when an entry has fields that classic BibTeX names otherwise (``date``,
    ``journaltitle``…), else ``None``: biber reads classic BibTeX's names too. A ``location`` beside
    an ``address`` is ACM's place of the conference, a field of classic BibTeX styles
    (``ACM-Reference-Format.bst``), not biblatex's name of ``address``."""
    lower = set(map(str.lower, names))
    if "location" in lower and "address" in lower:
        lower.discard("location")
    return None if _BIBLATEX_FIELDS.isdisjoint(lower) else "biblatex"


class _UnbalancedError(ValueError):
    r"""A value whose braces BibTeX finds balanced and TeX does not (``$\{x}$``)."""


class _DisallowedError(ValueError):
    r"""A value holding commands off the allowlist."""


def _escaped(text: str, name: str, warn: Callable[[str], None]) -> str:
    """A text field's bare ``&``, ``%`` and ``#`` escaped: LaTeX stops on ``&`` and ``#`` and drops
    the rest of the ``.bbl`` line after ``%`` (``\\url{…}`` arguments are left as they are)."""
    bare = sorted({m[0] for m in _BARE_RE.finditer(text) if m[0] in "&%#"})
    if not bare:
        return text
    warn(f"{name}: bare {' '.join(bare)} escaped (as written, LaTeX would not set the value)")
    return _BARE_RE.sub(lambda m: "\\" + m[0] if m[0] in "&%#" else m[0], text)


def _value(expr: str, defined: frozenset[str], escape: Callable[[str], str]) -> str | None:
    """The value expression on one line, text parts through ``escape``, or ``None`` when it cannot be
    written as it is (an odd macro name; :class:`_UnbalancedError` for braces TeX finds unbalanced,
    :class:`_DisallowedError` for commands off the allowlist)."""
    if "\n" in expr or "\r" in expr:
        expr = NEWLINES_RE.sub(" ", expr)
    try:
        parts = value_parts(expr, literal=True)
    except ValueError:
        return None
    out = []
    for kind, text in parts:
        if kind == "text":
            if not braces_balanced(text):
                raise _UnbalancedError(text)
            if not tex_allowed(text, defined):
                raise _DisallowedError(text)
            out.append("{" + escape(text) + "}")
        elif _MACRO_RE.match(text) or text.isdigit():
            out.append(text)
        else:
            return None
    return " # ".join(out) if len(out) > 1 else out[0] if out else None


def as_read(
    record: Record,
    dialect: str,
    options: tuple[bool, bool],
    defined: frozenset[str],
    warn: Callable[[str], None],
) -> tuple[str, list[str]] | None:
    """The entry type and the ``name = value`` lines of ``record`` as read, or ``None`` when the
    entry is to be written from the record's fields (see the module docstring). ``options``: the
    ``normalize`` and ``ascii`` options; ``defined``: the commands the kept ``@preamble`` blocks
    define; ``warn`` says so when braces make the entry be written from its fields."""
    normalize, ascii_only = options
    source = record.source
    if normalize or source is None or source.format != "bibtex" or not source.matches(record):
        return None
    if dialect == "bibtex" and source.dialect == "biblatex":
        return None
    if not _KIND_RE.match(source.kind):
        return None
    lines = []
    checked = []  # the fields whose characters pdflatex may not set
    for name, expr in source.fields:
        if _PLAIN_RE.fullmatch(expr):  # as written: nothing to check, escape or warn of
            value: str | None = expr
        else:
            checked.append((name, expr))
            value = _checked_value(name, expr, defined, warn)
        if value is None or not _FIELD_NAME_RE.match(name) or (ascii_only and not value.isascii()):
            return None
        lines.append(f"{name} = {value}")
    _warn_unset(checked, warn)
    return source.kind, lines


def _checked_value(name: str, expr: str, defined: frozenset[str], warn: Callable[[str], None]) -> str | None:
    """The value of field ``name`` on one line, a text field's bare specials escaped, or ``None`` when
    the entry is to be written from its fields (see :func:`_value`)."""
    text_field = name.lower() in _TEXT_FIELDS

    def escape(text: str) -> str:
        return _escaped(text, name, warn) if text_field and _SPECIAL_RE.search(text) else text

    try:
        return _value(expr, defined, escape)
    except _UnbalancedError:
        warn(f"{name}: braces balanced for BibTeX but not for TeX; the entry is written from its fields")
        return None
    except _DisallowedError:  # the encoder writes such TeX as text, and says so
        return None


def _warn_unset(fields: Iterable[tuple[str, str]], warn: Callable[[str], None]) -> None:
    """Name the first character of each field kept as read that pdflatex cannot set (it is kept)."""
    for name, expr in fields:
        found = unset_char(expr)
        if found is not None:
            warn(f"{name}: pdflatex cannot set {found}; kept as read (--normalize writes TeX forms)")
