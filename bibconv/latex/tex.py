r"""The brace walk every TeX helper shares: how deep a text leaves its braces, for TeX and for BibTeX.

TeX reads ``\{`` and ``\}`` as characters, so a backslash takes the character after it out of the
count; BibTeX counts every brace, escaped or not, when it reads a value. A value is safe in a
``.bib`` file only when both agree that it is balanced.

>>> walk(r"a {b \} c} $x$")
(0, 0, 2)
>>> balanced(r"50\%"), balanced(r"\{"), balanced(r"\{", bibtex=True), balanced_for_both(r"\{ \}")
(True, True, False, True)
"""

from __future__ import annotations

import re

__all__ = ["balanced", "balanced_for_both", "group_end", "walk"]

_TEX_BRACE_RE = re.compile(r"\\.|[{}$]", re.S)
_BRACE_RE = re.compile(r"[{}]")
_TEX_GROUP_RE = re.compile(r"\\.|[{}]", re.S)


def walk(text: str, depth: int = 0) -> tuple[int, int, int]:
    """Walk ``text`` from brace depth ``depth`` by TeX's rules: the depth it ends at, the lowest depth
    it reaches, and how many unescaped ``$`` it holds at depth 0."""
    lowest = depth
    dollars = 0
    for m in _TEX_BRACE_RE.finditer(text):
        found = m[0]
        if found == "{":
            depth += 1
        elif found == "}":
            depth -= 1
            if depth < lowest:
                lowest = depth
        elif found == "$" and depth == 0:
            dollars += 1
    return depth, lowest, dollars


def group_end(text: str, start: int) -> int | None:
    r"""The index after the brace group whose ``{`` is at ``start - 1``, by TeX's rules (``None``:
    the group does not close).

    >>> group_end(r"{a {b} \} c} d", 1)
    12
    """
    depth = 1
    for m in _TEX_GROUP_RE.finditer(text, start):
        found = m[0]
        if found == "{":
            depth += 1
        elif found == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def balanced(text: str, *, bibtex: bool = False) -> bool:
    """Whether every brace of ``text`` closes one opened before it: by TeX's rules (``\\{`` is a
    character), or with ``bibtex=True`` by BibTeX's (every brace counts)."""
    if "{" not in text and "}" not in text:
        return True
    if bibtex:
        depth = 0
        for m in _BRACE_RE.finditer(text):
            depth += 1 if m[0] == "{" else -1
            if depth < 0:
                return False
        return depth == 0
    end, lowest, _ = walk(text)
    return end == 0 and lowest == 0


def balanced_for_both(text: str) -> bool:
    """Balanced both for TeX and for BibTeX: what a value needs to be written between braces."""
    return balanced(text) and balanced(text, bibtex=True)
