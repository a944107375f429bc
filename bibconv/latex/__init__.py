r"""TeX ↔ Unicode for field values: :func:`decode`, :func:`encode`, :func:`protect_case`.

**Decoding** turns a BibTeX value into record text: accents (``\'e``, ``\'{\i}``, ``{\c c}``,
``\H{o}``…), special letters (``\ss``, ``\o``, ``\L``…), escapes (``\&``, ``\%``…), ligatures
(``--`` → –, ``---`` → —, ````` `` ````` → “, ``''`` → ”), ``~`` → U+00A0 and symbols (``\S``, ``\LaTeX``).
Math (``$…$``, ``$$…$$``, ``\(…\)``, ``\[…\]``) is kept verbatim, and so are superscripts and subscripts
outside math — informal TeX of arXiv abstracts: ``1^{+1.39}_{-0.59}``, ``M_{BH}``, ``10^\circ`` (a group
or a control word after ``^``/``_``; its braces are not a case-protecting group); macros bibconv does not know
(``\cite{foo}``, ``\unknownmacro{x}``) stay as written, arguments included. Runs of spaces and
newlines become one space; a bare ``%`` is text (BibTeX values hold no comments); a stray ``}`` is kept.
The common forms take a table-driven fast path; anything else is parsed
with pylatexenc's ``LatexWalker`` and rendered by bibconv (pylatexenc's ``latex2text`` table serves
the remaining symbol macros); text without TeX characters (:func:`has_tex`) is never parsed.

**Rich text** (``markup=True``, the record convention; see :mod:`bibconv.model`): a brace group that
protects case, i.e. one whose text holds an uppercase letter and that is not a BibTeX "special
character" (a group opening with a macro that stands for characters: ``{\'E}``, ``{\relax Ch}``,
``{\LaTeX}``), becomes
``<span class="nocase">…</span>``; only the outermost such group is marked and a macro's argument braces
are not protective groups. ``\textit``/``\emph``/``{\it …}`` → ``<i>``, ``\textbf``/``{\bf …}`` → ``<b>``,
``\textsc`` → ``<span style="font-variant:small-caps;">``, ``\textsuperscript`` → ``<sup>``,
``\textsubscript`` → ``<sub>``. **Every literal** ``&``, ``<`` and ``>`` in rich text is written
``&amp;``, ``&lt;``, ``&gt;`` (inside math and kept macros too), so markup and text never mix up;
readers of plain-text formats store their values through :func:`escape_markup`, and
:func:`strip_markup` gives plain Unicode back. With ``markup=False`` the decoder returns plain Unicode.
The noncharacters U+FDD0–U+FDD3 are used internally and removed from input.
"""

from __future__ import annotations

import html
from functools import lru_cache

from bibconv.latex.case import protect_case
from bibconv.latex.decoder import MAX_TEX_DEPTH, TexDepthError, general, is_known_macro
from bibconv.latex.encoder import encode
from bibconv.latex.fast import CLOSE as _CLOSE
from bibconv.latex.fast import MARK_RE as _MARK_RE
from bibconv.latex.fast import OPEN as _OPEN
from bibconv.latex.fast import PCT as _PCT
from bibconv.latex.fast import SEP as _SEP
from bibconv.latex.fast import fast_decode
from bibconv.latex.tables import TAGS
from bibconv.memo import SHORT
from bibconv.patterns import lazy

__all__ = [
    "MAX_TEX_DEPTH",
    "TexDepthError",
    "decode",
    "encode",
    "escape_markup",
    "has_tex",
    "is_known_macro",
    "protect_case",
    "strip_markup",
]

# A consuming character class first lets the engine skip plain text with its charset scan; the
# lookbehinds then check the character found (``--``, ``!```…). Equivalent to
# ``[\\{}$~]|--|``|''|!`|\?``, several times faster on text without TeX.
_TEX_RE = lazy(r"[\\{}$~`'!?-](?:(?<=[\\{}$~])|(?<=-)-|(?<=`)`|(?<=')'|(?<=[!?])`)")
# Whitespace that is not already one space: single spaces are left alone (no copy for them).
_SPACE_RE = lazy(r"[\t\r\n\f\v][ \t\r\n\f\v]*| [ \t\r\n\f\v]+")
_SENTINEL_RE = lazy("[\ufdd0-\ufdd3]")
_WS = " \t\r\n\f\v"
_ONE_MARK = f"(?:{_OPEN}|{_CLOSE})\\w+{_SEP}"
_TAG_RUN_RE = lazy(f"{_ONE_MARK}(?:{_ONE_MARK}| )*")  # and the single space before it
_EMPTY_TAG_RE = lazy(f"{_OPEN}(\\w+){_SEP}( ?){_CLOSE}\\1{_SEP}")
_TAG_RE = lazy(r"</?(?:i|b|sup|sub|sc|span)(?:\s[^<>]*)?>")


