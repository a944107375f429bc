r"""BibTeX case protection for encoded titles (:func:`protect_case`); used through :mod:`bibconv.latex`."""

from __future__ import annotations

import re

from bibconv.latex.decoder import is_known_macro
from bibconv.latex.tex import walk
from bibconv.patterns import lazy

__all__ = ["PROTECT_MODES", "protect_case"]

PROTECT_MODES = ("none", "acronyms", "all")
"""What :func:`protect_case` braces: nothing; acronyms and words with a capital after their first
letter (the default); or every word with a capital a style would lowercase."""

_WORD_SPLIT_RE = lazy(r"(\s+)")
_GROUPING_RE = lazy(r"[{}\\$]")
_TRAIL_CHARS = ",.;:!?)]'\""
_LEAD_RE = lazy(r"^[(\['\"]+")
_ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


# What _scan_word stops at: a run of what changes nothing, a backslash, a dollar, a brace. ASCII
# characters that are not letters change nothing, nor do control symbols (a backslash and an ASCII
# character that is not a letter: ``\{``, ``\\``); outside math, neither do a lower-case control
# word with an empty group (``\textbackslash{}``) and a group of one (``{\textbraceleft}``, ``{\i}``):
# none of them is a letter BibTeX changes. The runs are possessive: a greedy one keeps a way back
# for each of its steps (300 MB for a million).
_SYMBOL = r"\\[\x00-@\[-`{-\x7f]"
_NOT_LETTER = r"[\x00-#%-@\[\]-`|~\x7f]"  # ASCII, and no letter, backslash, dollar or brace
_SCAN_STOP_RE = lazy(rf"(?P<inert>(?:{_SYMBOL}|{_NOT_LETTER})++)|[\\${{}}]")
_SCAN_TEXT_STOP_RE = lazy(
    rf"(?P<inert>(?:{_SYMBOL}|{_NOT_LETTER}|\\[a-z]+\{{\}}|\{{\\[a-z]+\}})++)|[\\${{}}]"
)
_RUNS = {ch: lazy(re.escape(ch) + "+") for ch in "${}"}
_NAME_RE = lazy(r"[^\W\d_]*")  # every letter (str.isalpha) and a few other characters


class _Letters:
    """The letters _scan_word has counted: how many, how many capitals (up to two), the first one's place."""

    __slots__ = ("count", "first_upper", "uppers")

    def __init__(self) -> None:
        self.count = 0
        self.uppers = 0
        self.first_upper = -1

    def upper(self) -> None:
        if not self.uppers:
            self.first_upper = self.count
        self.uppers += 1
        self.count += 1

    def text(self, text: str) -> None:
        """The letters of ``text`` (which holds no backslash, dollar or brace)."""
        if text.isalpha() and (text.islower() or self.uppers > 1):
            self.count += len(text)
            return
        for ch in text:
            if ch.isalpha():
                if ch.isupper():
                    self.upper()
                else:
                    self.count += 1


def _scan_word(word: str) -> tuple[bool, bool, bool]:
    """(has changeable uppercase, first changeable letter is uppercase and first, has depth-0 text).

    From stop to stop of :data:`_SCAN_STOP_RE`, the text between them counted by :class:`_Letters`:
    the same answer as a walk of each character (``test_the_word_scan_equals_a_character_walk`` in
    ``tests/latex/test_accelerators.py``), without a step per character."""
    depth = 0
    special = False
    letters = _Letters()
    in_math = False
    i, n = 0, len(word)
    while i < n:
        m = (_SCAN_STOP_RE if in_math else _SCAN_TEXT_STOP_RE).search(word, i)
        stop = n if m is None else m.start()
        if stop > i and (depth == 0 or special):
            letters.text(word[i:stop])
        if m is None:
            break
        if m.lastgroup == "inert":
            i = m.end()
            continue
        ch = word[stop]
        if ch == "\\":
            j = _NAME_RE.match(word, stop + 1).end()  # type: ignore[union-attr]
            name = word[stop + 1 : j]
            if not name.isalpha():
                j = stop + 1
                while j < n and word[j].isalpha():
                    j += 1
                name = word[stop + 1 : j]
            # BibTeX lowercases a control word at depth 0 as plain letters; inside a special
            # character only the foreign-letter commands (\AE, \OE, \O, \L, \AA) change.
            changes = depth == 0 or (special and name in _FOREIGN_UPPER)
            if changes and name and not name.islower() and any(c.isupper() for c in name):
                letters.upper()
            elif in_math and name:  # a symbol in math is a letter of the word (``$\omega$Test``)
                letters.count += 1
            i = max(j, stop + 2)
            continue
        run = _RUNS[ch].match(word, stop).end() - stop  # type: ignore[union-attr]  # one step for a run
        if ch == "$" and depth == 0:
            in_math = in_math != (run % 2 == 1)
        elif ch == "{":
            if depth <= 0 < depth + run:  # one of them opens a group at depth 0: the last, or one before
                special = -depth == run - 1 and word[stop + run : stop + run + 1] == "\\"
            depth += run
        elif ch == "}":
            if 0 < depth <= run:  # it passes depth 0
                special = False
            depth -= run
        i = stop + run
    has_upper = letters.uppers > 0
    return has_upper, letters.uppers == 1 and letters.first_upper == 0, letters.count > 0


