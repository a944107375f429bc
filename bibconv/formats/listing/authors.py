"""Author lines of listings: names split (``et``/``und``/``y``… join names as ``and`` does), an
affiliation in parentheses after a name, ``et al.`` and ``…`` saying more authors exist, and the test
of whether a line reads as an author list at all (:func:`looks_like_names`)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from bibconv.formats.listing.memo import per_item
from bibconv.formats.listing.values import clean_space, plain_name
from bibconv.latex import TexDepthError
from bibconv.model import Name
from bibconv.patterns import lazy, led_by, may_end

__all__ = ["author_list", "authors_from_text", "looks_like_names", "never_names"]

_NAME_WORD = lazy(r"^-?(?:[^\W\d_][\w'’.\-]*|[^\W\d_]\.?)$")
_LOWER_PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "dos", "das", "la", "le", "ter",
     "ten", "bin", "al", "el", "y", "e", "zu", "af", "av", "and", "und", "et"}
)  # fmt: skip
_LABELS = lazy(
    r"^\s*(?:authors?|auteur(?:e)?s?|autor(?:e|es|en|in|innen)?|autori|by|par|von|door|著者|作者|저자)"
    r"\s*[:：]\s*",
    re.IGNORECASE,
)


_PAREN = lazy(r"^(?P<name>.*?)(?<!\s)\s*+\((?P<aff>[^()]*+)\)\s*$")  # spaces from their start


_SEPARATORS = lazy(r"[,;]")
_SEPARATOR_OR_PAREN = lazy(r"[,;()]")


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


# Spaces are taken from the start of their run only (``(?<!\s)\s++``): linear under search.
_CONJUNCTIONS = led_by(r"\s", r"(?<!\s)\s++(?:et|und|y|e|en|och|og|és|i|и|ja|a)\s+(?=\S)")


def _split(text: str) -> list[Name]:
    """Split a name list; ``et``/``und``/``y``… join names as ``and`` does (CJK names: see names_cjk).
    A list whose TeX nests too deeply to decode gives no names."""
    from bibconv.names import split_name_list

    try:
        return split_name_list(_CONJUNCTIONS.sub(", ", text))
    except TexDepthError:
        return []


_INITIALS = lazy(r"^(?:[A-Z]\.?-?){1,3}$")
_ELLIPSIS = lazy(r"(?:^|(?<=[\s,;]))(?:…|\.\.\.)(?=$|[\s,;])")
_ET_AL = lazy(
    r"(?<![\s,;])[\s,;]*+\b(?:et\.?\s+al\.?|and\s+others|u\.\s*a\.|et\s+autres|y\s+otros)\s*$", re.IGNORECASE
)
_ET_AL_ENDINGS = ("al", "al.", "others", "a.", "autres", "otros")  # how every match of _ET_AL ends
_TRAILING_DOT = lazy(r"(?<![\s.][A-Z])\.$")


def _family_initials(name: Name) -> Name:
    """``Fedon C.``, ``Le P. T.`` (a family name, then initials) → family ``Fedon``, given ``C.``."""
    if not name.family or not name.given or name.non_dropping_particle or name.literal:
        return name
    if name.family[-1].islower():  # its last word is no initial
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
    cut = _ELLIPSIS.sub(",", text) if "…" in text or "..." in text else text
    cut = _ET_AL.sub("", cut) if may_end(cut, _ET_AL_ENDINGS) else cut
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
_NAME_BREAK = lazy(r"[,;&、，]|\band\b")
_ELISION = lazy(r"\b[dDlL][’'](?=[^\W\d_])")


_DIGIT = lazy(r"\d")


def _has_digit(text: str) -> bool:
    """Whether ``text`` holds a digit (``str.isdigit``: superscript and circled digits included)."""
    if _DIGIT.search(text):
        return True
    return not text.isascii() and any(map(str.isdigit, text))


# More than 60 characters that no space, separator or "and" breaks: a piece no name is.
_UNBROKEN = lazy(r"[^\s,;&、，]{61,}")
_AND = lazy(r"\band\b")


def _long_piece(text: str) -> bool:
    """Whether one of the pieces :func:`looks_like_names` splits ``text`` into is too long for a name
    whatever the other pieces are (found without splitting: a run that nothing splits)."""
    if len(text) <= 60 or max(map(len, text.split()), default=0) <= 60:  # no room for such a run
        return False
    return any("and" not in (run := m.group()) or not _AND.search(run) for m in _UNBROKEN.finditer(text))


@per_item
def looks_like_names(text: str) -> bool:
    """Whether ``text`` reads as an author list: short capitalised names, commas, ``and``."""
    text = _without_affiliations(_LABELS.sub("", plain_name(text)).strip(" ,;"))
    if "'" in text or "’" in text:
        text = _ELISION.sub("", text)
    text = unicodedata.normalize("NFC", text)
    if not text or len(text) > 4000 or _has_digit(text) or _long_piece(text):
        return False
    words = text.split()
    if not _FUNCTION_WORDS.isdisjoint(words[1:-1]):
        return False  # "Autoencoders for Joint Discovery": names hold no "for", "with", "using"
    if _two_title_words(text, words):
        return False  # "Sparse Matrix Language Modeling" is a title, not a name
    pieces = [p.strip() for p in _NAME_BREAK.split(_CONJUNCTIONS.sub(", ", text)) if p.strip()]
    if not pieces or not all(_CAPITALISED.fullmatch(p) or _reads_as_name(p) for p in pieces):
        return False
    return not (len(pieces) == 1 and len(pieces[0].split()) == 1)


def _two_title_words(text: str, words: list[str]) -> bool:
    """Whether two of the capitalised ``words`` of ``text`` are title words; asked only when the text
    holds one in any case (its words lowered, without the ``,;:`` around them)."""
    lowered = text.lower().replace(",", " ").replace(";", " ").replace(":", " ")
    if _TITLE_WORDS.isdisjoint(lowered.split()):
        return False
    return len({w.lower().strip(",;:") for w in words if w[:1].isupper()} & _TITLE_WORDS) >= 2


# Up to six words of ASCII capital and word characters, one space apart, 60 characters at most: a
# piece that _reads_as_name takes (each word a name word, the words capitalised, the last too).
_CAPITALISED = lazy(r"(?=.{1,60}\Z)[A-Z][\w'’.\-]*(?: [A-Z][\w'’.\-]*){0,5}")


def _reads_as_name(piece: str) -> bool:
    """Whether one piece of a name list (between its separators) reads as a name."""
    words = piece.split()
    if not 1 <= len(words) <= 6 or len(piece) > 60:
        return False
    if not all(map(_NAME_WORD.match, words)):
        return False
    capitals = [
        w for w in words if w.lower() not in _LOWER_PARTICLES and not (w.islower() and len(w) <= 3)
    ] or [w for w in words if w[:1].isupper()]  # "Da Et": capitalised, so names, not particles
    lowercase = not capitals or any(w[0].isalpha() and not w[0].isupper() for w in capitals)
    return not (
        (lowercase or not words[-1][:1].isupper())
        and not words[-1].startswith("-")
        and not all(_is_cjk(c) for c in piece.replace(" ", ""))
    )


# What splits a name list into pieces in looks_like_names, word by word: its separators, "and", the
# conjunctions, and (affiliations, which it may drop) parentheses.
_PIECE_BREAKS = frozenset(",;&、，()")
_CONJUNCTION_WORDS = frozenset({"et", "und", "y", "e", "en", "och", "og", "és", "i", "и", "ja", "a"})
_INNERMOST_GROUP = lazy(r"\([^()]*\)")


def never_names(head: str) -> bool:
    """Whether no text that starts with the words of ``head`` (clean text that ends a word) reads as
    names (:func:`looks_like_names`): seven words in a row that nothing splits (no separator, ``and``,
    conjunction or parenthesis; a label's two words at the start not counted) make one piece longer
    than any name. ``False`` (not known) for text holding TeX or not in NFC."""
    if "\\" in head or "{" in head or "}" in head or not unicodedata.is_normalized("NFC", head):
        return False
    opened = head.rfind("(")
    if opened > head.rfind(")"):  # a parenthesis the text may close later: its words may be an affiliation
        head = head[:opened]
    run = 0
    for word in _INNERMOST_GROUP.sub(",", head).split()[2:]:
        bare = _ELISION.sub("", word) if "'" in word or "’" in word else word
        if (
            _PIECE_BREAKS.isdisjoint(word)
            and bare not in _CONJUNCTION_WORDS
            and ("and" not in bare or not _AND.search(bare))
        ):
            run += 1
            if run > 6:
                return True
        else:
            run = 0
    return False
