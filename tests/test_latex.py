r"""TeX ↔ Unicode: table-driven decoding, encoding, case protection and real .bib values.

Case origins: docs/decisions.md#tex-decoding and docs/decisions.md#names-from-real-data (the libraries'
comparison and the issue trackers cited there:
latexcodec#96/#36, pylatexenc#107, biber#76/#65, biblib#5, BibParser.jl#39, latex-decode#10, clld#272,
bibtexparser#441/#283, pandoc#9616), and short strings from the real files of the
shared folder's corpus/bibtex/ (file named in the comment; origins in fixtures/SOURCES.md).
"""

from __future__ import annotations

import re

import pytest

from bibconv.latex import decode, encode, escape_markup, has_tex, protect_case, strip_markup

NBSP = "\u00a0"
NC = '<span class="nocase">'
SC = '<span style="font-variant:small-caps;">'

# (TeX, rich text, plain text); plain ``None`` means the same as rich.
DECODE_CASES: list[tuple[str, str, str | None]] = [
    # --- acute, in every brace form (docs/decisions.md#tex-decoding) ---
    (r"Rodr\'iguez", "Rodríguez", None),
    (r"Rodr\'{i}guez", "Rodríguez", None),
    (r"Rodr{\'i}guez", "Rodríguez", None),
    (r"Rodr{\'{i}}guez", "Rodríguez", None),
    (r"Rodr\'\i guez", "Rodríguez", None),
    (r"Rodr\'{\i}guez", "Rodríguez", None),
    (r"Rodr{\'\i}guez", "Rodríguez", None),
    (r"Rodr{\'{\i}}guez", "Rodríguez", None),
    (r"Mart{\'{\i}}n", "Martín", None),  # docs/decisions.md#names-from-real-data
    (r"K{\'{a}}ssio", "Kássio", None),  # latex-decode#10
    (r"\'{A}vila", "Ávila", None),  # biber#76: accent at field start
    (r"\'Avila", "Ávila", None),
    (r"\' e", "é", None),
    (r"caf\'e", "café", None),
    # --- the other symbol accents ---
    (r"\`a la mode", "à la mode", None),
    (r"{\`e}", "è", None),
    (r"\^{o}", "ô", None),
    (r"{\^o}", "ô", None),
    (r"\^\i", "î", None),
    (r"M\"uller", "Müller", None),
    (r"M{\"u}ller", "Müller", None),
    (r"M\"{u}ller", "Müller", None),
    (r"M{\"{u}}ller", "Müller", None),
    (r"na{\"\i}ve", "naïve", None),
    (r"\"{\i}", "ï", None),  # biber#65
    (r"\~{n}", "ñ", None),
    (r"Mu{\~n}oz", "Muñoz", None),
    (r"\={a}", "ā", None),
    (r"Aleksiej{\=u}nas", "Aleksiejūnas", None),  # bbt_import_Unabbreviate_on_import_1436-1.bib
    (r"\.{z}", "ż", None),
    (r"\.Z", "Ż", None),
    (r"(112\=0)", "(1120\u0304)", None),  # Unabbreviate_on_import_1436-1.bib: bar over a digit
    # --- letter accents, braced and space forms ---
    (r"Gon\c{c}alves", "Gonçalves", None),
    (r"Gon\c calves", "Gonçalves", None),  # latexcodec#96 space form
    (r"Gon{\c c}alves", "Gonçalves", None),
    (r"Gon{\c{c}}alves", "Gonçalves", None),
    (r"Fran\c{c}ois", "François", None),
    (r"{\c C}a{\u g}lar", "Çağlar", None),  # BibParser.jl#39
    (r"{\"U}nl{\"u}, {\c C}a{\u g}lar", "Ünlü, Çağlar", None),
    (r"Erd\H{o}s", "Erdős", None),
    (r"Sz\H ol\H o", "Szőlő", None),  # biblib#5
    (r"{\H o}", "ő", None),
    (r"\v{s}", "š", None),
    (r"Dvo\v{r}\'ak", "Dvořák", None),
    (r"Radim {\v R}eh{\r u}{\v r}ek", "Radim Řehůřek", None),  # bbt_import_Wrong_ring-above_import_1115.bib
    (r"Jara{\v s}i{\=u}nas", "Jarašiūnas", None),  # Unabbreviate_on_import_1436-1.bib
    (r"\k{a}", "ą", None),
    (r"{\k e}", "ę", None),
    (r"\u{g}", "ğ", None),
    (r"\r{u}", "ů", None),
    (r"\r u", "ů", None),
    (r"\d{a}", "ạ", None),
    (r"\b{b}", "ḇ", None),
    (r"\t{oo}", "o\u0361o", None),
    (r"\v{\i}", "ǐ", None),
    (r"\^{\j}", "ĵ", None),
    (r"\'{}", "´", None),
    (r"\~{}", "~", None),  # pylatexenc gives '' (docs/decisions.md#tex-decoding)
    (r"\^{}", "^", None),
    (r"\d{}", "\u0323", None),
    # --- special letters ---
    (r"\ss{}", "ß", None),
    (r"Stra\ss e", "Straße", None),
    (r"Stra{\ss}e", "Straße", None),
    (r"{\o}", "ø", None),
    (r"J{\o}rgen", "Jørgen", None),
    (r"\O{}re", "Øre", None),
    (r"{\aa}", "å", None),
    (r"\AA{}ngstr\"om", "Ångström", None),
    (r"Tr{\"a}g{\aa}rdh", "Trägårdh", None),  # Unabbreviate_on_import_1436-1.bib
    (r"{\ae}", "æ", None),
    (r"\AE", "Æ", None),
    (r"{\oe}uvre", "œuvre", None),
    (r"\OE", "Œ", None),
    (r"{\l}", "ł", None),
    (r"\L{}ukasz", "Łukasz", None),
    (r"{\i}", "ı", None),
    (r"\i{}", "ı", None),
    (r"Y\i lmaz", "Yılmaz", None),  # latexcodec#96
    (r"{\j}", "ȷ", None),
    (r"{\dh}", "ð", None),
    (r"\DH", "Ð", None),
    (r"{\th}", "þ", None),
    (r"\TH{}", "Þ", None),
    (r"{\ng}", "ŋ", None),
    (r"\NG", "Ŋ", None),
    (r"{\dj}", "đ", None),
    (r"{\DJ}", "Đ", None),
    (r"Norna Gests \th\'attr", "Norna Gests þáttr", None),  # bbt_export_..._missing_Extra_fields_2816
    # --- escapes ---
    (r"R\&D", "R&amp;D", "R&D"),
    (r"50\%", "50%", None),
    (r"snake\_case", "snake_case", None),
    (r"\#1", "#1", None),
    (r"\$10", "$10", None),  # latexcodec/pybtex keep the backslash
    (r"\{braces\}", "{braces}", None),
    (r"a\ b", "a b", None),
    (r"\textbackslash{}n", "\\n", None),
    (r"\textless{}b\textgreater{}", "&lt;b&gt;", "<b>"),
    (r"a \& b < c", "a &amp; b &lt; c", "a & b < c"),
    (r"\textasciitilde{}user", "~user", None),
    # --- ligatures, quotes, tie ---
    (r"1--10", "1–10", None),
    (r"a---b", "a—b", None),
    (r"``quoted''", "“quoted”", None),
    (r"`single'", "`single'", None),  # unchanged (docs/decisions.md#tex-decoding)
    (r"J.~R.~R. Tolkien", f"J.{NBSP}R.{NBSP}R. Tolkien", None),
    (r"Salvatoris~-- Vom", f"Salvatoris{NBSP}– Vom", None),  # biblatex-examples.bib
    (r"!`Hola!", "¡Hola!", None),
    (r"?`Qu\'e?", "¿Qué?", None),
    (r"-{}-", "--", None),
    (r"Lan\-guage", "Language", None),  # discretionary hyphen, xampl.bib
    # --- \relax, \null and symbols ---
    (r"{\relax Ch}ristensen", "Christensen", None),
    (r"{\relax Ph}ilippe", "Philippe", None),  # bbt_export_Do_not_caps-protect_name_fields
    (r"d'{\null} Este", "d' Este", None),  # same file
    (r"\LaTeX{} and \TeX", "LaTeX and TeX", None),  # pylatexenc drops both
    (r"{\LaTeX}", "LaTeX", None),  # a BibTeX special character: no nocase
    (r"\BibTeX", "BibTeX", None),
    (r"\S 3", "§3", None),
    (r"\S{}3", "§3", None),
    (r"\P 2", "¶2", None),
    (r"\copyright{} 2020", "© 2020", None),
    (r"\textregistered", "®", None),
    (r"\ldots", "…", None),
    (r"\dots{} and", "… and", None),
    (r"Core\textendash{}Shell", "Core–Shell", None),  # Unabbreviate_on_import_1436-1.bib
    (r"V2.42 \textemdash{} a", "V2.42 — a", None),
    (r"\textquotedblleft x\textquotedblright", "“x”", None),
    (r"\pounds 5", "£5", None),
    (r"\texteuro 5", "€5", None),
    (r"AND\slash OR", "AND/OR", None),  # xampl-like AI bibliography in bibtexparser_traps.bib
    (r"\textdoublebarpipe{}Khomani", "ǂKhomani", None),  # bbt_export_Export_U01C2_..._2896.biblatex
    (r"\textbar{} x", "| x", None),
    (r"\guillemotleft x\guillemotright", "«x»", None),
    (r"\alpha", "α", None),  # a text-mode symbol macro from pylatexenc's table
    (r"a\\b", "a b", None),
    (r"first\par second", "first second", None),
    (r"100\,mm", "100\u202fmm", None),
    # --- math stays verbatim ---
    (r"The $x^2$ term", "The $x^2$ term", None),
    (r"$\alpha$-decay", "$\\alpha$-decay", None),
    (r"$\alpha$-entmax", "$\\alpha$-entmax", None),  # issue 3
    (r"$\mathcal{O}(n)$", "$\\mathcal{O}(n)$", None),
    (r"H$_2$O", "H$_2$O", None),
    (r"\(x+y\)", "\\(x+y\\)", None),
    (r"$$E=mc^2$$", "$$E=mc^2$$", None),
    (r"\[a\]", "\\[a\\]", None),
    (r"{Cu$_2$O}", f"{NC}Cu$_2$O</span>", "Cu$_2$O"),  # bbt_import_Failure_to_handle_unparsed_author_names
    (r"$a<b$ \& c", "$a&lt;b$ &amp; c", "$a<b$ & c"),
    (r"$\mathbf{P}^{1}$", "$\\mathbf{P}^{1}$", None),  # pandoc#9616
    (r"{{k$\cdot$p}} Method", "k$\\cdot$p Method", None),
    (r"$-$50\,d{B}", f"$-$50\u202fd{NC}B</span>", "$-$50\u202fdB"),  # bibtexparser_features.bib
    # --- unknown macros stay visible ---
    (r"\unknownmacro{x} y", "\\unknownmacro{x} y", None),
    (r"\cite{foo}", "\\cite{foo}", None),
    (r"see~\cite[p.~3]{foo}", f"see{NBSP}\\cite[p.~3]{{foo}}", None),
    (r"Reprinted in \cite{NONMON}.", "Reprinted in \\cite{NONMON}.", None),  # bibtexparser_traps.bib
    (r"\ref{x}", "\\ref{x}", None),
    (r"\textcite{9.51:2} conducted", "\\textcite{9.51:2} conducted", None),  # BBT #2660 file
    (r"\ocirc{u}", "\\ocirc{u}", None),
    (r"\arabic{author} authors", "\\arabic{author} authors", None),  # biblatex-examples.bib
    (r"\foo", "\\foo", None),
    (r"\'", "\\'", None),
    # --- \url, \href ---
    (r"\url{https://a.b/c_d}", "https://a.b/c_d", None),
    (r"\url{http://example.com/~user}", "http://example.com/~user", None),  # bibtexparser_features.bib
    (r"\url{a\_b\%20}", "a_b%20", None),
    (r"\href{http://x.org}{the site}", "the site", None),
    # --- protective braces and nocase ---
    (r"{NASA} and {B}ayesian", f"{NC}NASA</span> and {NC}B</span>ayesian", "NASA and Bayesian"),
    (r"{DNA}", f"{NC}DNA</span>", "DNA"),
    (r"{{DNA}}", f"{NC}DNA</span>", "DNA"),
    (r"{t}est", "test", None),  # latexcodec#36
    (r"{lower case}", "lower case", None),
    (r"{\'E}cole", "École", None),
    (r"{{\'E}cole}", f"{NC}École</span>", "École"),
    (r"{\"U}ber", "Über", None),
    (
        r"{{Ts’msyen Sm’algyax Authority}}",
        f"{NC}Ts’msyen Sm’algyax Authority</span>",
        "Ts’msyen Sm’algyax Authority",
    ),
    (r"{G{\'{e}}rard} {Ben Arous}", f"{NC}Gérard</span> {NC}Ben Arous</span>", "Gérard Ben Arous"),
    (r"{{Collective Mind, Part II}}", f"{NC}Collective Mind, Part II</span>", "Collective Mind, Part II"),
    (r"{{CASINO}}: {{A}} New", f"{NC}CASINO</span>: {NC}A</span> New", "CASINO: A New"),
    (r"{unbalanced", "unbalanced", None),
    (r"x}y", "x}y", None),
    (r"x}y \'e", "x}y é", None),
    (r"{}", "", None),
    # --- formatting macros → rich text ---
    (r"\textit{in vivo}", "<i>in vivo</i>", "in vivo"),
    (r"\emph{x}", "<i>x</i>", "x"),
    (r"\textbf{y}", "<b>y</b>", "y"),
    (r"\textsc{z}", f"{SC}z</span>", "z"),
    (r"5\textsuperscript{th}", "5<sup>th</sup>", "5th"),
    (r"CO\textsubscript{2}", "CO<sub>2</sub>", "CO2"),
    (r"{\it Drosophila} flies", f"{NC}<i>Drosophila</i></span> flies", "Drosophila flies"),
    (r"{\em see} it", "<i>see</i> it", "see it"),
    (r"{\bf bold} x", "<b>bold</b> x", "bold x"),
    (r"{\sc CONNIVER}", f"{NC}{SC}CONNIVER</span></span>", "CONNIVER"),  # BBT #871 file
    (r"\textit{\textbf{x}}", "<i><b>x</b></i>", "x"),
    (r"\textit{DNA}", "<i>DNA</i>", "DNA"),
    (r"\textit{{DNA}}", f"<i>{NC}DNA</span></i>", "DNA"),
    (r"\textup{The good place} ends", "The good place ends", None),  # BBT #2660 file
    (r"\texttt{crossref}", "crossref", None),
    (r"\mbox{x y}", "x y", None),
    (r"\mkbibquote{Intention} und", "“Intention” und", None),  # biblatex-examples.bib
    (r"\mkbibemph{amici curiae}", "<i>amici curiae</i>", "amici curiae"),
    (r"\autocap{e}xcerpt", "excerpt", None),
    (r"\textit{}", "", None),
    # an empty formatting macro leaves no tag and no double or outer space
    (r"a \textit{} b", "a b", None),
    (r"a \textit{ } b \textbf{}", "a b", None),
    (r"\textit{} {DNA} x", f"{NC}DNA</span> x", "DNA x"),
    (r"\textit{\textbf{}} x", "x", None),
    (
        r"{{Al{\textsubscript{0.4}}Ga{\textsubscript{0.6}}As}}",
        f"{NC}Al<sub>0.4</sub>Ga<sub>0.6</sub>As</span>",
        "Al0.4Ga0.6As",
    ),  # Unabbreviate_on_import_1436-1.bib
    # --- superscripts and subscripts outside math stay as written (arXiv abstracts) ---
    # arxivpy2026_id_astro-ph_0601001.xml
    (r"(1/310)(1^{+1.39}_{-0.59}) for", "(1/310)(1^{+1.39}_{-0.59}) for", None),
    (r"M_{BH} and 10^{-4}", "M_{BH} and 10^{-4}", None),  # no nocase span: not a protective group
    (r"T^{\rm eff}_{\odot} x", r"T^{\rm eff}_{\odot} x", None),
    (r"a^{b^{c^{d}}} \unknown", r"a^{b^{c^{d}}} \unknown", None),  # deeper than the fast path: parser
    (r"10^\circ C", r"10^\circ C", None),
    ("a^b x_1 snake_case", "a^b x_1 snake_case", None),
    (r"file\_{}name e\{_\}0", "file_name e{_}0", None),  # an escaped underscore is text
    (r"{M_{BH}} mass", f"{NC}M_{{BH}}</span> mass", "M_{BH} mass"),
    (r"x^{a\&b}", "x^{a\\&amp;b}", "x^{a\\&b}"),
    # --- whitespace and percent ---
    ("a\n   b\t c", "a b c", None),
    ("  padded  ", "padded", None),
    (f"keep{NBSP}", f"keep{NBSP}", None),
    ("50% off", "50% off", None),  # BibTeX has no comments inside values
    (r"50% of {\'e}t\'e", "50% of été", None),
    # --- no TeX at all ---
    ("Journal of Things", "Journal of Things", None),
    ("Rodríguez & Co <x>", "Rodríguez &amp; Co &lt;x&gt;", "Rodríguez & Co <x>"),
    ("10.1000/xyz", "10.1000/xyz", None),
]


