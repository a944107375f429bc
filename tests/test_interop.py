"""pybtex and bibtexparser objects: the same data their own parsers make of bibconv's BibTeX, and
records → object → records on the real samples.

Projections (what each library cannot hold): pybtex keeps no ``@comment`` blocks, one preamble
for the whole file (it comes back on the first record), no empty name list (``editor = {}``), and
cannot tell a family-only name in braces (``{Ben Arous},``) from an organisation
(``{World Health Organization}``); bibtexparser keeps all the BibTeX text holds. Both hold exactly
the fields the BibTeX writer writes, so the round trips equal the BibTeX text round trip
(records → ``bibconv.write`` → ``bibconv.read``).
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.library import Library
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
from bibtexparser.model import Entry, Field
from pybtex.database import parse_string as pybtex_parse
from pybtex.textutils import normalize_whitespace

import bibconv
from bibconv.formats.bibtex.table import entry_type
from bibconv.model import Name, Record
from tests.golden import FIXTURES, need, sample, samples

BROKEN = FIXTURES / "bibtex" / "invalid" / "bibconv_broken.bib"
BIB_SAMPLES = samples("bibtex", ".bib", ".bibtex", ".biblatex")
OTHER_SAMPLES = [
    sample("text/seed-listing.txt"),
    sample("atom/arxivpy2026_id_list_0808.05394_1707.08567.xml"),
    sample("atom/bibconv_announce_atom_2026-08-18_cs.CL.xml"),
    sample("ris/jabref_RisImporterTest1.ris"),
    sample("csljson/bbt_export_Deterministic_ordering_for_CSL_1178_1400.csl.json"),
    sample("csljson/commonmeta_csl-list.json"),
    sample("arxiv-jsonl/sample.jsonl"),
]
SAMPLES = BIB_SAMPLES + OTHER_SAMPLES
# bibtexparser's splitter reads these differently from BibTeX: it fails on blocks that BibTeX reads
# (escaped braces, keyless or broken entries) or cuts a value at ``\{`` inside math; the reader has
# its own rules for them (see bibconv.formats.bibtex), so ``parse_file`` output is not the same input.
SPLITTER_DIFFERS = {
    "bbt_export_Unbalanced_vphantom_escapes_1043.bibtex",
    "bbt_import_Endnote_should_parse.bib",
    "bbt_import_Import_error_with_character_in_BibTeX_field_name_2660.bib",
    "bbt_import_Some_bibtex_entries_quietly_discarded_on_import_from_bib_file_873.bib",
    "bbt_import_Title_of_German_entry_converted_to_lowercase_during_import_1350.bib",
    "bibconv_broken.bib",
    "bibtexparser_biber-examples.bib",
    "pubs_crossref_doi_10.1086_307221.bib",
}


@functools.cache
def _read_once(path: Path) -> tuple[Record, ...]:
    return tuple(bibconv.read(path, strict=False))


def _read(path: Path) -> list[Record]:
    return list(_read_once(path))


def _bibtex_round_trip(records: list[Record], dialect: str = "bibtex") -> list[Record]:
    """The records through the writer as the interop functions use it (entries from their fields)."""
    return bibconv.read(bibconv.write(records, dialect, normalize=True, ascii=False) or "", "bibtex")


def _pybtex_projection(records: list[Record]) -> list[Record]:
    """What pybtex holds: no @comment/@preamble blocks on the records, no empty name lists."""
    return [
        r.replace(
            extra={k: v for k, v in r.extra.items() if k not in ("bibtex:before", "bibtex:after")},
            names={k: v for k, v in r.names.items() if v},
        )
        for r in records
    ]


def _fields(entry: object) -> dict[str, str]:
    """pybtex's parser collapses white space (U+202F, double spaces); to_pybtex keeps it as it is."""
    return {k.lower(): normalize_whitespace(v) for k, v in entry.fields.items()}  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_to_pybtex_holds_what_pybtex_parses_from_the_bibtex(path: Path) -> None:
    records = _read(path)
    data = bibconv.to_pybtex(records)
    parsed = pybtex_parse(bibconv.write(records, "bibtex", normalize=True, ascii=False), "bibtex")
    assert list(data.entries) == list(parsed.entries)
    for key, entry in parsed.entries.items():
        mine = data.entries[key]
        assert mine.type == entry.type
        assert _fields(mine) == _fields(entry), key
        assert dict(mine.persons) == dict(entry.persons), key  # Person == compares all five parts
    assert [normalize_whitespace(p) for p in data.preamble_list] == parsed.preamble_list


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_records_to_pybtex_to_records(path: Path) -> None:
    records = _read(path)
    expected = _bibtex_round_trip(records)
    back = bibconv.from_pybtex(bibconv.to_pybtex(records))
    assert _pybtex_projection(back) == _pybtex_projection(expected)
    preambles = [
        b for r in expected for b in r.extra.get("bibtex:before", []) if b.lower().startswith("@pre")
    ]
    if preambles:  # they come back, as one block each, on the first record
        assert len(back[0].extra["bibtex:before"]) == len(preambles)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_records_to_bibtexparser_to_records(path: Path) -> None:
    records = _read(path)
    # every sample in BibTeX; in biblatex too where the sample is biblatex or not BibTeX at all
    dialects = ("bibtex", "biblatex") if path.suffix != ".bib" or "biblatex" in path.name else ("bibtex",)
    for dialect in dialects:
        library = bibconv.to_bibtexparser(records, dialect=dialect)
        assert not library.failed_blocks
        assert bibconv.from_bibtexparser(library) == _bibtex_round_trip(records, dialect), dialect


