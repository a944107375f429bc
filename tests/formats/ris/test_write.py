"""The RIS writer: spec-clean output, round trips, and other programs reading it back."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import rispy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

import bibconv
from bibconv.errors import Diagnostic, WriteError
from bibconv.formats.ris.table import (
    CSL_TO_TY,
    FIELD_TAGS,
    NAME_TAGS,
    TAGS,
    TY_TO_CSL,
    parse_date,
    read_targets,
)
from bibconv.latex import escape_markup
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.registry import has_content
from tests.golden import FIXTURES, samples
from tests.tools import require_tool

RIS_DIR = FIXTURES / "ris"
SAMPLES = samples("ris", ".ris")
LINE = re.compile(r"([A-Z][A-Z0-9])  - (.*)")


def case(path: Path) -> str:
    return path.name.rsplit(".", 1)[0]


def read_sample(path: Path) -> list[Record]:
    """The sample's records that hold something (writers skip a bare ``TY``: test_empty_records)."""
    return [r for r in bibconv.read(path.read_bytes(), "ris", strict=False) if has_content(r)]


def write(records: list[Record], **options: object) -> tuple[str, list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    text = bibconv.write(records, "ris", diagnostics=diagnostics, **options)
    assert text is not None
    return text, diagnostics


def tag_lines(text: str) -> list[list[tuple[str, str]]]:
    """The records of a RIS text as ``(tag, value)`` lines; wrapped lines joined (no bibconv code)."""
    records: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] | None = None
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.lstrip("\ufeff")
        match = re.match(r"([A-Z][A-Z0-9]) {1,2}- ?(.*)$", line)
        if match is None and re.fullmatch(r"ER\s*", line):
            match = re.match(r"(ER)()", line)
        if match is None:
            if current and line.strip() and current[-1][0] != "TY":
                tag, value = current[-1]
                current[-1] = (tag, f"{value} {line.strip()}")
            continue
        tag, value = match[1], match[2].strip()
        if tag == "TY" or current is None:
            if current:
                records.append(current)
            current = []
        if tag == "ER":
            records.append(current)
            current = None
        else:
            current.append((tag, value))
    if current:
        records.append(current)
    return records


def assert_spec_clean(text: str) -> None:
    assert "\n" not in text.replace("\r\n", "")  # CRLF only
    assert not text.startswith("\ufeff")
    records = text.split("ER  - \r\n")
    assert records[-1] in ("", "\r\n")
    for body in records[:-1]:
        lines = [line for line in body.split("\r\n") if line]
        for number, line in enumerate(lines):  # an abstract's paragraphs: indented continuation lines
            if line.startswith("  "):
                assert lines[number - 1].startswith(("AB  - ", "  ")), f"continuation of a tag: {line!r}"
                assert line[2:] == line[2:].strip()
                assert line[2:]
        lines = [line for line in lines if not line.startswith("  ")]
        assert lines[0].startswith("TY  - ")
        assert lines[0][6:] in TY_TO_CSL
        for line in lines:
            match = LINE.fullmatch(line)
            assert match, f"not a tag line: {line!r}"
            assert match[2]
            assert match[2] == match[2].strip()
        tags = [LINE.fullmatch(line)[1] for line in lines]  # type: ignore[index]
        assert tags.count("TY") == 1
        first = {}  # the record's own date; later PY/DA lines are kept values written back as read
        for line in lines:
            first.setdefault(line[:2], line[6:])
            if line[:2] in ("AU", "A2", "A3", "A4"):
                assert line[6:].count(",") <= 2
        assert "PY" not in first or re.fullmatch(r"-?\d{4}", first["PY"])
        assert "DA" not in first or re.fullmatch(r"(-?\d{4})?/(\d{2})?/(\d{2})?/.*", first["DA"])


# --- spec-clean output ------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLES, ids=case)
def test_output_is_spec_clean(path: Path) -> None:
    text, _ = write(read_sample(path))
    assert_spec_clean(text)


