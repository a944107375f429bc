"""Field labels listing pages print before a value ("Authors:", "Résumé :", "著者："), in the
languages research sites use, and the column headings of tables of papers.
"""

from __future__ import annotations

import re

__all__ = ["ABSTRACT", "AUTHORS", "DATE", "column_role", "strip_label"]

_COLON = r"\s*[:：]\s*"
AUTHORS = re.compile(
    r"^\s*(?:authors?|author\(s\)|auteur(?:e)?s?|autor(?:e|es|en|in|innen)?|autori|autoři|autorzy|auteurs?|"
    r"authored by|written by|著者|作者|저자|авторы?)" + _COLON + r"|^\s*(?:by|par|von|door|por|di)\s+(?=\S)",
    re.IGNORECASE,
)
ABSTRACT = re.compile(
    r"^\s*(?:abstract|summary|résumé|resume|zusammenfassung|kurzfassung|resumen|riassunto|sommario|resumo|"
    r"samenvatting|streszczenie|abstrakt|sammanfattning|tiivistelmä|概要|要旨|抄録|摘要|초록|요약|аннотация|"
    r"реферат)" + _COLON,
    re.IGNORECASE,
)
DATE = re.compile(
    r"^\s*(?:date|dated|published|posted|submitted|announced|publication date|publi(?:é|ée|e)|paru|"
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
_DATE_WORDS = r"date|published|submitted|datum|fecha|data|日付|日期|날짜|дата|publié le|veröffentlicht"
_ROLES = tuple(
    (role, re.compile(rf"^\s*(?:{words})\s*[:：]?\s*$", re.IGNORECASE))
    for role, words in (
        ("title", r"title|titre|titel|título|titolo|tytuł|název|タイトル|題名|标题|標題|题目|제목|название"),
        ("authors", _AUTHOR_WORDS),
        ("abstract", _ABSTRACT_WORDS),
        ("date", _DATE_WORDS),
    )
)


def strip_label(pattern: re.Pattern[str], text: str) -> str | None:
    """``text`` without its label when it starts with one, else ``None``."""
    match = pattern.match(text)
    return text[match.end() :].strip() if match else None


def column_role(heading: str) -> str | None:
    """``"title"``, ``"authors"``, ``"abstract"`` or ``"date"`` for a table's column heading."""
    text = heading.strip()
    for role, pattern in _ROLES:
        if pattern.match(text):
            return role
    return None
