"""The BibTeX/biblatex ⇄ CSL table: entry types, fields, name fields, dates, month macros.

One declarative table serves both directions. Field names are lower case; the
reader looks fields up here, the writers walk the same rows backwards. A field
with no row is kept in ``extra`` as ``bibtex:<field>`` and written back verbatim.

Two dialects share the table: ``bibtex`` (classic ``.bst`` field names: ``journal``,
``address``, ``school``) and ``biblatex`` (``journaltitle``, ``location``,
``institution``, ``date``). Both dialects' names are read whatever the file is.
"""

from __future__ import annotations

__all__ = [
    "ALIASES",
    "ARXIV_FIELDS",
    "BIBLATEX_TYPES",
    "BIBTEX_TYPES",
    "CONTAINER_TITLE_FIELDS",
    "CSL_PREFIX",
    "DATE_FIELDS",
    "FIELD_ORDER",
    "INHERIT_SKIP",
    "INHERIT_TITLES",
    "JOURNAL_TYPES",
    "MONTHS",
    "MONTH_MACROS",
    "NAME_FIELDS",
    "NUMBER_BY_TYPE",
    "PUBLISHER_FIELDS",
    "SIMPLE_FIELDS",
    "TYPE_TO_CSL",
    "csl_type",
    "entry_type",
    "field_for",
    "inherit_renames",
]


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Entry type (lower case) -> CSL type, for reading. Unknown types read as "document".
TYPE_TO_CSL: dict[str, str] = {
    "article": "article-journal",
    "book": "book",
    "mvbook": "book",
    "booklet": "pamphlet",
    "inbook": "chapter",
    "bookinbook": "chapter",
    "suppbook": "chapter",
    "incollection": "chapter",
    "suppcollection": "chapter",
    "collection": "book",
    "mvcollection": "book",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "proceedings": "book",
    "mvproceedings": "book",
    "reference": "book",
    "mvreference": "book",
    "inreference": "entry-encyclopedia",
    "manual": "report",
    "mastersthesis": "thesis",
    "phdthesis": "thesis",
    "thesis": "thesis",
    "misc": "document",
    "online": "webpage",
    "electronic": "webpage",
    "www": "webpage",
    "report": "report",
    "techreport": "report",
    "unpublished": "manuscript",
    "dataset": "dataset",
    "software": "software",
    "patent": "patent",
    "periodical": "periodical",
    "suppperiodical": "article-magazine",
    "standard": "standard",
    "artwork": "graphic",
    "image": "graphic",
    "audio": "song",
    "music": "song",
    "video": "motion_picture",
    "movie": "motion_picture",
    "performance": "performance",
    "letter": "personal_communication",
    "legislation": "legislation",
    "legal": "legislation",
    "jurisdiction": "legal_case",
    "review": "review",
    "set": "document",
    "xdata": "document",
}

# Types each dialect knows (a kept source type outside these is mapped again).
BIBTEX_TYPES: frozenset[str] = frozenset(
    _words(
        "article book booklet inbook incollection inproceedings conference manual mastersthesis phdthesis "
        "misc proceedings techreport unpublished"
    )
)
BIBLATEX_TYPES: frozenset[str] = frozenset(
    _words(
        "article book mvbook inbook bookinbook suppbook booklet collection mvcollection incollection "
        "suppcollection dataset manual misc online patent periodical suppperiodical proceedings "
        "mvproceedings inproceedings reference mvreference inreference report set software thesis "
        "unpublished xdata artwork audio bibnote commentary image jurisdiction legislation legal letter "
        "movie music performance review standard video conference electronic mastersthesis phdthesis "
        "techreport www"
    )
)

# CSL type -> (bibtex type, biblatex type), for writing.
_CSL_TO_TYPE: dict[str, tuple[str, str]] = {
    "article-journal": ("article", "article"),
    "article": ("article", "article"),
    "article-magazine": ("article", "article"),
    "article-newspaper": ("article", "article"),
    "book": ("book", "book"),
    "chapter": ("incollection", "incollection"),
    "paper-conference": ("inproceedings", "inproceedings"),
    "pamphlet": ("booklet", "booklet"),
    "thesis": ("phdthesis", "thesis"),
    "report": ("techreport", "report"),
    "manuscript": ("unpublished", "unpublished"),
    "webpage": ("misc", "online"),
    "post": ("misc", "online"),
    "post-weblog": ("misc", "online"),
    "dataset": ("misc", "dataset"),
    "software": ("misc", "software"),
    "patent": ("misc", "patent"),
    "periodical": ("misc", "periodical"),
    "standard": ("misc", "standard"),
    "entry-encyclopedia": ("incollection", "inreference"),
    "entry-dictionary": ("incollection", "inreference"),
    "graphic": ("misc", "artwork"),
    "song": ("misc", "audio"),
    "motion_picture": ("misc", "video"),
    "performance": ("misc", "performance"),
    "personal_communication": ("misc", "letter"),
    "legislation": ("misc", "legislation"),
    "legal_case": ("misc", "jurisdiction"),
    "review": ("article", "review"),
    "review-book": ("article", "review"),
    "collection": ("book", "collection"),
}

