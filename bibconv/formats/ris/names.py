"""RIS names: ``Last, First, Suffix``, read and written."""

from __future__ import annotations

from bibconv.model import Name
from bibconv.names_cjk import split_unspaced
from bibconv.patterns import lazy

__all__ = ["format_ris_name", "parse_ris_name"]


def format_ris_name(name: Name) -> str:
    """RIS ``Last, First, Suffix`` with the non-dropping particle in ``Last``; literal as is.

    A family-only name keeps its comma (``Madonna,``), so that :func:`parse_ris_name` does not read it
    as a literal; a dropping particle follows the given names.
    """
    if name.literal is not None:
        return name.literal
    given = " ".join(p for p in (name.given, name.dropping_particle) if p)
    parts = [name.family_full(), given]
    if name.suffix:
        parts.append(name.suffix)
    while len(parts) > 2 and not parts[-1]:
        parts.pop()
    return ", ".join(parts) if parts[1] or len(parts) > 2 else parts[0] + ","


_RIS_PARTICLE_RE = lazy(r"^((?:[a-z][\w'’]*\s+)+)(?=\S)")


def parse_ris_name(text: str) -> Name:
    """Read an RIS ``Last, First, Suffix`` name; leading lowercase words of ``Last`` are a particle.

    Text without a comma is an organisation (literal), as RIS writers put personal names family-first,
    except a CJK personal name written without a space (``李小明``; :mod:`bibconv.names_cjk`).

    >>> parse_ris_name("van der Waals, J. D.").to_csl()
    {'family': 'Waals', 'given': 'J. D.', 'non-dropping-particle': 'van der'}
    """
    text = text.strip()
    if "," not in text:
        if split := split_unspaced(text):
            return Name(family=split[0], given=split[1])
        return Name(literal=text) if text else Name()
    family, _, rest = text.partition(",")
    given, _, suffix = rest.partition(",")
    family, given, suffix = family.strip(), given.strip(), suffix.strip()
    particle = None
    m = _RIS_PARTICLE_RE.match(family)
    if m and family[m.end() :].strip():
        particle = m[1].strip()
        family = family[m.end() :].strip()
    return Name(
        family=family or None, given=given or None, non_dropping_particle=particle, suffix=suffix or None
    )
