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
import re
from functools import lru_cache
from typing import Any

from bibconv.latex.case import protect_case
from bibconv.latex.encoder import encode
from bibconv.latex.fast import CLOSE as _CLOSE
from bibconv.latex.fast import MARK_RE as _MARK_RE
from bibconv.latex.fast import OPEN as _OPEN
from bibconv.latex.fast import PCT as _PCT
from bibconv.latex.fast import SEP as _SEP
from bibconv.latex.fast import accent as _accent
from bibconv.latex.fast import fast_decode
from bibconv.latex.fast import wrap as _wrap
from bibconv.latex.tables import (
    ACCENTS,
    LETTERS,
    LIGATURES,
    MARKUP_MACROS,
    MARKUP_SWITCHES,
    QUOTE_MACROS,
    SYMBOLS,
    TAGS,
    VERBATIM_MACROS,
)

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
_TEX_RE = re.compile(r"[\\{}$~`'!?-](?:(?<=[\\{}$~])|(?<=-)-|(?<=`)`|(?<=')'|(?<=[!?])`)")
# Whitespace that is not already one space: single spaces are left alone (no copy for them).
_SPACE_RE = re.compile(r"[\t\r\n\f\v][ \t\r\n\f\v]*| [ \t\r\n\f\v]+")
_SENTINEL_RE = re.compile("[\ufdd0-\ufdd3]")
_PERCENT_RE = re.compile(r"(?<!\\)((?:\\\\)*)%")
_WS = " \t\r\n\f\v"
_BRACE_RE = re.compile(r"\\.|[{}]", re.S)
_ONE_MARK = f"(?:{_OPEN}|{_CLOSE})\\w+{_SEP}"
_TAG_RUN_RE = re.compile(f"{_ONE_MARK}(?:{_ONE_MARK}| )*")  # and the single space before it
_EMPTY_TAG_RE = re.compile(f"{_OPEN}(\\w+){_SEP}( ?){_CLOSE}\\1{_SEP}")
_TAG_RE = re.compile(r"</?(?:i|b|sup|sub|sc|span)(?:\s[^<>]*)?>")


def has_tex(text: str) -> bool:
    """Whether :func:`decode` could change ``text`` (backslash, brace, ``$``, ``~``, a ligature)."""
    return _TEX_RE.search(text) is not None


def is_known_macro(name: str) -> bool:
    """Whether :func:`decode` interprets ``\\name`` (otherwise it is kept as written)."""
    return name not in VERBATIM_MACROS and _Renderer.known(name)


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
    return _decode_short(text, markup) if len(text) <= _SHORT else _decode(text, markup)


_SHORT = 200
"""Values up to this long (journals, publishers, name parts) repeat across a file: results are cached."""


@lru_cache(maxsize=4096)
def _decode_short(text: str, markup: bool) -> str:
    return _decode(text, markup)


def _decode(text: str, markup: bool) -> str:
    if not has_tex(text):
        text = _spaces(text)
        if not text.isascii() and _has_sentinel(text):
            text = _SENTINEL_RE.sub("", text)
        return escape_markup(text) if markup and ("&" in text or "<" in text or ">" in text) else text
    if not text.isascii() and _has_sentinel(text):
        text = _SENTINEL_RE.sub("", text)
    raw = fast_decode(text)
    if raw is None:
        raw = _general(text)
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


MAX_TEX_DEPTH = 64
"""Deepest nesting of TeX groups :func:`decode` reads (real values nest a few levels)."""


class TexDepthError(ValueError):
    """TeX nested deeper than :data:`MAX_TEX_DEPTH` (readers report it as a bad record)."""


