"""arXiv feeds: every real sample reads to the expected canonical records, field by field."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import bibconv
from bibconv.errors import Diagnostic, ParseError, RemoteError
from bibconv.formats.atom import AtomReader
from bibconv.formats.atom.entry import split_creators
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.registry import format_for_extension
from tests.golden import cases, check_golden, csl_schema, golden, samples
from tests.tools import SHARED_MISSING

FEEDS = samples("atom", ".xml", ".atom") + samples("rss", ".xml")
RECORDINGS = samples("atom", ".recording.json")
ERROR_FEEDS = {p.name for folder in ("atom", "rss") for p in cases(folder, "invalid", ".errors.txt")}
"""Feeds that are errors: their golden, in invalid/, is the error they give."""


def feed(name: str) -> Path:
    found = next((p for p in FEEDS if p.name == name), None)
    if found is None:
        pytest.skip(SHARED_MISSING)
    return found


def read(name: str, **options: object) -> list[Record]:
    return bibconv.read(feed(name), "atom", **options)


def by_id(records: list[Record], ident: str) -> Record:
    return next(r for r in records if r.arxiv is not None and r.arxiv.id == ident)


def golden_text(path: Path) -> str:
    """Canonical records as CSL-JSON, or the error a feed must give."""
    try:
        records = bibconv.read(path, "atom")
    except RemoteError as exc:
        return str(exc).replace(str(path), path.name) + "\n"
    return bibconv.write(records, "csljson") or ""


def golden_path(path: Path) -> Path:
    if path.name in ERROR_FEEDS:
        return golden(path, "invalid", ".errors.txt")
    return golden(path, "read", ".csl.json")


@pytest.mark.parametrize("path", FEEDS, ids=lambda p: p.name)
def test_every_feed_reads_to_its_golden_records(path: Path, update_golden: bool) -> None:
    check_golden(golden_path(path), golden_text(path), update_golden)


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_recorded_http_answers_equal_their_xml_and_read_the_same(path: Path) -> None:
    recording = json.loads(path.read_text(encoding="utf-8"))
    body = recording["body"].encode("latin-1")
    xml = path.with_name(path.name.replace(".recording.json", ".xml"))
    assert body == xml.read_bytes()
    assert recording["status_code"] == (400 if "error" in path.name else 200)
    assert golden_text(xml) == golden_path(xml).read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [p for p in FEEDS if p.name not in ERROR_FEEDS], ids=lambda p: p.name)
def test_records_survive_csl_json_and_validate(path: Path) -> None:
    records = bibconv.read(path, "atom")
    written = bibconv.write(records, "csljson") or ""
    jsonschema.Draft7Validator(csl_schema()).validate(json.loads(written))
    back = bibconv.read(written, "csljson")
    assert [r.replace(id=None) for r in back] == records
    assert all(r.origin and r.origin.line for r in records)
    for r in records:  # a preprint, or the published work when arXiv names its journal
        published = bool(r.arxiv and r.arxiv.journal_ref)
        assert r.type in ({"article-journal", "paper-conference"} if published else {"article"})
        assert r.type == "article" or "container-title" in r.fields  # never a journal article without one


@pytest.mark.parametrize("path", FEEDS, ids=lambda p: p.name)
def test_every_feed_is_detected_as_atom(path: Path) -> None:
    head = path.read_bytes()[:4096].decode("utf-8", errors="replace")
    assert AtomReader.sniff(head) >= 0.9


def test_classic_api_entry_maps_every_field() -> None:
    (record,) = read("arxivpy2016_id_list_1111.2011v2.xml")
    assert record.type == "article-journal"  # it has a journal reference
    assert record.arxiv == Arxiv(
        id="1111.2011",
        version=2,
        primary_class="cond-mat.str-el",
        categories=("cond-mat.str-el", "cond-mat.stat-mech"),
        submitted=Date(parts=((2011, 11, 8),)),
        updated=Date(parts=((2012, 4, 2),)),
        comment="8 pages, 3 figures. Published version",
        journal_ref="Phys. Rev. B 85, 115117 (2012)",
    )
    # The title is wrapped over two lines in the feed; the journal DOI keeps the DOI slot.
    assert record.title == (
        "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit"
    )
    assert record.fields["DOI"] == "10.1103/PhysRevB.85.115117"
    assert record.fields["abstract"].startswith("Theoretical description of anisotropic systems, such")
    assert "\n" not in record.fields["abstract"]
    assert (record.fields["container-title"], record.fields["volume"], record.fields["page"]) == (
        "Phys. Rev. B",
        "85",
        "115117",
    )
    assert "URL" not in record.fields
    assert [n.display() for n in record.authors] == [
        "James M. Murray",
        "Adrian Del Maestro",
        "Zlatko Tesanovic",
    ]
    assert record.issued == Date(parts=((2012,),))  # Phys. Rev. B 85, 115117 (2012)
    assert not record.extra


def test_the_version_date_option_dates_by_the_version_read() -> None:
    (record,) = read("arxivpy2016_id_list_1111.2011v2.xml", arxiv_date="version")
    assert record.issued == Date(parts=((2012,),))  # the journal's year: this is the published work
    preprint = next(
        r for r in read("d00ksky2026_all_war_25.xml", arxiv_date="version") if r.type == "article"
    )
    assert preprint.issued == preprint.arxiv.updated
    assert record.arxiv is not None
    assert record.arxiv.submitted == Date(parts=((2011, 11, 8),))


def test_old_style_ids_and_affiliations() -> None:
    (record,) = read("arxivpy2026_id_astro-ph_0601001.xml")
    assert record.arxiv is not None
    assert (record.arxiv.id, record.arxiv.version, record.arxiv.primary_class) == (
        "astro-ph/0601001",
        1,
        "astro-ph",
    )
    assert [(n.family, n.affiliation) for n in record.authors] == [
        ("Gould", ("Ohio State",)),
        ("Dorsher", ("Ohio State",)),
        ("Gaudi", ("CfA",)),
        ("Udalski", ("Warsaw University Observatory",)),
    ]
    assert "Gould &amp; Morgan (2003)" in record.fields["abstract"]  # rich text escapes '&'
    assert "V_max&lt;17.5" in record.fields["abstract"]
    (perlmutter,) = read("pubs2019_id_astro-ph_9812133.xml")
    assert len(perlmutter.authors) == 32
    assert {n.affiliation for n in perlmutter.authors} == {("The Supernova Cosmology Project",)}


def test_classification_codes_are_kept_apart_from_arxiv_classes() -> None:
    records = read("orijtech2017_deep_dream-0.atom")
    coded = [r for r in records if "atom:category" in r.extra]
    assert {tuple(r.extra["atom:category"]) for r in coded} == {
        ("14C20, 14M99",),
        ("05E99 (Primary), 05E05, 20B30 (Secondary)",),
        ("14A20, 14L30, 14M25",),
    }
    for record in coded:
        assert record.arxiv is not None
        assert all("," not in c for c in record.arxiv.categories)
    (perelman,) = read("pubs2019_id_math_0211159.xml")
    assert perelman.arxiv is not None
    assert perelman.arxiv.id == "math/0211159"
    assert perelman.extra["atom:category"] == ["53C"]
    assert "53C" not in perelman.arxiv.categories


def test_tex_is_decoded_and_math_kept() -> None:
    (zoia,) = read("zoia2020_id_list_1601.00001.xml")
    assert "Landauer-Büttiker" in zoia.fields["abstract"]
    records = read("arxivpy2026_q_testing_100.xml")
    titles = [r.title or "" for r in records]
    assert "$ω$Test: WebView-Oriented Testing for Android Applications" in titles
    assert any("the <i>oracle problem</i>" in r.fields.get("abstract", "") for r in records)
    assert any("$\\tilde{O}(\\varepsilon^{-2})$" in r.fields.get("abstract", "") for r in records)
    # "~" after a space means "about" in arXiv abstracts; between words it is a TeX tie.
    rss = read("luvata_rss2_2024-03-04_cs.CL.xml") + read("luvata_rss2_2026-08-19_cs.CL.xml")
    abstracts = " ".join(r.fields.get("abstract", "") for r in rss)
    assert "by ~2-38% across" in abstracts
    assert "leaks ~5x less" in abstracts
    assert "index set of\u00a0$X$" in " ".join(r.fields.get("abstract", "") for r in records)


def test_abstract_paragraphs_are_kept_and_wraps_collapsed() -> None:
    records = read("d00ksky2026_all_retrieval_15.xml")
    lines = by_id(records, "2608.20210").fields["abstract"].split("\n")
    assert len(lines) == 4
    assert lines[1].startswith("Trained from scratch on 59.9B tokens")
    rdf = read("luvata_rss1-rdf_2024-01-31_cs.CL.xml")
    assert all("  " not in r.fields["abstract"] and "<p>" not in r.fields["abstract"] for r in rdf)
    assert sum("\n" in r.fields["abstract"] for r in rdf) >= 4


def test_rss2_items_map_announcement_data() -> None:
    records = read("luvata_rss2_2026-08-19_cs.CL.xml")
    assert len(records) == 101
    types = [r.extra["atom:announce_type"] for r in records]
    assert {t: types.count(t) for t in set(types)} == {
        "new": 32,
        "cross": 30,
        "replace": 29,
        "replace-cross": 10,
    }
    assert sum("DOI" in r.fields for r in records) == 6
    assert sum(r.arxiv is not None and r.arxiv.journal_ref is not None for r in records) == 2
    cross = by_id(records, "2608.13567")
    assert cross.arxiv is not None
    assert (cross.arxiv.primary_class, cross.arxiv.categories) == ("cs.AI", ("cs.AI", "cs.CL", "cs.LG"))
    assert [n.display() for n in cross.authors] == [
        "Pengrui Han",
        "Jacob Andreas",
        "Evelina Fedorenko",
        "Andrea Gregor de Varda",
    ]
    assert cross.extra["atom:rights"] == "http://creativecommons.org/licenses/by/4.0/"
    replaced = by_id(records, "2204.13805")
    assert replaced.arxiv is not None
    assert replaced.arxiv.version == 5
    # The feed has no submission date: the id's month stands for v1, the announcement for this version.
    assert replaced.arxiv.submitted == Date(parts=((2022, 4),)) == replaced.issued
    assert replaced.arxiv.updated == Date(parts=((2026, 8, 18),))
    lee = next(n for r in records for n in r.authors if n.family == "Lee" and n.given == "Janghoon")
    assert lee.affiliation == ("Redrob",)


def test_rss1_rdf_titles_give_id_version_and_class() -> None:
    records = read("luvata_rss1-rdf_2024-01-31_cs.CL.xml")
    assert len(records) == 88
    assert sum(r.extra.get("atom:status") == "UPDATED" for r in records) == 69
    first = records[0]
    assert first.title == (
        "Scalable Qualitative Coding with LLMs: Chain-of-Thought Reasoning Matches Human "
        "Performance in Some Hermeneutic Tasks"
    )
    assert first.arxiv is not None
    assert (first.arxiv.id, first.arxiv.version) == ("2401.15170", 1)
    assert first.authors == (Name(family="Dunivin", given="Zackary Okun"),)
    assert first.arxiv.updated == Date(parts=((2024, 1, 29),))  # the channel's dc:date
    survey = by_id(records, "2401.15422")
    assert survey.arxiv is not None
    assert survey.arxiv.primary_class == "cs.LG"
    assert by_id(records, "2401.13275").title == "Can AI Assistants Know What They Don't Know?"


def test_atom_announcement_feed_reads_like_rss() -> None:
    records = read("bibconv_announce_atom_2026-08-18_cs.CL.xml")
    rss = {r.arxiv.id: r for r in read("luvata_rss2_2026-08-19_cs.CL.xml") if r.arxiv}
    assert len(records) == 5
    for record in records:
        assert record.arxiv is not None
        assert record == rss[record.arxiv.id]


def test_csl_json_projection_of_a_preprint() -> None:
    (old,) = read("arxivpy2026_id_quant-ph_0201082v1.xml")
    (item,) = json.loads(bibconv.write([old], "csljson") or "")
    assert item["type"] == "article"
    assert item["number"] == "arXiv:quant-ph/0201082"
    assert item["publisher"] == "arXiv"
    assert item["DOI"] == "10.48550/arXiv.quant-ph/0201082"
    assert item["URL"] == "https://arxiv.org/abs/quant-ph/0201082"
    assert item["custom"]["bibconv:arxiv"]["version"] == 1
    (published,) = read("arxivpy2016_id_list_1111.2011v2.xml")
    (item,) = json.loads(bibconv.write([published], "csljson") or "")
    assert (item["number"], item["DOI"], item["URL"]) == (
        "arXiv:1111.2011",
        "10.1103/PhysRevB.85.115117",
        "https://arxiv.org/abs/1111.2011",
    )


def test_error_feed_is_a_remote_error_with_arxivs_message() -> None:
    path = feed("arxivpy2026_error_id_abc.xml")
    with pytest.raises(RemoteError) as info:
        bibconv.read(path, "atom")
    assert str(info.value) == f"{path}:9: arXiv API error: incorrect id format for abc"
    diagnostics: list[Diagnostic] = []
    assert bibconv.read(path, "atom", strict=False, diagnostics=diagnostics) == []
    assert [(d.severity, d.message) for d in diagnostics] == [
        ("error", "arXiv API error: incorrect id format for abc")
    ]


@pytest.mark.parametrize(
    "name",
    [
        "arxivpy2026_empty_id_0000.0000.xml",
        "luvata_rss1-rdf_2023-07-05_cs.CL_empty.xml",
        "luvata_rss2_2024-03-10_cs.CL_empty_weekend.xml",
    ],
)
def test_empty_feeds_give_no_records_and_no_error(name: str) -> None:
    diagnostics: list[Diagnostic] = []
    assert bibconv.read(feed(name), "atom", diagnostics=diagnostics) == []
    assert diagnostics == []


def test_broken_xml_reports_the_line_after_the_records_before_it() -> None:
    text = feed("pubs2019_id_1710.08557.xml").read_text(encoding="utf-8")
    cut = text[: text.index("</entry>") + len("</entry>")] + "\n  <entry><id>x</id>\n"
    records: list[Record] = []
    with pytest.raises(ParseError, match=r"^feed\.xml:\d+:\d+: not well-formed XML") as info:
        records.extend(bibconv.iter_records(cut.encode(), "atom", filename="feed.xml"))
    assert len(records) == 1
    assert info.value.span.line == cut.count("\n") + 1


def test_an_entry_without_an_arxiv_id_is_skipped_in_lenient_mode() -> None:
    text = feed("xiv2025_cat_cs.RO_AND_neural.xml").read_text(encoding="utf-8")
    text = text.replace("<id>http://arxiv.org/abs/", "<id>urn:example:", 1)
    with pytest.raises(ParseError, match="the entry has no arXiv identifier"):
        bibconv.read(text, "atom")
    diagnostics: list[Diagnostic] = []
    assert len(bibconv.read(text, "atom", strict=False, diagnostics=diagnostics)) == 1
    assert diagnostics[0].severity == "error"
    assert diagnostics[0].span
    assert diagnostics[0].span.line


def test_a_document_that_is_not_a_feed_is_refused() -> None:
    with pytest.raises(ParseError, match=r"^x\.xml:1: not an arXiv feed: the root element is <html>"):
        bibconv.read(b"<html><body/></html>", "atom", filename="x.xml")


def test_dc_creator_lists_split_outside_parentheses() -> None:
    assert split_creators("Ana Ruiz (Univ. A, Lab B), Bo Li, Jos\\'e Ramos Jr") == [
        Name(family="Ruiz", given="Ana", affiliation=("Univ. A", "Lab B")),
        Name(family="Li", given="Bo"),
        Name(family="Ramos", given="José", suffix="Jr"),
    ]
    # Mononyms stay separate names (a family-first guess would pair them).
    assert split_creators("Xu, Wang") == [Name(family="Xu"), Name(family="Wang")]


def test_extension_and_sniffing() -> None:
    assert format_for_extension("feed.atom") == "atom"
    assert AtomReader.sniff("<?xml version='1.0'?><rss version='2.0'><channel><title>x</title>") == 0.5
    assert AtomReader.sniff("@article{x, title={y}}") == 0.0


WRITERS = {"bibtex": ".bib", "biblatex": ".biblatex", "ris": ".ris"}
WRITER_SAMPLES = sorted({p.name for suffix in WRITERS.values() for p in cases("atom", "write", suffix)})


@pytest.mark.parametrize("fmt", sorted(WRITERS))
@pytest.mark.parametrize("name", WRITER_SAMPLES)
def test_representative_feeds_convert_to_golden_outputs(name: str, fmt: str, update_golden: bool) -> None:
    path = feed(name)
    output = bibconv.write(read(name), fmt) or ""
    check_golden(golden(path, "write", WRITERS[fmt]), output, update_golden)


def test_bibtex_biblatex_and_ris_projections_of_preprints() -> None:
    records = read("arxivpy2026_id_quant-ph_0201082v1.xml") + read("arxivpy2016_id_list_1111.2011v2.xml")
    bibtex = (bibconv.write(records, "bibtex") or "").split("\n\n")
    assert bibtex[0].startswith("@misc{")
    for needle in ("eprint = {quant-ph/0201082}", "archivePrefix = {arXiv}", "primaryClass = {quant-ph}"):
        assert needle in bibtex[0]
    assert "doi = {10.48550/arXiv.quant-ph/0201082}" in bibtex[0]
    assert "url = {https://arxiv.org/abs/quant-ph/0201082" in bibtex[0]
    assert "eprint = {1111.2011}" in bibtex[1]  # the version stays out of eprint
    assert "doi = {10.1103/PhysRevB.85.115117}" in bibtex[1]  # the journal DOI
    biblatex = bibconv.write(records, "biblatex") or ""
    for needle in ("eprint = {quant-ph/0201082}", "eprinttype = {arXiv}", "eprintclass = {quant-ph}"):
        assert needle in biblatex
    ris = (bibconv.write(records, "ris") or "").split("ER  - ")
    for needle in (
        "N1  - arXiv:quant-ph/0201082v1 [quant-ph]",
        "DO  - 10.48550/arXiv.quant-ph/0201082",
        "UR  - https://arxiv.org/abs/quant-ph/0201082",
    ):
        assert needle in ris[0]
    assert "N1  - arXiv:1111.2011v2 [cond-mat.str-el]" in ris[1]
    assert "DO  - 10.1103/PhysRevB.85.115117" in ris[1]