def test_layout_of_one_record() -> None:
    record = Record(
        type="article-journal",
        id="knuth84",
        fields={
            "title": "Literate <i>Programming</i> &amp; more",
            "container-title": "The Computer Journal",
            "volume": "27",
            "issue": "2",
            "page": "97–111",
            "DOI": "10.1093/comjnl/27.2.97",
            "abstract": "First paragraph.\n\nSecond paragraph,\r\nwith a break.",
        },
        names={"author": (Name(family="Knuth", given="Donald E."),), "editor": (Name(literal="ACM"),)},
        dates={"issued": Date(parts=((1984, 5, 1),)), "accessed": Date(parts=((2024, 1, 2),))},
        keywords=("literate programming", "WEB"),
    )
    text, diagnostics = write([record])
    assert text == (
        "TY  - JOUR\r\nID  - knuth84\r\nTI  - Literate Programming & more\r\nAU  - Knuth, Donald E.\r\n"
        "A2  - ACM\r\nT2  - The Computer Journal\r\n"
        "AB  - First paragraph.\r\n  Second paragraph,\r\n  with a break.\r\n"
        "PY  - 1984\r\nDA  - 1984/05/01/\r\n"
        "Y2  - 2024/01/02/\r\nVL  - 27\r\nIS  - 2\r\nSP  - 97\r\nEP  - 111\r\n"
        "DO  - 10.1093/comjnl/27.2.97\r\n"
        "KW  - literate programming\r\nKW  - WEB\r\nER  - \r\n\r\n"
    )
    assert [d.message for d in diagnostics] == [
        "RIS text is plain: the markup of 'title' (<i>, <b>, <sup>…) dropped"
    ]


def test_no_value_can_inject_a_tag() -> None:
    evil = "Title\r\nER  - \r\nTY  - BOOK\nTI  - injected\u2028AU  - X"
    record = Record(type="book", fields={"title": escape_markup(evil), "note": "line one\nER  - \nline two"})
    text, _ = write([record])
    assert_spec_clean(text)
    back = bibconv.read(text, "ris")
    assert len(back) == 1
    assert back[0].title == "Title ER  - TY  - BOOK TI  - injected AU  - X"
    assert back[0].fields["note"] == "line one\nER  -\nline two"


def test_seasons_other_info_and_literal_dates() -> None:
    records = [
        Record(type="book", dates={"issued": Date(parts=((1998,),), season="Spring")}),
        Record(type="book", dates={"issued": Date(literal="forthcoming")}),
        Record(
            type="book",
            dates={"issued": Date(parts=((2013, 2, 15),))},
            extra={"ris:date-info": {"issued": "rec"}},
        ),
        Record(type="book", dates={"issued": Date(parts=((2003,),))}),
    ]
    text, _ = write(records)
    assert [r[1:] for r in tag_lines(text)] == [
        [("PY", "1998"), ("DA", "1998///Spring")],
        [("DA", "///forthcoming")],
        [("PY", "2013"), ("DA", "2013/02/15/rec")],
        [("PY", "2003")],
    ]
    assert bibconv.read(text, "ris") == records


# --- what RIS cannot hold is reported, once per field ------------------------------------------


