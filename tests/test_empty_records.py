"""A record with nothing in it (an RIS record of only ``TY`` and ``ER``, a CSL item of only an id)
is skipped by every writer with a warning naming where it came from: an entry with no field is one
biber stops on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import Diagnostic
from bibconv.model import Record
from bibconv.registry import formats, has_content
from tests.tools import require_tool

EMPTY_RIS = b"TY  - JOUR\nER  - \n\nTY  - JOUR\nTI  - Kept\nER  - \n"
WRITERS = sorted(name for name, info in formats().items() if info.writer is not None)


@pytest.mark.parametrize("target", WRITERS)
def test_every_writer_skips_a_record_with_no_field(target: str) -> None:
    diagnostics: list[Diagnostic] = []
    records = bibconv.read(EMPTY_RIS, "ris")
    out = bibconv.write(records, target, diagnostics=diagnostics)
    assert out is not None
    assert "Kept" in out
    assert [bibconv.read(out.encode(), target)[0].title] == ["Kept"]
    assert [str(d) for d in diagnostics] == ["<input>:1: warning: the record has no field to write; skipped"]


@pytest.mark.parametrize(
    ("record", "content"),
    [
        (Record(type="book", id="k"), False),
        (Record(type="book", id="k", fields={"title": "T"}), True),
        (Record(type="book", extra={"bibtex:howpublished": "by hand"}), True),
        (Record(keywords=("a",)), True),
    ],
)
def test_what_counts_as_content(record: Record, content: bool) -> None:
    assert has_content(record) is content


def test_an_id_alone_is_skipped_when_writing_csl_json() -> None:
    diagnostics: list[Diagnostic] = []
    out = bibconv.write(bibconv.read('[{"id": "x"}]', "csljson"), "csljson", diagnostics=diagnostics)
    assert out == "[]\n"
    assert [d.record_id for d in diagnostics] == ["x"]


def test_biber_reads_what_an_empty_ris_record_becomes(tmp_path: Path) -> None:
    biber = require_tool("biber")
    source = tmp_path / "in.ris"
    source.write_bytes(EMPTY_RIS)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bibconv",
            "convert",
            str(source),
            "-t",
            "biblatex",
            "-o",
            str(tmp_path / "r.bib"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{source}:1: warning: the record has no field to write; skipped" in done.stderr
    assert "anon," not in (tmp_path / "r.bib").read_text(encoding="utf-8")
    checked = subprocess.run(
        [
            biber,
            "--tool",
            "--validate-datamodel",
            "--output-file",
            str(tmp_path / "out.bib"),
            str(tmp_path / "r.bib"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ERROR" not in checked.stdout + checked.stderr
