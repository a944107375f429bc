"""The RIS tables: tags ⇄ canonical slots, ``TY`` ⇄ CSL types, and RIS date values.

One declarative table serves both directions. :data:`TAGS` says where the reader puts each
tag (synonyms such as ``T1``/``TI`` or ``N2``/``AB`` share a slot); :data:`FIELD_TAGS`,
:data:`NAME_TAGS` and :data:`TAG_ORDER` say what the writer emits, always the tag of the 2011
specification (``TI``, ``AU``, ``T2``, ``AB``, ``PY`` + ``DA``).

**Types.** :data:`TY_TO_CSL` covers every ``TY`` of the specification (plus EndNote's ``WEB``
and the full EndNote names such as ``Journal Article``); :data:`CSL_TO_TY` covers every CSL type
and is one-to-one except for ``event``, ``interview``, ``performance``, ``treaty`` (→ ``GEN``),
``review`` (→ ``JOUR``) and ``review-book`` (→ ``BOOK``), for which RIS has no type: the writer
says so. When a ``TY`` reads as a CSL type whose own ``TY`` differs (``EJOUR`` → article-journal
→ ``JOUR``), the reader keeps it in ``extra["ris:TY"]`` and the writer uses it again.

**Dates.** ``PY``/``Y1``/``DA``/``Y2`` hold ``YYYY/MM/DD/other`` (every part optional, slashes
kept: ``1998///Spring``), a bare year, ISO ``2019-05-24``, or a month name (``2015/october``).
A season goes to :attr:`Date.season`; other trailing text (``received``) is returned apart so
the reader can keep it; text that is not a date becomes ``Date(literal=…)``, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bibconv.model import Date

__all__ = [
    "CSL_TO_TY",
    "DATE_TAGS",
    "ENDNOTE_TYPES",
    "FIELD_TAGS",
    "FREE_TEXT_TAGS",
    "NAME_TAGS",
    "SPEC_TYPES",
    "TAGS",
    "TAG_ORDER",
    "TY_TO_CSL",
    "VERBATIM_FIELDS",
    "Tag",
    "format_date",
    "parse_date",
]


@dataclass(frozen=True)
class Tag:
    """Where the reader puts one tag.

    ``kind`` is one of ``field`` (CSL text/number variables in ``targets``, first free one
    wins), ``name`` (CSL name variable), ``date`` (CSL date variable), ``keyword``, ``note``,
    ``url``, ``sn`` (ISSN or ISBN), ``page-start``, ``page-end``, ``doi``, ``id``, ``booktitle``
    or ``extra`` (kept verbatim as ``extra["ris:<TAG>"]``).
    """

    kind: str
    targets: tuple[str, ...] = ()

    @property
    def target(self) -> str:
        return self.targets[0] if self.targets else ""


def _f(*targets: str) -> Tag:
    return Tag("field", targets)


TAGS: dict[str, Tag] = {
    # People: one per line, "Last, First, Suffix".
    "AU": Tag("name", ("author",)),
    "A1": Tag("name", ("author",)),
    "A2": Tag("name", ("editor",)),
    "ED": Tag("name", ("editor",)),
    "A3": Tag("name", ("collection-editor",)),
    "A4": Tag("name", ("translator",)),
    # Titles.
    "TI": _f("title"),
    "T1": _f("title"),
    "CT": _f("title"),
    "BT": Tag("booktitle", ("container-title",)),
    "T2": _f("container-title"),
    "JF": _f("container-title"),
    "JO": _f("container-title", "container-title-short"),
    "JA": _f("container-title-short"),
    "J1": _f("container-title-short"),
    "J2": _f("container-title-short"),
    "T3": _f("collection-title"),
    "ST": _f("title-short"),
    "RI": _f("reviewed-title"),
    # Dates.
    "PY": Tag("date", ("issued",)),
    "Y1": Tag("date", ("issued",)),
    "DA": Tag("date", ("issued",)),
    "Y2": Tag("date", ("accessed",)),
    # Text.
    "AB": _f("abstract"),
    "N2": _f("abstract"),
    "N1": Tag("note", ("note",)),
    "RN": _f("annote"),
    "KW": Tag("keyword"),
    # Publication details.
    "VL": _f("volume"),
    "VO": _f("volume"),
    "IS": _f("issue"),
    "SP": Tag("page-start", ("page",)),
    "EP": Tag("page-end", ("page",)),
    "ET": _f("edition"),
    "NV": _f("number-of-volumes"),
    "SE": _f("section"),
    "M1": _f("number"),
    "M3": _f("genre"),
    "PB": _f("publisher"),
    "CY": _f("publisher-place"),
    "LA": _f("language"),
    # Identifiers and locations.
    "ID": Tag("id"),
    "DO": Tag("doi", ("DOI",)),
    "SN": Tag("sn", ("ISSN", "ISBN")),
    "UR": Tag("url", ("URL",)),
    "DB": _f("archive"),
    "AN": _f("archive_location"),
    "DP": _f("source"),
    "CN": _f("call-number"),
}
"""Tags with a canonical slot. Other standard tags (:data:`EXTRA_TAGS`) and unknown tags go to ``extra``."""

EXTRA_TAGS: frozenset[str] = frozenset(
    [
        "AD",
        "CA",
        "CP",
        "H1",
        "H2",
        "L1",
        "L2",
        "L3",
        "L4",
        "LB",
        "M2",
        "OP",
        "RP",
        "SV",
        "TA",
        "TT",
        "U1",
        "U2",
        "U3",
        "U4",
        "U5",
        "Y3",
    ]
    + [f"C{n}" for n in range(1, 9)]
)
"""Standard (or widely written) tags with no CSL variable: kept in ``extra`` without a warning.

