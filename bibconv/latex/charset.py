r"""Characters a LaTeX run can set: what :func:`bibconv.latex.encode` writes as TeX, drops or warns about.

pdflatex with ``\usepackage[T1]{fontenc}`` (and amsmath) sets only a few hundred non-ASCII characters
as they are (:data:`T1_TEXT`: Latin-1, Latin Extended-A, some punctuation and symbols; found by
compiling each character of U+00A0–U+33FF, U+A000–U+ABFF, U+F900–U+FFFF and U+1D400–U+1D7FF in a
paragraph of its own). Every other character is written in a form it can set, in UTF-8 output too: an
accented letter as its accent command (``{\={P}}`` for P with a combining macron: combining marks go on
their base letter), a Greek letter or symbol through pylatexenc's table (``{\ensuremath{\omega}}``,
inside math ``\omega``), a rare space as ``\,``, ``\quad`` or ``~``. Control characters (C0 but tab
and line ends, DEL, C1) and Unicode noncharacters are dropped with a warning; a character with no TeX
form is kept as UTF-8 (lualatex and xelatex set it; bibtex and biber read it) with a warning.

In math, ``&``, ``%`` and ``#`` are escaped (raw, they end the math with an error or, ``%``, comment
out the rest of the ``.bbl`` line).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from bibconv.latex.tables import COMBINING_TO_ACCENT, LETTER_TO_TEX, PUNCT_TO_TEX, SYMBOL_TO_TEX
from bibconv.patterns import lazy

__all__ = ["T1_TEXT", "math_chars", "needs_chars", "tex_for", "text_chars", "unset_char"]

Warn = Callable[[str], None] | None

T1_TEXT = (
    "\u00a0-\u0125\u0128-\u0137\u0139-\u013e\u0141-\u0148\u014a-\u0165\u0168-\u017e\u0192"
    "\u01c4-\u01d4\u01e2-\u01e3\u01e6-\u01eb\u01f0\u01f4-\u01f5\u0218-\u021b\u0232-\u0233\u0237"
    "\u02c6-\u02c7\u02d8-\u02d9\u02db-\u02dd\u0e3f\u1e02-\u1e03\u1e0d\u1e1e-\u1e21\u1e25\u1e30-\u1e31"
    "\u1e37\u1e43\u1e45\u1e47\u1e5b\u1e63\u1e6d\u1e8e-\u1e91\u1e9e\u1ef2-\u1ef3\u200c\u2010-\u2016"
    "\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030-\u2031\u2039-\u203b\u203d\u2044\u204e\u2052"
    "\u20a1\u20a4\u20a6\u20a9\u20ab-\u20ac\u20b1\u2103\u2116-\u2117\u211e\u2120\u2122\u2126-\u2127"
    "\u212e\u2190-\u2193\u2329-\u232a\u2422-\u2423\u25e6\u25ef\u266a\u27e8-\u27e9\u3008-\u3009"
    "\ufb00-\ufb06"
)
"""The non-ASCII characters pdflatex sets in text mode with T1 fonts (a regex character-class body)."""

CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
"""C0 control characters but tab and line ends, DEL, and C1 (a regex character-class body)."""
NONCHARACTERS = "\ufdd0-\ufdef\ufffe\uffff"
"""The noncharacters of the BMP (those of the other planes are tested by :func:`noncharacter`)."""
_COMBINING = "\u0300-\u036f"
_MARKS = "\ufdd4\ufdd5"  # the encoder's own literal-brace marks (input ones are removed before)
# A character (with the combining marks after it) that needs work: outside ASCII, or a control.
_ASCII_RE = lazy(f"[^\t\n\r\x20-\x7e{_MARKS}][{_COMBINING}]*|[\x20-\x7e][{_COMBINING}]+")
_UTF8_RE = lazy(f"(?:[{CONTROLS}]|[^\x00-\x7f{T1_TEXT}{_MARKS}])[{_COMBINING}]*|[^{CONTROLS}][{_COMBINING}]+")
# Where those find something: one character class each, which the regex engine scans for at C
# speed (the patterns' second branch makes it try each printable character).
_ASCII_NEEDS_RE = lazy(f"[^\t\n\r\x20-\x7e{_MARKS}]")
_UTF8_NEEDS_RE = lazy(f"[^\t\n\r\x20-\x7e{T1_TEXT}{_MARKS}]")
# In math: a control sequence (left as it is), a TeX special, or a character outside ASCII or a control.
_MATH_RE = lazy(f"\\\\(?:[A-Za-z]+|.)|[{{}}&%#]|[^\x00-\x7f{_MARKS}][{_COMBINING}]*|[{CONTROLS}]", re.S)
_TEXT_COMMANDS = frozenset(
    {"text", "textrm", "textit", "textbf", "textsf", "texttt", "textup", "textsl", "textsc", "textmd"}
    | {"textnormal", "emph", "mbox", "hbox"}
)
_T1_RE = lazy(f"[{T1_TEXT}]")
_CONTROL_RE = lazy(f"[{CONTROLS}]")
_SPACES = {
    "\u2002": "\\quad{}",
    "\u2003": "\\quad{}",
    "\u2004": "\\,",
    "\u2005": "\\,",
    "\u2006": "\\,",
    "\u2007": "~",
    "\u2008": "\\,",
    "\u2009": "\\,",
    "\u200a": "\\,",
    "\u202f": "\\,",
    "\u205f": "\\,",
    "\u3000": "\\quad{}",
    "\u2028": " ",
    "\u2029": " ",
    "\u200b": "",
    "\u2060": "",
    "\ufeff": "",
}
"""Spaces pdflatex cannot set, as the space command nearest in width (zero width: nothing)."""
_LIGATURE_NEIGHBOURS = "-`'!?–—“”‘’"


def needs_chars(text: str, ascii: bool) -> bool:
    """Whether ``text`` holds a character :func:`text_chars` would change: whether its pattern finds
    something, told by the pattern's first character class alone (a combining mark is in it too)."""
    return (_ASCII_NEEDS_RE if ascii else _UTF8_NEEDS_RE).search(text) is not None