@pytest.mark.parametrize(("tex", "rich", "plain"), DECODE_CASES)
def test_decode(tex: str, rich: str, plain: str | None) -> None:
    assert decode(tex) == rich
    assert decode(tex, markup=False) == (rich if plain is None else plain)
    assert strip_markup(decode(tex)) == decode(tex, markup=False)


def test_table_size() -> None:
    assert len(DECODE_CASES) >= 150


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain title", False),
        ("10.1000/xyz-1", False),
        ("Rodríguez", False),
        (r"Rodr\'iguez", True),
        ("{DNA}", True),
        ("$x$", True),
        ("a~b", True),
        ("1--2", True),
        ("``q''", True),
        ("it's", False),
    ],
)
def test_has_tex(text: str, expected: bool) -> None:
    assert has_tex(text) is expected
    if not expected:
        assert decode(text, markup=False) == text


def test_strip_and_escape_markup() -> None:
    assert strip_markup('<i>a</i> &amp; <span class="nocase">B</span> &lt;3') == "a & B <3"
    assert strip_markup("no markup") == "no markup"
    assert escape_markup("a < b & c") == "a &lt; b &amp; c"


# --- encoding ---------------------------------------------------------------------------------

ENCODE_CASES: list[tuple[str, str, str]] = [
    # (record text, UTF-8 BibTeX, ASCII BibTeX)
    ("Rodríguez", "Rodríguez", r"Rodr{\'{i}}guez"),  # pylatexenc#107: never {\'\i}
    ("François", "François", r"Fran{\c{c}}ois"),  # latexcodec#96: never \c c
    ("Dvořák", "Dvořák", r"Dvo{\v{r}}{\'{a}}k"),
    ("Erdős", "Erdős", r"Erd{\H{o}}s"),
    ("Müller", "Müller", r"M{\"{u}}ller"),
    ("Straße", "Straße", r"Stra{\ss}e"),
    ("Łukasz Øre Åsa æ œ ı", "Łukasz Øre Åsa æ œ ı", r"{\L}ukasz {\O}re {\AA}sa {\ae} {\oe} {\i}"),
    ("Þór ð ŋ Đ", "Þór ð ŋ Đ", r"{\TH}{\'{o}}r {\dh} {\ng} {\DJ}"),
    ("naïve", "naïve", r"na{\"{i}}ve"),
    # letters pdflatex cannot set with T1 fonts are TeX in UTF-8 output too
    ("Ặ", r"{\u{\d{A}}}", r"{\u{\d{A}}}"),
    ("ǿ", r"{\'{\o}}", r"{\'{\o}}"),
    ("R&D 50% $5 #1 a_b", r"R\&D 50\% \$5 \#1 a\_b", r"R\&D 50\% \$5 \#1 a\_b"),
    ("R&amp;D &lt;x&gt;", r"R\&D <x>", r"R\&D <x>"),
    ("{braces}", r"\{braces\}", r"\{braces\}"),
    ("paired { or }", r"paired \{ or \}", r"paired \{ or \}"),
    # a lone brace: BibTeX counts ``\{`` as a brace, so it is a special character instead
    ("} and {", r"{\textbraceright} and {\textbraceleft}", r"{\textbraceright} and {\textbraceleft}"),
    ("{a {b} c", r"{\textbraceleft}a \{b\} c", r"{\textbraceleft}a \{b\} c"),
    ("<i>{</i>}", r"\textit{\{}\}", r"\textit{\{}\}"),
    ("$\\}$ x", r"\$\textbackslash{}{\textbraceright}\$ x", r"\$\textbackslash{}{\textbraceright}\$ x"),
    ("\ufdd4x\ufdd5", "x", "x"),  # the noncharacters used for pairing are removed
    ("a~b^c\\d", r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}d", ""),
    (f"J.{NBSP}R.", "J.~R.", "J.~R."),
    ("1--10", "1-{}-10", "1-{}-10"),
    ("1–10 a—b “q” ‘s’", "1–10 a—b “q” ‘s’", "1--10 a---b {``}q{''} {\\textquoteleft}s{\\textquoteright}"),
    ("``x''", "`{}`x'{}'", "`{}`x'{}'"),
    ("a---b x```y", "a-{}-{}-b x`{}`{}`y", "a-{}-{}-b x`{}`{}`y"),
    ("–– -– !“", "–– -– !“", "{--}{--} -{--} !{``}"),
    ("§3 © … «x»", "§3 © … «x»", r"{\S}3 {\textcopyright} {\ldots} {\guillemotleft}x{\guillemotright}"),
    ("$\\alpha$-entmax", "$\\alpha$-entmax", "$\\alpha$-entmax"),
    ("H$_2$O and \\(x\\)", "H$_2$O and \\(x\\)", "H$_2$O and \\(x\\)"),
    ("$a&lt;b$", "$a<b$", "$a<b$"),
    ("from $10 to $20", r"from \$10 to \$20", r"from \$10 to \$20"),
    ("$ x$", r"\$ x\$", r"\$ x\$"),
    ("$a}$", r"\$a{\textbraceright}\$", r"\$a{\textbraceright}\$"),
    ("see \\cite{foo}", "see \\cite{foo}", "see \\cite{foo}"),
    ("\\cite[p.~3]{foo}", "\\cite[p.~3]{foo}", "\\cite[p.~3]{foo}"),
    # a command not on the allowlist prints as text (record text must not act in a LaTeX run)
    ("\\unknownmacro{x} y", r"\textbackslash{}unknownmacro\{x\} y", r"\textbackslash{}unknownmacro\{x\} y"),
    ("$\\UseName{x}$ \\AtEnd{y}", r"\$\textbackslash{}UseName\{x\}\$ \textbackslash{}AtEnd\{y\}", ""),
    ("\\bad{", r"\textbackslash{}bad{\textbraceleft}", r"\textbackslash{}bad{\textbraceleft}"),
    ("\\foo bar", r"\textbackslash{}foo bar", r"\textbackslash{}foo bar"),
    (f"{NC}DNA</span> repair", "{DNA} repair", "{DNA} repair"),
    ("<i>in vivo</i>", r"\textit{in vivo}", r"\textit{in vivo}"),
    ("<b>x</b> <sup>th</sup> <sub>2</sub>", r"\textbf{x} \textsuperscript{th} \textsubscript{2}", ""),
    (f"{SC}Abc</span>", r"\textsc{Abc}", r"\textsc{Abc}"),
    (f"<i>{NC}É</span></i>", r"\textit{{É}}", r"\textit{{{\'{E}}}}"),
    ("<i>unclosed", r"\textit{unclosed}", r"\textit{unclosed}"),
    ("stray</i> close", "stray</i> close", "stray</i> close"),
    ("张伟", "张伟", "张伟"),
    ("α-decay", r"{\ensuremath{\alpha}}-decay", r"{\ensuremath{\alpha}}-decay"),
    # superscripts and subscripts outside math are TeX, as decoding keeps them
    (
        "(1^{+1.39}_{-0.59})",
        r"(1\ensuremath{^{+1.39}}\ensuremath{_{-0.59}})",
        r"(1\ensuremath{^{+1.39}}\ensuremath{_{-0.59}})",
    ),
    (
        "M_{BH} of 10^\\circ",
        r"M\ensuremath{_{BH}} of 10\ensuremath{^\circ}",
        r"M\ensuremath{_{BH}} of 10\ensuremath{^\circ}",
    ),
    ("x^{a} é^{2}", r"x\ensuremath{^{a}} é\ensuremath{^{2}}", r"x\ensuremath{^{a}} {\'{e}}\ensuremath{^{2}}"),
    ("a^b snake_case", r"a\textasciicircum{}b snake\_case", r"a\textasciicircum{}b snake\_case"),
    (
        "a^{b and c_{",
        r"a\textasciicircum{}{\textbraceleft}b and c\_{\textbraceleft}",
        r"a\textasciicircum{}{\textbraceleft}b and c\_{\textbraceleft}",
    ),
    ("a^{<i>b</i>}", r"a\textasciicircum{}\{\textit{b}\}", r"a\textasciicircum{}\{\textit{b}\}"),
]


