"""Every accelerator of the TeX code gives what its reference gives, on generated strings and on the
values of the real samples: the decoder's no-TeX test and regex pass (with its math-only shortcut)
against pylatexenc's walker and bibconv's renderer; the encoder's no-work test and one-substitution
path (with its math-only shortcut) against its token walk, warnings included; case protection's
shortcuts against its word walk; the brace walks against character loops."""

from __future__ import annotations

import re
from collections.abc import Iterator
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv import latex
from bibconv.latex import case, charset, decoder, encoder, fast, specials
from bibconv.latex.charset import needs_chars
from bibconv.latex.tex import (
    arguments_end,
    balanced,
    balanced_for_both,
    bibtex_group_end,
    group_end,
    nesting,
    splitter_group_end,
    walk,
)

# Pieces of TeX as values hold them: accents in every brace form, letters, escapes, ligatures, math,
# markup macros and switches, groups, kept macros, scripts, stray braces and backslashes.
_PIECES = [
    *("a", "B", "é", " ", "  ", "\n", "x", "DNA", ":", ",", "-", "--", "---"),
    *("``", "''", "`", "'", "!`", "?`"),
    *(r"\'e", r"\'{e}", r"{\'e}", r"\'{\i}", r"{\'\i}", r"\"u", r"{\"u}"),
    *(r"\c{c}", r"{\c c}", r"\H{o}", r"\~n"),
    *(r"\ss", r"\ss{}", r"{\aa}", r"\o", r"\L", r"{\i}", r"\j", r"\AE", r"\&", r"\%", r"\$", r"\#", r"\_"),
    *("{", "}", "{A}", "{DNA}", "{{B}}", "{\\relax Ch}", "~", "\\\\", "\\", "%"),
    *("$x$", "$\\alpha$", "$a_2$", "$x^{2}$", "$", "$$", "\\(x\\)", "^{2}", "_{i}", "^\\circ", "10^3"),
    *(r"\textit{", r"\emph{", r"\textbf{", r"\textsc{", r"\textsuperscript{", r"{\it ", r"{\bf "),
    r"\LaTeX{}",
    *(r"\TeX", r"\S 3", r"\~{}", r"\url{a_b}", r"\href{u}{t}", r"\cite{k}", r"\foo{x}", r"\enquote{q}"),
]
_TEX = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)


def comparable(text: str) -> bool:
    """Whether the reference reads ``text`` as it is: math whose braces do not balance (``$\\{up}$`` in a
    Crossref export) is kept as written by the accelerator, while the walker, which needs balanced
    groups, escapes a stray brace or reads past the closing ``$``. The accelerator's reading, which
    changes nothing, is the one bibconv keeps; such values are left out of the comparison."""
    return all(balanced(m[0]) for m in fast._FAST_RE.finditer(text) if m.lastgroup == "math")


def reference(text: str, markup: bool) -> str:
    """What :func:`bibconv.latex.decode` must give: the walker's reading, finished as decode does."""
    clean = latex._SENTINEL_RE.sub("", text)
    return latex._finish(latex._spaces(decoder.general(clean)), markup)


@settings(max_examples=600, deadline=None)
@given(text=_TEX, markup=st.booleans())
def test_decode_equals_the_reference_on_generated_tex(text: str, markup: bool) -> None:
    if not comparable(text):
        return
    assert latex._decode(text, markup) == reference(text, markup), text


@settings(max_examples=300, deadline=None)
@given(text=_TEX, markup=st.booleans())
def test_the_math_only_shortcut_equals_the_regex_pass(text: str, markup: bool) -> None:
    with mock.patch.object(fast, "_dollars_only", return_value=False):
        with mock.patch.object(fast, "_math_only", return_value=False):
            slow = fast.fast_decode(text)
        assert fast.fast_decode(text) == slow, text


_DOLLARS = st.lists(
    st.sampled_from(
        ["$", "$$", "$$$", "a", "Ab", " ", "\n", "\n\n", "\t", "-", "'", "!", "?", "%", "é", "&", "<", ":"]
    ),
    max_size=16,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=_DOLLARS, markup=st.booleans())
