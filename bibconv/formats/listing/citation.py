"""Free-text citations as homepages and publication lists write them.

``A. Author and B. Author. Title of the paper. In Venue, pages 1-10, 2019.`` and its
variants: ``Authors (2019). Title. Journal 12(3):45-67.``, a title in quotes, a title the
page links or sets in bold (``title_hint``), a venue it sets in italics (``venue_hint``).
The authors are the longest run at the start that reads as a name list and ends a
sentence (an initial's period does not end one); the title is the next sentence; the rest
is the venue and its details (volume, issue, pages, year). Identifiers in the text (DOI,
arXiv id) are taken too. Text that does not start with names gives ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bibconv.dates import search_date
from bibconv.formats.listing.common import Entry, author_list, clean_space, looks_like_names
from bibconv.formats.listing.memo import per_item
from bibconv.model import Arxiv, Date, Name
from bibconv.patterns import lazy, led_by, may_end

__all__ = ["Citation", "parse_citation"]

_NUMBERING = lazy(r"^\s*(?:\[[\w+.-]{1,12}\]|\(\d{1,4}\)|\d{1,4}[.)])\s+")
# A sentence ends at ". ", "? ", "! " unless the word before the period is an initial or
# a common abbreviation.
_END = led_by(r"[\"'”’)\s.?!]", r"(?<=[.?!])[\"'”’)]?\s+(?=[\"'“‘(]?[^\s\W_]|\d)|[.?!]\s*$")
_NOT_END = lazy(
    r"(?:\b|^)(?:[A-Z]|[A-Z][a-z]?\.-?[A-Z]|Ch|Th|Ph|Jr|Sr|St|Dr|Mr|Mrs|Ms|Prof|al|vol|Vol|no|No|pp|ed|eds|Eds|"
    r"Proc|Conf|Int|Intl|Int'l|Trans|J|Symp|Comput|Sci|Eng|Univ|Dept|Lett|Rev|Phys|Math|Inf|"
    r"Syst|Appl|Mach|Learn|Res|Nat|Natl|Adv|Ann|Assoc|Soc|vs|etc|e\.g|i\.e|cf|Fig|Sec|Eq)\.$"
)
_DOI = led_by(
    r"[dh1]",
    r"\b(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;)\]])",
    re.IGNORECASE,
)
_ARXIV = led_by(
    "a",
    r"\barxiv(?:\.org/(?:abs|pdf)/|\s*:\s*|\s+(?:preprint\s+)?(?:arxiv:)?)(\d{4}\.\d{4,5}|[a-z.-]+/\d{7})(v\d+)?",
    re.IGNORECASE,
)
_YEAR = led_by("[12]", r"(?<![\d./-])((?:19|20)\d\d)[a-z]?(?![\d/-]|\.\d)")
_PAREN_YEAR = lazy(r"^\s*\(((?:19|20)\d\d)[a-z]?\)\s*[.,:]?\s*")
_IN = lazy(r"^\s*(?:in\s*:?|in:|dans|en)\s+", re.IGNORECASE)
_PAGES = led_by("[pPsSſ]", r"\b(?:pp?\.|pages?|S\.)\s*(\d+\s*[-–—]+\s*\d+|\d+)", re.IGNORECASE)
_VOLUME_ISSUE = lazy(r"\b(\d{1,4})\s*\((\d{1,4}(?:[-–]\d{1,4})?)\)(?:\s*[:,]\s*(\d+(?:\s*[-–]+\s*\d+)?))?")
_VOLUME_PAGES = lazy(r"\b(\d{1,4})\s*:\s*(\d+(?:\s*[-–]+\s*\d+)?)\b")
_VOLUME_WORD = led_by("[vV]", r"\b(?:vol\.?|volume)\s*(\d+)", re.IGNORECASE)
_VENUE_STOP = led_by(
    r"[,\s]",
    r",\s*(?=(?:vol\.?|volume|no\.|pp?\.|pages?|\d|(?:19|20)\d\d|[A-Z][a-z]+\s+(?:19|20)\d\d))"
    r"|(?<!\s)\s++\d{1,4}(?=\s*+[(:,]|\s*+$)",
    re.IGNORECASE,
)
_VOLUME_COMMA_PAGES = lazy(r"\b(\d{1,4}),\s*(?:pp?\.\s*)?(\d+\s*[-–—]+\s*\d+)")
# Led by the characters their matches start with, the case-insensitive ones in any case (``ſ`` is an ``s``).
_CONFERENCE = led_by(
    "[acfmpswſA-Z(]",
    r"(?i:\b(?:conference|proceedings|proc\.|workshop|symposium|congress|meeting|colloquium|conf\.|"
    r"assembly|summit|forum)\b)|\b[A-Z]{2}[A-Za-z]*+\s*+'?(?:19|20)?\d\d\b|\([A-Z]{2}[A-Za-z-]*+\)",
)
_JOURNAL = led_by(
    "[abjlmrtABJLMRT]", r"(?i:\b(?:journal|transactions|letters|review|magazine|annals|bulletin)\b)|^J\.\s"
)
# Runs of spaces are taken from their start only, ``(?<!\s)\s++``: linear under search.
_ET_AL_END = led_by(
    r"[\s,(ea]",
    r"(?<![\s,])[\s,]*+\b(?:et\.?\s+al\.?|and\s+others)\s*$|(?:,|(?<!\s))\s*+\(?\beds?\.?\)?$",
    re.IGNORECASE,
)
_ET_AL_END_ENDINGS = ("al", "al.", "others", "ed", "eds", "ed.", "eds.", ")")  # how its matches end
_THESIS_AT = lazy(r"^\s*+(?:[,:;–-]\s*+)?(?:(?:at|in|from)\s++)?")
_ISBN_END = lazy(r"(?:,|(?<!\s))\s*+ISBN(?:-1[03])?:?\s*+([\d][\d-]{8,16}[\dX])\s*$", re.IGNORECASE)
_THESIS = led_by("[td]", r"\b(?:thesis|dissertation|tesi|thèse|doktorarbeit|dissertação)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Citation:
    """The parts of one citation: what :func:`parse_citation` read, before it becomes an entry."""

    authors: tuple[Name, ...]
    more_authors: bool
    title: str
    venue: str
    year: int | None


@per_item
def _sentence_ends(text: str, start: int = 0) -> list[int]:
    """Offsets just after each sentence end in ``text`` from ``start``."""
    ends: list[int] = []
    for match in _END.finditer(text, start):
        stop = match.start() + 1 if text[match.start()] in ".?!" else match.start()
        head = text[:stop].rstrip("\"'”’)")
        if head.endswith(".") and _NOT_END.search(head[-12:]):
            continue
        ends.append(stop)
    return ends


@per_item
def _authors_end(text: str) -> int | None:
    """Where the leading name list ends (just after its closing period), if the text starts with one."""
    for end in _sentence_ends(text)[:12]:
        head = text[:end].strip().rstrip(".:")
        if len(head) > 3000:
            return None
        if _names(_PAREN_YEAR.sub("", head)) or _names_with_year(head) is not None:
            return end
    for match in re.finditer(
        r"(?:(?<!\s)\s++)?(?:\((?:19|20)\d\d[a-z]?\)|:)\s*", text[:3000]
    ):  # "Authors (2019) Title", "Authors: Title"
        if _names(text[: match.start()]):
            return match.end()
    return None


def _names(text: str) -> bool:
    """Whether ``text`` is a name list, ``et al.`` and ``…`` allowed."""
    text = text.replace("…", ",")
    cut = (_ET_AL_END.sub("", text) if may_end(text, _ET_AL_END_ENDINGS) else text).strip(" ,")
    return bool(cut) and looks_like_names(cut)


def _names_with_year(head: str) -> str | None:
    """``Authors (2019)`` → ``Authors``; ``None`` when ``head`` is not that."""
    if not head.endswith((")", ")\n")):  # what the pattern's closing ``\)$`` needs
        return None
    match = re.match(r"^(?P<names>.+?)(?:(?<!\s)|(?<=^\s))\s*+\(\s*+(?:19|20)\d\d[a-z]?\s*+\)$", head)
    return match.group("names") if match and looks_like_names(match.group("names")) else None


def _split_title(rest: str, venue_hint: str | None) -> tuple[str, str]:
    """``Title. Venue…`` → ``(title, venue…)``."""
    rest = rest.lstrip()
    if venue_hint and rest.startswith(venue_hint):  # the italics are the title
        return venue_hint, rest[len(venue_hint) :]
    quoted = re.match(r"^\s*[\"“‘'](?P<title>.+?)[,.]?[\"”’'][,.]?\s*(?P<rest>.*)$", rest)
    if quoted:
        return quoted.group("title"), quoted.group("rest")
    ends = _sentence_ends(rest)
    at = rest.find(venue_hint) if venue_hint else -1
    if at > 0:
        ends = [e for e in ends if e <= at] or [at]
    if not ends:
        return rest, ""
    return rest[: ends[0]], rest[ends[0] :]


def _strip_title(title: str) -> str:
    title = clean_space(title).strip(" ,;")
    if title.endswith(".") and not title.endswith("..."):
        title = title[:-1]
    return title.strip(' "“”')


@per_item
def parse_citation(
    text: str, title_hint: str | None = None, venue_hint: str | None = None
) -> Citation | None:
    """Authors, title, venue and year of a free-text citation; ``None`` when it does not start with names."""
    text = _plain_citation(text)
    if len(text) < 20 or len(text) > 5000:
        return None
    hint_at = text.find(title_hint) if title_hint and len(title_hint) >= 4 else -1
    year: int | None = None
    if hint_at > 0:
        head, title, venue = text[:hint_at], title_hint or "", text[hint_at + len(title_hint or "") :]
        head = head.strip().rstrip('.,:;“"').strip()
        names_text = _names_with_year(head) or head
        if names_text is not head:
            year = int(re.findall(r"(?:19|20)\d\d", head)[-1])
        if not _names(names_text):
            return None
    elif hint_at == 0:
        title = title_hint or ""
        after = text[len(title) :].lstrip(" .,:")
        end = _authors_end(after)
        if end is None:
            return None
        names_text, venue = after[:end].strip().rstrip(".:"), after[end:]
    else:
        leading = _leading_names(text)
        if leading is None:
            return None
        names_text, rest, year = leading
        title, venue = _split_title(rest, venue_hint)
    names_text = _PAREN_YEAR.sub("", names_text).strip()
    authors, more = author_list(names_text)
    title = _strip_title(title)
    if not authors or not title:
        return None
    venue = clean_space(venue).strip(" .,;")
    if year is None:
        years = _YEAR.findall(venue)
        year = int(years[-1]) if years else None
    return Citation(authors, more, title, venue, year)


@per_item
def _plain_citation(text: str) -> str:
    """The citation's text on one line, without its number (``[12]``, ``3.``)."""
    return clean_space(_NUMBERING.sub("", text))