def test_unrepresentable_data_is_reported_once_per_field() -> None:
    records = [
        Record(
            type="review",
            id=f"r{n}",
            fields={"title": "T", "event-title": "Conf", "status": "forthcoming"},
            names={
                "author": (Name(family="Doe", given="J.", affiliation=("MIT", "CERN")),),
                "illustrator": (Name(family="Roe"),),
            },
            dates={"issued": Date(parts=((2001,), (2003,))), "original-date": Date(parts=((1900,),))},
            extra={"bibtex:howpublished": "online", "ris:C1": "kept"},
        )
        for n in range(2)
    ]
    text, diagnostics = write(records)
    assert sorted(d.message for d in diagnostics) == sorted(
        [
            "RIS has no type for 'review'; written as JOUR",
            "affiliations written as AD lines, not tied to one author",
            "RIS has no tag for 'illustrator' names; dropped",
            "RIS dates cannot be ranges; the end of 'issued' is dropped",
            "RIS has no tag for the 'original-date' date; dropped",
            "RIS has no tag for 'event-title'; dropped",
            "RIS has no tag for 'status'; dropped",
            "RIS cannot hold 'bibtex:howpublished'; dropped",
        ]
    )
    lines = tag_lines(text)[0]
    assert ("AD", "MIT") in lines
    assert ("AD", "CERN") in lines
    assert ("C1", "kept") in lines


# --- arXiv ------------------------------------------------------------------------------------

PREPRINT = Record(
    type="article",
    id="vaswani2017",
    fields={"title": "Attention Is All You Need"},
    names={"author": (Name(family="Vaswani", given="Ashish"), Name(family="Shazeer", given="Noam"))},
    dates={"issued": Date(parts=((2017, 6, 12),))},
    arxiv=Arxiv(
        id="1706.03762",
        version=7,
        primary_class="cs.CL",
        categories=("cs.CL", "cs.LG"),
        submitted=Date(parts=((2017, 6, 12),)),
        updated=Date(parts=((2023, 8, 2),)),
        comment="15 pages, 5 figures",
        journal_ref="NIPS 2017",
    ),
)


def test_arxiv_preprint_layout() -> None:
    text, diagnostics = write([PREPRINT])
    assert diagnostics == []
    assert tag_lines(text)[0] == [
        ("TY", "UNPB"),
        ("ID", "vaswani2017"),
        ("TI", "Attention Is All You Need"),
        ("AU", "Vaswani, Ashish"),
        ("AU", "Shazeer, Noam"),
        ("PY", "2017"),
        ("DA", "2017/06/12/"),
        ("PB", "arXiv"),
        ("DO", "10.48550/arXiv.1706.03762"),
        ("UR", "https://arxiv.org/abs/1706.03762"),
        ("N1", "arXiv:1706.03762v7 [cs.CL]"),
        ("N1", "arXiv categories: cs.CL cs.LG"),
        ("N1", "arXiv submitted: 2017-06-12"),
        ("N1", "arXiv updated: 2023-08-02"),
        ("N1", "arXiv comment: 15 pages, 5 figures"),
        ("N1", "arXiv journal reference: NIPS 2017"),
    ]
    assert bibconv.read(text, "ris") == [PREPRINT]


@pytest.mark.parametrize("ty", ["GEN", "JOUR", "UNPB"])
def test_preprint_type_option_round_trips(ty: str) -> None:
    text, _ = write([PREPRINT], preprint_type=ty)
    assert text.startswith(f"TY  - {ty}\r\n")
    back = bibconv.read(text, "ris")[0]
    assert back.type == "article"
    assert back.arxiv == PREPRINT.arxiv
    again, _ = write([back])
    assert again == text


def test_bad_preprint_type_is_refused() -> None:
    with pytest.raises(WriteError, match="not a RIS type"):
        write([PREPRINT], preprint_type="PREPRINT")


def test_published_paper_keeps_journal_doi_and_url() -> None:
    record = Record(
        type="article-journal",
        fields={
            "title": "T",
            "container-title": "Phys. Rev. D",
            "DOI": "10.1103/x",
            "URL": "https://j.example/x",
        },
        arxiv=Arxiv(id="hep-th/9901001"),
    )
    text, _ = write([record])
    lines = tag_lines(text)[0]
    assert ("TY", "JOUR") in lines
    assert ("DO", "10.1103/x") in lines
    assert ("UR", "https://j.example/x") in lines
    assert ("PB", "arXiv") not in lines
    assert bibconv.read(text, "ris") == [record]


