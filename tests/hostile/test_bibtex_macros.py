"""``@string`` macros that expand to far more than the file holds: macros that double each other,
many macros built from one large one and never used, one large macro used over and over.

Each is refused where it goes over a limit (a bad record naming its line), memory stays small,
and the other entries come through.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from pathlib import Path

import pytest

import bibconv
from bibconv.api import iter_records
from bibconv.errors import Diagnostic, ParseError
from tests.hostile._support import ROOT, assert_memory, broken_input, run_cli

sys.path.insert(0, str(ROOT / "benchmarks"))
from adversarial import doubling_macros as _doubling


def test_macros_that_double_each_other_stop_at_the_limit(tmp_path: Path) -> None:
    text = "\n".join(["@misc{first, title = {First}}", *_doubling(19), "@misc{last, title = m18}"]) + "\n"
    assert len(text) < 1000
    [_, last] = iter_records(text.encode(), "bibtex")
    assert last.fields["title"] == "x" * 2**19  # 524,288 characters, under the limit, expanded on use

    # 60 doublings: 2**60 characters. The 20th is over the limit; so is each macro built from it.
    lines = [
        "@misc{first, title = {First}}",
        *_doubling(60),
        "@misc{last, title = m59}",
        "@misc{end, title = {End}}",
    ]
    source = tmp_path / "double.bib"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    strict = run_cli(["convert", source.name, "-t", "csljson"], tmp_path)
    assert strict.returncode == 1
    assert strict.stderr.splitlines()[0] == (
        "double.bib:21: @string m19: expands to 1,048,576 characters, over the limit of 1,000,000"
    )
    assert_memory(strict, 120)
    lenient = run_cli(["convert", source.name, "-t", "csljson", "--skip-invalid"], tmp_path)
    assert [item["id"] for item in json.loads(lenient.stdout)] == ["first", "end"]
    errors = [line for line in lenient.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 41 + 1  # m19 … m59, and the entry that uses m59
    assert errors[-1] == (
        "double.bib:62: error: field 'title': @string macros expand it to 1,152,921,504,606,846,976"
        " characters, over the limit of 1,000,000 (entry last)"
    )
    assert_memory(lenient, 120)


def test_unused_macros_are_not_expanded(tmp_path: Path) -> None:
    # 12,000 macros of 40,000 characters each (480 million characters in all) from a 345 KB file.
    big = "x" * 20_000
    lines = [f'@string{{big = "{big}"}}'] + [f"@string{{m{n} = big # big}}" for n in range(12_000)]
    lines += ["@misc{only, title = {Only}, note = m11999}"]
    data = ("\n".join(lines) + "\n").encode()
    assert len(data) < 350_000
    source = tmp_path / "unused.bib"
    source.write_bytes(data)
    run = run_cli(["convert", source.name, "-t", "csljson"], tmp_path)
    assert run.returncode == 0, run.stderr
    [item] = json.loads(run.stdout)
    assert item["note"] == big * 2
    assert_memory(run, 120)


def test_a_large_macro_used_over_and_over_runs_out(tmp_path: Path) -> None:
    # A 600-byte file whose macro m18 has 524,288 characters, used by 1,000 entries (half a billion).
    lines = ["@misc{first, title = {First}}", *_doubling(19)]
    lines += [f"@misc{{k{n}, title = m18}}" for n in range(1000)] + ["@misc{last, title = {Last}}"]
    line = len(lines) - 1000  # the first entry that uses m18
    message = (
        r"uses\.bib:{line}: {error}field 'title': @string macros expand to 524,288 characters here, more than"
        r" is left of what they may put into this input's fields \(1,000,000 characters and 4 for each"
        r" character of the values read\) \(entry k{n}\)"
    )
    broken_input(
        tmp_path,
        "uses.bib",
        ("\n".join(lines) + "\n").encode(),
        message.format(line=line + 1, error="", n=1),
        good=3,
        skipped=999,
        error=message.format(line=line + 1, error="error: ", n=1),
        mib=150,
    )


def test_macro_chains_are_walked_without_recursion() -> None:
    lines = ['@string{a0 = "x"}'] + [f'@string{{a{i} = a{i - 1} # "x"}}' for i in range(1, 3000)]
    lines += [f"@string{{b{i} = {f'b{i - 1}' if i else 'a2999'}}}" for i in range(3000)]
    lines.append("@misc{k, title = b2999}")
    diagnostics: list[Diagnostic] = []
    [record] = iter_records("\n".join(lines).encode(), "bibtex", diagnostics=diagnostics)
    assert record.fields["title"] == "x" * 3000
    assert diagnostics == []


@pytest.mark.parametrize("reader", ["bibtex", "biblatex"])
def test_written_back_as_read_with_the_macro_text(reader: str) -> None:
    from bibconv.api import convert

    text = (
        '@string{j = "Journal" # " of " # "Things"}\n@article{k, journal = j # ", Series A", title = {T}}\n'
    )
    out = convert(text.encode(), reader, "bibtex")
    assert "journal = {Journal of Things} # {, Series A}" in out


def test_bibtexparser_libraries_expand_macros_on_use_within_the_limits() -> None:
    """from_bibtexparser expanded every @string eagerly: 60 doublings grew to gigabytes."""
    import bibtexparser

    lines = ["@misc{first, title = {First}}", *_doubling(60), "@misc{uses, title = m18}"]
    lines += ["@misc{last, title = m59}", "@misc{end, title = {End}}"]
    library = bibtexparser.parse_string("\n".join(lines) + "\n")
    diagnostics: list[Diagnostic] = []
    tracemalloc.start()
    try:
        records = bibconv.from_bibtexparser(library, strict=False, diagnostics=diagnostics)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [r.id for r in records] == ["first", "uses", "end"]
    assert records[1].fields["title"] == "x" * 2**19
    errors = [d for d in diagnostics if d.severity == "error"]
    assert len(errors) == 41 + 1  # m19 … m59, and the entry that uses m59
    assert str(errors[0]) == (
        "<input>:21: error: @string m19: expands to 1,048,576 characters, over the limit of 1,000,000"
    )
    assert str(errors[-1]).startswith("<input>:63: error: field 'title': @string macros expand it to")
    assert peak < 64 << 20, f"peak {peak >> 20} MiB"
    with pytest.raises(ParseError, match="@string m19: expands to 1,048,576 characters"):
        bibconv.from_bibtexparser(library)
