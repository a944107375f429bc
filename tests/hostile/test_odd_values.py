"""Odd option values and odd dates: a usage error naming the valid choices (exit 2), or records
written as each format can hold them — never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bibconv.cli import main

REGRESSIONS = Path(__file__).resolve().parents[1] / "fuzz" / "regressions"
DATES = {
    "csljson": REGRESSIONS / "csljson" / "season_and_out_of_range_date_parts.json",
    "bibtex": REGRESSIONS / "bibtex" / "season_and_out_of_range_dates.bib",
    "ris": REGRESSIONS / "ris" / "season_and_out_of_range_dates.ris",
}
ODD_OPTIONS = [
    (["--key-format", "foo"], "'foo' is not one of 'authyeartitle', 'authyear', 'arxiv', 'bbt', 'id'"),
    (["--key-format", ""], "'' is not one of 'authyeartitle'"),
    (["--key-format", "{author}{year}"], "'{author}{year}' is not one of 'authyeartitle'"),
    (["--key-format", "a" * 5000], "is not one of 'authyeartitle'"),
    (["--sort", "title"], "'title' is not one of 'input', 'key', 'year', 'author'"),
    (["--protect-case", "some"], "'some' is not one of 'none', 'acronyms', 'all'"),
    (["--jobs", "0"], "0 is not in the range x>=1"),
    (["--limit", "-1"], "-1 is not in the range x>=0"),
    (["--max-input-size", "lots"], "'lots' is not a size like 1500, 64K, 10M or 2G"),
    (["--arxiv-date", "latest"], "'latest' is not one of 'v1', 'version'"),
    (["--from", "endnote"], "'endnote' is not a format bibconv can read; choose from arxiv-jsonl, atom,"),
    (["-t", "docx"], "'docx' is not a format bibconv can write; choose from biblatex, bibtex, csljson, ris"),
]


@pytest.mark.parametrize(("args", "said"), ODD_OPTIONS, ids=[" ".join(a)[:30] for a, _ in ODD_OPTIONS])
def test_odd_option_values_are_usage_errors_naming_the_choices(args: list[str], said: str) -> None:
    options = args if "-t" in args else ["-t", "ris", *args]
    result = CliRunner().invoke(main, ["convert", str(DATES["bibtex"]), *options])
    assert result.exit_code == 2, result.output
    assert said in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


@pytest.mark.parametrize("source", sorted(DATES), ids=str)
@pytest.mark.parametrize("target", ["bibtex", "biblatex", "ris", "csljson"])
def test_seasons_and_out_of_range_dates_are_written_by_every_writer(source: str, target: str) -> None:
    result = CliRunner().invoke(main, ["convert", str(DATES[source]), "--from", source, "-t", target])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    written = result.stdout
    if target == "csljson":
        records = len(json.loads(written))
    else:
        records = len(re.findall(r"^TY  - " if target == "ris" else r"^@\w+\{", written, re.MULTILINE))
    expected = {"csljson": 17, "bibtex": 11, "ris": 3}[source]
    assert records == expected
