"""The html reader on real pages (arXiv, aggregators, publishers) and on bibconv's own pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv.errors import Diagnostic, ParseError
from bibconv.formats.listing.html import HtmlListingReader
from bibconv.model import Record
from tests.golden import FIXTURES, check_golden, golden, input_kind, need, shared_samples_below

HTML = FIXTURES / "html"
OWN = HTML / "read" / "own"
PAGES = sorted(HTML.rglob("*.html")) + shared_samples_below("html", ".html")


def _read(path: Path, **options: object) -> tuple[list[Record], list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(path, "html", diagnostics=diagnostics, **options)
    return records, diagnostics


def _all_text(records: list[Record]) -> str:
    return json.dumps([r.to_csl() for r in records], ensure_ascii=False)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(golden(p, input_kind(p), "").relative_to(HTML)))
def test_golden_csljson(path: Path, update_golden: bool) -> None:
    records, _ = _read(path, strict=False)
    result = bibconv.write(records, "csljson")
    assert result is not None
    check_golden(golden(path, input_kind(path), ".csl.json"), result, update_golden)


@pytest.mark.shared
def test_pages_are_detected_as_html() -> None:
    for path in PAGES:
        assert bibconv.detect(path.read_bytes()) == "html", path.name


def test_arxiv_listing_page() -> None:
    records, diagnostics = _read(need("html/arxiv-list/polaris_cs.AI_new_2026-08-12_trimmed.html"))
    assert diagnostics == []
    assert [r.arxiv.versioned_id for r in records if r.arxiv] == [
        "2608.09949v1",
        "2608.09967v1",
        "2505.11635v2",
        "2607.28646",
        "2112.07752v5",
        "2505.23399v2",
    ]
    narration = records[3]
    assert narration.title is not None
    assert narration.title.startswith('"YES! YES! I absolutely love this insight!" Affirmative')
    assert narration.arxiv is not None
    assert narration.arxiv.journal_ref == "2026 Narrative Inquiry 23 (2)"
    assert narration.arxiv.comment == "In review for a special issue of Narrative Inquiry"
    assert (narration.arxiv.primary_class, narration.arxiv.categories) == ("cs.HC", ("cs.HC", "cs.AI"))
    assert [n.display() for n in records[1].authors] == ["Tamar Gozlan", "Claudia V. Goldman"]
    assert records[0].issued is not None
    assert records[0].issued.to_edtf() == "2026-08"  # the month in the id: arXiv assigns it at submission
    assert all(r.fields.get("abstract") for r in records)
    assert [r.type for r in records] == ["article"] * 3 + ["article-journal"] + ["article"] * 2
    published = records[3]  # Journal-ref: 2026 Narrative Inquiry 23 (2)
    assert (published.fields["container-title"], published.fields["volume"], published.fields["issue"]) == (
        "Narrative Inquiry",
        "23",
        "2",
    )


def test_arxiv_search_page() -> None:
    records, _ = _read(
        need("html/arxiv-search/focuzd_arxiv_search_abstract_distributed_systems_200results_2025-12.html")
    )
    assert len(records) == 200
    assert len({r.arxiv.id for r in records if r.arxiv}) == 200
    by_id = {r.arxiv.id: r for r in records if r.arxiv}
    revised = by_id["2512.02397"].arxiv
    assert revised is not None
    assert revised.version == 3
    assert revised.submitted is not None
    assert revised.submitted.to_edtf() == "2025-12-01"
    assert revised.updated is not None
    assert revised.updated.to_edtf() == "2025-12-17"
    assert by_id["2512.02397"].issued == revised.submitted
    latest = bibconv.read(
        need("html/arxiv-search/focuzd_arxiv_search_abstract_distributed_systems_200results_2025-12.html"),
        "html",
        arxiv_date="version",
    )
    assert next(r for r in latest if r.arxiv and r.arxiv.id == "2512.02397").issued == revised.updated
    first = records[0]
    assert first.title == "The role of the top Yukawa coupling in triple Higgs production at the LHC"
    assert first.fields["abstract"].startswith(
        "In this letter I quantify"
    )  # the full abstract, not the excerpt
    assert first.arxiv is not None
    assert first.arxiv.comment == "6 pages, 4 figures, 1 table"
    assert sum(1 for r in records if "DOI" in r.fields) >= 1
    text = _all_text(records)
    for chrome in ("Skip to main content", "△ Less", "▽ More", "Goto page", "Search v0.5.6"):
        assert chrome not in text


def test_arxiv_abstract_page_merges_meta_tags_and_body() -> None:
    records, _ = _read(need("html/arxiv-abs/tkukurin_arxiv_abs_2106.09608v2_2021.html"))
    (record,) = records
    assert record.arxiv is not None
    assert (record.arxiv.id, record.arxiv.version, record.arxiv.primary_class) == ("2106.09608", 2, "cs.LG")
    assert record.arxiv.categories == ("cs.LG", "cs.AI", "cs.CL")
    assert record.arxiv.comment == "Camera read, in Proceedings of NeurIPS 2021 Main Conference"
    assert record.arxiv.submitted is not None
    assert record.arxiv.submitted.to_edtf() == "2021-06-17"
    assert record.arxiv.updated is not None
    assert record.arxiv.updated.to_edtf() == "2021-10-20"
    assert [(n.family, n.given) for n in record.authors] == [
        ("Ammanabrolu", "Prithviraj"),
        ("Riedl", "Mark O."),
    ]
    head_only, _ = _read(need("html/arxiv-abs/commonmeta_arxiv_1902.02534_head-only.html"))
    assert head_only[0].arxiv is not None
    assert head_only[0].arxiv.version == 2
    assert [n.family for n in head_only[0].authors] == ["Heibi", "Peroni", "Shotton"]


def test_publisher_meta_tags() -> None:
    (aps,), _ = _read(need("html/other/papis_APS_RevModPhys.94.045004.html"))
    assert aps.type == "article-journal"
    assert len(aps.authors) == 7  # all of citation_author, not only the COinS first author
    assert aps.authors[0].affiliation == (
        "Lawrence Berkeley National Laboratory, Berkeley, California 94720, USA",
    )
    assert (aps.fields["container-title"], aps.fields["volume"], aps.fields["issue"]) == (
        "Reviews of Modern Physics",
        "94",
        "4",
    )
    (kobv,), _ = _read(need("html/other/papis_Fallback_kobv.html"))
    assert (kobv.authors[0].family, kobv.authors[0].given) == ("Schäfer Aguilar", "Paloma")
    (euclid,), _ = _read(need("html/other/papis_ProjectEuclid_1391109086.html"))
    assert euclid.fields["DOI"] == "10.57262/ade/1391109086"  # citation_doi there is not a DOI
    assert euclid.fields["page"] == "245-282"
    (nber,), _ = _read(need("html/other/papis_NBER_w29971.html"))
    assert (nber.type, nber.fields["number"]) == ("report", "w29971")


_BRACED_ABSTRACT = "We count the set {x : f(x) > 0} with {BERT-large}; code like if (x) { return y; } stays."


@pytest.mark.parametrize(
    "page",
    [
        '<html><head><meta name="citation_title" content="Counting sets with models">'
        '<meta name="citation_author" content="Lee, Ann"><meta name="citation_publication_date" '
        f'content="2020/01/02"><meta name="citation_abstract" content="{_BRACED_ABSTRACT}"></head></html>',
        "<html><body><ul>"
        + "".join(
            f'<li><h3><a href="/p{i}">Counting sets with models, part {i}</a></h3><p class="authors">'
            f'Ann Lee, Bo Chen</p><p class="abstract">{_BRACED_ABSTRACT}</p></li>'
            for i in (1, 2)
        )
        + "</ul></body></html>",
    ],
    ids=["meta-tags", "listing"],
)
def test_braces_in_an_abstract_are_kept(page: str) -> None:
    """A page's braces are its own characters, not TeX groups: the abstract keeps them."""
    records = bibconv.read(page.encode(), "html")
    assert records[0].fields["abstract"] == _BRACED_ABSTRACT.replace(">", "&gt;")
    bib = bibconv.convert(page, "bibtex", from_="html")
    assert r"\{x : f(x) > 0\} with \{BERT-large\}" in bib


