"""Warnings grouped by kind: the first few of each kind with their file:line, the rest counted, a
closing summary line; --verbose shows all, --report FILE keeps every diagnostic as a JSON line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def many_events(tmp_path: Path) -> Path:
    """3,000 records with the same problem (a type CSL does not have), one a line."""
    items = [json.dumps({"id": f"k{n}", "type": f"kind{n % 7}", "title": f"T{n}"}) for n in range(3000)]
    path = tmp_path / "events.json"
    path.write_text("[\n" + ",\n".join(items) + "\n]\n", encoding="utf-8")
    return path


def bibconv(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bibconv", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_three_thousand_warnings_of_one_kind_are_a_short_list(many_events: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    done = bibconv("convert", str(many_events), "-t", "ris", "--report", str(report))
    assert done.returncode == 0
    lines = done.stderr.splitlines()
    assert len(lines) == 6  # 3 of the kind, the one RIS warning, the count of the rest, the summary
    assert lines[0] == f"{many_events}:item 0: warning: unknown CSL type 'kind0', read as 'document'"
    assert lines[4] == "bibconv: 2,997 more warnings like: unknown CSL type '…', read as '…'"
    assert lines[5].startswith(
        "bibconv: 3,000 records in, 3,000 out, 0 skipped,"
        " 3,001 warnings (3,000 × unknown CSL type '…', read as '…'; 1 ×"
    )
    assert lines[5].endswith(" s")
    kept = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert len(kept) == 3001
    last = next(d for d in kept if d["item"] == 2999)
    assert last == {
        "severity": "warning",
        "kind": "unknown CSL type '…', read as '…'",
        "message": "unknown CSL type 'kind3', read as 'document'",
        "file": str(many_events),
        "line": None,
        "column": None,
        "item": 2999,
        "entry": None,
    }


def test_verbose_shows_every_warning_and_quiet_none(many_events: Path) -> None:
    verbose = bibconv("convert", str(many_events), "-t", "ris", "--verbose")
    assert len(verbose.stderr.splitlines()) == 3001  # every warning; no summary when piped and uncut
    assert bibconv("convert", str(many_events), "-t", "ris", "--quiet").stderr == ""


def test_a_run_hands_its_diagnostics_on_as_they_gather() -> None:
    """The CLI's log settles every SETTLE_EVERY diagnostics: a run of a million warnings holds at most
    that many, and whether an input said why it gave no record still counts those handed on."""
    from bibconv.conversion import SETTLE_EVERY, DiagnosticLog, _mark, _said_why_since
    from bibconv.errors import Diagnostic

    handed: list[list[Diagnostic]] = []
    log = DiagnosticLog(handed.append)
    mark = _mark(log)
    log.extend(Diagnostic(f"warning {n}") for n in range(SETTLE_EVERY - 1))
    assert (handed, len(log)) == ([], SETTLE_EVERY - 1)
    log.append(Diagnostic("bad entry", severity="error"))
    assert ([len(h) for h in handed], len(log)) == ([SETTLE_EVERY], 0)
    assert _said_why_since(log, mark)  # the error was handed on, and still counts
    later = _mark(log)
    log.append(Diagnostic("a warning"))
    assert not _said_why_since(log, later)
    log.append(Diagnostic("no records found on the page", severity="warning"))
    assert _said_why_since(log, later)
    log.hand_on()
    assert [len(h) for h in handed] == [SETTLE_EVERY, 2]
    assert _said_why_since(log, later)
    assert not _said_why_since(log, _mark(log))


def test_warnings_past_the_first_hand_on_are_grouped_and_counted(tmp_path: Path) -> None:
    from bibconv.conversion import SETTLE_EVERY

    count = SETTLE_EVERY * 2 + 500
    path = tmp_path / "ids.jsonl"
    path.write_text("".join(f'{{"id": "{n}", "title": "T"}}\n' for n in range(count)), encoding="utf-8")
    done = bibconv("convert", str(path), "-f", "arxiv-jsonl", "-t", "csljson", "-o", str(tmp_path / "o.json"))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 5, lines  # 3 of the kind, the count of the rest, the summary
    kind = "'…' is not an arXiv identifier: kept as the record's id, no arXiv link made of it"
    assert lines[3] == f"bibconv: {count - 3:,} more warnings like: {kind}"
    assert lines[4].startswith(f"bibconv: {count:,} records in, {count:,} out, 0 skipped, {count:,} warnings")
