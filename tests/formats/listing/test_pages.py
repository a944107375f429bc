"""The generic listing reader and the catalogue readers on real saved pages.

Pages of ``../shared/corpus/`` are read from there (never copied); their goldens, bibconv's
own output reviewed against the page, are in ``fixtures/html/read/wild/`` (or ``read/other/``)
named after the shared file. Real pages from other projects' test folders are in
``fixtures/html/read/catalogues/`` and, for pages that hold no paper (a site's home page, a login
page, a "no results" page, a subject index), ``fixtures/html/invalid/`` (sources in ``fixtures/SOURCES.md``);
all are golden-tested with every page of ``fixtures/html/`` in ``test_html.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bibconv
from bibconv import facts
from bibconv.errors import ParseError
from bibconv.formats.listing.dom import decode_html, parse, text_of
from bibconv.formats.listing.headings import kind_named, venue_named
from bibconv.formats.listing.labels import CHROME
from bibconv.registry import ReadContext
from tests.golden import FIXTURES, golden
from tests.listing import check_listing, check_listing_golden, read_page
from tests.tools import require_shared, shared_root

CATALOGUES = FIXTURES / "html" / "read" / "catalogues"

# shared page → (reader, number of papers on the page)
SHARED = {
    "html-wild/homepage_igel_publications.html": ("generic", 317),
    "html-wild/homepage_adelani_publications.html": ("generic", 57),
    "html-wild/recomb2013_accepted.html": ("generic", 32),
    "html-wild/hscc2020_accepted.html": ("generic", 35),
    "html-wild/ssdbm2018_accepted.html": ("generic", 33),
    "html-wild/glimpse_aggregator_tacl2016.html": ("generic", 39),
    "html-wild/pos_proceedings_lattice2013.html": ("generic", 4),
    "html-wild/t2k_plone_theses.html": ("generic", 64),
    "html-wild/infn_theses_it.html": ("generic", 5),
    "html-wild/magic_theses.html": ("generic", 10),
    "html-wild/obv_primo_search.html": ("primo", 1),
    "html-wild/unesp_dspace_browse_pt.html": ("dspace", 1),
    "html-wild/bdtd_vufind_results_pt.html": ("vufind", 1),
    "html-wild/elife_article.html": ("meta", 1),
    "html-wild/plosone_article.html": ("meta", 1),
    "html-wild/nature_news_article.html": ("meta", 1),
    "html-wild/firstmonday_ojs_landing.html": ("meta", 1),
    "html-other/anikily_aggregator_cv_daily_2023-01-24.html": ("generic", 200),
    "html-other/luvata_aggregator_2026-08-19_cs.CL.html": ("generic", 134),
}
# fixture page → (reader, number of papers on the page)
FIXTURE_PAGES: dict[str, tuple[str, int]] = {
    "hepcrawl_mit_dspace_list.html": ("dspace", 1),
    "hepcrawl_bnlstar_theses_list.html": ("generic", 1),
    "hepcrawl_phenix_theses_search_one_hit.html": ("generic", 1),
    "hepcrawl_t2k_theses_one_row.html": ("generic", 1),
    "opacapp_bibliotheca_mannheim_results_harry_potter.html": ("bibliotheca", 15),
    "ami3_scielo_iah_search_climate_change_trimmed.html": ("iah", 10),
}


@pytest.mark.parametrize("name", sorted(SHARED))
def test_shared_page(name: str, update_golden: bool) -> None:
    path = require_shared("corpus", *name.split("/"))
    records = check_listing(path, *SHARED[name])
    check_listing_golden(records, golden(path, "read", ".csl.json"), update_golden)


@pytest.mark.parametrize("name", sorted(FIXTURE_PAGES))
def test_fixture_page(name: str) -> None:
    check_listing(CATALOGUES / name, *FIXTURE_PAGES[name])


def test_bibliotheca_short_display_heading_title_statement_areas_and_year() -> None:
    records, _ = read_page(CATALOGUES / "opacapp_bibliotheca_mannheim_results_harry_potter.html")
    beuning = records[1]
    names = [(n.family, n.given) for n in beuning.names["author"]]
    assert names == [("Beuning", "Brigitte"), ("Knobloch", "Jörg")]
    assert beuning.fields["title"].startswith("Literaturkartei Harry Potter und der Stein der Weisen: ")
    assert (beuning.type, beuning.dates["issued"].parts) == ("book", ((2000,),))
    # "Chris Columbus - Munzinger<br/>(Internationales Biographisches Arch...) - 51/2014"
    columbus = records[2]
    assert (columbus.fields["title"], columbus.type) == ("Chris Columbus - Munzinger", "entry-encyclopedia")
    assert (columbus.fields["note"], columbus.dates["issued"].parts) == (
        "(Internationales Biographisches Arch...)",
        ((2014,),),
    )
    philosophy = records[9]  # no heading: the statement of responsibility is kept as shown
    assert (philosophy.fields["edition"], philosophy.fields["note"]) == (
        "1. Aufl.",
        "Gregory Bassham (Hrsg.). Aus dem Engl. von T. A. Wegberg",
    )
    dork = records[10]  # " - " inside a title is kept when no cut area or edition follows it
    assert dork.fields["title"].startswith("Dork Diaries - Nikkis (nicht ganz so) glamouröses Partyleben: ")
    assert [r.type for r in records].count("musical_score") == 6


def test_iah_iso_690_citations_give_names_venue_numbers_and_the_full_text_link() -> None:
    records, _ = read_page(CATALOGUES / "ami3_scielo_iah_search_climate_change_trimmed.html")
    # "Escosteguy, Juliana Ribas, Beskow, Murilo and Sand, Cezar Roberto Van Der": the catalogue's split kept
    names = [(n.family, n.given) for n in records[1].names["author"]]
    assert names == [("Escosteguy", "Juliana Ribas"), ("Beskow", "Murilo"), ("Sand", "Cezar Roberto Van Der")]
    single = records[0]  # "Sťahel, Richard." closes the list with a period
    assert [(n.family, n.given) for n in single.names["author"]] == [("Sťahel", "Richard")]
    assert [single.fields[k] for k in ("container-title", "volume", "issue", "page", "ISSN")] == [
        "Civitas, Rev. Ciênc. Soc.",
        "19",
        "2",
        "337-353",
        "1519-6089",
    ]
    assert single.fields["URL"].endswith("script=sci_arttext&pid=S1519-60892019000200337&lng=en&nrm=iso")
    cut = records[3]  # "Salgueiro, João Hipólito Paiva de Britto et al."
    assert [n.given for n in cut.names["author"]] == ["João Hipólito Paiva de Britto"]
    assert facts.MORE_AUTHORS_NOTE in facts.notes(cut.extra)
    assert records[8].dates["issued"].parts == ((2018, 9),)  # "Set 2018", the record's own month
    assert str(records[9].origin).endswith(":item 9 (iah, font.isoref)")


def test_a_lone_thesis_under_a_year_heading_is_read_with_all_it_shows() -> None:
    (thesis,) = read_page(CATALOGUES / "hepcrawl_bnlstar_theses_list.html")[0]
    assert thesis.fields["title"].startswith("Two-particle Correlations of Identified Particles")
    assert [(n.family, n.given) for n in thesis.names["author"]] == [("Bhattarai", "Prabhat")]
    assert (thesis.type, thesis.fields["genre"], thesis.fields["publisher"]) == (
        "thesis",
        "Ph.D. thesis",
        "University of Texas - Austin",
    )
    assert thesis.dates["issued"].parts == ((2016,),)
    assert thesis.extra["html:pdf_url"] == "https://drupal.star.bnl.gov/STAR/files/PhDThesisPrabhat-3.pdf"
    assert str(thesis.origin).endswith("(generic, div#main paragraph 3)"), str(thesis.origin)


def test_a_lone_row_under_its_header_reads_as_the_same_row_in_the_whole_list() -> None:
    (row,) = read_page(CATALOGUES / "hepcrawl_t2k_theses_one_row.html")[0]
    first = read_page(require_shared("corpus", "html-wild", "t2k_plone_theses.html"))[0][0]
    assert row.to_csl() == first.to_csl()  # title, author, date from the named columns; "T2K Theses" heading
    assert row.type == "thesis"


def test_a_lone_citation_of_a_thesis_gives_its_kind_and_institution() -> None:
    (thesis,) = read_page(CATALOGUES / "hepcrawl_phenix_theses_search_one_hit.html")[0]
    assert thesis.fields["title"].startswith("MEASUREMENT OF THE DOUBLE HELICITY ASYMMETRY")
    assert [(n.family, n.given) for n in thesis.names["author"]] == [("Guragain", "Hari")]
    assert (thesis.type, thesis.fields["genre"], thesis.fields["publisher"]) == (
        "thesis",
        "Ph.D. thesis",
        "Georgia State University",
    )
    assert "container-title" not in thesis.fields
    assert thesis.dates["issued"].parts == ((2015,),)


def _shown(name: str) -> list[dict[str, object]]:
    path = require_shared("corpus", "html-wild", name)
    return [json.loads(json.dumps(r.to_csl())) for r in read_page(path)[0]]


def test_citation_lines_give_authors_title_venue_and_year() -> None:
    first = _shown("homepage_igel_publications.html")[6]
    assert first["title"] == (
        "A Text-to-text Alignment Algorithm for Better Evaluation of Modern Speech Recognition Systems"
    )
    assert [a["family"] for a in first["author"]] == ["Borgholt", "Havtorn", "Igel", "Maaløe", "Tan"]
    assert first["container-title"].startswith("IEEE International Conference on Acoustics")
    assert (first["page"], first["issued"], first["DOI"]) == (
        "3476-3480",
        {"date-parts": [[2026]]},
        "10.1109/ICASSP55912.2026.11463731",
    )


def test_authors_row_above_title_row_is_one_paper() -> None:
    first = _shown("recomb2013_accepted.html")[0]
    assert first["title"].startswith("Using the Fast Fourier Transform")
    assert [a["family"] for a in first["author"]] == ["Senter", "Sheikh", "Dotu", "Ponty", "Clote"]


def test_column_headers_and_page_date_order() -> None:
    records = _shown("infn_theses_it.html")
    assert [r["author"] for r in records[:2]] == [
        [{"family": "Fedon", "given": "C."}],
        [{"family": "Pezzullo", "given": "G."}],
    ]
    # 18-03-2016 on the same page says the day comes first: 10-03-2016 is 10 March
    assert [r["issued"] for r in records[:2]] == [
        {"date-parts": [[2016, 3, 18]]},
        {"date-parts": [[2016, 3, 10]]},
    ]
    assert records[0]["publisher"] == "Universit Di Trieste"
    text = json.dumps(records, ensure_ascii=False)
    for chrome in ("Pagina 1 / 1", "Trovati", "Anno di laurea", "Scarica"):
        assert chrome not in text


def test_short_titles_lone_papers_and_session_headings() -> None:
    titles = [r["title"] for r in _shown("glimpse_aggregator_tacl2016.html")]
    assert "Many Languages, One Parser" in titles
    assert all("issued" not in r for r in _shown("glimpse_aggregator_tacl2016.html"))  # citation counts
    hscc = _shown("hscc2020_accepted.html")
    assert hscc[-1]["title"].startswith("Poster: A learning-based approach")  # alone under its heading
    pos = _shown("pos_proceedings_lattice2013.html")
    assert [r["title"] for r in pos[:2]] == ["Foreword", "Ken Wilson Obituary"]
    assert [r["author"] for r in pos[:1]] == [[{"family": "Wittig", "given": "H."}]]


def test_type_and_venue_headings_apply_to_the_items_under_them() -> None:
    assert {r["type"] for r in _shown("magic_theses.html")} == {"thesis"}  # "List of Theses"
    assert {r["type"] for r in _shown("t2k_plone_theses.html")} == {"thesis"}  # "T2K Theses (…)"
    hscc = _shown("hscc2020_accepted.html")  # "HSCC 2020 Accepted Papers", then its sections
    assert {(r["container-title"], r["issued"]["date-parts"][0][0]) for r in hscc} == {("HSCC 2020", 2020)}
    assert hscc[0]["type"] == "paper-conference"
    pos = _shown("pos_proceedings_lattice2013.html")
    assert {r["container-title"] for r in pos} == {
        "31st International Symposium on Lattice Field Theory LATTICE 2013"
    }
    igel = _shown("homepage_igel_publications.html")  # sections with year headings inside them
    kinds = {r["title"]: r["type"] for r in igel}
    assert kinds["Graph Genetic Programming and Neutrality"] == "report"  # under "Technical reports"
    assert {r["type"] for r in igel if r["title"].startswith("Proceedings of the Six")} == {"book"}
    # "Contributions to journals, books, and conferences" names no one type: the citations say
    assert kinds[igel[6]["title"]] == "paper-conference"
    assert {r["type"] for r in _shown("glimpse_aggregator_tacl2016.html")} == {"article"}


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("Journal Papers", "article-journal"),
        ("Conference and workshop papers", "paper-conference"),
        ("Book chapters", "chapter"),
        ("Edited Conference Proceedings", "book"),
        ("Theses", "thesis"),
        ("Thèses soutenues", "thesis"),
        ("Technical reports", "report"),
        ("Preprints", "article"),
        ("Contributions to journals, books, and conferences", None),
        ("Journal and conference papers", None),
        ("Regular/Tool Papers", None),
        ("2019", None),
    ],
)
def test_headings_that_name_a_type(heading: str, kind: str | None) -> None:
    assert kind_named(heading) == kind


@pytest.mark.parametrize(
    ("heading", "venue"),
    [
        ("NeurIPS 2019", ("NeurIPS 2019", "paper-conference")),
        ("HSCC 2020 Accepted Papers", ("HSCC 2020", "paper-conference")),
        ("Proceedings of the 2019 Conference on Empirical Methods in Natural Language Processing", (
            "Proceedings of the 2019 Conference on Empirical Methods in Natural Language Processing",
            "paper-conference",
        )),
        ("Journal of Machine Learning Research, Volume 21", (
            "Journal of Machine Learning Research, Volume 21", "article-journal"
        )),
        ("Conference Papers", None),
        ("Glimpse - TACL2016", None),  # a site's name beside the venue's
        ("Accepted Long Research Papers", None),
    ],
)  # fmt: skip
def test_headings_that_name_a_venue(heading: str, venue: tuple[str, str] | None) -> None:
    assert venue_named(heading) == venue


def test_elided_authors_are_said_in_a_note() -> None:
    records = _shown("homepage_adelani_publications.html")
    injongo = next(r for r in records if str(r["title"]).startswith("INJONGO"))
    assert "More authors than the source listing shows" in str(injongo["custom"])  # never printed
    assert "note" not in injongo
    assert "…" not in json.dumps(injongo["author"], ensure_ascii=False)


def _chrome_texts(path: Path) -> set[str]:
    """Texts that the page shows only in its navigation, pagers and breadcrumbs."""
    tree = parse(decode_html(path.read_bytes(), ReadContext(str(path), strict=False)))
    chrome = tree.css("nav, [role=navigation], .pagination, .pager, .breadcrumb, .breadcrumbs")
    inside = {n.mem_id for node in chrome for n in node.traverse()}
    parts = "a, li, td, th, span, h1, h2, h3, h4, p, div, strong, b"
    shown = {text_of(n) for n in tree.css(parts) if n.mem_id in inside}
    elsewhere = {text_of(n) for n in tree.css(parts) if n.mem_id not in inside}
    return {t for t in shown - elsewhere if len(t) >= 3}


def _corpus_pages() -> list[Path]:
    root = shared_root()
    if root is None:
        return []
    return sorted(p for p in (root / "corpus").glob("html-*/*.html"))


@pytest.mark.parametrize("path", _corpus_pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_record_of_the_corpus_is_made_of_navigation_text(path: Path) -> None:
    records, _ = read_page(path, strict=False)
    chrome = _chrome_texts(path)
    for record in records:
        title = re.sub(r"<[^>]+>", "", record.fields.get("title", ""))
        names = [
            " ".join(filter(None, (n.given, n.family, n.literal))) for n in record.names.get("author", ())
        ]
        for text in (title, *names):
            assert text, record
            assert not CHROME.match(text), (text, record.origin)
            assert text not in chrome, (text, record.origin)


def test_pages_without_papers_are_errors_that_name_the_file() -> None:
    pages = sorted((FIXTURES / "html" / "invalid").glob("*.html"))  # a home, a login, a no-results page…
    assert len(pages) == 6
    for path in pages:
        with pytest.raises(ParseError, match="no records") as raised:
            read_page(path)
        assert path.name in str(raised.value)
        records, diagnostics = read_page(path, strict=False)
        assert records == []
        assert [d.severity for d in diagnostics] == ["warning"]


def test_a_subject_index_without_papers_exits_1_naming_the_file() -> None:
    from click.testing import CliRunner

    from bibconv.cli import main

    path = FIXTURES / "html" / "invalid" / "ami3_scielo_iah_subject_index_climate.html"  # terms, no paper
    result = CliRunner().invoke(main, ["convert", str(path), "-t", "csljson"])
    assert result.exit_code == 1, result.output
    assert f"{path.name}:1: no records" in result.output
    skipped = CliRunner().invoke(main, ["convert", "--skip-invalid", str(path), "-t", "csljson"])
    assert (skipped.exit_code, skipped.stdout.strip()) == (0, "[]"), skipped.output


def test_detect_explain_names_each_reader_and_what_it_found() -> None:
    from click.testing import CliRunner

    from bibconv.cli import main

    homepage = require_shared("corpus", "html-wild", "homepage_igel_publications.html")
    primo = require_shared("corpus", "html-wild", "obv_primo_search.html")
    result = CliRunner().invoke(main, ["detect", "--explain", str(homepage), str(primo)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert f"{homepage}: html" in lines
    assert "  dblp: does not claim it" in lines
    assert "  generic: claims it, 317 paper(s)" in lines
    assert "  primo: claims it, 1 paper(s)" in lines
    assert "  generic: not used (another reader gave the papers); would find 0" in lines
    assert lines.count("  page metadata: not used") == 2


def test_detect_explain_names_the_arxiv_reader_and_the_page_metadata_where_they_are_read() -> None:
    from click.testing import CliRunner

    from bibconv.cli import main

    article = require_shared("corpus", "html-other", "papis_NBER_w29971.html")
    (listing,) = sorted(require_shared("corpus", "html-arxiv-list").glob("polaris_*.html"))
    result = CliRunner().invoke(main, ["detect", "--explain", str(article), str(listing)])
    assert result.exit_code == 0, result.output
    article_lines, listing_lines = result.output.split(f"{listing}: html")
    assert "  page metadata: read, 1 paper(s)" in article_lines.splitlines()
    # the article's own block (its title, authors and date) is the one paper the generic reader sees
    assert "  generic: not used (another reader gave the papers); would find 1" in article_lines.splitlines()
    assert "  arxiv-list: claims it, 6 paper(s)" in listing_lines.splitlines()
    assert "  generic: not used (another reader gave the papers); would find 6" in listing_lines.splitlines()
    assert "  page metadata: not used" in listing_lines.splitlines()


def test_records_say_which_reader_made_them_and_where() -> None:
    records, _ = read_page(require_shared("corpus", "html-wild", "homepage_igel_publications.html"))
    origin = records[0].origin
    assert origin is not None
    assert (origin.reader, origin.index) == ("generic", 0)
    assert str(origin).endswith("(generic, div#inner-page div.publication[1])")


def test_coins_spans_hidden_from_screen_readers_are_still_read() -> None:
    """DSpace marks its COinS spans ``aria-hidden``: hidden from screen readers, they still hold data."""
    from bibconv.formats.listing.html import load_page

    unesp = require_shared("corpus", "html-wild", "unesp_dspace_browse_pt.html")
    page = load_page(unesp.read_bytes(), ReadContext(str(unesp), strict=False))
    (span,) = page.tree.css("span.Z3988[aria-hidden=true]")
    assert "rft_id=http%3A%2F%2Fhdl.handle.net%2F11449%2F123975" in (span.attributes.get("title") or "")
    coins = require_shared("corpus", "html-other", "zotero_journalArticle-single_coins.html")
    hidden = coins.read_bytes().replace(b'<span class="Z3988"', b'<span aria-hidden="true" class="Z3988"')
    assert hidden != coins.read_bytes()
    shown = [r.to_csl() for r in read_page(coins)[0]]
    assert shown
    assert [r.to_csl() for r in bibconv.read(hidden, "html")] == shown
