r"""The brace walk every TeX helper shares: how deep a text leaves its braces, for TeX and for BibTeX.

TeX reads ``\{`` and ``\}`` as characters, so a backslash takes the character after it out of the
count (``\\}``: an escaped backslash, then a brace that counts); BibTeX counts every brace, escaped
or not, when it reads a value. A value is safe in a ``.bib`` file only when both agree that it is
balanced. bibtexparser's splitter has a third rule, a brace right after a backslash does not count
(``\\}`` does not close), which the reader follows where it reads as the splitter does. Each rule has
its group end: :func:`group_end` (TeX), :func:`bibtex_group_end`, :func:`splitter_group_end`;
:func:`arguments_end` finds where a control word's ``{…}`` and ``[…]`` arguments end.

Inline math cut at its dollars (:func:`split_at_dollars`) serves the decoder's and the encoder's
shortcut for text whose only TeX is ``$…$`` (:func:`math_only`).

>>> walk(r"a {b \} c} $x$")
(0, 0, 2)
>>> balanced(r"50\%"), balanced(r"\{"), balanced(r"\{", bibtex=True), balanced_for_both(r"\{ \}")
(True, True, False, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate

from bibconv.patterns import lazy

__all__ = [
    "Groups",
    "arguments_end",
    "balanced",
    "balanced_for_both",
    "bibtex_group_end",
    "group_end",
    "math_only",
    "nesting",
    "split_at_dollars",
    "splitter_group_end",
    "walk",
]

_TEX_BRACE_RE = lazy(r"(?:\\.)++|[{}$]", re.S)  # a run of escapes is one match: it changes nothing
_ESCAPE_RE = lazy(r"\\.", re.S)
_CLOSING_RUN_RE = lazy(r"\}+")
_TEX_GROUP_RE = lazy(r"\\.|[{}]", re.S)
# What nesting counts, without a step per character: the escapes that hide a brace or a backslash
# taken out (any other escape hides neither), then every byte but the braces (UTF-8 keeps ASCII as is).
_BRACE_ESCAPE_RE = lazy(r"\\[\\{}]")
_ALL_BUT_BRACES = bytes(b for b in range(256) if b not in b"{}")
_BRACE_STEP = {ord("{"): 1, ord("}"): -1}
_SPLITTER_BRACE_RE = lazy(r"(?<!\\)[{}]")
_TEX_OPTION_RE = lazy(r"\\.|[{}\]]", re.S)


def walk(text: str, depth: int = 0) -> tuple[int, int, int]:
    """Walk ``text`` from brace depth ``depth`` by TeX's rules: the depth it ends at, the lowest depth
    it reaches, and how many unescaped ``$`` it holds at depth 0."""
    if "$" not in text:  # the depths as a running sum of the braces, as nesting counts them
        unescaped = _BRACE_ESCAPE_RE.sub("", text) if "\\" in text else text
        braces = unescaped.encode("utf-8", "surrogatepass").translate(None, _ALL_BUT_BRACES)
        lowest = min(accumulate(map(_BRACE_STEP.__getitem__, braces), initial=depth))
        return depth + braces.count(b"{") - braces.count(b"}"), lowest, 0
    if "{" not in text and "}" not in text:  # the depth stays: the dollars outside escapes count
        return depth, depth, _ESCAPE_RE.sub("", text).count("$") if depth == 0 else 0
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


def nesting(text: str) -> tuple[int, list[int]]:
    r"""How deep the groups of ``text`` nest at the most, by TeX's rules, and where the ``}`` that
    close nothing are (each is passed over: the depth never goes below 0).

    >>> nesting(r"a}{b{c\}}}}")
    (2, [1, 10])
    """
    unescaped = _BRACE_ESCAPE_RE.sub("", text) if "\\" in text else text
    braces = unescaped.encode("utf-8", "surrogatepass").translate(None, _ALL_BUT_BRACES)
    depths = list(accumulate(map(_BRACE_STEP.__getitem__, braces)))
    if not depths or min(depths) >= 0:  # no ``}`` closes nothing: the running count is the depth
        return max(depths, default=0), []
    depth = deepest = 0
    strays: list[int] = []
    for m in _TEX_GROUP_RE.finditer(text):
        found = m[0]
        if found == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif found == "}":
            if depth:
                depth -= 1
            else:
                strays.append(m.start())
    return deepest, strays


def group_end(text: str, start: int, closer: str = "}") -> int | None:
    r"""The index after the brace group whose ``{`` is at ``start - 1``, by TeX's rules (``None``:
    the group does not close); with ``closer="]"``, after the ``]`` (outside braces) of an option.

    >>> group_end(r"{a {b} \} c} d", 1), group_end(r"[a {]} \]] d", 1, "]")
    (12, 10)
    """
    depth = 0
    for m in (_TEX_GROUP_RE if closer == "}" else _TEX_OPTION_RE).finditer(text, start):
        found = m[0]
        if found == closer and depth == 0:
            return m.end()
        if found == "{":
            depth += 1
        elif found == "}":
            depth -= 1
            if depth < 0:
                return None
    return None


def arguments_end(text: str, start: int) -> int | None:
    r"""The index after the ``{…}`` and ``[…]`` arguments that follow ``start`` (blanks between them
    are skipped), by TeX's rules; ``None`` when there is none or one does not close.

    >>> arguments_end(r"\cite[p.~3]{k} and", 5), arguments_end(r"\x{a} [}]", 2)
    (14, None)
    """
    end = None
    pos = start
    length = len(text)
    while True:
        while pos < length and text[pos] in " \t\n":
            pos += 1
        if pos >= length or text[pos] not in "[{":
            return end
        end = group_end(text, pos + 1, "}" if text[pos] == "{" else "]")
        if end is None:
            return None
        pos = end


def bibtex_group_end(text: str, start: int) -> int | None:
    r""":func:`group_end` by BibTeX's rule: every brace counts, ``\{`` too.

    >>> bibtex_group_end(r"{a {b} \} c} d", 1)
    9
    """
    depth = 1
    pos = start
    while True:  # from one run of ``}`` to the next only ``{`` come between: counting them gives the depth
        close = text.find("}", pos)
        if close < 0:
            return None
        depth += text.count("{", pos, close)
        run = _CLOSING_RUN_RE.match(text, close).end() - close  # type: ignore[union-attr]
        if depth <= run:
            return close + depth
        depth -= run
        pos = close + run


def splitter_group_end(text: str, start: int) -> int | None:
    r""":func:`group_end` by bibtexparser's splitter: a brace right after a backslash does not count.

    >>> splitter_group_end(r"{a\\} b} c", 1), group_end(r"{a\\} b} c", 1)
    (8, 5)
    """
    depth = 1
    for m in _SPLITTER_BRACE_RE.finditer(text, start):
        if m[0] == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def balanced(text: str, *, bibtex: bool = False) -> bool:
    """Whether every brace of ``text`` closes one opened before it: by TeX's rules (``\\{`` is a
    character), or with ``bibtex=True`` by BibTeX's (every brace counts)."""
    if "{" not in text and "}" not in text:
        return True
    if bibtex:  # the depths as a running sum of the braces
        braces = text.encode("utf-8", "surrogatepass").translate(None, _ALL_BUT_BRACES)
        return (
            braces.count(b"{") == braces.count(b"}")
            and min(accumulate(map(_BRACE_STEP.__getitem__, braces))) >= 0
        )
    end, lowest, _ = walk(text)
    return end == 0 and lowest == 0


