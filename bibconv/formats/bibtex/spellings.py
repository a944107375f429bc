r"""Fields that say a standard field's value another way, read as that field.

biblatex's ``eprint`` with ``eprinttype = {pubmed}`` is the PMID (``pmc``: the PMCID); ``pages``
with ``bookpagination = {section}`` counts sections, so it is the CSL ``section``; where an
entry of a conference has both ``location`` and ``address`` (ACM's exports: ``address = {New York,
NY, USA}``, the publisher's city, ``location = {Calgary, Alberta, Canada}``, the conference's),
``address`` is the publisher's place and ``location`` the place of the event (biblatex's
``venue``). Fields no data model defines but that programs write for a standard one are read as
it when the entry lacks that one: ACM's ``numpages`` (``pagetotal``), BibDesk's ``bdsk-url-1``
(``url``), Calibre's ``tags`` and the singular ``keyword`` (``keywords``).

>>> standard_fields({"eprint": "5500723", "eprinttype": "pubmed"}, "article")
{'pmid': '5500723'}
>>> standard_fields({"pages": "2", "bookpagination": "section"}, "article")
{'csl-section': '2'}
"""

from __future__ import annotations

__all__ = ["standard_fields"]

_EPRINT_IDS = {"pubmed": "pmid", "pmid": "pmid", "pmc": "pmcid", "pmcid": "pmcid"}
_EVENTS = frozenset({"inproceedings", "conference", "proceedings", "mvproceedings"})
_COURTESY = (("numpages", "pagetotal"), ("bdsk-url-1", "url"), ("tags", "keywords"), ("keyword", "keywords"))
_FIELDS = frozenset({"eprinttype", "archiveprefix", "bookpagination", "location"} | {o for o, _ in _COURTESY})


def standard_fields(fields: dict[str, str], entry: str) -> dict[str, str]:
    """``fields`` (lower-case names → TeX values) with the spellings above read as the standard field."""
    if not _may_apply(fields):
        return fields
    out = dict(fields)
    kind = (out.get("eprinttype") or out.get("archiveprefix") or "").strip().lower()
    target = _EPRINT_IDS.get(kind)
    if target and "eprint" in out and target not in out:
        out[target] = out.pop("eprint")
        out.pop("eprinttype", None)
        out.pop("archiveprefix", None)
    if out.get("bookpagination", "").strip().lower() == "section" and "pages" in out:
        out["csl-section"] = out.pop("pages")
        del out["bookpagination"]
    if entry in _EVENTS and "location" in out and "address" in out and "venue" not in out:
        out["venue"] = out.pop("location")
    for other, standard in _COURTESY:
        if other in out and standard not in out:
            out[standard] = out.pop(other)
    return out


def _may_apply(fields: dict[str, str]) -> bool:
    """A quick test: most entries have none of these fields."""
    if _FIELDS.isdisjoint(fields):
        return False
    return (
        "eprinttype" in fields
        or "archiveprefix" in fields
        or "bookpagination" in fields
        or ("location" in fields and "address" in fields)
        or any(other in fields for other, _ in _COURTESY)
    )
