r"""Natural-order names ("Given Family") from listings and feeds; used through :mod:`bibconv.names`.

Rules of :func:`parse_name`:

* TeX is decoded first (``Pau Rodr\'iguez`` → Rodríguez).
* ``Family, Given`` and ``Family, Given, Suffix`` (a comma) are read family-first; ``Given Family, Jr.``
  (a comma before a suffix) keeps natural order.
* Particles (van, von, de, de la, van der, di, da, dos, du, le, la, ter, ten, del, della, bin, al, …):
  a run of them that stands directly before the last word joins the family name. A run that opens
  with a **capital** stays part of ``family`` itself, the way Zotero stores such names: ``Adrian Del
  Maestro`` → family ``Del Maestro``, ``Guy Van den Broeck`` → ``Van den Broeck``, ``Rossana De Leo`` →
  ``De Leo`` (citation.js#66), Irish ``Ó``/``Ní``/``Nic``/``Uí`` likewise (``Seán Ó hÉigeartaigh`` → family
  ``Ó hÉigeartaigh``). A capitalised particle anywhere else stays in the given names (``Maria
  Del Carmen Lopez`` → given ``Maria Del Carmen``), as does a capitalised first word (``Van Vleck`` →
  given ``Van``) and Vietnamese ``Van``/``Thi`` before a Vietnamese family name (``Thanh Van Nguyen``).
  Capitalised words that are also given or family names or initials (Al, Ben, Das, E, Y, Do…) are not
  particles in this rule. **Lowercase** particles become ``non_dropping_particle``, as BibTeX's ``von``
  does, from the first one after the first word: ``Jean de la Fontaine`` → ``de la`` + ``Fontaine``,
  ``Jean de La Fontaine`` → ``de`` + ``La Fontaine``. Spanish double surnames (``Ana Da Silva Santos``)
  are not recognised: the last word is the family.
* A trailing suffix (Jr., Jr, Sr., II, III, IV, …) becomes ``suffix``; hyphenated family names stay
  whole; initials stay in the given names (``Blake A. Hechtman`` → given ``Blake A.``).
* One word → family only, except a Chinese, Japanese or Korean name written without a space
  (``张伟``, ``山田太郎``, ``김민준``), split by :func:`bibconv.names_cjk.split_unspaced`. Two words
  in those scripts (``李 小明``) are family first, as such names are always written.
* Collaboration names (``ATLAS Collaboration``, ``The … Consortium``, names with Collaboration,
  Consortium, Group, Team, Collaborators, Project, Initiative, Committee, Network, Alliance, Society,
  Organization) → literal.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from bibconv import latex
from bibconv.memo import SHORT
from bibconv.model import Name
from bibconv.names_cjk import split_unspaced
from bibconv.patterns import lazy, led_by, may_end

__all__ = ["parse_name", "split_name_list"]

_PARTICLE_WORDS = (
    "van von de der den del della degli dei di da das dos do du le la les lo ter ten te tot zu zum zur "
    "vom op het 't bin ibn ben bint al el af av y e d' l' dal dalla dello st."
)
PARTICLES = frozenset(_PARTICLE_WORDS.split())
# Particles that keep their capital (``Del Maestro``, ``Van den Broeck``) when they stand right before
# the last word; words that are also given or family names (Al, Ben, Das…) or initials are left out.
_CAPITAL_WORDS = (
    "van von de der den del della degli dei di da dos du le la les ter ten vom zu zum zur dal dalla "
    "dello st. ibn ó ní nic uí"
)
_CAPITAL_PARTICLES = frozenset(_CAPITAL_WORDS.split())
_VIETNAMESE_WORDS = (
    "Nguyen Nguyễn Tran Trần Le Lê Pham Phạm Hoang Hoàng Huynh Huỳnh Phan Vu Vũ Vo Võ Dang Đặng Bui Bùi "
    "Do Đỗ Ho Hồ Ngo Ngô Duong Dương Ly Lý"
)
_VIETNAMESE_FAMILIES = frozenset(_VIETNAMESE_WORDS.split())
_CJK_WORD = lazy(r"[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]+")
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "jnr", "jnr.", "snr", "snr.", "2nd", "3rd"})
_ROMAN_SUFFIXES = frozenset({"II", "III", "IV", "VI"})
_COLLECTIVE_RE = lazy(
    r"\b(?:Collaboration|Consortium|Group|Team|Collaborators|Project|Initiative|Committee|Network|"
    r"Alliance|Society|Organi[sz]ation|Association|Working|Investigators|Authors)\b"
)
# A run of spaces is taken only from its start, ``(?<!\s)\s++``: a search that tried it from
# every space in it would take quadratic time on long runs.
_ET_AL_RE = led_by(
    r"[\s,eau]",
    r"(?:(?:,|(?<!\s))\s*+(?:et\.?\s+al\.?|and\s+others|et\s+autres|u\.\s*a\.)\s*)$",
    re.IGNORECASE,
)
# ``and`` joins names in lower or upper case; ``And`` is a name (Danish), as in ``Anders And``.
_ET_AL_ENDINGS = ("al", "al.", "others", "autres", "a.")  # how every match of _ET_AL_RE ends
_LIST_SPLIT_RE = led_by(
    r"[\s,&aA]",
    r"(?:(?<!\s)\s++)?,\s*(?:(?:and|AND)\s+|&\s*)?|(?<!\s)\s++(?:and|AND)\s+|(?:(?<!\s)\s++)?&\s*"
    r"|(?<=.)(?:(?<!\s)\s++)?\b(?:and|AND)\s+",
)
_AND_SPLIT_RE = led_by(r"[\s&]", r"(?<!\s)\s++(?:and|AND)\s+|(?:(?<!\s)\s++)?&\s*")
_NO_NAME = Name()  # what an empty part of a list parses to
_INITIAL_RE = lazy(r"^(?:[^\W\d_]{1,2}\.-?)+$")
_INITIALS_RE = lazy(r"^(?:[A-Z\u00c0-\u024f][a-z]?+\.?+\s*+-?+\s*+)++$")


def _is_suffix(word: str) -> bool:
    return word in _ROMAN_SUFFIXES or word.lower() in _SUFFIXES


def _is_particle(word: str) -> bool:
    return word in PARTICLES or (word[:1].islower() and word.rstrip("'’") in PARTICLES)


def _clean(text: str) -> str:
    if latex.has_tex(text):
        text = latex.decode(text, markup=False)
    return " ".join(text.split()).strip(" ,;")  # str.split and \s see the same whitespace (NBSP too)


def parse_name(text: str) -> Name:
    """Parse one natural-order name (see the module docstring).

    >>> parse_name("Johannes Diderik van der Waals").to_csl()
    {'family': 'Waals', 'given': 'Johannes Diderik', 'non-dropping-particle': 'van der'}
    """
    return _parse_cached(text) if len(text) <= SHORT else _parse(text)


@lru_cache(maxsize=16384)
def _parse_cached(text: str) -> Name:
    """:func:`_parse`, memoised: names repeat across feeds and listings (it gives no warnings)."""
    return _parse(text)


def _parse(text: str) -> Name:
    text = _clean(text)
    if not text:
        return Name()
    if _COLLECTIVE_RE.search(text) or text.lower().startswith("the "):
        return Name(literal=text)
    if text.lower() == "others":
        return Name(literal="others")
    if "," in text:
        head, _, tail = text.partition(",")
        tail = tail.strip()
        rest = [p.strip() for p in tail.split(",")]
        if len(rest) == 1 and _is_suffix(rest[0]):
            name = _natural(head.strip())
            return Name(
                family=name.family,
                given=name.given,
                non_dropping_particle=name.non_dropping_particle,
                suffix=rest[0],
            )
        return _family_first(head.strip(), rest)
    return _natural(text)


def _family_first(family: str, rest: list[str]) -> Name:
    given = rest[0] if rest else ""
    suffix = ", ".join(rest[1:]) if len(rest) > 1 else ""
    particle = None
    words = family.split()
    i = 0
    while i < len(words) - 1 and _is_particle(words[i]):
        i += 1
    if i:
        particle, family = " ".join(words[:i]), " ".join(words[i:])
    return Name(
        family=family or None, given=given or None, non_dropping_particle=particle, suffix=suffix or None
    )


def _natural(text: str) -> Name:
    words = text.split()
    suffix = None
    if len(words) > 2 and _is_suffix(words[-1].rstrip(",")):
        suffix = words.pop().rstrip(",")
        words[-1] = words[-1].rstrip(",")
    if len(words) == 1:
        split = split_unspaced(words[0])
        if split is not None and suffix is None:
            return Name(family=split[0], given=split[1])
        return Name(family=words[0], suffix=suffix)
    if len(words) == 2 and _CJK_WORD.fullmatch(words[0]) and _CJK_WORD.fullmatch(words[1]):
        return Name(family=words[0], given=words[1])  # 李 小明: written family first, as always in CJK
    start = _capital_run(words)
    if start is not None:  # ``Adrian Del Maestro``, ``Guy Van den Broeck``: the family as Zotero stores it
        return Name(family=" ".join(words[start:]), given=" ".join(words[:start]), suffix=suffix)
    start = None
    for i in range(1, len(words) - 1):
        if _is_particle(words[i]):
            start = i
            break
    if start is None:
        return Name(family=words[-1], given=" ".join(words[:-1]), suffix=suffix)
    end = start
    while end < len(words) - 1 and _is_particle(words[end]):
        end += 1
    return Name(
        family=" ".join(words[end:]),
        given=" ".join(words[:start]),
        non_dropping_particle=" ".join(words[start:end]),
        suffix=suffix,
    )


def _capital_run(words: list[str]) -> int | None:
    """Start of a particle run that opens with a capital and stands right before the last word."""
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in _CAPITAL_PARTICLES:
        start -= 1
    if start == len(words) - 1 or not words[start][:1].isupper():
        return None
    if words[-1] in _VIETNAMESE_FAMILIES and words[start] in ("Van", "Thi", "Văn", "Thị"):
        return None  # ``Thanh Van Nguyen``: Văn is a Vietnamese middle name
    return start


def _family_like(seg: str) -> bool:
    words = seg.split()
    core = [w for w in words if not _is_particle(w)]
    return len(core) == 1 and bool(words)


def _given_like(seg: str) -> bool:
    words = seg.split()
    return 0 < len(words) <= 3 and (bool(_INITIALS_RE.match(seg)) or all(w[:1].isupper() for w in words))


def _ends_in_initial(seg: str) -> bool:
    """``J.``, ``John R.``, ``J.-P.``, ``JR``: a given-name segment, never a natural-order name."""
    last = seg.split()[-1]
    return bool(_INITIAL_RE.match(last)) or (seg.isupper() and seg.isalpha() and len(seg) <= 3)


def split_name_list(text: str) -> list[Name]:
    """Split a listing's author line into names.

    Separators are ``,``, ``;``, ``and``, ``&`` (and the Oxford ``, and``); ``et al.`` / ``and others``
    becomes a final ``Name(literal="others")`` as in BibTeX. Commas separate names unless the line
    shows that they sit inside family-first names:

    * every ``and``/``&``-separated part is one ``Family, Given`` pair (``Smith, John and Doe, Jane``), or
    * the comma-separated segments pair up as ``Family, Given[, Suffix]`` and a given segment ends in an
      initial (``Smith, J., Doe, A.``, ``Smith, John R., Doe, Jane``; a natural-order name never ends
      in an initial).

    Otherwise each segment is one natural-order name, single words included: ``Xu, Wang, Jane Doe`` is
    three names, and so is ``Doe, Jane`` two (``Doe``, ``Jane``) — a lone family-first name without
    initials cannot be told from two one-word names, and listings write names in natural order.

    >>> [n.family for n in split_name_list("Jiesong Chen, Jun You and Nuno Gon\\\\c{c}alves")]
    ['Chen', 'You', 'Gonçalves']
    """
    text = _clean(text)
    if not text:
        return []
    others = False
    m = _ET_AL_RE.search(text) if may_end(text, _ET_AL_ENDINGS) else None
    if m:
        others = True
        text = text[: m.start()].strip(" ,;")
    names: list[Name] = []
    if ";" in text:
        names = [parse_name(p) for p in text.split(";") if p.strip()]
    elif text:
        names = _split_commas(text)
    if others:
        names.append(Name(literal="others"))
    return [n for n in names if n.family or n != _NO_NAME]  # a family: no empty name


def _family_first_walk(segs: list[str]) -> tuple[list[Name], bool] | None:
    """Read ``Family, Given[, Suffix], Family, Given…`` segments; ``None`` if they do not fit.

    The flag tells whether a given segment ends in an initial.
    """
    names: list[Name] = []
    initials = False
    k = 0
    while k < len(segs):
        if k + 1 >= len(segs) or not (_family_like(segs[k]) and _given_like(segs[k + 1])):
            return None
        initials = initials or _ends_in_initial(segs[k + 1])
        rest = [segs[k + 1]]
        k += 2
        if k < len(segs) and _is_suffix(segs[k]):
            rest.append(segs[k])
            k += 1
        names.append(_family_first(segs[k - len(rest) - 1], rest))
    return names, initials


def _split_commas(text: str) -> list[Name]:
    joined = "and" in text or "AND" in text or "&" in text  # what every split of _AND_SPLIT_RE holds
    chunks = [c for c in (_AND_SPLIT_RE.split(text) if joined else [text]) if c.strip()]
    walked = [_family_first_walk([s.strip() for s in c.split(",") if s.strip()]) for c in chunks]
    if all(w is not None for w in walked):
        pairs = len(chunks) > 1 and all(w is not None and len(w[0]) == 1 for w in walked)
        if pairs or any(w is not None and w[1] for w in walked):
            return [n for w in walked if w is not None for n in w[0]]
    parts = [p for p in _LIST_SPLIT_RE.split(text) if p and p.strip()]
    names: list[Name] = []
    for part in parts:
        if _is_suffix(part.strip()) and names and not names[-1].suffix and names[-1].literal is None:
            names.append(replace(names.pop(), suffix=part.strip()))
        else:
            names.append(parse_name(part))
    return names
