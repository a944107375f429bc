"""TeX's special characters in text: their escaped forms (:data:`SPECIALS`), the runs TeX makes a
ligature of, and literal braces, marked by :data:`LB`/:data:`RB` until :func:`pair_braces` writes them;
used by :mod:`bibconv.latex.encoder`."""

from __future__ import annotations

import re
from itertools import accumulate

from bibconv.patterns import lazy

__all__ = [
    "LB",
    "RB",
    "SPECIALS",
    "SPECIAL_RE",
    "SPECIAL_TAIL",
    "has_ligature",
    "pair_braces",
    "special",
    "specials_replaced",
]

LB, RB = "\ufdd4", "\ufdd5"  # literal braces until paired; removed from input
_NOT_BRACE_MARK_RE = lazy(f"[^{LB}{RB}]+")
_MARK_STEP = {ord("{"): 1, ord("}"): -1}
SPECIALS = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": LB,  # paired by pair_braces
    "}": RB,
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "\u00a0": "~",
}
# A special character, or a run TeX would make a ligature of, after its first character.
SPECIAL_TAIL = r"(?<=-)-+|(?<=`)`+|(?<=')'+|(?<=[!?])`|(?<=[&%$#_{}~^\\\u00a0])"
SPECIAL_RE = lazy(r"[-`'!?&%$#_{}~^\\\u00a0](?:" + SPECIAL_TAIL + ")")
# The order in which specials_replaced replaces them: braces before the backslash (whose form
# holds braces), the backslash before the rest (whose forms hold backslashes), ``~`` before the
# no-break space (whose form it is).
_ORDER = ("{", "}", "\\", "&", "%", "$", "#", "_", "~", "^", "\u00a0")


def has_ligature(text: str) -> bool:
    """Whether ``text`` holds a run TeX makes a ligature of (one-character tests first: they are quicker)."""
    return (
        ("-" in text and "--" in text)
        or ("'" in text and "''" in text)
        or ("`" in text and ("``" in text or "!`" in text or "?`" in text))
    )


def pair_braces(body: str) -> str:
    r"""Literal braces: ``\{``/``\}`` where they pair up, ``{\textbraceleft}``/``{\textbraceright}`` alone.

    BibTeX counts ``\{`` as a brace, so a lone one would unbalance the value; the braced control word is
    one "special character" to BibTeX (initials, case changes and sorting treat it as one letter).
    """
    marks = _NOT_BRACE_MARK_RE.sub("", body).replace(LB, "{").replace(RB, "}").encode()
    depths = accumulate(map(_MARK_STEP.__getitem__, marks), initial=0)
    if 2 * marks.count(b"{") == len(marks) and min(depths) >= 0:  # all pair up: no step per character
        return body.replace(LB, "\\{").replace(RB, "\\}")
    chars = list(body)
    opened: list[int] = []
    for i, ch in enumerate(chars):
        if ch == LB:
            opened.append(i)
        elif ch == RB:
            if opened:
                chars[opened.pop()] = "\\{"
                chars[i] = "\\}"
            else:
                chars[i] = "{\\textbraceright}"
    for i in opened:
        chars[i] = "{\\textbraceleft}"
    return "".join(chars)


def specials_replaced(text: str) -> str:
    """Each special character of ``text`` in its form of :data:`SPECIALS` (one pass each)."""
    for char in _ORDER:
        if char in text:
            text = text.replace(char, SPECIALS[char])
    return text


def special(m: re.Match[str]) -> str:
    token = m[0]
    if len(token) > 1:  # split a ligature: ``-{}-{}-``
        return "{}".join(token)
    return SPECIALS[token]
