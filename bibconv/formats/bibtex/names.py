r"""BibTeX name lists: split as BibTeX splits them, written so that BibTeX splits them back.

:func:`split_bibtex_names` follows BibTeX on the **raw TeX**: the list is split on ``and`` at brace
depth 0 — in any letter case, as BibTeX's own ``name_scan_for_and`` and pybtex do, so ``AND`` separates
names too — and each name is parsed by pybtex's :class:`~pybtex.database.Person` (``First von Last``,
``von Last, First``, ``von Last, Jr, First``) — :mod:`bibconv.formats.bibtex.name_parts` makes the same
split several times faster for nearly every real name and asks pybtex for the rest; a bounded cache
serves names that repeat — only then is each part decoded. BibTeX ``von`` becomes
``non_dropping_particle``, ``Jr`` ``suffix``. A name wholly in braces (``{World Health Organization}``,
``{{Double}}``) is a literal. ``others`` (from ``and others``) is kept as ``Name(literal="others")`` and
written back as ``others``. biblatex's extended form (``family=…, given=…, prefix=…, suffix=…,
useprefix=…``) is read directly: ``prefix`` is a non-dropping particle with ``useprefix=true`` and a
dropping one otherwise (biblatex's default is ``useprefix=false``).

The writers use :func:`format_bibtex_name`: the comma form, or biber's extended form where biber would
misread or skip it (docs/decisions.md#names-written-for-bibtex-and-biber).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from bibconv import latex
from bibconv.formats.bibtex.name_parts import bibtex_parts
from bibconv.latex.tex import group_end
from bibconv.memo import memo_with_warnings
from bibconv.model import Name
from bibconv.names_cjk import split_unspaced, unspaced
from bibconv.patterns import lazy

__all__ = [
    "biber_refuses",
    "family_alone_is_literal",
    "format_bibtex_name",
    "particle_is_von",
    "split_bibtex_names",
]

OTHERS = "others"
# Separators take a run of spaces from its start only (or from after an escaped space, where
# the scanner's ``\\.`` stopped): a search that tried every space of a run would be quadratic.
_AND_RE = lazy(r"(?<![^\\]\s)\s++[Aa][Nn][Dd]\s+")
_EXTENDED_RE = lazy(r'^\s*+"?\s*+(?:family|given|prefix|suffix|useprefix)\s*+=', re.IGNORECASE)
_SPACE_RE = lazy(r"\s+")
_COMMA_RE = lazy(r"(?:(?<![^\\]\s)\s++)?,\s*")
# Space-form accents and letter macros (``Fran\c cois``, ``Sz\H ol\H o``, ``Stra\ss e``) are one word
# to TeX; they are braced before splitting so that the space does not split the name.
_SPACE_ACCENT_RE = lazy(r"\\([cHvkurdbtGUhf])\s+([A-Za-z]|\\[ij](?![A-Za-z]))")
_SPACE_LETTER_RE = lazy(r"\\(ss|o|O|aa|AA|ae|AE|oe|OE|l|L|i|j|dh|DH|th|TH|ng|NG|dj|DJ)\s+(?=[A-Za-z])")


def _identity(text: str) -> str:
    return text


def _split_depth0(text: str, sep: re.Pattern[str]) -> list[str]:
    """Split ``text`` on ``sep`` matches that sit at brace depth 0 (``\\{`` is no brace here)."""
    if "{" not in text and "\\" not in text:
        return sep.split(text)
    parts: list[str] = []
    depth = 0
    start = 0
    for m in _scanner(sep).finditer(text):
        piece = m[0]
        if piece[0] == "{":
            depth += len(piece)
        elif piece[0] == "}":
            depth = max(depth - len(piece), 0)  # one step at a time, none below 0: the same
        elif piece[0] != "\\" and depth == 0:
            parts.append(text[start : m.start()])
            start = m.end()
    parts.append(text[start:])
    return parts


@lru_cache(maxsize=8)
def _scanner(sep: re.Pattern[str]) -> re.Pattern[str]:
    """Escapes, braces and ``sep`` in one pattern, leftmost first, as a left-to-right scan finds them."""
    return re.compile(rf"\\.|\{{++|\}}++|(?:{sep.pattern})", re.S | sep.flags)  # runs of braces at once


def _wholly_braced(text: str) -> bool:
    return text.startswith("{") and group_end(text, 1) == len(text)


def _unbraced(text: str) -> str:
    """``text`` without the brace groups around all of it (``{ {Acme} }`` → ``Acme``), in one pass."""
    closing: dict[int, int] = {}
    opened: list[int] = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\\":
            pos += 1
        elif ch == "{":
            opened.append(pos)
        elif ch == "}" and opened:
            closing[opened.pop()] = pos
        pos += 1
    start, end = 0, len(text)
    while start < end and text[start] == "{" and closing.get(start) == end - 1:
        start, end = start + 1, end - 1
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
    return text[start:end]


@lru_cache(maxsize=8192)
def _plain(text: str) -> str:
    return latex.decode(text, markup=False) if latex.has_tex(text) else _SPACE_RE.sub(" ", text).strip()


def _part(words: list[str]) -> str | None:
    text = _plain(" ".join(words))
    return text or None


def split_bibtex_names(raw: str, *, warn: Callable[[str], None] | None = None) -> list[Name]:
    r"""Split and parse a BibTeX name list (raw TeX) into names.

    >>> [n.family for n in split_bibtex_names(r"Rodr{\'\i}guez, Pau and {Barnes and Noble}")]
    ['Rodríguez', None]
    """
    raw = raw.strip()
    if not raw:
        return []
    parts = (part.strip() for part in _split_depth0(raw, _AND_RE))
    return [_parse_bibtex_name(part, warn=warn) for part in parts if part]


@memo_with_warnings(maxsize=8192)
def _parse_bibtex_name(text: str, *, warn: Callable[[str], None]) -> Name:
    """One name; names repeat across a file, so the name and its warnings are memoised."""
    if "\\" in text:
        text = _SPACE_LETTER_RE.sub(r"{\\\1}", _SPACE_ACCENT_RE.sub(r"{\\\1{\2}}", text))
    if text == OTHERS:
        return Name(literal=OTHERS)
    if _wholly_braced(text):
        return Name(literal=_plain(_unbraced(text)) or _plain(text))
    if _EXTENDED_RE.match(text):
        return _parse_extended(text, warn)
    parts = bibtex_parts(text)
    if parts is None:
        from pybtex.exceptions import PybtexError

        try:
            from pybtex.database import Person

            person = Person(text)
        except (PybtexError, ValueError, IndexError) as exc:
            warn(f"cannot split name {text!r} ({exc}); parts joined")
            pieces = _split_depth0(text, _COMMA_RE)
            return Name(family=_plain(pieces[0]) or None, given=_plain(" ".join(pieces[1:])) or None)
        first = person.first_names + person.middle_names
        parts = first, person.prelast_names, person.last_names, person.lineage_names
    given = _part(parts[0])
    particle = _part(parts[1])
    family = _part(parts[2])
    suffix = _part(parts[3])
    if family is None and particle is not None:
        family, particle = particle, None
    if family is None and given is None:
        return Name(literal=_plain(text))
    unsplit = given is None and particle is None and suffix is None and "," not in text
    if unsplit and (split := split_unspaced(family or "")):
        family, given = split
    return Name(family=family, given=given, non_dropping_particle=particle, suffix=suffix)


def _extended_items(text: str) -> list[str]:
    """The ``key=value`` items of an extended name: cut at commas outside braces and double quotes
    (biber reads ``"suffix={Jr, III}"`` as one item), each without its quotes."""
    items: list[str] = []
    depth, quoted, start, pos = 0, False, 0, 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\\":
            pos += 1
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "," and depth == 0 and not quoted:
            items.append(text[start:pos])
            start = pos + 1
        pos += 1
    items.append(text[start:])
    return [item.strip().removeprefix('"').removesuffix('"') for item in items]


def _parse_extended(text: str, warn: Callable[[str], None]) -> Name:
    values: dict[str, str] = {}
    for item in _extended_items(text):
        key, sep, value = item.partition("=")
        if not sep:
            if item.strip():
                warn(f"ignored {item.strip()!r} in name {text!r}")
            continue
        value = value.strip()
        if _wholly_braced(value):
            value = value[1:-1]
        values[key.strip().lower()] = value
    use_prefix = values.get("useprefix", "false").strip().lower() == "true"
    prefix = _plain(values.get("prefix", "")) or None
    return Name(
        family=_plain(values.get("family", "")) or None,
        given=_plain(values.get("given", "")) or None,
        non_dropping_particle=prefix if use_prefix else None,
        dropping_particle=None if use_prefix else prefix,
        suffix=_plain(values.get("suffix", "")) or None,
    )


# --- writing -----------------------------------------------------------------------------------

_TIE_RE = lazy(r"(?<!\\)~")
_AND_WORD_RE = lazy(r"(?:^|\s)and(?:\s|$)", re.IGNORECASE)


def _first_is_lower(text: str) -> bool:
    for ch in text:
        if ch.isalpha():
            return ch.islower()
    return False


def _risky(text: str, value: str) -> bool:
    """Whether a name part would be split or cut by BibTeX unless braced."""
    return (
        "," in text
        or _AND_WORD_RE.search(text) is not None
        or _TIE_RE.search(value) is not None
        or "$" in value  # math may hold spaces or a control space, which split a name
        or "\\ " in value
    )


def _family_needs_braces(family: str, value: str) -> bool:
    return (
        _risky(family, value)
        or len(family.split()) != 1
        or _first_is_lower(family)
        or not family[:1].isalpha()
        or family.lower() == OTHERS
    )


def _family_tex(family: str, enc: Callable[[str], str]) -> str:
    value = enc(family)
    return "{" + value + "}" if _family_needs_braces(family, value) else value


def family_alone_is_literal(name: Name) -> bool:
    """Whether classic BibTeX can hold ``name`` (a family, maybe a particle, nothing else) only wholly
    braced, which bibtex and biber read as that family and bibconv as a literal: a family that
    needs braces (``{Ben Arous}``, ``{a,b,c}``), that would read back split (``{李小明}``), or that
    follows a particle BibTeX cannot read as von with no given name after it."""
    family = name.family or ""
    if name.given or name.suffix or not family:
        return False
    particle = name.non_dropping_particle or name.dropping_particle
    if particle:
        return not _is_von(particle)
    return _family_needs_braces(family, family) or split_unspaced(family) is not None


def _part_tex(text: str, enc: Callable[[str], str]) -> str:
    value = enc(text)
    return "{" + value + "}" if _risky(text, value) else value


def _is_von(particle: str) -> bool:
    return all(_first_is_lower(w) and w[:1].isalpha() for w in particle.split())


def particle_is_von(particle: str) -> bool:
    """Whether classic BibTeX reads ``particle`` back as the von part of ``particle Family, Given``.

    BibTeX's von part runs to the last word that starts in lowercase, so a particle of lowercase
    words is von, and so is one whose capitalised words come before a lowercase last word
    (``López de Molina, G.``: von "López de", last "Molina"); a particle ending in a capitalised
    word (``De Leo``) cannot be von.

    >>> particle_is_von("van der"), particle_is_von("López de"), particle_is_von("De")
    (True, True, False)
    """
    if _is_von(particle):
        return True
    words = particle.split()
    return (
        bool(words)
        and "a" <= words[-1][0] <= "z"
        and not _risky(particle, particle)
        and not any(ch in particle for ch in "{}\\")
    )


def biber_refuses(text: str) -> bool:
    """Whether biber skips the entry of a name written as ``text`` (not in the extended form): it
    counts every comma, braced or not, and allows two, unless the whole name is braced."""
    return not _wholly_braced(text) and (text.count(",") > 2 or ",," in text)


def _extended(name: Name, enc: Callable[[str], str]) -> str:
    """biblatex's extended form; an item whose value holds a comma is quoted, as biber splits the
    items like CSV (``"suffix={Jr, III}"``)."""
    parts = [
        ("family", name.family),
        ("given", name.given),
        ("prefix", name.dropping_particle or name.non_dropping_particle),
        ("suffix", name.suffix),
    ]
    items = []
    for key, value in parts:
        if value:
            item = f"{key}={{{enc(value)}}}"
            items.append(f'"{item}"' if "," in item else item)
    if name.dropping_particle or name.non_dropping_particle:
        items.append("useprefix=true" if name.non_dropping_particle else "useprefix=false")
    return ", ".join(items)


def format_bibtex_name(
    name: Name, encode: Callable[[str], str] = _identity, *, extended: bool = False
) -> str:
    r"""A name in BibTeX's comma form: ``von Last, Jr, First`` / ``von Last, First`` / ``{Literal}``.

    Parts (plain Unicode) are passed through ``encode``; a writer passes
    ``functools.partial(latex.encode, markup=False)`` (``ascii=True`` for ``--ascii``).

    * The family is braced when BibTeX would otherwise split or reinterpret it: a comma, the word
      ``and``, a ``~``, several words, a lowercase or non-letter start.
    * A family-only name whose family is braced gets a trailing comma (``{Ben Arous},``); a name
      wholly in braces is a literal.
    * Given names and suffixes are braced when they hold a comma, ``and``, ``~``, math or ``\ ``.
    * A particle BibTeX reads as ``von`` (:func:`particle_is_von`) is written as one
      (``van der Waals, J. D.``, ``López de Molina, G.``); one ending in a capitalised word can only
      be kept inside the braced family (``{De Leo}, Rossana``).
    * Classic BibTeX has no dropping particle: it is written as ``von`` too, unless ``extended=True``
      (biblatex), which writes such names — and names with a capitalised particle — in biblatex's
      extended form ``family={…}, given={…}, prefix={…}, useprefix=false``, read back exactly by
      :func:`split_bibtex_names`. So does a name biber would skip in the comma form
      (:func:`biber_refuses`: ``"suffix={Jr, III}"``) and a family alone that needs braces
      (``family={Ben Arous}``).
    * In classic BibTeX a family alone that needs braces is wholly braced (``{Ben Arous}``,
      ``{a,b,c}``: :func:`family_alone_is_literal`), which bibtex and biber read as that family and
      bibconv as a literal (``{Ben Arous},`` is an error to bibtex and a warning to biber).

    >>> format_bibtex_name(Name(family="Waals", given="J. D.", non_dropping_particle="van der"))
    'van der Waals, J. D.'
    """
    if name.literal is not None:
        return OTHERS if name.literal == OTHERS else "{" + encode(name.literal) + "}"
    particle = name.non_dropping_particle or name.dropping_particle
    if extended and (name.dropping_particle or (particle and not _is_von(particle))):
        return _extended(name, encode)
    text = _comma_form(name, encode, particle)
    if extended and (biber_refuses(text) or family_alone_is_literal(name)):
        return _extended(name, encode)  # biber reads it exactly (it skips the comma form, or reads a literal)
    return text


def _comma_form(name: Name, encode: Callable[[str], str], particle: str | None) -> str:
    family = name.family or ""
    if particle and particle_is_von(particle):
        last = encode(particle) + " " + (_family_tex(family, encode) if family else "{}")
    elif particle:
        last = "{" + encode(f"{particle} {family}".strip()) + "}"
    else:
        last = _family_tex(family, encode) if family else "{}"
    if not (particle or name.suffix) and family and name.given and (whole := unspaced(family, name.given)):
        return encode(whole)  # 李小明: as written, read back into the same parts
    first = _part_tex(name.given, encode) if name.given else ""
    if name.suffix:
        return f"{last}, {_part_tex(name.suffix, encode)}, {first}"
    if first:
        return f"{last}, {first}"
    if family_alone_is_literal(name):  # bibtex errs on "{Ben Arous},", biber warns; both read {Ben Arous}
        return "{" + encode(f"{particle or ''} {family}".strip()) + "}"
    return last
