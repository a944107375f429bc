"""The RIS reader on real exports: goldens, leniency, reports, dates, arXiv, streaming."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
import rispy

import bibconv
from bibconv.errors import Diagnostic, ParseError
from bibconv.formats.ris import RisReader
from bibconv.formats.ris.table import CSL_TO_TY, TY_TO_CSL, parse_date
from bibconv.model import Date, Name
from bibconv.textio import decode_head
from tests.golden import check_golden, golden, need, sample, samples

INPUTS = samples("ris", "")
NOT_RIS = {
    "jabref_Endnote.entries.enw": "EndNote tagged",
    "rispy_example_wos_isi_tagged.txt": "Web of Science",
}
RIS_INPUTS = [p for p in INPUTS if p.name not in NOT_RIS]


def case(path: Path) -> str:
    return path.name.rsplit(".", 1)[0]


def read(text: str | bytes, **options: object) -> tuple[list[bibconv.Record], list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(text, "ris", strict=False, diagnostics=diagnostics, **options)
    return records, diagnostics


def messages(diagnostics: list[Diagnostic]) -> list[tuple[int | None, str]]:
    return [(d.span.line if d.span else None, d.message) for d in diagnostics]


@pytest.mark.parametrize("path", INPUTS, ids=case)
def test_fixture_matches_goldens(path: Path, update_golden: bool) -> None:
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(
        path.read_bytes(), "ris", strict=False, diagnostics=diagnostics, filename=path.name
    )
    report = "".join(f"{d}\n" for d in diagnostics)
    check_golden(golden(path, "read", ".warnings.txt"), report, update_golden)
    if path.name in NOT_RIS:
        assert records == []
        return
    assert records, "every RIS sample holds at least one record"
    check_golden(golden(path, "read", ".csl.json"), bibconv.write(records, "csljson"), update_golden)


@pytest.mark.parametrize("path", RIS_INPUTS, ids=case)
def test_every_ty_line_gives_a_record_and_sniffing_finds_ris(path: Path) -> None:
    raw = path.read_bytes()
    records, _ = read(raw)
    ty_lines = sum(
        1 for line in raw.decode("utf-8-sig").splitlines() if line.lstrip("\ufeff ").startswith("TY ")
    )
    assert len(records) == max(ty_lines, 1)  # RisImporterCorrupted has no TY: read as one generic record
    assert RisReader.sniff(decode_head(raw[:4096])) >= 0.6


@pytest.mark.parametrize("path", [sample(f"ris/{name}") for name in NOT_RIS], ids=case)
def test_other_tagged_formats_are_refused_clearly(path: Path) -> None:
    with pytest.raises(ParseError) as caught:
        bibconv.read(path, "ris")
    assert NOT_RIS[path.name] in caught.value.message
    assert "not RIS" in caught.value.message
    assert caught.value.span.line == 1
    assert RisReader.sniff(decode_head(path.read_bytes()[:4096])) == 0.0
    records, diagnostics = read(path.read_bytes())
    assert records == []
    assert [d.severity for d in diagnostics] == ["error"]


def test_text_without_any_record_is_an_error() -> None:
    with pytest.raises(ParseError, match="no RIS record found"):
        bibconv.read("just some notes\nabout references\n", "ris")
    assert bibconv.read("", "ris") == []
    assert bibconv.read("\r\n\r\n", "ris") == []


# --- records rispy loses ------------------------------------------------------------------


def test_bom_prefixed_first_record_is_kept_where_rispy_drops_it() -> None:
    raw = need("ris/rispy_example_bom.ris").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert rispy.loads(raw.decode("utf-8")) == []
    records, diagnostics = read(raw)
    assert [r.fields["DOI"] for r in records] == ["10.1186/s40981-020-0316-0"]
    assert diagnostics == []


def test_last_record_without_er_is_kept_and_reported_where_rispy_drops_it() -> None:
    text = "TY  - JOUR\r\nTI  - First\r\nER  - \r\n\r\nTY  - BOOK\r\nTI  - Second\r\nPY  - 2001\r\n"
    assert [r["title"] for r in rispy.loads(text)] == ["First"]
    records, diagnostics = read(text)
    assert [(r.type, r.title) for r in records] == [("article-journal", "First"), ("book", "Second")]
    assert messages(diagnostics) == [
        (5, "the last record has no ER line (the file may be truncated); record kept")
    ]
    assert records[1].origin is not None
    assert records[1].origin.line == 5


def test_byte_order_marks_of_concatenated_files_are_ignored() -> None:
    text = "\ufeffTY  - JOUR\nTI  - A\nER  - \n\ufeffTY  - JOUR\nTI  - B\nER  - \n"
    records, diagnostics = read(text.encode("utf-8"))
    assert [r.title for r in records] == ["A", "B"]
    assert diagnostics == []


# --- leniency, each oddity reported with its line ------------------------------------------


@pytest.mark.parametrize("newline", ["\r\n", "\n", "\r"], ids=["crlf", "lf", "cr"])
def test_line_endings(newline: str) -> None:
    text = newline.join(
        ["TY  - JOUR", "AU  - Doe, Jane", "TI  - T", "ER  -", "", "TY  - BOOK", "TI  - U", "ER  - "]
    )
    records, diagnostics = read(text.encode("utf-8"))
    assert [(r.type, r.title) for r in records] == [("article-journal", "T"), ("book", "U")]
    assert records[0].authors == (Name(family="Doe", given="Jane"),)
    assert diagnostics == []


def test_odd_spacing_stray_text_and_er_forms_are_reported_with_line_numbers() -> None:
    text = (
        "Record #1 of 2\n"  # 1
        "1.\n"  # 2
        "TY -  BOOK\n"  # 3
        "TI  - Title\n"  # 4
        "ER\n"  # 5
        "\n"  # 6
        "ER  - \n"  # 7
        "TY  - JOUR\n"  # 8
        "TI  - Other\n"  # 9
        "ER  - trailing\n"  # 10
    )
    records, diagnostics = read(text)
    assert [(r.type, r.title) for r in records] == [("book", "Title"), ("article-journal", "Other")]
    assert messages(diagnostics) == [
        (1, "text between records skipped: 'Record #1 of 2'"),
        (2, "record counter between records skipped: '1.'"),
        (3, "malformed tag line 'TY -  BOOK' read as TY (expected 'TY  - value')"),
        (5, "malformed tag line 'ER' read as ER (expected 'ER  - value')"),
        (7, "ER outside a record ignored"),
        (10, "text after ER ignored: 'trailing'"),
    ]


def test_a_new_ty_ends_an_unfinished_record() -> None:
    records, diagnostics = read("TY  - JOUR\nTI  - A\nTY  - BOOK\nTI  - B\nER  - \n")
    assert [(r.type, r.title) for r in records] == [("article-journal", "A"), ("book", "B")]
    assert messages(diagnostics) == [(1, "record has no ER line; it ends where the TY of line 3 starts")]


def test_tags_before_any_ty_start_a_generic_record() -> None:
    raw = need("ris/jabref_RisImporterCorrupted.ris").read_bytes()
    records, diagnostics = read(raw)
    assert len(records) == 1
    assert records[0].type == "document"
    assert records[0].fields["container-title"] == "Empirical Software Engineering"
    assert messages(diagnostics) == [(2, "record starts without a TY line (at JF); read as a generic record")]


def test_wrapped_lines_continue_the_value_above() -> None:
    text = (
        "TY  - JOUR\n"
        "TI  - A title wrapped\n"
        "   over two lines\n"
        "AB  - First paragraph\n"
        "Second line\n"
        "\n"
        "After a blank line\n"
        "KW  - one\n"
        "two\n"
        "ER  - \n"
    )
    records, diagnostics = read(text)
    record = records[0]
    assert record.title == "A title wrapped over two lines"
    assert record.fields["abstract"] == "First paragraph\nSecond line\nAfter a blank line"
    assert record.keywords == ("one", "two")
    assert messages(diagnostics) == [
        (3, "line continues the TI value above (wrapped line): 'over two lines'"),
        (9, "line continues the KW line above; read as another KW value"),
    ]


def test_text_after_a_blank_line_does_not_join_a_short_value() -> None:
    records, diagnostics = read("TY  - JOUR\nVL  - 3\n\nProvider: somebody\nER  - \n")
    assert records[0].fields["volume"] == "3"
    assert messages(diagnostics) == [(4, "text inside a record skipped: 'Provider: somebody'")]


def test_multiline_sample_keeps_er_text_inside_values() -> None:
    records, _ = read(need("ris/rispy_example_multiline.ris").read_bytes())
    assert len(records) == 3
    for record in records:
        assert "ER then second line" in record.fields["abstract"]
        assert record.fields["note"] == "first line\n* second line\n* last line"


# --- tags ----------------------------------------------------------------------------------


def test_repeated_single_value_tags_keep_every_value_and_say_where() -> None:
    records, diagnostics = read(need("ris/rispy_example_custom_list_tags.ris").read_bytes())
    record = records[0]
    assert record.fields["ISSN"] == "12345"
    assert record.extra["ris:SN"] == ["ABCDEFG", "666666"]
    assert messages(diagnostics)[1:] == [
        (6, "SN 'ABCDEFG': ISSN is already set; value kept as ris:SN"),
        (7, "SN '666666': ISSN is already set; value kept as ris:SN"),
    ]


def test_synonyms_merge_when_equal_and_fall_back_when_not() -> None:
    records, diagnostics = read(need("ris/jabref_RisImporterTestDate1.1.ris").read_bytes())
    record = records[0]
    assert record.fields["container-title"] == "The Journal of Chemical Physics"  # T2 = JF
    assert record.fields["container-title-short"] == "J. Chem. Phys."  # JO, a second journal name
    assert record.dates["issued"] == Date(parts=((2005, 7, 15),))  # Y1 + PY + DA agree
    assert record.dates["accessed"] == Date(parts=((2019, 3, 28),))
    assert [n.family for n in record.authors][:2] == ["Valle-Delgado", "Molina-Bolívar"]
    assert diagnostics == []


def test_unknown_tags_are_kept_in_order_and_reported() -> None:
    text = "TY  - JOUR\nJP  - CRISPR\nZZ  - a\nC1  - custom\nZZ  - b\nER  - \n"
    records, diagnostics = read(text)
    assert list(records[0].extra.items()) == [
        ("ris:JP", "CRISPR"),
        ("ris:ZZ", ["a", "b"]),
        ("ris:C1", "custom"),
    ]
    assert messages(diagnostics) == [
        (2, "unknown tag JP kept as ris:JP"),
        (3, "unknown tag ZZ kept as ris:ZZ"),
        (5, "unknown tag ZZ kept as ris:ZZ"),
    ]


def test_identifiers_pages_and_urls() -> None:
    text = (
        "TY  - CHAP\nDO  - doi:10.1201/b19107-2\nSP  - 1-22\nEP  - 30\nSN  - 978-1-4822-5326-9\n"
        "UR  - http://a.example/x; http://b.example/y\nUR  - http://c.example/?a=1&b=2\nER  - \n"
    )
    record = read(text)[0][0]
    assert record.type == "chapter"
    assert record.fields["DOI"] == "10.1201/b19107-2"
    assert record.fields["page"] == "1-22"
    assert record.extra["ris:EP"] == "30"
    assert record.fields["ISBN"] == "978-1-4822-5326-9"
    assert record.fields["URL"] == "http://a.example/x"
    assert record.extra["ris:UR"] == ["http://b.example/y", "http://c.example/?a=1&b=2"]


def test_text_is_stored_as_rich_text_identifiers_verbatim() -> None:
    record = read("TY  - BOOK\nTI  - R&D <notes>\nUR  - http://x.example/?a=1&b=2\nER  - \n")[0][0]
    assert record.title == "R&amp;D &lt;notes&gt;"
    assert record.fields["URL"] == "http://x.example/?a=1&b=2"


@pytest.mark.parametrize(
    ("ty", "csl", "kept"),
    [
        ("JOUR", "article-journal", None),
        ("JOUR ", "article-journal", None),
        ("EJOUR", "article-journal", "EJOUR"),
        ("CPAPER", "paper-conference", "CPAPER"),
        ("UNPB", "article", None),
        ("WEB", "webpage", "WEB"),
        ("Journal Article", "article-journal", None),
        ("OTHER", "document", "OTHER"),
    ],
)
def test_types(ty: str, csl: str, kept: str | None) -> None:
    record = read(f"TY  - {ty}\nTI  - T\nER  - \n")[0][0]
    assert record.type == csl
    assert record.extra.get("ris:TY") == kept


def test_type_maps_cover_every_type_both_ways() -> None:
    from bibconv import csl

    assert set(CSL_TO_TY) == set(csl.TYPES)
    assert set(TY_TO_CSL.values()) <= set(csl.TYPES)
    assert all(ty in TY_TO_CSL for ty in CSL_TO_TY.values())
    for ty in rispy.TYPE_OF_REFERENCE_MAPPING:
        assert ty in TY_TO_CSL, ty
    lossy = {c for c, ty in CSL_TO_TY.items() if TY_TO_CSL[ty] != c}
    assert lossy == {"event", "interview", "performance", "treaty", "review", "review-book"}


# --- dates ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "parts", "season", "info", "literal"),
    [
        ("2014", ((2014,),), None, None, None),
        ("2014//", ((2014,),), None, None, None),
        ("2001///", ((2001,),), None, None, None),
        ("1948/07//", ((1948, 7),), None, None, None),
        ("2001/09/01/", ((2001, 9, 1),), None, None, None),
        ("2018/4/25", ((2018, 4, 25),), None, None, None),
        ("2001/00/00/", ((2001,),), None, None, None),
        ("1998///Spring", ((1998,),), "Spring", None, None),
        ("2013/02/15/received", ((2013, 2, 15),), None, "received", None),
        ("2015/october", ((2015, 10),), None, None, None),
        ("2019-05-24", ((2019, 5, 24),), None, None, None),
        ("2019-05", ((2019, 5),), None, None, None),
        ("///Spring term", (), None, None, "Spring term"),
        ("99", (), None, None, "99"),
        ("YEAR/MONTH/DAY/", (), None, None, "YEAR/MONTH/DAY/"),
        ("2001/13/01/", (), None, None, "2001/13/01/"),
        ("/05/", (), None, None, "/05/"),
    ],
)
def test_date_forms(
    value: str, parts: tuple[tuple[int, ...], ...], season: str | None, info: str | None, literal: str | None
) -> None:
    date, other = parse_date(value)
    assert (date.parts, date.season, other, date.literal) == (parts, season, info, literal)


def test_dates_merge_report_and_keep_other_info() -> None:
    records, diagnostics = read(need("ris/jabref_RisImporterTest6.ris").read_bytes())
    record = records[0]
    assert record.dates["issued"] == Date(parts=((2013, 4, 18),))
    assert record.extra["ris:PY"] == ["2013/02/15/received", "2013/03/14/accepted"]
    assert [line for line, _ in messages(diagnostics)] == [8, 9]
    info = read("TY  - JOUR\nPY  - 2013\nDA  - 2013/02/15/received\nER  - \n")[0][0]
    assert info.dates["issued"] == Date(parts=((2013, 2, 15),))
    assert info.extra["ris:date-info"] == {"issued": "received"}


def test_unreadable_dates_become_literals_never_guesses() -> None:
    records, diagnostics = read("TY  - JOUR\nPY  - 99\nER  - \n")
    assert records[0].dates["issued"] == Date(literal="99")
    assert messages(diagnostics) == [(2, "PY '99' is not a date bibconv can read; kept as text")]


def test_full_date_wins_over_old_y1_and_the_other_is_kept() -> None:
    records, diagnostics = read(need("ris/jabref_RisImporterTestWithEmptyER.ris").read_bytes())
    assert records[0].dates["issued"] == Date(parts=((2013, 7, 28),))
    assert records[0].extra["ris:Y1"] == "2013/07/22"
    assert messages(diagnostics) == [(10, "Y1 '2013/07/22': issued is already set; value kept as ris:Y1")]


# --- arXiv ---------------------------------------------------------------------------------

ZOTERO_PREPRINT = (  # what Zotero's RIS export writes for a preprint (docs/decisions.md#ris-for-preprints)
    "TY  - GEN\r\nTI  - BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding\r\n"
    "AU  - Devlin, Jacob\r\nAU  - Chang, Ming-Wei\r\nAB  - We introduce BERT.\r\nDA  - 2019/05/24/\r\n"
    "PY  - 2019\r\nDO  - 10.48550/arXiv.1810.04805\r\nDP  - arXiv.org\r\nPB  - arXiv\r\nST  - BERT\r\n"
    "UR  - http://arxiv.org/abs/1810.04805\r\nY2  - 2024/01/02/\r\nN1  - Comment: 13 pages\r\n"
    "KW  - Computer Science - Computation and Language\r\nER  - \r\n\r\n"
)


def test_zotero_preprint_export_reads_as_an_arxiv_article() -> None:
    records, diagnostics = read(ZOTERO_PREPRINT)
    record = records[0]
    assert diagnostics == []
    assert record.type == "article"
    assert record.extra["ris:TY"] == "GEN"
    assert record.arxiv is not None
    assert (record.arxiv.id, record.arxiv.version, record.arxiv.comment) == ("1810.04805", None, "13 pages")
    assert "DOI" not in record.fields
    assert record.fields["URL"] == "http://arxiv.org/abs/1810.04805"  # as given, not rewritten
    assert "publisher" not in record.fields
    assert record.fields["source"] == "arXiv.org"
    assert "note" not in record.fields


def test_bibconv_arxiv_notes_rebuild_the_whole_block() -> None:
    text = (
        "TY  - UNPB\nTI  - T\nDB  - arXiv\nAN  - arXiv:2101.00001v2\nN1  - A note of my own\n"
        "N1  - arXiv:2101.00001v2 [cs.LG]\nN1  - arXiv categories: cs.LG stat.ML\n"
        "N1  - arXiv submitted: 2021-01-01\nN1  - arXiv updated: 2021-02-03\n"
        "N1  - arXiv comment: 13 pages\nN1  - arXiv journal reference: Phys. Rev. D 1 (2021) 2\nER  - \n"
    )
    record = read(text)[0][0]
    arxiv = record.arxiv
    assert arxiv is not None
    assert (arxiv.id, arxiv.version, arxiv.primary_class, arxiv.categories) == (
        "2101.00001",
        2,
        "cs.LG",
        ("cs.LG", "stat.ML"),
    )
    assert (arxiv.submitted, arxiv.updated) == (Date(parts=((2021, 1, 1),)), Date(parts=((2021, 2, 3),)))
    assert (arxiv.comment, arxiv.journal_ref) == ("13 pages", "Phys. Rev. D 1 (2021) 2")
    assert record.type == "article"
    assert record.fields == {
        "title": "T",
        "source": "arXiv",  # other programs' AN/DB pair is kept as written (DB: the database)
        "archive_location": "arXiv:2101.00001v2",
        "note": "A note of my own",
    }


def test_published_paper_with_arxiv_doi_keeps_its_type_and_journal_doi() -> None:
    text = "TY  - JOUR\nT2  - Phys. Rev. D\nDO  - 10.1103/PhysRevD.1.2\nN1  - arXiv:hep-th/9901001\nER  - \n"
    record = read(text)[0][0]
    assert record.type == "article-journal"
    assert record.fields["DOI"] == "10.1103/PhysRevD.1.2"
    assert record.arxiv is not None
    assert record.arxiv.id == "hep-th/9901001"


# --- streaming ------------------------------------------------------------------------------


class _Generated(io.RawIOBase):
    """A large RIS file produced on the fly (never held in memory)."""

    def __init__(self, count: int) -> None:
        self._records: Iterator[bytes] = (
            (
                f"TY  - JOUR\r\nTI  - Title number {n}\r\nAU  - Doe, Jane\r\nPY  - 2001\r\n"
                f"AB  - {'word ' * 80}\r\nKW  - k{n}\r\nER  - \r\n\r\n"
            ).encode()
            for n in range(count)
        )
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._pending:
            chunk = next(self._records, None)
            if chunk is None:
                return 0
            self._pending = chunk
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def _peak(count: int) -> tuple[int, int]:
    tracemalloc.start()
    seen = 0
    for record in bibconv.iter_records(io.BufferedReader(_Generated(count)), "ris"):
        seen += record.title is not None
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seen, peak


def test_memory_stays_flat_while_streaming() -> None:
    small_count, small_peak = _peak(500)
    large_count, large_peak = _peak(5000)
    assert (small_count, large_count) == (500, 5000)
    assert large_peak < small_peak * 1.5 + 200_000


def test_invalid_bytes_are_reported_with_line_and_column() -> None:
    data = "TY  - JOUR\nAU  - Gödel, K\nTI  - caf\udce9\nER  - \n".encode("utf-8", "surrogateescape")
    with pytest.raises(ParseError) as caught:  # a UTF-8 file (its other letters are) with a bad byte
        bibconv.read(data, "ris")
    assert (caught.value.span.line, caught.value.span.column) == (3, 10)


def test_a_file_in_a_single_byte_encoding_is_read_as_windows_1252() -> None:
    reports: list[Diagnostic] = []
    (record,) = bibconv.read(b"TY  - JOUR\nTI  - caf\xe9\nER  - \n", "ris", diagnostics=reports)
    assert record.title == "café"
    assert [(d.severity, d.span and (d.span.line, d.span.column)) for d in reports] == [("warning", (2, 10))]