def test_text_of_dollars_only_is_what_the_walker_gives(text: str, markup: bool) -> None:
    """Runs of dollars, lone and empty ``$$`` among them, with text and no other TeX: as written."""
    if not fast._dollars_only(text):
        return
    assert decoder.general(text) == text, text
    assert latex._decode(text, markup) == reference(text, markup), text


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.text(alphabet="ab \t\n\x1f\u00a0&<>é\ufdd0\ufdd3", max_size=12)))
def test_text_without_tex_is_its_own_decoding(text: str) -> None:
    if latex.has_tex(text):
        return
    for markup in (True, False):
        assert latex._decode(text, markup) == reference(text, markup), text


def _values() -> list[str]:
    from tests.test_latex import _BIB_FILES, DECODE_CASES, _values

    values = [tex for tex, _, _ in DECODE_CASES]
    return values + [v for path in _BIB_FILES if path.exists() for v in _values(path)]


@pytest.mark.shared
def test_decode_equals_the_reference_on_the_real_values() -> None:
    """The real samples' values (thousands take the regex pass) decode as the walker reads them."""
    fast_ones = 0
    for value in filter(comparable, _values()):
        if latex.has_tex(value) and fast.fast_decode(value) is not None:
            fast_ones += 1
        for markup in (True, False):
            assert latex._decode(value, markup) == reference(value, markup), value
    assert fast_ones > 2000  # most real values never reach the walker


def _unescaped(text: str) -> Iterator[tuple[int, str]]:
    """The characters of ``text`` that no backslash takes, with their index, one at a time."""
    skip = False
    for i, ch in enumerate(text):
        if skip:
            skip = False
        elif ch == "\\":
            skip = True
        else:
            yield i, ch


def _walk_by_characters(text: str, depth: int) -> tuple[int, int, int]:
    lowest, dollars = depth, 0
    for _, ch in _unescaped(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            lowest = min(lowest, depth)
        elif ch == "$" and depth == 0:
            dollars += 1
    return depth, lowest, dollars


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab {}\\$\n", max_size=30), st.integers(0, 3))
def test_the_brace_walk_equals_a_character_loop(text: str, depth: int) -> None:
    assert walk(text, depth) == _walk_by_characters(text, depth)
    end, lowest, _ = _walk_by_characters(text, 0)
    assert balanced(text) == (end == 0 and lowest == 0)
    every = text.count("{") - text.count("}")
    prefixes = (text[:i].count("{") - text[:i].count("}") for i in range(len(text) + 1))
    assert balanced(text, bibtex=True) == (every == 0 and min(prefixes) >= 0)
    assert balanced_for_both(text) == (balanced(text) and balanced(text, bibtex=True))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab {}\\", max_size=30))
def test_the_nesting_equals_a_character_loop(text: str) -> None:
    depth = deepest = 0
    strays = []
    for i, ch in _unescaped(text):
        if ch == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "}" and depth:
            depth -= 1
        elif ch == "}":
            strays.append(i)
    assert nesting(text) == (deepest, strays)


def _group_end_by_characters(text: str, start: int, rule: str) -> int | None:
    """Where the group opened just before ``start`` ends: ``tex`` (a backslash takes the next character),
    ``bibtex`` (every brace counts) or ``splitter`` (a brace right after a backslash does not count)."""
    depth, skip = 1, False
    for i in range(start, len(text)):
        ch = text[i]
        if skip:
            skip = False
            continue
        if rule == "tex" and ch == "\\":
            skip = True
        elif ch in "{}" and not (rule == "splitter" and text[i - 1] == "\\"):
            depth += 1 if ch == "{" else -1
            if depth == 0:
                return i + 1
    return None


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="a{}\\", max_size=20))
def test_the_group_ends_equal_character_loops(body: str) -> None:
    text = "{" + body
    assert group_end(text, 1) == _group_end_by_characters(text, 1, "tex")
    assert bibtex_group_end(text, 1) == _group_end_by_characters(text, 1, "bibtex")
    assert splitter_group_end(text, 1) == _group_end_by_characters(text, 1, "splitter")


def _arguments_end_by_characters(text: str, start: int) -> int | None:
    """The end of the ``{…}``/``[…]`` arguments after ``start``, one character at a time."""
    pos, end = start, None
    while True:
        while pos < len(text) and text[pos] in " \t\n":
            pos += 1
        if pos >= len(text) or text[pos] not in "[{":
            return end
        closer, depth, i = "]" if text[pos] == "[" else "}", 0, pos
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth < 0:
                return None
            if depth == 0 and text[i] == closer:
                break
            i += 1
        else:
            return None
        end = pos = i + 1


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="a{}[]\\ \n", max_size=20))
def test_the_arguments_end_equals_a_character_loop(text: str) -> None:
    assert arguments_end("\\x" + text, 2) == _arguments_end_by_characters("\\x" + text, 2), text