# Text and number fields that map one to one (either dialect's spelling reads).
# field -> CSL variable; the first field listed for a variable is the one written
# unless a dialect-specific spelling below overrides it.
SIMPLE_FIELDS: dict[str, str] = {
    "title": "title",
    "shorttitle": "title-short",
    "volume": "volume",
    "pages": "page",
    "edition": "edition",
    "chapter": "chapter-number",
    "series": "collection-title",
    "doi": "DOI",
    "url": "URL",
    "isbn": "ISBN",
    "issn": "ISSN",
    "pmid": "PMID",
    "pmcid": "PMCID",
    "abstract": "abstract",
    "note": "note",
    "annote": "annote",
    "annotation": "annote",
    "language": "language",
    "type": "genre",
    "version": "version",
    "eventtitle": "event-title",
    "venue": "event-place",
    "pagetotal": "number-of-pages",
    "volumes": "number-of-volumes",
    "part": "part",
    "pubstate": "status",
    "shortjournal": "container-title-short",
    "issuetitle": "volume-title",
    "origtitle": "original-title",
    "origpublisher": "original-publisher",
    "origlocation": "original-publisher-place",
    "library": "call-number",
    "address": "publisher-place",
    "location": "publisher-place",
}

# Fields holding the container title; booktitle for parts of books and proceedings.
CONTAINER_TITLE_FIELDS: tuple[str, ...] = ("journal", "journaltitle", "booktitle")
# Entry types whose container is a journal (``journal``/``journaltitle``); others use ``booktitle``.
JOURNAL_TYPES: frozenset[str] = frozenset(["article", "periodical", "suppperiodical", "review"])
# Fields that say the same thing: a child inherits none of a group it already has one of.
ALIASES: dict[str, str] = {
    "journal": "container",
    "journaltitle": "container",
    "booktitle": "container",
    "address": "location",
    "location": "location",
    "annote": "annotation",
    "annotation": "annotation",
    "date": "date",
    "year": "date",
    "school": "institution",
    "institution": "institution",
    "archiveprefix": "eprinttype",
    "eprinttype": "eprinttype",
    "primaryclass": "eprintclass",
    "eprintclass": "eprintclass",
}

# Fields holding the publisher: the first present wins, the others stay in extra.
PUBLISHER_FIELDS: tuple[str, ...] = ("publisher", "institution", "school", "organization")

# How ``number`` reads, by CSL type: an issue for articles, a series number for books.
NUMBER_BY_TYPE: dict[str, str] = {
    "article-journal": "issue",
    "article-magazine": "issue",
    "article-newspaper": "issue",
    "review": "issue",
    "book": "collection-number",
    "chapter": "collection-number",
    "paper-conference": "collection-number",
    "entry-encyclopedia": "collection-number",
}

NAME_FIELDS: dict[str, str] = {
    "author": "author",
    "editor": "editor",
    "translator": "translator",
    "bookauthor": "container-author",
}

# bibconv's own field for a CSL variable without a BibTeX field of its own, or whose field holds another
# variable: ``csl-<variable>`` (``csl-medium``, ``csl-director``, ``csl-submitted``, ``csl-number``).
CSL_PREFIX = "csl-"

# ``<name field>affiliations``: the affiliations of each person of a name list, in order (bibconv's own
# field; BibTeX and biber ignore it). Persons are separated by ``and``, each affiliation is a brace group:
# ``authoraffiliations = {{Apple} and {} and {MIT}{CSAIL}}``.

# The arXiv block beyond eprint/archivePrefix/primaryClass (bibconv's own fields, ignored by BibTeX and
# biber): field -> ``Arxiv`` attribute. Dates are EDTF, categories separated by commas.
ARXIV_FIELDS: dict[str, str] = {
    "arxivversion": "version",
    "arxivcategories": "categories",
    "arxivsubmitted": "submitted",
    "arxivupdated": "updated",
    "arxivcomment": "comment",
    "arxivjournalref": "journal_ref",
}

