r"""The reference decoder: pylatexenc's ``LatexWalker`` parses the TeX, bibconv's renderer writes
the text, with markup sentinels (:mod:`bibconv.latex.fast`) that :func:`bibconv.latex.decode` turns
into tags. It reads everything the decoder reads; :func:`bibconv.latex.fast.fast_decode` is its
accelerator for the common forms, held to it by ``tests/latex/test_accelerators.py``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from bibconv.latex.fast import MARK_RE as _MARK_RE
from bibconv.latex.fast import PCT as _PCT
from bibconv.latex.fast import accent as _accent
from bibconv.latex.fast import wrap as _wrap
from bibconv.latex.packages import TEXT_MACROS
from bibconv.latex.tables import (
    ACCENTS,
    LETTERS,
    LIGATURES,
    MARKUP_MACROS,
    MARKUP_SWITCHES,
    QUOTE_MACROS,
    SYMBOLS,
    VERBATIM_MACROS,
)
from bibconv.latex.tex import nesting
from bibconv.patterns import lazy

__all__ = ["MAX_TEX_DEPTH", "TexDepthError", "general", "is_known_macro"]

_PERCENT_RE = lazy(r"(?<!\\)((?:\\\\)*)%")


@lru_cache(maxsize=4096)
def is_known_macro(name: str) -> bool:
    """Whether :func:`decode` interprets ``\\name`` (otherwise it is kept as written). Memoised:
    the encoder and case protection ask it of every control word, and the names repeat."""
    return name not in VERBATIM_MACROS and _Renderer.known(name)


MAX_TEX_DEPTH = 64
"""Deepest nesting of TeX groups :func:`decode` reads (real values nest a few levels)."""


class TexDepthError(ValueError):
    """TeX nested deeper than :data:`MAX_TEX_DEPTH` (readers report it as a bad record)."""


def general(text: str) -> str:
    """Decode with pylatexenc's parser and bibconv's renderer (nesting bounded by :data:`MAX_TEX_DEPTH`)."""
    from pylatexenc.latexwalker import LatexWalker, LatexWalkerError

    if (len(text) - len(text.rstrip("\\"))) % 2:  # a backslash that ends the value escapes nothing
        return general(text[:-1]) + "\\"
    deepest, strays = nesting(text)
    if deepest > MAX_TEX_DEPTH:
        raise TexDepthError(f"TeX groups nested more than {MAX_TEX_DEPTH} deep")
    # BibTeX values have no comments: a bare ``50%`` is text (one character for one: the braces stay put).
    text = _escape_stray_braces(_PERCENT_RE.sub(lambda m: m[1] + _PCT, text), strays)
    walker = LatexWalker(text, latex_context=_walker_db(), tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes()
        return _Renderer().nodes(nodes or [], False).replace(_PCT, "%")
    except (LatexWalkerError, IndexError, ValueError, KeyError, TypeError):
        return text.replace(_PCT, "%")
    except RecursionError:  # macros taking macros as arguments, without braces
        raise TexDepthError("TeX macros nested too deeply to read") from None


def _escape_stray_braces(text: str, strays: list[int]) -> str:
    """Escape the closing braces at ``strays``, which close nothing, so the parser keeps them as text."""
    if not strays:
        return text
    pieces = [text[a:b] for a, b in zip([0, *strays], [*strays, len(text)], strict=True)]
    return "\\".join(pieces)


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
        if name in ("url", "href", "\\", "ElsevierGlyph") or name in TEXT_MACROS:
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
        if name in TEXT_MACROS:
            return TEXT_MACROS[name]
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
