"""Patterns tried only where a match can start.

A search tries its pattern at every position of the text; a pattern that opens with a lookbehind,
or with an alternation whose branches each open differently, pays for that at each one. Led by a
lookahead of the characters every match starts with, it fails at a glance where none can start:
the same matches, found faster (``tests/test_patterns.py`` compares each with its plain form).
A pattern whose every match ends the text is tried only where the text ends as a match can
(:func:`may_end`).
"""

from __future__ import annotations

import re

__all__ = ["led_by", "may_end"]


def led_by(first: str, pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled behind the lookahead ``(?=first)``: ``first`` is a character class (or a
    character) that every match of ``pattern`` starts with, so that no match is lost.

    >>> led_by(r"[\\s,]", r"(?<!\\s)\\s*+,\\s*").split("Ann Lee , Bob Ray,Carl Day")
    ['Ann Lee', 'Bob Ray', 'Carl Day']
    """
    return re.compile(f"(?={first})(?:{pattern})", flags)


def may_end(text: str, endings: tuple[str, ...]) -> bool:
    """Whether ``text``, less its white space at the end and in any case, ends with one of ``endings``
    (lower case): what a match of a pattern anchored at the end (``(?:et al\\.?)\\s*$``) needs.

    >>> may_end("A. Lee et AL. ", ("al", "al.")), may_end("A. Lee and B. Ray", ("al", "al."))
    (True, False)
    """
    return text.rstrip().casefold().endswith(endings)
