"""The links of a feed entry that cannot be derived from its arXiv id and DOI (kept in
``extra["atom:link"]``, see :mod:`bibconv.formats.atom.entry`)."""

from __future__ import annotations

import re

from bibconv.arxiv import parse_arxiv_id
from bibconv.model import Arxiv
from bibconv.patterns import lazy

__all__ = ["extra_links"]

_DOI_URL_RE = lazy(r"^https?://(?:dx\.)?doi\.org/", re.IGNORECASE)
_OWN_LINK_PREFIXES = (
    "http://arxiv.org/abs/",
    "http://arxiv.org/pdf/",
    "https://arxiv.org/abs/",
    "https://arxiv.org/pdf/",
)
_ARXIV_LINK_RE = lazy(r"^https?://(?:www\.|export\.)?arxiv\.org/(?P<kind>abs|pdf)/(?P<rest>.+?)/?$")


def extra_links(links: list[dict[str, str]], arxiv: Arxiv, doi: str | None) -> list[dict[str, str]]:
    """The links that cannot be derived from the id and the DOI."""
    kept = []
    own = (arxiv.id, arxiv.versioned_id)
    found = ((arxiv.id, arxiv.version), (arxiv.id, None))
    for link in links:
        href = link.get("href", "")
        if href.startswith(_OWN_LINK_PREFIXES) and (href[21:] if href[4] == ":" else href[22:]) in own:
            continue  # the entry's abs or pdf URL, as the API writes it (what the regex below finds too)
        match = _ARXIV_LINK_RE.match(href)
        if match:
            rest = match["rest"].removesuffix(".pdf")
            if rest in own or parse_arxiv_id(rest) in found:  # ``own``: what parse_arxiv_id reads as found
                continue
        if doi and _DOI_URL_RE.match(href) and _DOI_URL_RE.sub("", href).lower() == doi.lower():
            continue
        if link.get("rel") == "self":
            continue
        kept.append(dict(link))
    return kept
