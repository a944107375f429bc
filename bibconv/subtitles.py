"""Subtitles: biblatex keeps a work's subtitle in a field of its own, CSL in the title ("Title: Subtitle").

A record read from biblatex holds the whole title, ``Title: Subtitle``, in its ``title`` (and a book's or
journal's in ``container-title``), and the subtitle field as written in ``extra`` (:data:`SUBTITLES`);
the biblatex writer splits the title again while it still ends with that subtitle.

>>> join("The True Frontier", "Confronting the Future"), join("Why?", "An answer")
('The True Frontier: Confronting the Future', 'Why? An answer')
>>> split_off("The True Frontier: Confronting the Future", "Confronting the Future")
'The True Frontier'
"""

from __future__ import annotations

__all__ = ["SUBTITLES", "join", "split_off"]

SUBTITLES: dict[str, str] = {
    "bibtex:subtitle": "title",
    "bibtex:booksubtitle": "container-title",
    "bibtex:journalsubtitle": "container-title",
}
"""The ``extra`` key of each subtitle field → the variable whose text ends with it."""

_ENDS_SENTENCE = tuple(".?!:;")


def _separator(title: str) -> str:
    return " " if title.rstrip().endswith(_ENDS_SENTENCE) else ": "


def join(title: str, subtitle: str) -> str:
    """``Title: Subtitle`` (a space alone after a title that ends with its own punctuation)."""
    if not subtitle:
        return title
    return title.rstrip() + _separator(title) + subtitle.strip() if title else subtitle


def split_off(whole: str, subtitle: str) -> str | None:
    """The title before ``subtitle`` when ``whole`` is :func:`join` of the two, else ``None``."""
    subtitle = subtitle.strip()
    if not subtitle or not whole.endswith(subtitle):
        return None
    head = whole[: -len(subtitle)]
    for sep in (": ", " "):
        if head.endswith(sep) and head[: -len(sep)].strip() and join(head[: -len(sep)], subtitle) == whole:
            return head[: -len(sep)]
    return None