# Inputs that are not canonical rich text (a raw ``&``, broken tags) are still encoded safely;
# what decoding gives back is the canonical form.
NOT_CANONICAL = {
    "R&D 50% $5 #1 a_b": "R&amp;D 50% $5 #1 a_b",
    "<i>unclosed": "<i>unclosed</i>",
    "stray</i> close": "stray&lt;/i&gt; close",
    "\ufdd4x\ufdd5": "x",
}


@pytest.mark.parametrize(("text", "utf8", "ascii_tex"), ENCODE_CASES)
def test_encode(text: str, utf8: str, ascii_tex: str) -> None:
    assert encode(text) == utf8
    if ascii_tex:
        assert encode(text, ascii=True) == ascii_tex


def test_encode_ascii_warns_and_keeps_unknown_characters() -> None:
    warnings: list[str] = []
    assert encode("Sơn 张", ascii=True, warn=warnings.append) == "Sơn 张"
    assert warnings == [
        "no TeX form for 'ơ' (U+01A1); kept as UTF-8",
        "no TeX form for '张' (U+5F20); kept as UTF-8",
    ]
    assert encode("Sơn", ascii=True) == "Sơn"  # no callback: still kept, no exception


@pytest.mark.parametrize(("text", "utf8", "ascii_tex"), ENCODE_CASES)
def test_decode_reads_encode_back(text: str, utf8: str, ascii_tex: str) -> None:
    if text in NOT_CANONICAL:
        assert decode(utf8) == NOT_CANONICAL[text]
        return
    assert decode(utf8) == text
    if ascii_tex:
        assert decode(ascii_tex) == text


