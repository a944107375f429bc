"""The CSL-JSON vocabulary (citation-style-language/schema, csl-data.json v1.0.2).

These are the exact spellings the canonical record uses as keys; :mod:`bibconv.csl.items` turns
one CSL-JSON item into a record and back.
"""

from __future__ import annotations

__all__ = ["DATE_VARS", "NAME_VARS", "NUMBER_VARS", "TEXT_VARS", "TYPES", "VERBATIM_VARS", "is_field"]

TYPES: frozenset[str] = frozenset(
    [
        "article",
        "article-journal",
        "article-magazine",
        "article-newspaper",
        "bill",
        "book",
        "broadcast",
        "chapter",
        "classic",
        "collection",
        "dataset",
        "document",
        "entry",
        "entry-dictionary",
        "entry-encyclopedia",
        "event",
        "figure",
        "graphic",
        "hearing",
        "interview",
        "legal_case",
        "legislation",
        "manuscript",
        "map",
        "motion_picture",
        "musical_score",
        "pamphlet",
        "paper-conference",
        "patent",
        "performance",
        "periodical",
        "personal_communication",
        "post",
        "post-weblog",
        "regulation",
        "report",
        "review",
        "review-book",
        "software",
        "song",
        "speech",
        "standard",
        "thesis",
        "treaty",
        "webpage",
    ]
)

NAME_VARS: tuple[str, ...] = (
    "author",
    "chair",
    "collection-editor",
    "compiler",
    "composer",
    "container-author",
    "contributor",
    "curator",
    "director",
    "editor",
    "editorial-director",
    "executive-producer",
    "guest",
    "host",
    "interviewer",
    "illustrator",
    "narrator",
    "organizer",
    "original-author",
    "performer",
    "producer",
    "recipient",
    "reviewed-author",
    "script-writer",
    "series-creator",
    "translator",
)

DATE_VARS: tuple[str, ...] = (
    "issued",
    "accessed",
    "available-date",
    "event-date",
    "original-date",
    "submitted",
)

NUMBER_VARS: frozenset[str] = frozenset(
    [
        "chapter-number",
        "citation-number",
        "collection-number",
        "edition",
        "first-reference-note-number",
        "issue",
        "locator",
        "number",
        "number-of-pages",
        "number-of-volumes",
        "page",
        "page-first",
        "part",
        "printing",
        "supplement",
        "volume",
    ]
)

TEXT_VARS: frozenset[str] = frozenset(
    [
        "citation-key",
        "language",
        "journalAbbreviation",
        "shortTitle",
        "abstract",
        "annote",
        "archive",
        "archive_collection",
        "archive_location",
        "archive-place",
        "authority",
        "call-number",
        "citation-label",
        "collection-title",
        "container-title",
        "container-title-short",
        "dimensions",
        "division",
        "DOI",
        "event",
        "event-title",
        "event-place",
        "genre",
        "ISBN",
        "ISSN",
        "jurisdiction",
        "keyword",
        "medium",
        "note",
        "original-publisher",
        "original-publisher-place",
        "original-title",
        "part-title",
        "PMCID",
        "PMID",
        "publisher",
        "publisher-place",
        "references",
        "reviewed-genre",
        "reviewed-title",
        "scale",
        "section",
        "source",
        "status",
        "title",
        "title-short",
        "URL",
        "version",
        "volume-title",
        "volume-title-short",
        "year-suffix",
    ]
)


VERBATIM_VARS: frozenset[str] = frozenset(
    {"URL", "DOI", "ISBN", "ISSN", "PMID", "PMCID", "call-number", "archive_location", "language"}
)
"""Variables stored as written, not as rich text: identifiers, so ``&`` in a URL stays ``&``."""


def is_field(name: str) -> bool:
    """True for a CSL text or number variable (what ``Record.fields`` may hold)."""
    return name in TEXT_VARS or name in NUMBER_VARS
