"""The command line: exit codes, stdin/stdout, several inputs, errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bibconv import __version__
from bibconv.cli import main
from tests.golden import sample

SAMPLE = sample("csljson/commonmeta_csl-list.json")
GOOD = '[{"id": "a", "type": "book", "title": "A"}, {"id": "b", "type": "book", "title": "B"}]'
BAD_ITEM = '[{"id": "a", "type": "book", "title": "A"}, {"id": "x", "type": "book", "author": 7}]'


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bibconv", *args],
        input=input,
        capture_output=True,
        text=True,
        check=False,
    )


def test_version_and_help() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output
    for command in ([], ["convert"], ["formats"], ["detect"]):
        help_text = CliRunner().invoke(main, [*command, "--help"]).output
        assert "Usage:" in help_text
    assert "Examples:" in CliRunner().invoke(main, ["convert", "--help"]).output


def test_python_dash_m_entry_point() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"bibconv, version {__version__}"


@pytest.mark.shared
def test_convert_file_to_stdout() -> None:
    result = CliRunner().invoke(main, ["convert", str(SAMPLE), "-t", "csljson"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 17


def test_convert_stdin_with_dash_and_without_input() -> None:
    for args in (["convert", "-", "-t", "csljson"], ["convert", "-t", "csljson"]):
        result = CliRunner().invoke(main, args, input=GOOD)
        assert result.exit_code == 0, result.output
        assert [i["id"] for i in json.loads(result.stdout)] == ["a", "b"]


def test_several_inputs_are_concatenated_in_order(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    first.write_text('[{"id": "one", "type": "book", "title": "1"}]')
    second = tmp_path / "second.json"
    second.write_text(
        '[{"id": "two", "type": "book", "title": "2"}, {"id": "three", "type": "book", "title": "3"}]'
    )
    result = CliRunner().invoke(main, ["convert", str(first), str(second), "-t", "csljson"])
    assert result.exit_code == 0, result.output
    assert [i["id"] for i in json.loads(result.stdout)] == ["one", "two", "three"]


@pytest.mark.shared
def test_output_file_and_format_from_its_extension(tmp_path: Path) -> None:
    out = tmp_path / "out.csl.json"
    result = CliRunner().invoke(main, ["convert", str(SAMPLE), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert len(json.loads(out.read_text(encoding="utf-8"))) == 17


def test_bad_input_exits_1_with_file_and_line_and_no_output(tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    src.write_text(BAD_ITEM)
    out = tmp_path / "out.json"
    out.write_text("previous content")
    result = run("convert", str(src), "-t", "csljson", "-o", str(out))
    assert result.returncode == 1
    assert f"{src}:1" in result.stderr
    assert "Traceback" not in result.stderr
    assert out.read_text() == "previous content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json", "out.json"]


def test_bad_input_to_stdout_writes_nothing() -> None:
    result = run("convert", "-", "-f", "csljson", "-t", "csljson", input=BAD_ITEM)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "<stdin>:1" in result.stderr


def test_skip_invalid_keeps_good_records_reports_and_exits_1() -> None:
    result = run("convert", "-", "-f", "csljson", "-t", "csljson", "--skip-invalid", input=BAD_ITEM)
    assert result.returncode == 1
    assert [i["id"] for i in json.loads(result.stdout)] == ["a"]
    assert "<stdin>:1: error: 'author' must be a list of name objects (entry x)" in result.stderr
    assert result.stderr.splitlines()[-1] == "bibconv: 1 record was skipped"


@pytest.mark.shared
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["convert", str(SAMPLE), "-t", "nosuch"], "'nosuch' is not a format bibconv can write"),
        (
            ["convert", str(SAMPLE), "-f", "nosuch", "-t", "csljson"],
            "'nosuch' is not a format bibconv can read",
        ),
        (["convert", str(SAMPLE)], "give the output format with -t/--to"),
        (["convert", "--bogus"], "No such option"),
        (["convert", "/no/such/file.json", "-t", "csljson"], "/no/such/file.json: no such file"),
    ],
)
def test_usage_errors_exit_2_without_traceback(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_undetectable_input_asks_for_from(tmp_path: Path) -> None:
    src = tmp_path / "mystery.dat"
    src.write_text("nothing bibliographic here\n")
    result = run("convert", str(src), "-t", "csljson")
    assert result.returncode == 2
    assert "pass --from FORMAT" in result.stderr
    assert "Traceback" not in result.stderr


def test_output_equal_to_input_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "refs.json"
    src.write_text(GOOD)
    result = run("convert", str(src), "-t", "csljson", "-o", str(tmp_path / "." / "refs.json"))
    assert result.returncode == 2
    assert "would overwrite the input" in result.stderr
    assert src.read_text() == GOOD


def test_closed_stdout_ends_quietly(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"id": f"k{i}", "type": "book", "title": "T" * 50} for i in range(20000)]))
    proc = subprocess.run(
        f"{sys.executable} -m bibconv convert {big} -t csljson --skip-invalid | head -c 100 >/dev/null",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in proc.stderr
    assert "Broken pipe" not in proc.stderr


def test_formats_lists_reading_and_writing() -> None:
    result = CliRunner().invoke(main, ["formats"])
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if x.startswith("csljson"))
    assert ".json" in line
    assert line.split()[1:3] == ["yes", "yes"]
    assert "json csl csl-json" in line  # its aliases
    assert "bib" in next(x for x in result.output.splitlines() if x.startswith("bibtex")).split()


def test_format_names_take_any_case_and_the_usual_aliases(tmp_path: Path) -> None:
    source = tmp_path / "in.data"
    source.write_text('[{"id": "k", "type": "book", "title": "T", "author": [{"family": "Ng"}]}]')
    outputs = {
        (given, target): CliRunner().invoke(main, ["convert", str(source), "-f", given, "-t", target])
        for given in ("csljson", "json", "CSL", "CSL-JSON")
        for target in ("bibtex", "BibTeX", "bib")
    }
    assert all(result.exit_code == 0 for result in outputs.values())
    assert len({result.output for result in outputs.values()}) == 1
    assert outputs["csljson", "bibtex"].output.startswith("@book{k,")


@pytest.mark.shared
def test_detect_prints_each_format(tmp_path: Path) -> None:
    unknown = tmp_path / "x.dat"
    unknown.write_text("???")
    result = run("detect", str(SAMPLE), str(unknown))
    assert f"{SAMPLE}: csljson" in result.stdout
    assert f"{unknown}: cannot tell the format" in result.stderr
    assert result.returncode == 1