# --- case protection --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "protected"),
    [
        ("Attention Is All You Need", "Attention {Is} {All} {You} {Need}"),
        (
            "BERT: Pre-training of Deep Bidirectional Transformers",
            "{BERT}: Pre-training of {Deep} {Bidirectional} {Transformers}",
        ),
        ("A study of DNA repair", "A study of {DNA} repair"),
        ("On iPhone usage", "On {iPhone} usage"),
        ("CamelCase names", "{CamelCase} names"),
        ("Bayesian inference", "Bayesian inference"),
        ("inference, Bayesian style", "inference, {Bayesian} style"),
        ("Models (Bayesian).", "Models ({Bayesian})."),
        ("Already {DNA} and {Bayesian}", "Already {DNA} and {Bayesian}"),
        ("{Fully protected Title}", "{Fully protected Title}"),
        ("{{Double}} braces", "{{Double}} braces"),
        ("Über {\\'E}cole", "Über {{\\'E}cole}"),
        ("Using \\LaTeX{} well", "Using {\\LaTeX{}} well"),
        ("\\textit{Drosophila} genes", "\\textit{Drosophila} genes"),
        ("The $X$ factor", "The {$X$} factor"),
        ("Two sentences: Another one", "Two sentences: Another one"),
        ("lowercase start Word", "lowercase start {Word}"),
        ("x", "x"),
        ("", ""),
        # punctuation-only words were doubled (``0 "`` became ``0 ""``)
        ('0 "', '0 "'),
        ('"', '"'),
        ("Say (", "Say ("),
        ('A "Quoted" Word', 'A "{Quoted}" {Word}'),
        # a special character's letters change case: ``{\textbackslash{}A}`` protects nothing
        ("x \\textbackslash{}AB", "x {{\\textbackslash{}AB}}"),
        # math and groups across words, a control word ended by a space, a group after an unknown macro
        ("On $a B$ Models", "On $a B$ {Models}"),
        ("x A\\OE y", "x A\\OE y"),
        ("x A\\OE, y", "x {A\\OE}, y"),
        ("x \\foo{a} Bar", "x \\foo{a} Bar"),
        ("x \\foo Bar", "x \\foo Bar"),
        # pylatexenc reads a control word's letters as Unicode letters: ``\OEAÉ`` takes ``{A}`` as argument
        ("\\OEAÉ A", "\\OEAÉ A"),
        ("x AB\\", "x AB\\"),
        ("x {A b} Cd}", "x {A b} Cd}"),
    ],
)
def test_protect_case(title: str, protected: str) -> None:
    assert protect_case(title, "all") == protected
    assert protect_case(protected, "all") == protected  # never double-protected