# --- round trips --------------------------------------------------------------------------------


def _norm(value: str) -> str:
    return re.sub(
        r"\s+", "", re.sub(r"^(?:doi:|https?://(?:dx\.)?doi\.org/)", "", value, flags=re.I)
    ).casefold()


def _allowed(tag: str) -> set[str]:
    """The tags the writer may use for an input tag: itself and the writer's tag for each of its slots."""
    spec = TAGS.get(tag)
    if spec is None:
        return {tag}
    # the slots it may fill (some depend on the record's TY and tags: table.read_targets)
    targets = {*spec.targets, *read_targets(tag, "BOOK", frozenset()), *read_targets(tag, None, frozenset())}
    out = {tag} | {FIELD_TAGS[t] for t in targets if t in FIELD_TAGS}
    out |= {"T2"} if "collection-title" in targets else set()  # a BOOK's series (table.write_tag)
    out |= {NAME_TAGS[t] for t in spec.targets if t in NAME_TAGS}
    if spec.kind == "booktitle":
        out.add("TI")
    if spec.kind in ("date", "year"):
        out |= {"PY", "DA", "Y1"} if tag != "Y2" else {"Y2"}
    if spec.kind in ("page-start", "page-end"):
        out |= {"SP", "EP"}
    return out


def _kept(tag: str, value: str, output: list[tuple[str, str]]) -> bool:
    allowed = _allowed(tag)
    values = [v for t, v in output if t in allowed]
    if tag in ("PY", "Y1", "DA", "Y2"):
        date = parse_date(value)[0]
        found = [parse_date(v)[0] for v in values]
        if date.literal is not None:
            return any(d.literal == date.literal for d in found) or any(
                _norm(value) == _norm(v) for v in values
            )
        return not date.parts or any(
            d.parts and d.parts[0][: len(date.parts[0])] == date.parts[0] for d in found
        )
    if tag in ("SP", "EP"):
        pages = dict(output)
        joined = _norm(pages.get("SP", "") + ("-" + pages["EP"] if "EP" in pages else ""))
        return _norm(value) in joined or _norm(value) in {_norm(v) for v in values}
    if tag == "UR":
        return all(_norm(u) in {_norm(v) for v in values} for u in re.split(r"\s*;\s*", value) if u)
    return _norm(value) in _norm("".join(values))


def _bad_types(records: list[Record]) -> list[str]:
    return [r.extra["ris:TY"] for r in records if r.extra.get("ris:TY", "GEN") not in TY_TO_CSL]


def _projected(record: Record) -> Record:
    """What RIS keeps of a record read from RIS: values on one line, notes and abstract paragraphs one
    per line, RIS types."""
    fields = {
        name: "\n".join(line.strip() for line in value.splitlines() if line.strip())
        if name in ("note", "abstract")
        else re.sub(r"\s*\n\s*", " ", value)
        for name, value in record.fields.items()
    }
    extra = dict(record.extra)
    if extra.get("ris:TY", "GEN") not in TY_TO_CSL:
        del extra["ris:TY"]
    return record.replace(fields=fields, extra=extra)


@pytest.mark.shared
@pytest.mark.parametrize("path", SAMPLES, ids=case)
def test_ris_to_ris_keeps_every_tag(path: Path) -> None:
    records = read_sample(path)
    text, diagnostics = write(records)
    # A TY that is not a RIS type is written as GEN (with a warning): spec-clean first.
    expected = [_projected(r) for r in records]
    assert bibconv.read(text, "ris") == expected
    assert [d.message for d in diagnostics] == [
        f"TY {t!r} is not a RIS type; written as GEN" for t in dict.fromkeys(_bad_types(records))
    ]
    assert write(bibconv.read(text, "ris"))[0] == text
    source = tag_lines(path.read_bytes().decode("utf-8-sig"))
    source = [lines for lines in source if any(t not in ("TY", "ER") and v for t, v in lines)]
    output = tag_lines(text)
    assert len(output) == len(records)
    if len(source) != len(output):  # RisImporterCorrupted: tags before any TY
        source = [[line for record in source for line in record]]
    for before, after in zip(source, output, strict=True):
        lost = [(t, v) for t, v in before if v and t not in ("TY", "ER") and not _kept(t, v, after)]
        assert lost == []
        counts_before = Counter(t for t, v in before if v)
        counts_after = Counter(t for t, v in after)
        for group in ({"AU", "A1"}, {"A2", "ED"}, {"KW"}):
            assert sum(counts_after[t] for t in group) >= sum(counts_before[t] for t in group)


