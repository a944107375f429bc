"""The site readers (DBLP, Google Scholar, ACL Anthology, CVF…) on real saved pages.

Pages of ``../shared/corpus/`` are read from there (never copied); their goldens, bibconv's
own output reviewed against the page, are in ``fixtures/html/read/wild/`` named after the
shared file. The pages in ``fixtures/html/read/sites/`` (golden-tested with every page of
``fixtures/html/`` in ``test_html.py``) are real pages from other projects' test
folders (their sources in ``fixtures/SOURCES.md``) and bibconv's own (``own_*``), written to
the markup of sites of which no saved page was found.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv import facts
from bibconv.errors import Diagnostic
from bibconv.formats.listing import html as html_reader
from bibconv.formats.listing import sites
from bibconv.formats.listing.common import MORE_AUTHORS_NOTE
from bibconv.registry import ReadContext
from tests.formats.listing.test_pages import SHARED as CATALOGUE_PAGES
from tests.golden import FIXTURES, golden, shared_samples_below
from tests.listing import check_listing, check_listing_golden, read_page
from tests.tools import require_shared

OWN_PAGES = FIXTURES / "html" / "read" / "sites"
CATALOGUES = FIXTURES / "html" / "read" / "catalogues"

# shared page → (site reader, number of papers on the page)
SHARED = {
    "html-wild/dblp_person_clauset_2017.html": ("dblp", 31),
    "html-wild/gscholar_search_bengio_2016.html": ("google-scholar", 1),
    "html-wild/gscholar_search_olympus_2020.html": ("google-scholar", 10),
    "html-wild/gscholar_profile_manmatha_2017.html": ("google-scholar", 100),
    "html-wild/gscholar_profile_einstein_fragment_2021.html": ("google-scholar", 1114),
    "html-wild/aclanthology_author_madsack.html": ("acl-anthology", 6),
    "html-wild/cvf_openaccess_cvpr2020_day.html": ("cvf", 94),
}
# fixture page → (site reader, number of papers on the page); own_* pages are bibconv's own,
# written to each site's markup where no saved page of the site was found
FIXTURE_PAGES: dict[str, tuple[str, int]] = {
    "own_pmlr_v202_volume.html": ("pmlr", 3),
    "own_neurips_2023_list.html": ("neurips", 3),
    "own_papers_nips_2017_list.html": ("neurips", 2),
    "own_openreview_iclr2023_group.html": ("openreview", 2),
    "own_openreview_iclr2018_group.html": ("openreview", 2),
    "own_huggingface_daily_2023-07-19.html": ("huggingface-papers", 2),
    "romethegods_huggingface_daily_2026-09-28_trimmed.html": ("huggingface-papers", 2),
    "own_paperswithcode_latest.html": ("paperswithcode", 2),
    "own_semanticscholar_search.html": ("semantic-scholar", 2),
    "own_icml2019_schedule.html": ("ml-conference-site", 2),
    "own_iclr2023_virtual_papers.html": ("ml-conference-site", 3),
    "own_dblp_person_modern.html": ("dblp", 8),
    "own_dblp_venue_toc.html": ("dblp", 4),
    "bateman_dblp_search_calefato_2024_trimmed.html": ("dblp", 2),
    "eventseries_dblp_toc_at_2012_trimmed.html": ("dblp", 2),
    "eventseries_dblp_venue_aaai_trimmed.html": ("dblp", 2),
    "goscholar_search_citation_corr_2016_trimmed.html": ("google-scholar", 1),
    "own_aclanthology_volume_2022_acl_long.html": ("acl-anthology", 3),
    "own_aclanthology_event_tacl_conll_2019.html": ("acl-anthology", 3),
    "icoxfog_aclanthology_event_cl_2000_trimmed.html": ("acl-anthology", 25),
    "papis_aclanthology_paper_N04-1001.html": ("acl-anthology", 1),
    "papis_aclanthology_paper_2021.naacl-main.208_trimmed.html": ("acl-anthology", 1),
    "own_cvf_cvpr2021_all.html": ("cvf", 2),
    "scifeed_pubmed_results_endometriosis_2023.html": ("pubmed", 2),
    "scifeed_paperswithcode_search_endometriosis.html": ("paperswithcode", 2),
    "lockss_atypon_asha_toc_aja_27_1_trimmed.html": ("atypon", 6),
    "lockss_atypon_tandf_toc_talc_38_4_trimmed.html": ("atypon", 5),
    "own_biorxiv_search_coronavirus.html": ("highwire", 3),
    "ami3_biorxiv_search_climate_change_trimmed.html": ("highwire", 10),
    "own_medrxiv_recent_toc.html": ("highwire", 2),
    "own_highwire_journal_collection.html": ("highwire", 2),
    "own_eprints_view_subject_type.html": ("eprints", 6),
    "own_eprints_search_results.html": ("eprints", 2),
    "own_hal_search_results.html": ("hal", 3),
    "ami3_hal_sde_search_permafrost_trimmed.html": ("hal", 8),
    "own_ssrn_search_results.html": ("ssrn", 3),
    "own_ieee_xplore_toc_saved.html": ("ieee-xplore", 2),
    "own_ieee_xplore_article_fetched.html": ("ieee-xplore", 1),
    "ami3_redalyc_search_climate_change_trimmed.html": ("redalyc", 5),
}


def _page(path: Path) -> sites.Page:
    return html_reader.load_page(path.read_bytes(), ReadContext(str(path), strict=False))


@pytest.mark.parametrize("name", sorted(SHARED))
def test_shared_pages(name: str, update_golden: bool) -> None:
    path = require_shared("corpus", *name.split("/"))
    records = check_listing(path, *SHARED[name])
    check_listing_golden(records, golden(path, "read", ".csl.json"), update_golden)


def test_fixture_pages() -> None:
    assert sorted(p.name for p in OWN_PAGES.glob("*.html")) == sorted(FIXTURE_PAGES)
    for name, (reader, count) in FIXTURE_PAGES.items():
        check_listing(OWN_PAGES / name, reader, count)


def test_dblp_person_page_fields() -> None:
    records, _ = read_page(require_shared("corpus", "html-wild", "dblp_person_clauset_2017.html"))
    kinds = [r.type for r in records]
    assert [kinds.count(k) for k in ("article", "article-journal", "paper-conference")] == [19, 6, 6]
    first = records[0]
    title = "Detecting Change Points in the Large-Scale Structure of Evolving Networks"
    assert first.fields["title"] == title
    assert [n.family for n in first.names["author"]] == ["Peel", "Clauset"]
    assert (first.fields["container-title"], first.fields["page"]) == ("AAAI", "2914-2920")
    assert str(first.origin).endswith("(dblp, li#conf/aaai/PeelC15)")
    siam = next(r for r in records if r.fields.get("DOI") == "10.1137/070710111")
    assert (siam.fields["volume"], siam.fields["issue"], siam.fields["page"]) == ("51", "4", "661-703")
    assert siam.dates["issued"].parts == ((2009,),)
    old = next(r for r in records if r.arxiv is not None and r.arxiv.id == "physics/0610051")
    assert old.fields["title"] == "Structural Inference of Hierarchies in Networks"
    santago = records[27].names["author"][4]
    assert (santago.given, santago.family, santago.suffix) == ("Peter", "Santago", "II")


def test_explain_names_the_one_claiming_site_reader_and_its_count() -> None:
    pages = [(require_shared("corpus", *n.split("/")), *SHARED[n]) for n in sorted(SHARED)]
    pages += [(OWN_PAGES / n, *FIXTURE_PAGES[n]) for n in sorted(FIXTURE_PAGES)]
    for path, reader, count in pages:
        findings = sites.explain(_page(path), ReadContext(str(path)))
        assert [f for f in findings if f.claimed] == [sites.Finding(reader, True, count)], path.name
        assert [f.reader for f in findings] == [r.name for r in sites.readers()]


@pytest.mark.shared
def test_site_readers_do_not_claim_other_pages() -> None:
    for path in sorted((FIXTURES / "html").rglob("*.html")) + shared_samples_below("html", ".html"):
        if path.parent in (OWN_PAGES, CATALOGUES):  # catalogues: their own readers
            continue
        assert sites.claiming(_page(path)) is None, path


def test_redalyc_cards_give_venue_year_volume_and_issue_and_no_names_from_the_excerpt() -> None:
    records, _ = read_page(OWN_PAGES / "ami3_redalyc_search_climate_change_trimmed.html")
    # the excerpt under each title ("C. CONDE, F. ESTRADA, …") is neither a byline nor an abstract
    assert all("author" not in r.names and "abstract" not in r.fields for r in records)
    first = records[0]  # "2011,19" "(1-2)"
    assert [first.fields[k] for k in ("container-title", "volume", "issue")] == [
        "Quebracho - Revista de Ciencias Forestales",
        "19",
        "1-2",
    ]
    assert (first.dates["issued"].parts, first.fields["URL"]) == (
        ((2011,),),
        "http://www.redalyc.org/articulo.oa?id=48122207009",
    )
    jats = records[3]  # "2017, " "(67)": no volume; the title links the JATS reader
    assert "volume" not in jats.fields
    assert (jats.fields["issue"], jats.dates["issued"].parts) == ("67", ((2017,),))
    assert jats.fields["URL"] == "http://www.redalyc.org/jatsRepo/176/17651756003/index.html"
    years = sorted({r.dates["issued"].parts[0][0] for r in records})
    assert years == [2011, 2017]  # the year facet's 1991…2020 are no records and no dates


def test_scholar_results_drop_labels_and_split_the_grey_line() -> None:
    records, _ = read_page(require_shared("corpus", "html-wild", "gscholar_search_olympus_2020.html"))
    first = records[0]
    assert first.fields["title"] == "Geology of the Olympus Range Area, Southern Victoria Land"
    assert [n.family for n in first.names["author"]] == ["Isaac", "Chinn", "Edbrooke", "Forsyth"]
    assert first.fields["container-title"] == "Antarctica. Institute of Geological and …"
    assert first.dates["issued"].parts == ((1996,),)
    cut = records[5]
    assert [n.family for n in cut.names["author"]] == ["Bannister", "Yu", "Leitner"]
    assert MORE_AUTHORS_NOTE in facts.notes(cut.extra)
    assert all("[" not in r.fields["title"] and "<b>" not in r.fields["title"] for r in records)
    assert [r.extra["scholar:cited_by"] for r in records[:3]] == ["4", "6", "80"]


def test_scholar_profile_rows_split_the_venue_and_never_date_a_count() -> None:
    records, _ = read_page(
        require_shared("corpus", "html-wild", "gscholar_profile_einstein_fragment_2021.html")
    )
    epr = records[0]
    title = "Can quantum-mechanical description of physical reality be considered complete?"
    assert epr.fields["title"] == title
    assert [n.family for n in epr.names["author"]] == ["Einstein", "Podolsky", "Rosen"]
    venue = tuple(epr.fields[k] for k in ("container-title", "volume", "issue", "page"))
    assert venue == ("Physical Review", "47", "10", "777")
    assert epr.dates["issued"].parts == ((1935,),)
    assert epr.extra["scholar:cited_by"] == "20996"
    years = [r.dates["issued"].parts[0][0] for r in records if "issued" in r.dates]
    assert min(years) >= 1821  # "Doctrines about the Universe", 1821, is on the profile
    assert max(years) <= 2021
    profile, _ = read_page(require_shared("corpus", "html-wild", "gscholar_profile_manmatha_2017.html"))
    assert profile[0].type == "patent"
    assert profile[0].fields["number"] == "9,104,700"
    assert MORE_AUTHORS_NOTE in facts.notes(profile[1].extra)


def test_acl_anthology_author_page() -> None:
    records, _ = read_page(require_shared("corpus", "html-wild", "aclanthology_author_madsack.html"))
    titles = [r.fields["title"] for r in records]
    assert titles[0] == "Data-to-text systems as writing environment"
    assert titles[1] == (
        '<span class="nocase">AX</span> Semantics’ Submission to the '
        '<span class="nocase">SIGMORPHON</span> 2019 Shared Task'
    )
    first = records[0]
    assert [n.family for n in first.names["author"]][-1] == "Weißgraeber"
    assert first.fields["container-title"].startswith("Proceedings of the First Workshop on Intelligent")
    assert [r.dates["issued"].parts for r in records] == [((2022,),), ((2019,),)] + [((2018,),)] * 3 + [
        ((2017,),)
    ]
    assert records[1].extra["acl:anthology_id"] == "W19-4201"
    assert records[1].fields["abstract"].startswith("This paper describes the AX Semantics")


def test_cvf_day_page_reads_the_bibtex_each_paper_shows() -> None:
    records, _ = read_page(require_shared("corpus", "html-wild", "cvf_openaccess_cvpr2020_day.html"))
    first = records[0]
    assert [(n.given, n.family) for n in first.names["author"]] == [
        ("Shangzhe", "Wu"),
        ("Christian", "Rupprecht"),
        ("Andrea", "Vedaldi"),
    ]
    assert (
        first.fields["container-title"]
        == "IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"
    )
    assert first.dates["issued"].parts == ((2020, 6),)
    assert first.extra["html:pdf_url"].endswith("_CVPR_2020_paper.pdf")
    recent, _ = read_page(OWN_PAGES / "own_cvf_cvpr2021_all.html")
    assert [r.arxiv.id for r in recent if r.arxiv] == ["2012.09841", "2011.10566"]
    assert [r.fields["page"] for r in recent] == ["12873-12883", "15750-15758"]
    assert recent[0].names["author"][2].family == "Ommer"
    last = records[-1]  # the saved page ends inside this entry: the title is all it shows
    assert last.fields["title"] == "Scene Recomposition by Learning-Based ICP"
    assert "author" not in last.names


def test_proceedings_pages_give_venue_volume_and_pages() -> None:
    pmlr, _ = read_page(OWN_PAGES / "own_pmlr_v202_volume.html")
    first = pmlr[0]
    assert (first.fields["volume"], first.fields["page"]) == ("202", "10835-10866")
    assert first.fields["collection-title"] == "Proceedings of Machine Learning Research"
    assert first.dates["issued"].parts == ((2023,),)
    neurips, _ = read_page(OWN_PAGES / "own_papers_nips_2017_list.html")
    assert [n.family for n in neurips[0].names["author"]][-2:] == ["Kaiser", "Polosukhin"]
    assert (neurips[0].fields["volume"], neurips[0].dates["issued"].parts) == ("30", ((2017,),))


def test_json_and_control_hints_areread_page() -> None:
    daily, _ = read_page(OWN_PAGES / "own_huggingface_daily_2023-07-19.html")
    assert [r.arxiv.id for r in daily if r.arxiv] == ["2307.09288", "2307.08691"]
    search, _ = read_page(OWN_PAGES / "own_semanticscholar_search.html")
    assert MORE_AUTHORS_NOTE in facts.notes(search[0].extra)
    assert "note" not in search[1].fields
    assert facts.notes(search[1].extra) == []
    assert (search[0].fields["DOI"], search[0].arxiv and search[0].arxiv.id) == (
        "10.18653/v1/2020.emnlp-main.550",
        "2004.04906",
    )


def test_dblp_every_entry_kind_of_the_current_layout() -> None:
    records, _ = read_page(OWN_PAGES / "own_dblp_person_modern.html")
    kinds = ["article", "article-journal", "book", "paper-conference", "book", "chapter", "thesis", "article"]
    assert [r.type for r in records] == kinds
    assert [(n.given, n.family) for n in records[1].names["author"]] == [
        ("Wei", "Wang"),
        ("Lena", "Hartmann"),
        ("Jörg", "Müller"),
    ]
    assert records[0].arxiv is not None
    assert records[0].arxiv.id == "2305.14314"  # from arXiv's DOI
    proceedings = records[2]
    assert [n.family for n in proceedings.names["editor"]] == ["Hartmann", "García"]
    assert "author" not in proceedings.names
    assert (proceedings.fields["collection-title"], proceedings.fields["collection-number"]) == (
        "CEUR Workshop Proceedings",
        "3412",
    )
    assert records[4].fields["number-of-pages"] == "310"
    assert (records[6].fields["publisher"], records[6].fields["genre"]) == (
        "University of Trier, Germany",
        "PhD thesis",
    )
    assert records[7].fields["title"] == "What is a Good Split? Or, How Trees See Data"
    assert [r.dates["issued"].parts[0][0] for r in records] == [
        2023,
        2023,
        2023,
        2021,
        2021,
        2021,
        2019,
        2019,
    ]
    toc, _ = read_page(OWN_PAGES / "own_dblp_venue_toc.html")
    assert {r.fields["container-title"] for r in toc[1:]} == {proceedings.fields["title"]}
    assert [r.dates["issued"].parts for r in toc] == [((2023,),)] * 4


def test_dblp_search_page_reads_the_publications_not_the_matching_authors() -> None:
    records, _ = read_page(OWN_PAGES / "bateman_dblp_search_calefato_2024_trimmed.html")
    esem, corr = records  # "Fabio Calefato" and "Caterina Calefato" above them are author matches
    assert esem.fields["title"] == "Assessing the Use of AutoML for Data-Driven Software Engineering"
    assert [n.family for n in esem.names["author"]] == ["Calefato", "Quaranta", "Lanubile", "Kalinowski"]
    venue = (esem.type, esem.fields["container-title"], esem.fields["page"])
    assert venue == ("paper-conference", "ESEM", "1-12")
    assert esem.fields["DOI"] == "10.1109/ESEM56168.2023.10304796"
    assert corr.arxiv is not None
    assert (corr.arxiv.id, corr.fields["volume"]) == ("2303.14702", "abs/2303.14702")
    assert [r.dates["issued"].parts for r in records] == [((2023,),)] * 2


def test_scholar_corr_venue_gives_the_arxiv_id() -> None:
    records, _ = read_page(OWN_PAGES / "goscholar_search_citation_corr_2016_trimmed.html")
    (paper,) = records
    assert (
        paper.fields["title"]
        == "Unsupervised feature learning and deep learning: A review and new perspectives"
    )
    assert [n.family for n in paper.names["author"]] == ["Bengio", "Courville", "Vincent"]
    assert (paper.fields["container-title"], paper.fields["volume"]) == ("CoRR", "abs/1206.5538")
    assert paper.arxiv is not None
    assert paper.arxiv.id == "1206.5538"


def test_acl_anthology_volume_and_event_pages() -> None:
    volume, _ = read_page(OWN_PAGES / "own_aclanthology_volume_2022_acl_long.html")
    front, paper = volume[0], volume[1]
    assert front.type == "book"
    assert [n.family for n in front.names["editor"]] == ["Muresan", "Nakov", "Villavicencio"]
    assert paper.fields["container-title"] == front.fields["title"]
    assert (paper.fields["publisher-place"], paper.dates["issued"].parts) == ("Dublin, Ireland", ((2022, 5),))
    event, _ = read_page(OWN_PAGES / "own_aclanthology_event_tacl_conll_2019.html")
    assert [r.type for r in event] == ["book", "paper-conference", "paper-conference"]
    venue = "Proceedings of the 23rd Conference on Computational Natural Language Learning (CoNLL)"
    assert event[1].fields["container-title"] == venue
    assert [r.dates["issued"].parts for r in event] == [((2019,),)] * 3


def test_acl_anthology_event_page_of_the_2019_design_splits_journal_issues() -> None:
    records, _ = read_page(OWN_PAGES / "icoxfog_aclanthology_event_cl_2000_trimmed.html")
    issues = [(r.fields["container-title"], r.fields["volume"], r.fields["issue"]) for r in records]
    journal = "Computational Linguistics"
    assert issues == [(journal, "26", "1")] * 7 + [(journal, "26", "2")] * 18
    assert {r.dates["issued"].parts for r in records[:7]} == {((2000, 3),)}  # "…, March 2000"
    assert {r.dates["issued"].parts for r in records[7:]} == {((2000, 6),)}
    daciuk = records[1]
    assert [n.family for n in daciuk.names["author"]] == ["Daciuk", "Mihov", "Watson", "Watson"]  # "|" apart
    assert daciuk.fields["URL"] == "https://aclanthology.org/J00-1002/"
    assert daciuk.extra["acl:anthology_id"] == "J00-1002"
    assert daciuk.extra["html:pdf_url"] == "https://www.aclweb.org/anthology/J00-1002"  # the "pdf" badge
    assert all(r.type == "article-journal" for r in records)
    assert [r.fields["title"] for r in records if "author" not in r.names] == [
        "Advertisements", "Briefly Noted", "Publications Received", "Advertisements"
    ]  # fmt: skip


def test_no_site_reader_claims_another_shared_page() -> None:
    corpus = require_shared("corpus")
    for path in sorted(corpus.glob("html-*/*.html")):
        name = f"{path.parent.name}/{path.name}"
        claimed = sites.claiming(_page(path))
        catalogue = CATALOGUE_PAGES.get(name, ("generic", 0))[0]
        expected = (
            SHARED[name][0]
            if name in SHARED
            else (catalogue if catalogue not in ("generic", "meta") else None)
        )
        assert (claimed.name if claimed else None) == expected, name


_SITE_SHELLS = [  # (head, body) of pages each site reader claims; {} is where the soup goes
    ('<link rel="canonical" href="https://dblp.org/pid/1/2.html">', '<ul class="publ-list">{}</ul>'),
    ("<title>x - Google Scholar</title>", '<div class="gs_r"><div class="gs_ri">{}</div></div>'),
    ("<title>x - ACL Anthology</title>", '<h2 id="title">V</h2><div class="d-sm-flex">{}</div>'),
    ("<title>CVPR 2020 Open Access Repository</title>", "<dl>{}</dl>"),
    ("<title>Proceedings of Machine Learning Research</title>", '<div class="paper">{}</div>'),
    ("<title>Daily Papers - Hugging Face</title>", '<div data-props="{}"></div>'),
    ('<title>x | OpenReview</title><script id="__NEXT_DATA__" type="application/json">{}</script>', ""),
    ("<title>ICML 2019 Schedule</title>", "<div class='maincard'>{}</div>"),
    ("<title>x - PubMed</title>", '<article class="full-docsum"><div class="docsum-content">{}</div>'),
    ('<meta name="pbContext">', '<div class="issue-item"><div class="issue-item__title">{}</div>'),
    ("<title>x | bioRxiv</title>", '<div class="highwire-list-wrapper"><div class="highwire-cite">{}</div>'),
    ('<meta name="generator" content="EPrints 3.4">', '<div class="ep_view_page"><h2>Article</h2><p>{}</p>'),
    ("<title>HAL</title>", '<div class="media-body"><a class="ref-halid" href="/hal-01234567">T</a>{}</div>'),
    ("<title>SSRN</title>", '<div class="description"><a href="?abstract_id=1">T</a>{}</div>'),
    ("<title>IEEE Xplore</title><script>xplGlobal.document.metadata={}</script>", ""),
    ("<title>IEEE Xplore</title>", '<div class="List-results-items"><h2><a href="/document/1/">T</a></h2>{}'),
]
_PARTS = st.sampled_from(
    [
        '<li class="entry article">', '<li class="year">20', '<span class="title">T.', '<cite class="data">',
        '<span itemprop="author"><span itemprop="name">Wei Wang 0001</span></span>', '<nav class="publ">',
        '<li class="ee"><a href="https://doi.org/10.1/x">', '<h3 class="gs_rt">', '<div class="gs_a">A B - ',
        "…, 2002 - x.org", '<strong><a href="/2020.acl-1.1/">', '<a href="/people/x/">N N</a>',
        '<dt class="ptitle"><a href="p.html">', '<div class="bibref">@InProceedings{k, author = {A',
        '<p class="title">', '<span class="info">PMLR 9:', '{"dailyPapers": [{"paper": {"title": 5}}]}',
        '{"props": {"pageProps": {"notes": [1, {"content": {"title": "T", "authors": "AB"}, '
        '"pdate": 1e300}]}}}', '<div class="maincardBody">', '<div class="maincardFooter">A · B', "</a>",
        '<a class="highwire-cite-linked-title" href="/content/1">', '<span class="highwire-citation-author">',
        '<span class="nlm-surname">', '<span class="highwire-cite-metadata-pages">2020.01.02.1;',
        '<span class="person_name">Turing, A', '<a href="/12/"><em>T.', "In: ", "(eds.)", "PhD thesis, U",
        '<span class="ref-biblio">J, 2019, 1 (2), pp.3-4. ⟨10.1/x⟩', '<div class="authors-list">',
        '<div class="note-list"><span>Posted: 1 Jan 2020', '{"title": "T", "authors": [{"lastName": 1}]',
        '<xpl-authors-name-list><a href="/author/1">', "Year: 2020 | Volume: 1, Issue: 2 | Page(s): 1 - 2",
        "</div>", "</li>", "}", "]",
    ]
)  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(shell=st.sampled_from(_SITE_SHELLS), parts=st.lists(_PARTS, max_size=12))
def test_site_markup_soup_gives_records_or_a_diagnostic_never_an_exception(
    shell: tuple[str, str], parts: list[str]
) -> None:
    soup = "".join(parts)
    head, body = shell
    if "data-props" in body:
        soup = escape(soup, quote=True)
    page = f"<html><head>{head.format(soup)}</head><body>{body.format(soup)}</body></html>"
    diagnostics: list[Diagnostic] = []
    for record in bibconv.read(page.encode("utf-8"), "html", strict=False, diagnostics=diagnostics):
        assert record.origin is not None


def test_pubmed_results_give_nlm_names_the_journal_citation_and_the_pmid() -> None:
    records, _ = read_page(OWN_PAGES / "scifeed_pubmed_results_endometriosis_2023.html")
    first, second = records
    assert first.fields["title"] == (
        "Living With Endometriosis: A Reflexive Thematic Analysis Examining Women's Experiences"
        " With the Irish Healthcare Services"
    )  # the search words the page shows in bold are plain title words
    assert [(n.family, n.given) for n in first.names["author"]] == [
        ("Lightbourne", "A"),
        ("Foley", "S"),
        ("Dempsey", "M"),
        ("Cronin", "M"),
    ]
    assert (first.fields["PMID"], first.fields["DOI"], first.fields["URL"]) == (
        "37988744",
        "10.1177/10497323231214114",
        "https://pubmed.ncbi.nlm.nih.gov/37988744/",
    )
    assert (first.fields["container-title"], first.fields["page"], first.fields["status"]) == (
        "Qual Health Res",
        "10497323231214114",
        "Online ahead of print",
    )
    assert first.dates["issued"].parts == ((2023, 11, 21),)
    assert [n.family for n in second.names["author"]][-3:] == ["Baracat", "Maranhão", "Podgaec"]
    assert second.names["author"][2].given == "LGO"
    assert (second.fields["PMID"], second.fields["DOI"]) == ("37987824", "10.1007/s00404-023-07246-8")
    assert all(r.type == "article-journal" for r in records)


def test_papers_with_code_search_cards_saved_without_the_page_head() -> None:
    records, _ = read_page(OWN_PAGES / "scifeed_paperswithcode_search_endometriosis.html")
    assert [(r.fields["title"], r.dates["issued"].parts, r.fields["URL"]) for r in records] == [
        (
            "Characterizing physiological and symptomatic variation",
            ((2020, 5, 14),),
            "https://paperswithcode.com/paper/characterizing-physiological-and-symptomatic",
        ),
        (
            "Designing and evaluating an online reinforcement learning agent for physical exercise"
            " recommendations in N-of-1 trials",
            ((2023, 9, 25),),
            "https://paperswithcode.com/paper/designing-and-evaluating-an-online",
        ),
    ]
    assert all("author" not in r.names for r in records)  # search cards name no authors


def test_atypon_table_of_contents_gives_sections_names_dois_and_the_issue() -> None:
    records, _ = read_page(OWN_PAGES / "lockss_atypon_asha_toc_aja_27_1_trimmed.html")
    assert [r.fields["DOI"] for r in records] == [
        f"10.1044/2017_AJA-17-{n}" for n in ("0041", "0090", "0074", "0057", "0035", "0042")
    ]
    assert [r.fields["section"] for r in records] == ["Clinical Focus"] * 4 + ["Research Articles"] * 2
    first = records[0]
    assert (
        first.fields["title"] == "Audiological Assessment of Word Recognition Skills in Persons With Aphasia"
    )
    assert [(n.given, n.family) for n in first.names["author"]][:2] == [
        ("Min", "Zhang"),
        ("Sheila R.", "Pratt"),
    ]
    assert [n.family for n in first.names["author"]][-2:] == ["Roxberg", "Ortmann"]  # ", and" is no name
    facts = tuple(first.fields[k] for k in ("container-title", "volume", "issue"))
    assert facts == ("Am J Audiol", "27", "1")
    assert all(r.dates["issued"].parts == ((2018, 3, 8),) for r in records)
    assert records[2].fields["title"] == (
        "Clinicians' Guide to Obtaining a Valid Auditory Brainstem Response to Determine Hearing Status:"
        " Signal, Noise, and Cross-Checks"
    )
    assert len(records[5].names["author"]) == 12


def test_atypon_classic_table_of_contents_gives_pages_online_dates_and_rich_titles() -> None:
    records, _ = read_page(OWN_PAGES / "lockss_atypon_tandf_toc_talc_38_4_trimmed.html")
    assert [(r.fields["DOI"], r.fields["page"], r.dates["issued"].parts) for r in records] == [
        ("10.1080/03115518.2014.966594", "455", ((2014, 10, 21),)),
        ("10.1080/03115518.2014.894809", "456-479", ((2014, 4, 24),)),
        ("10.1080/03115518.2014.906167", "480-503", ((2014, 5, 19),)),
        ("10.1080/03115518.2014.908267", "504-512", ((2014, 5, 19),)),
        ("10.1080/03115518.2014.908268", "513-527", ((2014, 6, 3),)),
    ]
    assert [r.fields["section"] for r in records] == ["Editorial"] + ["Research Articles"] * 4
    assert records[1].fields["title"].startswith("<i>Serendipaceratops arthurcclarkei</i> Rich &amp; Vickers")
    assert [n.family for n in records[1].names["author"]] == [
        "Rich", "Kear", "Sinclair", "Chinnery", "Carpenter", "McHugh", "Vickers-Rich"
    ]  # fmt: skip
    first = records[3].names["author"][0]
    assert (first.given, first.family) == ("José P.", "O’gorman")
    venue = ("Alcheringa: An Australasian Journal of Palaeontology", "38", "4")
    assert all(tuple(r.fields[k] for k in ("container-title", "volume", "issue")) == venue for r in records)
    assert records[0].fields["URL"] == "https://www.tandfonline.com/doi/full/10.1080/03115518.2014.966594"


def test_an_article_page_listing_similar_articles_is_read_as_its_one_article() -> None:
    """PubMed's and Literatum's article pages list similar articles in the result markup."""
    results = (OWN_PAGES / "scifeed_pubmed_results_endometriosis_2023.html").read_bytes()
    head = (
        b'<head><meta name="citation_title" content="Endometriosis: a review">'
        b'<meta name="citation_author" content="Ada Lovelace"></head>'
    )
    records = bibconv.read(b"<html>" + head + b"<body>" + results + b"</body></html>", "html")
    assert [(r.fields["title"], r.origin and r.origin.reader) for r in records] == [
        ("Endometriosis: a review", "meta")
    ]


def test_nlm_author_lists_keep_group_names_and_suffixes() -> None:
    from bibconv.formats.listing.sites.pubmed import nlm_authors

    # as PubMed lists them (PMID 29222399), and a suffix as NLM writes one
    line = (
        "Stewart JM, Boris JR, Chelimsky G, Fischer PR, Fortunato JE, Grubb BP, Heyer GL, Jarjour IT, "
        "Medow MS, Numan MT, Pianosi PT, Singer W, Tarbell S, Chelimsky TC, "
        "Pediatric Writing Group of the American Autonomic Society."
    )
    names = nlm_authors(line)
    assert [(n.family, n.given) for n in names[:2]] == [("Stewart", "JM"), ("Boris", "JR")]
    assert len(names) == 15
    assert names[-1].literal == "Pediatric Writing Group of the American Autonomic Society"
    (suffixed,) = nlm_authors("Smith JA Jr.")
    assert (suffixed.family, suffixed.given, suffixed.suffix) == ("Smith", "JA", "Jr")


def test_openreview_2018_list_of_blind_submissions() -> None:
    records, _ = read_page(OWN_PAGES / "own_openreview_iclr2018_group.html")
    assert [(r.fields["URL"], r.dates["issued"].parts) for r in records] == [
        ("https://openreview.net/forum?id=SyBPtQfAZ", ((2017, 10, 28),)),
        ("https://openreview.net/forum?id=H1S8UE-Rb", ((2017, 10, 28),)),
    ]
    assert all("author" not in r.names for r in records)  # "Anonymous" is no name
    assert records[1].keywords == ("complex numbers", "complex-valued", "perceptron")


def test_biorxiv_and_medrxiv_lists_give_ids_versions_groups_and_posting_dates() -> None:
    search, _ = read_page(OWN_PAGES / "own_biorxiv_search_coronavirus.html")
    first = search[0]
    assert (first.fields["DOI"], first.fields["publisher"], first.fields["version"]) == (
        "10.1101/2020.01.22.914952",
        "bioRxiv",
        "v2",
    )
    assert first.dates["issued"].parts == ((2020, 1, 23),)  # posted, from data-apath; the id says 22
    assert first.extra["biorxiv:id"] == "2020.01.22.914952"
    russell = search[2]
    assert russell.fields["publisher"] == "medRxiv"
    assert [n.literal or n.family for n in russell.names["author"]] == [
        "Russell",
        "Hellewell",
        "van Zandvoort",
        "CMMID COVID-19 working group",
        "Kucharski",
    ]
    assert all(r.type == "article" for r in search)
    recent, _ = read_page(OWN_PAGES / "own_medrxiv_recent_toc.html")
    assert [r.dates["issued"].parts for r in recent] == [((2020, 3, 9),), ((2020, 3, 3),)]  # the headings
    journal, _ = read_page(OWN_PAGES / "own_highwire_journal_collection.html")
    hopfield = journal[0]
    assert hopfield.type == "article-journal"
    venue = tuple(hopfield.fields[k] for k in ("container-title", "volume", "issue", "page", "DOI"))
    assert venue == ("PNAS", "79", "8", "2554-2558", "10.1073/pnas.79.8.2554")
    assert journal[1].fields["issue"] == "suppl 1"


def test_eprints_citations_by_item_type() -> None:
    records, _ = read_page(OWN_PAGES / "own_eprints_view_subject_type.html")
    kinds = ["article-journal", "article-journal", "chapter", "paper-conference", "report", "thesis"]
    assert [r.type for r in records] == kinds
    turing = records[0]
    assert turing.names["author"][0].given == "Alan M."  # EPrints' name parts, kept whole
    assert (turing.fields["container-title"], turing.fields["volume"], turing.fields["issue"]) == (
        "Mind",
        "59",
        "236",
    )
    assert (turing.fields["page"], turing.fields["ISSN"], turing.extra["eprints:id"]) == (
        "433-460",
        "0026-4423",
        "2051",
    )
    chapter = records[2]
    assert [n.family for n in chapter.names["editor"]] == ["Montavon", "Orr", "Müller"]
    assert [n.family for n in chapter.names["author"]] == ["Hinton"]
    assert (chapter.fields["container-title"], chapter.fields["collection-number"]) == (
        "Neural Networks: Tricks of the Trade",
        "7700",
    )
    place = ("Springer", "Berlin, Heidelberg")
    assert (chapter.fields["publisher"], chapter.fields["publisher-place"]) == place
    assert records[3].fields["event-place"] == "Brisbane, Australia"
    assert (records[5].fields["genre"], records[5].fields["publisher"]) == (
        "PhD thesis",
        "University of California, Irvine",
    )
    search, _ = read_page(OWN_PAGES / "own_eprints_search_results.html")
    assert [r.type for r in search] == ["report", "article-journal"]
    assert search[1].fields["DOI"] == "10.1093/mind/LIX.236.433"


def test_hal_results_read_the_reference_line_and_its_identifiers() -> None:
    records, _ = read_page(OWN_PAGES / "own_hal_search_results.html")
    sklearn, sinkhorn, knight = records
    assert sklearn.names["author"][1].given == "Gaël"
    assert MORE_AUTHORS_NOTE in facts.notes(sklearn.extra)  # "et al."
    assert (sklearn.fields["container-title"], sklearn.fields["volume"], sklearn.fields["page"]) == (
        "Journal of Machine Learning Research",
        "12",
        "2825-2830",
    )
    assert sinkhorn.type == "paper-conference"
    assert (sinkhorn.extra["hal:id"], sinkhorn.dates["issued"].parts) == ("hal-00911712", ((2013, 12),))
    assert sinkhorn.fields["event-place"] == "Lake Tahoe, United States"
    assert (knight.fields["DOI"], knight.fields["issue"], knight.extra["hal:id"]) == (
        "10.1051/jphysrad:01955001606044400",
        "6",
        "jpa-00235190",
    )


def test_hal_saved_results_title_in_strong_reference_line_after_it_and_coins_authors() -> None:
    records, _ = read_page(OWN_PAGES / "ami3_hal_sde_search_permafrost_trimmed.html")
    thesis, cryogrid = records[0], records[1]
    assert thesis.fields["title"].startswith("Distribution et caractérisation du permafrost")  # no HAL id
    assert (thesis.type, thesis.fields["publisher"], thesis.extra["hal:nnt"]) == (
        "thesis",
        "Université Grenoble Alpes",
        "2015GREAA010",
    )
    assert thesis.dates["issued"].parts == ((2015, 6, 16),)  # the COinS date, in the year the line shows
    # five names and "et al." shown; the row's COinS span names all seven
    assert [n.family for n in cryogrid.names["author"]][4:] == ["Peter", "Etzelmüller", "Krinner"]
    assert MORE_AUTHORS_NOTE not in facts.notes(cryogrid.extra)
    assert (cryogrid.fields["container-title"], cryogrid.fields["publisher"], cryogrid.fields["page"]) == (
        "Geoscientific Model Development Discussions",
        "Copernicus Publ",
        "523-546",
    )
    assert records[4].fields["issue"] == "9"
    assert records[4].fields["DOI"] == "10.1038/s41396-018-0176-z"


def test_a_hal_result_whose_only_link_names_its_hal_id_is_not_titled_by_it() -> None:
    page = (
        b'<html><head><title>HAL - Search</title></head><body><table><tr><td><div class="media-body">'
        b'<a class="ref-halid" href="/hal-02377983v1">hal-02377983<small>v1</small></a>'
        b'<span class="ref-authors"><a>Sylvain Monteux</a>.</span></div></td></tr></table></body></html>'
    )
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(page, "html", diagnostics=diagnostics, strict=False)
    assert [r.fields.get("title") for r in records] == []
    assert [d.severity for d in diagnostics] == ["warning"]  # no records, said so


def test_ssrn_papers_are_working_papers_numbered_by_their_abstract_id() -> None:
    records, _ = read_page(OWN_PAGES / "own_ssrn_search_results.html")
    first = records[0]
    assert first.type == "report"
    assert (first.fields["number"], first.fields["URL"]) == (
        "2460551",
        "https://papers.ssrn.com/sol3/papers.cfm?abstract_id=2460551",
    )
    assert first.dates["issued"].parts == ((2014, 7, 21),)  # Posted, not Last Revised
    assert first.fields["note"] == "Journal of Portfolio Management, 40 (5), pp. 94-107. 2014"
    assert [n.family for n in records[1].names["author"]] == ["Bailey", "Borwein", "Prado", "Zhu"]
    assert "note" not in records[2].fields


def test_ieee_xplore_saved_table_of_contents_and_fetched_article_page() -> None:
    toc, _ = read_page(OWN_PAGES / "own_ieee_xplore_toc_saved.html")
    mask = toc[0]
    assert [n.family for n in mask.names["author"]] == ["He", "Gkioxari", "Dollár", "Girshick"]
    assert tuple(mask.fields[k] for k in ("container-title", "volume", "issue", "page")) == (
        "IEEE Transactions on Pattern Analysis and Machine Intelligence",
        "42",
        "2",
        "386-397",
    )
    assert (mask.dates["issued"].parts, mask.extra["ieee:document"]) == (((2020, 2),), "8372616")
    (article,) = read_page(OWN_PAGES / "own_ieee_xplore_article_fetched.html")[0]
    assert article.type == "paper-conference"
    assert (article.fields["DOI"], article.fields["page"]) == ("10.1109/CVPR.2016.90", "770-778")
    assert article.names["author"][0].affiliation == ("Microsoft Research",)
    assert article.origin is not None
    assert article.origin.where == "xplGlobal.document.metadata"


def test_openreview_and_cvf_records_name_their_venue_from_the_page() -> None:
    accepted, _ = read_page(OWN_PAGES / "own_openreview_iclr2023_group.html")
    assert [(r.type, r.fields["container-title"]) for r in accepted] == [
        ("paper-conference", "ICLR 2023 notable top 5%")
    ] * 2
    submitted, _ = read_page(OWN_PAGES / "own_openreview_iclr2018_group.html")
    assert [(r.type, r.fields["status"]) for r in submitted] == [
        ("article", "ICLR 2018 Conference Blind Submission")
    ] * 2  # a blind submission has not appeared anywhere yet
    day, _ = read_page(require_shared("corpus", "html-wild", "cvf_openaccess_cvpr2020_day.html"))
    assert {r.fields["container-title"] for r in day} == {
        "IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"
    }  # the paper the saved page cuts short too: its conference is the page's
    page = (
        "<html><head><title>WACV 2021 Open Access Repository</title></head><body><dl>"
        '<dt class="ptitle"><a href="content/WACV2021/html/A_WACV_2021_paper.html">Seeing Things</a></dt>'
        "<dd><form class='authsearch'><a href='#'>Ada Lovelace</a></form></dd></dl></body></html>"
    )
    (paper,) = bibconv.read(page.encode("utf-8"), "html")
    assert (paper.type, paper.fields["container-title"], paper.dates["issued"].parts) == (
        "paper-conference",
        "WACV 2021",
        ((2021,),),
    )
