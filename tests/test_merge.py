"""Merging duplicates, sorting and limiting."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import bibconv
from bibconv import facts
from bibconv.cli import main
from bibconv.facts import MORE_AUTHORS_NOTE
from bibconv.merge import TRUNCATED_NOTE, dedupe, identity_keys, merge, sort_records
from bibconv.model import Arxiv, Date, Name, Record
from tests.golden import need, sample

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


# --- real data: a listing page and the announcement feed of the same day ---------------------

PAGE_PATH = sample("html/other/luvata_aggregator_2026-08-19_cs.CL.html")
FEED_PATH = sample("rss/luvata_rss2_2026-08-19_cs.CL.xml")


@pytest.mark.shared
def test_real_listing_page_and_feed_merge_into_one_record_per_paper() -> None:
    page = bibconv.read(PAGE_PATH)
    feed = bibconv.read(FEED_PATH, "atom")
    both = {r.arxiv.id for r in page if r.arxiv} & {r.arxiv.id for r in feed if r.arxiv}
    assert both == {"2608.13706", "2604.08525"}
    notes: list[str] = []
    merged = dedupe(page + feed, notes.append)
    assert len(merged) == len(page) + len(feed) - len(both)
    assert len(notes) == len(both)
    assert all(str(PAGE_PATH) in n and str(FEED_PATH) in n and n.endswith("(same arxiv)") for n in notes)
    for record in merged:
        if record.arxiv is not None and record.arxiv.id in both:
            from_feed = next(r for r in feed if r.arxiv and r.arxiv.id == record.arxiv.id)
            assert record.arxiv == from_feed.arxiv  # version, classes, dates: the feed knows them
            assert record.fields["abstract"] == from_feed.fields["abstract"]
            assert record.extra["atom:announce_type"] == from_feed.extra["atom:announce_type"]
            assert record.origin == next(r for r in page if r.arxiv and r.arxiv.id == record.arxiv.id).origin


def test_a_truncated_listing_abstract_is_resolved_and_its_note_dropped() -> None:
    listing = bibconv.read(need("text/seed-listing.txt"))
    cut = next(r for r in listing if facts.notes(r.extra) == [TRUNCATED_NOTE])
    complete = cut.fields["abstract"].rstrip("….") + " and what the listing left out."
    feed_record = cut.replace(fields={"title": cut.fields["title"], "abstract": complete}, extra={})
    (merged,) = dedupe([cut, feed_record])
    assert merged.fields["abstract"] == complete
    assert facts.NOTE_KEY not in merged.extra
    slide = cut.with_fields(note="Seen on a slide")  # the user's note is the work's, bibconv's is not
    kept = dedupe([slide, feed_record])[0]
    assert (kept.fields["note"], facts.NOTE_KEY in kept.extra) == ("Seen on a slide", False)


def test_more_authors_note_is_dropped_when_the_other_record_lists_them_all() -> None:
    listing = bibconv.read(need("text/seed-listing.txt"))[0]
    first = listing.replace(names={"author": listing.authors[:1]}, extra={facts.NOTE_KEY: MORE_AUTHORS_NOTE})
    (merged,) = dedupe([first, listing.replace(extra={})])
    assert merged.authors == listing.authors
    assert facts.NOTE_KEY not in merged.extra
    (alone,) = dedupe([first, first.replace(fields={"title": listing.title})])
    assert facts.notes(alone.extra) == [MORE_AUTHORS_NOTE]


@pytest.mark.shared
def test_cli_dedupe_sort_limit_on_real_inputs() -> None:
    runner = CliRunner()
    args = ["convert", str(PAGE_PATH), str(FEED_PATH), "-t", "csljson", "--dedupe", "--sort", "year"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    page, feed = bibconv.read(PAGE_PATH), bibconv.read(FEED_PATH, "atom")
    assert len(out) == len(page) + len(feed) - 2
    assert result.stderr.count("merged") == 2
    years = [i["issued"]["date-parts"][0][0] for i in out if "issued" in i]
    assert years == sorted(years)
    limited = runner.invoke(main, [*args, "--limit", "5"])
    assert [i["id"] for i in json.loads(limited.stdout)] == [i["id"] for i in out[:5]]


def test_sort_by_key_uses_the_keys_the_writers_make() -> None:
    listing = bibconv.read(need("text/seed-listing.txt"))
    assert all(r.id is None for r in listing)
    written = json.loads(bibconv.write(sort_records(listing, "key"), "csljson") or "")
    keys = [item["id"] for item in written]
    assert keys == sorted(keys)