def balanced_for_both(text: str) -> bool:
    """Balanced both for TeX and for BibTeX: what a value needs to be written between braces."""
    return balanced(text) and balanced(text, bibtex=True)


def split_at_dollars(text: str) -> tuple[str, list[str]] | None:
    """``text`` cut at its dollars: the text outside ``$…$`` pairs (joined) and all the parts, whose
    odd ones are the spans' insides; ``None`` when a dollar is left unpaired."""
    parts = text.split("$")
    if len(parts) % 2 == 0:
        return None
    return "".join(parts[::2]), parts


def math_only(text: str, specials: tuple[str, ...], span_ok: Callable[[str, str], bool]) -> bool:
    """Whether the only TeX in ``text`` is inline math: its dollars pair up, no string of ``specials``
    stands outside the spans, and each span is not empty (``$$``) and passes ``span_ok(inside, after)``
    (``after``: the text up to the next dollar). A split and substring tests cost less than a regex scan.

    >>> math_only("a $x$ b", ("{",), lambda span, after: True), math_only("a {$x$", ("{",), lambda s, a: True)
    (True, False)
    """
    split = split_at_dollars(text)
    if split is None:
        return False
    outside, parts = split
    for special in specials:
        if special in outside:
            return False
    for i in range(1, len(parts), 2):
        span = parts[i]
        if not span or not span_ok(span, parts[i + 1]):
            return False
    return True


class Groups:
    """Where each ``{`` and ``[`` of a text closes and how deep its group nests, found in one walk
    by TeX's rules (``\\x`` skipped): a ``{`` at its matching ``}``, a ``[`` at the first ``]`` at its
    own depth; -1 when it does not close (or, for a ``[``, its enclosing group closes first). So the
    arguments of every macro of a text are found in time linear in the text, nested or not."""

    __slots__ = ("close", "depth")

    def __init__(self, text: str) -> None:
        self.close: dict[int, int] = {}
        self.depth: dict[int, int] = {}  # a '{' group's deepest nesting, itself 1
        braces: list[int] = []
        brackets: list[list[int]] = [[]]
        deepest: list[int] = [0]
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "{":
                braces.append(i)
                brackets.append([])
                deepest.append(0)
            elif ch == "}":
                for b in brackets[-1]:
                    self.close[b] = -1
                brackets[-1] = []
                if braces:
                    start = braces.pop()
                    self.close[start] = i
                    self.depth[start] = depth = deepest.pop() + 1
                    brackets.pop()
                    deepest[-1] = max(deepest[-1], depth)
            elif ch == "[":
                brackets[-1].append(i)
            elif ch == "]":
                for b in brackets[-1]:
                    self.close[b] = i
                brackets[-1] = []
            i += 1

    def arguments_end(self, text: str, start: int) -> tuple[int | None, int]:
        """:func:`arguments_end` from what the walk found, and how deep the
        arguments' groups nest."""
        pos, end, depth = start, None, 0
        while True:
            while pos < len(text) and text[pos] in " \t\n":
                pos += 1
            if pos >= len(text) or text[pos] not in "[{":
                return end, depth
            close = self.close.get(pos, -1)
            if close < 0:
                return None, depth
            depth = max(depth, self.depth.get(pos, 0))
            end = pos = close + 1
