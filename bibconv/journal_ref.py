r"""arXiv journal references ("Phys. Rev. B 74, 024520 (2006)") read into venue, volume, pages and year.

arXiv's ``journal_ref`` is free text. The forms authors and arXiv's own conversion use are read:

* APS and most journals: ``Phys. Rev. B 74, 024520 (2006)``, ``Int. J. Mod. Phys. B, 26, 1244002
  (2012)``, ``Physical Review B 82, 060515(R) (2010)``, ``AI Magazine 44(3), 328-340 (2023)``;
* SPIRES (old arXiv entries): ``Astrophys.J.517:565-586,1999``, ``Phys.Lett.B573:94-100,2003``;
* year before pages: ``J. Algebraic Combin. 6 (1997), no. 3, 253--257``, ``ApJ 517 (1999) 565-586``;
* trailing year: ``Mathematische Zeitschrift 280, 1185-1202, 2015``, ``Software Testing, Verification
  and Reliability, 35(2):e1914, 2025``, ``Journal of Public Economics, 239 (2024)``;
* year first: ``2026 Narrative Inquiry 23 (2)``;
* volume and number words: ``International Journal of … (IJSEA), Vol.3, No.1, January 2012``;
* proceedings with year and pages: ``Proceedings of the International Laser Safety Conference, 2013,
  pp. 48-54``;
* a venue that names its year, then pages: ``In: Pattern Recognition. ICPR 2026. Lecture Notes in
  Computer Science. Springer, Cham, pp. 261-275`` (a leading ``In:`` is dropped);
* a venue and a year alone: ``AI Ethics (2022)``, ``Journal of NeuroEngineering and Rehabilitation, 2017``.

Anything else (``Proc. 2023 IEEE … (ICSTW), pp. 66-69``) is not taken apart: :func:`parse` returns
None and the caller keeps the text whole. A venue that reads as a conference (``Proceedings``,
``Conference``, ``Symposium``, ``Workshop``…) makes the work a ``paper-conference``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bibconv.patterns import lazy

__all__ = ["JournalRef", "is_proceedings", "parse"]


@dataclass(frozen=True)
class JournalRef:
    """What a journal reference says: the venue, and volume, issue, page and year where given."""

    venue: str
    volume: str | None = None
    issue: str | None = None
    page: str | None = None
    year: int | None = None


_YEAR = r"(?P<year>1[89]\d\d|20\d\d)"
_PAGE = r"(?P<page>[A-Za-z]?\d[\w.]*(?:\(R\))?(?:\s*-{1,3}\s*[A-Za-z]?\d[\w.]*)?)"
_VOLUME = r"(?P<volume>\d[\w.]*?)(?:\s*\((?P<issue>[\w/-]+)\))?"
_FORMS = [
    # SPIRES: Astrophys.J.517:565-586,1999
    lazy(rf"(?P<venue>[A-Za-z][^:,]*?[A-Za-z.])\s*(?P<volume>\d+):{_PAGE},\s*{_YEAR}"),
    # Phys. Rev. B 74, 024520 (2006); AI and Ethics, 5, 2719-2731 (2025)
    lazy(rf"(?P<venue>[^()]+?),?\s+{_VOLUME}\s*[,:]\s*(?:pp?\.\s*)?{_PAGE}\s*\({_YEAR}\)"),
    # J. Algebraic Combin. 6 (1997), no. 3, 253--257; ApJ 517 (1999) 565-586
    lazy(
        rf"(?P<venue>[^()]+?),?\s+(?P<volume>\d+)\s*\({_YEAR}\),?\s*(?:no\.\s*(?P<issue>\w+),\s*)?"
        rf"(?:pp?\.\s*)?{_PAGE}"
    ),
    # Mathematische Zeitschrift 280, 1185-1202, 2015; Software Testing …, 35(2):e1914, 2025
    lazy(rf"(?P<venue>[^()]+?),?\s+{_VOLUME}\s*[,:]\s*(?:pp?\.\s*)?{_PAGE},\s*{_YEAR}"),
    # Journal of Public Economics, 239 (2024)
    lazy(rf"(?P<venue>[^()\d]+?),?\s+(?P<volume>\d+)\s*\({_YEAR}\)"),
    # International Journal of … (IJSEA), Vol.3, No.1, January 2012
    lazy(
        rf"(?P<venue>.+?),\s*Vol\.?\s*(?P<volume>\d+)(?:,\s*(?:No|Issue)\.?\s*(?P<issue>\w+))?,"
        rf"\s*(?:[A-Z][a-z]+\.?\s+)?{_YEAR}"
    ),
    # Proceedings of the International Laser Safety Conference, 2013, pp. 48-54
    lazy(rf"(?P<venue>.+?),\s*{_YEAR},\s*pp?\.\s*{_PAGE}"),
    # 2026 Narrative Inquiry 23 (2)
    lazy(rf"{_YEAR}\s+(?P<venue>[^()\d]+?),?\s+{_VOLUME}"),
    # In: Pattern Recognition. ICPR 2026. Lecture Notes in Computer Science. Springer, Cham, pp. 261-275
    lazy(rf"(?P<venue>.*?\b{_YEAR}\b.*?),\s*pp?\.\s*{_PAGE}"),
    # AI Ethics (2022); Journal of NeuroEngineering and Rehabilitation, 2017; Software Testing … 2021
    lazy(rf"(?P<venue>[^()\d]+?)(?:,\s*|\s+\(|\s+){_YEAR}\)?"),
]
_PROCEEDINGS = lazy(
    r"\b(?:proc\.|proceedings|conference|conf\.|symposium|symp\.|workshops?|congress|meeting|"
    r"lecture notes)\b",
    re.I,
)
_IN = lazy(r"^In:?\s+(?=\S)")


def parse(text: str) -> JournalRef | None:
    """The parts of ``text`` when it has one of the forms in the module docstring, else None.

    >>> parse("Phys. Rev. B 74, 024520 (2006)")
    JournalRef(venue='Phys. Rev. B', volume='74', issue=None, page='024520', year=2006)
    >>> parse("Astrophys.J.517:565-586,1999")
    JournalRef(venue='Astrophys.J.', volume='517', issue=None, page='565-586', year=1999)
    >>> parse("IEEE Transactions on Information Theory ( Volume: 65 , Issue: 4 , April 2019 )") is None
    True
    """
    text = _IN.sub("", " ".join(text.split()).rstrip(" .;"))
    if len(text) > 300:
        return None
    for form in _FORMS:
        match = form.fullmatch(text)
        if match is None:
            continue
        parts = match.groupdict()
        venue = parts["venue"].strip(" ,")
        if not venue or not any(c.isalpha() for c in venue):
            continue
        page = parts.get("page")
        return JournalRef(
            venue=venue,
            volume=parts.get("volume"),
            issue=parts.get("issue"),
            page=re.sub(r"(?:(?<!\s)\s++)?-{1,3}\s*", "-", page) if page else None,
            year=int(parts["year"]) if parts.get("year") else None,
        )
    return None


def is_proceedings(venue: str) -> bool:
    """Whether a venue's name says it is a conference's proceedings rather than a journal."""
    return _PROCEEDINGS.search(venue) is not None
