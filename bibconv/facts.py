"""bibconv's own notes on a record: what a reader saw of it, never part of the work's reference.

A listing shows less than the work: an abstract cut short, a title shortened, the first few authors.
The reader says so in the record's ``extra["bibconv:note"]`` (:data:`NOTE_KEY`), the notes joined by
``"; "``, so that nobody takes the excerpt for the whole. Every writer keeps them where no style
prints them: BibTeX and biblatex in the field ``bibconv-note`` (:data:`NOTE_FIELD`, which bibtex and
biber ignore), CSL-JSON in ``custom`` (which citeproc ignores; CSL's ``note`` is printed by many
styles), RIS in ``N1`` notes that start with ``bibconv:`` (:data:`RIS_PREFIX`). Every reader reads
them back; merging drops a note the other record makes untrue (:func:`without`).

>>> extra: dict[str, object] = {}
>>> add(extra, TRUNCATED_NOTE); add(extra, MORE_AUTHORS_NOTE); add(extra, TRUNCATED_NOTE)
>>> extra[NOTE_KEY]
'Abstract truncated in the source listing; More authors than the source listing shows'
>>> notes(without(extra, TRUNCATED_NOTE))
['More authors than the source listing shows']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "MORE_AUTHORS_NOTE",
    "NOTE_FIELD",
    "NOTE_KEY",
    "OWN_NOTES",
    "RIS_PREFIX",
    "TITLE_CUT_NOTE",
    "TRUNCATED_NOTE",
    "add",
    "from_text",
    "notes",
    "without",
]

NOTE_KEY = "bibconv:note"
"""The ``extra`` key (and CSL-JSON ``custom`` key) of bibconv's notes on a record."""
NOTE_FIELD = "bibconv-note"
"""The BibTeX and biblatex field of bibconv's notes: bibtex and biber ignore it."""
RIS_PREFIX = "bibconv: "
"""What starts an ``N1`` line that is one of bibconv's notes."""
SEPARATOR = "; "

TRUNCATED_NOTE = "Abstract truncated in the source listing"
"""A record whose abstract is only a listing's excerpt; merging drops it when the complete abstract
comes from another record."""
MORE_AUTHORS_NOTE = "More authors than the source listing shows"
"""A record whose author line ends in (or skips names with) ``et al.`` or ``…``."""
TITLE_CUT_NOTE = "Title cut short in the source listing"
"""A record whose title the listing shows only in part (ending in ``…``)."""
OWN_NOTES = frozenset({TRUNCATED_NOTE, MORE_AUTHORS_NOTE, TITLE_CUT_NOTE})
"""Every note bibconv writes: an RIS ``N1`` of another text that starts with ``bibconv:`` is the
user's own note."""


def notes(extra: Mapping[str, Any]) -> list[str]:
    """bibconv's notes in ``extra`` (a record's, or a reader's dict), in order."""
    value = extra.get(NOTE_KEY)
    return from_text(value) if isinstance(value, str) else []


def from_text(text: str) -> list[str]:
    """The notes of a ``bibconv-note`` value."""
    return [part.strip() for part in text.split(SEPARATOR) if part.strip()]


def add(extra: dict[str, Any], note: str) -> None:
    """Add ``note`` to the notes in ``extra`` (once)."""
    found = notes(extra)
    if note not in found:
        extra[NOTE_KEY] = SEPARATOR.join([*found, note])


def without(extra: Mapping[str, Any], *dropped: str) -> dict[str, Any]:
    """``extra`` without the notes ``dropped`` (and without the key when no note is left)."""
    kept = SEPARATOR.join(note for note in notes(extra) if note not in dropped)
    return {key: kept if key == NOTE_KEY else v for key, v in extra.items() if key != NOTE_KEY or kept}
