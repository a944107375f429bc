"""arXiv's metadata snapshot (JSON lines): mapping, sniffing, errors, and the partition function."""

from __future__ import annotations

import json
from pathlib import Path

import dask.bag
import pytest

import bibconv
from bibconv.errors import ParseError, ReadError
from bibconv.formats.arxiv_jsonl import record_from_snapshot, records_from_snapshot
from tests.golden import FIXTURES, check_golden, golden, need

SAMPLE = FIXTURES / "arxiv-jsonl" / "read" / "sample.jsonl"
LINES = SAMPLE.read_text(encoding="utf-8").splitlines()
# The first line of Kaggle's snapshot (arXiv 0704.0001), abstract shortened: TeX in "authors",
# UTF-8 in "authors_parsed", a report number, a title hard-wrapped as arXiv stores it.
KAGGLE_0704_0001 = (
    r'{"id":"0704.0001","submitter":"Pavel Nadolsky","authors":"C. Bal'
    r"\\'"
    r"azs, E. L. Berger, P. M."
    r' Nadolsky, C.-P. Yuan","title":"Calculation of prompt diphoton production cross sections at'
    r' Tevatron and\n  LHC energies","comments":"37 pages, 15 figures; published version",'
    r'"journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009","report-no":'
    r'"ANL-HEP-PR-07-12","categories":"hep-ph","license":null,"abstract":"  A fully differential'
    r" calculation in perturbative quantum chromodynamics is\npresented for the production of"
    r' massive photon pairs at hadron colliders.\n","versions":[{"version":"v1","created":"Mon, 2'
    r' Apr 2007 19:18:42 GMT"},{"version":"v2","created":"Tue, 24 Jul 2007 20:10:27 GMT"}],'
    r'"update_date":"2008-11-26","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""],'
    r'["Nadolsky","P. M.",""],["Yuan","C. -P.",""]]}'
)


def by_id(records: list[bibconv.Record]) -> dict[str, bibconv.Record]:
    return {r.arxiv.id: r for r in records if r.arxiv}


def test_sample_matches_golden(update_golden: bool) -> None:
    records = bibconv.read(SAMPLE)
    assert len(records) == len(LINES) == 17
    check_golden(golden(SAMPLE, "read", ".csl.json"), bibconv.write(records, "csljson"), update_golden)


def test_kaggle_line_maps_every_field() -> None:
    (record,) = records_from_snapshot([KAGGLE_0704_0001])
    assert record.type == "article-journal"  # Phys.Rev.D76:013009,2007
    assert (
        record.title
        == "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies"
    )
    assert record.fields["abstract"].startswith("A fully differential calculation in perturbative quantum")
    assert record.fields["DOI"] == "10.1103/PhysRevD.76.013009"
    assert [a.family for a in record.authors] == ["Balázs", "Berger", "Nadolsky", "Yuan"]
    assert record.authors[3].given == "C. -P."
    arxiv = record.arxiv
    assert (arxiv.id, arxiv.version, arxiv.primary_class, arxiv.categories) == (
        "0704.0001",
        2,
        "hep-ph",
        ("hep-ph",),
    )
    assert arxiv.submitted.to_edtf() == "2007-04-02"
    assert arxiv.updated.to_edtf() == "2007-07-24"
    assert arxiv.journal_ref == "Phys.Rev.D76:013009,2007"
    assert arxiv.comment == "37 pages, 15 figures; published version"
    assert record.issued.to_edtf() == "2007"  # the year of the journal reference
    assert record.extra == {"arxiv:report-no": "ANL-HEP-PR-07-12"}


def test_issued_by_version_date_when_asked() -> None:
    preprint = {**json.loads(KAGGLE_0704_0001), "journal-ref": None, "doi": None}
    (record,) = records_from_snapshot([preprint], arxiv_date="version")
    assert record.issued.to_edtf() == "2007-07-24"
    assert record.arxiv.submitted.to_edtf() == "2007-04-02"


def test_a_paper_with_a_journal_reference_is_the_published_work() -> None:
    (record,) = records_from_snapshot([KAGGLE_0704_0001], arxiv_date="version")
    assert record.type == "article-journal"
    assert (record.fields["container-title"], record.fields["volume"], record.fields["page"]) == (
        "Phys.Rev.D",
        "76",
        "013009",
    )
    assert record.issued.to_edtf() == "2007"
    assert record.arxiv.journal_ref == "Phys.Rev.D76:013009,2007"


def test_names_particles_suffixes_affiliations_and_single_names() -> None:
    records = by_id(bibconv.read(SAMPLE))
    de_with = records["1707.08567"].authors[4]
    assert (de_with.non_dropping_particle, de_with.family, de_with.given) == ("de", "With", "Peter H. N.")
    # arXiv's splitter leaves "van den" in the given names: it is moved to the particle.
    bosch = records["1612.03659"].authors[4]
    assert (bosch.given, bosch.non_dropping_particle, bosch.family) == ("Antal", "van den", "Bosch")
    assert records["2001.01245"].authors[0].non_dropping_particle == "van"
    assert records["1111.2011"].authors[1].family == "Del Maestro"
    assert records["1510.02795"].authors[3].suffix == "III"
    assert records["astro-ph/9812133"].authors[0].affiliation == ("The Supernova Cosmology Project",)
    single = records["2111.15598"].authors
    assert (single[1].family, single[1].given, single[2].family) == ("Tusi", None, "Wen")
    assert records["1612.05200"].authors[0].family == "Csörgő"


