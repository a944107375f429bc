"""A page's ``lang`` as the language of the one work it describes, where the work's title agrees."""

from __future__ import annotations

import pytest

import bibconv
from bibconv.formats.listing.page_lang import work_language
from tests.golden import FIXTURES


def _article(html_lang: str, title: str, body: str = "", metas: str = "") -> bytes:
    page = (
        f'<!doctype html><html lang="{html_lang}"><head><meta name="citation_title" content="{title}">'
        '<meta name="citation_author" content="Muster, Erika">'
        f'<meta name="citation_publication_date" content="2021">{metas}</head><body>{body}</body></html>'
    )
    return page.encode()


def _language(page: bytes) -> str | None:
    (record,) = bibconv.read(page, "html")
    return record.fields.get("language")


def test_an_article_page_in_german_gives_its_language() -> None:
    assert _language(_article("de", "Über die Entstehung der Sprachen im alten Europa")) == "de"


def test_an_english_site_does_not_make_a_german_title_english() -> None:
    assert _language(_article("en", "Über die Entstehung der Sprachen im alten Europa")) is None
    assert _language(_article("en", "Sur la théorie des ensembles et les nombres")) is None
    assert _language(_article("en-US", "Learning to Rank with Sparse Features")) == "en-US"


def test_the_lang_nearest_the_title_wins() -> None:
    title = "Sur la théorie des ensembles et les nombres"
    body = f'<main><div lang="fr"><h1>{title}</h1></div><p>An English summary.</p></main>'
    assert _language(_article("en", title, body)) == "fr"


def test_a_title_in_another_script_gets_no_language() -> None:
    assert _language(_article("ja", "Deep Learning for Image Recognition")) is None
    assert _language(_article("ja", "深層学習による画像認識")) == "ja"
    assert _language(_article("ru", "Deep Learning")) is None


def test_the_page_says_the_language_itself() -> None:
    metas = '<meta name="citation_language" content="fre">'
    assert _language(_article("en", "Learning to Rank", metas=metas)) == "fr"


def test_a_listing_page_lends_no_language_to_its_papers() -> None:
    """A listing's ``lang`` is its interface's: the papers it lists may be in any language."""
    records = bibconv.read(str(FIXTURES / "html" / "read" / "own" / "list_de.html"))
    assert records
    assert all("language" not in r.fields for r in records)


@pytest.mark.parametrize(
    ("lang", "title", "expected"),
    [
        ("en", "Attention Is All You Need", "en"),
        ("en", "BERT", "en"),  # no short word either way: the script agrees
        ("de", "Attention Is All You Need", None),
        ("fr", "Le rôle des protéines dans la cellule", "fr"),
        ("xx-invalid-tag", "A title", None),
        ("", "A title", None),
    ],
)
def test_work_language(lang: str, title: str, expected: str | None) -> None:
    assert work_language(lang, title) == expected
