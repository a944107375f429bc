r"""Unicode → TeX for BibTeX values (:func:`encode`); case protection is in :mod:`bibconv.latex.case`.

Used through :mod:`bibconv.latex`. ``encode`` takes record text (Unicode, CSL rich text with escaped
``&amp; &lt; &gt;``, TeX math between ``$``) and returns a field body that :func:`bibconv.latex.decode`
reads back to the same text. The rules:

* Plain text: ``& % $ # _`` become ``\&`` … ``\_``; ``~ ^ \`` become ``\textasciitilde{}``,
  ``\textasciicircum{}``, ``\textbackslash{}``; U+00A0 becomes ``~``; ASCII sequences TeX would turn into
  ligatures are split (``-{}-``, ```{}```, ``'{}'``). Literal braces that pair up (in order, across
  markup) become ``\{`` … ``\}``; a lone one becomes ``{\textbraceleft}``/``{\textbraceright}``, since
  BibTeX (and biber's btparse) count ``\{`` as a brace: the braced control word is one "special
  character" to BibTeX, so initials, case changes and sorting treat it as one letter (``\textbraceleft{}``
  would give the initial ``t.``). The output's braces are balanced both for TeX and for BibTeX, so a value
  can never close its field early. The noncharacters U+FDD4/U+FDD5 are used internally and removed.
* Passed through as TeX: math spans (``$$…$$``, ``\(…\)``, ``\[…\]``, and ``$…$`` by pandoc's rule: no
  space just inside the dollars, and a digit right after the closing one only when the span holds
  ``\ ^ _ {`` — so ``$10 and $20`` is text but ``$\pm$0.1`` is math; a span never crosses a tag) and
  control words with balanced brace or bracket arguments that ``decode`` leaves visible (``\cite{foo}``,
  ``\unknownmacro{x}``); a macro ``decode`` would interpret (``\textit{x}`` as text) is escaped.
  Superscript and subscript groups (``10^{-3}``, ``M_{BH}``, ``10^\circ``) are TeX too, as decoding keeps
  them; a lone ``^``/``_`` is text (``\textasciicircum{}``, ``\_``), which reads back the same.
  A span whose braces are unbalanced, for TeX or for BibTeX (``$\}$``), is treated as text, and so is
  one holding a command that is not on :func:`bibconv.latex.allow.allowed` (``\input``, ``\write``,
  ``\csname``, ``\unknownmacro``, ``^^``…), with a warning: record text may come from any page and must
  not act in a LaTeX run.
* Rich text: ``<span class="nocase">X</span>`` → ``{X}``, ``<i>`` → ``\textit{}``, ``<b>`` → ``\textbf{}``,
  small caps → ``\textsc{}``, ``<sup>``/``<sub>`` → ``\textsuperscript{}``/``\textsubscript{}``.
* ``ascii=True``: each non-ASCII character in a braced form classic ``bibtex`` and biber both read —
  ``{\'{e}}``, ``{\'{i}}`` (a plain ``i``, never ``\i``: pylatexenc#107), ``{\c{c}}``, ``{\ss}``, ``--``
  for –, symbols via pylatexenc's table (``{\ensuremath{\alpha}}``); never the space form ``\c c``. A
  character with no TeX form stays UTF-8 and is reported through ``warn``.

:func:`general` is the reference: it walks the tokens (tags, math, script groups, kept macros) one at a
time. ``encode`` puts accelerators before it, each of which gives what it gives or steps aside: text
with nothing to change (:func:`_unchanged`), text whose only TeX is math (:func:`_encode_simple`, with
its math-only shortcut :func:`_math_only`); ``tests/latex/test_accelerators.py`` compares them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from bibconv.latex.allow import braces_balanced, disallowed, tex_allowed
from bibconv.latex.charset import math_chars, needs_chars, text_chars
from bibconv.latex.decoder import MAX_TEX_DEPTH, is_known_macro
from bibconv.latex.specials import (
    LB,
    RB,
    SPECIAL_RE,
    SPECIAL_TAIL,
    has_ligature,
    pair_braces,
    special,
    specials_replaced,
)
from bibconv.latex.tables import TAGS
from bibconv.latex.tex import Groups, math_only
from bibconv.memo import memo_with_warnings
from bibconv.patterns import lazy

__all__ = ["encode", "general"]

Warn = Callable[[str], None] | None
_NOTHING: frozenset[str] = frozenset()

_OPEN_TAGS = {
    "<i>": "i",
    "<b>": "b",
    "<sup>": "sup",
    "<sub>": "sub",
    "<sc>": "sc",
}
# The pattern opens with a character class (each alternative then looks behind at that first
# character), so the regex engine scans ordinary text for those characters in one C loop.
# A math span after its first character: ``$$…$$``, ``\(…\)``, ``\[…\]``, or ``$…$`` by pandoc's rule.
# Each is found in linear time: ``\(…\)`` holds no ``\(`` (nor ``\[…\]`` a ``\[``) and ``$…$`` does
# not open at an escaped ``\$``, so a scan that finds no end is not made again from inside it.
_MATH_TAIL = (
    r"(?P<math>(?<=\$)\$[^<]+?\$\$|(?<=\\)\((?:[^<\\]|\\[^<(])+?\\\)|(?<=\\)\[(?:[^<\\]|\\[^<\[])+?\\\]"
    r"|(?<=(?<!\\)\$)(?=[^\s$])[^$\\<]*(?:\\[^<][^$\\<]*)*(?<=[^\s\\])\$)"
)
_TOKEN_RE = lazy(
    r"[<$\\^_](?:"
    r"(?P<tag>(?<=<)(?:/?(?:i|b|sup|sub|sc)|/span|span\s+class=\"nocase\"|"
    r"span\s+style=\"font-variant:\s*small-caps;?\")>)"
    r"|"
    + _MATH_TAIL
    + r"|(?P<script>(?<=[\^_])(?:\{(?:[^{}<\\]|\\[^<]|\{(?:[^{}<\\]|\\[^<]|\{(?:[^{}<\\]|\\[^<])*\})*\})*\}"
    r"|\\[A-Za-z]+))"
    r"|(?P<macro>(?<=\\)[A-Za-z]+)(?=\s*[\[{]))",
    re.S,
)
_DIGIT_AFTER_RE = lazy(r"\d")
_TEXISH_RE = lazy(r"[\\^_{]")
# Math (as in _TOKEN_RE), what needs the general reading (a superscript group, a macro with an
# argument), or a special character (as in SPECIAL_RE): all of encode's work on text without tags.
# Text without ligatures (most text) uses the second pattern, which need not stop at hyphens and quotes.
_SIMPLE_TAIL = (
    _MATH_TAIL
    + r"|(?P<other>(?<=[\^_])(?:\{|\\[A-Za-z])|(?<=\\)[A-Za-z]+(?=\s*[\[{]))"
    + r"|(?P<special>"
    + SPECIAL_TAIL
    + "))"
)
_SIMPLE_RE = lazy(r"[-`'!?&%$#_{}~^\\\u00a0](?:" + _SIMPLE_TAIL, re.S)
_SIMPLE_NO_LIGATURE_RE = lazy(r"[&%$#_{}~^\\\u00a0](?:" + _SIMPLE_TAIL, re.S)
# Where _SIMPLE_NO_LIGATURE_RE may match more than one special character: math, a superscript
# group, a control word (perhaps with an argument); without them specials_replaced does its work.
_MATH_OR_OTHER_RE = lazy(r"\$|\\[(\[A-Za-z]|[\^_][{\\]")
# Anything ``encode`` would change: without it (and in ASCII mode, without non-ASCII) text is its own body.
_ENCODE_WORK_RE = lazy(
    r"[-`'!?&%$#_{}~^\\\u00a0<\ufdd4\ufdd5]"
    r"(?:(?<=-)-|(?<=`)`|(?<=')'|(?<=[!?])`|(?<=[&%$#_{}~^\\\u00a0<\ufdd4\ufdd5]))"
)


def encode(
    text: str,
    *,
    ascii: bool = False,
    warn: Warn = None,
    markup: bool = True,
    allowed: frozenset[str] = _NOTHING,
) -> str:
    r"""Record text → BibTeX value body (see the module docstring).

    With ``markup=False`` the text is plain Unicode (name parts, ``decode(markup=False)`` output): ``<``,
    ``>`` and ``&`` are characters, not tags or entities; math and kept macros still pass through.
    ``allowed`` names commands a kept ``@preamble`` defines (:func:`bibconv.latex.allow.preamble_commands`).

    >>> encode('<span class="nocase">DNA</span> &amp; R_2 in $\\alpha$')
    '{DNA} \\& R\\_2 in $\\alpha$'
    """
    if not needs_chars(text, ascii):
        if _unchanged(text):
            return text
        simple = _encode_simple(text, markup)
        if simple is not None:
            return simple
    return general(text, ascii, warn, markup, allowed)


def general(text: str, ascii: bool, warn: Warn, markup: bool, allowed: frozenset[str]) -> str:
    """The reference :func:`encode`: the tokens of :data:`_TOKEN_RE` one at a time, the text between
    them escaped; a token that may not pass (unbalanced, not allowed, math read as text) is text too."""
    if LB in text or RB in text:
        text = text.replace(LB, "").replace(RB, "")
    walk = _Walk(ascii, warn, markup, allowed)
    out: list[str] = []
    pos = 0
    groups: Groups | None = None  # found when the first macro is
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind == "macro":
            if m.start() < pos or is_known_macro(m["macro"]):
                continue  # inside a token, or a macro decoding reads: before its arguments are walked
            groups = groups or Groups(text)
            end, depth = groups.arguments_end(text, m.end())
            if end is None or depth > MAX_TEX_DEPTH or (markup and "<" in text[m.start() : end]):
                continue  # not balanced, deeper than readers take TeX (written as text), holding markup
        elif m.start() < pos or (kind == "tag" and not markup):
            continue
        else:
            end = m.end()
        emitted = walk.emitted(kind, text[m.start() : end], text, end)
        if emitted is not None:
            out.append(_text(walk.unescape(text[pos : m.start()]), ascii, warn))
            out.append(emitted)
            pos = end
    out.append(_text(walk.unescape(text[pos:]), ascii, warn))
    out.extend("}" * len(walk.stack))
    body = "".join(out)
    return pair_braces(body) if LB in body or RB in body else body


class _Walk:
    """What one :func:`general` run writes a token as: its options, and the tags it has opened."""

    __slots__ = ("allowed", "ascii", "stack", "unescape", "warn")

    def __init__(self, ascii: bool, warn: Warn, markup: bool, allowed: frozenset[str]) -> None:
        self.ascii = ascii
        self.warn = warn
        self.allowed = allowed
        self.unescape: Callable[[str], str] = html.unescape if markup else _same
        self.stack: list[str] = []

    def emitted(self, kind: str | None, token: str, text: str, end: int) -> str | None:
        """The TeX for ``token`` (a match of ``kind`` ending at ``end`` of ``text``); ``None``: it is text."""
        if kind == "tag":
            return _tag(token, self.stack)
        if kind == "math" and _dollars_as_text(token, text, end):
            return None
        token = self.unescape(token)
        if not _safe_tex(token, self.allowed, warn=self.warn):
            return None
        if kind == "math":
            return _text(token, self.ascii, self.warn, math=True)
        if kind == "script":  # a superscript/subscript group (``10^{-3}``) that decoding keeps too
            return "\\ensuremath{" + _text(token, self.ascii, self.warn, math=True) + "}"  # math mode only
        # a kept macro: its arguments are text
        return text_chars(token, self.ascii, self.warn) if needs_chars(token, self.ascii) else token


def _unchanged(text: str) -> bool:
    """Whether :func:`encode` gives ``text`` back as it is (text that needs no character forms).

    Accelerator of :func:`general`: true only where it would change nothing
    (``test_the_encoder_shortcuts_equal_the_token_walk`` in ``tests/latex/test_accelerators.py``).
    Such text holds no special character, ligature, tag or entity, and no literal-brace mark.
    """
    return not _ENCODE_WORK_RE.search(text)


def _dollars_as_text(token: str, text: str, end: int) -> bool:
    """``$20 and $30``: a math span whose closing dollar comes before a digit must look like TeX."""
    return _DIGIT_AFTER_RE.match(text, end) is not None and not _TEXISH_RE.search(token)


@memo_with_warnings(maxsize=4096)
def _safe_tex(token: str, allowed: frozenset[str], *, warn: Warn) -> bool:
    """TeX that is passed through: balanced both ways, every command allowed (else a warning).

    Memoised with its warning: math spans repeat (``$\\alpha$``)."""
    if not braces_balanced(token):
        return False
    if tex_allowed(token, allowed):
        return True
    if warn is not None:
        commands = ", ".join(disallowed(token, allowed))
        warn(f"TeX {commands} is not allowed in output; {_clip(token)!r} written as text")
    return False


def _clip(token: str) -> str:
    return token if len(token) <= 60 else token[:57] + "..."


class _NeedsGeneralReadingError(Exception):
    """Raised inside :func:`_encode_simple` when the text needs the general reading."""


def _simple_token(m: re.Match[str]) -> str:
    kind = m.lastgroup
    if kind == "special":
        return special(m)
    if kind == "math":
        token = m[0]
        passes = _plain_math(token) and _safe_tex(token, _NOTHING)
        if passes and not _dollars_as_text(token, m.string, m.end()):
            return token
    raise _NeedsGeneralReadingError


def _encode_simple(text: str, markup: bool) -> str | None:
    """:func:`encode` of text whose only TeX is math, in one substitution; ``None`` for other text
    (tags, entities, kept macros, superscript groups, math that is read as text).

    Accelerator of :func:`general` for text that needs no character forms: where it returns text, it
    is what ``general`` gives (``test_the_encoder_shortcuts_equal_the_token_walk`` in
    ``tests/latex/test_accelerators.py``). A span that does not pass goes to ``general``, which warns.
    """
    if (markup and ("<" in text or "&" in text)) or LB in text or RB in text:
        return None
    if "$" in text and _math_only(text):
        return text
    ligatures = has_ligature(text)
    if not ligatures and not _MATH_OR_OTHER_RE.search(text):  # each match is one special character
        body = specials_replaced(text)
    else:
        try:
            pattern = _SIMPLE_RE if ligatures else _SIMPLE_NO_LIGATURE_RE
            body = pattern.sub(_simple_token, text)
        except _NeedsGeneralReadingError:
            return None
    return pair_braces(body) if LB in body or RB in body else body


_CHANGED_OUTSIDE_MATH = ("\\", "{", "}", "&", "%", "#", "_", "~", "^", "\u00a0", "--", "''", "``", "!`", "?`")
"""Outside math, what the substitution of :func:`_encode_simple` changes (specials and ligatures)."""


def _math_only(text: str) -> bool:
    """Whether the only specials in ``text`` are ``$…$`` math spans that pass through as they are.

    Accelerator of the substitution of :func:`_encode_simple`: true only where it would give the
    text back unchanged (``test_the_encoder_math_only_shortcut_equals_the_substitution`` in
    ``tests/latex/test_accelerators.py``). Such text holds none of :data:`_CHANGED_OUTSIDE_MATH`, and
    each part between two dollars is one inline math token that passes (:func:`_math_as_is`).
    """
    return math_only(text, _CHANGED_OUTSIDE_MATH, _math_as_is)


def _math_as_is(math: str, after: str) -> bool:
    """Whether ``$math$`` is one math token of :data:`_TOKEN_RE` written as it is: no space just inside,
    no ``<``, no backslash taking the closing dollar, allowed, and not ``$20 and $`` before a digit."""
    return not (
        math[0].isspace()
        or math[-1].isspace()
        or math[-1] == "\\"
        or "<" in math
        or not _safe_tex("$" + math + "$", _NOTHING)
        or not _plain_math(math)
        or (_DIGIT_AFTER_RE.match(after) and not _TEXISH_RE.search(math))
    )


def _plain_math(math: str) -> bool:
    """Whether math is written as it is: ASCII without ``&``, ``%`` or ``#`` (see :func:`math_chars`)."""
    return math.isascii() and "&" not in math and "%" not in math and "#" not in math


def _same(text: str) -> str:
    return text


def _tag(token: str, stack: list[str]) -> str | None:
    if token.startswith("</"):
        name = token[2:-1]
        if (
            not stack
            or (name != "span" and stack[-1] != name)
            or (name == "span" and stack[-1] not in ("nocase", "sc"))
        ):
            return None
        stack.pop()
        return "}"
    if "nocase" in token:
        name = "nocase"
    elif "small-caps" in token:
        name = "sc"
    else:
        name = _OPEN_TAGS[token]
    stack.append(name)
    macro = TAGS[name][2]
    return macro + "{"


def _text(text: str, ascii: bool, warn: Callable[[str], None] | None, *, math: bool = False) -> str:
    """Encode a text run; ``math`` runs (math, kept macros) are TeX already: only their characters
    change (:func:`bibconv.latex.charset.math_chars`)."""
    if not text:
        return text
    if math:
        return math_chars(text, ascii, warn)
    text = SPECIAL_RE.sub(special, text) if has_ligature(text) else specials_replaced(text)
    return text_chars(text, ascii, warn) if needs_chars(text, ascii) else text