def test_tex_in_names_and_titles_is_decoded_and_math_kept() -> None:
    line = {
        "id": "hep-th/9901001",
        "title": r"Schr\"odinger operators with $\alpha$-stable {QCD} potentials & more",
        "abstract": "Plain text < with no TeX >",
        "authors_parsed": [[r"M\"uller", r"J{\"o}rg", ""], ["ATLAS Collaboration", "", ""]],
        "categories": "hep-th",
    }
    (record,) = records_from_snapshot([line])
    assert record.title == (
        'Schrödinger operators with $\\alpha$-stable <span class="nocase">QCD</span> potentials &amp; more'
    )
    assert record.fields["abstract"] == "Plain text &lt; with no TeX &gt;"
    assert (record.authors[0].family, record.authors[0].given) == ("Müller", "Jörg")
    assert record.authors[1].literal == "ATLAS Collaboration"
    assert record.arxiv.id == "hep-th/9901001"


def test_extra_keeps_license_report_number_and_further_dois() -> None:
    item = json.loads(KAGGLE_0704_0001) | {
        "license": "http://creativecommons.org/licenses/by/4.0/",
        "doi": "10.1103/PhysRevD.76.013009 10.1000/other",
    }
    record = record_from_snapshot(item)
    assert record.fields["DOI"] == "10.1103/PhysRevD.76.013009"
    assert record.extra["arxiv:doi"] == "10.1103/PhysRevD.76.013009 10.1000/other"
    assert record.extra["arxiv:license"] == "http://creativecommons.org/licenses/by/4.0/"


def test_partition_function_takes_str_bytes_and_dicts() -> None:
    as_str = list(records_from_snapshot(LINES))
    as_bytes = list(records_from_snapshot(line.encode("utf-8") + b"\n" for line in LINES))
    as_dicts = list(records_from_snapshot(json.loads(line) for line in LINES))
    assert as_str == as_bytes == as_dicts == bibconv.read(SAMPLE)


def test_detection_tells_the_snapshot_from_csl_json(tmp_path: Path) -> None:
    assert bibconv.detect(SAMPLE) == "arxiv-jsonl"
    assert bibconv.detect(SAMPLE.read_text(encoding="utf-8")) == "arxiv-jsonl"
    snapshot = tmp_path / "arxiv-metadata-oai-snapshot.json"  # Kaggle's name ends in .json
    snapshot.write_text(KAGGLE_0704_0001 + "\n", encoding="utf-8")
    assert bibconv.detect(snapshot) == "arxiv-jsonl"
    csl_lines = tmp_path / "items.json"
    csl_lines.write_text('{"id": "a", "type": "book", "title": "T"}\n{"id": "b", "type": "book"}\n')
    assert bibconv.detect(csl_lines) == "csljson"
    assert bibconv.detect(need("csljson/commonmeta_csl-list.json")) == "csljson"


def test_bad_lines_fail_with_their_line_or_are_skipped() -> None:
    lines = [LINES[0], '{"id": "0704.0002", "title": ', LINES[1], '{"title": "no id"}', LINES[2]]
    with pytest.raises(ParseError, match=r"^in\.jsonl:2:\d+: invalid JSON"):
        list(records_from_snapshot(lines, filename="in.jsonl"))
    diagnostics: list[bibconv.Diagnostic] = []
    records = list(records_from_snapshot(lines, strict=False, diagnostics=diagnostics, filename="in.jsonl"))
    assert [r.arxiv.id for r in records] == ["1111.2011", "cond-mat/0607501", "1412.6529"]
    assert [(d.span.line, d.severity) for d in diagnostics] == [(2, "error"), (4, "error")]
    assert "no arXiv 'id'" in diagnostics[1].message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"authors_parsed": "Smith, J."}, "authors_parsed"),
        ({"authors_parsed": [[]]}, "authors_parsed"),
        ({"versions": [{"version": "first"}]}, "bad version"),
        ({"versions": "v1"}, "versions"),
    ],
)
def test_malformed_objects_are_read_errors(change: dict[str, object], message: str) -> None:
    line = json.dumps(json.loads(LINES[0]) | change)
    with pytest.raises(ReadError, match=message) as info:
        list(records_from_snapshot([line]))
    assert info.value.record_id == "1111.2011"


def _to_csl(lines: list[str]) -> list[dict[str, object]]:
    return [r.to_csl() for r in records_from_snapshot(lines)]


def test_runs_as_a_map_over_partitions_on_a_local_dask_cluster() -> None:
    bag = dask.bag.read_text(str(SAMPLE), blocksize=8000)
    assert bag.npartitions > 1
    items = bag.map_partitions(_to_csl).compute(scheduler="processes", num_workers=2)
    assert items == [r.to_csl() for r in bibconv.read(SAMPLE)]


def test_an_id_that_is_no_arxiv_id_gives_no_arxiv_link_doi_or_eprint() -> None:
    """The id is the record's, and what only arXiv's ids make (``10.48550/arXiv.…``, ``abs/…``,
    ``eprint``) is not made of it: such a DOI would name nothing."""
    line = json.dumps(
        {
            "id": "abc",
            "title": "T",
            "categories": "hep-th",
            "comments": "5 pages",
            "journal-ref": "Phys. Rev. D 1 (2000) 1",
            "authors_parsed": [["Lee", "Ann", ""]],
        }
    )
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.read(line.encode(), "arxiv-jsonl", strict=False, diagnostics=diagnostics)
    got = [(r.id, r.arxiv, r.fields.get("container-title")) for r in records]
    assert got == [("abc", None, "Phys. Rev. D")]
    assert records[0].extra["arxiv:comments"] == "5 pages"
    assert [d.message for d in diagnostics] == [
        "'abc' is not an arXiv identifier: kept as the record's id, no arXiv link made of it"
    ]
    for writer in ("bibtex", "biblatex", "csljson", "ris"):
        text = bibconv.write(records, writer)
        assert not [made for made in ("10.48550", "arxiv.org", "eprint") if made in text], writer
