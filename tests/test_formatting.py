"""Formatted references: goldens for every style and output, valid HTML and Markdown, the CLI."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import bibconv
from bibconv import latex
from bibconv.cli import main
from bibconv.formatting import OUTPUTS, STYLES
from bibconv.model import Name, Record
from tests.golden import check_golden, golden, sample

SEED = sample("text/seed-listing.txt")
MARKUP = sample("bibtex/bbt_export_markup_small-caps_superscript_italics_301.biblatex")
XAMPL = sample("bibtex/xampl.bib")
ARXIV = sample("atom/arxivpy2026_id_list_0808.05394_1707.08567.xml")
SUFFIX = {"text": "txt", "html": "html", "markdown": "md", "latex": "tex"}
CASES = [
    *[(SEED, "plain", output) for output in OUTPUTS],
    *[(SEED, style, "text") for style in STYLES if style != "plain"],
    (XAMPL, "unsrt", "text"),
    (XAMPL, "alpha", "html"),
    (MARKUP, "plain", "html"),
    (MARKUP, "plain", "markdown"),
    (MARKUP, "plain", "latex"),
    (ARXIV, "unsrtalpha", "text"),
]
_PRIVATE_RE = re.compile("[\U000f0000-\U000fffff]")


def _golden(path: Path, style: str, output: str) -> Path:
    return golden(path, "write", f".{style}.{SUFFIX[output]}")


@pytest.mark.parametrize(
    ("path", "style", "output"), CASES, ids=lambda v: v.name if isinstance(v, Path) else str(v)
)
def test_golden(path: Path, style: str, output: str, update_golden: bool) -> None:
    text = bibconv.format(bibconv.read(path), style, output)
    assert not _PRIVATE_RE.search(text)
    check_golden(_golden(path, style, output), text, update_golden)


@pytest.mark.shared
def test_seed_listing_plain_text_is_25_readable_references() -> None:
    text = bibconv.format(bibconv.read(SEED), "plain", "text")
    lines = text.splitlines()
    assert len(lines) == 25
    assert [line.split("]")[0] for line in lines] == [f"[{n}" for n in range(1, 26)]
    assert not re.search(r"[\\{}$]", text)  # no TeX left
    assert unicodedata.is_normalized("NFC", text)
    assert any("Pau Rodríguez" in line for line in lines)
    assert any(line.startswith("[4] Nuno Gonçalves, Hugo Pitorro") for line in lines)
    assert "Taming asynchronous CPU-GPU coupling" in text  # sentence case, as plain.bst prints; acronyms kept
    assert "PipeLive: Efficient live in-place" in text  # a capital after ": " is kept, as in BibTeX


class _Html(HTMLParser):
    """A strict check: every element closed in order; the text of each <dd>, links' targets."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.chunks: list[list[str]] = []
        self.hrefs: list[str] = []
        self.tags: list[str] = []
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag in ("dd", "p", "br"):
            self.chunks.append([])
        if tag == "a":
            self.hrefs.append(dict(attrs)["href"] or "")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in self.VOID, f"<{tag} /> is not a void element"
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, f"</{tag}> closes nothing"
        opened = self.stack.pop()
        assert opened == tag, f"</{tag}> closes <{opened}>"

    def handle_data(self, data: str) -> None:
        if self.chunks and self.stack and self.stack[-1] not in ("dt", "title"):
            self.chunks[-1].append(data)

    def texts(self) -> list[str]:
        return [_words("".join(chunk)) for chunk in self.chunks if "".join(chunk).strip()]


def _words(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def _entries(text_output: str) -> list[str]:
    return [_words(line.split("] ", 1)[1]) for line in text_output.splitlines()]


@pytest.mark.shared
@pytest.mark.parametrize("path", [SEED, MARKUP, XAMPL, ARXIV], ids=lambda p: p.name)
def test_html_is_valid_and_says_what_the_text_says(path: Path) -> None:
    records = bibconv.read(path)
    page = bibconv.format(records, "plain", "html")
    checker = _Html()
    checker.feed(page)
    checker.close()
    assert checker.doctype == "DOCTYPE html"
    assert checker.stack == []
    assert checker.texts() == _entries(bibconv.format(records, "plain", "text"))
    assert all(href.startswith("https://") for href in checker.hrefs)


@pytest.mark.parametrize("path", [SEED, MARKUP, XAMPL, ARXIV], ids=lambda p: p.name)
def test_markdown_renders_to_what_the_text_says(path: Path) -> None:
    records = bibconv.read(path)
    rendered = MarkdownIt("commonmark").render(bibconv.format(records, "plain", "markdown"))
    checker = _Html()
    checker.feed(rendered)
    checker.close()
    assert checker.stack == []
    labelled = [_words(line) for line in bibconv.format(records, "plain", "text").splitlines()]
    assert checker.texts() == labelled


@pytest.mark.shared
def test_markup_reaches_each_output() -> None:
    records = bibconv.read(MARKUP)
    assert "<i>éclairées</i>" in bibconv.format(records, "plain", "html")
    assert "<sup>e</sup>" in bibconv.format(records, "plain", "html")
    assert "*amici curiae*" in bibconv.format(records, "plain", "markdown")
    assert "\\textsc{xii}\\textsuperscript{e}" in bibconv.format(records, "plain", "latex")
    assert "<" not in bibconv.format(records, "plain", "text")


_SPECIALS = st.sampled_from([*"\\{}$~%&#_^'`\"<>*[]()!-,?.:;@=/|", "--", ",,", "?`", "$x^2$", "&amp;"])
_WORDS = st.sampled_from(["Word", "mot", "Rodríguez", "Gonçalves", "Ωμέγα", "中文", "x"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_SPECIALS, _WORDS), min_size=1, max_size=8))
def test_any_characters_come_through(pieces: list[str]) -> None:
    """A note (printed as it is by every style) comes through every output unchanged."""
    value = " ".join(pieces)
    record = Record(
        type="document",
        id="k",
        fields={"title": "T", "note": latex.escape_markup(value)},
        names={"author": (Name(family="Doe", given="Jane"),)},
    )
    text = bibconv.format([record], "plain", "text")
    assert _words(value) in _words(text)
    checker = _Html()
    checker.feed(bibconv.format([record], "plain", "html"))
    assert _words(value) in checker.texts()[0]
    checker = _Html()
    checker.feed(MarkdownIt("commonmark").render(bibconv.format([record], "plain", "markdown")))
    assert _words(value) in checker.texts()[0]


