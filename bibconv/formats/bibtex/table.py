"""The BibTeX/biblatex ⇄ CSL table: one :class:`Row` per field, entry types, dates, month macros.

The reader, the writers and the projection all use these rows. A row names a field (lower case),
the CSL variable it holds, the *kind* of value (how it is decoded, encoded and what survives the
trip), the dialects that write it and the entry types it applies to. Both dialects read every row.
A field with no row is kept in ``extra`` as ``bibtex:<field>`` and written back verbatim.

Two dialects share the table: ``bibtex`` (classic ``.bst`` field names: ``journal``,
``address``, ``school``) and ``biblatex`` (``journaltitle``, ``location``,
``institution``, ``date``).

**Entry-type rows.** A row with ``entries`` replaces, for those entry types, the rows of its variable
that have none: a thesis's publisher is its ``school`` (or ``institution``), never its ``publisher``.
Where several rows hold one variable, the first whose field an entry has wins, in table order; the
others are kept in ``extra``. For writing, each (dialect, entry type, variable) has at most one row,
checked when this module is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as _field
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

from bibconv import csl
from bibconv.formats.bibtex.types import (
    BIBLATEX,
    BIBLATEX_TYPES,
    BIBTEX,
    BIBTEX_TYPES,
    BOTH,
    DIALECTS,
    IMPLIED_GENRES,
    TYPE_KEYS,
    TYPE_TO_CSL,
    csl_type,
    entry_type,
)
from bibconv.patterns import lazy

__all__ = [
    "ARXIV_FIELDS",
    "BIBLATEX_TYPES",
    "BIBTEX_TYPES",
    "CSL_PREFIX",
    "FIELD_ORDER",
    "IMPLIED_GENRES",
    "JOURNAL_TYPES",
    "MONTHS",
    "MONTH_MACROS",
    "NUMBER_BY_TYPE",
    "NUMBER_VARIABLES",
    "RESERVED_EXTRAS",
    "ROWS",
    "TEX_KEPT",
    "TYPE_KEYS",
    "TYPE_TO_CSL",
    "Kind",
    "ReadPlan",
    "Row",
    "csl_type",
    "entry_type",
    "extra_field_ok",
    "index_for_writing",
    "is_url",
    "own_kind",
    "read_plan",
    "safe_key",
    "write_row",
    "writes_for",
]

Kind = Literal["rich", "plain", "verbatim", "title", "paragraphs", "pages", "names", "date", "language"]
"""How a value is read and written.

