"""Merging duplicates, sorting and limiting."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bibconv.cli import main
from bibconv.merge import dedupe, identity_keys, merge, sort_records
from bibconv.model import Arxiv, Date, Name, Record

PAU = Name(family="Rodríguez", given="Pau")
LISTING = Record(
    type="article",
    fields={
        "title": "Attention to Mamba: A Recipe for Cross-Architecture Distillation",
        "abstract": "State Space Models (SSMs) such as Mamba have become…",
    },
    names={"author": (Name(family="Moudgil", given="Abhinav"), PAU)},
    dates={"issued": Date(((2026, 4, 17),))},
)
ATOM = Record(
    type="article",
    fields={
        "title": "Attention to Mamba: A Recipe for Cross-Architecture Distillation",
        "abstract": "State Space Models (SSMs) such as Mamba have become a popular alternative.",
    },
    names={"author": (Name(family="Moudgil", given="Abhinav", affiliation=("Apple",)), PAU)},
    dates={"issued": Date(((2026, 4, 17),))},
    arxiv=Arxiv(id="2604.15000", version=1, primary_class="cs.LG"),
)


def test_identity_keys() -> None:
    keys = identity_keys(ATOM)
    assert keys[0] == "arxiv:2604.15000"
    assert keys[-1] == "work:attentiontomambaarecipeforcrossarchitecturedistillation|moudgil|2026"
    doi = Record(fields={"DOI": "https://doi.org/10.48550/ARXIV.2604.15000"})
    assert identity_keys(doi) == ["arxiv:2604.15000"]


def test_listing_and_atom_record_merge_to_the_complete_abstract() -> None:
    notes: list[str] = []
    merged = dedupe([LISTING, ATOM], notes.append)
    assert len(merged) == 1
    assert merged[0].fields["abstract"].endswith("popular alternative.")
    assert merged[0].arxiv == ATOM.arxiv
    assert merged[0].authors[0].affiliation == ("Apple",)
    title = "'Attention to Mamba: A Recipe for Cross-A'"
    assert notes == [f"merged {title} into {title} (same work)"]


def test_a_later_record_can_join_two_works() -> None:
    by_doi = Record(id="a", fields={"DOI": "10.1/x", "title": "One"})
    by_arxiv = Record(id="b", arxiv=Arxiv(id="2101.00001"), fields={"title": "One"})
    both = Record(id="c", arxiv=Arxiv(id="2101.00001"), fields={"DOI": "10.1/X"})
    merged = dedupe([by_doi, by_arxiv, both])
    assert len(merged) == 1
    assert merged[0].id == "a"
    assert merged[0].arxiv is not None


def test_merge_prefers_richer_values() -> None:
    a = Record(type="article", fields={"title": "T"}, dates={"issued": Date(((2020,),))}, keywords=("x",))
    b = Record(
        type="article-journal",
        fields={"title": "T", "volume": "3"},
        dates={"issued": Date(((2020, 5, 1),))},
        keywords=("y", "x"),
    )
    m = merge(a, b)
    assert m.type == "article-journal"
    assert m.fields["volume"] == "3"
    assert m.issued == Date(((2020, 5, 1),))
    assert m.keywords == ("x", "y")


def test_distinct_works_are_kept() -> None:
    other = Record(
        fields={"title": "Something else"}, names={"author": (PAU,)}, dates={"issued": Date(((2026,),))}
    )
    assert len(dedupe([LISTING, other])) == 2


def test_sort_orders() -> None:
    records = [
        Record(id="b", names={"author": (Name(family="Zed"),)}, dates={"issued": Date(((2001,),))}),
        Record(id="a", names={"author": (Name(family="Ángel"),)}, dates={"issued": Date(((2003,),))}),
        Record(id="c", names={"author": (Name(family="Mid"),)}),
    ]
    assert [r.id for r in sort_records(records, "key")] == ["a", "b", "c"]
    assert [r.id for r in sort_records(records, "year")] == ["b", "a", "c"]
    assert [r.id for r in sort_records(records, "author")] == ["a", "c", "b"]
    assert [r.id for r in sort_records(records, "input")] == ["b", "a", "c"]


def test_cli_dedupe_sort_limit() -> None:
    items = [
        {"id": "z", "type": "book", "title": "Zeta", "DOI": "10.1/z", "issued": {"date-parts": [[1999]]}},
        {"id": "a", "type": "book", "title": "Alpha", "issued": {"date-parts": [[2005]]}},
        {"id": "z2", "type": "book", "title": "Zeta", "DOI": "10.1/Z", "volume": "2"},
    ]
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["convert", "-f", "csljson", "-t", "csljson", "--dedupe", "--sort", "key"],
        input=json.dumps(items),
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [i["id"] for i in out] == ["a", "z"]
    assert out[1]["volume"] == "2"
    assert "note: merged 'z2'" in result.stderr
    limited = runner.invoke(
        main, ["convert", "-f", "csljson", "-t", "csljson", "--limit", "1"], input=json.dumps(items)
    )
    assert [i["id"] for i in json.loads(limited.stdout)] == ["z"]
