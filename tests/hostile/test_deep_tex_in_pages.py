"""TeX nested too deeply in a listing page: a byline or title whose braces nest past the decoder's
bound costs that entry only (reported when it is an entry's title), never the page."""

from __future__ import annotations

from bibconv.api import iter_records
from bibconv.errors import Diagnostic

ENTRIES = (
    "Knuth, D. E. (1984). Literate programming. <i>The Computer Journal</i>, 27(2), 97–111.",
    "Vaswani, A., &amp; Shazeer, N. (2017). Attention is all you need. <i>NeurIPS</i>, 30, 5998–6008.",
    "Lamport, L. (1994). LaTeX: A document preparation system. <i>Addison-Wesley</i>, 2, 1–272.",
)


def _read(page: str) -> tuple[list[str], list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    records = iter_records(page.encode(), "html", strict=False, diagnostics=diagnostics, filename="p.html")
    return [r.fields["title"] for r in records], diagnostics


def _page(entries: tuple[str, ...]) -> str:
    return "<html><body><ol>" + "".join(f"<li>{e}</li>\n" for e in entries) + "</ol></body></html>"


def test_deep_tex_in_a_byline_costs_that_entry_only() -> None:
    deep = (ENTRIES[0], ENTRIES[1].replace("Shazeer, N.", "Shazeer, " + "{" * 100 + "N."), ENTRIES[2])
    titles, diagnostics = _read(_page(deep))
    assert titles == ["Literate programming", "LaTeX: A document preparation system"]
    assert [d for d in diagnostics if d.severity == "error"] == []


def test_deep_tex_in_a_title_is_a_bad_entry() -> None:
    deep = (
        ENTRIES[0].replace("Literate programming", "Literate " + "\\emph{" * 100 + "programming"),
        *ENTRIES[1:],
    )
    titles, diagnostics = _read(_page(deep))
    assert titles == ["Attention is all you need", "LaTeX: A document preparation system"]
    [error] = diagnostics
    assert (error.severity, error.message) == ("error", "TeX groups nested more than 64 deep")
    assert (error.span.filename, error.span.where) == ("p.html", "li[1]")