``C1``–``C8`` change meaning with the reference type and the exporting program (Zotero: place of
a conference, cast members, PMCID…), ``AD`` is an address not tied to one author, ``L1``–``L4``
are file links: all are kept verbatim and written back as they came.
"""

FREE_TEXT_TAGS: frozenset[str] = frozenset({"AB", "N1", "N2", "RN"})
"""Tags whose wrapped lines are joined with a newline (paragraphs); other tags join with a space."""

VERBATIM_FIELDS: frozenset[str] = frozenset(
    {"URL", "DOI", "ISSN", "ISBN", "call-number", "archive_location", "language"}
)
"""Fields stored as written: identifiers are not rich text, so ``&`` in a URL stays ``&``."""

# --- Writing ---------------------------------------------------------------------------

FIELD_TAGS: dict[str, str] = {
    "title": "TI",
    "title-short": "ST",
    "container-title": "T2",
    "container-title-short": "J2",
    "collection-title": "T3",
    "reviewed-title": "RI",
    "abstract": "AB",
    "annote": "RN",
    "volume": "VL",
    "issue": "IS",
    "edition": "ET",
    "number-of-volumes": "NV",
    "section": "SE",
    "number": "M1",
    "genre": "M3",
    "publisher": "PB",
    "publisher-place": "CY",
    "language": "LA",
    "DOI": "DO",
    "ISSN": "SN",
    "ISBN": "SN",
    "URL": "UR",
    "archive": "DB",
    "archive_location": "AN",
    "source": "DP",
    "call-number": "CN",
}
"""CSL field → the one tag the writer uses (``page`` → ``SP``/``EP`` and ``note`` → ``N1`` are apart)."""

NAME_TAGS: dict[str, str] = {
    "author": "AU",
    "editor": "A2",
    "collection-editor": "A3",
    "translator": "A4",
}
"""CSL name variable → tag. ``A2`` is the 2011 specification's secondary author (the editor)."""

DATE_TAGS: dict[str, str] = {"accessed": "Y2"}
"""CSL date variable → tag, besides ``issued`` (``PY`` year + ``DA`` full date)."""