@pytest.mark.parametrize(
    ("title", "protected"),
    [
        ("Crystal Phase Quantum Dots", "Crystal Phase Quantum Dots"),
        ("Taming CPU-GPU Coupling for LLM Inference", "Taming {CPU-GPU} Coupling for {LLM} Inference"),
        (
            "The iPhone and the Pre-Training of BERT: A Study",
            "The {iPhone} and the {Pre-Training} of {BERT}: A Study",
        ),
        (r"{\'E}tudes on {DNA} in Bayesian Models", r"{\'E}tudes on {DNA} in Bayesian Models"),
    ],
)
def test_protect_case_acronyms_only_by_default(title: str, protected: str) -> None:
    assert protect_case(title) == protected
    assert protect_case(protected) == protected
    assert protect_case(title, "none") == title


# --- properties: decode(encode(s)) == s ---------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LATIN = "".join(chr(c) for c in range(0x20, 0x7F)) + "".join(chr(c) for c in range(0xC0, 0x180) if c != 0xD7)
_PUNCT = "–—“”‘’…§©«»¡¿°€£\u00a0"
_plain_chars = st.text(alphabet=_LATIN + _PUNCT, min_size=1, max_size=12)


def _normal(text: str) -> str:
    """Text as decode returns it: single ASCII spaces, no space at the ends."""
    return " ".join(text.split(" ")).strip(" ") if text else text


