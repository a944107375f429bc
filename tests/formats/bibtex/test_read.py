"""BibTeX/biblatex reading: every real sample, the canonical records of a representative set,
broken entries, macros, inheritance, arXiv in every spelling, streaming."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest

import bibconv
from bibconv import latex, textio
from bibconv.errors import Diagnostic, ParseError
from bibconv.formats.bibtex import syntax as bibtex_syntax
from bibconv.model import Arxiv, Date, Name
from bibconv.registry import detect_format, format_for_extension
from tests.golden import FIXTURES, cases, check_golden, golden, sample, samples

BROKEN = FIXTURES / "bibtex" / "invalid" / "bibconv_broken.bib"
SAMPLES = samples("bibtex", ".bib", ".bibtex", ".biblatex")
INVALID = {p.name for p in cases("bibtex", "invalid", ".errors.txt")}
"""Files whose syntax errors are real (BibTeX itself rejects these entries); their golden is the errors."""


def read(path: Path | str, **kwargs: object) -> tuple[list[bibconv.Record], list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(path, "bibtex", strict=False, diagnostics=diagnostics, **kwargs)
    return records, diagnostics


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_reads(path: Path, update_golden: bool) -> None:
    records, diagnostics = read(path)
    errors = "".join(f"{d}\n".replace(str(path), path.name) for d in diagnostics if d.severity == "error")
    if path.name in INVALID or (update_golden and errors):
        check_golden(golden(path, "invalid", ".errors.txt"), errors, update_golden)
    else:
        assert not errors, errors
    assert records, "no records"
    assert all(r.origin is not None and r.origin.line for r in records)
    assert format_for_extension(path.name) in ("bibtex", "biblatex")
    assert detect_format(head=path.read_text(encoding="utf-8-sig")[:4096]) == "bibtex"


@pytest.mark.parametrize("path", cases("bibtex", "read", ".csl.json"), ids=lambda p: p.name)
def test_canonical_records_golden(path: Path, update_golden: bool) -> None:
    records, _ = read(path)
    check_golden(golden(path, "read", ".csl.json"), bibconv.write(records, "csljson") or "", update_golden)


def test_broken_entries_reported_with_line_and_key_the_rest_come_through() -> None:
    records, diagnostics = read(BROKEN)
    assert [r.id for r in records] == ["good1", "good2", "good3"]
    errors = [str(d) for d in diagnostics if d.severity == "error"]
    assert errors[0].startswith(f"{BROKEN}:3: error: ")
    assert errors[0].endswith("(entry broken1)")
    assert errors[1].startswith(f"{BROKEN}:5: error: missing ',' or '#'")
    assert errors[1].endswith("(entry broken2)")
    with pytest.raises(ParseError) as caught:
        bibconv.read(BROKEN)
    assert caught.value.span.line == 3
    assert caught.value.record_id == "broken1"


def test_string_macros_concatenation_and_month_macros() -> None:
    text = """@string{ acm = "ACM" }
