"""Size limits: over-large input, fields and name lists fail fast and clearly."""

from __future__ import annotations

import json

import pytest

import bibconv
from bibconv.errors import LimitError
from bibconv.limits import Limits


def test_input_larger_than_the_limit_is_refused() -> None:
    text = json.dumps([{"id": f"k{i}", "type": "book"} for i in range(1000)])
    with pytest.raises(LimitError, match="input is larger than the limit of 1,000 bytes"):
        bibconv.read(text, "csljson", limits=Limits(max_input_bytes=1000))
    assert len(bibconv.read(text, "csljson", limits=Limits(max_input_bytes=len(text)))) == 1000


def test_long_field_and_long_name_list() -> None:
    items = [
        {"id": "long", "type": "book", "title": "x" * 101},
        {"id": "many", "type": "book", "author": [{"family": f"A{i}"} for i in range(11)]},
        {"id": "ok", "type": "book", "title": "fine"},
    ]
    limits = Limits(max_field_chars=100, max_names=10)
    with pytest.raises(LimitError, match="field 'title' has 101 characters, over the limit of 100"):
        bibconv.read(json.dumps(items), "csljson", limits=limits)
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.read(json.dumps(items), "csljson", limits=limits, strict=False, diagnostics=diagnostics)
    assert [r.id for r in records] == ["ok"]
    assert [d.record_id for d in diagnostics] == ["long", "many"]
    assert "'author' has 11 names, over the limit of 10" in str(diagnostics[1])


def test_cli_limit_options(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from bibconv.cli import main

    src = tmp_path / "in.json"
    src.write_text(json.dumps([{"id": "a", "type": "book", "title": "x" * 200}]))
    runner = CliRunner()
    field = runner.invoke(main, ["convert", str(src), "-t", "csljson", "--max-field-size", "100"])
    assert field.exit_code == 1
    assert "field 'title' has 200 characters, over the limit of 100 (entry a)" in field.stderr
    size = runner.invoke(main, ["convert", str(src), "-t", "csljson", "--max-input-size", "100"])
    assert size.exit_code == 1
    assert "input is larger than the limit of 100 bytes" in size.stderr
    ok = runner.invoke(
        main, ["convert", str(src), "-t", "csljson", "--max-input-size", "1K", "--max-names", "5"]
    )
    assert ok.exit_code == 0
    bad = runner.invoke(main, ["convert", str(src), "-t", "csljson", "--max-input-size", "1x"])
    assert bad.exit_code == 2
    assert "is not a size like 1500, 64K, 10M or 2G" in bad.stderr


def test_lone_surrogate_escapes_in_json_skip_their_record() -> None:
    items = (
        '[{"id": "a", "type": "book", "title": "Caf\\udce9"},\n'
        ' {"id": "b", "type": "book", "title": "\\ud83d\\ude00 \\uD800"},\n'
        ' {"id": "ok", "type": "book", "title": "\\ud83d\\ude00"}]'
    )
    diagnostics: list[bibconv.Diagnostic] = []
    records = bibconv.read(items, "csljson", strict=False, diagnostics=diagnostics)
    assert [r.title for r in records] == ["\U0001f600"]
    assert [d.record_id for d in diagnostics] == ["a", "b"]
    assert "invalid utf-8 byte 0xe9" in str(diagnostics[0])
    assert "lone surrogate U+D800 in the record" in str(diagnostics[1])
    line = '{"id": "1111.2012", "title": "Caf\\udce9", "versions": []}\n'
    with pytest.raises(LimitError, match="invalid utf-8 byte 0xe9"):
        bibconv.read(line, "arxiv-jsonl")


@pytest.mark.parametrize("cut", range(1, 6))
def test_surrogate_escape_cut_between_chunks_is_found(cut: int) -> None:
    head = '[{"id": "a", "type": "book", "note": "'
    escape = "\\udce9"
    # The reader takes the text in chunks of 65,536 characters: cut the escape between two.
    text = head + "x" * (65536 - len(head) - cut) + escape + '"}]'
    assert text.index(escape) + cut == 65536
    with pytest.raises(LimitError, match="invalid utf-8 byte 0xe9"):
        bibconv.read(text, "csljson")