TAG_ORDER: tuple[str, ...] = (
    "TY",
    "ID",
    "TI",
    "ST",
    "AU",
    "A2",
    "A3",
    "A4",
    "T2",
    "J2",
    "T3",
    "RI",
    "AB",
    "PY",
    "DA",
    "Y2",
    "VL",
    "IS",
    "SP",
    "EP",
    "ET",
    "NV",
    "SE",
    "M1",
    "M3",
    "PB",
    "CY",
    "SN",
    "DO",
    "UR",
    "DB",
    "AN",
    "DP",
    "CN",
    "LA",
    "RN",
    "AD",
    "KW",
    "N1",
)
"""Order of the writer's tags (the specification allows any order between ``TY`` and ``ER``)."""

# --- Types -----------------------------------------------------------------------------

CSL_TO_TY: dict[str, str] = {
    "article": "UNPB",  # preprints and working papers; see bibconv.formats.ris
    "article-journal": "JOUR",
    "article-magazine": "MGZN",
    "article-newspaper": "NEWS",
    "bill": "BILL",
    "book": "BOOK",
    "broadcast": "ADVS",
    "chapter": "CHAP",
    "classic": "CLSWK",
    "collection": "AGGR",
    "dataset": "DATA",
    "document": "GEN",
    "entry": "CTLG",
    "entry-dictionary": "DICT",
    "entry-encyclopedia": "ENCYC",
    "event": "GEN",
    "figure": "FIGURE",
    "graphic": "ART",
    "hearing": "HEAR",
    "interview": "GEN",
    "legal_case": "CASE",
    "legislation": "STAT",
    "manuscript": "MANSCPT",
    "map": "MAP",
    "motion_picture": "MPCT",
    "musical_score": "MUSIC",
    "pamphlet": "PAMP",
    "paper-conference": "CONF",
    "patent": "PAT",
    "performance": "GEN",
    "periodical": "JFULL",
    "personal_communication": "PCOMM",
    "post": "ICOMM",
    "post-weblog": "BLOG",
    "regulation": "LEGAL",
    "report": "RPRT",
    "review": "JOUR",
    "review-book": "BOOK",
    "software": "COMP",
    "song": "SOUND",
    "speech": "SLIDE",
    "standard": "STAND",
    "thesis": "THES",
    "treaty": "GEN",
    "webpage": "ELEC",
}

TY_TO_CSL: dict[str, str] = {
    **{
        ty: csl for csl, ty in CSL_TO_TY.items() if csl not in ("event", "interview", "performance", "treaty")
    },
    "GEN": "document",
    "JOUR": "article-journal",
    "BOOK": "book",
    "ABST": "article-journal",
    "ANCIENT": "classic",
    "CHART": "figure",
    "CPAPER": "paper-conference",
    "DBASE": "dataset",
    "EBOOK": "book",
    "ECHAP": "chapter",
    "EDBOOK": "book",
    "EJOUR": "article-journal",
    "EQUA": "figure",
    "GOVDOC": "report",
    "GRANT": "document",
    "INPR": "article-journal",
    "MULTI": "motion_picture",
    "SER": "book",
    "UNBILL": "bill",
    "VIDEO": "motion_picture",
    "WEB": "webpage",
}

SPEC_TYPES: frozenset[str] = frozenset(TY_TO_CSL)
"""Every ``TY`` the writer may emit (the 2011 list, plus ``WEB`` and ``UNBILL``)."""

ENDNOTE_TYPES: dict[str, str] = {
    "JOURNAL ARTICLE": "JOUR",
    "ELECTRONIC ARTICLE": "EJOUR",
    "MAGAZINE ARTICLE": "MGZN",
    "NEWSPAPER ARTICLE": "NEWS",
    "BOOK SECTION": "CHAP",
    "EDITED BOOK": "EDBOOK",
    "ELECTRONIC BOOK": "EBOOK",
    "CONFERENCE PAPER": "CPAPER",
    "CONFERENCE PROCEEDINGS": "CONF",
    "THESIS": "THES",
    "REPORT": "RPRT",
    "GENERIC": "GEN",
    "WEB PAGE": "ELEC",
    "UNPUBLISHED WORK": "UNPB",
    "MANUSCRIPT": "MANSCPT",
    "PATENT": "PAT",
    "DATASET": "DATA",
    "COMPUTER PROGRAM": "COMP",
    "GOVERNMENT DOCUMENT": "GOVDOC",
}
"""EndNote's reference-type names, which some exporters write in ``TY`` instead of the code."""

