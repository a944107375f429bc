r"""Commands a file defines in its ``@preamble``, and sorting hints, expanded in field values.

A ``.bib`` file may define commands for its fields in a ``@preamble`` (xampl.bib:
``\newcommand{\noopsort}[1]{}``, ``\newcommand{\printfirst}[2]{#1}``); a sorting hint such as
``{\noopsort{1973b}}1973`` or ``\sortkey{Tale}`` steers BibTeX's sorting and prints nothing, whether
the document or the file defines it. The reader expands both before decoding, so record text is what
TeX prints (``1973``, ``Knv``), and keeps each such field as written in ``extra["bibtex:tex"]``, which
the BibTeX writers write back while the record still reads the same from it.

Citation commands (``\cite{knuth84}``, natbib's ``\citep[see][p.~3]{a,b}``, biblatex's
``\parencite``…) in a note or an abstract print a reference the document numbers; plain text has none,
so they read as the keys they cite, in brackets (``[knuth84]``, ``[see a, b, p.~3]``), and the field
is kept as written the same way. ``\nocite`` prints nothing.

Definitions read: ``\newcommand``, ``\renewcommand``, ``\providecommand`` (starred too) and ``\def``
with ``#1``… parameters; a body is put in as it is, its own commands expanded in turn (up to
:data:`MAX_DEPTH` levels, the result at most :data:`MAX_GROWTH` times longer than the value).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial

from bibconv.latex.tex import group_end
from bibconv.patterns import lazy

__all__ = [
    "CITE_COMMANDS",
    "MAX_DEPTH",
    "MAX_GROWTH",
    "SORT_HINTS",
    "Commands",
    "cited",
    "definitions",
    "expand",
]

SORT_HINTS: dict[str, tuple[int, str]] = dict.fromkeys(
    ("noopsort", "SortNoop", "sortnoop", "NOOPSORT", "nosort", "sortkey"), (1, "")
)
"""Sorting hints: one argument, nothing printed (the document usually defines them, not the file)."""

MAX_DEPTH = 8
MAX_GROWTH = 16

_NEWCOMMAND_RE = lazy(
    r"\\(?:re|provide|new)?(?:newcommand|renewcommand|providecommand)\*?\s*"
    r"(?:\{\s*\\([A-Za-z@]+)\s*\}|\\([A-Za-z@]+))\s*(?:\[\s*(\d)\s*\])?\s*\{"
)
_DEF_RE = lazy(r"\\def\s*\\([A-Za-z@]+)((?:#\d)*)\s*\{")
_PARAM_RE = lazy(r"#(\d)")
_COMMAND_RE = lazy(r"\\([A-Za-z@]+)")
_CITE_NAMES = (
    *("cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar", "citenum"),
    *("citeurl", "citetitle", "citedate", "parencite", "textcite", "autocite", "footcite", "footcitetext"),
    *("smartcite", "supercite"),
)
CITE_COMMANDS: frozenset[str] = frozenset(
    [*_CITE_NAMES, *(n[0].upper() + n[1:] for n in _CITE_NAMES), "nocite"]
)
"""natbib's and biblatex's citation commands (:func:`cited`), any capitalisation of their first letter."""
# A citation: up to two optional arguments (prenote, postnote), then the keys.
_CITE_RE = lazy(
    r"\\(?:" + "|".join(sorted(CITE_COMMANDS, key=len, reverse=True)) + r")(?![A-Za-z@])\*?"
    r"(?:\s*\[([^\[\]{}]*)\])?(?:\s*\[([^\[\]{}]*)\])?\s*\{([^{}]*)\}"
)


def definitions(preamble: str) -> dict[str, tuple[int, str]]:
    r"""Command name → (number of arguments, body) for each definition in ``preamble``.

    >>> definitions(r'\newcommand{\noopsort}[1]{} \def\switchargs#1#2{#2#1}')
    {'noopsort': (1, ''), 'switchargs': (2, '#2#1')}
    """
    found: list[tuple[int, str, int, int]] = []
    for m in _NEWCOMMAND_RE.finditer(preamble):
        found.append((m.start(), m[1] or m[2], int(m[3] or 0), m.end()))
    for m in _DEF_RE.finditer(preamble):
        found.append((m.start(), m[1], len(m[2]) // 2, m.end()))
    out: dict[str, tuple[int, str]] = {}
    for _, name, args, body_start in sorted(found):
        end = group_end(preamble, body_start)
        if end is not None:
            out[name] = (args, preamble[body_start : end - 1])
    return out


class Commands:
    """The commands a reader expands: the sorting hints and what the file's ``@preamble`` blocks define."""

    __slots__ = ("defined", "pattern")

    def __init__(self) -> None:
        self.defined: dict[str, tuple[int, str]] = dict(SORT_HINTS)
        self.pattern = _uses_re(self.defined)

    def define(self, preamble: str) -> None:
        """Add the definitions of one ``@preamble`` block whose bodies are text: every command they use
        is one the decoder knows or one defined here (``\\ifmmode``, ``\\setbox``… are not expanded)."""
        from bibconv.latex import is_known_macro

        found = definitions(preamble)
        names = self.defined.keys() | found.keys()
        found = {
            name: (count, body)
            for name, (count, body) in found.items()
            if all(c in names or is_known_macro(c) for c in _COMMAND_RE.findall(body))
        }
        if found:
            self.defined.update(found)
            self.pattern = _uses_re(self.defined)

    def expand(self, value: str) -> str | None:
        """``value`` expanded (:func:`expand`, then :func:`cited`), or ``None`` when it uses none of the
        commands."""
        if "\\" not in value:
            return None
        uses = self.pattern.search(value) is not None
        expanded = expand(value, self.defined, self.pattern) if uses else value
        if "cite" in expanded.lower():
            expanded = cited(expanded)
        return expanded if uses or expanded != value else None


