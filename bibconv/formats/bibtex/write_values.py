"""Values as the BibTeX writers write them, each on one line between braces both BibTeX and bibtexparser
see balanced: rich text as TeX (:func:`latex.encode`), plain text with its markup escaped, titles with
their case protected, page ranges with ``--``, paragraphs joined by ``\\par``, and values kept as TeX
when they are plain or balanced and allowed (:func:`raw_value`).

Each function takes the dialect's ``ascii_only``, the commands the file's kept ``@preamble`` blocks
define (``known``) and the entry writer's ``warn``. Short values repeat across a file (journals,
publishers, name parts): their encoding is memoised with its warnings (:mod:`bibconv.memo`).
"""

from __future__ import annotations

from collections.abc import Callable

from bibconv import latex
from bibconv.formats.bibtex.safety import NEWLINES_RE, braces_ok, protect, safe
from bibconv.latex.allow import disallowed, tex_allowed
from bibconv.memo import ROOM, SHORT, memo_with_warnings
from bibconv.patterns import lazy

__all__ = ["encode", "kind_tex", "plain", "raw_value", "title_tex"]

Warn = Callable[[str], None]

_EN_DASH_RE = lazy(r"(?<![-–])–(?![-–])")
# What may make a title's TeX other than the title: a character that is not printable ASCII (encoded,
# or a line end made a space), a character :func:`latex.encode` may escape or join (``-``, ``'``, ``&``,
# ``<``…), TeX, and a capital after a word's first character (which :func:`latex.protect_case`
# braces). A title without any is its own TeX in every mode but ``all``.
_TITLE_WORK_RE = lazy(r"[^\x20-\x7e]|[-`'!?&%$#_{}~^\\<]|\S[A-Z]")


@memo_with_warnings(maxsize=ROOM)
def _encode_short(text: str, ascii_only: bool, known: frozenset[str], *, warn: Warn) -> str:
    """:func:`latex.encode` of a short value (its warnings are replayed at each use)."""
    return latex.encode(text, ascii=ascii_only, warn=warn, allowed=known)


def encode(text: str, ascii_only: bool, known: frozenset[str], warn: Warn) -> str:
    """Rich text as TeX (short values memoised)."""
    if len(text) > SHORT:
        return latex.encode(text, ascii=ascii_only, warn=warn, allowed=known)
    return _encode_short(text, ascii_only, known, warn=warn)


def plain(text: str, ascii_only: bool, known: frozenset[str], warn: Warn) -> str:
    """Plain text as TeX on one line (a name part, an affiliation, a call number)."""
    return safe(encode(latex.escape_markup(text), ascii_only, known, warn))


def raw_value(name: str, value: str, ascii_only: bool, known: frozenset[str], warn: Warn) -> str:
    """The braced value of field ``name`` kept as TeX: as it is when it is plain, or balanced and
    allowed, else encoded (with a warning naming the commands that are not allowed)."""
    body = value.strip()
    if "\n" in body or "\r" in body:
        body = NEWLINES_RE.sub(" ", body)
    plain_text = "{" not in body and "}" not in body and "\\" not in body and "^" not in body
    kept = plain_text or (braces_ok(body) and tex_allowed(body, known))
    if not kept and braces_ok(body):
        commands = ", ".join(disallowed(body, known))
        warn(f"field {name!r}: TeX {commands} is not allowed in output; written as text")
    return "{" + (body if kept else safe(encode(body, ascii_only, known, warn))) + "}"


def kind_tex(kind: str, value: str, ascii_only: bool, known: frozenset[str], mode: str, warn: Warn) -> str:
    """A value of a row's ``kind`` that is written as TeX of its own kind: ``title`` (case protected
    in ``mode``), ``plain``, ``pages`` (``--``) or ``paragraphs`` (``\\par`` between them)."""
    if kind == "title":
        if mode != "all" and _TITLE_WORK_RE.search(value) is None:
            return value  # what title_tex gives (tests/formats/bibtex/test_write_values.py)
        return title_tex(value, ascii_only, known, mode, warn)
    if kind == "plain":
        return plain(value, ascii_only, known, warn)
    if kind == "pages":
        return _EN_DASH_RE.sub("--", safe(encode(value, ascii_only, known, warn)))
    # paragraphs, as Better BibTeX writes them
    return " \\par ".join(safe(encode(p, ascii_only, known, warn)) for p in value.split("\n") if p.strip())


def title_tex(value: str, ascii_only: bool, known: frozenset[str], mode: str, warn: Warn) -> str:
    """A title as TeX on one line, its case protected in ``mode``."""
    tex = latex.encode(value, ascii=ascii_only, warn=warn, allowed=known)  # titles seldom repeat
    return protect(safe(tex), mode)