def text_chars(text: str, ascii: bool, warn: Warn) -> str:
    """Text (TeX specials already escaped) with each character LaTeX cannot set in a form it can;
    with ``ascii`` every non-ASCII character."""
    pattern = _ASCII_RE if ascii else _UTF8_RE

    def one(m: re.Match[str]) -> str:
        tex = _text_char(m[0], warn)
        if tex in ("``", "''"):  # a group of its own: a word's case protection stops at it
            return "{" + tex + "}"
        if tex[:1] in "-`'":  # a ligature next to ``-``, ````` or ``'`` would merge with it: brace it
            before = m.string[m.start() - 1 : m.start()]
            after = m.string[m.end() : m.end() + 1]
            if (before and before in _LIGATURE_NEIGHBOURS) or (after and after in _LIGATURE_NEIGHBOURS):
                return "{" + tex + "}"
        return tex

    return pattern.sub(one, text)


def math_chars(tex: str, ascii: bool, warn: Warn) -> str:
    r"""Math (TeX) with ``& % #`` escaped and each character LaTeX cannot set in math in a form it can
    (``ω`` → ``\omega``); the argument of a text command (``\textrm{è}``) is text."""
    if tex.isascii() and "&" not in tex and "%" not in tex and "#" not in tex:
        return tex
    groups: list[bool] = []  # for each open group: whether it is a text command's argument
    text_next = False

    def one(m: re.Match[str]) -> str:
        nonlocal text_next
        found = m[0]
        if found[0] == "\\":
            text_next = found[1:] in _TEXT_COMMANDS
            return found
        opens_text, text_next = text_next, False
        if found == "{":
            groups.append(opens_text or (bool(groups) and groups[-1]))
            return found
        if found == "}":
            if groups:
                groups.pop()
            return found
        if found in "&%#":
            return "\\" + found
        if groups and groups[-1]:  # text inside math
            return text_chars(found, ascii, warn) if needs_chars(found, ascii) else found
        out = _math_char(found, ascii, warn)
        after = m.string[m.end() : m.end() + 1]
        if out[-1:].isalpha() and out.startswith("\\") and after.isascii() and after.isalpha():
            out += " "  # ``\omega x``, not ``\omegax``
        return out

    return _MATH_RE.sub(one, tex)


