r"""Which TeX may reach an output: an allowlist of commands; anything else is written as text.

Record text may come from any web page, and a ``.bib`` file is compiled by LaTeX, sometimes with
``-shell-escape``. So every writer that emits TeX (``bibtex``, ``biblatex``, ``format -t latex``)
passes a control sequence through only when it is on :func:`allowed`: accents, special letters and
symbols, font, case and quotation commands, citations and references, ``\url``/``\href``, and the
math vocabulary of real titles (Greek, operators, relations, arrows, delimiters, math fonts and
accents, ``\frac``, ``\sqrt``, ``\left``/``\right``…). The list is built from the decoder's own
tables and pylatexenc's symbol tables, plus the structural math commands; nothing on it reads or
writes files, runs programs, builds a command name from text (``\csname``, ``\begin``, ``\UseName``),
changes category codes, defines or redefines commands, or hooks into LaTeX (``\AtEndDocument``).
TeX's ``^^5c`` character notation is never allowed either.

* :func:`tex_allowed` says whether a piece of TeX may be written as it is.
* :func:`disallowed` lists what is not allowed in it (for warnings).
* :func:`sanitize_tex` writes every command that is not allowed so that it prints as text
  (``\textbackslash{}input``, in math ``\mbox{\textbackslash}input``): kept source TeX stays TeX
  where it is harmless and turns inert where it is not.
* :func:`preamble_commands` checks a kept ``@preamble``: allowed when every command is allowed or is
  ``\newcommand``/``\providecommand`` defining a *new* name (these cannot redefine an existing one);
  the names it defines may then be used by the file's fields (``\noopsort``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from bibconv.latex.packages import TEXT_MACROS
from bibconv.latex.tables import ACCENTS, LETTERS, MARKUP_MACROS, MARKUP_SWITCHES, QUOTE_MACROS, SYMBOLS
from bibconv.latex.tex import balanced_for_both as braces_balanced
from bibconv.patterns import lazy

__all__ = ["allowed", "braces_balanced", "disallowed", "preamble_commands", "sanitize_tex", "tex_allowed"]


def _words(text: str) -> list[str]:
    return text.split()


# Control symbols: escapes, accents, spacing, math delimiters and spaces.
_SYMBOLS = frozenset("&%$#_{} ,;:!-/@'`^\"~=.\\|()[]<>*\t\n\r")
# Structural math (amsmath included: the documents bibconv's output is checked against load it).
_MATH = frozenset(
    _words(
        """frac dfrac tfrac cfrac binom dbinom tbinom sqrt left right middle big Big bigg Bigg bigl bigr Bigl
    Bigr biggl biggr Biggl Biggr mathrm mathbf mathit mathsf mathtt mathcal mathbb mathfrak mathnormal
    boldsymbol operatorname text mbox hbox textstyle displaystyle scriptstyle scriptscriptstyle hat
    check breve acute grave tilde bar vec dot ddot dddot mathring widehat widetilde overline underline
    overbrace underbrace overrightarrow overleftarrow overset underset stackrel limits nolimits phantom
    vphantom hphantom smash not prime colon vert Vert lvert rvert lVert rVert lbrace rbrace lbrack
    rbrack lfloor rfloor lceil rceil langle rangle backslash setminus div cdot ldots cdots vdots ddots
    sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan exp log ln lg lim liminf limsup
    max min sup inf arg det dim gcd hom ker deg Pr mod bmod pmod pod emptyset varnothing ell hbar Re Im
    wp aleph partial nabla infty forall exists neg lnot top bot angle triangle square Box Diamond
    mapsto to gets iff implies impliedby star ast circ bullet diamond dagger ddagger amalg wr
    enspace thinspace negthinspace medspace thickspace"""
    )
)
# Case, font size and citation commands real titles and notes use.
_TEXT = frozenset(
    _words(
        """MakeUppercase MakeLowercase MakeTextUppercase MakeTextLowercase uppercase lowercase NoCaseChange
    nocorr textsl textmd textnormal textup textsuperscript textsubscript emph underline
    tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge
    url href cite citep citet citeauthor citeyear citealp citealt parencite textcite autocite ref eqref
    pageref autoref cref Cref footnote thanks noindent hfill hspace vspace enskip kern arabic roman Roman
    alph Alph path"""
    )
)
# Never allowed, whatever a table says (the checks below also test that none is on the list).
DENIED = frozenset(
    _words(
        """input include includeonly InputIfFileExists IfFileExists openin openout closein closeout read
    readline write immediate newread newwrite endinput special directlua latelua luaexec luadirect
    ShellEscape pdffiledump pdfobj pdfximage pdfmdfivesum pdffilesize includegraphics verbatiminput
    lstinputlisting catcode lccode uccode sfcode mathcode delcode def edef gdef xdef let futurelet
    csname endcsname expandafter noexpand string detokenize scantokens unexpanded meaning newcommand
    renewcommand providecommand DeclareRobustCommand NewDocumentCommand RenewDocumentCommand
    ProvideDocumentCommand DeclareDocumentCommand NewExpandableDocumentCommand usepackage RequirePackage
    documentclass global every afterassignment aftergroup output shipout end begin dump batchmode
    nonstopmode scrollmode errorstopmode errmessage jobname UseName ExplSyntaxOn ExplSyntaxOff
    AtEndDocument AtBeginDocument AddToHook makeatletter makeatother mathchar char chardef mathchardef
    countdef toksdef setbox box copy verb label nocite"""
    )
)


@lru_cache(maxsize=1)
def _derived() -> frozenset[str]:
    """Symbol names from pylatexenc's tables: those its decoder reads as text and its encoder writes."""
    from pylatexenc.latex2text import get_default_latex_context_db
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    db = get_default_latex_context_db().filter_context(keep_categories=["latex-base", "advanced-symbols"])
    names = {spec.macroname for spec in db.iter_macro_specs() if isinstance(spec.simplify_repl, str)}
    for tex in get_builtin_uni2latex_dict().values():
        names.update(re.findall(r"\\([A-Za-z]+)", tex))
    return frozenset(n for n in names if n.isalpha())


