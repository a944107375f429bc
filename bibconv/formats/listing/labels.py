"""Field labels listing pages print before a value ("Authors:", "Résumé :", "著者："), in the
languages research sites use, and the column headings of tables of papers.
"""

from __future__ import annotations

import re

from bibconv.patterns import lazy

__all__ = ["ABSTRACT", "AUTHORS", "CHROME", "DATE", "SECTION", "column_role", "strip_label"]

_COLON = r"\s*[:：]\s*"
AUTHORS = lazy(
    r"^\s*+(?:authors?|author\(s\)|auteur(?:e)?s?|autor(?:e|es|en|in|innen)?|autori|autoři|autorzy|auteurs?|"
    r"authored by|written by|著者|作者|저자|авторы?)" + _COLON + r"|^\s*+(?:by|par|von|door|por|di)\s+(?=\S)",
    re.IGNORECASE,
)
ABSTRACT = lazy(
    r"^\s*+(?:abstract|summary|résumé|resume|zusammenfassung|kurzfassung|resumen|riassunto|sommario|resumo|"
    r"samenvatting|streszczenie|abstrakt|sammanfattning|tiivistelmä|概要|要旨|抄録|摘要|초록|요약|аннотация|"
    r"реферат)" + _COLON,
    re.IGNORECASE,
)
DATE = lazy(
    r"^\s*+(?:date|dated|published|posted|submitted|announced|publication date|publi(?:é|ée|e)|paru|"
    r"mis en ligne|datum|veröffentlicht|eingereicht|erschienen|fecha|publicado|enviado|data|pubblicato|"
    r"gepubliceerd|opublikowano|公開日|投稿日|発行日|掲載日|日付|发布日期|发表日期|日期|게시일|날짜|дата)"
    r"(?:\s+(?:on|le|am|el|il|em|op))?(?:" + _COLON + r"|\s+(?=\d|\w+\s+\d))",
    re.IGNORECASE,
)
_AUTHOR_WORDS = (
    r"authors?|author\(s\)|auteur(?:e)?s?|autor(?:e|es|en|in|innen|\(en\))?|autori|autoři|autorzy|"
    r"著者|作者|저자|авторы?"
)
_ABSTRACT_WORDS = (
    r"abstract|summary|résumé|zusammenfassung|resumen|riassunto|resumo|概要|要旨|摘要|초록|аннотация"
)
_DATE_WORDS = (
    r"date|published|submitted|datum|fecha|data|日付|日期|날짜|дата|publié le|veröffentlicht|year|anno|année|"
    r"jahr|año|ano|jaar|defen[cs]e date|data di conseguimento"
)
_PUBLISHER_WORDS = (
    r"univ\.?|university|universit[àaé]|universität|universidad|universidade|institution|institute|"
    r"istituto|institut|school|affiliation|organi[sz]ation|publisher|éditeur|verlag|editore|editora"
)
_GENRE_WORDS = r"type|tipo|typ|kind|genre|degree|grado|grau|diplôme|abschluss"
_ROLES = tuple(
    (role, lazy(rf"^\s*+(?:{words})\s*+[:：]?\s*$", re.IGNORECASE))
    for role, words in (
        ("title", r"title|titre|titel|título|titolo|tytuł|název|タイトル|題名|标题|標題|题目|제목|название"),
        ("authors", _AUTHOR_WORDS + r"|names?|nome|nom|naam|nombre|student|candidate|candidat[oe]?"),
        ("publisher", _PUBLISHER_WORDS),
        ("genre", _GENRE_WORDS),
        (
            "skip",
            r"citations?|cited by|cites|citas|zitationen|downloads?|views|reads|score|rank|#|no\.?|n[°º]|"
            r"id|files?|pdf|links?|code|slides|video|poster|bib(?:tex)?",
        ),
        ("abstract", _ABSTRACT_WORDS),
        ("date", _DATE_WORDS),
    )
)


CHROME = lazy(  # every alternative starts with a word character: \W*+ gives nothing back
    r"^\W*+(?:(?:page|pagina|página|seite|strona|sida|side)\s+\d+\s*(?:/|of|di|de|von|z|av|sur)\s*\d+"
    r"|(?:showing|displaying|results?|risultati|résultats|resultados|ergebnisse|treffer|trovati|found)"
    r"\s*[:\-–]?\s*\d[\d,.]*(?:\s*[-–]\s*\d+)?(?:\s*(?:of|di|de|von|sur|out of)\s*\d[\d,.]*)?"
    r"(?:\s*(?:results?|records?|items))?\W*$"
    r"|\d[\d,.]*\s*(?:results?|records?|hits|items|treffer|résultats|resultados|risultati|record trovati|"
    r"documents?)\b"
    r"|(?:next|previous|prev|first|last|more|home|log ?in|sign ?in|sign ?up|register|search|advanced search|"
    r"download|export|print|share|cite|cited by|citations?|related articles|all \d+ versions|scarica|"
    r"télécharger|herunterladen|descargar|baixar|sort by|order by|filter|refine|back to top|menu|contact|"
    r"contact us|cookie policy|cookies?|privacy(?: policy)?|imprint|impressum|terms(?: of use)?|"
    r"accessibility|"
    r"sitemap|help|faq|about(?: us)?)\b\W*$"
    r"|(?:scarica|download|export|télécharger|herunterladen|descargar|baixar)\s+(?:file\s+)?"
    r"(?:excel|csv|pdf|bibtex|ris|xml|xls|citations?|results?)\b"
    r"|cited by\s+\d+|zitiert von|cité \d+ fois|citado por)",
    re.IGNORECASE,
)
"""Text of a site's chrome (pagers, result counts, download and "cited by" links): never a title or author."""


SECTION = lazy(
    r"^\W*+(?:[\w/-]++\s++){0,3}(?:committees?|chairs?|webmaster|organi[sz]ers?|sponsors?|speakers?|keynotes?|"
    r"important dates|call for (?:papers|participation)|registration|venue|travel|contacts?|members?|"
    r"comité|comitato|komitee|ausschuss)\W*+$",
    re.IGNORECASE,
)
"""Headings of a conference or lab site's sections (``Program Committee Chairs``): never a paper."""


def strip_label(pattern: re.Pattern[str], text: str) -> str | None:
    """``text`` without its label when it starts with one, else ``None``."""
    match = pattern.match(text)
    return text[match.end() :].strip() if match else None


def column_role(heading: str) -> str | None:
    """``"title"``, ``"authors"``, ``"abstract"``, ``"date"``, ``"publisher"``, ``"genre"`` or ``"skip"``
    (counts, numbers, links: never a field) for a table's column heading."""
    text = heading.strip()
    for role, pattern in _ROLES:
        if pattern.match(text):
            return role
    return None
