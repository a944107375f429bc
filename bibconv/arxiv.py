"""arXiv identifiers, and what an arXiv block implies for the generic fields.

>>> parse_arxiv_id("https://arxiv.org/abs/2604.12345v2")
('2604.12345', 2)
>>> parse_arxiv_id("arXiv:hep-th/9901001v1")
('hep-th/9901001', 1)
>>> parse_arxiv_id("10.48550/ARXIV.1706.03762")
('1706.03762', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bibconv import journal_ref
from bibconv.model import Arxiv, Date, Record
from bibconv.patterns import lazy

__all__ = [
    "ARXIV_ID",
    "as_published",
    "implied_fields",
    "parse_arxiv_id",
    "published_parts",
    "without_implied",
]

# New ids (0704.0001 on): YYMM.NNNN(N); old ids: archive(.SUBJ)/YYMMNNN.
ARXIV_ID = lazy(
    r"(?P<id>(?:\d{4}\.\d{4,5})|(?:[a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v(?P<version>\d+))?",
)
_CONTEXT = lazy(
    r"""(?ix)
    (?:arxiv\.org/(?:abs|pdf|html|format)/
      |export\.arxiv\.org/abs/
      |10\.48550/arxiv\.
      |arxiv\s*:\s*
      |^\s*)
    """
    + ARXIV_ID.pattern
    + r"(?![\d])",
)


def parse_arxiv_id(text: str, *, bare: bool = True) -> tuple[str, int | None] | None:
    """``(id, version)`` from an id, ``arXiv:`` reference, abs/pdf URL or arXiv DOI.

    With ``bare=False`` a plain id without ``arXiv:``, URL or DOI context is not accepted
    (for free text such as a BibTeX ``note``).
    """
    for match in _CONTEXT.finditer(text):
        context = match.group(0).strip().lower()
        if not bare and not context.startswith(("arxiv", "export", "10.")) and "arxiv.org" not in context:
            continue
        version = match.group("version")
        return match.group("id"), int(version) if version else None
    return None


def implied_fields(arxiv: Arxiv, record_type: str = "article") -> dict[str, str]:
    """The CSL fields an arXiv preprint implies: number, publisher, DOI, URL.

    See docs/decisions.md#fields-a-preprint-implies.
    """
    implied = {"number": f"arXiv:{arxiv.id}", "DOI": arxiv.doi, "URL": arxiv.abs_url}
    if record_type == "article":
        implied["publisher"] = "arXiv"
    return implied


def without_implied(
    fields: dict[str, Any], arxiv: Arxiv, record_type: str, *, any_link: bool = False
) -> dict[str, Any]:
    """``fields`` minus the values :func:`implied_fields` would write back anyway.

    A URL is dropped only when it is the abs URL the writers write: one that is spelt otherwise
    (``http://``, a PDF, a version) is kept as given. ``any_link``: a URL that names the preprint
    and its version in any spelling is dropped too (a link a listing page shows for the paper).
    """
    implied = implied_fields(arxiv, record_type)
    return {
        key: value
        for key, value in fields.items()
        if not (key in implied and str(value).lower() == implied[key].lower())
        and not (any_link and key == "URL" and parse_arxiv_id(str(value)) == (arxiv.id, arxiv.version))
    }


def as_published(record: Record, warn: Callable[[str], None] | None = None) -> Record:
    """An arXiv preprint that has a journal reference, or a journal DOI and a venue, as the published work.

    The type becomes ``article-journal`` (``paper-conference`` for a venue that reads as a
    conference) and the venue, volume, issue, pages and year come from the journal reference
    (:mod:`bibconv.journal_ref`); the arXiv block is kept. A reference that cannot be taken apart
    becomes the venue whole, and ``warn`` is told so. Other records come back unchanged: a journal
    DOI without a venue leaves a preprint an ``article`` (no journal article without its journal).

    >>> r = Record(type="article", fields={"DOI": "10.1086/307221"},
    ...            arxiv=Arxiv(id="astro-ph/9812133", journal_ref="Astrophys.J.517:565-586,1999"))
    >>> p = as_published(r)
    >>> p.type, p.fields["container-title"], p.fields["volume"], p.fields["page"], p.dates["issued"].to_edtf()
    ('article-journal', 'Astrophys.J.', '517', '565-586', '1999')
    """
    published = published_parts(record.type, record.fields, record.dates, record.arxiv, warn)
    if published is None:
        return record
    kind, fields, dates = published
    return replace(record, type=kind, fields=fields, dates=dates)


def published_parts(
    record_type: str,
    fields: Mapping[str, str],
    dates: Mapping[str, Date],
    arxiv: Arxiv | None,
    warn: Callable[[str], None] | None = None,
) -> tuple[str, dict[str, str], dict[str, Date]] | None:
    """The type, fields and dates :func:`as_published` gives a record of these parts, or ``None`` when
    it keeps the record as it is (for a reader that builds the record once, from what this returns)."""
    venue = fields.get("container-title")
    published = arxiv is not None and (arxiv.journal_ref or (venue and "DOI" in fields))
    if not published or record_type != "article":
        return None
    assert arxiv is not None
    fields = dict(fields)
    dates = dict(dates)
    kind = "article-journal"
    if arxiv.journal_ref and venue is None:
        from bibconv.latex import decode

        parts = journal_ref.parse(arxiv.journal_ref)
        if parts is None:
            venue = " ".join(arxiv.journal_ref.split())
            if warn is not None:
                warn(f"journal reference {venue!r} not taken apart: kept whole as the venue")
        else:
            venue = parts.venue
            for key, value in (("volume", parts.volume), ("issue", parts.issue), ("page", parts.page)):
                if value:
                    fields.setdefault(key, value)
            if parts.year is not None:
                dates["issued"] = Date(parts=((parts.year,),))
        fields["container-title"] = decode(venue)
    if venue is not None and journal_ref.is_proceedings(venue):
        kind = "paper-conference"
    return kind, fields, dates
