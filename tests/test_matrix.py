"""The conversion matrix: every reader's representative samples through every writer, compared
exactly with reviewed goldens in ``fixtures/matrix/<reader>/<case>.<ext>``.

Each case also checks the projection on real records (reading a writer's output back gives
:func:`bibconv.projection.project` of what was read) and keeps the writers' reports of what they
could not hold in ``<case>.warnings.txt``. ``pytest --update-golden`` rewrites the goldens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bibconv
from bibconv.errors import Diagnostic
from bibconv.model import Record
from bibconv.projection import project
from tests.golden import FIXTURES, check_golden, need

MATRIX = FIXTURES / "matrix"
WRITERS = {"bibtex": ".bib", "biblatex": ".biblatex", "csljson": ".csl.json", "ris": ".ris"}
"""Writer → extension of its golden."""

_CREATORS = (
    "bbt_export_Export_of_creator-type_fields_from_embedded_CSL_variables_365_uppercase_DOI_825.csl.json"
)
# reader → (case, input fixture): arXiv preprints, published papers, particles, TeX, odd dates.
CASES: dict[str, list[tuple[str, str]]] = {
    "csljson": [
        ("dates", "csljson/bbt_export_Date_export_to_Better_CSL-JSON_360_811.csl.json"),
        ("published", "csljson/bbt_export_Pandoc-LaTeX-SCHOMD_Citation_Export.csl.json"),
        ("creators", "csljson/" + _CREATORS),
    ],
    "bibtex": [
        ("arxiv", "bibtex/bibconv_arxiv_spellings.bib"),
        ("particles", "bibtex/bbt_export_Do_not_caps-protect_name_fields_384_565_566.bibtex"),
        ("published", "bibtex/papis_NBER_w29971.bib"),
    ],
    "biblatex": [
        ("tex", "bibtex/bbt_export_markup_small-caps_superscript_italics_301.biblatex"),
        ("french-notes", "bibtex/bbt_export_Unexpected_HTML_tags_abort_export_1575.biblatex"),
    ],
    "ris": [
        ("full", "ris/rispy_example_full.ris"),
        ("dates", "ris/jabref_RisImporterTestDate1.1.ris"),
        ("published", "ris/commonmeta_crossref.ris"),
    ],
    "atom": [
        ("published", "atom/arxivpy2016_id_list_1111.2011v2.xml"),
        ("old-id-affiliations", "atom/arxivpy2026_id_astro-ph_0601001.xml"),
        ("announcements", "atom/bibconv_announce_atom_2026-08-18_cs.CL.xml"),
    ],
    "html": [
        ("arxiv-abs", "html/arxiv-abs/tkukurin_arxiv_abs_2106.09608v2_2021.html"),
        ("arxiv-list", "html/arxiv-list/polaris_cs.AI_new_2026-08-12_trimmed.html"),
        ("publisher", "html/other/papis_APS_RevModPhys.94.045004.html"),
    ],
    "text": [
        ("seed-listing", "text/seed-listing.txt"),
        ("numbered", "text/numbered_en.txt"),
        ("dashes-de", "text/dashes_de.txt"),
    ],
    "arxiv-jsonl": [
        ("snapshot", "arxiv-jsonl/sample.jsonl"),
    ],
}
PAIRS = [(reader, case, source) for reader, cases in CASES.items() for case, source in cases]


def pair_id(pair: tuple[str, str, str]) -> str:
    return f"{pair[0]}/{pair[1]}"


def read_case(reader: str, source: str) -> list[Record]:
    """The records of a case's input (strict: the representative samples read without errors)."""
    return bibconv.read(need(source), reader)


def written(case: str, ext: str) -> Path:
    """A matrix output of ``case`` (``reader/case``): its golden, or the shared input itself where the
    writer gives it back byte for byte as read (such an output has no golden of its own)."""
    golden = MATRIX / f"{case}{ext}"
    if golden.exists():
        return golden
    return need(next(source for reader, name, source in PAIRS if f"{reader}/{name}" == case))


def output_path(reader: str, case: str, writer: str) -> Path:
    return MATRIX / reader / f"{case}{WRITERS[writer]}"


def matrix_outputs() -> list[tuple[str, str, str, Path]]:
    """Every golden of the matrix: ``(reader, case, writer, path)``."""
    return [
        (reader, case, writer, output_path(reader, case, writer))
        for reader, case, _ in PAIRS
        for writer in WRITERS
    ]


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_every_writer_output_matches_its_golden(pair: tuple[str, str, str], update_golden: bool) -> None:
    reader, case, source = pair
    records = read_case(reader, source)
    assert records, f"{source} holds no records"
    report = []
    as_read = need(source).read_bytes().decode("utf-8", errors="replace")
    for writer in WRITERS:
        diagnostics: list[Diagnostic] = []
        text = bibconv.write(records, writer, diagnostics=diagnostics)
        assert text is not None
        golden = output_path(reader, case, writer)
        if text == as_read:  # written back byte for byte as read: the shared input is its own golden
            if update_golden:
                golden.unlink(missing_ok=True)
            assert not golden.exists(), f"{golden} is a copy of its input: delete it"
        else:
            check_golden(golden, text, update_golden)
        report += [f"{writer}: {d.record_id or '-'}: {d.message}\n" for d in diagnostics]
    check_golden(MATRIX / reader / f"{case}.warnings.txt", "".join(report), update_golden)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_reading_each_output_back_gives_the_projection(pair: tuple[str, str, str]) -> None:
    reader, _, source = pair
    records = read_case(reader, source)
    for writer in WRITERS:
        text = bibconv.write(records, writer)
        assert text is not None
        back = [r.replace(origin=None) for r in bibconv.read(text, writer)]
        keyed = _with_written_keys(records, back, writer)
        assert back == [project(r, writer) for r in keyed], writer


def _with_written_keys(records: list[Record], back: list[Record], writer: str) -> list[Record]:
    """The records with the keys the writer gave them (made when missing, renamed when repeated)."""
    if writer == "ris":
        return records
    return [r.replace(id=b.id) if b.id and b.id != r.id else r for r, b in zip(records, back, strict=True)]


def test_arxiv_block_and_affiliations_survive_bibtex_and_csljson() -> None:
    """The losses the BibTeX writers used to have: the arXiv block and affiliations, on real records."""
    records = read_case("atom", "atom/arxivpy2026_id_astro-ph_0601001.xml")
    assert any(n.affiliation for r in records for n in r.authors)
    for writer in ("bibtex", "biblatex"):
        back = bibconv.read(bibconv.write(records, writer) or "", writer)
        through = bibconv.read(bibconv.write(back, "csljson") or "", "csljson")
        for original, again in zip(records, through, strict=True):
            assert again.arxiv == original.arxiv
            assert [n.affiliation for n in again.authors] == [n.affiliation for n in original.authors]
            assert again.fields["abstract"] == original.fields["abstract"]


def test_every_reader_and_writer_is_in_the_matrix() -> None:
    from bibconv.registry import formats

    known = formats()
    assert set(CASES) == {name for name, info in known.items() if info.reader is not None}
    assert set(WRITERS) == {name for name, info in known.items() if info.writer is not None}
    assert all(len(cases) >= 2 for reader, cases in CASES.items() if reader != "arxiv-jsonl")
