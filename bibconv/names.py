r"""Personal and corporate names outside any one format: natural-order names.

:func:`parse_name` reads "Given Family" strings from listings and feeds (see its docstring),
:func:`split_name_list` splits a listing's author line, and :func:`format_natural` writes a name for
display. Each format's own name syntax is in its package: BibTeX's name lists in
:mod:`bibconv.formats.bibtex.names`, RIS's ``Last, First, Suffix`` in :mod:`bibconv.formats.ris.names`.
"""

from __future__ import annotations

from bibconv._names_natural import parse_name, split_name_list
from bibconv.model import Name

__all__ = ["format_natural", "parse_name", "split_name_list"]


def format_natural(name: Name) -> str:
    """``Given Family`` for display (``Johannes Diderik van der Waals``, ``Martin Luther King, Jr.``)."""
    return name.display()