@per_item
def _leading_names(text: str) -> tuple[str, str, int | None] | None:
    """The name list a citation starts with, the text after it, and the year in parentheses after
    the names (``Authors (2019). Title…``, ``Authors. (2019) Title…``); ``None`` without names."""
    end = _authors_end(text)
    if end is None:
        return None
    names_text, rest, year = text[:end].strip().rstrip(".:"), text[end:], None
    if paren := _PAREN_YEAR.match(rest):
        year, rest = int(paren.group(1)), rest[paren.end() :]
    elif (stripped := _names_with_year(names_text)) is not None:
        year = int(re.findall(r"(?:19|20)\d\d", names_text)[-1])
        names_text = stripped
    return names_text, rest, year


def _venue_fields(venue: str, entry: Entry) -> None:
    """Container title, volume, issue and pages from the venue part."""
    body = _IN.sub("", venue)
    stop = _VENUE_STOP.search(body)
    container = (body[: stop.start()] if stop else body).strip(" ,.;")
    container = re.sub(r"(?:,|(?<!\s))\s*+(?:19|20)\d\d[a-z]?$", "", container).strip(" ,.;")
    thesis = _THESIS.search(container)
    if thesis is not None and len(container[: thesis.start()].split()) <= 3:
        _thesis_fields(container, thesis.end(), entry)
        return
    if container and not container.isdigit() and len(container) <= 300:
        entry.fields["container-title"] = container
    if match := _holding(_VOLUME_ISSUE, body, "("):
        entry.fields["volume"], entry.fields["issue"] = match.group(1), match.group(2)
        if match.group(3):
            entry.fields["page"] = _dash(match.group(3))
    elif match := _holding(_VOLUME_PAGES, body, ":") or _holding(_VOLUME_COMMA_PAGES, body, ","):
        entry.fields["volume"], entry.fields["page"] = match.group(1), _dash(match.group(2))
    elif match := _VOLUME_WORD.search(body):
        entry.fields["volume"] = match.group(1)
    if "page" not in entry.fields and (match := _PAGES.search(body)):
        entry.fields["page"] = _dash(match.group(1))
    if _THESIS.search(venue):
        entry.record_type = "thesis"
    elif _JOURNAL.search(container) and not _CONFERENCE.search(container):
        entry.record_type = "article-journal"
    elif _IN.match(venue) or _CONFERENCE.search(container):
        entry.record_type = "paper-conference"
    elif "volume" in entry.fields:
        entry.record_type = "article-journal"