def test_a_library_bibtexparser_writes_reads_back_the_same() -> None:
    records = _read(need("bibtex/xampl.bib")) + _read(need("text/seed-listing.txt"))
    library = bibconv.to_bibtexparser(records)
    text = bibtexparser.write_string(library)
    assert "month = apr" in text  # the macro stays a macro

    # bibtexparser's writer lays out @preamble blocks its own way and writes entry types in lower
    # case (@ARTICLE → @article); everything else reads back the same
    def written(records: list[Record]) -> list[Record]:
        out = []
        for r in _pybtex_projection(records):
            extra = {k: v.lower() if k == "bibtex:entrytype" else v for k, v in r.extra.items()}
            if extra.get("bibtex:entrytype") in (
                entry_type(r.type, "bibtex"),
                entry_type(r.type, "biblatex"),
            ):
                del extra["bibtex:entrytype"]
            out.append(r.replace(extra=extra))
        return out

    assert written(bibconv.read(text, "bibtex")) == written(_bibtex_round_trip(records))


@pytest.mark.parametrize(
    "path", [p for p in BIB_SAMPLES if p.name not in SPLITTER_DIFFERS], ids=lambda p: p.name
)
def test_from_bibtexparser_reads_as_the_reader_does(path: Path) -> None:
    expected = _read(path)
    assert bibconv.from_bibtexparser(bibtexparser.parse_file(str(path))) == expected
    raw = bibtexparser.parse_file(str(path), parse_stack=[])  # values still delimited, macros unresolved
    assert bibconv.from_bibtexparser(raw) == expected


def test_from_bibtexparser_joins_split_names() -> None:
    path = need("bibtex/bbt_export_Do_not_caps-protect_name_fields_384_565_566.bibtex")
    stack = [SeparateCoAuthors(), SplitNameParts()]
    library = bibtexparser.parse_file(str(path), append_middleware=stack)
    assert isinstance(library.entries[0]["author"], list)
    assert bibconv.from_bibtexparser(library) == _read(path)


def test_from_bibtexparser_reports_blocks_it_could_not_parse() -> None:
    library = bibtexparser.parse_file(str(BROKEN))
    with pytest.raises(bibconv.ParseError) as caught:
        bibconv.from_bibtexparser(library)
    assert caught.value.span.line == 3
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.from_bibtexparser(library, strict=False, diagnostics=diagnostics)
    assert {"good1", "good3"} <= {r.id for r in records}
    assert ("error", 3) in [(d.severity, d.span.line if d.span else None) for d in diagnostics]


def test_a_library_built_by_hand() -> None:
    entry = Entry(
        "article",
        "k",
        [
            Field("author", r"Rodr{\'\i}guez, Pau and Gon\c{c}alves, Nuno"),
            Field("title", "{DNA} repair in {Monte Carlo} terms"),  # {DNA}: braces BibTeX output adds anyway
            Field("journal", "Nature"),
            Field("month", "jan", enclosing="no-enclosing"),
            Field("year", "2024"),
        ],
    )
    record = bibconv.from_bibtexparser(Library([entry]))[0]
    assert [a.family for a in record.authors] == ["Rodríguez", "Gonçalves"]
    assert record.title == 'DNA repair in <span class="nocase">Monte Carlo</span> terms'
    assert record.fields["container-title"] == "Nature"
    assert record.issued is not None
    assert record.issued.parts == ((2024, 1),)
    assert record.origin == bibconv.SourceSpan(index=0)