``rich``: TeX ⇄ rich text. ``plain``: TeX ⇄ plain text (no markup; ``&`` stays ``&``). ``verbatim``:
an identifier, written as it is (``\\url{}`` and ``\\_`` undone on reading). ``title``: rich text whose
words are brace-protected against case changes. ``paragraphs``: rich text whose line breaks are
``\\par``. ``pages``: rich text with ``--`` for a lone en dash. ``names``: a name list. ``date``: EDTF.
``language``: a babel language name (``french``) ⇄ a BCP 47 tag (``fr``), see :mod:`bibconv.languages`.
"""

NOWHERE: frozenset[str] = frozenset()


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@dataclass(frozen=True)
class Row:
    """One field: the CSL variable it holds, how, in which dialects it is written, for which entries."""

    field: str
    variable: str
    kind: Kind = "rich"
    writes: frozenset[str] = BOTH
    entries: frozenset[str] | None = None
    accepts: Callable[[str], bool] | None = None
    """A test of the raw value: a row that refuses its value does not read it (the field is kept)."""


def _is_language(raw: str) -> bool:
    """A ``langid`` that names a language (a babel name or a tag)."""
    from bibconv.languages import to_bcp47

    return to_bcp47(raw) is not None


def is_url(raw: str) -> bool:
    """A ``howpublished`` that is only a URL (``\\url{…}`` or bare)."""
    from bibconv.formats.bibtex.read_values import verbatim

    text = verbatim(raw)
    return " " not in text and text.startswith(("http://", "https://", "ftp://"))


# Entry types whose container is a journal (``journal``/``journaltitle``); others use ``booktitle``.
JOURNAL_TYPES: frozenset[str] = frozenset(_words("article periodical suppperiodical review"))
THESES: frozenset[str] = frozenset(_words("phdthesis mastersthesis thesis"))
REPORTS: frozenset[str] = frozenset(_words("techreport report"))

ROWS: tuple[Row, ...] = (
    Row("title", "title", "title"),
    Row("shorttitle", "title-short", "title"),
    Row("author", "author", "names"),
    Row("editor", "editor", "names"),
    Row("translator", "translator", "names"),
    Row("bookauthor", "container-author", "names"),
    Row("journaltitle", "container-title", entries=JOURNAL_TYPES, writes=BIBLATEX),
    Row("journal", "container-title", entries=JOURNAL_TYPES, writes=BIBTEX),
    Row("booktitle", "container-title", entries=JOURNAL_TYPES, writes=NOWHERE),
    Row("booktitle", "container-title"),
    Row("journaltitle", "container-title", writes=NOWHERE),
    Row("journal", "container-title", writes=NOWHERE),
    Row("school", "publisher", entries=THESES, writes=BIBTEX),
    Row("institution", "publisher", entries=THESES, writes=BIBLATEX),
    Row("institution", "publisher", entries=REPORTS),
    Row("publisher", "publisher"),
    # biblatex's location is the field address is an alias of: where an entry has both, it wins
    Row("location", "publisher-place", writes=BIBLATEX),
    Row("address", "publisher-place", writes=BIBTEX),
    Row("number", "number"),  # the issue of an article, the series number of a book: NUMBER_BY_TYPE
    Row("issue", "issue"),
    Row("volume", "volume"),
    Row("pages", "page", "pages"),
    Row("edition", "edition"),
    Row("chapter", "chapter-number"),
    Row("series", "collection-title"),
    Row("doi", "DOI", "verbatim"),
    Row("url", "URL", "verbatim"),
    Row("howpublished", "URL", "verbatim", writes=NOWHERE, accepts=is_url),
    Row("isbn", "ISBN", "verbatim"),
    Row("issn", "ISSN", "verbatim"),
    Row("pmid", "PMID", "verbatim"),
    Row("pmcid", "PMCID", "verbatim"),
    Row("abstract", "abstract", "paragraphs"),
    Row("note", "note", "paragraphs"),
    Row("annote", "annote", writes=BIBTEX),
    Row("annotation", "annote", writes=BIBLATEX),
    # biblatex's langid (babel's name of the language) wins over language (words printed as written)
    Row("langid", "language", "language", writes=NOWHERE, accepts=_is_language),
    Row("language", "language", "plain"),
    Row("library", "call-number", "plain"),
    Row("type", "genre"),
    Row("version", "version"),
    Row("eventtitle", "event-title"),
    Row("venue", "event-place"),
    Row("pagetotal", "number-of-pages"),
    Row("volumes", "number-of-volumes"),
    Row("part", "part"),
    Row("pubstate", "status"),
    Row("shortjournal", "container-title-short"),
    Row("issuetitle", "volume-title"),
    Row("origtitle", "original-title"),
    Row("origpublisher", "original-publisher"),
    Row("origlocation", "original-publisher-place"),
    Row("date", "issued", "date"),  # with ``year``/``month``/``day``: the reader's and writers' own rules
    Row("urldate", "accessed", "date"),
    Row("eventdate", "event-date", "date"),
    Row("origdate", "original-date", "date"),
    Row("origyear", "original-date", "date", writes=NOWHERE),  # biblatex's older name of origdate
)


def own_kind(variable: str) -> Kind:
    """The kind of a variable in bibconv's own ``csl-<variable>`` field."""
    if variable == "URL":
        return "verbatim"
    if variable in csl.VERBATIM_VARS:
        return "plain"
    return "paragraphs" if variable in ("abstract", "note") else "rich"


def _applies(row: Row, entry: str, specific: set[str]) -> bool:
    """Whether ``row`` holds its variable for ``entry`` (``specific``: variables with a row for it)."""
    if row.entries is None:
        return row.variable not in specific
    return entry in row.entries


@dataclass(frozen=True)
class ReadPlan:
    """The rows that read an entry type: field → row, and the variables several fields may hold."""

    fields: dict[str, Row]
    contested: dict[str, tuple[Row, ...]]
    contested_fields: frozenset[str] = _field(init=False, repr=False, compare=False)
    """The fields of the contested rows: an entry with none of them has no winner to find."""
    nobody: Mapping[str, str | None] = _field(init=False, repr=False, compare=False)
    """Every contested variable → ``None``: the winners of such an entry."""

    def __post_init__(self) -> None:
        rows = self.contested.values()
        object.__setattr__(self, "contested_fields", frozenset(row.field for group in rows for row in group))
        object.__setattr__(self, "nobody", MappingProxyType(dict.fromkeys(self.contested)))

    def winners(self, present: dict[str, str]) -> Mapping[str, str | None]:
        """Contested variable → the field that holds it (the first row whose field is present and
        accepts its value), or ``None``."""
        if present.keys().isdisjoint(self.contested_fields):
            return self.nobody
        out: dict[str, str | None] = dict.fromkeys(self.contested)
        for variable, rows in self.contested.items():
            for row in rows:
                raw = present.get(row.field)
                if raw is not None and (row.accepts is None or row.accepts(raw)):
                    out[variable] = row.field
                    break
        return out


@lru_cache(maxsize=512)
def read_plan(entry: str) -> ReadPlan:
    """The rows that read an entry of type ``entry`` (lower case)."""
    specific = {row.variable for row in ROWS if row.entries is not None and entry in row.entries}
    rows = [row for row in ROWS if _applies(row, entry, specific)]
    fields: dict[str, Row] = {}
    by_variable: dict[str, list[Row]] = {}
    for row in rows:
        if row.field in fields:
            raise ValueError(
                f"@{entry}: field {row.field!r} read as {fields[row.field].variable} and {row.variable}"
            )
        fields[row.field] = row
        by_variable.setdefault(row.variable, []).append(row)
    contested = {v: tuple(r) for v, r in by_variable.items() if len(r) > 1 or r[0].accepts is not None}
    return ReadPlan(fields, contested)


