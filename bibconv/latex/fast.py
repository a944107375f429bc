r"""The accelerator of :func:`bibconv.latex.decode`, and the markup sentinels it and the reference use.

**Accelerator of** :func:`bibconv.latex.decoder.general` (pylatexenc's walker and bibconv's renderer):
where :func:`fast_decode` returns text, it is what the walker gives (once both are finished as
``decode`` finishes them); where it is unsure it returns ``None`` and the walker reads the value.
``tests/latex/test_accelerators.py`` holds it to that on generated TeX and on every value of the
real samples, and :func:`_math_only` to the regex pass it shortcuts.

One regex pass reads plain text, accents in every brace form, letter and symbol macros, escapes,
ligatures, math and ``^{…}``/``_{…}`` outside math (verbatim), ``\url``, formatting and quotation
macros with a brace argument, and brace groups (with BibTeX's case-protection rule). Anything else —
an unknown macro, a declaration such as ``{\em …}``, an accent over a group, a lone ``$`` — returns
``None`` and the caller uses the general parser, so both paths give the same result.

Markup is written with noncharacter sentinels (``_open("i")``), turned into tags or dropped at the end.
"""

from __future__ import annotations

import re
import unicodedata

from bibconv.latex.packages import TEXT_MACROS
from bibconv.latex.tables import ACCENTS, LETTERS, LIGATURES, MARKUP_MACROS, QUOTE_MACROS, SYMBOLS
from bibconv.latex.tex import math_only
from bibconv.patterns import lazy

OPEN, SEP, CLOSE, PCT = "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3"
MARK_RE = lazy(f"{OPEN}(\\w+){SEP}|{CLOSE}(\\w+){SEP}")

_SPACING_ACCENTS = {"~": "~", "^": "^", "'": "´", "`": "`", '"': "¨", "=": "¯", ".": "˙", "c": "¸"}
_LETTER_ARG = r"(?:[A-Za-z]|\\[ij](?![A-Za-z])\s*)"
_SYMBOL_ACCENT = r"""['`^"~=.]"""
_WORD_ACCENT = r"[cHvkurdbGUhf]"
_LETTER_NAMES = "|".join(sorted(LETTERS, key=len, reverse=True))
_ARG_MACROS = "|".join(sorted((*MARKUP_MACROS, *QUOTE_MACROS), key=len, reverse=True))
# The spaces TeX skips after a control word, as the walker reads them: up to a blank line (a paragraph).
_SPACE_AFTER_WORD = r"(?:\n(?!\n)|(?!\n)\s)*"
# A brace group with up to two levels of groups inside (a superscript or subscript's argument).
_GROUP = r"\{(?:[^{}\\]|\\.|\{(?:[^{}\\]|\\.|\{(?:[^{}\\]|\\.)*\})*\})*\}"
# The pattern opens with a consuming character class, so the engine skips plain text with its fast
# charset scan; each alternative then checks that character again with a lookbehind (several times
# faster than a leading lookahead, which makes the engine try the whole pattern at every position).
_FAST_RE = lazy(
    r"[\\{}$`'!?~^_-](?:"
    r"(?P<math>(?<=\$)\$(?:[^$\\]|\\.)+?\$\$|(?<=\$)(?:[^$\\]|\\.)+?\$"
    # to the first closer, never past another opener of its kind: each run is scanned once
    r"|(?<=\\)\((?:[^\\]|\\(?!\())*?\\\)|(?<=\\)\[(?:[^\\]|\\(?!\[))*?\\\])"
    r"|(?P<open>(?<=\{)(?!\\))|(?P<close>(?<=\}))"  # the most common tokens first; ``{\`` may open an accent
    rf"|(?P<acc1>(?<=\{{)\\(?P<a1>{_SYMBOL_ACCENT})\s*(?P<b1>\{{)?(?P<l1>{_LETTER_ARG})(?(b1)\}})\}})"
    rf"|(?P<acc2>(?<=\{{)\\(?P<a2>{_WORD_ACCENT})(?:\s+|(?=\{{))(?P<b2>\{{)?(?P<l2>{_LETTER_ARG})(?(b2)\}})\}})"
    rf"|(?P<acc3>(?<=\\)(?P<a3>{_SYMBOL_ACCENT})\s*(?P<b3>\{{)?(?P<l3>{_LETTER_ARG})(?(b3)\}}))"
    rf"|(?P<acc4>(?<=\\)(?P<a4>{_WORD_ACCENT})(?:\s+|(?=\{{))(?P<b4>\{{)?(?P<l4>{_LETTER_ARG})(?(b4)\}}))"
    rf"|(?P<braced_letter>(?<=\{{)\\(?P<s1>{_LETTER_NAMES})\s*\}})"
    rf"|(?P<arg_macro>(?<=\\)(?P<mk>{_ARG_MACROS})\s*\{{)"
    r"|(?P<url>(?<=\\)url\s*\{(?P<link>[^{}\\]*)\})"
    rf"|(?P<script>(?<=[\^_])(?:{_GROUP}|\\[A-Za-z]+))"
    r"|(?P<bad>(?<=[\^_])\{)"
    rf"|(?P<word>(?<=\\)(?P<w>[A-Za-z]+)(?P<more>[^\W\d_])?{_SPACE_AFTER_WORD}(?:\{{\}})?)"
    r"|(?P<control>(?<=\\)(?P<c>[^A-Za-z]))"
    r"|(?P<lig>(?<=-)--|(?<=-)-|(?<=`)`|(?<=')'|(?<=!)`|(?<=\?)`|(?<=~))"
    r"|(?P<brace>(?<=\{))"
    r"|(?P<dollar>(?<=\$)))"
)
_ARGUMENT_NEXT_RE = lazy(r"\s*[{\[]")
_NONE_OPEN, _NONE_CLOSE = f"{OPEN}none{SEP}", f"{CLOSE}none{SEP}"
# Tokens that are a bare macro (a braced accent like ``{\'E}`` is a group, not a macro).
_CHARACTER_KINDS = frozenset({"acc3", "acc4", "word", "control"})


