"""Which entry type a record is written as, the CSL type that entry reads back as, and which variable
the ``number`` field holds (the rules the writers and :mod:`~bibconv.formats.bibtex.project` share)."""

from __future__ import annotations

import re

from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.read_arxiv import PREPRINT_TYPES
from bibconv.model import Record

__all__ = ["entry_type_for", "number_field", "number_order", "read_type"]

_NUMBERS = m.NUMBER_VARIABLES


def entry_type_for(record: Record, dialect: str) -> str:
    """The entry type a dialect writes ``record`` as (a kept source type when it still fits).

    A CSL ``article`` (a preprint, a working paper: an article of no journal) with no venue is
    ``@misc`` in BibTeX, ``@online`` in biblatex when it has an eprint or a URL (else ``@misc``), so
    that no style asks for the journal it has not."""
    if record.type == "article" and (record.arxiv is not None or "container-title" not in record.fields):
        online = record.arxiv is not None or "URL" in record.fields
        return "online" if dialect == "biblatex" and online else "misc"
    kept = record.extra.get("bibtex:entrytype")
    genre = record.fields.get("genre", "").casefold()
    wanted = _genre_type(record.type, genre) if dialect != "biblatex" else None  # biblatex: type = {mathesis}
    if isinstance(kept, str) and re.fullmatch(r"\w+", kept) and m.csl_type(kept) == record.type:
        low = kept.lower()
        known = m.BIBLATEX_TYPES if dialect == "biblatex" else m.BIBTEX_TYPES
        fits = low in known or (low not in m.BIBTEX_TYPES and low not in m.BIBLATEX_TYPES)
        if fits and wanted in (None, low):
            return kept
    return wanted or m.entry_type(record.type, dialect)


def _genre_type(record_type: str, genre: str) -> str | None:
    """The entry type that says a thesis's or report's genre (``@mastersthesis``), if one does."""
    if record_type == "thesis" and "master" in genre:
        return "mastersthesis"
    if record_type == "thesis" and genre in ("phd thesis", "ph.d. thesis", "phdthesis"):
        return "phdthesis"
    if record_type == "report" and genre == "technical report":
        return "techreport"
    return None


def read_type(record: Record, entry: str) -> str:
    """The CSL type the reader gives an entry of type ``entry`` written for ``record``."""
    low = entry.lower()
    if record.arxiv is not None and (
        low in PREPRINT_TYPES or (low == "article" and "container-title" not in record.fields)
    ):
        return "article"
    return m.csl_type(low)


def number_order(record: Record, record_type: str) -> list[str]:
    """The record's fields, the one ``number`` reads back as first (it wins the ``number`` field),
    then the others in a fixed order, so that equal records give equal entries."""
    fields = record.fields
    if "number" not in fields and "issue" not in fields and "collection-number" not in fields:
        return list(fields)
    natural = m.NUMBER_BY_TYPE.get(record_type, "number")
    head = [var for var in fields if var not in _NUMBERS or var == natural == "number"]
    if natural != "number" and natural in fields:
        head.append(natural)
    return head + [var for var in _NUMBERS if var in fields and var != natural]


def number_field(var: str, record_type: str) -> str | None:
    """``number`` holds the issue of an article, the series number of a book, else the number;
    ``issue`` another issue; the other number variables have no field (``csl-<variable>``)."""
    if var == m.NUMBER_BY_TYPE.get(record_type, "number"):
        return "number"
    return "issue" if var == "issue" else None