@pytest.mark.parametrize("path", SAMPLES, ids=case)
def test_ris_to_csljson_to_ris_keeps_every_field(path: Path) -> None:
    records = read_sample(path)
    csl = bibconv.write(records, "csljson")
    assert csl is not None
    back = bibconv.read(csl, "csljson")
    for before, after in zip(records, back, strict=True):
        assert after.replace(id=before.id) == before
        assert before.id is None or (after.id is not None and after.id.startswith(before.id))
    direct, _ = write(records)
    via_csl, _ = write([b.replace(id=r.id) for b, r in zip(back, records, strict=True)])
    assert via_csl == direct


# --- other programs read our output -----------------------------------------------------------

_RISPY_TAGS = {key: tag for tag, key in rispy.TAG_KEY_MAPPING.items()}


def _rispy_lines(entry: dict[str, object]) -> Counter[tuple[str, str]]:
    lines: Counter[tuple[str, str]] = Counter()
    for key, value in entry.items():
        if key == "unknown_tag":
            assert isinstance(value, dict)
            lines.update((tag, v) for tag, values in value.items() for v in values)
            continue
        for item in value if isinstance(value, list) else [value]:
            lines[(_RISPY_TAGS[key], str(item))] += 1
    return lines


@pytest.mark.parametrize("path", SAMPLES, ids=case)
def test_rispy_reads_our_output_back_equal(path: Path) -> None:
    records = read_sample(path)
    text, _ = write(records)
    entries = rispy.loads(text, enforce_list_tags=False)
    ours = tag_lines(text)
    assert len(entries) == len(records) == len(ours)
    for entry, lines in zip(entries, ours, strict=True):
        assert _rispy_lines(entry) == Counter(lines)


def _mods_people(mods: etree._Element) -> list[tuple[str, set[str]]]:
    """``(family name, every word)`` of each author of a MODS item."""
    ns = {"m": "http://www.loc.gov/mods/v3"}
    people = []
    for name in mods.findall("m:name", ns):
        if name.findtext("m:role/m:roleTerm", namespaces=ns) != "author":
            continue
        parts = name.findall("m:namePart", ns)
        family = [p.text or "" for p in parts if p.get("type") == "family"]
        words = {w.strip(",") for p in parts for w in (p.text or "").split()}
        people.append((family[0] if family else "", words))
    return people


def _same_person(ours: Name, theirs: tuple[str, set[str]]) -> bool:
    # bibutils splits a name without a comma itself ("Catarina Barata" → family "Barata").
    if ours.literal is not None:
        return set(ours.literal.split()) == theirs[1]
    return ours.family_full() == theirs[0]