def open_mark(tag: str) -> str:
    return f"{OPEN}{tag}{SEP}"


def close_mark(tag: str) -> str:
    return f"{CLOSE}{tag}{SEP}"


def wrap(tag: str | None, content: str) -> str:
    return f"{open_mark(tag)}{content}{close_mark(tag)}" if tag else content


def accent(cmd: str, base: str) -> str:
    """Apply accent ``cmd`` to the first character of ``base`` (``\\t`` ties the first two)."""
    if not base:
        return _SPACING_ACCENTS.get(cmd, ACCENTS[cmd])
    if base[0] in "ıȷ":
        base = ("i" if base[0] == "ı" else "j") + base[1:]
    return unicodedata.normalize("NFC", base[0] + ACCENTS[cmd] + base[1:])


def _has_upper(text: str) -> bool:
    return any(c.isupper() for c in MARK_RE.sub("", text))


class _Entry:
    """An open brace: a group (``arg=False``) or a macro's argument carrying ``tag``."""

    __slots__ = ("arg", "character", "start", "tag")

    def __init__(self, start: int, arg: bool, tag: str | None) -> None:
        self.start = start
        self.arg = arg
        self.tag = tag
        self.character: bool | None = None  # does the group open with a character macro?


def _token(m: re.Match[str]) -> str | None:
    """The text of a character-like token; ``None`` if the general parser must handle it."""
    kind = m.lastgroup
    if kind in ("acc1", "acc2", "acc3", "acc4"):
        n = kind[3]
        arg = m["l" + n].strip()
        return accent(m["a" + n], arg if len(arg) == 1 else arg[1])
    if kind == "braced_letter":
        return LETTERS[m["s1"]]
    if kind == "word":
        if m["more"]:  # ``\Lé``: the walker reads one name of letters, ASCII or not
            return None
        name = m["w"]
        return LETTERS.get(name, SYMBOLS.get(name, TEXT_MACROS.get(name)))
    if kind == "control":
        return " " if m["c"] == "\\" else SYMBOLS.get(m["c"])
    if kind == "lig":
        return "\u00a0" if m[0] == "~" else LIGATURES[m[0]]
    if kind == "url":
        return m["link"]
    return m[0]  # math, verbatim


