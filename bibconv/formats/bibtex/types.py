"""BibTeX/biblatex entry types ⇄ CSL types: one :class:`TypeRow` per entry type.

A row says what CSL type an entry type reads as, which dialects know it, and for which CSL types
each dialect writes it. Reading an unknown entry type gives ``document``; writing a CSL type no
row claims gives ``@misc``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BIBLATEX",
    "BIBLATEX_TYPES",
    "BIBTEX",
    "BIBTEX_TYPES",
    "BOTH",
    "DIALECTS",
    "IMPLIED_GENRES",
    "TYPES",
    "TYPE_KEYS",
    "TYPE_TO_CSL",
    "TypeRow",
    "csl_type",
    "entry_type",
]

BIBTEX: frozenset[str] = frozenset({"bibtex"})
BIBLATEX: frozenset[str] = frozenset({"biblatex"})
BOTH: frozenset[str] = BIBTEX | BIBLATEX
DIALECTS: tuple[str, ...] = ("bibtex", "biblatex")


def _w(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class TypeRow:
    """One entry type (lower case): the CSL type it reads as (``None``: read as an unknown type),
    the dialects that know it, and the CSL types each dialect writes as this entry type."""

    entry: str
    csl: str | None
    known: frozenset[str] = BOTH
    bibtex_for: frozenset[str] = frozenset()
    biblatex_for: frozenset[str] = frozenset()

    def writes_for(self, dialect: str) -> frozenset[str]:
        """The CSL types ``dialect`` writes as this entry type."""
        return self.biblatex_for if dialect == "biblatex" else self.bibtex_for


_ARTICLES = _w("article-journal article article-magazine article-newspaper")
_WEB = _w("webpage post post-weblog")
_MISC = _WEB | _w("dataset software patent periodical standard graphic song motion_picture performance")
_MISC |= _w("personal_communication legislation legal_case")
_ENTRIES = _w("entry-encyclopedia entry-dictionary")

TYPES: tuple[TypeRow, ...] = (
    TypeRow(
        "article", "article-journal", bibtex_for=_ARTICLES | _w("review review-book"), biblatex_for=_ARTICLES
    ),
    TypeRow("book", "book", bibtex_for=_w("book collection"), biblatex_for=_w("book")),
    TypeRow("mvbook", "book", known=BIBLATEX),
    TypeRow("booklet", "pamphlet", bibtex_for=_w("pamphlet"), biblatex_for=_w("pamphlet")),
    TypeRow("inbook", "chapter"),
    TypeRow("bookinbook", "chapter", known=BIBLATEX),
    TypeRow("suppbook", "chapter", known=BIBLATEX),
    TypeRow("incollection", "chapter", bibtex_for=_w("chapter") | _ENTRIES, biblatex_for=_w("chapter")),
    TypeRow("suppcollection", "chapter", known=BIBLATEX),
    TypeRow("collection", "book", known=BIBLATEX, biblatex_for=_w("collection")),
    TypeRow("mvcollection", "book", known=BIBLATEX),
    TypeRow(
        "inproceedings",
        "paper-conference",
        bibtex_for=_w("paper-conference"),
        biblatex_for=_w("paper-conference"),
    ),
    TypeRow("conference", "paper-conference"),
    TypeRow("proceedings", "book"),
    TypeRow("mvproceedings", "book", known=BIBLATEX),
    TypeRow("reference", "book", known=BIBLATEX),
    TypeRow("mvreference", "book", known=BIBLATEX),
    TypeRow("inreference", "entry-encyclopedia", known=BIBLATEX, biblatex_for=_ENTRIES),
    TypeRow("manual", "report"),
    TypeRow("mastersthesis", "thesis"),
    TypeRow("phdthesis", "thesis", bibtex_for=_w("thesis")),
    TypeRow("thesis", "thesis", known=BIBLATEX, biblatex_for=_w("thesis")),
    TypeRow("misc", "document", bibtex_for=_MISC),
    TypeRow("online", "webpage", known=BIBLATEX, biblatex_for=_WEB),
    TypeRow("electronic", "webpage", known=BIBLATEX),
    TypeRow("www", "webpage", known=BIBLATEX),
    TypeRow("report", "report", known=BIBLATEX, biblatex_for=_w("report")),
    TypeRow("techreport", "report", bibtex_for=_w("report")),
    TypeRow("unpublished", "manuscript", bibtex_for=_w("manuscript"), biblatex_for=_w("manuscript")),
    TypeRow("dataset", "dataset", known=BIBLATEX, biblatex_for=_w("dataset")),
    TypeRow("software", "software", known=BIBLATEX, biblatex_for=_w("software")),
    TypeRow("patent", "patent", known=BIBLATEX, biblatex_for=_w("patent")),
    TypeRow("periodical", "periodical", known=BIBLATEX, biblatex_for=_w("periodical")),
    TypeRow("suppperiodical", "article-magazine", known=BIBLATEX),
    TypeRow("standard", "standard", known=BIBLATEX, biblatex_for=_w("standard")),
    TypeRow("artwork", "graphic", known=BIBLATEX, biblatex_for=_w("graphic")),
    TypeRow("image", "graphic", known=BIBLATEX),
    TypeRow("audio", "song", known=BIBLATEX, biblatex_for=_w("song")),
    TypeRow("music", "song", known=BIBLATEX),
    TypeRow("video", "motion_picture", known=BIBLATEX, biblatex_for=_w("motion_picture")),
    TypeRow("movie", "motion_picture", known=BIBLATEX),
    TypeRow("performance", "performance", known=BIBLATEX, biblatex_for=_w("performance")),
    TypeRow("letter", "personal_communication", known=BIBLATEX, biblatex_for=_w("personal_communication")),
    TypeRow("legislation", "legislation", known=BIBLATEX, biblatex_for=_w("legislation")),
    TypeRow("legal", "legislation", known=BIBLATEX),
    TypeRow("jurisdiction", "legal_case", known=BIBLATEX, biblatex_for=_w("legal_case")),
    TypeRow("review", "review", known=BIBLATEX, biblatex_for=_w("review review-book")),
    TypeRow("set", "document", known=BIBLATEX),
    TypeRow("xdata", "document", known=BIBLATEX),
    TypeRow("bibnote", None, known=BIBLATEX),
    TypeRow("commentary", None, known=BIBLATEX),
)

TYPE_TO_CSL: dict[str, str] = {row.entry: row.csl for row in TYPES if row.csl is not None}
"""Entry type (lower case) → CSL type, for reading."""
BIBTEX_TYPES: frozenset[str] = frozenset(row.entry for row in TYPES if "bibtex" in row.known)
BIBLATEX_TYPES: frozenset[str] = frozenset(row.entry for row in TYPES if "biblatex" in row.known)


def _writes(dialect: str) -> dict[str, str]:
    """CSL type → the entry type ``dialect`` writes; two rows claiming one CSL type is an error."""
    out: dict[str, str] = {}
    for row in TYPES:
        for csl in row.writes_for(dialect):
            if csl in out:
                raise ValueError(f"{dialect}: CSL type {csl!r} written as @{out[csl]} and @{row.entry}")
            out[csl] = row.entry
    return out


_WRITES: dict[str, dict[str, str]] = {dialect: _writes(dialect) for dialect in DIALECTS}


IMPLIED_GENRES: dict[str, str] = {
    "phdthesis": "PhD thesis",
    "mastersthesis": "Master's thesis",
    "techreport": "Technical report",
}
"""The genre an entry type says when it has no ``type`` field, as Zotero and pandoc write it."""

TYPE_KEYS: dict[str, str] = {
    **IMPLIED_GENRES,
    "mathesis": "Master's thesis",
    "candthesis": "Candidate thesis",
    "resreport": "Research report",
    "patent": "Patent",
    "patentde": "German patent",
    "patenteu": "European patent",
    "patentfr": "French patent",
    "patentuk": "British patent",
    "patentus": "U.S. patent",
    "patreq": "Patent request",
    "patreqde": "German patent request",
    "patreqeu": "European patent request",
    "patreqfr": "French patent request",
    "patrequk": "British patent request",
    "patrequs": "U.S. patent request",
}
"""biblatex's localisation keys for ``type`` (``type = {mathesis}``) → the genre they print in English."""


def csl_type(entry: str) -> str:
    """The CSL type of a BibTeX or biblatex entry type (any case); ``document`` if unknown."""
    return TYPE_TO_CSL.get(entry.lower(), "document")


def entry_type(record_type: str, dialect: str) -> str:
    """The entry type a dialect (``bibtex`` or ``biblatex``) writes for a CSL type."""
    return _WRITES["biblatex" if dialect == "biblatex" else "bibtex"].get(record_type, "misc")