def _thesis_fields(venue: str, end: int, entry: Entry) -> None:
    """A thesis's venue (``Ph.D. thesis at Georgia State University``, ``Doctoral thesis, University
    of Bielefeld, …, ISBN: 3-8322-1103-9``): the kind of thesis up to ``end``, then its institution
    and an ISBN. A thesis is in no container."""
    entry.record_type, entry.fields["genre"] = "thesis", venue[:end].strip(" ,.;")
    rest = venue[end:]
    if isbn := _ISBN_END.search(rest):
        entry.fields["ISBN"], rest = isbn.group(1), rest[: isbn.start()]
    institution = _THESIS_AT.sub("", rest).strip(" ,.;")
    if institution:
        entry.fields["publisher"] = institution


def _holding(pattern: re.Pattern[str], text: str, needed: str) -> re.Match[str] | None:
    """``pattern.search(text)``, asked only when ``text`` holds ``needed``, which every match holds."""
    return pattern.search(text) if needed in text else None


def _dash(pages: str) -> str:
    return re.sub(r"(?:(?<!\s)\s++)?[-–—]+\s*", "-", pages.strip())


def citation_entry(
    text: str, title_hint: str | None = None, venue_hint: str | None = None, lang: str | None = None
) -> Entry | None:
    """The entry a free-text citation describes (see the module docstring); ``None`` if it is not one."""
    from bibconv.arxiv import parse_arxiv_id

    usable = title_hint if title_hint and not looks_like_names(title_hint) else None
    found = (parse_citation(text, usable, venue_hint) if usable else None) or parse_citation(
        text, None, venue_hint
    )
    if found is None:
        return None
    entry = Entry(title=found.title, authors=found.authors, more_authors=found.more_authors)
    venue = found.venue
    if "10." in text and (doi := _DOI.search(text)):  # a DOI starts "10."
        entry.doi = doi.group(1)
        venue = venue.replace(doi.group(0), " ")
    if ("x" in text or "X" in text) and (arxiv := _ARXIV.search(text)):  # "arxiv" in any case
        parsed = parse_arxiv_id(arxiv.group(1) + (arxiv.group(2) or ""), bare=True)
        if parsed:
            entry.arxiv = Arxiv(id=parsed[0], version=parsed[1])
    _venue_fields(clean_space(venue).strip(" .,;"), entry)
    if found.year is not None:
        dated = search_date(venue, lang)
        exact = dated[0] if dated and dated[0].year == found.year else None
        entry.issued = exact or Date(parts=((found.year,),))
    return entry