def has_tex(text: str) -> bool:
    """Whether :func:`decode` could change ``text`` (backslash, brace, ``$``, ``~``, a ligature).

    The first accelerator of :func:`decode`: text without these decodes to itself, its spaces made
    single (``tests/latex/test_accelerators.py::test_text_without_tex_is_its_own_decoding``).
    """
    return _TEX_RE.search(text) is not None


def escape_markup(text: str) -> str:
    """Plain text → rich text: escape ``&``, ``<`` and ``>``."""
    if "&" in text or "<" in text or ">" in text:  # substring tests are cheaper than three replaces
        return html.escape(text, quote=False)
    return text


def strip_markup(text: str) -> str:
    """Rich text → plain Unicode: drop CSL tags, unescape entities."""
    if "<" in text:
        text = _TAG_RE.sub("", text)
    return html.unescape(text) if "&" in text else text


def decode(text: str, *, markup: bool = True) -> str:
    r"""TeX → Unicode (rich text with ``markup=True``, plain otherwise); see the module docstring.

    >>> decode(r"Rodr\'{\i}guez and {DNA} in $\alpha$--decay")
    'Rodríguez and <span class="nocase">DNA</span> in $\\alpha$–decay'
    """
    return _decode_short(text, markup) if len(text) <= SHORT else _decode(text, markup)


@lru_cache(maxsize=4096)
def _decode_short(text: str, markup: bool) -> str:
    """:func:`_decode`, memoised: short values repeat across a file (it gives no warnings)."""
    return _decode(text, markup)


def _decode(text: str, markup: bool) -> str:
    """The reference :func:`bibconv.latex.decoder.general` behind its accelerators: :func:`has_tex`
    (no TeX: nothing to parse) and :func:`bibconv.latex.fast.fast_decode` (the common forms)."""
    if not has_tex(text):
        if not text.isascii() and _has_sentinel(text):
            text = _SENTINEL_RE.sub("", text)
        text = _spaces(text)
        return escape_markup(text) if markup and ("&" in text or "<" in text or ">" in text) else text
    if not text.isascii() and _has_sentinel(text):
        text = _SENTINEL_RE.sub("", text)
    raw = fast_decode(text)
    if raw is None:
        raw = general(text)
    return _finish(_spaces(raw), markup)


def _has_sentinel(text: str) -> bool:
    """Whether ``text`` holds one of the internal noncharacters (substring tests: no regex scan)."""
    return _OPEN in text or _SEP in text or _CLOSE in text or _PCT in text


def _spaces(text: str) -> str:
    """Runs of whitespace → one space, none at the ends (substring tests first: most text needs none)."""
    if "  " in text or "\n" in text or "\t" in text or "\r" in text or "\f" in text or "\v" in text:
        text = _SPACE_RE.sub(" ", text)
    return text.strip(_WS)


def _finish(raw: str, markup: bool) -> str:
    """Sentinels → tags (or nothing); each run of tags tidied by :func:`_render_run` in the same pass."""
    if _OPEN not in raw:
        return escape_markup(raw) if markup else raw
    if _EMPTY_TAG_RE.search(raw):  # ``\textit{}``, ``\textit{ }``: no tag, and spaces made single again
        while _EMPTY_TAG_RE.search(raw):
            raw = _EMPTY_TAG_RE.sub(r"\2", raw)
        raw = _spaces(raw)
    if markup:
        raw = escape_markup(raw)  # sentinels and spaces are left as they are
    out: list[str] = []
    pos = 0
    end = len(raw)
    for m in _TAG_RUN_RE.finditer(raw):
        start = m.start()
        if (" " in m[0] or m.end() == end) and start > pos and raw[start - 1] == " ":
            start -= 1  # the space before a run that needs tidying is part of it
        out.append(raw[pos:start])
        out.append(_render_run(raw[start : m.end()], start == 0 or m.end() == end, markup))
        pos = m.end()
    out.append(raw[pos:])
    return "".join(out)


@lru_cache(maxsize=1024)
def _render_run(run: str, at_end: bool, markup: bool) -> str:
    """Spaces around and between tags: one space at the first one's place, none at the ends."""
    tags = [(TAGS[o][0] if o else TAGS[c][1]) if markup else "" for o, c in _MARK_RE.findall(run)]
    if " " not in run or at_end:
        return "".join(tags)
    before = len(_MARK_RE.findall(run[: run.index(" ")]))
    return "".join(tags[:before]) + " " + "".join(tags[before:])