_FOREIGN_UPPER = frozenset({"AE", "OE", "O", "L", "AA", "DH", "TH", "NG", "DJ"})


def protect_case(text: str, mode: str = "acronyms") -> str:
    r"""Brace the words of an encoded title whose case a BibTeX style must not change.

    BibTeX's ``change.case$ "t"`` (plain.bst's titles) lowercases every letter at brace depth 0 (and in
    special characters such as ``{\'E}``) except the title's first character and the first character
    after a colon and a space. ``mode`` (:data:`PROTECT_MODES`) says which words are braced:

    * ``acronyms`` (the default): words with a capital after their first letter — acronyms
      (``{DNA}``, ``{CPU-GPU}``, ``{LLM}-based``), mixed case (``{iPhone}``), capitals inside a
      hyphenated word (``{Pre-Training}``). A capitalised word (``Bayesian``, ``Models``) is left to the
      style, which prints it in lower case in sentence-case styles such as plain.
    * ``all``: also every capitalised word after the first (``{Bayesian}``); the first word and the
      word after ``": "`` keep a bare leading capital. The style then prints the title as written.
    * ``none``: nothing; the style changes the case of every word.

    Words already inside braces are left alone, so protecting twice changes nothing.

    >>> protect_case(r"Attention to {DNA} in Bayesian iPhone Models: A Study")
    'Attention to {DNA} in Bayesian {iPhone} Models: A Study'
    >>> protect_case(r"Attention to {DNA} in Bayesian iPhone Models: A Study", "all")
    'Attention to {DNA} in {Bayesian} {iPhone} {Models}: A {Study}'
    """
    if mode == "none":
        return text
    pieces, glue = _pieces(text)
    plain = not _GROUPING_RE.search(text)
    every = mode == "all"
    out: list[str] = []
    depth, in_math, after_macro, sentence_start = _START
    for piece in pieces:
        if not piece or piece.isspace():
            out.append(piece)
            continue
        # Three accelerators of _word, which they equal (tests/latex/test_accelerators.py::
        # test_the_case_shortcuts_equal_the_word_walk). A lowercase word without braces, math or macros:
        # nothing to protect, no state to carry.
        if piece.islower() and (plain or not _GROUPING_RE.search(piece)):
            out.append(piece)
            after_macro = False
            sentence_start = piece.endswith(":")
            continue
        # Letters (and hyphens) only, outside groups and math: braced when it holds a capital BibTeX
        # would lowercase.
        word = piece.rstrip(_TRAIL_CHARS)
        if not (depth or in_math or after_macro) and word[:1].isalpha() and _letters_only(word):
            if _acronym(word) or (every and word[0].isupper() and not sentence_start):
                piece = "{" + word + "}" + piece[len(word) :]
            out.append(piece)
            sentence_start = piece.endswith(":")
            continue
        # No brace, backslash or dollar, outside groups and math: _word without the TeX walk.
        if not (depth or in_math or after_macro) and (plain or not _GROUPING_RE.search(piece)):
            piece, sentence_start = _plain_word(piece, every, sentence_start)
            out.append(piece)
            continue
        piece, state = _word(piece, (depth, in_math, after_macro, sentence_start), every)
        depth, in_math, after_macro, sentence_start = state
        out.append(piece)
    return glue.join(out)


def _plain_word(piece: str, every: bool, sentence_start: bool) -> tuple[str, bool]:
    """:func:`_word` of a piece that holds no brace, backslash or dollar, at depth 0 outside math: its
    core braced when a letter after the first is a capital (or the first, with ``every``, after the
    sentence start); and whether a sentence starts after it."""
    lead = _LEAD_RE.match(piece)
    start = lead.end() if lead else 0
    end = max(len(piece.rstrip(_TRAIL_CHARS)), start)
    core = piece[start:end]
    if not core:
        return piece, sentence_start or piece.endswith(":")
    capitals = [ch.isupper() for ch in core if ch.isalpha()]
    if any(capitals) and (capitals.count(True) > 1 or not capitals[0] or (every and not sentence_start)):
        piece = piece[:start] + "{" + core + "}" + piece[end:]
    return piece, piece.endswith(":")