def _citation(found: re.Match[str]) -> str:
    if found[0].startswith("\\nocite"):
        return ""
    first, second, keys = found[1], found[2], found[3]
    pre, post = (first, second) if second is not None else (None, first)
    parts = [", ".join(k.strip() for k in keys.split(",") if k.strip())]
    if pre and pre.strip():
        parts[0] = f"{pre.strip()} {parts[0]}"
    if post and post.strip():
        parts.append(post.strip())
    return "[" + ", ".join(parts) + "]"


def cited(value: str) -> str:
    r"""``value`` with each citation command replaced by the keys it cites, in brackets.

    >>> cited(r"See \cite{knuth84} and \citep[see][p.~3]{a, b}\nocite{c}.")
    'See [knuth84] and [see a, b, p.~3].'
    """
    return _CITE_RE.sub(_citation, value)


def _uses_re(commands: Mapping[str, tuple[int, str]]) -> re.Pattern[str]:
    names = "|".join(sorted(map(re.escape, commands), key=len, reverse=True))
    return re.compile(rf"\\({names})(?![A-Za-z@])")


def _arguments(text: str, pos: int, count: int) -> tuple[list[str], int] | None:
    """``count`` arguments from ``pos`` (brace groups or single characters), and where they end."""
    args: list[str] = []
    while len(args) < count:
        while pos < len(text) and text[pos] in " \t\n":
            pos += 1
        if pos >= len(text):
            return None
        if text[pos] == "{":
            end = group_end(text, pos + 1)
            if end is None:
                return None
            args.append(text[pos + 1 : end - 1])
            pos = end
        elif text[pos] == "}":
            return None
        else:
            args.append(text[pos])
            pos += 1
    return args, pos


def _argument(args: list[str], found: re.Match[str]) -> str:
    number = int(found[1])
    return args[number - 1] if 0 < number <= len(args) else ""


def expand(
    value: str, commands: Mapping[str, tuple[int, str]], pattern: re.Pattern[str] | None = None
) -> str:
    r"""``value`` with each use of ``commands`` replaced by its body (arguments put in).

    >>> expand(r"{\noopsort{1973b}}1973", SORT_HINTS)
    '{}1973'
    >>> expand(r"Kn{\printfirst{v}{1987}}", {"printfirst": (2, "#1")})
    'Kn{v}'
    """
    pattern = pattern or _uses_re(commands)
    limit = max(len(value), 64) * MAX_GROWTH
    for _ in range(MAX_DEPTH):
        out: list[str] = []
        pos = 0
        changed = False
        for m in pattern.finditer(value):
            if m.start() < pos:
                continue
            count, body = commands[m[1]]
            got = _arguments(value, m.end(), count)
            if got is None:
                continue
            args, end = got
            out.append(value[pos : m.start()])
            out.append(_PARAM_RE.sub(partial(_argument, args), body))
            pos = end
            changed = True
        if not changed:
            return value
        out.append(value[pos:])
        value = "".join(out)
        if len(value) > limit:
            raise ValueError(f"a command of the @preamble expands to more than {limit} characters")
    return value