_words = st.lists(_plain_chars.map(lambda s: " ".join(s.split())), min_size=1, max_size=4).map(" ".join)
_math = st.sampled_from(["$\\alpha$", "$\\beta_2$", "$x^2$", "$\\mathcal{O}(n)$", "$\\Gamma$", "$a&lt;b$"])
_upper_word = st.from_regex(r"[A-Z][A-Za-z0-9]{0,5}", fullmatch=True)


def _rich(leaf: st.SearchStrategy[str], nocase: bool) -> st.SearchStrategy[str]:
    base = st.one_of(leaf.map(escape_markup), _math)
    tagged = st.tuples(st.sampled_from(["i", "b", "sup", "sub"]), base).map(
        lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"
    )
    parts = [base, tagged]
    if nocase:
        parts.append(_upper_word.map(lambda w: f"{NC}{w}</span>"))
    return st.lists(st.one_of(*parts), min_size=1, max_size=5).map(" ".join)


_MATH_WRITTEN_ANEW_RE = re.compile(r"\$[^$]*[&%#\u0080-\U0010ffff][^$]*\$")


def _math_kept(text: str) -> bool:
    """Whether no math span holds what the encoder writes anew: ``& % #`` (escaped) or a character
    outside ASCII (a command, or in ``\\text``; see tests/test_charset.py), which math reads back as."""
    return _MATH_WRITTEN_ANEW_RE.search(text) is None


