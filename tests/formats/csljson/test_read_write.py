"""CSL-JSON: every real sample reads, writes back valid against the official schema, nothing lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import jsonschema
import pytest

import bibconv
from bibconv import csl
from bibconv.errors import ParseError, ReadError
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.writing import UNWRITABLE_RE
from tests.golden import check_golden, csl_schema, golden, need, samples

SAMPLES = samples("csljson", ".json")


def validate(items: list[dict[str, Any]]) -> None:
    jsonschema.Draft7Validator(csl_schema()).validate(items)


def normalized(item: dict[str, Any]) -> dict[str, Any]:
    """What a faithful CSL-JSON round trip must keep: number parts as numbers, numbers as text,
    unknown keys under ``custom``, keywords split on commas, no control characters."""
    out: dict[str, Any] = {}
    custom = dict(item.get("custom") or {})
    for key, value in item.items():
        if key == "custom":
            continue
        if key in csl.DATE_VARS and isinstance(value, dict):
            value = dict(value)
            if "date-parts" in value:
                value["date-parts"] = [[int(n) for n in part] for part in value["date-parts"]]
            if "season" in value:
                value["season"] = str(value["season"])
            out[key] = value
        elif key in csl.NUMBER_VARS or key == "id":
            out[key] = str(value)
        elif key == "keyword":
            out[key] = ", ".join(k.strip() for k in value.split(",") if k.strip())
        elif key in csl.TEXT_VARS or key in csl.NAME_VARS or key == "type":
            out[key] = value
        else:
            custom[key] = value
    if custom:
        out["custom"] = custom
    return cast(dict[str, Any], _writable(out))


def _writable(value: Any) -> Any:
    """Text without what no output holds (the C1 controls of mojibake: ``Ã¢Â\x80Â\x98``)."""
    if isinstance(value, str):
        return UNWRITABLE_RE.sub(lambda m: " " if m[0].isspace() else "", value)
    if isinstance(value, list):
        return [_writable(v) for v in value]
    if isinstance(value, dict):
        return {k: _writable(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_real_samples_round_trip_valid_and_complete(path: Path) -> None:
    original = json.loads(path.read_text(encoding="utf-8"))
    records = bibconv.read(path)
    assert len(records) == len(original)
    written = json.loads(bibconv.write(records, "csljson") or "")
    validate(written)
    for before, after in zip(original, written, strict=True):
        expected = normalized(before)
        expected.pop("citation-key", None)
        after = dict(after)
        assert after.pop("citation-key", None) in (None, before.get("citation-key"), str(before["id"]))
        assert after == expected


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_golden_output(path: Path, update_golden: bool) -> None:
    out = bibconv.write(bibconv.read(path), "csljson")
    assert out is not None
    check_golden(golden(path, "write", ".csl.json"), out, update_golden)


def test_output_reproduces_its_own_input() -> None:
    path = need("csljson/commonmeta_csl-list.json")
    once = bibconv.write(bibconv.read(path), "csljson")
    assert once is not None
    assert bibconv.write(bibconv.read(once), "csljson") == once


def test_categories_stay_where_the_schema_has_them() -> None:
    """``categories`` (DataCite's subjects, as manubot's CSL-JSON has them) is a key of the schema:
    it is written back beside the variables, not moved into ``custom``; other keys go there."""
    item = {"id": "a", "type": "thesis", "title": "T", "categories": ["Diseases", "80306 Open Software"]}
    text = bibconv.write(bibconv.read(json.dumps([{**item, "short_url": "https://doi.org/b2nz"}])), "csljson")
    assert text is not None
    out = json.loads(text)
    validate(out)
    assert out[0]["categories"] == item["categories"]
    assert out[0]["custom"] == {"short_url": "https://doi.org/b2nz"}


def test_zotero_date_parts_with_string_year() -> None:
    records = bibconv.read(need("csljson/commonmeta_csl-list.json"))
    assert records[0].dates["accessed"] == Date(((2016, 12, 23),))
    assert records[0].names["author"][0] == Name(family="Tenopir", given="Carol")
    assert [r.extra["csl:license"] for r in records if "csl:license" in r.extra] == [
        "2016, Creative Approaches to Research"
    ]


def test_single_object_and_json_lines() -> None:
    one = bibconv.read('{"id": "a", "type": "book", "title": "One"}', "csljson")
    assert [r.title for r in one] == ["One"]
    lines = '{"id": "a", "type": "book", "title": "A"}\n{"id": "b", "type": "book", "title": "B"}\n'
    assert [r.id for r in bibconv.read(lines, "csljson")] == ["a", "b"]


def test_empty_array_gives_no_records() -> None:
    assert bibconv.read("[]", "csljson") == []
    assert bibconv.read("  \n", "csljson") == []


def test_unknown_type_is_kept_and_reported() -> None:
    diagnostics: list[bibconv.Diagnostic] = []
    record = bibconv.read(
        '[{"id": "a", "type": "preprint", "title": "T"}]', "csljson", diagnostics=diagnostics
    )[0]
    assert record.type == "document"
    assert record.extra["csl:type"] == "preprint"
    assert "unknown CSL type 'preprint'" in str(diagnostics[0])
    item = json.loads(bibconv.write([record], "csljson") or "")[0]
    assert item["custom"]["type"] == "preprint"
    validate([item])


def test_zotero_arxiv_export_becomes_an_arxiv_block() -> None:
    zotero = {
        "id": 5,
        "type": "article",
        "note": "arXiv:2306.13455 [cs]",
        "number": "arXiv:2306.13455",
        "publisher": "arXiv",
        "title": "DreamEditor: Text-Driven 3D Scene Editing with Neural Fields",
        "URL": "http://arxiv.org/abs/2306.13455",
        "author": [{"family": "Zhuang", "given": "Jingyu"}],
        "issued": {"date-parts": [["2023", 6, 29]]},
    }
    record = bibconv.read(json.dumps([zotero]), "csljson")[0]
    assert record.arxiv == Arxiv(id="2306.13455")
    assert "number" not in record.fields
    assert "publisher" not in record.fields
    item = json.loads(bibconv.write([record], "csljson") or "")[0]
    assert item["number"] == "arXiv:2306.13455"
    assert item["publisher"] == "arXiv"
    assert item["DOI"] == "10.48550/arXiv.2306.13455"
    assert item["URL"] == "http://arxiv.org/abs/2306.13455"  # the URL as given


def test_an_arxiv_url_is_dropped_only_when_it_is_the_one_written_back() -> None:
    item = {
        "id": "k",
        "type": "article",
        "number": "arXiv:2306.13455",
        "URL": "https://arxiv.org/abs/2306.13455",
    }
    record = bibconv.read(json.dumps([item]), "csljson")[0]
    assert "URL" not in record.fields
    for given in ("http://arxiv.org/abs/2306.13455", "https://arxiv.org/pdf/2306.13455v2"):
        record = bibconv.read(json.dumps([{**item, "URL": given}]), "csljson")[0]
        assert record.fields["URL"] == given
        assert json.loads(bibconv.write([record], "csljson") or "")[0]["URL"] == given


def test_arxiv_block_and_affiliations_survive_a_round_trip() -> None:
    record = Record(
        type="article",
        id="rodriguez2026attention",
        fields={"title": "Attention to $\\alpha$", "DOI": "10.1000/journal.1"},
        names={
            "author": (Name(family="Rodríguez", given="Pau", affiliation=("Apple",)), Name(literal="ATLAS"))
        },
        dates={"issued": Date(((2026, 4, 17),))},
        keywords=("attention", "mamba"),
        arxiv=Arxiv(
            id="2604.12345",
            version=2,
            primary_class="cs.LG",
            categories=("cs.LG", "cs.AI"),
            submitted=Date(((2026, 4, 17),)),
            updated=Date(((2026, 4, 20),)),
            comment="12 pages",
            journal_ref="J. Things 1 (2026) 1-12",
        ),
        extra={"bibtex:howpublished": "online", "ris:M3": ["a", "b"]},
    )
    text = bibconv.write([record], "csljson")
    assert text is not None
    item = json.loads(text)[0]
    validate([item])
    assert item["DOI"] == "10.1000/journal.1"
    assert item["custom"]["bibconv:arxiv"]["version"] == 2
    assert bibconv.read(text) == [record]


def test_broken_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[\n  {"id": "a", "type": "book"},\n  {"id": "b", "type": "book",,}\n]\n')
    with pytest.raises(ParseError) as info:
        bibconv.read(path)
    assert str(info.value).startswith(f"{path}:3:")
    assert "invalid JSON" in str(info.value)


def test_truncated_array_is_an_error_after_the_good_items(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text('[{"id": "a", "type": "book", "title": "A"},\n{"id": "b", "type": "bo')
    records = bibconv.iter_records(path)
    assert next(records).id == "a"
    with pytest.raises(ParseError, match=r"cut\.json:2:"):
        next(records)


def test_lenient_mode_skips_bad_items_and_keeps_the_rest() -> None:
    text = '[{"id": "a", "type": "book", "author": "not a list"}, {"id": "b", "type": "book"}]'
    with pytest.raises(ReadError, match="'author' must be a list"):
        bibconv.read(text, "csljson")
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.read(text, "csljson", strict=False, diagnostics=diagnostics)
    assert [r.id for r in records] == ["b"]
    assert diagnostics[0].severity == "error"
    assert diagnostics[0].record_id == "a"


def test_records_carry_their_item_index(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    path.write_text('[\n{"id": "a", "type": "book"},\n{"id": "b", "type": "book"}\n]')
    spans = [r.origin for r in bibconv.read(path)]
    assert [(s.line, s.index) for s in spans if s] == [(2, 0), (3, 1)]


def test_missing_keys_are_generated_and_unique() -> None:
    records = [
        Record(
            type="book",
            fields={"title": "The Art of Computer Programming"},
            names={"author": (Name(family="Knuth", given="D."),)},
            dates={"issued": Date(((1968,),))},
        ),
        Record(
            type="book",
            fields={"title": "The Art of Computer Programming"},
            names={"author": (Name(family="Knuth", given="D."),)},
            dates={"issued": Date(((1968,),))},
        ),
    ]
    items = json.loads(bibconv.write(records, "csljson") or "")
    ids = [item["id"] for item in items]
    assert len(set(ids)) == 2
    assert all(i.startswith("knuth1968art") for i in ids)
    validate(items)


@pytest.mark.parametrize(
    "note",
    ["$x^2$ and $$y$$", "${~\\$\\mathrm{a}$ after", "}\t~_{é${~\\$x{y}$", "cost \\$5 and $a\\$b$"],
)
def test_math_in_its_nocase_span_is_a_fixed_point(note: str) -> None:
    """The nocase span the writer puts around math is taken off on reading, escaped dollars inside too."""
    record = Record(id="a", type="article-journal", fields={"title": "T", "note": note})
    once = bibconv.write([record], "csljson") or ""
    back = bibconv.read(once, "csljson")
    assert back[0].fields["note"] == note
    assert bibconv.write(back, "csljson") == once


def test_name_keys_a_name_cannot_hold_are_reported_and_institutions_stay_whole() -> None:
    """Juris-M marks an institution with ``isInstitution`` (read as a literal name, never split);
    the schema's ``static-ordering`` and ``comma-suffix`` and Juris-M's transliterations (``multi``)
    are dropped with a warning, an empty ``multi`` without one."""
    item = {
        "id": "a",
        "type": "review-book",
        "title": "T",
        "reviewed-author": [
            {"family": "Hermano Vianna", "given": "", "isInstitution": 1, "multi": {"_key": {}}}
        ],
        "author": [
            {
                "family": "Mao",
                "given": "Zedong",
                "static-ordering": True,
                "multi": {"main": "zh", "_key": {}},
            },
            {"family": "Doe", "given": "J.", "suffix": "Jr.", "comma-suffix": True},
        ],
    }
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.read(json.dumps([item]), "csljson", strict=False, diagnostics=diagnostics)
    assert records[0].names["reviewed-author"] == (Name(literal="Hermano Vianna"),)
    assert records[0].names["author"] == (
        Name(family="Mao", given="Zedong"),
        Name(family="Doe", given="J.", suffix="Jr."),
    )
    assert [d.message for d in diagnostics] == [
        "'author': the name keys 'static-ordering', 'multi', 'comma-suffix' have no place in a bibconv name;"
        " dropped"
    ]
