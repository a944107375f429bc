"""The arXiv block of a BibTeX entry, from every spelling real files use (``eprint`` with
``archivePrefix``/``eprinttype``, arXiv DOIs and abs URLs, ``journal = {arXiv preprint arXiv:…}``,
DBLP's ``volume = {abs/…}``, bibconv's own ``arxiv…`` fields); the fields that only repeat it are
consumed, so they are not kept twice.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bibconv.arxiv import ARXIV_ID, parse_arxiv_id
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.read_values import plain, verbatim
from bibconv.model import Arxiv, Date
from bibconv.patterns import lazy

__all__ = ["PREPRINT_TYPES", "arxiv_block", "may_be_arxiv"]

PREPRINT_TYPES = frozenset({"misc", "online", "unpublished", "electronic", "www", "preprint"})
_ARXIV_FIELDS = ("eprint", "archiveprefix", "eprinttype", "primaryclass", "eprintclass")
_SEARCH_FIELDS = ("doi", "url", "number", "journal", "journaltitle", "howpublished", "note")
_SEARCHED = frozenset(_SEARCH_FIELDS)
_ONLY_FIELDS = frozenset({"number", "journal", "journaltitle", "howpublished", "note"})
_BARE_ID_RE = lazy(rf"^(?:{ARXIV_ID.pattern})$")
_CLASS_RE = lazy(r"\[\s*([a-z][a-z\-]*(?:\.[A-Za-z\-]+)?)\s*\]")
_NOISE_RE = lazy(r"arxiv\s*preprint|e-?prints?|preprint|arxiv|abs/|[\s.,:;()\[\]]+", re.I)
_ABS_VOLUME_RE = lazy(r"^\s*abs/(\S+)\s*$")
_CATEGORY_SPLIT_RE = lazy(r"[\s,]+")

_Found = tuple[str, int | None]  # an id and its version


def _only_arxiv(value: str, arxiv_id: str | None) -> tuple[bool, str | None]:
    """Whether ``value`` says nothing but "arXiv (preprint) <id> [class]"; and the class."""
    cls = _CLASS_RE.search(value)
    rest = value.replace(arxiv_id, "") if arxiv_id else value
    rest = re.sub(r"v\d+", "", rest) if arxiv_id else rest
    rest = _CLASS_RE.sub("", rest)
    return _NOISE_RE.sub("", rest) == "", cls[1] if cls else None


def arxiv_block(fields: dict[str, str], entry: str) -> tuple[Arxiv | None, set[str], bool, str | None]:
    """The arXiv block, the fields it consumes, whether the entry is a preprint, and several classes.

    Better BibTeX writes ``primaryclass = {cs, eess, q-bio}``: the first is the primary class, the
    list is returned as written, for the writers to write back.
    """
    consumed: set[str] = set()
    found = _from_eprint(fields, consumed)
    classes = (fields.get("primaryclass") or fields.get("eprintclass") or "").strip() if found else ""
    found, classes = _search(fields, found, consumed, classes)
    if found is None:
        found = _from_abs_volume(fields)
        if found is None:
            return None, set(), False, None
    preprint = _consume_repeats(fields, entry, consumed)
    class_list = [c.strip() for c in classes.split(",") if c.strip()]
    arxiv = Arxiv(id=found[0], version=found[1], primary_class=class_list[0] if class_list else None)
    arxiv = _arxiv_details(arxiv, fields, consumed)
    return arxiv, consumed, preprint, classes if len(class_list) > 1 else None


def _from_eprint(fields: dict[str, str], consumed: set[str]) -> _Found | None:
    """The id (and version) in ``eprint`` when the entry says it is arXiv's, or the id looks like it."""
    eprint = fields.get("eprint", "")
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    if not eprint or not (
        prefix == "arxiv" or (not prefix and (_BARE_ID_RE.match(eprint.strip()) or "arxiv" in eprint.lower()))
    ):
        return None
    found = parse_arxiv_id(verbatim(eprint), bare=True)
    if found:
        consumed.update(f for f in _ARXIV_FIELDS if f in fields)
        version = verbatim(fields.get("arxivversion", ""))
        if found[1] is None and version.isdigit():  # before URLs, which may name other versions
            found = (found[0], int(version))
    return found