def _canonical(text: str) -> bool:
    """Rich text as decode writes it: single spaces (in the text and around tags), no empty tags."""
    plain = strip_markup(text)
    return plain == " ".join(plain.split()) and not re.search(r"<(i|b|sup|sub)>\s*</\1>", text)


@settings(max_examples=300, deadline=None)
@given(_words)
def test_roundtrip_plain_text(text: str) -> None:
    text = escape_markup(" ".join(text.split()))
    if not text or not _math_kept(text):
        return
    assert decode(encode(text)) == text
    assert decode(encode(text, ascii=True)) == text


@settings(max_examples=200, deadline=None)
@given(_rich(_words, nocase=True))
def test_roundtrip_rich_text_and_math(text: str) -> None:
    if not _canonical(text) or not _math_kept(text):
        return
    assert decode(encode(text)) == text
    assert decode(encode(text, ascii=True)) == text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_encode_output_is_balanced_and_decodes(text: str) -> None:
    for value in (encode(text), encode(text, ascii=True), encode(text, markup=False)):
        depth = literal = 0  # as TeX and bibtexparser count, and as BibTeX counts (``\{`` too)
        escaped = False
        for ch in value:
            literal += {"{": 1, "}": -1}.get(ch, 0)
            assert literal >= 0, value
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                assert depth >= 0
        assert depth == 0
        assert literal == 0, value
        decode(value)
        decode(value, markup=False)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_LATIN + "{}\\$~%&_^'`-éü\n", max_size=40))
def test_decode_never_fails(text: str) -> None:
    rich = decode(text)
    assert strip_markup(rich) == decode(text, markup=False)
    assert "\ufdd0" not in rich


_NOCASE_TAG_RE = re.compile(r"<span[^>]*>|</span>")


def _without_nocase(rich: str) -> str:
    """Rich text with its ``nocase`` spans unwrapped (other spans kept)."""
    out: list[str] = []
    stack: list[bool] = []
    pos = 0
    for m in _NOCASE_TAG_RE.finditer(rich):
        out.append(rich[pos : m.start()])
        pos = m.end()
        if m[0] != "</span>":
            stack.append("nocase" in m[0])
            if not stack[-1]:
                out.append(m[0])
        elif stack and not stack.pop():
            out.append(m[0])
    out.append(rich[pos:])
    return "".join(out)


