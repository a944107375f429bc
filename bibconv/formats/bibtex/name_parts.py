r"""BibTeX's split of one name into First, von, Last and Jr parts (for :mod:`.names`).

:func:`bibtex_parts` gives the same word lists as pybtex's :class:`~pybtex.database.Person` (the parse
the ``bibtex`` program makes): the name is cut at commas at brace depth 0 (``von Last, First`` /
``von Last, Jr, First`` / ``First von Last``), each part into words at spaces, ``~`` and ``\ `` at
depth 0, and a word is ``von`` when its first letter at depth 0 — or in a leading special character
such as ``{\'e}`` — is lowercase. It is one regex pass and a few list operations, several times faster
than pybtex, which stays the reference: a name this module does not read exactly as pybtex does
(braces nested deeper than three, unbalanced braces, ``\\``, ``\,``, a backslash before a tab or newline,
more than two commas) gives ``None`` and the caller asks pybtex. ``tests/test_names.py`` compares both
on every name of the sample files and on generated names.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bibconv.patterns import lazy

__all__ = ["bibtex_parts"]

Parts = tuple[list[str], list[str], list[str], list[str]]

# A brace group nested at most three deep; BibTeX and pybtex count every brace, ``\{`` too.
_GROUP = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
_TOKEN_RE = lazy(
    rf"(?P<sep>(?:\\ |\s|~)+)|(?P<comma>,)|(?P<group>{_GROUP})|(?P<text>[^{{}}\s~,\\]+|\\[^{{}}\s]|\\(?=\{{))"
    r"|(?P<bad>.)",
    re.S,
)
_SLOW_RE = lazy(r"\\\\|\\,|\\[^\S ]|\\$")


def bibtex_parts(text: str) -> Parts | None:
    """``(first, von, last, jr)`` word lists of one name as pybtex reads it; ``None`` to ask pybtex."""
    if "\\" in text and _SLOW_RE.search(text):
        return None
    parts: list[list[str]] = [[]]
    word: list[str] = []
    for m in _TOKEN_RE.finditer(text.strip()):
        kind = m.lastgroup
        if kind == "sep" or kind == "comma":
            if word:
                parts[-1].append("".join(word))
                word = []
            if kind == "comma":
                parts.append([])
        elif kind == "bad":
            return None
        else:
            word.append(m[0])
    if word:
        parts[-1].append("".join(word))
    if len(parts) > 3:
        return None  # pybtex reports "too many commas"
    if len(parts) == 3:
        von, last = _von_last(parts[0])
        return parts[2], von, last, parts[1]
    if len(parts) == 2:
        von, last = _von_last(parts[0])
        return parts[1], von, last, []
    words = parts[0]
    pos = _find(words, _is_von)
    first, von_last = words[:pos], words[pos:]
    if not von_last and first:
        von_last = [first.pop()]
    von, last = _von_last(von_last)
    return first, von, last, []


def _find(words: list[str], pred: Callable[[str], bool]) -> int:
    for i, word in enumerate(words):
        if pred(word):
            return i
    return len(words)


def _von_last(words: list[str]) -> tuple[list[str], list[str]]:
    """``von Last``: the von part ends with the last lowercase word before the final word."""
    if len(words) < 2:
        return [], words
    head = words[:-1]
    pos = len(head) - _find(head[::-1], _is_von)
    return head[:pos], head[pos:] + words[-1:]


def _is_von(word: str) -> bool:
    first = word[0]
    if first.isupper():
        return False
    if first.islower():
        return True
    depth = 0
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "{":
            if depth == 0 and word[i + 1 : i + 2] == "\\":  # a special character decides
                return _special_is_lower(word, i + 2)
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif depth == 1 and ch == "\\":  # pybtex: a backslash in a plain group ends the search
            return False
        elif depth == 0 and ch.isalpha():
            return ch.islower()
        i += 1
    return False


def _special_is_lower(word: str, start: int) -> bool:
    """pybtex's ``special_char_islower`` on the special character whose control word starts at ``start``."""
    control = True
    depth = 1
    for ch in word[start:]:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return False
        if control:
            control = ch.isalpha()
        elif ch.isalpha():
            return ch.islower()
    return False
