"""Record text for pybtex's style engine, and the output backends that turn it back.

pybtex's templates read every field through ``Text.from_latex`` (latexcodec, then brace groups as
protected text), which mangles what it does not know (``\\textit{x}`` becomes ``\\textit x``, ``,,``
becomes „). So the values handed to the styles are bibconv's decoded rich text in a form that
reading leaves alone: a case-protecting group (``<span class="nocase">``) is a brace group, characters
latexcodec would change are swapped for private-use stand-ins (U+F0000 plus the ASCII code), and
markup (``<i>``, ``<b>``, ``<sup>``, ``<sub>``, small capitals, ``$math$``) becomes private-use marks;
in a title the first letter after a colon is protected, as BibTeX's ``change.case$`` keeps it.
The backends below map the stand-ins back and write the marks as each output's markup, after the
style has sentence-cased titles and joined the pieces. This module imports pybtex; it is imported only
when a bibliography is formatted.
"""

from __future__ import annotations

import html
from typing import Any, ClassVar

from pybtex.backends import html as html_backend
from pybtex.backends import latex as latex_backend
from pybtex.backends import markdown as markdown_backend
from pybtex.backends import plaintext as plaintext_backend

from bibconv.latex.allow import braces_balanced, tex_allowed
from bibconv.latex.encoder import encode
from bibconv.patterns import lazy

__all__ = ["BACKENDS", "LINKED_SCHEMES", "linkable", "rich_to_pybtex", "unshield"]

_SHIFT = 0xF0000
_SPECIAL = "\\{}$~%&#_^'`\""
_SHIELD = {ord(c): chr(_SHIFT + ord(c)) for c in _SPECIAL}
_RUN_RE = lazy(r"-{2,}|,{2,}|[?!](?=`)")
_PRIVATE_RE = lazy("[\U000f0000-\U000f01ff]")
_MATH_RE = lazy(r"\$[^$]+\$")
_TAG_RE = lazy(r"<(/?)(i|b|sup|sub|span)\b([^<>]*)>")
_NON_ASCII_RE = lazy(r"[^\x00-\x7f]+")
_AFTER_COLON_RE = lazy(r"(:\s+)(\w)")

_MARKS = ("i", "b", "sup", "sub", "sc", "math")
_OPEN = {name: chr(_SHIFT + 0x100 + 2 * i) for i, name in enumerate(_MARKS)}
_CLOSE = {name: chr(_SHIFT + 0x101 + 2 * i) for i, name in enumerate(_MARKS)}
_MARK_NAMES = {**{v: (k, True) for k, v in _OPEN.items()}, **{v: (k, False) for k, v in _CLOSE.items()}}
_PIECE_RE = lazy("([\U000f0100-\U000f01ff])|([\U000f0000-\U000f007f]+)")


def _shield(text: str) -> str:
    text = _RUN_RE.sub(lambda m: "".join(chr(_SHIFT + ord(c)) for c in m[0]), text)
    return text.translate(_SHIELD)


def _plain(text: str, title: bool) -> str:
    """A run of rich text without tags: entities undone, ``$…$`` pairs kept as protected math."""
    out: list[str] = []
    pos = 0
    text = html.unescape(text)
    for found in _MATH_RE.finditer(text):
        out.append(_shield(text[pos : found.start()]))
        out.append("{" + _OPEN["math"] + _shield(found[0]) + _CLOSE["math"] + "}")
        pos = found.end()
    out.append(_shield(text[pos:]))
    if not title:
        return "".join(out)
    # BibTeX's change.case$ keeps the case of the first letter after a colon; pybtex's does not.
    return _AFTER_COLON_RE.sub(r"\1{\2}", "".join(out))