_TEX_TOKENS = st.one_of(
    st.text(alphabet="aAbBzZéÉ\"'():;.,!?-0123456789 ", min_size=1, max_size=6),
    st.sampled_from(
        [
            *("{DNA}", "$x^2$", "$a B$", "\\'E", "{\\'E}", "\\textit{Word}", "\\LaTeX{}", "\\&", "\\$"),
            *("{\\AE}", "\\ss{}", "--", " ", ": ", "{A b}", "\\emph{Big Data}", "\\OE", "\\i", "\\foo{x}"),
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aAbBzZ éÉ\"'():;.,!?-{}$\\^_~&%#0123456789", max_size=30))
def test_protect_case_keeps_the_text(text: str) -> None:
    """Protection adds braces only: the value decodes to the same text, modulo ``nocase`` spans."""
    for tex in (encode(text, markup=False), encode(escape_markup(text))):
        protected = protect_case(tex)
        assert protect_case(protected) == protected
        assert _without_nocase(decode(protected)) == _without_nocase(decode(tex)), (tex, protected)
        assert decode(protected, markup=False) == decode(tex, markup=False)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="aAzZéÉßǅİ日-", min_size=1, max_size=12).filter(lambda w: w[0] != "-"),
    st.sampled_from(["", ",", ":", ".)", "'\"", "!?"]),
    st.booleans(),
)
def test_protect_case_reads_plain_words_as_every_word(word: str, trail: str, first: bool) -> None:
    """A word of letters and hyphens (the common case) is braced as the same word after an
    opening parenthesis is, which goes through the character-by-character reading."""
    before = "" if first else "x "
    plain = protect_case(f"{before}{word}{trail} y")
    after_parenthesis = protect_case(f"{before}({word}{trail} y")
    assert after_parenthesis == (plain.replace(before, before + "(", 1) if before else "(" + plain)
    assert protect_case(plain) == plain


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEX_TOKENS, max_size=8).map("".join))
def test_protect_case_keeps_raw_tex(tex: str) -> None:
    protected = protect_case(tex)
    assert protect_case(protected) == protected
    assert _without_nocase(decode(protected)) == _without_nocase(decode(tex)), (tex, protected)


def test_lone_braces_pass_bibtex_and_biber(tmp_path: Path) -> None:
    """``bibtex`` and ``biber`` read encoded lone braces without error; initials stay one letter."""
    import subprocess

    from tests.tools import require_tool

    values = ["} and {", "a { b", "{x} }y{", "$\\}$", "Set {1, 2"]
    entries = [
        f"@misc{{k{i},\n  author = {{Doe, {encode(v, markup=False)}Jane and {{{encode(v)}}}}},\n"
        f"  title = {{{protect_case(encode(v))} Title}},\n  year = {{2020}},\n}}\n"
        for i, v in enumerate(values)
    ]
    (tmp_path / "refs.bib").write_text("\n".join(entries), encoding="utf-8")
    (tmp_path / "doc.aux").write_text("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{abbrv}\n", encoding="utf-8")
    done = subprocess.run([require_tool("bibtex"), "doc"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    assert "Warning" not in done.stdout, done.stdout
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == len(values)
    assert "{\\textbraceright}.~Doe" in bbl  # the initial of ``{\textbraceright} and …``
    done = subprocess.run(
        [
            require_tool("biber"),
            "--tool",
            "--output-file",
            str(tmp_path / "out.bib"),
            str(tmp_path / "refs.bib"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout
    assert "ERROR" not in done.stdout, done.stdout
    assert "WARN" not in done.stdout, done.stdout
    assert (tmp_path / "out.bib").read_text(encoding="utf-8").count("{\\textbraceleft}") >= 4


# --- real .bib values ---------------------------------------------------------------------------

from pathlib import Path  # noqa: E402

from tests.golden import samples, written  # noqa: E402

# Every BibTeX input and what bibconv wrote of them; the stand-in of an absent shared folder is kept
# so that the tests over the real files are reported as skipped.
_BIB_FILES = [p for p in samples("bibtex", "") if ".bib" in p.name or not p.exists()]
_BIB_FILES += written("bibtex", ".bib", ".biblatex")
_CONTROL_WORD_RE = re.compile(r"(?<!\\)(?:\\\\)*\\([A-Za-z]+)")


def _values(path: Path) -> list[str]:
    import bibtexparser

    library = bibtexparser.parse_string(path.read_text(encoding="utf-8", errors="replace"))
    return [str(f.value) for entry in library.entries for f in entry.fields]


@pytest.mark.shared
def test_real_files_present() -> None:
    assert len(_BIB_FILES) >= 40


_QUOTE_LIKE = str.maketrans({"\u02bc": "\u2019", "\u02bb": "\u2018"})


@pytest.mark.parametrize("path", _BIB_FILES, ids=lambda p: p.name[:40])
def test_real_values_decode_and_reencode(path: Path) -> None:
    from bibconv.latex import is_known_macro

    for value in _values(path):
        rich = decode(value)
        assert "\ufdd0" not in rich
        assert strip_markup(rich) == decode(value, markup=False)
        # Re-encoding a decoded value reads back the same, in both output modes (but for math the
        # encoder writes anew).
        if _math_kept(rich):  # modifier apostrophes come back as the quotes they print as
            printed = rich.translate(_QUOTE_LIKE)
            assert decode(encode(rich)) == printed, value
            assert decode(encode(rich, ascii=True)) == printed, value
        # A macro decoding does not know stays visible.
        for name in _CONTROL_WORD_RE.findall(value):
            assert is_known_macro(name) or "\\" + name in rich, (name, value)
        if not has_tex(value):
            assert decode(value, markup=False) == " ".join(value.split())