def _pieces(text: str) -> tuple[list[str], str]:
    """The words of ``text`` and the glue that joins them again (the spaces are pieces of their own
    unless each is a single space: most titles)."""
    words = text.split()
    if " ".join(words) == text:
        return words, " "
    return _WORD_SPLIT_RE.split(text), ""


_State = tuple[int, bool, bool, bool]
"""What :func:`protect_case` carries from word to word: brace depth, inside math, after an unknown
macro (whose group is its argument: left alone), at a sentence start (the title's, after ``": "``)."""
_START: _State = (0, False, False, True)


def _word(piece: str, state: _State, every: bool) -> tuple[str, _State]:
    """The reference: ``piece`` (a word with its punctuation) as the title holds it, braced when it
    holds a capital a style would lowercase; and the state after it."""
    depth, in_math, after_macro, sentence_start = state
    end_depth, lowest, dollars = walk(piece, depth)
    change, dips = end_depth - depth, lowest < 0
    if depth > 0 or in_math or change != 0 or dips or dollars % 2 or after_macro:
        # inside a group or math that spans words, or opening/closing one: leave it as it is
        in_math = in_math != (dollars % 2 == 1)
        return piece, (max(depth + change, 0), in_math, _ends_in_unknown_macro(piece), piece.endswith(":"))
    lead = _LEAD_RE.match(piece)
    start = lead.end() if lead else 0
    # A piece of punctuation only (``"``) is both: it is all lead, no trail.
    end = max(len(piece.rstrip(_TRAIL_CHARS)), start)
    core = piece[start:end]
    if core:
        if _protects(core, end == len(piece), every and not sentence_start):
            core = "{" + core + "}"
            if core[1] == "\\" and _scan_word(core)[0]:
                core = "{" + core + "}"  # ``{\x …}`` is a special character, whose letters change
        sentence_start = False
    out = piece[:start] + core + piece[end:]
    # ``{A\foo{x}}`` ends its group
    after_macro = _ends_in_unknown_macro(piece) and _ends_in_unknown_macro(out)
    return out, (depth, in_math, after_macro, sentence_start or piece.endswith(":"))


def _protects(core: str, whole: bool, capitals: bool) -> bool:
    """Whether the word ``core`` must be braced (``whole``: nothing follows it in its piece;
    ``capitals``: a capital first letter is protected too)."""
    if core.isascii() and core.lower() == core:  # no capital letter (nor a control word with one)
        return False
    has_upper, first_only, _ = _scan_word(core)
    return (
        has_upper
        and not (first_only and not capitals)
        and not _ends_escaped(core)
        and not (whole and _ends_in_control_word(core))  # ``\OE 0``: the space ends \OE
    )


def _acronym(word: str) -> bool:
    """Whether a word has a capital after its first letter (``LLM``, ``iPhone``, ``CPU-GPU``)."""
    return not word[1:].islower() and any(c.isupper() for c in word[1:])


def _letters_only(word: str) -> bool:
    return word.isalpha() or ("-" in word and word.replace("-", "").isalpha())


def _ends_in_unknown_macro(piece: str) -> bool:
    """Whether ``piece`` ends in a control word the decoder does not know, perhaps followed by
    groups without braces or brackets inside (``\\foo{x}[y]``): its argument."""
    if "\\" not in piece:
        return False
    end = len(piece)
    while end and piece[end - 1] in "}]":  # the groups that end it, from the last
        opener, closer = ("{", "}") if piece[end - 1] == "}" else ("[", "]")
        start = piece.rfind(opener, 0, end - 1)
        if start < 0 or piece.rfind(closer, start, end - 1) >= 0:
            break
        end = start
    name = _control_word_before(piece, end)
    return name is not None and not is_known_macro(name)


def _control_word_before(text: str, end: int) -> str | None:
    """The name of the control word that ends at ``end`` (any letters, as the decoder reads them),
    or ``None``: letters with an odd run of backslashes before them."""
    head = text[:end]
    start = end - _NAME_RE.match(head[::-1]).end()  # type: ignore[union-attr]
    run = start - len(head[:start].rstrip("\\"))
    return head[start:] if start < end and run % 2 == 1 else None


def _ends_in_control_word(text: str) -> bool:
    """Whether ``text`` ends in a control word of ASCII letters (``\\OE``, not ``\\\\OE``)."""
    head = text.rstrip(_ASCII_LETTERS)
    return len(head) < len(text) and (len(head) - len(head.rstrip("\\"))) % 2 == 1


def _ends_escaped(text: str) -> bool:
    """Whether ``text`` ends in an odd run of backslashes (a closing brace after it would be escaped)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1