@lru_cache(maxsize=1)
def allowed() -> frozenset[str]:
    """Control words that may be written (control symbols: :data:`_SYMBOLS`).

    Built on first use, as it reads pylatexenc's tables: text without TeX never needs it.
    """
    own = {*ACCENTS, *LETTERS, *SYMBOLS, *MARKUP_SWITCHES, *QUOTE_MACROS, *TEXT_MACROS}
    own.update(name.rstrip("*") for name in MARKUP_MACROS)
    words = {n for n in own if n.isalpha()} | _MATH | _TEXT | _derived()
    return frozenset(words - DENIED)


# A control sequence (word or symbol), TeX's ``^^`` notation, or a math shift.
_TOKEN_RE = lazy(r"\\(?:([A-Za-z]+)|(?!\^\^)(.)|$)|(\\?\^\^)|(\$\$?)", re.S)


def _bad(m: re.Match[str], extra: frozenset[str]) -> bool:
    word, symbol, _, dollar = m.groups()
    if dollar:
        return False
    if word is not None:
        return word not in allowed() and word not in extra
    if symbol is not None:
        return symbol not in _SYMBOLS
    return True  # ``^^`` or a trailing backslash


def tex_allowed(tex: str, extra: frozenset[str] = frozenset()) -> bool:
    """Whether every command in ``tex`` is allowed (``extra``: names a kept preamble defines)."""
    if "\\" not in tex and "^^" not in tex:
        return True
    return not any(_bad(m, extra) for m in _TOKEN_RE.finditer(tex))


def disallowed(tex: str, extra: frozenset[str] = frozenset()) -> list[str]:
    """The commands of ``tex`` that are not allowed, once each, in order (``\\input``, ``^^``)."""
    found = [m[0] for m in _TOKEN_RE.finditer(tex) if _bad(m, extra)]
    return list(dict.fromkeys(found))


def sanitize_tex(tex: str, extra: frozenset[str] = frozenset()) -> str:
    r"""``tex`` with every command that is not allowed written so that it prints as text.

    Outside math ``\input`` becomes ``\textbackslash{}input`` and ``^^`` two ``\textasciicircum{}``;
    inside math (``$…$``, ``$$…$$``) the same text goes in an ``\mbox``. Braces are left as they are
    (the caller keeps them balanced).

    >>> print(sanitize_tex(r"\textit{x} \immediate\write18{id} $\alpha\csname$"))
    \textit{x} \textbackslash{}immediate\textbackslash{}write18{id} $\alpha\mbox{\textbackslash{}csname}$
    """
    if tex_allowed(tex, extra):
        return tex
    out: list[str] = []
    pos = 0
    math = False
    for m in _TOKEN_RE.finditer(tex):
        if m[4]:
            math = not math
            continue
        if not _bad(m, extra):
            continue
        out.append(tex[pos : m.start()])
        pos = m.end()
        if m[3]:  # TeX reads ``^^`` before commands: ``\^^{`` is ``\;`` and no brace
            text = r"\textbackslash{}" * (m[3][0] == "\\") + r"\textasciicircum{}\textasciicircum{}"
        else:
            text = r"\textbackslash{}" + (m[1] or _symbol_text(m[2]))
        out.append(r"\mbox{" + text + "}" if math else text)
    out.append(tex[pos:])
    return "".join(out)


def _symbol_text(symbol: str | None) -> str:
    """A control symbol's character as text (a backslash at the very end stands for nothing)."""
    return symbol or ""


_DEFINITION_RE = lazy(r"\\(?:newcommand|providecommand)\*?\s*(?:\{\\([A-Za-z]+)\}|\\([A-Za-z]+))")


# Names a preamble may not claim: on an existing command of that kind \providecommand does nothing.
_RISKY_NAME_RE = lazy(
    r"lua|shell|write|input|include|openin|openout|exec|system|catcode|csname|expandafter|every|hook"
    r"|scantokens|usename|expl|special|pdf|jobname|output|shipout",
    re.I,
)


def preamble_commands(preamble: str) -> frozenset[str] | None:
    """The commands a kept ``@preamble`` defines, or ``None`` when it may not be kept.

    It may be kept when each command in it is allowed, is a name it defines itself, or is the
    ``\\newcommand``/``\\providecommand`` that defines a name not already allowed.
    """
    defined = frozenset(a or b for a, b in _DEFINITION_RE.findall(preamble))
    if defined & (allowed() | DENIED) or any(_RISKY_NAME_RE.search(name) for name in defined):
        return None  # \providecommand does nothing for a name that exists: LaTeX's own would run
    rest = _DEFINITION_RE.sub(lambda m: "", preamble)
    return defined if tex_allowed(rest, defined) else None
