"""RIS ``TY`` codes ⇄ CSL types.

:data:`TY_TO_CSL` covers every ``TY`` of the specification (plus EndNote's ``WEB`` and the full
EndNote names such as ``Journal Article``); :data:`CSL_TO_TY` covers every CSL type and is
one-to-one except for ``event``, ``interview``, ``performance``, ``treaty`` (→ ``GEN``),
``review`` (→ ``JOUR``) and ``review-book`` (→ ``BOOK``), for which RIS has no type: the writer
says so. When a ``TY`` reads as a CSL type whose own ``TY`` differs (``EJOUR`` → article-journal
→ ``JOUR``), the reader keeps it in ``extra["ris:TY"]`` and the writer uses it again.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "CSL_TO_TY",
    "ENDNOTE_TYPES",
    "LOSSY_TYPES",
    "PREPRINT_TYPES",
    "SPEC_TYPES",
    "TY_TO_CSL",
    "reads_as_preprint",
]

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

LOSSY_TYPES: frozenset[str] = frozenset(csl for csl, ty in CSL_TO_TY.items() if TY_TO_CSL.get(ty) != csl)
"""CSL types RIS has no ``TY`` of their own for (the writer says so)."""

PREPRINT_TYPES: frozenset[str] = frozenset({"UNPB", "GEN", "JOUR", "EJOUR"})
"""``TY`` codes a preprint may keep: they all read back as a preprint when the record has an arXiv id."""


def reads_as_preprint(csl_type: str, code: str | None, fields: Mapping[str, str]) -> bool:
    """Whether a record with an arXiv id, read from ``TY  - code`` as ``csl_type``, is a preprint: a
    generic record, or a journal article (``JOUR``, ``EJOUR``) without a journal."""
    return csl_type == "document" or (code in ("JOUR", "EJOUR") and "container-title" not in fields)