def _general(text: str) -> str:
    """Decode with pylatexenc's parser and bibconv's renderer (nesting bounded by :data:`MAX_TEX_DEPTH`)."""
    from pylatexenc.latexwalker import LatexWalker, LatexWalkerError

    if _depth(text) > MAX_TEX_DEPTH:
        raise TexDepthError(f"TeX groups nested more than {MAX_TEX_DEPTH} deep")
    # BibTeX values have no comments: a bare ``50%`` is text.
    text = _escape_stray_braces(_PERCENT_RE.sub(lambda m: m[1] + _PCT, text))
    walker = LatexWalker(text, latex_context=_walker_db(), tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes()
        return _Renderer().nodes(nodes or [], False).replace(_PCT, "%")
    except (LatexWalkerError, IndexError, ValueError, KeyError, TypeError):
        return text.replace(_PCT, "%")
    except RecursionError:  # macros taking macros as arguments, without braces
        raise TexDepthError("TeX macros nested too deeply to read") from None


def _depth(text: str) -> int:
    """The deepest brace nesting in ``text`` (escaped braces do not count)."""
    if "{" not in text:
        return 0
    depth = deepest = 0
    for m in _BRACE_RE.finditer(text):
        brace = m[0]
        if brace == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif brace == "}" and depth:
            depth -= 1
    return deepest


def _escape_stray_braces(text: str) -> str:
    """Escape closing braces that close nothing, so the parser keeps them as text."""
    if "}" not in text:
        return text
    out: list[str] = []
    depth = 0
    pos = 0
    for m in _BRACE_RE.finditer(text):
        brace = m[0]
        if brace == "{":
            depth += 1
        elif brace == "}":
            if depth == 0:
                out.append(text[pos : m.start()] + "\\}")
                pos = m.end()
                continue
            depth -= 1
    out.append(text[pos:])
    return "".join(out)


def _glyph(code: str | None) -> str | None:
    r"""The character an ``\ElsevierGlyph{2014}`` names, or None for an argument that names none."""
    if code is None or not re.fullmatch(r"[0-9A-Fa-f]{4,5}", code.strip()):
        return None
    char = chr(int(code.strip(), 16))
    return char if char.isprintable() else None


@lru_cache(maxsize=1)
def _walker_db() -> Any:
    from pylatexenc.latexwalker import get_default_latex_context_db
    from pylatexenc.macrospec import std_macro

    db = get_default_latex_context_db()
    macros = [std_macro(name, spec) for name, spec in VERBATIM_MACROS.items()]
    macros += [std_macro(name, "{") for name in ("t", "G", "U", "h", "f")]
    macros += [std_macro(name, "{") for name in (*MARKUP_MACROS, *QUOTE_MACROS)]
    macros += [std_macro("href", "{{"), std_macro("url", "{"), std_macro("ElsevierGlyph", "{")]
    db.add_context_category("bibconv", macros=macros, prepend=True)
    return db


@lru_cache(maxsize=1)
def _l2t() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text, get_default_latex_context_db

    db = get_default_latex_context_db().filter_context(exclude_categories=["latex-placeholders"])
    return LatexNodes2Text(latex_context=db, math_mode="verbatim", strict_latex_spaces=True)


def _is_character_macro(name: str) -> bool:
    """A macro that stands for characters: a group opening with it is a BibTeX special character."""
    if name in ACCENTS or name in LETTERS or name in SYMBOLS:
        return True
    if name in MARKUP_MACROS or name in MARKUP_SWITCHES or name in QUOTE_MACROS or name in ("url", "href"):
        return False
    return is_known_macro(name)


def _is_script(node: Any) -> bool:
    """A group or a control word after ``^``/``_``: kept verbatim, as :mod:`bibconv.latex.fast` does."""
    return _is(node, "LatexGroupNode") or (_is(node, "LatexMacroNode") and node.macroname.isalpha())


def _is(node: Any, kind: str) -> bool:
    return type(node).__name__ == kind


class _Renderer:
    """Render pylatexenc nodes to text with markup sentinels."""

    def nodes(self, nodelist: list[Any], nocase: bool) -> str:
        out: list[str] = []
        i = 0
        while i < len(nodelist):
            node = nodelist[i]
            i += 1
            if node is None:
                continue
            if _is(node, "LatexCharsNode"):
                out.append(node.chars)
                if node.chars.endswith(("^", "_")) and i < len(nodelist) and _is_script(nodelist[i]):
                    out.append(nodelist[i].latex_verbatim())  # ``10^{-3}``, ``M_{BH}``: as in math
                    i += 1
            elif _is(node, "LatexGroupNode"):
                out.append(self.group(node, nocase))
            elif _is(node, "LatexSpecialsNode"):
                chars = node.specials_chars
                out.append("\u00a0" if chars == "~" else LIGATURES.get(chars, chars))
            elif _is(node, "LatexMacroNode"):
                name = node.macroname
                if name in MARKUP_SWITCHES:
                    out.append(_wrap(MARKUP_SWITCHES[name], self.nodes(nodelist[i:], nocase)))
                    break
                out.append(self.macro(node, nocase))
                if not self.known(name):
                    while i < len(nodelist) and _is(nodelist[i], "LatexGroupNode"):
                        out.append(nodelist[i].latex_verbatim())
                        i += 1
            elif _is(node, "LatexEnvironmentNode") and node.environmentname in MARKUP_SWITCHES:
                # ``\begin{it}b\end{it}``: a switch used as an environment, as old TeX files do
                out.append(_wrap(MARKUP_SWITCHES[node.environmentname], self.nodes(node.nodelist, nocase)))
            else:  # math, other environments, comments: verbatim
                out.append(node.latex_verbatim())
        return "".join(out)

    def group(self, node: Any, nocase: bool) -> str:
        children = [n for n in node.nodelist if not (_is(n, "LatexCharsNode") and not n.chars.strip())]
        first = children[0] if children else None
        special = first is not None and _is(first, "LatexMacroNode") and _is_character_macro(first.macroname)
        content = self.nodes(node.nodelist, True)
        if nocase or special:
            return content
        plain = _MARK_RE.sub("", content)
        if any(c.isupper() for c in plain):
            return _wrap("nocase", content)
        return content

    def arg(self, node: Any, index: int, nocase: bool) -> str | None:
        args = node.nodeargd.argnlist if node.nodeargd else None
        if not args or len(args) <= index or args[index] is None:
            return None
        arg = args[index]
        if _is(arg, "LatexCharsNode") and not arg.chars:  # missing argument (tolerant parsing)
            return None
        return self.nodes(arg.nodelist if _is(arg, "LatexGroupNode") else [arg], nocase)

    @staticmethod
    def known(name: str) -> bool:
        if name in SYMBOLS or name in LETTERS or name in ACCENTS or name in MARKUP_MACROS:
            return True
        if name in VERBATIM_MACROS or name in QUOTE_MACROS or name in MARKUP_SWITCHES:
            return True
        if name in ("url", "href", "\\", "ElsevierGlyph"):
            return True
        spec = _l2t().latex_context.get_macro_spec(name)
        return spec is not None and isinstance(spec.simplify_repl, str) and "<" not in spec.simplify_repl

    def macro(self, node: Any, nocase: bool) -> str:
        name = node.macroname
        if name in ACCENTS:
            base = self.arg(node, 0, True)
            return node.latex_verbatim() if base is None else _accent(name, _MARK_RE.sub("", base))
        if name in LETTERS:
            return LETTERS[name]
        if name in SYMBOLS:
            return SYMBOLS[name]
        if name == "\\":
            return " "
        if name in MARKUP_MACROS:
            content = self.arg(node, 0, nocase)
            return str(node.latex_verbatim()) if content is None else _wrap(MARKUP_MACROS[name], content)
        if name == "url":
            args = node.nodeargd.argnlist if node.nodeargd else None
            if not args or args[0] is None:
                return str(node.latex_verbatim())
            raw = str(args[0].latex_verbatim())
            raw = raw[1:-1] if raw.startswith("{") else raw
            return re.sub(r"\\([%&#_~$])", r"\1", raw)
        if name in QUOTE_MACROS:
            content = self.arg(node, 0, nocase)
            return str(node.latex_verbatim()) if content is None else f"“{content}”"
        if name == "ElsevierGlyph":  # Elsevier's exports: the argument is a Unicode code point in hex
            code = self.arg(node, 0, True)
            return _glyph(code) or str(node.latex_verbatim())
        if name == "href":
            content = self.arg(node, 1, nocase)
            return str(node.latex_verbatim()) if content is None else content
        if name in VERBATIM_MACROS or not self.known(name):
            return str(node.latex_verbatim())
        return str(_l2t().macro_node_to_text(node))