_ENTRIES_WITH_ROWS = sorted({entry for row in ROWS if row.entries for entry in row.entries})
for _entry in ("", *_ENTRIES_WITH_ROWS):
    read_plan(_entry)  # refuse, at import, a table that reads one field as two variables


def index_for_writing(rows: tuple[Row, ...], dialect: str) -> dict[str | None, dict[str, Row]]:
    """Entry type (``None``: any other) → variable → the row ``dialect`` writes it to.

    Raises :class:`ValueError` when two rows would write one variable for one entry type.
    """
    general: dict[str, Row] = {}
    for row in rows:
        if dialect in row.writes and row.entries is None:
            if row.variable in general:
                raise ValueError(
                    f"{dialect}: {row.variable} written to {general[row.variable].field} and {row.field}"
                )
            general[row.variable] = row
    index: dict[str | None, dict[str, Row]] = {None: general}
    for entry in sorted({entry for row in rows if row.entries for entry in row.entries}):
        own: dict[str, Row] = {}
        for row in rows:
            if dialect in row.writes and row.entries is not None and entry in row.entries:
                if row.variable in own:
                    fields = f"{own[row.variable].field} and {row.field}"
                    raise ValueError(f"{dialect} @{entry}: {row.variable} written to {fields}")
                own[row.variable] = row
        specific = {row.variable for row in rows if row.entries is not None and entry in row.entries}
        index[entry] = {**{v: r for v, r in general.items() if v not in specific}, **own}
    return index


_WRITE: dict[str, dict[str | None, dict[str, Row]]] = {d: index_for_writing(ROWS, d) for d in DIALECTS}


def write_row(variable: str, dialect: str, entry: str) -> Row | None:
    """The row a dialect writes a CSL variable to, for an entry type (lower case)."""
    index = _WRITE["biblatex" if dialect == "biblatex" else "bibtex"]
    return (index.get(entry) or index[None]).get(variable)


def writes_for(dialect: str, entry: str) -> dict[str, Row]:
    """Variable → row, for every variable ``dialect`` writes to a field of its own in an ``entry``."""
    index = _WRITE["biblatex" if dialect == "biblatex" else "bibtex"]
    return index.get(entry) or index[None]


# --- Keys and kept fields ------------------------------------------------------------------------

_KEY_UNSAFE_RE = lazy(r"[\s,{}()\"#%=\\'^]")  # ^^5c is TeX's spelling of a backslash
_EXTRA_FIELD_RE = lazy(r"^[A-Za-z_][\w.:+-]*$")

TEX_KEPT = "bibtex:tex"
"""``extra`` key: field → [value as written, value as read] for the fields that use ``@preamble`` commands
or sorting hints (:mod:`bibconv.formats.bibtex.commands`)."""
RESERVED_EXTRAS: frozenset[str] = frozenset({"bibtex:entrytype", "bibtex:before", "bibtex:after", TEX_KEPT})
"""``extra`` keys that are not fields: the entry type as read, the blocks kept around an entry, the
fields kept as written."""


def safe_key(key: str) -> str:
    """``key`` as the writers write it: what BibTeX cannot hold in a key (space, comma, brace, quote,
    ``#``, ``%``, ``=``, backslash, ``^``) becomes ``_``."""
    return _KEY_UNSAFE_RE.sub("_", key) if _KEY_UNSAFE_RE.search(key) else key


def extra_field_ok(name: str) -> bool:
    """Whether a kept ``bibtex:<name>`` can be written back as a field of that name."""
    return _EXTRA_FIELD_RE.match(name) is not None


NUMBER_VARIABLES: tuple[str, ...] = ("number", "issue", "collection-number")
"""The variables ``number`` may hold (:data:`NUMBER_BY_TYPE`); the writers place them by type, not by row."""

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

MONTHS: tuple[str, ...] = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# BibTeX's predefined month macros, as plain.bst defines them.
_MONTH_NAMES: tuple[str, ...] = ("January", "February", "March", "April", "May", "June", "July")
_MONTH_NAMES += ("August", "September", "October", "November", "December")
MONTH_MACROS: dict[str, str] = dict(zip(MONTHS, _MONTH_NAMES, strict=True))

# The order fields are written in; anything else follows alphabetically.
FIELD_ORDER: tuple[str, ...] = _words(
    "title shorttitle author authoraffiliations bookauthor bookauthoraffiliations editor editoraffiliations "
    "translator translatoraffiliations journal journaltitle shortjournal booktitle "
    "eventtitle series volume number issue chapter pages edition version type school institution "
    "organization publisher address location venue year month day date eventdate origdate urldate "
    "eprint archiveprefix primaryclass eprinttype eprintclass arxivversion arxivcategories arxivsubmitted "
    "arxivupdated arxivcomment arxivjournalref pubstate doi isbn issn pmid pmcid url "
    "langid language keywords abstract note"
)
