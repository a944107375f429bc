"""Patterns tried only where a match can start.

A search tries its pattern at every position of the text; a pattern that opens with a lookbehind,
or with an alternation whose branches each open differently, pays for that at each one. Led by a
lookahead of the characters every match starts with, it fails at a glance where none can start:
the same matches, found faster (``tests/test_patterns.py`` compares each with its plain form).
"""

from __future__ import annotations

import re

__all__ = ["led_by"]


def led_by(first: str, pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled behind the lookahead ``(?=first)``: ``first`` is a character class (or a
    character) that every match of ``pattern`` starts with, so that no match is lost.

    >>> led_by(r"[\\s,]", r"(?<!\\s)\\s*+,\\s*").split("Ann Lee , Bob Ray,Carl Day")
    ['Ann Lee', 'Bob Ray', 'Carl Day']
    """
    return re.compile(f"(?={first})(?:{pattern})", flags)
