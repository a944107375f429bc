r"""BibTeX field values (resolved TeX) as the reader reads them, by the row's kind: rich text through
:func:`bibconv.latex.decode`, plain text without markup, identifiers verbatim (``\url{}`` unwrapped,
escapes undone), titles without the ``nocase`` spans a writer's case protection would add anyway, and
paragraphs cut at ``\par``.

Titles: a writer brace-protects every word whose case a style could change (:func:`latex.protect_case`),
so on reading a one-word ``{Word}`` group that protection would have added anyway is not marked
``nocase``; BibTeX → BibTeX is then stable, and groups that mean more (``{Monte Carlo}``, ``{A}``,
``{BERT}-based``) stay marked.
"""

from __future__ import annotations

import re

from bibconv import latex
from bibconv.formats.bibtex.syntax import NEWLINES_RE
from bibconv.languages import to_bcp47
from bibconv.latex.allow import allowed
from bibconv.patterns import lazy

__all__ = [
    "affiliations",
    "decode",
    "paragraphs",
    "plain",
    "subtitle_text",
    "unbrace",
    "unprotect",
    "unread_commands",
    "value",
    "verbatim",
]

_URL_MACRO_RE = lazy(r"^\\(?:url|href)\s*\{(.*)\}$", re.S)
_VERBATIM_ESCAPE_RE = lazy(r"\\([_%&#~${}])")
# A control word with no argument, outside math (math spans are taken whole first).
_BARE_WORD_RE = lazy(r"\$[^$]*\$|\\([A-Za-z]+)(?![A-Za-z])(?!\s*[\[{])")
_PAR_RE = lazy(r"\\par(?![A-Za-z])\s*")
_NOCASE_WORD_RE = lazy(
    r"(?:(?<=[ \t\n])|^)([(\['\"]*)<span class=\"nocase\">([^< \t\n]+)</span>([,.;:!?)\]'\"]*)(?=[ \t\n]|$)"
)


def decode(raw: str) -> str:
    r"""Rich text of a TeX value (lone braces, ``{\textbraceleft}``, are read by :func:`latex.decode`)."""
    return latex.decode(raw)


def unbrace(text: str) -> str:
    """``text`` without brace groups that enclose all of it (``{{10.1016/…}}`` is ``10.1016/…``).

    >>> unbrace("{{10.1016/j.x}}"), unbrace("{a}{b}")
    ('10.1016/j.x', '{a}{b}')
    """
    while len(text) > 1 and text[0] == "{" and text[-1] == "}" and _closes_at_end(text):
        text = text[1:-1].strip()
    return text


def _closes_at_end(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if depth == 0:
            return i == len(text) - 1
    return False


def verbatim(raw: str) -> str:
    r"""An identifier's text: ``\url{}`` unwrapped, enclosing braces and ``\_``-style escapes
    undone, spaces trimmed."""
    text = unbrace(raw.strip())
    found = _URL_MACRO_RE.match(text)
    if found:
        text = found[1].strip()
    if "\\" in text:
        text = _VERBATIM_ESCAPE_RE.sub(r"\1", text)
    return NEWLINES_RE.sub(" ", text) if "\n" in text else text


def unprotect(title: str) -> str:
    """Drop ``nocase`` spans around single words that :func:`latex.protect_case` would brace anyway."""
    if 'class="nocase"' not in title:
        return title

    def keep_or_drop(found: re.Match[str]) -> str:
        before = title[: found.start()].rstrip()
        first = not before or before.endswith(":")
        tex = latex.encode(found[2])
        probe = tex if first else "x " + tex
        protected = latex.protect_case(probe)
        if protected.removeprefix("" if first else "x ") in ("{" + tex + "}", "{{" + tex + "}}"):
            return found[1] + found[2] + found[3]
        return found[0]

    return _NOCASE_WORD_RE.sub(keep_or_drop, title)


def plain(raw: str) -> str:
    r"""Plain Unicode of a TeX value (names, affiliations, arXiv comments)."""
    return latex.decode(raw, markup=False)


def paragraphs(raw: str) -> list[str]:
    r"""``raw`` cut at each ``\par`` outside braces (an abstract's or a note's paragraphs)."""
    out: list[str] = []
    depth = start = pos = 0
    while pos < len(raw):
        ch = raw[pos]
        if ch == "\\":
            found = _PAR_RE.match(raw, pos)
            if found and depth == 0:
                out.append(raw[start:pos])
                start = pos = found.end()
                continue
            pos += 2
            continue
        depth += 1 if ch == "{" else -1 if ch == "}" and depth else 0
        pos += 1
    out.append(raw[start:])
    return out


def affiliations(raw: str) -> list[tuple[str, ...]]:
    """``{A}{B} and {} and {C}`` → the affiliations of each person (depth-0 groups, ``and`` between)."""
    people: list[list[str]] = [[]]
    depth = start = pos = 0
    while pos < len(raw):
        ch = raw[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "{":
            start = pos + 1 if depth == 0 else start
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                people[-1].append(raw[start:pos])
        elif depth == 0 and raw.startswith("and", pos) and raw[pos - 1 : pos].isspace():
            people.append([])
            pos += 3
            continue
        pos += 1
    return [tuple(a for a in map(plain, groups) if a) for groups in people]


def subtitle_text(raw: str) -> str:
    """A subtitle field's rich text, as a title is read."""
    return unprotect(decode(raw))


def value(kind: str, raw: str) -> str:
    """A field's value as the row's kind reads it (:data:`~bibconv.formats.bibtex.table.Kind`)."""
    if kind == "verbatim":
        return verbatim(raw)
    if kind == "plain":  # plain text, never rich: a library's "A & B" stays "A & B"
        return plain(raw)
    if kind == "title":
        return unprotect(decode(raw))
    if kind == "language":
        return to_bcp47(plain(raw)) or plain(raw)
    if kind == "paragraphs" and "\\par" in raw:
        return "\n".join(p for p in map(decode, paragraphs(raw)) if p)
    return decode(raw)


def unread_commands(text: str) -> list[str]:
    r"""The control words without arguments that decoding kept as written in ``text`` and that the
    writers write as text (``\apjx`` of a macro package bibconv does not know), once each.

    >>> unread_commands(r"\apjx and $\alpha$ and \cite{k}")
    ['\\apjx']
    """
    found = (m[1] for m in _BARE_WORD_RE.finditer(text) if m[1] is not None)
    return list(dict.fromkeys("\\" + word for word in found if word not in allowed()))