_SPECIALS = ("\\", "{", "}", "~", "^", "_", "`", "--", "''")
"""Outside math, what starts a token of :data:`_FAST_RE` (a lone ``-``, ``'``, ``!`` or ``?`` does not)."""


def _math_only(text: str) -> bool:
    """Whether the only TeX in ``text`` is inline math, ``$…$`` (arXiv abstracts and titles).

    Accelerator of the regex pass of :func:`fast_decode`: true only where that pass would give the
    text back unchanged (``test_the_math_only_shortcut_equals_the_regex_pass`` in
    ``tests/latex/test_accelerators.py``). Such text holds none of :data:`_SPECIALS` outside math,
    and each math part is one ``math`` token of :data:`_FAST_RE` (:func:`_one_math_token`).
    """
    return math_only(text, _SPECIALS, _one_math_token)


def _dollars_only(text: str) -> bool:
    """Whether the only TeX in ``text``, in math or out, is its dollars (``A$$$$x``, ``$$ x $``).

    Accelerator of :func:`bibconv.latex.decoder.general`, which gives such text back as written
    (math verbatim, the rest plain text) where the regex pass gives up on a lone or empty ``$$``:
    ``test_text_of_dollars_only_is_what_the_walker_gives`` in ``tests/latex/test_accelerators.py``.
    """
    return not any(special in text for special in _SPECIALS)


def _one_math_token(math: str, after: str) -> bool:
    """Whether ``$math$`` is one ``math`` token: no backslash takes its closing ``$`` or a newline."""
    if math[-1] == "\\" and (len(math) - len(math.rstrip("\\"))) % 2:
        return False
    return "\\\n" not in math


def fast_decode(text: str) -> str | None:
    """Decode the common forms in one regex pass; ``None`` when the general parser is needed.

    Accelerator of :func:`bibconv.latex.decoder.general`, held to it by
    ``tests/latex/test_accelerators.py`` (see the module docstring)."""
    if "$" in text and (_math_only(text) or _dollars_only(text)):
        return text
    parts: list[str] = []
    append = parts.append
    stack: list[_Entry] = []
    pos = 0
    for m in _FAST_RE.finditer(text):
        start = m.start()
        if start > pos:
            chunk = text[pos:start]
            append(chunk)
            if stack and stack[-1].character is None and not chunk.isspace():
                stack[-1].character = False
        pos = m.end()
        kind = m.lastgroup
        if stack and stack[-1].character is None and kind != "close":
            stack[-1].character = kind in _CHARACTER_KINDS
        if kind == "math" or kind == "script":
            if kind == "script" and m["script"][0] == "\\" and _ARGUMENT_NEXT_RE.match(text, m.end()):
                return None  # ``_\url{x}``: the walker reads the macro's argument with it
            append(m[0])
        elif kind == "open" or kind == "brace":
            stack.append(_Entry(len(parts), False, None))
            append("")
        elif kind == "close" and not stack:  # a stray closing brace is kept as text
            append("}")
        elif kind == "close":
            entry = stack.pop()
            if entry.arg:
                tag = entry.tag or ""
                append("”" if tag in QUOTE_MACROS else close_mark(MARKUP_MACROS[tag] or "none"))
            elif (
                not entry.character
                and not any(not e.arg for e in stack)
                and _has_upper("".join(parts[entry.start + 1 :]))
            ):
                parts[entry.start] = open_mark("nocase")
                append(close_mark("nocase"))
        elif kind == "arg_macro":
            name = m["mk"]
            stack.append(_Entry(len(parts), True, name))
            append("“" if name in QUOTE_MACROS else open_mark(MARKUP_MACROS[name] or "none"))
        elif kind == "bad" or kind == "dollar":
            return None
        else:
            value = _token(m)
            if value is None:
                return None
            append(value)
    if stack:
        return None
    append(text[pos:])
    out = "".join(parts)
    return out.replace(_NONE_OPEN, "").replace(_NONE_CLOSE, "") if SEP in out else out
