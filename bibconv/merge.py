"""Merging records of the same work, sorting, and selecting.

Two records are the same work when they share an arXiv id, a DOI, or the same
normalised title, first author and year. Merging keeps the richest value of
each field: a complete abstract beats a truncated one, a longer author list
beats a shorter one, a full date beats a year. These steps hold the records in
memory (a later duplicate can change an earlier record), unlike plain conversion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from bibconv import facts
from bibconv.facts import MORE_AUTHORS_NOTE, TRUNCATED_NOTE
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.patterns import lazy

__all__ = ["SORT_KEYS", "TRUNCATED_NOTE", "dedupe", "identity_keys", "merge", "sort_records"]

SORT_KEYS = ("input", "key", "year", "author")

_TRUNCATED = lazy(r"(…|\.\.\.|\[\.\.\.\])\s*$")
_NOT_ALNUM = lazy(r"[^a-z0-9]+")
_DOI_PREFIX = lazy(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def _fold(text: str) -> str:
    from unidecode import unidecode  # here: the listing readers import this module for TRUNCATED_NOTE

    from bibconv.latex import strip_markup

    return _NOT_ALNUM.sub("", unidecode(strip_markup(text)).lower())


def identity_keys(record: Record) -> list[str]:
    """The keys under which ``record`` is the same work as another."""
    keys = []
    if record.arxiv is not None:
        keys.append(f"arxiv:{record.arxiv.id.lower()}")
    doi = record.fields.get("DOI")
    if doi:
        normalized = _DOI_PREFIX.sub("", doi.strip()).lower()
        if normalized.startswith("10.48550/arxiv."):
            keys.append(f"arxiv:{normalized[len('10.48550/arxiv.') :]}")
        else:
            keys.append(f"doi:{normalized}")
    title = record.fields.get("title")
    first = next(iter(record.names.get("author", ())), None)
    year = record.issued.year if record.issued else None
    if title and first is not None and year is not None:
        keys.append(f"work:{_fold(title)}|{_fold(first.family or first.literal or '')}|{year}")
    return keys


def _is_truncated(text: str) -> bool:
    return bool(_TRUNCATED.search(text))


def _richer_text(a: str, b: str) -> str:
    if _is_truncated(a) != _is_truncated(b):
        return b if _is_truncated(a) else a
    return b if len(b) > len(a) else a


def _merged_notes(a: Record, b: Record, extra: dict[str, Any], complete: tuple[str, ...]) -> dict[str, Any]:
    """``extra`` with the notes of both records (:mod:`bibconv.facts`), but those the merged record
    makes untrue (``complete``: its abstract is whole, its authors come from a record that lists all)."""
    for note in facts.notes(b.extra) + facts.notes(a.extra):
        facts.add(extra, note)
    return facts.without(extra, *complete)


def _name_detail(names: tuple[Name, ...]) -> tuple[int, int]:
    filled = sum(
        sum(1 for part in (n.family, n.given, n.non_dropping_particle, n.dropping_particle, n.suffix) if part)
        + len(n.affiliation)
        for n in names
    )
    return len(names), filled


def _richer_date(a: Date, b: Date) -> Date:
    detail = lambda d: (len(d.parts), sum(len(p) for p in d.parts))  # noqa: E731
    return b if detail(b) > detail(a) else a  # type: ignore[no-untyped-call,unused-ignore]


def _merge_arxiv(a: Arxiv | None, b: Arxiv | None) -> Arxiv | None:
    if a is None or b is None:
        return a or b
    newer = b if (b.version or 0) > (a.version or 0) else a
    older = a if newer is b else b
    values: dict[str, Any] = {}
    for name in ("primary_class", "submitted", "updated", "comment", "journal_ref"):
        values[name] = getattr(newer, name) or getattr(older, name)
    values["categories"] = tuple(dict.fromkeys(newer.categories + older.categories))
    return replace(newer, **values)


def merge(a: Record, b: Record) -> Record:
    """One record holding the richest value of each field of ``a`` and ``b`` (``a`` wins ties)."""
    fields = dict(a.fields)
    for key, value in b.fields.items():
        fields[key] = _richer_text(fields[key], value) if key in fields else value
    complete = []
    if "abstract" in fields and not _is_truncated(fields["abstract"]):
        complete.append(TRUNCATED_NOTE)
    names = dict(a.names)
    for var, people in b.names.items():
        if var not in names or _name_detail(people) > _name_detail(names[var]):
            names[var] = people
    authors_from = b if names.get("author") is not a.names.get("author") else a
    if MORE_AUTHORS_NOTE not in facts.notes(authors_from.extra):
        complete.append(MORE_AUTHORS_NOTE)
    dates = dict(a.dates)
    for var, date in b.dates.items():
        dates[var] = _richer_date(dates[var], date) if var in dates else date
    extra = _merged_notes(a, b, {**b.extra, **a.extra}, tuple(complete))
    record_type = (
        a.type if a.type not in ("document", "article") or b.type in ("document", "article") else b.type
    )
    return replace(
        a,
        type=record_type,
        id=a.id or b.id,
        fields=fields,
        names=names,
        dates=dates,
        keywords=tuple(dict.fromkeys(a.keywords + b.keywords)),
        arxiv=_merge_arxiv(a.arxiv, b.arxiv),
        extra=extra,
    )


def dedupe(records: Iterable[Record], report: Callable[[str], None] | None = None) -> list[Record]:
    """Merge records of the same work, keeping the order of first appearance."""
    merged: list[Record | None] = []
    owner: dict[str, int] = {}
    for record in records:
        keys = identity_keys(record)
        hits = sorted({owner[k] for k in keys if k in owner})
        if not hits:
            slot = len(merged)
            merged.append(record)
        else:
            slot = hits[0]
            current = merged[slot]
            assert current is not None
            for other in hits[1:]:  # the new record joins works seen apart so far
                extra_record = merged[other]
                assert extra_record is not None
                current = merge(current, extra_record)
                merged[other] = None
                for key, index in owner.items():
                    if index == other:
                        owner[key] = slot
            shared = next(k for k in keys if owner.get(k) in hits)
            if report is not None:
                report(f"merged {_describe(record)} into {_describe(current)} (same {shared.split(':')[0]})")
            merged[slot] = merge(current, record)
        for key in identity_keys(merged[slot]):  # type: ignore[arg-type]
            owner[key] = slot
    return [r for r in merged if r is not None]


def _describe(record: Record) -> str:
    where = f" at {record.origin}" if record.origin else ""
    return f"{record.id or (record.title or '?')[:40]!r}{where}"


def sort_records(records: Iterable[Record], by: str, key_format: str = "authyeartitle") -> Iterator[Record]:
    """Records in the order asked: ``input`` (as read), ``key`` (the citation key, as the writers make
    it in ``key_format`` when a record has none), ``year`` or ``author``."""
    if by == "input":
        return iter(records)
    if by not in SORT_KEYS:
        raise ValueError(f"cannot sort by {by!r}; choose from {', '.join(SORT_KEYS)}")

    def key(record: Record) -> tuple[Any, ...]:
        from bibconv.keys import make_key

        first = next(iter(record.authors), None)
        author = _fold(first.family_full() if first else "")
        year = record.issued.year if record.issued and record.issued.year is not None else 10**6
        title = _fold(record.title or "")
        if by == "key":
            return ((record.id or make_key(record, key_format)).lower(), year, author, title)
        if by == "year":
            return (year, author, title)
        return (author, year, title)

    return iter(sorted(records, key=key))