@pytest.mark.shared
def test_bibutils_reads_our_output() -> None:
    ris2xml = require_tool("ris2xml")
    records = [r for path in SAMPLES for r in read_sample(path)] + [PREPRINT]
    text, _ = write(records)
    done = subprocess.run([ris2xml], input=text.encode("utf-8"), capture_output=True, check=True)
    root = etree.fromstring(done.stdout.lstrip(b"\xef\xbb\xbf"))
    ns = {"m": "http://www.loc.gov/mods/v3"}
    mods_items = root.findall("m:mods", ns)
    assert len(mods_items) == len(records)
    checked = 0
    for record, mods in zip(records, mods_items, strict=True):
        title = " ".join(
            t
            for t in (
                mods.findtext("m:titleInfo/m:title", namespaces=ns),
                mods.findtext("m:titleInfo/m:subTitle", namespaces=ns),
            )
            if t
        )
        if record.title:
            plain = bibconv.latex.strip_markup(record.title)
            assert re.sub(r"[\s:]+", " ", title).strip() == re.sub(r"[\s:]+", " ", plain).strip()
        people = _mods_people(mods)
        assert len(people) == len(record.authors)
        assert all(_same_person(n, p) for n, p in zip(record.authors, people, strict=True))
        issued = mods.findtext("m:originInfo/m:dateIssued", namespaces=ns)
        if record.issued and record.issued.year:
            assert issued is not None
            assert issued.startswith(f"{record.issued.year:04d}")
            month = record.issued.month
            assert month is None or issued.startswith(f"{record.issued.year:04d}-{month:02d}")
        checked += bool(record.title and record.authors and record.issued)
    assert checked >= 20


# --- property: what the writer writes, the reader reads ------------------------------------------

_UPPER, _LOWER = "ABCDEFGHIJKLMNOPRSTUVWZÀÉÖŁŠ", "abcdefghijklmnoprstuvwzàéöłš"
_TEXT = (
    st.text(alphabet=_UPPER + _LOWER + "0123456789&<>:,.?'\"()- ", min_size=1, max_size=40)
    .map(lambda s: re.sub(r" {2,}", " ", s).strip())
    .filter(bool)
)
_WORD = st.builds(
    lambda a, b: a + b, st.sampled_from(_UPPER), st.text(alphabet=_LOWER, min_size=1, max_size=8)
)
_FAMILY = _WORD | st.builds(lambda a, b: f"{a}-{b}", _WORD, _WORD)
_GIVEN = _WORD | st.builds(lambda a, b: f"{a[0]}. {b[0]}.", _WORD, _WORD)
_NAMES = st.one_of(
    st.builds(
        Name,
        family=_FAMILY,
        given=st.none() | _GIVEN,
        non_dropping_particle=st.none() | st.sampled_from(["van", "van der", "de", "de la", "von", "di"]),
        suffix=st.none() | st.sampled_from(["Jr.", "Sr.", "III"]),
    ),
    st.builds(Name, literal=st.lists(_WORD, min_size=1, max_size=4).map(" ".join)),
)


@st.composite
def _dates(draw: st.DrawFn) -> Date:
    year = draw(st.integers(1000, 2999))
    kind = draw(st.sampled_from(["year", "month", "day", "season", "literal"]))
    if kind == "literal":
        return Date(literal=draw(st.sampled_from(["forthcoming", "in press", "n.d.", "Spring term"])))
    if kind == "season":
        return Date(parts=((year,),), season=draw(st.sampled_from(["Spring", "Summer", "Autumn", "Winter"])))
    month = draw(st.integers(1, 12))
    if kind == "month":
        return Date(parts=((year, month),))
    return Date(parts=((year, month, draw(st.integers(1, 28))),))


_ARXIV = st.builds(
    Arxiv,
    id=st.builds(lambda a, b: f"{a:04d}.{b:05d}", st.integers(701, 2912), st.integers(1, 99999))
    | st.builds(
        lambda a, b: f"{a}/{b:07d}",
        st.sampled_from(["hep-th", "math", "cond-mat"]),
        st.integers(9101001, 9912999),
    ),
    version=st.none() | st.integers(1, 12),
    primary_class=st.none() | st.sampled_from(["cs.LG", "math.AG", "hep-th", "stat.ML"]),
    categories=st.lists(st.sampled_from(["cs.LG", "cs.AI", "stat.ML", "math.AG"]), unique=True).map(tuple),
    submitted=st.none() | _dates().filter(lambda d: d.literal is None and d.season is None),
    updated=st.none() | _dates().filter(lambda d: d.literal is None and d.season is None),
    comment=st.none() | _TEXT,
    journal_ref=st.none() | _TEXT,
)
_SAFE_TYPES = sorted(c for c, ty in CSL_TO_TY.items() if TY_TO_CSL[ty] == c)