# --- the encoder: its no-work test, its one-substitution path and that path's math-only shortcut ---

_ENCODER_PIECES = [
    *("a", "B", "é", "ß", " ", "-", "--", "'", "''", "`", "``", "!", "?", "!`", "&", "&amp;", "&#92;", "7"),
    *("<", "<i>", "</i>", "<b>", '<span class="nocase">', "</span>", "<sup>", "</sup>"),
    *("$", "$x$", "$\\alpha$", "$a}$", "${x}$", "$10", "$x$0", "$\\pm$0", "$é$", "$a&b$", "$\\input{x}$"),
    *("\\", "\\(x\\)", "\\[y\\]", "\\foo{x}", "\\cite[p.~3]{k}", "\\textit{x}", "\\noopsort{a}"),
    *("\\url {a_b}", "\\foo{", "\\foo[a", "^", "_", "^{2}", "_\\alpha", "10^{-3}", "^{\\write}"),
    *("{", "}", "~", "%", "#", "\u00a0", "\\input{x}", "\ufdd4", "\ufdd5", "\u2009", "\x07"),
    *("$$", "$$x$$", "$ x$", "$x $", "\\$", "$x\\$", "$a\\\\$", "$<i>$", "\n"),
]
_ENCODER_TEXT = st.lists(st.sampled_from(_ENCODER_PIECES), max_size=10).map("".join)
_PREAMBLES = st.sampled_from([frozenset(), frozenset({"noopsort"})])


def _by_the_walk(text: str, ascii: bool, markup: bool, allowed: frozenset[str]) -> tuple[str, list[str]]:
    """What :func:`bibconv.latex.encoder.encode` must give: the token walk's text and warnings."""
    said: list[str] = []
    return encoder.general(text, ascii, said.append, markup, allowed), said


def _shortcuts_agree(text: str, ascii: bool, markup: bool, allowed: frozenset[str]) -> str:
    """``encode`` and each of its accelerators give what the walk gives; the one that answered."""
    said: list[str] = []
    encoded = encoder.encode(text, ascii=ascii, markup=markup, warn=said.append, allowed=allowed)
    assert (encoded, said) == _by_the_walk(text, ascii, markup, allowed), text
    if needs_chars(text, ascii):
        return "walk"
    if encoder._unchanged(text):
        assert encoded == text, text
        return "unchanged"
    simple = encoder._encode_simple(text, markup)
    if simple is None:
        return "walk"
    assert simple == encoded, text
    return "math only" if "$" in text and encoder._math_only(text) else "substitution"


@settings(max_examples=600, deadline=None)
@given(text=_ENCODER_TEXT, ascii=st.booleans(), markup=st.booleans(), allowed=_PREAMBLES)
def test_the_encoder_shortcuts_equal_the_token_walk(
    text: str, ascii: bool, markup: bool, allowed: frozenset[str]
) -> None:
    _shortcuts_agree(text, ascii, markup, allowed)


@settings(max_examples=400, deadline=None)
@given(text=_ENCODER_TEXT, markup=st.booleans())
def test_the_encoder_math_only_shortcut_equals_the_substitution(text: str, markup: bool) -> None:
    with mock.patch.object(encoder, "_math_only", return_value=False):
        substituted = encoder._encode_simple(text, markup)
    assert encoder._encode_simple(text, markup) == substituted, text


def _paired_by_characters(body: str) -> str:
    """The reference of :func:`bibconv.latex.specials.pair_braces`: a step per character."""
    chars, opened = list(body), []
    for i, ch in enumerate(chars):
        if ch == specials.LB:
            opened.append(i)
        elif ch == specials.RB and opened:
            chars[opened.pop()], chars[i] = "\\{", "\\}"
        elif ch == specials.RB:
            chars[i] = "{\\textbraceright}"
    for i in opened:
        chars[i] = "{\\textbraceleft}"
    return "".join(chars)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from([specials.LB, specials.RB, "a", "\\", "é", "{}"]), max_size=16).map("".join))
def test_brace_pairing_equals_a_character_walk(body: str) -> None:
    assert specials.pair_braces(body) == _paired_by_characters(body), body