def test_link_targets_cannot_break_out() -> None:
    url = 'https://example.org/a"onmouseover="x"<b>)'
    record = Record(type="webpage", id="k", fields={"title": "T", "URL": url})
    checker = _Html()
    checker.feed(bibconv.format([record], "plain", "html"))
    assert checker.hrefs == [url]
    assert "b" not in checker.tags
    checker = _Html()
    checker.feed(MarkdownIt("commonmark").render(bibconv.format([record], "plain", "markdown")))
    assert len(checker.hrefs) == 1
    assert checker.hrefs[0].startswith("https://example.org/a%22onmouseover")
    assert "b" not in checker.tags


@pytest.mark.shared
def test_listing_papers_of_no_venue_are_misc_entries() -> None:
    diagnostics: list[bibconv.Diagnostic] = []
    text = bibconv.format(bibconv.read(SEED), diagnostics=diagnostics)
    assert len(text.splitlines()) == 25
    assert diagnostics == []  # written as @misc: no template is missing a field


def test_entries_without_a_required_field_use_the_misc_template() -> None:
    diagnostics: list[bibconv.Diagnostic] = []
    jane = [bibconv.Name(family="Doe", given="Jane")]
    typed = bibconv.Record(type="article-journal", id="k", title="On Things", author=jane, issued="2020")
    text = bibconv.format([typed], diagnostics=diagnostics)
    assert text.startswith("[1] Jane Doe. On things. 2020.")
    assert [(d.severity, d.message) for d in diagnostics] == [
        ("note", "@article formatted with the misc template (no journal)")
    ]


@pytest.mark.parametrize("output", OUTPUTS)
def test_no_records(output: str) -> None:
    text = bibconv.format([], "plain", output)
    assert text.count("\n") <= 12
    if output == "latex":
        assert text == "\\begin{thebibliography}{0}\n\n\\end{thebibliography}\n"


def test_unknown_style_or_output() -> None:
    with pytest.raises(bibconv.FormatError, match="plain, unsrt, alpha, unsrtalpha"):
        bibconv.format([], "apa")
    with pytest.raises(bibconv.FormatError, match="text, html, markdown, latex"):
        bibconv.format([], "plain", "rtf")


@pytest.mark.shared
def test_cli_prints_the_golden(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["format", str(SEED), "--style", "plain", "-t", "text", "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout == _golden(SEED, "plain", "text").read_text(encoding="utf-8")
    target = tmp_path / "refs.html"
    result = runner.invoke(main, ["format", str(SEED), "-t", "html", "-o", str(target), "-q"])
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8") == _golden(SEED, "plain", "html").read_text(encoding="utf-8")
    result = runner.invoke(main, ["format", "--from", "text", "-q"], input=SEED.read_bytes())
    assert result.stdout.count("\n") == 25


def test_cli_choices_are_the_library_ones() -> None:
    command = main.commands["format"]
    choices = {p.name: list(getattr(p.type, "choices", [])) for p in command.params}
    assert choices["style"] == list(STYLES)
    assert choices["to"] == list(OUTPUTS)


@pytest.mark.shared
def test_cli_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["format", str(SEED), "--style", "apa"]).exit_code == 2
    assert runner.invoke(main, ["format", "no-such-file.bib"]).exit_code == 2
    broken = str(sample("bibtex/bibconv_broken.bib"))
    result = runner.invoke(main, ["format", broken])
    assert result.exit_code == 1
    assert result.stdout == ""
    result = runner.invoke(main, ["format", broken, "--skip-invalid"])
    assert result.exit_code == 1
    assert "Third." in result.stdout