def unset_char(text: str) -> str | None:
    """What pdflatex cannot set in ``text`` (TeX as written), first: its first such character, named,
    and whether the encoder has a TeX form for it; ``None`` when there is none (controls aside)."""
    for m in _UTF8_RE.finditer(text):
        if not _CONTROL_RE.match(m[0]):
            form = tex_for(unicodedata.normalize("NFC", m[0]))
            return f"{m[0]!r} ({_codes(m[0])}), {'which has a TeX form' if form else 'which has no TeX form'}"
    return None


def _text_char(ch: str, warn: Warn) -> str:
    dropped = _dropped(ch, warn)
    if dropped is not None:
        return dropped
    tex = tex_for(unicodedata.normalize("NFC", ch))
    if tex is None:
        if warn is not None:
            warn(f"no TeX form for {ch!r} ({_codes(ch)}); kept as UTF-8")
        return ch
    return tex


def _math_char(ch: str, ascii: bool, warn: Warn) -> str:
    """A math symbol as its command; another character in ``\\text`` (pdflatex builds accents with
    ``\\accent``, an error in math), as it is or as its text form."""
    dropped = _dropped(ch, warn)
    if dropped is not None:
        return dropped
    composed = unicodedata.normalize("NFC", ch)
    tex = tex_for(composed)
    if tex is not None and tex.startswith("{\\ensuremath{") and tex.endswith("}}"):
        return tex[len("{\\ensuremath{") : -2]
    if not ascii and _T1_RE.fullmatch(composed):
        return "\\text{" + composed + "}"
    if tex is not None:
        return "\\text{" + tex + "}"
    if warn is not None:
        warn(f"no TeX form for {ch!r} ({_codes(ch)}) inside math; kept as UTF-8")
    return ch


def _dropped(ch: str, warn: Warn) -> str | None:
    """What a space, control character or noncharacter becomes (``None``: none of those)."""
    first = ch[0]
    if first in _SPACES:
        return _SPACES[first]
    code = ord(first)
    if code < 0x20 or 0x7F <= code <= 0x9F or noncharacter(code):
        space = first.isspace()  # U+000C, U+001C–U+001F, U+0085 separate words
        if warn is not None:
            kind = "noncharacter" if noncharacter(code) else "control character"
            warn(f"{kind} U+{code:04X} {'written as a space' if space else 'dropped'}")
        return " " if space else ""
    return None


def noncharacter(code: int) -> bool:
    """Whether the code point is a Unicode noncharacter (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF)."""
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _codes(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text)