# Date fields (biblatex) -> CSL date variables; ``year``/``month``/``day`` make ``issued``.
DATE_FIELDS: dict[str, str] = {
    "date": "issued",
    "urldate": "accessed",
    "eventdate": "event-date",
    "origdate": "original-date",
}

MONTHS: tuple[str, ...] = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# BibTeX's predefined month macros, as plain.bst defines them.
_MONTH_NAMES: tuple[str, ...] = ("January", "February", "March", "April", "May", "June", "July")
_MONTH_NAMES += ("August", "September", "October", "November", "December")
MONTH_MACROS: dict[str, str] = dict(zip(MONTHS, _MONTH_NAMES, strict=True))

# Fields a child never inherits through crossref/xdata (biblatex's default rules).
INHERIT_SKIP: frozenset[str] = frozenset(
    _words(
        "ids crossref xref xdata entryset entrysubtype execute label options presort related "
        "relatedoptions relatedstring relatedtype shorthand shorthandintro sortkey"
    )
)
# Parent type -> child types -> field renames (biblatex: a book's title is an inbook's booktitle).
_BOOKISH = ("book", "collection", "proceedings", "reference")
_PARTS = (
    "inbook",
    "bookinbook",
    "suppbook",
    "incollection",
    "suppcollection",
    "inproceedings",
    "inreference",
)
INHERIT_TITLES: dict[str, tuple[str, ...]] = {
    "title": ("booktitle",),
    "subtitle": ("booksubtitle",),
    "titleaddon": ("booktitleaddon",),
}
_INHERIT_MV: dict[str, tuple[str, ...]] = {
    "title": ("maintitle",),
    "subtitle": ("mainsubtitle",),
    "titleaddon": ("maintitleaddon",),
}

# The order fields are written in; anything else follows alphabetically.
FIELD_ORDER: tuple[str, ...] = _words(
    "title shorttitle author authoraffiliations bookauthor bookauthoraffiliations editor editoraffiliations "
    "translator translatoraffiliations journal journaltitle shortjournal booktitle "
    "eventtitle series volume number issue chapter pages edition version type school institution "
    "organization publisher address location venue year month day date eventdate origdate urldate "
    "eprint archiveprefix primaryclass eprinttype eprintclass arxivversion arxivcategories arxivsubmitted "
    "arxivupdated arxivcomment arxivjournalref pubstate doi isbn issn pmid pmcid url "
    "language keywords abstract note"
)


def csl_type(entry: str) -> str:
    """The CSL type of a BibTeX or biblatex entry type (any case); ``document`` if unknown."""
    return TYPE_TO_CSL.get(entry.lower(), "document")


def entry_type(record_type: str, dialect: str) -> str:
    """The entry type a dialect (``bibtex`` or ``biblatex``) writes for a CSL type."""
    pair = _CSL_TO_TYPE.get(record_type, ("misc", "misc"))
    return pair[1] if dialect == "biblatex" else pair[0]


def field_for(variable: str, dialect: str, entry: str) -> str | None:
    """The field a dialect writes a CSL variable to, for an entry type (lower case)."""
    if variable == "container-title":
        if entry in JOURNAL_TYPES:
            return "journaltitle" if dialect == "biblatex" else "journal"
        return "booktitle"
    if variable == "publisher-place":
        return "location" if dialect == "biblatex" else "address"
    if variable == "publisher":
        if entry in ("phdthesis", "mastersthesis", "thesis"):
            return "institution" if dialect == "biblatex" else "school"
        if entry in ("techreport", "report"):
            return "institution"
        return "publisher"
    if variable in ("issue", "collection-number", "number"):
        return "number"
    if variable == "annote":
        return "annotation" if dialect == "biblatex" else "annote"
    for name, target in SIMPLE_FIELDS.items():
        if target == variable:
            return name
    return None


def inherit_renames(parent_type: str, child_type: str) -> dict[str, tuple[str, ...]]:
    """Field renames biblatex applies when ``child_type`` inherits from ``parent_type``.

    A field maps to the fields it fills in the child (a ``@book``'s author is an ``@inbook``'s
    ``author`` and ``bookauthor``); a field not listed is inherited under its own name.
    """
    parent, child = parent_type.lower(), child_type.lower()
    if parent.startswith("mv") and parent[2:] in _BOOKISH:
        return _INHERIT_MV
    if parent in _BOOKISH and child in _PARTS:
        renames = dict(INHERIT_TITLES)
        if parent == "book":
            renames["author"] = ("author", "bookauthor")
        return renames
    if parent == "periodical" and child in ("article", "suppperiodical"):
        return {"title": ("journaltitle",), "subtitle": ("journalsubtitle",)}
    return {}
