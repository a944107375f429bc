"""The command line as a careful user meets it: usage errors name the valid choices, an input that
gives no record is an error naming it (a warning with --skip-invalid), never a silent empty result."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bibconv.cli.options import KEY_FORMATS
from bibconv.keys import KEY_FORMATS as KEYS_KEY_FORMATS

NUMBERED = "fixtures/text/read/numbered_en.txt"


def bibconv(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bibconv", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_an_unknown_key_format_is_a_usage_error_naming_the_choices() -> None:
    done = bibconv("convert", NUMBERED, "-t", "bibtex", "--key-format", "foo")
    assert (done.returncode, done.stdout) == (2, "")
    assert "'foo' is not one of 'authyeartitle', 'authyear', 'arxiv', 'bbt', 'id'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_help_shows_the_key_formats() -> None:
    assert KEY_FORMATS == KEYS_KEY_FORMATS
    assert "[authyeartitle|authyear|arxiv|bbt|id]" in bibconv("convert", "--help").stdout


@pytest.mark.parametrize(
    ("choice", "key"), [("BBT", "rodriguezSpeculativeDecodingTree2026"), ("authyear", "rodriguez2026")]
)
def test_key_formats_in_any_case(choice: str, key: str) -> None:
    assert bibconv("convert", NUMBERED, "-t", "bibtex", "--key-format", choice).stdout.startswith(
        f"@misc{{{key},"
    )


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.bib", "", "the input is empty: no records"),
        ("empty.json", "[]", "no records found in the input"),
        ("comments.bib", "% nothing but a comment\n", "no records found in the input"),
        ("none.html", "<html><body><p>Nothing here</p></body></html>", "no records: no paper listing"),
    ],
)
def test_an_input_without_records_is_an_error(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    done = bibconv("convert", str(path), "-t", "ris")
    assert (done.returncode, done.stdout) == (1, "")
    assert f"{path}" in done.stderr
    assert message in done.stderr
    lenient = bibconv("convert", str(path), "-t", "ris", "--skip-invalid")
    assert lenient.returncode == 0
    assert f"warning: {message}" in lenient.stderr
    assert "Traceback" not in done.stderr + lenient.stderr