def test_braces_beside_tex_are_tex() -> None:
    """Braces in text that reads as TeX (``1029 {-}1052`` on ProjectEuclid) still group TeX."""
    (euclid,), _ = _read(need("html/other/papis_ProjectEuclid_1391109086.html"))
    assert "1029 -1052" in euclid.fields["abstract"]


def test_coins_spans() -> None:
    (article,), _ = _read(need("html/other/zotero_journalArticle-single_coins.html"))
    assert article.fields["DOI"] == "10.2307/3523084"
    assert article.fields["page"] == "735-762"
    assert [n.display() for n in article.authors] == [
        "Roy Rosenzweig"
    ]  # aulast/aufirst and au are one person
    records, _ = _read(OWN / "coins_list.html")
    assert [r.title for r in records] == ["Literate Programming", "Attention Is All You Need"]
    assert records[1].arxiv is not None
    assert records[1].arxiv.id == "1706.03762"


def test_json_ld_only_page() -> None:
    records, _ = _read(OWN / "jsonld_only_en.html")
    assert [r.title for r in records] == [
        "Paged Attention for Serving Large Language Models",
        "Operator Fusion Revisited",
    ]
    paged, fusion = records
    assert paged.authors[1].non_dropping_particle == "van der"
    assert paged.authors[1].affiliation == ("Example University",)
    assert paged.fields["abstract"] == (
        "We serve large language models with paged attention &amp; show how memory fragmentation disappears."
    )
    assert (fusion.fields["container-title"], fusion.fields["volume"], fusion.fields["issue"]) == (
        "Journal of Compiler Research",
        "12",
        "4",
    )
    assert fusion.authors[0].literal == "The Compiler Consortium"


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("cards_fr.html", ["2026-04-20", "2026-04-17", "2026-04-15"]),
        ("list_de.html", ["2026-04-20", "2026-03-03", "2025-12-01"]),
        ("table_es.html", ["2026-04-20", "2026-03-03", "2025-11-30"]),
        ("br_ja.html", ["2026-04-20", "2026-04-17", "2026-04-15"]),
        ("articles_it.html", ["2026-04-20", "2026-04-18"]),
        ("microdata_pt.html", ["2026-04-20", "2026-03-02"]),
        ("latin1_fr.html", ["2026-02-12", "2026-03-03"]),
    ],
)
def test_own_pages_in_several_languages(page: str, expected: list[str]) -> None:
    records, _ = _read(OWN / page)
    assert [r.issued.to_edtf() if r.issued else None for r in records] == expected
    assert all(r.title and r.authors for r in records)