def _search(
    fields: dict[str, str], found: _Found | None, consumed: set[str], classes: str
) -> tuple[_Found | None, str]:
    """The id in the fields that may name it (DOI, URL, journal, note…), agreeing with ``found``; the
    fields that say nothing else are consumed, and a class they name is taken when none is yet."""
    for name in _SEARCH_FIELDS:
        value = fields.get(name)
        if not value:
            continue
        text = verbatim(value) if name in ("doi", "url") else value
        here = parse_arxiv_id(text, bare=False)
        if here is None:
            continue
        if found is None:
            found = here
        elif here[0] != found[0] or (here[1] and found[1] and here[1] != found[1]):
            continue
        if found[1] is None and here[1]:
            found = (found[0], here[1])
        if name == "doi":  # the arXiv DOI; a URL is kept unless it is the abs URL (without_implied)
            consumed.add(name)
        elif name in _ONLY_FIELDS:
            only, cls = _only_arxiv(value, found[0])
            if only:
                consumed.add(name)
                classes = classes or (cls or "")
    return found, classes


def _from_abs_volume(fields: dict[str, str]) -> _Found | None:
    """The id of ``volume = {abs/…}`` beside a journal that only says arXiv (DBLP's old form)."""
    volume = _ABS_VOLUME_RE.match(fields.get("volume", ""))
    journals = [f for f in ("journal", "journaltitle") if f in fields and _only_arxiv(fields[f], None)[0]]
    if not (volume and journals):
        return None
    return parse_arxiv_id(volume[1])


def _consume_repeats(fields: dict[str, str], entry: str, consumed: set[str]) -> bool:
    """Consume the fields that only repeat the arXiv block (a journal that says arXiv, ``publisher =
    {arXiv}``, an ``abs/`` volume, a preprint's pubstate); whether the entry is a preprint."""
    for name in ("journal", "journaltitle"):
        if name in fields and name not in consumed and _only_arxiv(fields[name], None)[0]:
            consumed.add(name)
    if (fields.get("publisher") or "").strip().lower() in ("arxiv", "arxiv.org", "{arxiv}"):
        consumed.add("publisher")
    journal_gone = "journal" in consumed or "journaltitle" in consumed
    if journal_gone and _ABS_VOLUME_RE.match(fields.get("volume", "")):
        consumed.add("volume")
    containers = [f for f in ("journal", "journaltitle") if f in fields and f not in consumed]
    preprint = entry in PREPRINT_TYPES or (entry == "article" and not containers)
    if preprint and (fields.get("pubstate") or "").strip().lower() in ("prepublished", "preprint"):
        consumed.add("pubstate")
    return preprint


def _arxiv_details(arxiv: Arxiv, fields: dict[str, str], consumed: set[str]) -> Arxiv:
    """The rest of the arXiv block from bibconv's own fields (:data:`bibtex_map.ARXIV_FIELDS`)."""
    values: dict[str, Any] = {}
    for name, attribute in m.ARXIV_FIELDS.items():
        raw = fields.get(name)
        if raw is None:
            continue
        if attribute == "version":
            text = verbatim(raw)
            if not text.isdigit() or (arxiv.version and int(text) != arxiv.version):
                continue  # kept in extra: it does not agree with the eprint
            values[attribute] = int(text)
        elif attribute == "categories":
            values[attribute] = tuple(c for c in _CATEGORY_SPLIT_RE.split(verbatim(raw)) if c)
        elif attribute in ("submitted", "updated"):
            values[attribute] = Date.from_edtf(verbatim(raw))
        else:
            values[attribute] = plain(raw)
        consumed.add(name)
    return replace(arxiv, **values) if values else arxiv


def may_be_arxiv(fields: dict[str, str]) -> bool:
    """Whether an entry may hold an arXiv block (a cheap test before :func:`arxiv_block`)."""
    if "eprint" in fields or "abs/" in fields.get("volume", ""):
        return True
    if _SEARCHED.isdisjoint(fields):
        return False
    return any("arxiv" in fields[name].lower() for name in _SEARCH_FIELDS if name in fields)
