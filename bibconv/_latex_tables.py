"""Tables shared by :mod:`bibconv.latex`: TeX accents, special letters, symbols, markup macros."""

from __future__ import annotations

# Accent commands and the combining mark each one adds (applied, then NFC-composed).
ACCENTS: dict[str, str] = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
    "t": "\u0361",
    "G": "\u030f",
    "U": "\u030e",
    "h": "\u0309",
    "f": "\u0311",
}
COMBINING_TO_ACCENT: dict[str, str] = {mark: cmd for cmd, mark in ACCENTS.items() if cmd not in "GUhf"}

# Control words that stand for one letter (``\ss``, ``{\o}``).
LETTERS: dict[str, str] = {
    "ss": "ß",
    "SS": "SS",
    "o": "ø",
    "O": "Ø",
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "dh": "ð",
    "DH": "Ð",
    "th": "þ",
    "TH": "Þ",
    "ng": "ŋ",
    "NG": "Ŋ",
    "dj": "đ",
    "DJ": "Đ",
}

# Letters written with a special control word when encoding (others use accents).
LETTER_TO_TEX: dict[str, str] = {v: k for k, v in LETTERS.items() if k != "SS"}

# Control symbols and words that stand for a symbol; checked before pylatexenc's table.
SYMBOLS: dict[str, str] = {
    "&": "&",
    "%": "%",
    "$": "$",
    "#": "#",
    "_": "_",
    "{": "{",
    "}": "}",
    " ": " ",
    ",": "\u202f",
    "-": "",
    "/": "",
    "@": "",
    "relax": "",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2ε",
    "TeX": "TeX",
    "BibTeX": "BibTeX",
    "XeTeX": "XeTeX",
    "LuaTeX": "LuaTeX",
    "S": "§",
    "P": "¶",
    "copyright": "©",
    "textcopyright": "©",
    "pounds": "£",
    "textsterling": "£",
    "texteuro": "€",
    "euro": "€",
    "textless": "<",
    "textgreater": ">",
    "textbar": "|",
    "textbackslash": "\\",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textunderscore": "_",
    "textendash": "–",
    "textemdash": "—",
    "textquoteleft": "‘",
    "textquoteright": "’",
    "textquotedblleft": "“",
    "textquotedblright": "”",
    "textquotedbl": '"',
    "textdegree": "°",
    "textregistered": "®",
    "texttrademark": "™",
    "textellipsis": "…",
    "ldots": "…",
    "dots": "…",
    "textperiodcentered": "·",
    "textbullet": "•",
    "guillemotleft": "«",
    "guillemotright": "»",
    "guilsinglleft": "‹",
    "guilsinglright": "›",
    "quad": "\u2003",
    "qquad": "\u2003\u2003",
    "textexclamdown": "¡",
    "textquestiondown": "¿",
    "nobreakspace": "\u00a0",
}

# Symbols written back as a braced control word in ASCII output.
SYMBOL_TO_TEX: dict[str, str] = {
    "§": "\\S",
    "¶": "\\P",
    "©": "\\textcopyright",
    "£": "\\pounds",
    "€": "\\texteuro",
    "°": "\\textdegree",
    "®": "\\textregistered",
    "™": "\\texttrademark",
    "…": "\\ldots",
    "·": "\\textperiodcentered",
    "•": "\\textbullet",
    "«": "\\guillemotleft",
    "»": "\\guillemotright",
    "‹": "\\guilsinglleft",
    "›": "\\guilsinglright",
    "¡": "\\textexclamdown",
    "¿": "\\textquestiondown",
}

# Punctuation written as TeX ligatures in ASCII output.
PUNCT_TO_TEX: dict[str, str] = {
    "–": "--",
    "—": "---",
    "“": "``",
    "”": "''",
    "‘": "`",
    "’": "'",
}

# Ligatures TeX makes from ASCII characters in text mode.
LIGATURES: dict[str, str] = {"---": "—", "--": "–", "``": "“", "''": "”", "!`": "¡", "?`": "¿"}

# Formatting macros with one argument → CSL rich-text tag (``None``: plain content).
MARKUP_MACROS: dict[str, str | None] = {
    "textit": "i",
    "emph": "i",
    "textsl": "i",
    "textbf": "b",
    "textsc": "sc",
    "textsuperscript": "sup",
    "textsubscript": "sub",
    "textrm": None,
    "textsf": None,
    "texttt": None,
    "textup": None,
    "textmd": None,
    "textnormal": None,
    "text": None,
    "mbox": None,
    "hbox": None,
    "NoCaseChange": None,
    "ensuremath": None,
}

# Declarations that format the rest of their group (``{\it text}``).
MARKUP_SWITCHES: dict[str, str | None] = {
    "it": "i",
    "itshape": "i",
    "em": "i",
    "sl": "i",
    "slshape": "i",
    "bf": "b",
    "bfseries": "b",
    "sc": "sc",
    "scshape": "sc",
    "rm": None,
    "rmfamily": None,
    "upshape": None,
    "normalfont": None,
    "sf": None,
    "sffamily": None,
    "tt": None,
    "ttfamily": None,
    "mdseries": None,
}

# CSL rich-text tags: name → (opening tag, closing tag, TeX macro for encoding).
TAGS: dict[str, tuple[str, str, str]] = {
    "i": ("<i>", "</i>", "\\textit"),
    "b": ("<b>", "</b>", "\\textbf"),
    "sc": ('<span style="font-variant:small-caps;">', "</span>", "\\textsc"),
    "sup": ("<sup>", "</sup>", "\\textsuperscript"),
    "sub": ("<sub>", "</sub>", "\\textsubscript"),
    "nocase": ('<span class="nocase">', "</span>", ""),
}

# Macros kept verbatim with their arguments (references, citations); their argument specs.
VERBATIM_MACROS: dict[str, str] = {
    "cite": "*[[{",
    "citep": "*[[{",
    "citet": "*[[{",
    "citeauthor": "*[[{",
    "citeyear": "*[[{",
    "parencite": "*[[{",
    "textcite": "*[[{",
    "autocite": "*[[{",
    "nocite": "{",
    "ref": "*{",
    "eqref": "{",
    "pageref": "*{",
    "autoref": "*{",
    "cref": "*{",
    "Cref": "*{",
    "label": "{",
    "footnote": "[{",
    "thanks": "{",
}
