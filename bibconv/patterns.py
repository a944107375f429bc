"""Patterns tried only where a match can start.

A search tries its pattern at every position of the text; a pattern that opens with a lookbehind,
or with an alternation whose branches each open differently, pays for that at each one. Led by a
lookahead of the characters every match starts with, it fails at a glance where none can start:
the same matches, found faster (``tests/test_patterns.py`` compares each with its plain form).
A pattern whose every match ends the text is tried only where the text ends as a match can
(:func:`may_end`).

A module's patterns are built with :func:`lazy`: each is compiled when first used, so that a run
pays only for the patterns it uses (a conversion uses a few of the hundreds bibconv has).
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

__all__ = ["lazy", "led_by", "may_end"]

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn", "scanner")


class _Lazy:
    """A pattern compiled when first used; its methods then stand on the object itself, found as
    quickly as a compiled pattern's own."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what is not set yet: before the first use
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        for attribute in ("flags", "groups", "groupindex"):
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self._flags})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, done when the pattern is first used.

    >>> words = lazy(r"\\w+")
    >>> "search" in vars(words), words.findall("two words"), "search" in vars(words)
    (False, ['two', 'words'], True)
    """
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))


def led_by(first: str, pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled behind the lookahead ``(?=first)``: ``first`` is a character class (or a
    character) that every match of ``pattern`` starts with, so that no match is lost.

    >>> led_by(r"[\\s,]", r"(?<!\\s)\\s*+,\\s*").split("Ann Lee , Bob Ray,Carl Day")
    ['Ann Lee', 'Bob Ray', 'Carl Day']
    """
    return lazy(f"(?={first})(?:{pattern})", flags)


def may_end(text: str, endings: tuple[str, ...]) -> bool:
    """Whether ``text``, less its white space at the end and in any case, ends with one of ``endings``
    (lower case): what a match of a pattern anchored at the end (``(?:et al\\.?)\\s*$``) needs.

    >>> may_end("A. Lee et AL. ", ("al", "al.")), may_end("A. Lee and B. Ray", ("al", "al."))
    (True, False)
    """
    return text.rstrip().casefold().endswith(endings)
