"""The language a page's ``lang`` gives the one work it describes, when the work's title agrees.

A page's ``lang`` is the language of the page, which is not always the work's: an English site shows
German papers under ``<html lang="en">``. So the language is taken only for a page about one work
(citation_* or Dublin Core meta tags, an arXiv abstract page), from the ``lang`` nearest the title
shown on the page (an element around it, else ``<html>``), and only when the title agrees: written in
the language's script, and, for a language whose commonest short words are known, not with more of
another language's.

>>> work_language("en", "Attention Is All You Need"), work_language("en", "Über die Entstehung der Arten")
('en', None)
>>> work_language("ja", "深層学習による画像認識"), work_language("ja", "Deep learning")
('ja', None)
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any

from bibconv.languages import to_bcp47
from bibconv.patterns import lazy

__all__ = ["page_lang_near", "work_language"]

# A few of each language's commonest short words (articles, prepositions, conjunctions), in titles.
_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(words.split())
    for lang, words in {
        "en": "the of and for in on with to a an from by via towards using is are its",
        "de": "der die das und für mit von zur zum den dem des ein eine einer über im bei auf aus",
        "fr": "le la les des du de et pour une un sur dans aux au par en l d",
        "es": "el la los las del de y para con una un por en sobre al",
        "it": "il lo la gli le dei delle della del di e per con una un nel nella sul sulla",
        "pt": "o a os as do da dos das de e para com uma um no na em sobre",
        "nl": "de het een van en voor met op in bij naar",
    }.items()
}
# A language's script (langcodes' likely script) → the scripts its titles are written in.
_SCRIPTS: dict[str, frozenset[str]] = {
    "Jpan": frozenset({"HIRAGANA", "KATAKANA", "CJK"}),
    "Hans": frozenset({"CJK"}),
    "Hant": frozenset({"CJK"}),
    "Kore": frozenset({"HANGUL", "CJK"}),
    "Latn": frozenset({"LATIN"}),
    "Cyrl": frozenset({"CYRILLIC"}),
    "Grek": frozenset({"GREEK"}),
    "Arab": frozenset({"ARABIC"}),
    "Hebr": frozenset({"HEBREW"}),
    "Deva": frozenset({"DEVANAGARI"}),
    "Thai": frozenset({"THAI"}),
}
_WORD = lazy(r"[^\W\d_]+")


def _title_script(title: str) -> str | None:
    """The script most of the title's letters are in, by Unicode name (``LATIN``, ``CJK``…)."""
    counts = Counter(unicodedata.name(c, "?").split()[0] for c in title if c.isalpha())
    return counts.most_common(1)[0][0] if counts else None


def _script_agrees(tag: str, title: str) -> bool:
    import langcodes

    script = langcodes.Language.get(tag).maximize().script
    scripts = _SCRIPTS.get(script or "")
    return scripts is not None and _title_script(title) in scripts


def _words_agree(language: str, title: str) -> bool:
    """Whether no other language's short words outnumber ``language``'s in ``title``."""
    words = [w.lower() for w in _WORD.findall(title)]
    score = {lang: sum(w in known for w in words) for lang, known in _FUNCTION_WORDS.items()}
    own = score.get(language, 0)
    return all(n <= own for lang, n in score.items() if lang != language)


def work_language(lang: str | None, title: str) -> str | None:
    """The BCP 47 tag ``lang`` gives a work titled ``title``, or ``None`` when the title disagrees."""
    tag = to_bcp47(lang) if lang else None
    if tag is None or not title.strip() or not _script_agrees(tag, title):
        return None
    return tag if _words_agree(tag.split("-")[0].lower(), title) else None


def page_lang_near(tree: Any, title: str) -> str | None:
    """The ``lang`` of the innermost element whose text holds ``title``, else of ``<html>``."""
    wanted = " ".join(title.split())[:60]
    nearest = None
    if wanted:
        for node in tree.css("body[lang], body [lang]"):
            if wanted in " ".join(node.text(deep=True).split()):
                nearest = node  # later matches are inside earlier ones or after them: the innermost wins
    if nearest is None:
        nearest = tree.css_first("html[lang]")
    return nearest.attributes.get("lang") if nearest is not None else None
