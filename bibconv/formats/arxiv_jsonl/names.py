"""The authors of an arXiv snapshot line as names: ``authors_parsed`` entries (:func:`parsed_name`)
or, without them, the ``authors`` line (:func:`names_from_string`)."""

from __future__ import annotations

import re
from typing import Any

from bibconv.latex import decode, has_tex
from bibconv.model import Name
from bibconv.patterns import lazy

__all__ = ["names_from_string", "parsed_name"]

_PARTICLE = lazy(r"((?:[a-z][\w'’]*\s+)+)(\S.*)")
_PARTICLE_WORD = lazy(r"[a-z][\w'’]*")
_BLANKS = lazy(r"(\s+)")
_COLLABORATION = lazy(r"\b(?:collaboration|consortium|group|team|project)\b", re.IGNORECASE)


def _plain(text: str) -> str:
    return decode(text, markup=False) if has_tex(text) else text


def parsed_name(parts: Any) -> Name:
    """One ``authors_parsed`` entry ``[family, given, suffix, affiliation…]`` as a name."""
    if isinstance(parts, str):
        parts = [parts]
    if not isinstance(parts, (list, tuple)) or not parts:
        raise ValueError("an authors_parsed entry must be a non-empty list [family, given, suffix]")
    texts = [_plain(p.strip()) if isinstance(p, str) else "" for p in parts]
    family, given, suffix = [*texts, "", ""][:3]
    affiliation = tuple(a for a in texts[3:] if a)
    if not given and not suffix and " " in family and _COLLABORATION.search(family):
        return Name(literal=family, affiliation=affiliation)
    particle = None
    if family[:1].islower():
        match = _PARTICLE.fullmatch(family)
        if match:
            particle, family = match[1].rstrip(), match[2]
    elif given[-1:].islower() and " " in given:
        # arXiv's splitter knows only some particles: "Antal van den Bosch" gives ["Bosch", "Antal van den"].
        found = _trailing_particle(given)
        if found and not found[0][:1].islower():
            given, particle = found
    return Name(
        family=family or None,
        given=given or None,
        suffix=suffix or None,
        non_dropping_particle=particle,
        affiliation=affiliation,
    )


def _trailing_particle(given: str) -> tuple[str, str] | None:
    """``given`` cut before the lowercase words (``van den``) that end it, when some text is left
    before them: ``("Antal", "van den")``. Linear: the words are judged from the end."""
    parts = _BLANKS.split(given)  # words at even places, the blanks between them at odd ones
    words = parts[::2]
    first = len(words)  # words[first:] are the particle
    while first > 1 and _PARTICLE_WORD.fullmatch(words[first - 1]):
        first -= 1
    if first < len(words) and not "".join(parts[: 2 * first - 1]).strip():
        first += 1  # the text before the particle must not be blank
    if first >= len(words):
        return None
    return "".join(parts[: 2 * first - 1]), "".join(parts[2 * first :])


def names_from_string(authors: str) -> tuple[Name, ...]:
    """The ``authors`` line split into names (when a line has no ``authors_parsed``)."""
    from bibconv.names import split_name_list

    return tuple(split_name_list(_plain(" ".join(authors.split()).strip())))
