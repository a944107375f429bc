"""The RIS table: one :class:`Tag` row per tag, from which the reader, the writer and the projection work.

:data:`TAGS` says where the reader puts each tag (synonyms such as ``T1``/``TI`` or ``N2``/``AB``
share a slot). The row marked ``write`` is the one tag the writer emits for its slot, always the
tag of the 2011 specification (``TI``, ``AU``, ``T2``, ``AB``, ``PY`` + ``DA``), and ``order`` is
where it goes in a record. :data:`FIELD_TAGS`, :data:`NAME_TAGS`, :data:`DATE_TAGS` and
:data:`TAG_ORDER` are derived from the rows by :func:`invert`, which refuses, when this module is
imported, a table that marks two tags ``write`` for one slot.

The rules the reader, the writer and the projection share also live here: a value on one line
(:func:`one_line`), page ranges, the ISSN/ISBN slot of ``SN`` (:func:`sn_slot`), the ``extra`` keys
that are not tags. Types are in :mod:`bibconv.formats.ris.types`, dates in
:mod:`bibconv.formats.ris.dates`.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from bibconv.formats.ris.dates import format_date, parse_date
from bibconv.formats.ris.types import (
    CSL_TO_TY,
    ENDNOTE_TYPES,
    LOSSY_TYPES,
    PREPRINT_TYPES,
    SPEC_TYPES,
    TY_TO_CSL,
)
from bibconv.patterns import lazy

__all__ = [
    "CONTEXT_TAGS",
    "CSL_TO_TY",
    "DATE_INFO_KEY",
    "DATE_TAGS",
    "ENDNOTE_TYPES",
    "EXTRA_TAGS",
    "FIELD_TAGS",
    "FREE_TEXT_TAGS",
    "LOSSY_TYPES",
    "NAME_TAGS",
    "PAGE_RANGE",
    "PREPRINT_TYPES",
    "SPEC_TYPES",
    "TAGS",
    "TAG_ORDER",
    "TY_KEY",
    "TY_TO_CSL",
    "Tag",
    "extra_tag",
    "format_date",
    "invert",
    "one_line",
    "parse_date",
    "read_back_as",
    "read_targets",
    "sn_slot",
    "write_tag",
]


@dataclass(frozen=True)
class Tag:
    """Where the reader puts one tag, and whether (and where) the writer writes it.

    ``kind`` is one of ``field`` (CSL text/number variables in ``targets``, first free one
    wins), ``name`` (CSL name variable), ``date`` (CSL date variable), ``year`` (the year of
    ``issued``, written beside its full date), ``keyword``, ``note``, ``url``, ``sn`` (ISSN or
    ISBN), ``page-start``, ``page-end``, ``doi``, ``id``, ``booktitle`` or ``extra`` (kept verbatim
    as ``extra["ris:<TAG>"]``). ``write``: the tag the writer emits for its targets; ``order``: its
    place among the written tags.
    """

    kind: str
    targets: tuple[str, ...] = ()
    write: bool = False
    order: int = 0

    @property
    def target(self) -> str:
        return self.targets[0] if self.targets else ""


def _f(*targets: str, order: int = 0) -> Tag:
    """A field tag; written (at ``order``) when ``order`` is given."""
    return Tag("field", targets, write=order > 0, order=order)


TAGS: dict[str, Tag] = {
    "ID": Tag("id", write=True, order=1),
    # People: one per line, "Last, First, Suffix".
    "AU": Tag("name", ("author",), write=True, order=4),
    "A1": Tag("name", ("author",)),
    "A2": Tag("name", ("editor",), write=True, order=5),
    "ED": Tag("name", ("editor",)),
    "A3": Tag("name", ("collection-editor",), write=True, order=6),
    "A4": Tag("name", ("translator",), write=True, order=7),
    # Titles.
    "TI": _f("title", order=2),
    "T1": _f("title"),
    "CT": _f("title"),
    "BT": Tag("booktitle", ("container-title",)),
    "T2": _f("container-title", order=8),
    "JF": _f("container-title"),
    "JO": _f("container-title", "container-title-short"),
    "JA": _f("container-title-short"),
    "J1": _f("container-title-short"),
    "J2": _f("container-title-short", order=9),
    "T3": _f("collection-title", order=10),
    "ST": _f("title-short", order=3),
    "RI": _f("reviewed-title", order=11),
    # Dates.
    "PY": Tag("year", ("issued",), write=True, order=13),
    "Y1": Tag("date", ("issued",)),
    "DA": Tag("date", ("issued",), write=True, order=14),
    "Y2": Tag("date", ("accessed",), write=True, order=15),
    # Text.
    "AB": _f("abstract", order=12),
    "N2": _f("abstract"),
    "N1": Tag("note", ("note",), write=True, order=38),
    "RN": _f("annote", order=35),
    "KW": Tag("keyword", write=True, order=37),
    # Publication details.
    "VL": _f("volume", order=16),
    "VO": _f("volume"),
    "IS": _f("issue", order=17),
    "SP": Tag("page-start", ("page",), write=True, order=18),
    "EP": Tag("page-end", ("page",), write=True, order=19),
    "ET": _f("edition", order=20),
    "NV": _f("number-of-volumes", order=21),
    "SE": _f("section", order=22),
    "M1": _f("number", order=23),
    "M3": _f("genre", order=24),
    "PB": _f("publisher", order=25),
    "CY": _f("publisher-place", order=26),
    "LA": _f("language", order=34),
    # Identifiers and locations.
    "DO": Tag("doi", ("DOI",), write=True, order=28),
    "SN": Tag("sn", ("ISSN", "ISBN"), write=True, order=27),
    "UR": Tag("url", ("URL",), write=True, order=29),
    "DB": _f("archive", order=30),  # the name of the database: read as the source, see read_targets
    "AN": _f("archive_location", order=31),
    "DP": _f("source", order=32),
    "CN": _f("call-number", order=33),
    # An address tied to no one: the writer's place for affiliations.
    "AD": Tag("extra", write=True, order=36),
}
"""Tags with a slot. Other standard tags (:data:`EXTRA_TAGS`) and unknown tags go to ``extra``."""

EXTRA_TAGS: frozenset[str] = frozenset(
    ["CA", "CP", "H1", "H2", "L1", "L2", "L3", "L4", "LB", "M2", "OP", "RP", "SV", "TA", "TT"]
    + ["U1", "U2", "U3", "U4", "U5", "Y3"]
    + [f"C{n}" for n in range(1, 9)]
)
"""Standard (or widely written) tags with no CSL variable: kept in ``extra`` without a warning.

