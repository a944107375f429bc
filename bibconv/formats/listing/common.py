"""What the listing readers (``html``, ``text``) share: text values, author lines, bylines, records.

Listings show text as people read it: titles and abstracts copied from arXiv may still hold
raw TeX (``Pau Rodr\\'iguez``, ``$\\alpha$-entmax``), other pages hold plain text. Values
become record rich text here: TeX commands are decoded (math stays verbatim), anything
else is only escaped. An abstract cut short by the listing (ending in ``…`` or ``...``)
is kept exactly as shown and the record says so in bibconv's own note (:mod:`bibconv.facts`), which
every output format keeps where no style prints it, so that nobody takes it for the whole abstract.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from bibconv import facts
from bibconv.dates import parse_date, search_date
from bibconv.facts import MORE_AUTHORS_NOTE, TRUNCATED_NOTE
from bibconv.formats.listing.memo import per_item
from bibconv.model import Arxiv, Date, Name, Record, SourceSpan

__all__ = [
    "MORE_AUTHORS_NOTE",
    "TRUNCATED_NOTE",
    "Byline",
    "Entry",
    "author_list",
    "authors_from_text",
    "clean_space",
    "looks_like_names",
    "parse_byline",
    "plain_name",
    "rich_text",
]


# Math spans; \(…\) holds no \( (nor \[…\] a \[), so that a span left open is scanned once.
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$|\\\((?:[^\\]|\\[^(])+?\\\)|\\\[(?:[^\\]|\\[^\[])+?\\\]", re.DOTALL)
_TEX_OUTSIDE_MATH = re.compile(r"\\(?:[A-Za-z]+|['`^\"~=.%&$#_{}])|[{}]")
_TEX_COMMAND = re.compile(r"\\(?:[A-Za-z]+|['`^\"~=.%&$#_{}])")
_TEX_BESIDE_BRACES = re.compile(r"\\|\{[^{}\s]\}|--|``|''")
_TRUNCATED = re.compile(r"(?:…|\.\.\.)\s*$")
_BYLINE_SEPARATORS = " \t·•|—–-,;:("
_FOUR_DIGITS = re.compile(r"\d{4}")
_YEAR = re.compile(r"1[5-9]\d\d|2\d\d\d")
_BEFORE_YEAR = re.compile(r"[\s(\[·•|—–,-]")
_WORD_CHAR = re.compile(r"\w")
_NAME_WORD = re.compile(r"^-?(?:[^\W\d_][\w'’.\-]*|[^\W\d_]\.?)$")
_LOWER_PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "dos", "das", "la", "le", "ter",
     "ten", "bin", "al", "el", "y", "e", "zu", "af", "av", "and", "und", "et"}
)  # fmt: skip
_LABELS = re.compile(
    r"^\s*(?:authors?|auteur(?:e)?s?|autor(?:e|es|en|in|innen)?|autori|by|par|von|door|著者|作者|저자)"
    r"\s*[:：]\s*",
    re.IGNORECASE,
)


def clean_space(text: str) -> str:
    """Collapse runs of white space (newlines included) to one space, trimmed."""
    return " ".join(text.split())  # str.split and a regex's \s know the same white space


def _has_tex(text: str) -> bool:
    if "\\" not in text and "{" not in text and "}" not in text:
        return False
    return _TEX_OUTSIDE_MATH.search(_MATH.sub("", text)) is not None


def _reads_as_tex(text: str) -> bool:
    """Whether text holds TeX outside math: a command, or braces beside other TeX (a backslash,
    a one-character group such as ``{-}`` or ``{à}``, TeX's ``--``, ````` or ``''``)."""
    if "\\" not in text and "{" not in text and "}" not in text:
        return False
    outside = _MATH.sub("", text)
    if _TEX_COMMAND.search(outside):
        return True
    return ("{" in outside or "}" in outside) and _TEX_BESIDE_BRACES.search(outside) is not None


def rich_text(text: str, *, tex: bool = False) -> str:
    """Plain listing text → record rich text, TeX decoded where the text reads as TeX. Braces
    alone are the page's own characters (``the set {1, 2}``, ``{ return x; }``) and are kept.
    ``tex``: the text is TeX by its source (arXiv's metadata), so its ligatures are TeX's too."""
    from bibconv import latex

    text = clean_space(text)
    if _reads_as_tex(text):
        return latex.decode(text)
    return tex_ligatures(latex.escape_markup(text)) if tex else latex.escape_markup(text)


_LIGATURE_RE = re.compile(r"---|--|``|''")
_OUTSIDE_MATH_RE = re.compile(r"(\$[^$]*\$|<[^>]*>)")


def tex_ligatures(rich: str) -> str:
    """``--``, ``---``, ````` `` `````, ``''`` in rich text as TeX typesets them (–, —, “, ”), outside math
    and tags: arXiv's titles and abstracts are TeX ("CROCI -- An analysis")."""
    if "--" not in rich and "``" not in rich and "''" not in rich:
        return rich
    from bibconv.latex.tables import LIGATURES

    parts = _OUTSIDE_MATH_RE.split(rich)
    for i in range(0, len(parts), 2):
        parts[i] = _LIGATURE_RE.sub(lambda m: LIGATURES[m[0]], parts[i])
    return "".join(parts)


def plain_name(text: str) -> str:
    """A name as shown, TeX decoded to plain Unicode (kept as shown when its TeX nests too deeply)."""
    from bibconv import latex

    text = clean_space(text)
    if not _has_tex(text):
        return text
    try:
        return clean_space(latex.decode(text, markup=False))
    except latex.TexDepthError:
        return text


_PAREN = re.compile(r"^(?P<name>.*?)\s*\((?P<aff>[^()]*)\)\s*$")


_SEPARATORS = re.compile(r"[,;]")
_SEPARATOR_OR_PAREN = re.compile(r"[,;()]")


def _pieces(text: str) -> list[str]:
    """Split at commas and semicolons outside parentheses."""
    if "(" not in text and ")" not in text:
        pieces = _SEPARATORS.split(text)
    else:
        pieces, depth, start = [], 0, 0
        for match in _SEPARATOR_OR_PAREN.finditer(text):
            char = match.group()
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            elif depth <= 0:
                pieces.append(text[start : match.start()])
                start = match.end()
        pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def _without_affiliations(text: str) -> str:
    return ", ".join(m.group("name") if "(" in p and (m := _PAREN.match(p)) else p for p in _pieces(text))


_CONJUNCTIONS = re.compile(r"\s+(?:et|und|y|e|en|och|og|és|i|и|ja|a)\s+(?=\S)")


def _split(text: str) -> list[Name]:
    """Split a name list; ``et``/``und``/``y``… join names as ``and`` does (CJK names: see names_cjk)."""
    from bibconv.names import split_name_list

    return split_name_list(_CONJUNCTIONS.sub(", ", text))


_INITIALS = re.compile(r"^(?:[A-Z]\.?-?){1,3}$")
_ELLIPSIS = re.compile(r"(?:^|(?<=[\s,;]))(?:…|\.\.\.)(?=$|[\s,;])")
_ET_AL = re.compile(
    r"[\s,;]*\b(?:et\.?\s+al\.?|and\s+others|u\.\s*a\.|et\s+autres|y\s+otros)\s*$", re.IGNORECASE
)
_TRAILING_DOT = re.compile(r"(?<![\s.][A-Z])\.$")


def _family_initials(name: Name) -> Name:
    """``Fedon C.``, ``Le P. T.`` (a family name, then initials) → family ``Fedon``, given ``C.``."""
    if not name.family or not name.given or name.non_dropping_particle or name.literal:
        return name
    words = f"{name.given} {name.family}".split()
    initials = words[1:]
    dotted = len(initials) == 1 or all(w.endswith(".") for w in initials)
    if (
        len(words) >= 2
        and dotted
        and not _INITIALS.match(words[0])
        and all(_INITIALS.match(w) for w in initials)
    ):
        return replace(name, family=words[0], given=" ".join(words[1:]))
    return name


@per_item
def author_list(text: str) -> tuple[tuple[Name, ...], bool]:
    """The names of an author line, and whether it says more authors exist (``et al.``, ``…``)."""
    cut = _ET_AL.sub("", _ELLIPSIS.sub(",", text))
    more = cut != text
    names = tuple(n for n in authors_from_text(cut) if n.literal != "others")
    return names, more


@per_item
def authors_from_text(text: str) -> tuple[Name, ...]:
    """``Jiesong Chen, Pau Rodr\\'iguez and Lei Li`` → names in order, TeX decoded.

    A parenthesis after a name (``Hollis Robbins (University of Utah)``, arXiv's way) is the
    name's affiliation. ``Fedon C.`` is family ``Fedon``, given ``C.``.
    """
    text = _TRAILING_DOT.sub("", _LABELS.sub("", plain_name(text)).strip(" ,;")).strip(" ,;")
    if "(" not in text:
        return tuple(_family_initials(n) for n in _split(text)) if text else ()
    names: list[Name] = []
    for piece in _pieces(text):
        match = _PAREN.match(piece)
        found = _split(match.group("name") if match else piece)
        if match and found:
            last = found[-1]
            found[-1] = replace(last, affiliation=(*last.affiliation, clean_space(match.group("aff"))))
        names.extend(found)
    return tuple(_family_initials(n) for n in names)


def _is_cjk(char: str) -> bool:
    return "\u3000" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af"


_TITLE_WORDS = frozenset(
    {
        "of", "for", "with", "from", "into", "onto", "via", "using", "towards", "toward", "approach",
        "approaches", "method", "methods", "model", "models", "modeling", "modelling", "learning",
        "learned", "language", "languages", "network", "networks", "neural", "analysis", "system",
        "systems", "dataset", "datasets", "detection", "recognition", "information", "study", "studies",
        "theory", "based", "framework", "frameworks", "algorithm", "algorithms", "problem", "problems",
        "parser", "parsing", "understanding", "representation", "representations", "generation",
        "classification", "prediction", "estimation", "optimization", "optimisation", "graph", "graphs",
        "image", "images", "texts", "semantic", "semantics", "query", "queries", "efficient", "robust",
        "multi", "multilingual", "supervised", "unsupervised", "sparse", "matrix", "normalization",
        "temporal", "taxonomy", "construction", "interactions", "resolution", "articles", "survey",
        "evaluation", "benchmark", "beyond", "between", "under", "over", "dynamic", "dynamics",
        "processing", "structures", "functions", "effects", "application", "applications",
        "measurement", "measurements", "observation", "observations", "simulation", "simulations",
        "experimental", "results", "physics", "quantum", "computing", "computation", "computational",
    }
)  # fmt: skip
"""Words of titles that are not names: a line holding two of them is not an author list."""
_FUNCTION_WORDS = frozenset(
    {"for", "with", "using", "from", "the", "to", "on", "in", "via", "into", "of", "is", "are"}
)
_NAME_BREAK = re.compile(r"[,;&、，]|\band\b")
_ELISION = re.compile(r"\b[dDlL][’'](?=[^\W\d_])")


_DIGIT = re.compile(r"\d")


def _has_digit(text: str) -> bool:
    """Whether ``text`` holds a digit (``str.isdigit``: superscript and circled digits included)."""
    if _DIGIT.search(text):
        return True
    return not text.isascii() and any(map(str.isdigit, text))


@per_item
def looks_like_names(text: str) -> bool:
    """Whether ``text`` reads as an author list: short capitalised names, commas, ``and``."""
    text = _without_affiliations(_LABELS.sub("", plain_name(text)).strip(" ,;"))
    if "'" in text or "’" in text:
        text = _ELISION.sub("", text)
    text = unicodedata.normalize("NFC", text)
    if not text or len(text) > 4000 or _has_digit(text):
        return False
    words = text.split()
    if len({w.lower().strip(",;:") for w in words if w[:1].isupper()} & _TITLE_WORDS) >= 2:
        return False  # "Sparse Matrix Language Modeling" is a title, not a name
    if any(w in _FUNCTION_WORDS for w in words[1:-1]):
        return False  # "Autoencoders for Joint Discovery": names hold no "for", "with", "using"
    pieces = [p.strip() for p in _NAME_BREAK.split(_CONJUNCTIONS.sub(", ", text)) if p.strip()]
    if not pieces:
        return False
    for piece in pieces:
        words = piece.split()
        if not 1 <= len(words) <= 6 or len(piece) > 60:
            return False
        if any(not _NAME_WORD.match(w) for w in words):
            return False
        capitals = [
            w for w in words if w.lower() not in _LOWER_PARTICLES and not (w.islower() and len(w) <= 3)
        ] or [w for w in words if w[:1].isupper()]  # "Da Et": capitalised, so names, not particles
        lowercase = not capitals or any(w[0].isalpha() and not w[0].isupper() for w in capitals)
        if (
            (lowercase or not words[-1][:1].isupper())
            and not words[-1].startswith("-")
            and not all(_is_cjk(c) for c in piece.replace(" ", ""))
        ):
            return False
    return not (len(pieces) == 1 and len(pieces[0].split()) == 1)


@dataclass(frozen=True)
class Byline:
    """An ``authors · date`` line taken apart."""

    authors: tuple[Name, ...]
    date: Date | None


def _year_at_end(text: str) -> tuple[str, int, bool] | None:
    """A year that ends ``text`` (but for closing brackets, dots and blanks): the text before it
    without the separators between (``·``, ``—``, ``(``, ``,``…), the year, and whether there were any."""
    end = len(text)
    while end and (text[end - 1] in ")]." or text[end - 1].isspace()):
        end -= 1
    body = text[:end]
    start = len(body) - 4
    if start < 0 or not _YEAR.fullmatch(body, start) or (start and _WORD_CHAR.match(body, start - 1)):
        return None
    before = body[:start]
    end = len(before)
    while end and _BEFORE_YEAR.match(before, end - 1):
        end -= 1
    if "\n" in before[:end]:  # a line of its own
        return None
    return before[:end], int(body[start:]), end < start


@per_item
def parse_byline(text: str, lang: str | None = None, day_first: bool | None = None) -> Byline | None:
    """Read ``authors · date``, ``authors — date``, ``authors (date)``, a lone date or a lone author list.

    >>> b = parse_byline("Ada Lovelace, Alan Turing · 20 avril 2026")
    >>> [n.family for n in b.authors], b.date.parts
    (['Lovelace', 'Turing'], ((2026, 4, 20),))
    """
    text = clean_space(text)
    if not text:
        return None
    before: str | None = None
    date: Date | None = None
    year_like = _FOUR_DIGITS.search(text) is not None  # what a found date and a year at the end both need
    found = search_date(text, lang, day_first=day_first) if year_like else None
    if found is not None and not text[found[2] :].strip(" .)]"):
        date, before = found[0], text[: found[1]]
    elif year_like and (found_year := _year_at_end(text)):
        prefix, year, separated = found_year
        if separated or not prefix:
            date, before = Date(parts=((year,),)), prefix
    if date is None:
        if (alone := parse_date(text, lang, day_first=day_first)) is not None:
            return Byline((), alone)
        return Byline(authors_from_text(text), None) if looks_like_names(text) else None
    authors_text = (before or "").rstrip(_BYLINE_SEPARATORS).strip()
    if not authors_text:
        return Byline((), date)
    if not looks_like_names(authors_text):
        return None
    return Byline(authors_from_text(authors_text), date)


@dataclass
class Entry:
    """One listing item as read, before it becomes a :class:`Record`."""

    title: str = ""
    authors: tuple[Name, ...] = ()
    issued: Date | None = None
    abstract: str = ""
    url: str | None = None
    doi: str | None = None
    arxiv: Arxiv | None = None
    record_type: str = "article"
    fields: dict[str, str] = field(default_factory=dict)
    keywords: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    title_is_rich: bool = False
    more_authors: bool = False

    def to_record(self, origin: SourceSpan | None) -> Record:
        """The canonical record; a cut abstract is kept as shown and noted (:mod:`bibconv.facts`)."""
        from bibconv.arxiv import as_published, without_implied
        from bibconv.languages import to_bcp47

        fields: dict[str, str] = dict(self.fields)
        arxiv = self.arxiv is not None
        title = self.title if self.title_is_rich else rich_text(self.title, tex=arxiv)
        title = tex_ligatures(title) if arxiv else title
        if title:
            fields["title"] = title
        abstract = clean_space(self.abstract)
        extra = dict(self.extra)
        if abstract:
            fields["abstract"] = rich_text(abstract, tex=arxiv)
            if _TRUNCATED.search(abstract):
                facts.add(extra, TRUNCATED_NOTE)
        authors = tuple(n for n in self.authors if n.literal != "others")  # "et al." is said in a note
        if self.more_authors or len(authors) < len(self.authors):
            facts.add(extra, MORE_AUTHORS_NOTE)
        if (
            "language" in fields
        ):  # a page's language code in BCP 47 form (``eng``, ``en_US``: ``en``, ``en-US``)
            fields["language"] = to_bcp47(fields["language"]) or fields["language"]
        if self.url:
            fields.setdefault("URL", self.url)
        if self.doi:
            fields.setdefault("DOI", self.doi)
        if self.arxiv is not None:
            fields = without_implied(fields, self.arxiv, self.record_type, any_link=True)
        record = Record(
            type=_typed_by_venue(self.record_type, fields),
            fields=fields,
            names={"author": authors} if authors else {},
            dates={"issued": self.issued} if self.issued else {},
            keywords=tuple(dict.fromkeys(k for k in self.keywords if k)),
            arxiv=self.arxiv,
            extra=extra,
            origin=origin,
        )
        return as_published(record)


_VENUE_TYPES = frozenset({"article-journal", "article-magazine", "article-newspaper", "paper-conference"})
"""CSL types of a part of a periodical or proceedings: a listing that names no venue has no such part."""


def _typed_by_venue(record_type: str, fields: dict[str, str]) -> str:
    """The type a listing item has: a journal article or conference paper whose venue the listing
    does not name is an ``article`` (CSL's type for a work outside a periodical), which BibTeX writes
    as ``@misc`` and RIS as ``UNPB``, never a journal article without its journal."""
    return "article" if record_type in _VENUE_TYPES and "container-title" not in fields else record_type


def unique(values: Iterable[str]) -> list[str]:
    """``values`` without repeats, in order, empty ones dropped."""
    return list(dict.fromkeys(v for v in values if v))
