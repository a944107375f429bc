"""What the encoder writes for characters pdflatex (T1 fonts, amsmath) cannot set, and a check of the
sets of :mod:`bibconv.latex.charset` against pdflatex itself."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

from bibconv.latex import decode, encode
from bibconv.latex.charset import T1_TEXT, tex_for
from tests.tools import require_tool


@pytest.mark.parametrize(
    ("text", "tex", "warning"),
    [
        ("P\u0304ot", "{\\={P}}ot", None),  # a combining mark on its base letter
        ("$\u03c9$Test", "$\\omega$Test", None),  # inside math: the math command
        ("$\u03c9x \u2264 1$", "$\\omega x \\leq 1$", None),  # a space where a letter follows
        ("a\u202fb c\u2009d", "a\\,b c\\,d", None),  # rare spaces
        ("a\u2003b", "a\\quad{}b", None),
        ("x\x85yz", "x yz", "control character U+0085 written as a space"),  # NEL ends a line
        ("a\x00b\x1fc", "ab c", "control character U+0000 dropped"),
        ("a\u2028b", "a b", None),
        ("a\ufffeb", "ab", "noncharacter U+FFFE dropped"),
        ("\u5f20", "\u5f20", "no TeX form for '\u5f20' (U+5F20); kept as UTF-8"),
    ],
)
def test_encode_writes_what_pdflatex_cannot_set_as_tex(text: str, tex: str, warning: str | None) -> None:
    for ascii_only in (False, True):
        warnings: list[str] = []
        assert encode(text, ascii=ascii_only, warn=warnings.append) == tex
        assert warnings[:1] == ([warning] if warning else [])


@pytest.mark.parametrize(
    ("text", "tex"),
    [
        ("$a&b$ rule", "$a\\&b$ rule"),  # raw, ``&`` is a misplaced alignment tab
        ("$50%$ of $x$", "$50\\%$ of $x$"),  # raw, ``%`` comments out the rest of the .bbl line
        ("$\\#1$ and $#2$", "$\\#1$ and $\\#2$"),  # raw, ``#`` is a macro parameter
        ("x^{a&b}", "x\\ensuremath{^{a\\&b}}"),
        ("$a\\textrm{R&D}$", "$a\\textrm{R\\&D}$"),
    ],
)
def test_tex_specials_in_math_are_escaped(text: str, tex: str) -> None:
    for markup in (False, True):
        assert encode(text, markup=markup) == tex


def test_letters_in_math_go_in_text() -> None:
    """pdflatex builds most accented letters with ``\\accent``, an error in math mode."""
    assert encode("$\u0100$ $é$") == "$\\text{\u0100}$ $\\text{é}$"
    assert encode("$\u0100$ $é$", ascii=True) == "$\\text{{\\={A}}}$ $\\text{{\\'{e}}}$"


def test_text_commands_in_math_hold_text() -> None:
    assert encode("$4^{\\textrm{è}me}$ Congrès") == "$4^{\\textrm{è}me}$ Congrès"
    assert encode("$4^{\\textrm{è}me}$", ascii=True) == "$4^{\\textrm{{\\`{e}}}me}$"
    assert encode("$\\text{\u03c9}$") == "$\\text{{\\ensuremath{\\omega}}}$"


def test_math_text_after_writing_reads_back_as_written() -> None:
    assert decode(encode("$\u03c9$Test")) == "$\\omega$Test"
    assert decode(encode("M_{BH}")) == "M_{BH}"


def _document(lines: list[str]) -> str:
    head = "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{amsmath}\n\\begin{document}\n"
    return head + "".join(line + "\n\n" for line in lines) + "\\end{document}\n"


_ERROR_LINE_RE = re.compile(r"^! .*\n(?:.*\n){0,8}?l\.(\d+) ", re.M)


def test_the_character_sets_are_what_pdflatex_sets(tmp_path: Path) -> None:
    """Each character of T1_TEXT as it is, and each TeX form the encoder writes (in text and in math),
    in a paragraph of its own: pdflatex reports no error on any of them."""
    pdflatex = require_tool("pdflatex")
    t1 = re.compile(f"[{T1_TEXT}]")
    codes = [*range(0xA0, 0x3400), *range(0xF900, 0x10000), *range(0x1D400, 0x1D800)]
    chars = [chr(c) for c in codes if unicodedata.category(chr(c)) not in ("Cn", "Cs", "Co", "Cc")]
    lines: list[str] = []
    what: list[str] = []
    for ch in chars:
        form = ch if t1.fullmatch(ch) else tex_for(ch)
        if form is None:
            continue
        lines.append(f"x{form}x")
        what.append(f"{ch!r} as {form}")
        math = encode(f"$x{ch}x$")
        lines.append(math)
        what.append(f"{ch!r} in math as {math}")
    assert len(lines) > 1000
    (tmp_path / "chars.tex").write_text(_document(lines), encoding="utf-8")
    run = [pdflatex, "-interaction=nonstopmode", "chars.tex"]
    subprocess.run(run, cwd=tmp_path, capture_output=True, timeout=300, check=False)
    log = (tmp_path / "chars.log").read_text(encoding="utf-8", errors="replace")
    first = 5  # the document's lines before the first paragraph
    failed = [what[(int(n) - first) // 2] for n in _ERROR_LINE_RE.findall(log)]
    assert not failed, failed[:20]


def test_a_math_symbol_written_as_a_command_still_starts_its_word() -> None:
    """``$ω$Test`` is protected as a word with a capital after its first letter; so is ``$\\omega$Test``."""
    from bibconv.latex import protect_case

    assert protect_case("$\\omega$Test: x") == "{$\\omega$Test}: x"


def test_modifier_apostrophes_are_written_as_the_quotes_they_look_like() -> None:
    """U+02BC (Ngũgĩ wa Thiongʼo) prints as a right quote, U+02BB (the ʻokina) as a left one; the half
    rings of transliteration (U+02BE, U+02BF) have no T1 form: kept, with a warning."""
    assert encode("Thiong\u02bco", ascii=False) == "Thiong{\\textquoteright}o"
    assert encode("Hawai\u02bbi", ascii=True) == "Hawai{\\textquoteleft}i"
    assert decode("Thiong{\\textquoteright}o") == "Thiong\u2019o"
    warned: list[str] = []
    assert encode("Shi\u02bfa", ascii=False, warn=warned.append) == "Shi\u02bfa"
    assert warned