def rich_to_pybtex(rich: str, *, title: bool = False) -> str:
    """bibconv rich text → text pybtex's ``Text.from_latex`` reads back unchanged (see the module doc).

    For a ``title`` the first letter after a colon is protected, as BibTeX's case change keeps it.

    >>> from pybtex.richtext import Text
    >>> unshield(Text.from_latex(rich_to_pybtex("A <span class=\\"nocase\\">DNA</span> ,, -- test")).lower()
    ...          .render_as("text"))
    'a DNA ,, -- test'
    """
    rich = _PRIVATE_RE.sub("", rich)
    out: list[str] = []
    spans: list[str] = []
    tags: list[str] = []
    pos = 0
    for found in _TAG_RE.finditer(rich):
        out.append(_plain(rich[pos : found.start()], title))
        pos = found.end()
        closing, tag, attributes = found.groups()
        if tag == "span" and not closing:
            kind = "nocase" if "nocase" in attributes else "sc" if "small-caps" in attributes else ""
            spans.append(kind)
            out.append("{" if kind == "nocase" else _OPEN["sc"] if kind == "sc" else "")
        elif tag == "span":
            kind = spans.pop() if spans else ""
            out.append("}" if kind == "nocase" else _CLOSE["sc"] if kind == "sc" else "")
        elif not closing:
            tags.append(tag)
            out.append(_OPEN[tag])
        elif tag in tags:
            tags.remove(tag)
            out.append(_CLOSE[tag])
    out.append(_plain(rich[pos:], title))
    out.extend(_CLOSE[t] for t in reversed(tags))
    out.extend("}" if s == "nocase" else _CLOSE["sc"] if s == "sc" else "" for s in reversed(spans))
    return "".join(out)


def unshield(text: str) -> str:
    """Put the stand-ins back and drop the marks (for labels, keys and plain text)."""
    return _PIECE_RE.sub(lambda m: "" if m[1] else "".join(chr(ord(c) - _SHIFT) for c in m[2]), text)


class _Restoring:
    """Backend mixin: ``format_str`` restores stand-ins and writes marks as this output's markup."""

    MARKUP: ClassVar[dict[str, tuple[str, str]]] = {}
    in_math = False

    def format_str(self, text: str) -> str:
        if not _PRIVATE_RE.search(text):
            return self._escape(text)
        out: list[str] = []
        math: list[str] = []  # a math span's text, written when it closes (checked whole)
        pos = 0
        for found in _PIECE_RE.finditer(text):
            self._add(text[pos : found.start()], out, math)
            pos = found.end()
            if found[1]:
                name, opening = _MARK_NAMES[found[1]]
                if name == "math":
                    out.append(self._math("".join(math)))
                    math.clear()
                    self.in_math = opening
                markup = self.MARKUP.get(name, ("", ""))
                out.append(markup[0] if opening else markup[1])
            else:
                self._add(unshield(found[2]), out, math)
        self._add(text[pos:], out, math)
        out.append(self._math("".join(math)))
        return "".join(out)

    def _add(self, piece: str, out: list[str], math: list[str]) -> None:
        if self.in_math:
            math.append(piece)
        else:
            out.append(self._escape(piece))

    def _escape(self, text: str) -> str:
        return super().format_str(text) if text else text  # type: ignore[misc]

    def _math(self, text: str) -> str:
        """A math span: as TeX in LaTeX output when balanced and every command is allowed, else text."""
        if self._raw_math and braces_balanced(text) and tex_allowed(text):
            return text
        return self._escape(text)

    _raw_math = False

    def write_entry(self, key: str, label: str, text: str) -> None:
        # a label is cut from raw field text (alpha's ``key``/``organization``): no group braces in it
        label = unshield(label.replace("{", "").replace("}", ""))
        super().write_entry(key, self._escape(label), text)  # type: ignore[misc]


class TextBackend(_Restoring, plaintext_backend.Backend):  # type: ignore[misc]
    """Plain text: markup dropped."""


class MarkdownBackend(_Restoring, markdown_backend.Backend):  # type: ignore[misc]
    """Markdown: ``*italic*``, ``**bold**``, ``<sup>``/``<sub>``; link targets made safe."""

    MARKUP: ClassVar[dict[str, tuple[str, str]]] = {
        "i": ("*", "*"),
        "b": ("**", "**"),
        "sup": ("<sup>", "</sup>"),
        "sub": ("<sub>", "</sub>"),
    }

    def format_href(self, url: str, text: str, external: bool = False) -> str:
        if not text or not linkable(_url(url)):
            return text
        return f"[{text}](<{_url(url).replace('<', '%3C').replace('>', '%3E')}>)"


