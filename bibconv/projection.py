"""What each writer keeps: :func:`project` says, as code, what a record becomes in a target format.

``read(write(record, F), F) == project(record, F)`` for every writable format ``F``: the projection
removes or normalises what ``F`` cannot hold, and nothing else is lost. Each format's writer says
it, through its optional ``project(record)`` method (:class:`bibconv.registry.Writer`), which uses
the same table as the format's reader and writer: :mod:`bibconv.formats.csljson.project` (keeps
everything), :mod:`bibconv.formats.bibtex.project` (``bibtex``, ``biblatex``),
:mod:`bibconv.formats.ris.project`. The README's table "What each format keeps" says the same in
words. The helpers below are the rules the formats' projections share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from bibconv.arxiv import without_implied
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.patterns import lazy

__all__ = ["FORMATS", "project"]

FORMATS = ("csljson", "bibtex", "biblatex", "ris")
"""The formats bibconv writes, in the order the chains of conversions go through them."""

_SPACES = lazy(r"[ \t\r\n\f\v]+")


def project(record: Record, format: str) -> Record:
    """``record`` as ``format`` holds it: what reading back what the ``format`` writer wrote gives."""
    from bibconv.errors import FormatError
    from bibconv.registry import get_writer

    try:
        projector: Callable[[Record], Record] | None = getattr(get_writer(format), "project", None)
    except FormatError:
        projector = None
    if projector is None:
        raise ValueError(f"no projection for {format!r}; formats: {', '.join(FORMATS)}")
    projected = projector(record)
    if projected.arxiv is None:
        return projected
    # Fields that only repeat the arXiv block (its DOI, abs URL, ``arXiv:<id>`` number) are dropped.
    return projected.replace(fields=without_implied(dict(projected.fields), projected.arxiv, projected.type))


def squash(text: str) -> str:
    """White space as TeX reads it: runs become one space, the ends are trimmed."""
    return _SPACES.sub(" ", text).strip(" ")


def names_kept(record: Record, keep: Iterable[str], name: Callable[[Name], Name | None]) -> dict[str, Any]:
    """The name lists of the variables in ``keep``, each name as ``name`` reads it back (empty: dropped)."""
    out: dict[str, tuple[Name, ...]] = {}
    for var, people in record.names.items():
        if var in keep:
            kept = tuple(n for n in map(name, people) if n is not None and n != Name())
            if kept:
                out[var] = kept
    return out


def edtf(date: Date) -> Date:
    """A date written as EDTF and read back: no season but in the parts, no literal beside the parts."""
    text = date.to_edtf() or date.literal
    return Date.from_edtf(text) if text else Date()


def arxiv_kept(arxiv: Arxiv | None, text: Callable[[str | None], str | None]) -> Arxiv | None:
    """The arXiv block as BibTeX and RIS keep it: one category a word, EDTF dates, ``text`` for notes."""
    if arxiv is None:
        return None
    return replace(
        arxiv,
        categories=tuple(c for cat in arxiv.categories for c in re.split(r"[\s,]+", cat) if c),
        submitted=edtf(arxiv.submitted) if arxiv.submitted else None,
        updated=edtf(arxiv.updated) if arxiv.updated else None,
        comment=text(arxiv.comment),
        journal_ref=text(arxiv.journal_ref),
    )
