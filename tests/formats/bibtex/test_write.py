"""BibTeX/biblatex writing: layout, arXiv forms, safe values, and the real consumers
(pybtex, bibtexparser, the ``bibtex`` program, ``biber --tool``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv.formats.bibtex.names import split_bibtex_names
from bibconv.model import Arxiv, Date, Name, Record
from tests.golden import cases, check_golden, golden, need, sample
from tests.tools import require_tool

DIALECTS = {"bibtex": ".bib", "biblatex": ".biblatex"}
OUTPUTS = [(p.name, d) for d, suffix in DIALECTS.items() for p in cases("bibtex", "write", suffix)]
"""(input, dialect) of each writing golden: fixtures/bibtex/write/<input>.bib or .biblatex."""
HOSTILE = [
    "Unbalanced { brace",
    "closing } early and @misc{evil, title={x}}",
    "line\n@article{injected, title = {x}}",
    "100% of R&D costs #1 in C_2 at $5 ~ ^ \\ end\\",
    "Кириллица и 中文 😀 and $\\alpha^{2}$ math",
    '"quoted" text, comma, and = sign',
    "}{",
]


def _read(text: str) -> list[Record]:
    return bibconv.read(text, "bibtex")


def _golden(name: str, dialect: str) -> Path:
    return golden(sample(f"bibtex/{name}"), "write", DIALECTS[dialect])


@pytest.mark.parametrize(
    ("path", "dialect"), [pytest.param(sample(f"bibtex/{n}"), d, id=f"{n}-{d}") for n, d in OUTPUTS]
)
def test_output_golden(path: Path, dialect: str, update_golden: bool) -> None:
    records = bibconv.read(path, "bibtex")
    out = bibconv.write(records, dialect, normalize=True) or ""  # as read, they would be the input
    check_golden(_golden(path.name, dialect), out, update_golden)


def test_layout_one_field_per_line_fixed_order_indent() -> None:
    record = Record(
        type="article-journal",
        id="k",
        fields={"title": "On Things", "container-title": "J", "volume": "3", "page": "1–9", "note": "n"},
        names={"author": (Name(family="Doe", given="Jane"),)},
        dates={"issued": Date(parts=((2001, 4, 2),))},
    )
    assert bibconv.write([record], "bibtex") == (
        "@article{k,\n  title = {On Things},\n  author = {Doe, Jane},\n  journal = {J},\n  volume = {3},\n"
        "  pages = {1--9},\n  year = {2001},\n  month = apr,\n  day = {2},\n  note = {n}\n}\n"
    )
    assert bibconv.write([record], "biblatex", indent="\t") == (
        "@article{k,\n\ttitle = {On Things},\n\tauthor = {Doe, Jane},\n\tjournaltitle = {J},\n"
        "\tvolume = {3},\n\tpages = {1--9},\n\tdate = {2001-04-02},\n\tnote = {n}\n}\n"
    )


def test_arxiv_preprint_as_arxiv_exports_it() -> None:
    record = Record(
        type="article",
        id="vaswani2017",
        fields={"title": "Attention Is All You Need"},
        names={"author": (Name(family="Vaswani", given="Ashish"),)},
        dates={"issued": Date(parts=((2017, 6, 12),))},
        arxiv=Arxiv(id="1706.03762", version=7, primary_class="cs.CL"),
    )
    bibtex = bibconv.write([record], "bibtex") or ""
    assert bibtex.startswith("@misc{vaswani2017,\n")
    for line in (
        "  eprint = {1706.03762},",
        "  archivePrefix = {arXiv},",
        "  primaryClass = {cs.CL},",
        "  arxivversion = {7},",
        "  doi = {10.48550/arXiv.1706.03762},",
        "  url = {https://arxiv.org/abs/1706.03762}",
    ):
        assert line in bibtex
    biblatex = bibconv.write([record], "biblatex") or ""
    assert biblatex.startswith("@online{vaswani2017,\n")
    for line in (
        "eprinttype = {arXiv}",
        "eprintclass = {cs.CL}",
        "pubstate = {prepublished}",
        "date = {2017-06-12}",
    ):
        assert line in biblatex
    assert _read(bibtex) == _read(biblatex) == [record]


def test_published_paper_keeps_type_and_adds_eprint() -> None:
    record = Record(
        type="article-journal",
        id="p",
        fields={"title": "T", "container-title": "Quantum", "DOI": "10.22331/q-2018-08-06-79"},
        arxiv=Arxiv(id="1801.00862", primary_class="quant-ph"),
    )
    out = bibconv.write([record], "bibtex") or ""
    assert out.startswith("@article{p,")
    assert "journal = {Quantum}" in out
    assert "doi = {10.22331/q-2018-08-06-79}" in out
    assert "eprint = {1801.00862}" in out
    assert _read(out) == [record]


def test_whole_arxiv_block_affiliations_and_paragraphs_come_back() -> None:
    record = Record(
        type="article",
        id="murray2011",
        fields={"title": "T", "abstract": "First paragraph.\nSecond, with 50% &amp; more."},
        names={
            "author": (
                Name(family="Murray", given="James M.", affiliation=("Ohio State Univ.", "MIT {CSAIL}; and")),
                Name(family="Maestro", given="Adrian", non_dropping_particle="Del"),
                Name(literal="CERN", affiliation=("Geneva",)),
            )
        },
        arxiv=Arxiv(
            id="1111.2011",
            version=2,
            primary_class="cond-mat.str-el",
            categories=("cond-mat.str-el", "cond-mat.stat-mech"),
            submitted=Date(parts=((2011, 11, 8),)),
            updated=Date(parts=((2012, 4, 2),)),
            comment="8 pages, 3 figures & a {table}",
            journal_ref="Phys. Rev. B 85, 115117 (2012)",
        ),
    )
    for dialect in ("bibtex", "biblatex"):
        out = bibconv.write([record], dialect) or ""
        assert "authoraffiliations = {{Ohio State Univ.}{MIT \\{CSAIL\\}; and} and {} and {Geneva}}" in out
        for line in ("arxivversion = {2}", "arxivcategories = {cond-mat.str-el, cond-mat.stat-mech}"):
            assert line in out
        assert "url = {https://arxiv.org/abs/1111.2011}" in out
        assert "First paragraph. \\par Second" in out
        back = _read(out)[0]
        assert back.arxiv == record.arxiv
        assert back.fields == record.fields
        assert [n.affiliation for n in back.authors] == [n.affiliation for n in record.authors]


def test_date_ranges_and_literal_years() -> None:
    ranged = Record(type="book", id="r", dates={"issued": Date(parts=((2003, 7), (2005, 1)))})
    assert "date = {2003-07/2005-01}" in (bibconv.write([ranged], "biblatex") or "")
    bibtex = bibconv.write([ranged], "bibtex") or ""
    assert "year = {2003}" in bibtex
    assert "month = jul" in bibtex
    assert "date = {2003-07/2005-01}" in bibtex
    years = Record(type="book", id="y", dates={"issued": Date(parts=((2003,), (2005,)))})
    assert "year = {2003--2005}" in (bibconv.write([years], "bibtex") or "")
    for record in (ranged, years):
        for dialect in ("bibtex", "biblatex"):
            assert _read(bibconv.write([record], dialect) or "") == [record]


def test_ascii_option_and_generated_keys() -> None:
    record = Record(
        type="book",
        fields={"title": "Ça va: Über Größe"},
        names={"author": (Name(family="Rodríguez", given="Pau"),)},
        dates={"issued": Date(parts=((2020,),))},
    )
    out = bibconv.write([record, record], "bibtex", ascii=True) or ""
    assert out.isascii()
    assert "@book{rodriguez2020ca," in out
    assert "@book{rodriguez2020caa," in out
    assert [r.replace(id=None) for r in _read(out)] == [record, record]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_values_stay_inside_their_field(value: str) -> None:
    from bibtexparser import parse_string

    record = Record(type="misc", id="k", fields={"title": value, "note": value}, extra={"bibtex:x": value})
    for dialect in ("bibtex", "biblatex"):
        out = bibconv.write([record], dialect) or ""
        library = parse_string(out)
        assert not library.failed_blocks
        assert [e.key for e in library.entries] == ["k"]
        assert sorted(library.entries[0].fields_dict) == ["note", "title", "x"]
        assert not re.search(r"^\s*@(?!misc\{k,)", out, re.M), out


def _pybtex_and_bibtexparser_agree(text: str) -> None:
    from bibtexparser import parse_string
    from pybtex.database import parse_string as pybtex_parse

    library = parse_string(text)
    assert not library.failed_blocks
    database = pybtex_parse(text, "bibtex")
    assert [e.key for e in library.entries] == list(database.entries.keys())
    for entry in library.entries:
        theirs = database.entries[entry.key]
        assert entry.entry_type == theirs.type
        ours = {f.key.lower(): f.value for f in entry.fields}  # enclosing braces removed by bibtexparser
        persons = {role.lower(): people for role, people in theirs.persons.items()}
        for key, value in ours.items():
            if key in persons:
                assert len(persons[key]) == len(split_bibtex_names(value)), (entry.key, key)
            elif key == "month":
                assert theirs.fields["month"].lower().startswith(value.lower()), (entry.key, key)
            else:
                assert theirs.fields[key] == value, (entry.key, key)


@pytest.mark.parametrize(("name", "dialect"), OUTPUTS)
def test_pybtex_and_bibtexparser_parse_our_output_equal(name: str, dialect: str) -> None:
    _pybtex_and_bibtexparser_agree(_golden(name, dialect).read_text(encoding="utf-8"))


ALLOWED_BIBTEX_WARNINGS = re.compile(
    r"^Warning--(empty \w+ in |to sort, need |can't use both \w+ and \w+ fields in |"
    r"there's a number but no series in |I didn't find a database entry)"
)


def _bibtex_messages(tmp_path: Path, bib: str) -> tuple[str, list[str]]:
    exe = require_tool("bibtex")
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    (tmp_path / "doc.aux").write_text("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{plain}\n", encoding="utf-8")
    done = subprocess.run(
        [exe, "doc"], cwd=tmp_path, capture_output=True, text=True, errors="replace", check=False
    )
    lines = done.stdout.splitlines()
    warnings = [line for line in lines if line.startswith("Warning--")]
    return done.stdout, warnings if done.returncode <= 1 else [*warnings, f"exit {done.returncode}"]


def _hostile_records() -> list[Record]:
    return [
        Record(
            type="misc",
            id=f"hostile{i}",
            fields={"title": v, "note": v},
            names={"author": (Name(literal=v),)},
        )
        for i, v in enumerate(HOSTILE)
    ]


@pytest.mark.parametrize("ascii_only", [False, True])
def test_bibtex_program_reads_our_output(tmp_path: Path, ascii_only: bool) -> None:
    records = bibconv.read(need("bibtex/xampl.bib"), "bibtex")
    records += bibconv.read(sample("bibtex/bibconv_arxiv_spellings.bib"), "bibtex")
    records += bibconv.read(need("bibtex/bbt_import_Unabbreviate_on_import_1436-1.bib"), "bibtex")
    records += _hostile_records()
    out = bibconv.write(records, "bibtex", ascii=ascii_only) or ""
    stdout, warnings = _bibtex_messages(tmp_path, out)
    assert "error message" not in stdout, stdout
    assert all(ALLOWED_BIBTEX_WARNINGS.match(w) for w in warnings), warnings
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    assert bbl.count("\\bibitem") == len(records)


def test_bibtex_program_warns_no_more_than_on_the_source(tmp_path: Path) -> None:
    source = need("bibtex/xampl.bib")
    _, before = _bibtex_messages(tmp_path, source.read_text(encoding="utf-8"))
    _, after = _bibtex_messages(tmp_path, bibconv.write(bibconv.read(source, "bibtex"), "bibtex") or "")
    assert set(after) <= set(before)


def _biber_warnings(tmp_path: Path, bib: str) -> list[str]:
    exe = require_tool("biber")
    (tmp_path / "in.bib").write_text(bib, encoding="utf-8")
    done = subprocess.run(
        [
            exe,
            "--tool",
            "--validate-datamodel",
            "--output-file",
            str(tmp_path / "out.bib"),
            str(tmp_path / "in.bib"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout + done.stderr
    assert "ERROR" not in text, text
    path = re.escape(str(tmp_path / "in.bib"))
    return sorted(
        re.sub(rf"\((?:{path}|in\.bib)\)", "", line) for line in text.splitlines() if line.startswith("WARN")
    )


# What the data lacks or holds (a DBLP volume "abs/1810.04805"), not how it is written.
# bibconv's own fields (arXiv block, affiliations, csl-<variable>) are outside biblatex's data model:
# biber ignores them.
OWN_FIELDS_WARNING = re.compile(
    r"Field '(arxiv\w+|\w+affiliations|csl-[\w-]+)' invalid in data model - ignoring$"
)
ALLOWED_BIBER_WARNINGS = re.compile(
    r"^WARN - Datamodel: Entry '[^']+' : (Missing mandatory field|Invalid value of field 'volume'|"
    + OWN_FIELDS_WARNING.pattern
    + ")"
)


def test_biber_tool_accepts_our_biblatex(tmp_path: Path) -> None:
    records = bibconv.read(sample("bibtex/bibconv_arxiv_spellings.bib"), "bibtex") + _hostile_records()
    warnings = _biber_warnings(tmp_path, bibconv.write(records, "biblatex", normalize=True) or "")
    assert warnings, "the hostile records have no date: biber should say so"
    assert all(ALLOWED_BIBER_WARNINGS.match(w) for w in warnings), warnings
    source = need("bibtex/biblatex-examples.bib").read_text(encoding="utf-8")
    ours = bibconv.write(bibconv.read(need("bibtex/biblatex-examples.bib"), "bibtex"), "biblatex") or ""
    ours_warnings = {w for w in _biber_warnings(tmp_path, ours) if not OWN_FIELDS_WARNING.search(w)}
    assert ours_warnings <= set(_biber_warnings(tmp_path, source))


def test_kept_preamble_never_reaches_files_or_programs() -> None:
    source = (
        '@preamble{"\\newcommand{\\noopsort}[1]{}"}\n'
        '@preamble{"\\immediate\\write18{touch /tmp/pwned}"}\n'
        '@preamble{"\\input{/etc/passwd}"}\n'
        "@article{a, title={T}, author={A, B}, journal={J}, year=2001}\n"
    )
    diagnostics: list[bibconv.Diagnostic] = []
    out = bibconv.write(bibconv.read(source, "bibtex"), "bibtex", diagnostics=diagnostics) or ""
    assert "\\newcommand{\\noopsort}" in out
    assert "write18" not in out
    assert "/etc/passwd" not in out
    assert [d.message for d in diagnostics] == [
        "a kept @preamble holds TeX that is not allowed in output (\\immediate, \\write); not written",
        "a kept @preamble holds TeX that is not allowed in output (\\input); not written",
    ]


def test_kept_preamble_is_kept_only_when_every_command_is_allowed() -> None:
    """A preamble may define new commands (fields then use them) but not redefine or hook into LaTeX."""
    payloads = [
        "\\makeatletter",
        "\\AtEndDocument{x}",
        "\\providecommand{\\directlua}{}",
        "\\newcommand{\\x}{\\csname foo\\endcsname}",
        "\\def\\x{y}",
        "\\UseName{sys_shell_now:n}{id}",
    ]
    source = "".join(f'@preamble{{"{p}"}}\n' for p in payloads)
    source += '@preamble{"\\providecommand{\\mine}[1]{#1}"}\n@misc{a, title={A \\mine{b} \\other{c}}}\n'
    diagnostics: list[bibconv.Diagnostic] = []
    out = bibconv.write(bibconv.read(source, "bibtex"), "bibtex", diagnostics=diagnostics) or ""
    assert out.count("@preamble") == 1
    assert "title = {A b \\textbackslash{}other\\{c\\}}" in out  # \mine expanded: \other is not allowed
    notes = [d.message for d in diagnostics]
    assert len(notes) == len(payloads) + 1
    assert sum(n.startswith("a kept @preamble holds TeX") for n in notes) == len(payloads)
    assert notes[0] == "title: TeX \\other is not allowed in output; '\\\\other{c}' written as text"


_TITLE_TEXT = st.lists(
    st.sampled_from(
        [
            *("a", "B", "é", "Hello", "iPhone", "DNA", "x-Ray", " ", "  ", "\t"),
            *(":", ": ", "'", "(", ")", '"', "."),
            *("$", "$x$", "$\\alpha$", "$X$", "$O(n", "\\log n)$", "$\\Gamma$", "$$", "$ x$", "$10", "\\$"),
            *("\\", "\\\\", "\\foo", "\\OE", "\\'e", "\\ss", "^", "_", "~", "%", "#", "7"),
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_TITLE_TEXT)
def test_title_protection_without_groups_is_protect_case(text: str) -> None:
    """A title of no brace group (and no ``\\$``) skips the word-by-word comparison: same result."""
    from bibconv import latex
    from bibconv.formats.bibtex.safety import _protect_pieces, protect, safe

    for tex in (text, safe(latex.encode(text))):
        if "{" not in tex and "\\$" not in tex:
            assert protect(tex) == _protect_pieces(tex, latex.protect_case(tex))


@pytest.mark.parametrize(
    ("mode", "title"),
    [
        ("acronyms", "Crystal Phase Quantum Dots on {CPU-GPU} for {LLM} in {iPhone}: A Study"),
        ("all", "Crystal {Phase} {Quantum} {Dots} on {CPU-GPU} for {LLM} in {iPhone}: A {Study}"),
        ("none", "Crystal Phase Quantum Dots on CPU-GPU for LLM in iPhone: A Study"),
    ],
)
def test_protect_case_braces_what_a_style_must_not_lowercase(mode: str, title: str) -> None:
    plain = "Crystal Phase Quantum Dots on CPU-GPU for LLM in iPhone: A Study"
    record = Record(type="book", id="k", fields={"title": plain})
    assert f"title = {{{title}}}" in (bibconv.write([record], "bibtex", protect_case=mode) or "")


def test_nocase_spans_are_braced_in_every_mode() -> None:
    title = 'On <span class="nocase">Monte Carlo</span> Methods'
    record = Record(type="book", id="k", fields={"title": title})
    for mode in ("none", "acronyms"):
        out = bibconv.write([record], "bibtex", protect_case=mode) or ""
        assert "title = {On {Monte Carlo} Methods}" in out


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
def test_other_formats_fields_dropped_are_reported_once_each(dialect: str) -> None:
    """A RIS export's tags without a slot (Embase's U2, L2, C5) and CSL-JSON keys of no variable
    are not BibTeX fields: each is reported, once per output, never dropped silently."""
    records = [
        Record(
            type="article-journal",
            id=f"a{n}",
            fields={"title": "T"},
            extra={"ris:U2": "L373791783", "ris:C5": "15368318", "csl:license": "CC-BY", "ris:TY": "EJOUR"},
        )
        for n in range(2)
    ]
    diagnostics: list[bibconv.Diagnostic] = []
    bibconv.write(records, dialect, diagnostics=diagnostics)
    assert [d.message for d in diagnostics] == [
        f"{dialect} cannot hold 'ris:U2'; dropped",
        f"{dialect} cannot hold 'ris:C5'; dropped",
        f"{dialect} cannot hold 'csl:license'; dropped",
    ]


def test_an_entry_without_fields_keeps_the_comma_after_its_key() -> None:
    """``@misc{key }`` stops pandoc's reader ("unexpected '}'"); ``@misc{key,}`` is read by all."""
    diagnostics: list[bibconv.Diagnostic] = []
    text = bibconv.write([Record(id="anon", extra={"ris:NL": "Clin"})], "bibtex", diagnostics=diagnostics)
    assert text is not None
    assert text.startswith("@misc{anon,\n}")
    done = subprocess.run(
        [require_tool("pandoc"), "-f", "bibtex", "-t", "csljson"], input=text, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