``C1``–``C8`` change meaning with the reference type and the exporting program (Zotero: place of
a conference, cast members, PMCID…), ``L1``–``L4`` are file links: all are kept verbatim and
written back as they came. ``AD`` (an address not tied to one author) is kept the same way; it
has a row of its own because the writer writes affiliations to it.
"""

FREE_TEXT_TAGS: frozenset[str] = frozenset({"AB", "N1", "N2", "RN"})
"""Tags whose wrapped lines are joined with a newline (paragraphs); other tags join with a space."""


def invert(tags: dict[str, Tag], kinds: Iterable[str]) -> dict[str, str]:
    """Slot → the tag written for it, over the ``write`` rows of ``kinds``, in table order.

    Raises :class:`ValueError` when two such rows write one slot (the table would be ambiguous).
    """
    wanted = frozenset(kinds)
    out: dict[str, str] = {}
    for tag, spec in tags.items():
        if not spec.write or spec.kind not in wanted:
            continue
        for target in spec.targets:
            if target in out:
                raise ValueError(f"RIS table: {target!r} is written as both {out[target]} and {tag}")
            out[target] = tag
    return out


def _order(tags: dict[str, Tag]) -> tuple[str, ...]:
    """``TY``, then every written tag by its ``order`` (each order used once)."""
    written = sorted((spec.order, tag) for tag, spec in tags.items() if spec.write)
    orders = [order for order, _ in written]
    if len(set(orders)) != len(orders) or 0 in orders:
        raise ValueError("RIS table: every written tag needs an order of its own")
    return ("TY", *(tag for _, tag in written))


FIELD_TAGS: dict[str, str] = invert(TAGS, ("field", "doi", "sn", "url"))
"""CSL field → the tag the writer uses (``page`` → ``SP``/``EP`` and ``note`` → ``N1`` are apart;
:func:`write_tag` says where a record's type changes it)."""

NAME_TAGS: dict[str, str] = invert(TAGS, ("name",))
"""CSL name variable → tag. ``A2`` is the 2011 specification's secondary author (the editor)."""

DATE_TAGS: dict[str, str] = {var: tag for var, tag in invert(TAGS, ("date",)).items() if var != "issued"}
"""CSL date variable → tag, besides ``issued`` (``PY`` year + ``DA`` full date)."""
invert(TAGS, ("year",))  # one year tag

TAG_ORDER: tuple[str, ...] = _order(TAGS)
"""Order of the writer's tags (the specification allows any order between ``TY`` and ``ER``)."""

# --- Rules the reader, the writer and the projection share ---------------------------------

TY_KEY = "ris:TY"
"""``extra`` key of a ``TY`` that the record's CSL type would not give back (``EJOUR``, ``GEN``…)."""
DATE_INFO_KEY = "ris:date-info"
"""``extra`` key of the "other info" of dates (``2013/02/15/received``): CSL date variable → text."""

_TAG_RE = lazy(r"[A-Z][A-Z0-9]")
# A run of spaces holding a line break, taken whole from its start (linear under search).
_BREAKS = lazy(r"(?<!\s)[^\S\r\n\u2028\u2029\x85\x0b\x0c]*+[\r\n\u2028\u2029\x85\x0b\x0c]\s*+")
_BREAK = lazy(r"[\r\n\u2028\u2029\x85\x0b\x0c]")
PAGE_RANGE = lazy(r"\s*([^\s,–—-]+)\s*(?:-{1,3}|[–—])\s*([^\s,–—-]+)\s*")
"""A page range as the writer splits it into ``SP`` and ``EP`` (``12--15``, ``12–15``, ``12 - 15``)."""
_ISSN = lazy(r"^\d{4}-?\d{3}[\dXx](?:\s*\(.*\))?$")
_ISBN_CHARS = lazy(r"[\s-]")
_ISBN_BODY = lazy(r"^(?:\d{9}[\dXx]|\d{13})(?:\(.*\))?$")
_BOOKISH = frozenset(
    {"book", "chapter", "thesis", "report", "classic", "entry-dictionary", "entry-encyclopedia"}
)


CONTEXT_TAGS: frozenset[str] = frozenset({"T2", "DB"})
"""The tags whose slots depend on the record (:func:`read_targets`); the others fill their row's targets."""


def read_targets(tag: str, code: str | None, present: AbstractSet[str]) -> tuple[str, ...]:
    """The slots a field tag fills in a record of ``TY`` ``code`` that holds the tags ``present``.

    ``T2`` of a ``BOOK`` is its series (the 2011 list's "Series Title", as Zotero reads and writes
    it) unless a ``T3`` gives the series. ``DB`` (name of the database) is the record's ``source``;
    beside a ``DP`` (the provider, which is then the source) it is the ``archive``.
    """
    if tag == "T2" and code == "BOOK" and "T3" not in present:
        return ("collection-title",)
    if tag == "DB" and "DP" not in present:
        return ("source", "archive")
    return TAGS[tag].targets


def write_tag(variable: str, code: str, fields: dict[str, str]) -> str:
    """The tag of a field in a record of ``TY`` ``code`` with ``fields`` (see :func:`read_targets`)."""
    if variable == "collection-title" and code == "BOOK" and "container-title" not in fields:
        return "T2"
    return FIELD_TAGS[variable]


def read_back_as(fields: dict[str, str], code: str) -> dict[str, str]:
    """Variables RIS gives back as another one (variable → the one read back): a ``BOOK``'s
    container-title without a series is written as ``T2``, which is the series there; an archive
    without a source is written as ``DB``, which names the database the record comes from."""
    moved: dict[str, str] = {}
    if code == "BOOK" and "container-title" in fields and "collection-title" not in fields:
        moved["container-title"] = "collection-title"
    if "archive" in fields and "source" not in fields:
        moved["archive"] = "source"
    return moved


def one_line(text: str) -> str:
    """``text`` with every line break (and the spaces around it) made one space."""
    if _BREAK.search(text) is None:  # most values have none; _BREAKS tries every space
        return text.strip()
    return _BREAKS.sub(" ", text).strip()


def extra_tag(key: str) -> str | None:
    """The tag a kept ``extra`` key is written back as (``ris:C1`` → ``C1``), or ``None``."""
    tag = key[4:] if key.startswith("ris:") else ""
    return tag if _TAG_RE.fullmatch(tag) and tag not in ("TY", "ER") else None


def sn_slot(value: str, record_type: str) -> str:
    """Which of ISSN and ISBN an ``SN`` value is: by its shape, else by the record's type."""
    if _ISSN.match(value):
        return "ISSN"
    if _ISBN_BODY.match(_ISBN_CHARS.sub("", value)):
        return "ISBN"
    return "ISBN" if record_type in _BOOKISH else "ISSN"
