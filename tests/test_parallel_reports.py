"""``--jobs``: an input with many reports of every origin (the reader's warnings and skipped lines,
the key assigner's renames, the writer's warnings and its warnings given once) gives the same
diagnostics, equal field by field and in the same order, in one process and in pieces."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest

import bibconv
from bibconv import parallel
from bibconv.cli.diagnostics import kind_of
from bibconv.registry import formats

WRITERS = sorted(name for name, info in formats().items() if info.writer is not None)


def _snapshot_lines() -> str:
    """1,200 arXiv JSONL lines: ids that are none or repeat, version dates in no known form, titles
    holding a control character, and a line that is not JSON after every 17th."""
    lines = []
    for i in range(1200):
        item: dict[str, object] = {"id": str(i) if i % 3 else f"2101.{i:05d}", "title": f"Paper {i}"}
        if i % 5 == 0:
            item["id"] = "dup"
        if i % 7 == 0:
            item["versions"] = [{"version": "v1", "created": "yesterday"}]
        if i % 11 == 0:
            item["title"] = f"Bell \u0007 {i}"
        lines.append(json.dumps(item))
        if i % 17 == 0:
            lines.append('{"id": "broken", "title": ')
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("reports") / "many.jsonl"
    path.write_text(_snapshot_lines(), encoding="utf-8")
    return path


@pytest.mark.parametrize("target", WRITERS)
def test_reports_in_pieces_are_the_serial_reports(snapshot: Path, target: str) -> None:
    serial_reports: list[bibconv.Diagnostic] = []
    serial = bibconv.convert_files([snapshot], target, jobs=1, strict=False, diagnostics=serial_reports)
    reports: list[bibconv.Diagnostic] = []
    out = io.StringIO(newline="")
    assert parallel.convert(
        [str(snapshot)], target, out, jobs=2, strict=False, diagnostics=reports, piece_size=2_000
    )
    assert out.getvalue() == serial
    assert reports == serial_reports
    kinds = Counter(kind_of(d) for d in reports)
    assert kinds["'…' is not an arXiv identifier: kept as the record's id, no arXiv link made of it"] == 880
    assert kinds["a version date is not in the form '…'"] == 172
    assert sum(d.severity == "error" for d in reports) == 71
    assert sum("control character U+0007" in d.message for d in reports) == 110
