"""Listing text as record values: white space collapsed, TeX decoded where the text reads as TeX
(math stays verbatim), anything else only escaped; TeX's ligatures in arXiv's text."""

from __future__ import annotations

import re

from bibconv import latex
from bibconv.patterns import lazy
from bibconv.spans import split_spans

__all__ = ["clean_space", "plain_name", "rich_text", "tex_ligatures"]

# Math spans; \(…\) holds no \( (nor \[…\] a \[), so that a span left open is scanned once.
_MATH = lazy(r"\$\$.+?\$\$|\$[^$]+\$|\\\((?:[^\\]|\\[^(])+?\\\)|\\\[(?:[^\\]|\\[^\[])+?\\\]", re.DOTALL)
_TEX_OUTSIDE_MATH = lazy(r"\\(?:[A-Za-z]+|['`^\"~=.%&$#_{}])|[{}]")
_TEX_COMMAND = lazy(r"\\(?:[A-Za-z]+|['`^\"~=.%&$#_{}])")
_TEX_BESIDE_BRACES = lazy(r"\\|\{[^{}\s]\}|--|``|''")


def clean_space(text: str) -> str:
    """Collapse runs of white space (newlines included) to one space, trimmed."""
    return " ".join(text.split())  # str.split and a regex's \s know the same white space


def _has_tex(text: str) -> bool:
    if "\\" not in text and "{" not in text and "}" not in text:
        return False
    return _TEX_OUTSIDE_MATH.search(_MATH.sub("", text)) is not None


def _reads_as_tex(text: str) -> bool:
    """Whether text holds TeX outside math: a command, or braces beside other TeX (a backslash,
    a one-character group such as ``{-}`` or ``{à}``, TeX's ``--``, ````` or ``''``)."""
    if "\\" not in text and "{" not in text and "}" not in text:
        return False
    outside = _MATH.sub("", text)
    if _TEX_COMMAND.search(outside):
        return True
    return ("{" in outside or "}" in outside) and _TEX_BESIDE_BRACES.search(outside) is not None


def rich_text(text: str, *, tex: bool = False) -> str:
    """Plain listing text → record rich text, TeX decoded where the text reads as TeX. Braces
    alone are the page's own characters (``the set {1, 2}``, ``{ return x; }``) and are kept.
    ``tex``: the text is TeX by its source (arXiv's metadata), so its ligatures are TeX's too."""
    text = " ".join(text.split())  # clean_space, the call saved: a listing makes one or two an entry
    if ("\\" in text or "{" in text or "}" in text) and _reads_as_tex(text):
        return latex.decode(text)
    return tex_ligatures(latex.escape_markup(text)) if tex else latex.escape_markup(text)


_LIGATURE_RE = lazy(r"---|--|``|''")
_MATH_AND_TAGS = (("$", "$"), ("<", ">"))


def tex_ligatures(rich: str) -> str:
    """``--``, ``---``, ````` `` `````, ``''`` in rich text as TeX typesets them (–, —, “, ”), outside math
    and tags: arXiv's titles and abstracts are TeX ("CROCI -- An analysis")."""
    if "--" not in rich and "``" not in rich and "''" not in rich:
        return rich
    from bibconv.latex.tables import LIGATURES

    parts = split_spans(rich, _MATH_AND_TAGS)
    for i in range(0, len(parts), 2):
        parts[i] = _LIGATURE_RE.sub(lambda m: LIGATURES[m[0]], parts[i])
    return "".join(parts)


def plain_name(text: str) -> str:
    """A name as shown, TeX decoded to plain Unicode (kept as shown when its TeX nests too deeply)."""
    text = clean_space(text)
    if not _has_tex(text):
        return text
    try:
        return clean_space(latex.decode(text, markup=False))
    except latex.TexDepthError:
        return text