class HtmlBackend(_Restoring, html_backend.Backend):  # type: ignore[misc]
    """An HTML5 page with a ``<dl>`` of entries; links and labels escaped; no protected-text spans."""

    MARKUP: ClassVar[dict[str, tuple[str, str]]] = {
        "i": ("<i>", "</i>"),
        "b": ("<b>", "</b>"),
        "sup": ("<sup>", "</sup>"),
        "sub": ("<sub>", "</sub>"),
        "sc": ('<span style="font-variant:small-caps">', "</span>"),
    }

    def format_protected(self, text: str) -> str:
        return text

    def format_href(self, url: str, text: str, external: bool = False) -> str:
        if not text or not linkable(_url(url)):
            return text
        target = ' target="_blank"' if external else ""
        return f'<a href="{html.escape(_url(url), quote=True)}"{target}>{text}</a>'

    def write_prologue(self) -> None:
        self.output(
            '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
            "<title>Bibliography</title>\n</head>\n<body>\n<dl>\n"
        )

    def write_epilogue(self) -> None:
        self.output("</dl>\n</body>\n</html>\n")


class LatexBackend(_Restoring, latex_backend.Backend):  # type: ignore[misc]
    """A ``thebibliography`` environment; math written as it was when every command in it is allowed
    (:mod:`bibconv.latex.allow`), else as text."""

    MARKUP: ClassVar[dict[str, tuple[str, str]]] = {
        "i": ("\\textit{", "}"),
        "b": ("\\textbf{", "}"),
        "sup": ("\\textsuperscript{", "}"),
        "sub": ("\\textsubscript{", "}"),
        "sc": ("\\textsc{", "}"),
    }
    _raw_math = True

    def __init__(self, encoding: str | None = None) -> None:
        super().__init__(encoding or "utf-8")

    def _escape(self, text: str) -> str:
        """Text as TeX that prints it: bibconv's encoder for TeX's special characters (``\\``, ``{``,
        ``^``…; latexcodec leaves those as they are), latexcodec for the non-ASCII letters."""
        if not text:
            return text
        tex = encode(text, markup=False)
        return (
            tex
            if tex.isascii()
            else _NON_ASCII_RE.sub(lambda m: super(LatexBackend, self)._escape(m[0]), tex)
        )

    def format_href(self, url: str, text: str, external: bool = False) -> str:
        if not linkable(_url(url)):
            return text
        return super().format_href(_tex_url(_url(url)), text, external)  # type: ignore[no-any-return]

    def write_prologue(self) -> None:
        if self.formatted_bibliography.entries:
            super().write_prologue()
        else:  # pybtex cannot measure the longest label of no entries
            self.output("\\begin{thebibliography}{0}")


_URL_UNSAFE_RE = lazy(r"[\\{}^~\s\x00-\x1f\x7f]")


def _tex_url(url: str) -> str:
    """A URL for ``\\url``/``\\href``: characters TeX would act on percent-encoded."""
    return _URL_UNSAFE_RE.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode("utf-8")), url)


def _url(url: Any) -> str:
    return unshield(str(url))


# What a browser ignores before and inside a URL's scheme (WHATWG URL: C0 controls and space, tab, newline).
_SCHEME_NOISE_RE = lazy(r"[\x00-\x20\x7f]+")
_SCHEME_RE = lazy(r"([a-z][a-z0-9+.-]*):")
LINKED_SCHEMES = frozenset({"http", "https", "doi", "mailto"})


def linkable(url: str) -> bool:
    """Whether ``url`` may be a link: its scheme is http, https, doi or mailto (``javascript:``,
    ``data:``, ``file:`` and URLs without a scheme are written as text)."""
    found = _SCHEME_RE.match(_SCHEME_NOISE_RE.sub("", url[:64]).lower())
    return found is not None and found[1] in LINKED_SCHEMES


BACKENDS: dict[str, type[Any]] = {
    "text": TextBackend,
    "html": HtmlBackend,
    "markdown": MarkdownBackend,
    "latex": LatexBackend,
}
