"""How a plain-text listing is laid out (:mod:`bibconv.formats.listing.text`): the marks that
start its entries and the indents that tell entry text from headings, as the reader learns
them line by line (:class:`Layout`), which :mod:`~bibconv.formats.listing.text_split` finds
ahead for the pieces of an input."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from bibconv.patterns import lazy

__all__ = ["BULLETS", "MARKER", "Layout", "family_of", "indent_of"]

BULLETS = "•‣◦▪●■►▸·"
"""The bullet signs, all of the family ``bullet``."""
MARKER = lazy(
    rf"^(?P<indent>[ \t]{{0,3}})(?P<marker>[{BULLETS}]|[-*–]|\d{{1,4}}[.)]|\[\d{{1,4}}\])"
    r"[ \t]+(?P<text>\S.*)$"
)
"""A line that starts with an entry marker, and the entry's first text."""


@cache  # markers are a few characters long: a few thousand of them at most
def family_of(marker: str) -> str:
    """The kind of an entry marker: ``bullet`` (any bullet sign), ``-``, ``*``, ``–``,
    ``number.``, ``number)`` or ``bracket``."""
    if marker[0].isdigit():
        return "number" + marker[-1]
    if marker.startswith("["):
        return "bracket"
    return marker if marker in "-*–" else "bullet"


def indent_of(line: str) -> int:
    """The columns of white space that start ``line`` (a tab to the next multiple of 8)."""
    if not line[:1].isspace():
        return 0
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())


@dataclass(frozen=True)
class Layout:
    """What reading a listing has learnt of its layout by some line: the marker family and indent
    of its first entry (``family`` is ``None`` before it) and the indent of the first line under an
    entry's title (``None`` before one), which tells headings from entry text."""

    family: str | None = None
    marker_indent: int = 0
    body_indent: int | None = None

    def opens_entry(self, match: re.Match[str] | None, indent: int) -> bool:
        """Whether a line whose :data:`MARKER` match is ``match`` and whose indent is ``indent``
        starts an entry: the first marked line, then lines marked alike at most as far in."""
        if match is None:
            return False
        if self.family is None:
            return True
        return indent <= self.marker_indent and family_of(match["marker"]) == self.family

    def opening(self, line: str) -> bool:
        """Whether ``line`` starts an entry."""
        return self.opens_entry(MARKER.match(line), indent_of(line))
