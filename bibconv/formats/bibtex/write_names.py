"""Name lists as the BibTeX writers write them: each name by :func:`.names.format_bibtex_name` with its
parts encoded as plain TeX, ``and`` between names, and the people's affiliations in a list of their own.

Names repeat across a file: a name's TeX form is memoised with the warnings encoding it gave
(:mod:`bibconv.memo`), which each use replays.
"""

from __future__ import annotations

from collections.abc import Callable

from bibconv import latex
from bibconv.formats.bibtex.names import biber_refuses, format_bibtex_name
from bibconv.formats.bibtex.safety import safe
from bibconv.formats.bibtex.write_values import plain
from bibconv.memo import ROOM, memo_with_warnings
from bibconv.model import Name

__all__ = ["affiliations_tex", "names_tex"]

Warn = Callable[[str], None]


def _encode_part(text: str, ascii_only: bool, warn: Warn) -> str:
    """A name part: plain text, balanced on its own (BibTeX splits names before it reads braces)."""
    return safe(latex.encode(latex.escape_markup(text), ascii=ascii_only, warn=warn))


@memo_with_warnings(maxsize=ROOM)
def _name_tex(name: Name, ascii_only: bool, extended: bool, *, warn: Warn) -> str:
    """A name in BibTeX form (biber's extended form where ``extended`` allows and it needs it)."""
    text = format_bibtex_name(name, lambda part: _encode_part(part, ascii_only, warn), extended=extended)
    if not extended and biber_refuses(text):
        warn(f"name {text!r} holds commas in its parts: bibtex reads it, biber skips the entry")
    return text


def names_tex(people: tuple[Name, ...], ascii_only: bool, extended: bool, warn: Warn) -> str:
    """A name list's TeX: the names with ``and`` between them."""
    return " and ".join([_name_tex(p, ascii_only, extended, warn=warn) for p in people])


def affiliations_tex(
    people: tuple[Name, ...], ascii_only: bool, known: frozenset[str], warn: Warn
) -> str | None:
    """The list's affiliations (``{Apple}{MIT} and {} and {CNRS}``: one entry per person, one brace
    group per affiliation), or ``None`` when no one has one."""
    if not any(p.affiliation for p in people):
        return None
    groups = (
        "".join("{" + plain(a, ascii_only, known, warn) + "}" for a in p.affiliation) or "{}" for p in people
    )
    return " and ".join(groups)