def test_persons_are_pybtex_parts() -> None:
    names = (
        Name(family="Waals", given="Johannes Diderik", non_dropping_particle="van der"),
        Name(family="King", given="Martin Luther", suffix="Jr."),
        Name(family="Rodríguez", given="Pau"),
        Name(literal="World Health Organization"),
        Name(literal="others"),
    )
    record = Record(type="article-journal", id="k", fields={"title": "T"}, names={"author": names})
    persons = bibconv.to_pybtex([record]).entries["k"].persons["author"]
    parts = [(p.first_names, p.middle_names, p.prelast_names, p.last_names, p.lineage_names) for p in persons]
    assert parts == [
        (["Johannes"], ["Diderik"], ["van", "der"], ["Waals"], []),
        (["Martin"], ["Luther"], [], ["King"], ["Jr."]),
        (["Pau"], [], [], ["Rodríguez"], []),
        ([], [], [], ["{World Health Organization}"], []),
        ([], [], [], ["others"], []),
    ]
    ascii_persons = bibconv.to_pybtex([record], ascii=True).entries["k"].persons["author"]
    assert ascii_persons[2].last_names == ["Rodr{\\'{i}}guez"]
    assert bibconv.from_pybtex(bibconv.to_pybtex([record]))[0].authors == names


def test_what_pybtex_cannot_hold() -> None:
    """A family-only name in braces and an organisation are the same pybtex person."""
    record = Record(type="book", id="k", fields={"title": "T"}, names={"author": (Name(family="Ben Arous"),)})
    person = bibconv.to_pybtex([record]).entries["k"].persons["author"][0]
    assert person.last_names == ["{Ben Arous}"]
    assert bibconv.from_pybtex(bibconv.to_pybtex([record]))[0].authors == (Name(literal="Ben Arous"),)
    assert bibconv.from_bibtexparser(bibconv.to_bibtexparser([record]))[0].authors == (
        Name(literal="Ben Arous"),  # written {Ben Arous}: "{Ben Arous}," is an error to bibtex
    )


def test_keys_equal_but_for_case_are_renamed_for_pybtex() -> None:
    records = [
        Record(type="book", id="Knuth84", fields={"title": "A"}),
        Record(type="book", id="knuth84", fields={"title": "B"}),
    ]
    diagnostics: list[bibconv.Diagnostic] = []
    data = bibconv.to_pybtex(records, diagnostics=diagnostics)
    assert list(data.entries) == ["Knuth84", "knuth84-2"]
    assert "letter case" in diagnostics[0].message


def test_a_suffix_without_given_names_survives_pybtex() -> None:
    """``str(Person)`` drops the empty First after a Jr part; the records keep the parts apart."""
    name = Name(family="M. Halle", suffix="J. Bresnan")
    record = Record(type="book", id="k", fields={"title": "T"}, names={"editor": (name,)})
    assert bibconv.from_pybtex(bibconv.to_pybtex([record]))[0].names["editor"] == (name,)


def test_import_bibconv_does_not_import_pybtex_or_bibtexparser() -> None:
    code = (
        "import sys, bibconv\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('pybtex', 'bibtexparser', 'latexcodec')]\n"
        "bibconv.to_pybtex([])\n"
        "assert 'pybtex' in sys.modules and 'bibtexparser' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=FIXTURES.parent)


_CROSSREF = """@book{whole-set, author = {Knuth, Donald E.}, title = {The Art of Computer Programming},
  publisher = {Addison-Wesley}, year = 1968}
@inbook{inbook-crossref, crossref = {whole-set}, title = {Fundamental Algorithms}, volume = 1,
  chapter = {1.2}, year = 1973}
"""


def test_a_crossref_child_holds_its_own_fields_as_pybtex_parses_it() -> None:
    """By default a child is what pybtex's parser makes of the ``.bib``: its own fields and ``crossref``."""
    records = bibconv.read(_CROSSREF, "bibtex")
    parsed = pybtex_parse(_CROSSREF, "bibtex").entries["inbook-crossref"]
    child = bibconv.to_pybtex(records).entries["inbook-crossref"]
    assert set(child.fields) == set(parsed.fields) == {"crossref", "title", "volume", "chapter", "year"}
    assert not child.persons
    library = bibconv.to_bibtexparser(records)
    assert "publisher" not in library.entries_dict["inbook-crossref"].fields_dict


def test_keep_inherited_gives_a_child_what_it_inherits() -> None:
    """For pybtex's Python styles, which read an entry alone: the parent's author and publisher too."""
    records = bibconv.read(_CROSSREF, "bibtex")
    child = bibconv.to_pybtex(records, keep_inherited=True).entries["inbook-crossref"]
    assert child.fields["publisher"] == "Addison-Wesley"
    assert child.fields["crossref"] == "whole-set"
    assert [str(p) for p in child.persons["author"]] == ["Knuth, Donald E."]
    library = bibconv.to_bibtexparser(records, keep_inherited=True)
    assert library.entries_dict["inbook-crossref"]["publisher"] == "Addison-Wesley"
    from pybtex.style.formatting.plain import Style

    data = bibconv.to_pybtex(records, keep_inherited=True)
    entry = next(e for e in Style().format_entries(data.entries.values()) if e.key == "inbook-crossref")
    assert "Addison-Wesley" in entry.text.render_as("text")
