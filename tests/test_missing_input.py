"""Inputs that are not there or not what they claim: a missing path, a directory, JSON that holds
no CSL items. Each is an error naming the file and what was expected, never an empty result."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import Diagnostic, FormatError, ReadError

PACKAGE_JSON = '{\n  "name": "left-pad",\n  "version": "1.3.0",\n  "license": "WTFPL"\n}\n'


@pytest.mark.parametrize("format", [None, "bibtex", "ris", "csljson"])
def test_a_missing_path_is_an_error_naming_it(format: str | None) -> None:
    with pytest.raises(ReadError, match=r"^refs\.bib: no such file$") as caught:
        bibconv.read("refs.bib", format)
    assert caught.value.span.filename == "refs.bib"


def test_a_missing_path_fails_on_the_first_record_asked_for(tmp_path: Path) -> None:
    records = bibconv.iter_records(tmp_path / "gone.ris")
    with pytest.raises(ReadError, match=r"gone\.ris: no such file"):
        next(records)
    with pytest.raises(ReadError, match="no such file"):
        bibconv.detect(str(tmp_path / "gone.ris"))


def test_a_directory_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(ReadError, match="is a directory"):
        bibconv.read(str(tmp_path), "bibtex")


@pytest.mark.parametrize(
    ("text", "format", "count"),
    [
        ("", "bibtex", 0),
        ("@article{k, title = {T}}", "bibtex", 1),
        ('[{"id": "a", "type": "book", "title": "T"}]', "csljson", 1),
        ('  {"title": "T"}', "csljson", 1),
        ("TY  - BOOK\nER  - ", "ris", 1),
    ],
)
def test_strings_that_are_text(text: str, format: str, count: int) -> None:
    """A ``str`` that is empty, holds a line break or starts like JSON, BibTeX or XML is text."""
    assert len(bibconv.read(text, format)) == count


def test_one_line_text_in_another_format_goes_as_bytes() -> None:
    assert bibconv.read(b"TY  - BOOK\nER  - ", "ris")[0].type == "book"
    with pytest.raises(ReadError, match="no such file"):
        bibconv.read("TY  - BOOK", "ris")


def test_json_without_csl_items_is_not_detected_as_csl_json(tmp_path: Path) -> None:
    path = tmp_path / "package.json"
    path.write_text(PACKAGE_JSON, encoding="utf-8")
    with pytest.raises(FormatError, match=r"package\.json: it is JSON, but holds no CSL-JSON items"):
        bibconv.read(path)


@pytest.mark.parametrize(
    "text",
    [PACKAGE_JSON, '[{"name": "a"}, {"name": "b"}]', '{"type": "module", "version": "2"}', "[{}]"],
)
def test_json_without_csl_items_is_an_error_when_read_as_csl_json(text: str) -> None:
    with pytest.raises(ReadError, match="not a CSL-JSON item: expected an object with an 'id', a CSL 'type'"):
        bibconv.read(text.encode(), "csljson")
    diagnostics: list[Diagnostic] = []
    assert bibconv.read(text.encode(), "csljson", strict=False, diagnostics=diagnostics) == []
    assert diagnostics
    assert {d.severity for d in diagnostics} == {"error"}


@pytest.mark.parametrize(
    "item", ['{"title": "T"}', '{"id": 7}', '{"type": "book"}', '{"issued": {"raw": "2017"}}']
)
def test_items_with_a_csl_variable_an_id_or_a_type_are_csl(item: str) -> None:
    assert bibconv.detect(f"[{item}]") == "csljson"
    assert len(bibconv.read(f"[{item}]", "csljson")) == 1


def _bibconv(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bibconv", *args], capture_output=True, text=True, check=False
    )


def test_package_json_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "package.json"
    path.write_text(PACKAGE_JSON, encoding="utf-8")
    guessed = _bibconv("convert", str(path), "-t", "ris")
    assert guessed.returncode != 0
    assert "TY  -" not in guessed.stdout
    assert "holds no CSL-JSON items" in guessed.stderr
    told = _bibconv("convert", "--from", "csljson", str(path), "-t", "ris")
    assert (told.returncode, told.stdout) == (1, "")
    assert f"{path}:1: not a CSL-JSON item" in told.stderr
    assert "Traceback" not in guessed.stderr + told.stderr