def test_generic_listing_fields() -> None:
    cards, _ = _read(OWN / "cards_fr.html")
    assert [r.title for r in cards] == [
        "Ordonnancement asynchrone des noyaux GPU pour l'inférence",
        "Compression du cache KV par quantification adaptative",
        "Parallélisme de pipeline reconfigurable à chaud",
    ]
    assert [n.family for n in cards[1].authors] == ["Girard", "Martin"]
    assert cards[0].arxiv is not None
    assert cards[0].arxiv.versioned_id == "2604.11111v2"
    assert cards[1].extra["bibconv:note"] == "Abstract truncated in the source listing"
    assert "note" not in cards[1].fields
    assert cards[2].fields["DOI"] == "10.1234/exemple.2026.3"
    german, _ = _read(OWN / "list_de.html")
    assert [n.display() for n in german[0].authors] == [
        "Jürgen Müller",
        "Anna-Lena Schröder",
        "Klaus von Weizsäcker",
    ]
    assert german[1].arxiv is not None
    assert german[1].arxiv.versioned_id == "2603.33333v3"
    spanish, _ = _read(OWN / "table_es.html")
    assert spanish[1].fields.get("URL") is None  # the link is in another column than the title
    japanese, _ = _read(OWN / "br_ja.html")
    assert [(n.family, n.given) for n in japanese[0].authors] == [("山田", "太郎"), ("鈴木", "花子")]
    assert japanese[0].fields["abstract"].endswith("手法を提案する。")


def test_page_chrome_never_becomes_record_text() -> None:
    records = [r for page in sorted((OWN).glob("*.html")) for r in _read(page, strict=False)[0]]
    text = _all_text(records)
    for chrome in (
        "Not a paper title from a script",
        "Commented-out card",
        "Publicité",
        "Mentions légales",
        "Enregistrer",
        "Nous contacter",
        "Cookies",
        "Argomenti popolari",
        "Feed RSS",
        "Loading",
        "Enable JavaScript",
    ):
        assert chrome not in text, chrome


def test_page_without_listing_is_an_error_naming_what_was_looked_for() -> None:
    path = HTML / "invalid" / "no_listing.html"
    with pytest.raises(ParseError) as raised:
        _read(path)
    assert "no_listing.html:1" in str(raised.value.span)
    assert "no paper listing or bibliographic metadata found" in raised.value.message
    assert "free-text citations" in raised.value.message
    records, diagnostics = _read(path, strict=False)
    assert records == []
    assert [d.severity for d in diagnostics] == ["warning"]


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00\xff\xfe<<<", b"<html><body><p>plain</p>", b"<!DOCTYPE html>" + b"<div>" * 5000],
    ids=["empty", "binary", "unclosed", "deep"],
)
def test_hostile_pages_give_warnings_not_tracebacks(data: bytes) -> None:
    diagnostics: list[Diagnostic] = []
    assert bibconv.read(data, "html", diagnostics=diagnostics, strict=False) == []
    assert diagnostics