# --- Dates -----------------------------------------------------------------------------

SEASONS: frozenset[str] = frozenset({"spring", "summer", "autumn", "fall", "winter"})
MONTHS: dict[str, int] = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_ISO_DATE = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")
_YEAR = re.compile(r"^-?\d{4}$")  # a year before the common era is written -YYYY (ISO 8601)
_NUMBER = re.compile(r"^\d{1,2}$")


def _month(text: str) -> int | None:
    """Month number of ``text`` (``07``, ``7``, ``July``, ``jul.``); 0 for none; ``None`` if not a month."""
    if not text or text in ("0", "00"):
        return 0
    if _NUMBER.match(text):
        number = int(text)
        return number if 1 <= number <= 12 else None
    return MONTHS.get(text.lower().rstrip("."))


def parse_date(text: str) -> tuple[Date, str | None]:
    """``(date, other info)`` for a RIS date value; the info is trailing text that is not a season.

    >>> parse_date("1998///Spring")
    (Date(parts=((1998,),), season='Spring', circa=False, literal=None), None)
    >>> parse_date("2013/02/15/received")[1]
    'received'
    >>> parse_date("YEAR/MONTH/DAY/")[0].literal
    'YEAR/MONTH/DAY/'
    """
    value = text.strip()
    if _ISO_DATE.match(value):
        return Date.from_edtf(value), None
    pieces = value.split("/", 3)
    year_text = pieces[0].strip()
    month_text = pieces[1].strip() if len(pieces) > 1 else ""
    day_text = pieces[2].strip() if len(pieces) > 2 else ""
    info = pieces[3].strip() if len(pieces) > 3 else ""
    month = _month(month_text)
    day_ok = not day_text or day_text in ("0", "00") or (_NUMBER.match(day_text) and 1 <= int(day_text) <= 31)
    if (year_text and not _YEAR.match(year_text)) or month is None or not day_ok:
        return Date(literal=value), None
    parts: tuple[int, ...] = ()
    if year_text:
        parts = (int(year_text),)
        if month:
            parts += (month,)
            if day_text and int(day_text):
                parts += (int(day_text),)
    elif month or (day_text and int(day_text)):
        return Date(literal=value), None  # a month without a year is not a date we can hold
    if not parts:  # "///text": only the other-info part, which the writer uses for literal dates
        return (Date(literal=info) if info else Date()), None
    season = info if info.lower() in SEASONS else None
    return Date(parts=(parts,), season=season), (info if info and season is None else None)


def format_date(date: Date, info: str | None = None) -> tuple[str | None, str | None]:
    """``(PY value, DA value)`` for a date: the year, and ``YYYY/MM/DD/other`` when there is more.

    A literal date has no year: it is written as ``DA  - ///text`` and ``PY`` is left out.

    >>> format_date(Date(parts=((2019, 5, 24),)))
    ('2019', '2019/05/24/')
    >>> format_date(Date(parts=((1998,),), season="Spring"))
    ('1998', '1998///Spring')
    >>> format_date(Date(parts=((2017, 23),)))  # a season in the parts (EDTF 2017-23) as its name
    ('2017', '2017///Autumn')
    """
    if not date.parts:
        text = " ".join(t for t in (date.literal, date.season, info) if t)
        return None, (f"///{text}" if text else None)
    year, month, day = date.year, date.month, date.day
    year_text = f"{year:04d}" if year is not None and year >= 0 else f"-{abs(year or 0):04d}"
    other = " ".join(t for t in (date.season_name, info) if t)
    if month is None and not other:
        return year_text, None
    month_text = f"{month:02d}" if month else ""
    day_text = f"{day:02d}" if day else ""
    return year_text, f"{year_text}/{month_text}/{day_text}/{other}"