@pytest.mark.shared
def test_the_encoder_shortcuts_equal_the_token_walk_on_the_real_values() -> None:
    """Every real value, as record text (rich and plain), is encoded as the walk encodes it; most take
    an accelerator."""
    from tests.test_latex import ENCODE_CASES

    texts = [text for text, _, _ in ENCODE_CASES]
    for value in filter(comparable, _values()):
        texts += [latex.decode(value), latex.decode(value, markup=False)]
    answered: dict[str, int] = {}
    for text in texts:
        for ascii in (False, True):
            which = _shortcuts_agree(text, ascii, markup=True, allowed=frozenset())
            answered[which] = answered.get(which, 0) + 1
    assert min(answered.get(kind, 0) for kind in ("unchanged", "substitution", "math only", "walk")) > 100, (
        answered
    )


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="\\{}[] \nax", max_size=30))
def test_groups_find_the_arguments_arguments_end_finds(text: str) -> None:
    from bibconv.latex.tex import Groups, arguments_end

    groups = Groups(text)
    for start in range(len(text) + 1):
        if start and text[start - 1] == "\\":
            continue  # an argument never starts at an escaped brace
        assert groups.arguments_end(text, start)[0] == arguments_end(text, start), start


# --- case protection: the lowercase-word and letters-only shortcuts ---

_TITLE_PIECES = [
    *("a", "of", "DNA", "iPhone", "Bayesian", "Pre-Training", "CPU-GPU", "e-mail", "x", "A", "Ü", "élan"),
    *("T5", "Ⅰ", "x²"),
    *(" ", "  ", "\n", ":", ": ", ",", ".", '"', "(", ")", "'", "0", "-"),
    *("{DNA}", "{", "}", "$x$", "$", "$\\omega$", "\\foo{x}", "\\foo", "\\emph{Big}", "\\'E", "{\\'E}cole"),
    *("\\OE", "\\OE{}", "\\ss", "\\\\", "\\", "{\\relax Ch}", "\\textbf{X}", "[A]"),
]
_TITLES = st.lists(st.sampled_from(_TITLE_PIECES), max_size=10).map("".join)


def _protected_by_the_walk(text: str, mode: str) -> str:
    """What :func:`bibconv.latex.protect_case` must give: every word through the word walk."""
    pieces, glue = case._pieces(text)
    state, out = case._START, []
    for piece in pieces:
        if piece and not piece.isspace():
            piece, state = case._word(piece, state, mode == "all")
        out.append(piece)
    return glue.join(out)


@settings(max_examples=600, deadline=None)
@given(text=_TITLES, mode=st.sampled_from(["acronyms", "all"]))
def test_the_case_shortcuts_equal_the_word_walk(text: str, mode: str) -> None:
    assert latex.protect_case(text, mode) == _protected_by_the_walk(text, mode), text


@pytest.mark.shared
def test_the_case_shortcuts_equal_the_word_walk_on_the_real_values() -> None:
    """Every real value, encoded as the BibTeX writer encodes a title, is protected as the walk
    protects it."""
    titles = {latex.encode(latex.decode(value)) for value in filter(comparable, _values())}
    for title in titles:
        for mode in ("acronyms", "all"):
            assert latex.protect_case(title, mode) == _protected_by_the_walk(title, mode), title


def _scan_word_by_characters(word: str) -> tuple[bool, bool, bool]:
    """What :func:`bibconv.latex.case._scan_word` must give: a walk of each character."""
    depth, special, in_math, letters = 0, False, False, 0
    upper_positions: list[int] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "\\":
            j = i + 1
            while j < len(word) and word[j].isalpha():
                j += 1
            name = word[i + 1 : j]
            changes = depth == 0 or (special and name in case._FOREIGN_UPPER)
            if changes and any(c.isupper() for c in name):
                upper_positions.append(letters)
                letters += 1
            elif in_math and name:
                letters += 1
            i = max(j, i + 2)
            continue
        if ch == "$" and depth == 0:
            in_math = not in_math
        elif ch == "{":
            if depth == 0:
                special = word[i + 1 : i + 2] == "\\"
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                special = False
        elif ch.isalpha() and (depth == 0 or (depth >= 1 and special)):
            if ch.isupper():
                upper_positions.append(letters)
            letters += 1
        i += 1
    return bool(upper_positions), upper_positions[:1] == [0] and len(upper_positions) == 1, letters > 0


