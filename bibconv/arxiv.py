"""arXiv identifiers, and what an arXiv block implies for the generic fields.

>>> parse_arxiv_id("https://arxiv.org/abs/2604.12345v2")
('2604.12345', 2)
>>> parse_arxiv_id("arXiv:hep-th/9901001v1")
('hep-th/9901001', 1)
>>> parse_arxiv_id("10.48550/ARXIV.1706.03762")
('1706.03762', None)
"""

from __future__ import annotations

import re
from typing import Any

from bibconv.model import Arxiv, Record

__all__ = ["ARXIV_ID", "implied_fields", "parse_arxiv_id", "without_implied"]

# New ids (0704.0001 on): YYMM.NNNN(N); old ids: archive(.SUBJ)/YYMMNNN.
ARXIV_ID = re.compile(
    r"(?P<id>(?:\d{4}\.\d{4,5})|(?:[a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v(?P<version>\d+))?",
)
_CONTEXT = re.compile(
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
    """The CSL fields an arXiv preprint implies: number, publisher, DOI, URL (ANCHORS §7.1)."""
    implied = {"number": f"arXiv:{arxiv.id}", "DOI": arxiv.doi, "URL": arxiv.abs_url}
    if record_type == "article":
        implied["publisher"] = "arXiv"
    return implied


def without_implied(fields: dict[str, Any], arxiv: Arxiv, record_type: str) -> dict[str, Any]:
    """``fields`` minus the values :func:`implied_fields` would write back anyway."""
    implied = implied_fields(arxiv, record_type)
    return {
        key: value
        for key, value in fields.items()
        if not (key in implied and str(value).lower() == implied[key].lower())
        and not (key == "URL" and parse_arxiv_id(str(value)) == (arxiv.id, arxiv.version))
    }


def with_implied(record: Record) -> dict[str, str]:
    """The record's fields with the arXiv implications filled in where the record has none."""
    fields = dict(record.fields)
    if record.arxiv is not None:
        for key, value in implied_fields(record.arxiv, record.type).items():
            fields.setdefault(key, value)
    return fields