_NO_T1_FORM = lazy(
    "["
    "\u0195\u019e\u01c0-\u01c2\u0259\u0278\u0294\u029e\u03f0\u03f6\u0400-\u0402\u0404-\u040b"
    "\u040d-\u0452\u0454-\u045b\u045d-\u045f\u0462-\u0463\u046a-\u046b\u0472-\u0475\u048c-\u04c0"
    "\u04c3-\u04c8\u04cb-\u04ce\u04d2-\u04d5\u04d8-\u04e9\u04ec-\u04ff\u2035\u2136-\u2138"
    "\u219a-\u219e\u21a0\u21a2-\u21a3\u21ab-\u21ae\u21b0-\u21b1\u21b6-\u21b7\u21ba-\u21bb"
    "\u21be-\u21bf\u21c2-\u21cb\u21cd-\u21cf\u21da-\u21db\u21dd\u21f5\u2201\u2204-\u2205\u2214\u2216"
    "\u221f\u2221-\u2222\u2224\u2226\u222f-\u2231\u2234-\u2235\u223b\u223d-\u223e\u2246\u224a-\u224c"
    "\u224e-\u224f\u2251-\u2253\u2256-\u2257\u2259\u225b-\u225c\u2266-\u2269\u226c\u226e-\u2273"
    "\u2276-\u2279\u227e-\u2281\u2288-\u228b\u228f-\u2290\u229a-\u229b\u229d-\u22a1\u22a7-\u22af"
    "\u22b2-\u22bb\u22be\u22c7\u22c9-\u22d4\u22d6-\u22db\u22de-\u22df\u22e6-\u22ed\u22f0\u2305-\u2306"
    "\u2315\u231c-\u231f\u25a1\u25b4-\u25b5\u25b8\u25be-\u25bf\u25c2\u25ca\u2669\u266d-\u266f\u29eb"
    "\u2a0f\u2a16\u2a7d-\u2a7e\u2a85-\u2a8c\u2a95-\u2a96\u2ab5-\u2aba\u2ac5-\u2ac6\u2acb-\u2acc"
    "]"
)
"""Characters whose TeX form (pylatexenc's, or tipa's ``\\textdoublepipe``) needs a package or font
beyond T1 and amsmath (amssymb, tipa, T2A Cyrillic): found by compiling each form; no form is written."""


@lru_cache(maxsize=4096)
def tex_for(ch: str) -> str | None:
    """The TeX form of a character (a letter with its combining marks); ``None`` when there is none
    pdflatex with T1 fonts and amsmath sets."""
    return None if _NO_T1_FORM.match(ch) else _candidate(ch)


# Modifier letters whose glyph is a quotation mark's (Unicode gives U+2019 as the typographic form of
# U+02BC MODIFIER LETTER APOSTROPHE, U+2018 of U+02BB MODIFIER LETTER TURNED COMMA, the ʻokina); braced,
# so that no ligature joins them to a quote after them. U+02BE and U+02BF, the half rings of Arabic and
# Hebrew transliteration, have no such form in T1 (tipa's): they stay UTF-8, with a warning.
_QUOTE_LIKE = {"\u02bc": "{\\textquoteright}", "\u02bb": "{\\textquoteleft}"}


def _candidate(ch: str) -> str | None:
    """The TeX form of a character from bibconv's tables, its marks, or pylatexenc's table."""
    if ch in _QUOTE_LIKE:
        return _QUOTE_LIKE[ch]
    if ch in PUNCT_TO_TEX:
        return PUNCT_TO_TEX[ch]
    if ch in LETTER_TO_TEX:
        return "{\\" + LETTER_TO_TEX[ch] + "}"
    if ch in SYMBOL_TO_TEX:
        return "{" + SYMBOL_TO_TEX[ch] + "}"
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:]
    if marks and all(mark in COMBINING_TO_ACCENT for mark in marks):
        if base.isascii() and base.isalpha():
            inner = base
        elif base in LETTER_TO_TEX:
            inner = "\\" + LETTER_TO_TEX[base]
        else:
            inner = ""
        if inner:
            for mark in marks:
                inner = "\\" + COMBINING_TO_ACCENT[mark] + "{" + inner + "}"
            return "{" + inner + "}"
    latex: str = _pylatexenc_encoder().unicode_to_latex(ch)
    if latex and latex != ch and latex.isascii():
        latex = latex if latex.startswith("{") else "{" + latex.strip() + "}"
        from bibconv.latex import decode

        if decode(latex, markup=False) == ch:  # pylatexenc approximates some letters (Ŧ as \={T})
            return latex
    return None


@lru_cache(maxsize=1)
def _pylatexenc_encoder() -> Any:
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(
        non_ascii_only=True,
        replacement_latex_protection="braces-all",
        unknown_char_policy="keep",
        unknown_char_warning=False,
    )