@STRING{conf = acm # " Symposium"}
@inproceedings{k, title = {T}, booktitle = conf # { on } # "Theory", month = "10~" # jan, year = 1983,
  note = acm # {} # 2}
@article{m, title = {T}, journal = {J}, month = sep, year = {2001}}
"""
    records, diagnostics = read(text)
    assert records[0].fields["container-title"] == "ACM Symposium on Theory"
    assert records[0].fields["note"] == "ACM2"
    assert records[0].issued == Date(parts=((1983, 1, 10),))
    assert records[1].issued == Date(parts=((2001, 9),))
    assert not diagnostics


def test_undefined_macro_is_reported_and_kept() -> None:
    records, diagnostics = read("@article{k, journal = jacm, title = {T}}\n")
    assert records[0].fields["container-title"] == "jacm"
    assert "undefined @string macro 'jacm'" in str(diagnostics[0])


def test_undefined_macro_joined_by_hash_is_empty_as_bibtex_reads_it() -> None:
    # citation-js: with-string-and-preamble
    records, diagnostics = read('@string{ foo = "bar" }\n@misc{b, title = "Foo" # foo # bar}\n')
    assert records[0].fields["title"] == "Foobar"
    assert [str(d).split(": ", 2)[-1] for d in diagnostics] == [
        "undefined @string macro 'bar' read as empty, as bibtex does (entry b)"
    ]


def test_preamble_and_comments_kept_for_the_bibtex_writers() -> None:
    text = """@preamble{"\\newcommand{\\noopsort}[1]{}"}
@comment{jabref-meta: databaseType:bibtex;}
@article{a, title = {A}}
@article{b, title = {B}}
@Comment{trailing}
"""
    records, _ = read(text)
    assert records[0].extra["bibtex:before"] == [
        '@preamble{"\\newcommand{\\noopsort}[1]{}"}',
        "@comment{jabref-meta: databaseType:bibtex;}",
    ]
    assert records[1].extra["bibtex:after"] == ["@Comment{trailing}"]
    out = bibconv.write(records, "bibtex") or ""
    assert out.startswith('@preamble{"\\newcommand{\\noopsort}[1]{}"}\n\n@comment{jabref-meta')
    assert out.rstrip().endswith("@Comment{trailing}")
    assert read(out)[0] == records


def test_duplicates_and_missing_keys_are_reported() -> None:
    text = "@article{a, title = {A}, Title = {B}}\n@article{a, title = {C}}\n@article{\n  title = {D}\n}\n"
    records, diagnostics = read(text)
    assert [r.fields["title"] for r in records] == ["A", "C", "D"]
    messages = [d.message for d in diagnostics]
    assert "duplicate field 'Title': the first value is kept" in messages
    assert "duplicate entry key 'a'" in messages
    assert "entry has no key; one will be made when it is written" in messages
    assert records[2].id is None


def test_entry_type_case_unknown_fields_and_types_kept() -> None:
    records, diagnostics = read(
        "@Article{k, title = {T}, Journal = {J}, X-Custom = {a {B} \\c{c}}}\n@Foo{f, title={F}}\n"
    )
    assert records[0].type == "article-journal"
    assert records[0].extra == {"bibtex:entrytype": "Article", "bibtex:x-custom": "a {B} \\c{c}"}
    assert records[1].type == "document"
    assert records[1].extra["bibtex:entrytype"] == "Foo"
    assert "unknown entry type @Foo" in diagnostics[0].message
    out = bibconv.write(records, "bibtex") or ""
    assert "@Article{k," in out
    assert "x-custom = {a {B} \\c{c}}" in out
    assert "@Foo{f," in out


def test_names_split_on_raw_tex_then_decoded() -> None:
    text = (
        r"@book{k, author = {{Barnes and Noble} and Rodr{\'\i}guez, Pau and Jos{\'e} van der Berg"
        r" and {World Health Organization}}}"
    )
    names = read(text)[0][0].names["author"]
    assert names == (
        Name(literal="Barnes and Noble"),
        Name(family="Rodríguez", given="Pau"),
        Name(family="Berg", given="José", non_dropping_particle="van der"),
        Name(literal="World Health Organization"),
    )


def test_fields_map_by_type_and_dialect() -> None:
    text = """@article{a, journaltitle = {J}, number = {3}, location = {Paris}, date = {2003-07/2005}}
@book{b, series = {S}, number = {12}, address = {Berlin}, publisher = {P}}
@techreport{c, institution = {MIT}, number = {TR-1}, type = {Memo}}
@phdthesis{d, school = {ETH}, month = {April}, year = 1999}
@online{e, url = {\\url{https://x.org/a_b~c}}, urldate = {2020-01-02}}
"""
    a, b, c, d, e = read(text)[0]
    assert a.fields == {"container-title": "J", "issue": "3", "publisher-place": "Paris"}
    assert a.issued == Date(parts=((2003, 7), (2005,)))
    assert b.fields == {
        "collection-title": "S",
        "collection-number": "12",
        "publisher-place": "Berlin",
        "publisher": "P",
    }
    assert c.fields == {"publisher": "MIT", "number": "TR-1", "genre": "Memo"}
    assert c.type == "report"
    assert d.fields == {"publisher": "ETH", "genre": "PhD thesis"}  # what @phdthesis says
    assert d.issued == Date(parts=((1999, 4),))
    assert d.type == "thesis"
    assert e.type == "webpage"
    assert e.fields == {"URL": "https://x.org/a_b~c"}
    assert e.dates["accessed"] == Date(parts=((2020, 1, 2),))


def test_crossref_child_before_and_after_parent_and_xdata() -> None:
    text = """@inproceedings{child, title = {Paper}, crossref = {proc}, pages = {1--2}}
@proceedings{proc, title = {Proceedings of {X}}, year = 2001, publisher = {P}, editor = {Ed, A.}}
@inbook{late, title = {Chapter}, crossref = {book}}
@xdata{common, publisher = {Shared}, location = {Here}}
@book{book, title = {Book}, author = {Au, B.}, xdata = {common}, year = 1999}
"""
    records, diagnostics = read(text)
    child, _proc, late, _xdata, book = records
    assert child.fields["container-title"] == 'Proceedings of <span class="nocase">X</span>'
    assert child.fields["publisher"] == "P"
    assert child.issued == Date(parts=((2001,),))
    assert child.names["editor"] == (Name(family="Ed", given="A."),)
    assert late.fields["container-title"] == "Book"
    assert late.fields["title"] == "Chapter"
    assert late.names["author"] == late.names["container-author"] == (Name(family="Au", given="B."),)
    assert late.fields["publisher"] == "Shared"
    assert book.fields["publisher-place"] == "Here"
    assert child.extra["bibtex:crossref"] == "proc"
    assert not diagnostics
    # The same from a stream that cannot seek (a pipe): spooled first, same records.
    piped = bibconv.read(iter([text.encode("utf-8")]), "bibtex")
    assert piped == records


def test_missing_crossref_target_is_reported() -> None:
    records, diagnostics = read("@inbook{a, title = {A}, crossref = {nowhere}}\n")
    assert records[0].title == "A"
    assert "crossref target 'nowhere' not found" in diagnostics[0].message


ARXIV = {
    "vaswani2023attentionneed": ("1706.03762", None, "cs.CL", "article"),
    "arxiv.1503.06733": ("1503.06733", None, None, "article"),
    "brownLanguageModelsAre2020": ("2005.14165", None, "cs", "article"),
    "Ramaswamy2022ELUDE": ("2206.07690", None, "cs", "article"),
    "devlin2018bert": ("1810.04805", None, None, "article"),
    "he2015deep": ("1512.03385", None, "cs", "article"),
    "devlin_bert_2019": ("1810.04805", None, "cs", "article"),
    "old-style": ("hep-ph/0703260", None, None, "article"),
    "quantum2018": ("1801.00862", None, "quant-ph", "article-journal"),
    "howpublished-v2": ("2001.08361", 1, None, "article"),
    "url-only": ("2104.08821", 4, None, "article"),
    "semantic": ("2005.14165", None, None, "article"),
    "DBLP:journals/corr/abs-1810-04805": ("1810.04805", None, None, "article-journal"),
    "CAPS2020": ("2001.08361", None, "cs.LG", "article"),
    "number-only": ("2301.00001", None, None, "report"),
}


def test_arxiv_in_every_spelling() -> None:
    records, diagnostics = read(sample("bibtex/bibconv_arxiv_spellings.bib"))
    assert not diagnostics
    assert {
        r.id: (r.arxiv.id, r.arxiv.version, r.arxiv.primary_class, r.type) for r in records if r.arxiv
    } == ARXIV
    by_id = {r.id: r for r in records}
    for key in ("devlin2018bert", "he2015deep", "semantic", "devlin_bert_2019", "arxiv.1503.06733"):
        fields = by_id[key].fields
        repeated = {"container-title", "DOI", "publisher", "note", "number"} & set(fields)
        assert not repeated, key
    # a URL is dropped only where it is the abs URL written back; others are kept as given
    assert "URL" not in by_id["arxiv.1503.06733"].fields
    assert by_id["devlin_bert_2019"].fields["URL"] == "http://arxiv.org/abs/1810.04805"
    assert by_id["url-only"].fields["URL"] == "https://arxiv.org/abs/2104.08821v4"
    assert by_id["quantum2018"].fields["DOI"] == "10.22331/q-2018-08-06-79"
    assert by_id["quantum2018"].fields["container-title"] == "Quantum"
    assert by_id["DBLP:journals/corr/abs-1810-04805"].fields["container-title"] == "CoRR"
    assert by_id["url-only"].fields["note"] == "Preprint"
    assert by_id["Ramaswamy2022ELUDE"].extra == {"bibtex:primaryclass": "cs, eess, q-bio"}
    assert by_id["vaswani2023attentionneed"].arxiv == Arxiv(id="1706.03762", primary_class="cs.CL")


def test_identifiers_lose_braces_that_enclose_them() -> None:
    # Better BibTeX: Options-to-use-default-import-process-1562 writes DOI = {{10.1016/…}}
    text = "@article{k, doi = {{10.1016/j.buildenv.2018.07.033}}, url = {{http://example.org/{a}b}}}"
    fields = read(text)[0][0].fields
    assert fields["DOI"] == "10.1016/j.buildenv.2018.07.033"
    assert fields["URL"] == "http://example.org/{a}b"


def test_titles_keep_meaningful_groups_only() -> None:
    text = "@article{k, title = {The {DNA} of {Bayesian} {Monte Carlo}: {A} {iPhone}-based {N}-body Study}}"
    title = read(text)[0][0].title
    nocase = '<span class="nocase">'
    assert title == (
        f"The DNA of {nocase}Bayesian</span> {nocase}Monte Carlo</span>: {nocase}A</span> "
        f"{nocase}iPhone</span>-based {nocase}N</span>-body Study"
    )


def _generated(count: int) -> Iterator[bytes]:
    yield b"@string{j = {Journal of Things}}\n"
    for i in range(count):
        yield (
            f'@article{{key{i},\n  author = {{M{{\\"u}}ller, J. and Smith, A.}},\n  title = {{Title {i}}},\n'
            f"  journal = j,\n  year = {{2001}},\n  month = apr\n}}\n\n"
        ).encode()


def _peak(count: int) -> int:
    tracemalloc.start()
    seen = 0
    for record in bibconv.iter_records(_generated(count), "bibtex"):
        seen += 1
        assert record.fields["container-title"] == "Journal of Things"
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert seen == count
    return peak


def test_streaming_memory_does_not_grow_with_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bibtex_syntax, "CHUNK_SIZE", 1 << 14)
    monkeypatch.setattr(textio, "_SPOOL_SIZE", 1 << 16)  # the pipe's spool goes to disk
    # Decoded values are cached up to a few thousand entries (bounded): shrink the caches so that
    # they are full after the warm-up and what is left is what grows with the input.
    monkeypatch.setattr(latex, "_decode_short", lru_cache(maxsize=32)(latex._decode_short.__wrapped__))
    _peak(100)  # caches and imports warm up first
    small, large = _peak(200), _peak(1000)
    # Only the hashes of the keys seen (for duplicate reports) grow, with some noise in the peak:
    # well under a kilobyte an entry, where holding the records would cost several each.
    assert large - small < 800 * 1000, (small, large)


@pytest.mark.shared
def test_small_chunks_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    path = sample("bibtex/bbt_import_Unabbreviate_on_import_1436-1.bib")
    whole = bibconv.read(path, "bibtex", strict=False)
    monkeypatch.setattr(bibtex_syntax, "CHUNK_SIZE", 2000)
    assert bibconv.read(io.BytesIO(path.read_bytes()), "bibtex", strict=False) == whole


@pytest.mark.shared
def test_biblatex_reader_is_the_same_reader() -> None:
    path = sample("bibtex/biblatex-examples.bib")
    assert bibconv.read(path, "biblatex") == bibconv.read(path, "bibtex")
    assert format_for_extension("refs.biblatex") == "biblatex"
    assert format_for_extension("refs.bib", writing=True) == "bibtex"
    assert format_for_extension("refs.biblatex", writing=True) == "biblatex"