_WORD_PIECES = [
    *("a", "B", "Ab", "aB", "AB", "é", "É", "ß", "Ǆ", "中", "²", "½", "Ⅰ", "0", "-", ":", "x²", " ", "_"),
    *("{", "}", "$", "{{", "}}}", "$$$", "\\", "\\\\", "\\{", "\\}", "\\$", "\\(", "\\textbackslash{}"),
    *("\\'E", "\\'e", "\\OE"),
    *("\\AE", "\\o", "\\L", "\\foo", "\\Foo", "\\é", "\\É", "\\x²", "\\–", "\\omega", "\\ss", "{\\", "\\1"),
    *(
        "{\\textbraceleft}",
        "\\textbackslash{}",
        "{\\i}",
        "{\\O}",
        "{\\ab}c",
        "\\ab{}",
        "\\ab{}c",
        "{\\aB}",
        "{}",
    ),
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_WORD_PIECES), max_size=14).map("".join))
def test_the_word_scan_equals_a_character_walk(word: str) -> None:
    assert case._scan_word(word) == _scan_word_by_characters(word), word


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_WORD_PIECES), max_size=14).map("".join))
def test_a_word_without_capitals_has_none_to_protect(word: str) -> None:
    """The shortcut of :func:`bibconv.latex.case._protects`: an ASCII word that lower-casing leaves
    as it is holds no capital the scan would find."""
    if word.isascii() and word.lower() == word:
        assert not case._scan_word(word)[0], word
    assert case._protects(word, True, False) == _protects_by_the_scan(word, True, False), word


def _protects_by_the_scan(core: str, whole: bool, capitals: bool) -> bool:
    """:func:`bibconv.latex.case._protects` without its shortcut."""
    has_upper, first_only, _ = case._scan_word(core)
    return (
        has_upper
        and not (first_only and not capitals)
        and not case._ends_escaped(core)
        and not (whole and case._ends_in_control_word(core))
    )


_NEEDS_CHARS_PIECES = [*_WORD_PIECES, *_ENCODER_PIECES, "\u0301", "e\u0301", "\u00e9", "\u0100", "\x85", "\t"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_NEEDS_CHARS_PIECES), max_size=10).map("".join) | st.text(max_size=10))
def test_the_character_test_equals_the_character_patterns(text: str) -> None:
    """:func:`bibconv.latex.charset.needs_chars` finds work where the patterns text_chars uses do."""
    for ascii in (True, False):
        pattern = charset._ASCII_RE if ascii else charset._UTF8_RE
        assert needs_chars(text, ascii) == (pattern.search(text) is not None), text


@pytest.mark.shared
def test_the_character_test_equals_the_character_patterns_on_the_real_values() -> None:
    for value in _values():
        for text in (value, latex.decode(value, markup=False)) if comparable(value) else (value,):
            for ascii in (True, False):
                pattern = charset._ASCII_RE if ascii else charset._UTF8_RE
                assert needs_chars(text, ascii) == (pattern.search(text) is not None), text


# Words of macros with optional and braced arguments, for the macro patterns' tests.
_MACRO_WORDS = st.lists(
    st.sampled_from([*_WORD_PIECES, "[", "]", "[x]", "{x}", "\\foo{x}", "\\foo[y]{z}"]), max_size=12
).map("".join)
_OLD_MACRO_TAIL_RE = re.compile(r"(?<!\\)(?:\\\\)*\\([^\W\d_]+)(?:\{[^{}]*\}|\[[^\[\]]*\])*$")


_OLD_CONTROL_END_RE = re.compile(r"(?<!\\)(?:\\\\)*\\[A-Za-z]+$")
_OLD_TRAIL_RE = re.compile("[" + re.escape(case._TRAIL_CHARS) + "]+$")


@settings(max_examples=1500, deadline=None)
@given(_MACRO_WORDS)
def test_the_word_end_tests_find_what_their_patterns_find(word: str) -> None:
    assert case._ends_in_control_word(word) == bool(_OLD_CONTROL_END_RE.search(word)), word
    trail = _OLD_TRAIL_RE.search(word)
    assert len(word.rstrip(case._TRAIL_CHARS)) == (trail.start() if trail else len(word)), word


@settings(max_examples=1500, deadline=None)
@given(_MACRO_WORDS)
def test_the_unknown_macro_end_is_what_the_pattern_finds(word: str) -> None:
    if "\\" not in word:
        return
    m = _OLD_MACRO_TAIL_RE.search(word)
    expected = m is not None and not case.is_known_macro(m[1])
    assert case._ends_in_unknown_macro(word) == expected, word
