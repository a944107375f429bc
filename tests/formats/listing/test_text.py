"""The plain-text listing reader: the seed listing, other shapes, sniffing, errors, streaming."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv import facts
from bibconv.errors import ReadError
from bibconv.formats.listing.common import TRUNCATED_NOTE, Entry, clean_space, parse_byline, title_record
from bibconv.formats.listing.text import TextListingReader
from bibconv.model import Record, SourceSpan
from tests.golden import FIXTURES, check_golden, golden, sample

SEED = sample("text/seed-listing.txt")
OWN = sorted((FIXTURES / "text" / "read").glob("*.txt"))
LISTINGS = [SEED, *OWN]


def _csl(path: Path) -> str:
    result = bibconv.write(bibconv.read(path, "text"), "csljson")
    assert result is not None
    return result


@pytest.mark.parametrize("path", LISTINGS, ids=lambda p: p.name)
def test_golden_csljson(path: Path, update_golden: bool) -> None:
    check_golden(golden(path, "read", ".csl.json"), _csl(path), update_golden)


@pytest.mark.shared
@pytest.mark.parametrize(("target", "suffix"), [("bibtex", ".bib"), ("ris", ".ris")])
def test_seed_golden_through_the_writers(target: str, suffix: str, update_golden: bool) -> None:
    result = bibconv.write(bibconv.read(SEED), target)
    assert result is not None
    check_golden(golden(SEED, "write", suffix), result, update_golden)
    assert TRUNCATED_NOTE in result  # the cut abstracts say so in every output format


@pytest.mark.shared
def test_seed_through_the_command_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from bibconv.cli import main

    out = tmp_path / "seed.bib"
    result = CliRunner().invoke(main, ["convert", str(SEED), "-t", "bibtex", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.count("@misc{") == 25  # papers of no venue: no style asks for their journal
    assert "Rodr{\\'{i}}guez, Pau" in text  # classic BibTeX: TeX escapes
    assert "Gon{\\c{c}}alves, Nuno" in text
    keys = [line.split("{", 1)[1].rstrip(",") for line in text.splitlines() if line.startswith("@")]
    assert len(set(keys)) == 25


@pytest.mark.shared
def test_seed_is_detected_as_text_by_content() -> None:
    assert bibconv.detect(SEED) == "text"
    assert bibconv.detect(SEED.read_bytes()) == "text"


@pytest.mark.shared
def test_seed_gives_every_paper() -> None:
    records = bibconv.read(SEED)
    assert len(records) == 25
    titles = [r.title for r in records]
    assert titles[0] == (
        "Taming Asynchronous CPU-GPU Coupling for Frequency-aware Latency Estimation on Mobile Edge"
    )
    assert titles[-1] == "Tessera: Unlocking Heterogeneous GPUs through Kernel-Granularity Disaggregation"
    assert len(set(titles)) == 25
    dates = [r.issued.to_edtf() for r in records if r.issued]
    assert len(dates) == 25
    assert (min(dates), max(dates)) == ("2026-04-14", "2026-04-20")
    assert dates == sorted(dates, reverse=True)
    assert all(r.type == "article" and r.authors for r in records)
    assert sum(1 for r in records if r.fields.get("abstract")) == 25


@pytest.mark.shared
def test_seed_decodes_and_splits_tex_names() -> None:
    by_title = {r.title: r for r in bibconv.read(SEED)}
    mamba = by_title["Attention to Mamba: A Recipe for Cross-Architecture Distillation"]
    assert [(n.family, n.given) for n in mamba.authors] == [
        ("Moudgil", "Abhinav"),
        ("Huang", "Ningyuan"),
        ("Dhekane", "Eeshan Gunesh"),
        ("Rodríguez", "Pau"),
        ("Zappella", "Luca"),
        ("Danieli", "Federico"),
    ]
    splash = by_title["AdaSplash-2: Faster Differentiable Sparse Attention"]
    assert (splash.authors[0].family, splash.authors[0].given) == ("Gonçalves", "Nuno")
    assert len(splash.authors) == 7
    assert "$\\alpha$-entmax" in splash.fields["abstract"]
    tensor = by_title["Event Tensor: A Unified Abstraction for Compiling Dynamic Megakernel"]
    assert len(tensor.authors) == 21
    assert tensor.authors[-1].display() == "Tianqi Chen"


@pytest.mark.shared
def test_truncated_abstracts_are_kept_and_noted() -> None:
    records = bibconv.read(SEED)
    first = records[0]
    assert first.fields["abstract"].endswith("(DVFS…")
    assert facts.notes(first.extra) == [TRUNCATED_NOTE]
    cut = [r for r in records if r.fields["abstract"].endswith("…")]
    assert all(facts.notes(r.extra) == [TRUNCATED_NOTE] for r in cut)
    assert not any("note" in r.fields for r in records)  # bibconv's notes are not the work's


@pytest.mark.shared
def test_keys_are_unique_in_the_output() -> None:
    items = json.loads(_csl(SEED))
    keys = [item["id"] for item in items]
    assert len(keys) == 25
    assert len(set(keys)) == 25


def test_other_shapes(fixtures_dir: Path) -> None:
    numbered = bibconv.read(fixtures_dir / "text" / "read" / "numbered_en.txt")
    assert [r.issued.to_edtf() if r.issued else None for r in numbered] == [
        "2026-04-20",
        "2026-03-02",
        "2025",
    ]
    assert numbered[0].arxiv is not None
    assert (numbered[0].arxiv.id, numbered[0].arxiv.version) == ("2604.12345", 2)
    assert [n.family for n in numbered[0].authors] == ["Rodríguez", "Peña"]
    assert [n.given for n in numbered[1].authors] == ["Françoise", "Zoë"]
    assert numbered[1].fields["URL"] == "https://example.org/papers/k-sparse"
    assert numbered[1].extra == {facts.NOTE_KEY: TRUNCATED_NOTE}
    assert numbered[2].fields["DOI"] == "10.1234/cache.2025.77"
    dashes = bibconv.read(fixtures_dir / "text" / "read" / "dashes_de.txt")
    assert [r.title for r in dashes] == [
        "Verteilte Optimierung auf heterogener Hardware",
        "Energieeffiziente Inferenz",
        "Kompilierung dünnbesetzter Tensorprogramme",
    ]
    assert "Ältere" not in json.dumps([r.to_csl() for r in dashes], ensure_ascii=False)


def test_text_that_is_not_a_listing_is_an_error(fixtures_dir: Path) -> None:
    path = fixtures_dir / "text" / "invalid" / "not_a_listing.txt"
    with pytest.raises(ReadError, match="no listing entries found"):
        bibconv.read(path, "text")
    diagnostics: list[bibconv.errors.Diagnostic] = []
    assert bibconv.read(path, "text", strict=False, diagnostics=diagnostics) == []
    assert "no listing entries" in str(diagnostics[0])
    with pytest.raises(bibconv.errors.FormatError):
        bibconv.detect(path)


@pytest.mark.parametrize(
    "head",
    [
        "<!DOCTYPE html>\n<html><body><ul><li>• A</li></ul></body></html>",
        '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"></feed>',
        "@article{k,\n  title = {T},\n}\n",
        "TY  - JOUR\nTI  - T\nER  - \n",
        '[{"id": "a", "type": "book"}]',
    ],
)
def test_sniff_leaves_other_formats_alone(head: str) -> None:
    assert TextListingReader.sniff(head) == 0.0


@pytest.mark.parametrize(
    ("line", "families", "date"),
    [
        ("Ada Lovelace, Alan Turing · 20 avril 2026", ["Lovelace", "Turing"], "2026-04-20"),
        ("Ada Lovelace — April 20, 2026", ["Lovelace"], "2026-04-20"),
        ("Ada Lovelace and Alan Turing (2 March 2026)", ["Lovelace", "Turing"], "2026-03-02"),
        ("Ada Lovelace | 2026", ["Lovelace"], "2026"),
        ("20. April 2026", [], "2026-04-20"),
        ("Ada Lovelace, Alan Turing", ["Lovelace", "Turing"], None),
    ],
)
def test_bylines(line: str, families: list[str], date: str | None) -> None:
    byline = parse_byline(line)
    assert byline is not None
    assert [n.family for n in byline.authors] == families
    assert (byline.date.to_edtf() if byline.date else None) == date


@pytest.mark.parametrize("line", ["We study the quantum dynamics of qubits.", "Results in 2025 were good"])
def test_sentences_are_not_bylines(line: str) -> None:
    assert parse_byline(line) is None


def test_records_stream_before_the_input_ends() -> None:
    def lines() -> Iterator[str]:
        for number in range(5000):
            yield f"• Paper number {number}\n\n  Ada Lovelace · 20 avril 2026\n\n  An abstract.\n\n"
        raise RuntimeError("the reader read the whole input before giving the first record")

    records = bibconv.iter_records(lines(), "text")
    assert next(records).title == "Paper number 0"
    assert next(records).title == "Paper number 1"


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéü", min_size=2, max_size=9)
_NAME = st.tuples(_WORD, _WORD).map(lambda p: f"{p[0].capitalize()} {p[1].capitalize()}")


@settings(max_examples=40, deadline=None)
@given(
    entries=st.lists(
        st.tuples(
            st.lists(_WORD, min_size=2, max_size=8).map(lambda w: " ".join(w).capitalize()),
            st.lists(_NAME, min_size=1, max_size=4),
            st.dates(min_value=datetime.date(1990, 1, 1), max_value=datetime.date(2099, 12, 31)),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_generated_listings_read_back(entries: list[tuple[str, list[str], object]]) -> None:
    from babel.dates import format_date

    text = "Derniers papiers\n\n" + "".join(
        f"• {title}\n\n  {', '.join(names)} · {format_date(day, 'long', locale='fr')}\n\n  Un résumé.\n\n"
        for title, names, day in entries
    )
    records = bibconv.read(text.encode("utf-8"), "text")
    assert [r.title for r in records] == [title for title, _, _ in entries]
    assert [[n.display() for n in r.authors] for r in records] == [names for _, names, _ in entries]
    assert [r.issued.to_edtf() if r.issued else None for r in records] == [
        day.isoformat()
        for _, _, day in entries  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize(
    "title",
    [
        "T12345",
        "  A   title\twith  spaces ",
        "",
        "Fish & <chips>",
        r"Pau Rodr\'iguez and $\alpha$-entmax",
        "{DNA} in the set {1, 2}",
        "CROCI -- An analysis of ``things''",
        "x" * 5000,
    ],
)
def test_a_title_alone_is_the_record_an_entry_of_it_makes(title: str) -> None:
    """The reader's direct route for an entry that is a title alone gives what the general one gives."""
    span = SourceSpan("l.txt", 3)
    fast, general = title_record(title, span), Entry(title=clean_space(title)).to_record(span)
    assert fast == general
    assert (type(fast), type(fast.fields), fast.origin) == (Record, type(general.fields), general.origin)
