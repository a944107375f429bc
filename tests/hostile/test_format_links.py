"""``bibconv format``: a record's URL becomes a link only when its scheme is http, https, doi or
mailto; ``javascript:``, ``data:``, ``file:`` (in any case, with the blanks and controls a browser
ignores) and URLs without a scheme are written as text, in every output."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

import bibconv
from bibconv.model import Record

UNSAFE = (
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " \tjava\nscript:alert(1)",
    "\x01javascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "www.example.org/no-scheme",
)
SAFE = (
    "https://example.org/a",
    "http://example.org/b",
    "mailto:someone@example.org",
    "HTTPS://example.org/c",
)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hrefs += [value or "" for name, value in attrs if tag == "a" and name == "href"]


def _hrefs(url: str, output: str) -> list[str]:
    record = Record(type="webpage", id="k", fields={"title": "T", "URL": url, "DOI": "10.1000/xyz"})
    text = bibconv.format([record], "plain", output)
    links = _Links()
    links.feed(MarkdownIt("commonmark").render(text) if output == "markdown" else text)
    return links.hrefs


@pytest.mark.parametrize("output", ["html", "markdown"])
@pytest.mark.parametrize("url", UNSAFE)
def test_other_schemes_are_text(url: str, output: str) -> None:
    assert _hrefs(url, output) == ["https://doi.org/10.1000/xyz"]


@pytest.mark.parametrize("output", ["html", "markdown"])
@pytest.mark.parametrize("url", SAFE)
def test_web_and_mail_urls_are_links(url: str, output: str) -> None:
    assert _hrefs(url, output) == [url, "https://doi.org/10.1000/xyz"]


def test_latex_links_only_the_same_schemes() -> None:
    records = [
        Record(type="webpage", id=f"k{n}", fields={"title": "T", "URL": u}) for n, u in enumerate(UNSAFE)
    ]
    text = bibconv.format(records, "plain", "latex")
    assert "\\url" not in text
    assert "\\href" not in text
    assert "javascript:alert(1)" in text
    good = bibconv.format(
        [Record(type="webpage", id="k", fields={"title": "T", "URL": SAFE[0]})], "plain", "latex"
    )
    assert "\\url{https://example.org/a}" in good


@pytest.mark.parametrize(
    "url", ["https://ex.org/x\\y", "https://ex.org/p{q}r", "https://ex.org/\\input{/etc/passwd}"]
)
def test_a_url_with_backslashes_or_braces_comes_out_as_the_url(url: str) -> None:
    """The BibTeX writer escapes a URL it cannot keep as TeX (``x\\textbackslash{}y``); formatting
    takes the URL as it is, and each output escapes it as its own."""
    text = bibconv.read(f"@misc{{k, title = {{T}}, howpublished = {{\\url{{{url}}}}}}}".encode(), "bibtex")
    assert text[0].fields["URL"] == url
    assert bibconv.format(text, "plain", "text").strip() == f"[1] T. URL: {url}."
    links = _Links()
    links.feed(bibconv.format(text, "plain", "html"))
    assert links.hrefs == [url]
    latex = bibconv.format(text, "plain", "latex")
    target = url.replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D")
    shown = url.replace("\\", "\\textbackslash{}").replace("{/", "\\{/").replace("d}", "d\\}")
    shown = shown.replace("p{q}", "p\\{q\\}")
    assert f"\\href{{{target}}}{{{shown}}}" in latex
    assert "\\input" not in latex.replace("\\textbackslash{}input", "")