def test_declared_and_undeclared_encodings() -> None:
    page = "<html><body><ul>{}</ul></body></html>"
    item = (
        "<li><h3><a href='https://example.org/{0}'>Théorie des écoulements numéro {0}</a></h3>"
        "<p>Zoë Müller · 3 mars 2026</p></li>"
    )
    text = page.format("".join(item.format(n) for n in range(2)))
    utf16 = bibconv.read(b"\xff\xfe" + text.encode("utf-16-le"), "html")
    assert [r.title for r in utf16] == [
        "Théorie des écoulements numéro 0",
        "Théorie des écoulements numéro 1",
    ]
    diagnostics: list[Diagnostic] = []
    cp1252 = bibconv.read(text.encode("cp1252"), "html", diagnostics=diagnostics)
    assert cp1252[0].authors[0].display() == "Zoë Müller"
    assert "not valid UTF-8" in diagnostics[0].message
    declared = text.replace("<html>", "<html><head><meta charset='ISO-8859-1'></head>")
    diagnostics.clear()
    latin1 = bibconv.read(declared.encode("cp1252"), "html", diagnostics=diagnostics)
    assert latin1[0].authors[0].display() == "Zoë Müller"
    assert not diagnostics
    mislabelled = bibconv.read(declared.encode("utf-8"), "html", diagnostics=diagnostics)
    assert mislabelled[0].authors[0].display() == "Zoë Müller"
    assert "its bytes are UTF-8" in diagnostics[0].message


def test_sniffing_tells_html_from_feeds_and_text() -> None:
    assert HtmlListingReader.sniff("<!DOCTYPE html>\n<html>") > 0.9
    assert HtmlListingReader.sniff('<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">') == 0.0
    assert HtmlListingReader.sniff("• A title\n\n  Ada Lovelace · 20 avril 2026\n") == 0.0
    assert HtmlListingReader.sniff("<rss version='2.0'><channel><title>t</title></channel></rss>") == 0.0


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(
        st.sampled_from(["@type", "name", "headline", "author", "datePublished", "isPartOf", "keywords",
                         "identifier", "sameAs", "url", "itemListElement", "item", "@graph", "affiliation",
                         "familyName", "givenName", "pageStart", "publisher", "abstract"]),
        children,
        max_size=6,
    ),
    max_leaves=25,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(data=_JSON, kind=st.sampled_from(["ScholarlyArticle", "ItemList", "Person", "Periodical"]))
def test_any_json_ld_gives_records_or_nothing_never_an_exception(data: object, kind: str) -> None:
    if isinstance(data, dict):
        data = {"@type": kind, **data}
    script = f'<script type="application/ld+json">{json.dumps(data)}</script>'
    page = f"<html><head>{script}</head><body></body></html>"
    for record in bibconv.read(page.encode("utf-8"), "html", strict=False):
        assert record.title
    broken = {"@type": "ScholarlyArticle", "name": "T", "keywords": 5, "author": [7], "isPartOf": "x"}
    page = f'<html><head><script type="application/ld+json">{json.dumps(broken)}</script></head></html>'
    assert [r.title for r in bibconv.read(page.encode("utf-8"), "html")] == ["T"]


_TAGS = st.sampled_from(
    ["div", "li", "ul", "article", "h2", "h3", "p", "a", "b", "br", "tr", "td", "table", "time", "span"]
)
_OPENERS = [
    '<a href="https://arxiv.org/abs/2604.12345">',
    '<span class="authors">',
    '<time datetime="2026-04-20">',
]
_TEXTS = ["Ada Lovelace, Alan Turing", "20 avril 2026", "A Study of Things and Stuff", "Abstract: text", "…"]
_SOUP = st.lists(
    st.one_of(
        _TAGS.map(lambda t: f"<{t}>"),
        _TAGS.map(lambda t: f"</{t}>"),
        st.sampled_from(_OPENERS),
        st.sampled_from(_TEXTS),
    ),
    max_size=60,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(_SOUP, min_size=1, max_size=3))
def test_tag_soup_never_raises(parts: list[list[str]]) -> None:
    page = "<!DOCTYPE html><html><body>" + "".join("".join(p) for p in parts)
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(page.encode("utf-8"), "html", strict=False, diagnostics=diagnostics)
    assert records or diagnostics