@st.composite
def _records(draw: st.DrawFn) -> Record:
    arxiv = draw(st.none() | _ARXIV)
    kind = (
        draw(st.sampled_from(["article", "article-journal", "book", "chapter", "report", "thesis"]))
        if arxiv
        else None
    )
    record_type = kind or draw(st.sampled_from(_SAFE_TYPES))
    fields = {"title": escape_markup(draw(_TEXT))}
    for name, strategy in (
        ("container-title", _TEXT),
        ("volume", st.integers(1, 9999).map(str)),
        ("page", st.builds("{}-{}".format, st.integers(1, 999), st.integers(1, 999)) | st.just("e0815")),
        (
            "DOI",
            st.builds(
                "10.{}/{}".format,
                st.integers(1000, 9999),
                st.text(alphabet=_LOWER[:20] + "0.", min_size=3, max_size=9),
            ),
        ),
        ("publisher", _TEXT),
        ("abstract", _TEXT),
        (
            "note",
            st.lists(
                _TEXT.filter(lambda s: not s.lower().startswith(("arxiv", "comment"))), min_size=1, max_size=3
            ).map("\n".join),
        ),
    ):
        if draw(st.booleans()):
            fields[name] = strategy if isinstance(strategy, str) else draw(strategy)
    for name in ("container-title", "publisher", "abstract", "note"):
        if name in fields:
            fields[name] = escape_markup(fields[name])
    if record_type == "book":  # a BOOK's T2 is its series (table.read_back_as; tested in formats/ris)
        fields.pop("container-title", None)
    if arxiv and record_type == "article-journal":
        fields.setdefault("container-title", "Journal")
    names = {
        var: tuple(draw(st.lists(_NAMES, min_size=1, max_size=4)))
        for var in ("author", "editor")
        if draw(st.booleans())
    }
    dates = {"issued": draw(_dates())} if draw(st.booleans()) else {}
    keywords = tuple(escape_markup(k) for k in draw(st.lists(_TEXT, max_size=3)))
    return Record(type=record_type, fields=fields, names=names, dates=dates, keywords=keywords, arxiv=arxiv)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_records(), min_size=1, max_size=3))
def test_written_records_read_back_equal(records: list[Record]) -> None:
    text, diagnostics = write(records)
    assert_spec_clean(text)
    assert diagnostics == []
    assert bibconv.read(text, "ris") == records
    assert len(rispy.loads(text)) == len(records)


def test_markup_that_shows_is_reported_when_ris_drops_it() -> None:
    """Better BibTeX's titles hold <i>, <b> and <sub>: RIS text is plain, so the writer says it drops
    them (once); a nocase span only protects case and is dropped without a word."""
    records = [
        Record(type="book", id="a", fields={"title": "Skizze der Bücher <i>Prouerbia</i>"}),
        Record(type="book", id="b", fields={"title": "St. Germain ms. (g<sub>1</sub>)"}),
        Record(type="book", id="c", fields={"title": 'Notes. <span class="nocase">Collecta</span>'}),
    ]
    text, diagnostics = write(records)
    assert "TI  - Skizze der Bücher Prouerbia\r\n" in text
    assert "TI  - St. Germain ms. (g1)\r\n" in text
    assert [(d.record_id, d.message) for d in diagnostics] == [
        ("a", "RIS text is plain: the markup of 'title' (<i>, <b>, <sup>…) dropped")
    ]
    _, quiet = write(records[2:])
    assert quiet == []
