"""Formatted references, rendered by pybtex's style engine: ``format(records, style, output)``.

The records go through :func:`bibconv.interop.to_pybtex` (bibconv's BibTeX mapping: BibTeX field
names, acronyms in titles brace-protected, persons split by pybtex), so a reference reads as BibTeX with the
matching ``.bst`` style would print the written ``.bib`` file. Styles are pybtex's ports of the BibTeX
styles (:data:`STYLES`); outputs are pybtex's backends (:data:`OUTPUTS`). Values reach the styles as
bibconv decodes them (accents, ``\\textit``, ``$math$``), not through pybtex's own LaTeX reading.

An entry that lacks a field its template needs (an ``@article`` without ``journal``) or whose type the
style has no template for is formatted with the ``misc`` template, and a warning says so: the reference
is shorter, never missing. bibconv's own notes on a record (:mod:`bibconv.facts`) are not printed.

>>> import bibconv
>>> text = bibconv.format(bibconv.read("fixtures/text/read/numbered_en.txt")[1:2])
>>> print(text.replace(". ", ".\\n"), end="")
[1] Françoise Dubois and Zoë Müller.
A study of $k$-sparse attention.
March 2026.
URL: https://example.org/papers/k-sparse.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import Any

from bibconv.errors import Diagnostic, FormatError
from bibconv.model import Record

__all__ = ["OUTPUTS", "STYLES", "format"]

STYLES: tuple[str, ...] = ("plain", "unsrt", "alpha", "unsrtalpha")
"""pybtex's styles: ``plain`` (numbered, sorted by author, year, title), ``unsrt`` (numbered, in input
order), ``alpha`` (labels like ``Knu84``, sorted), ``unsrtalpha`` (labels, input order)."""

OUTPUTS: tuple[str, ...] = ("text", "html", "markdown", "latex")
"""``text`` (one ``[label] reference`` a line), ``html`` (an HTML5 page with a ``<dl>``), ``markdown``,
``latex`` (a ``thebibliography`` environment)."""

_RAW_FIELDS = frozenset({"url", "doi", "eprint", "pubmed"})  # pybtex's styles use these raw (links)
_TITLE_FIELDS = frozenset({"title"})  # the field pybtex's styles change the case of


def format(
    records: Iterable[Record],
    style: str = "plain",
    output: str = "text",
    *,
    diagnostics: list[Diagnostic] | None = None,
    **options: Any,
) -> str:
    """The records as a formatted bibliography: one reference per entry, in ``style`` and ``output``.

    Options go to the BibTeX mapping (``key_format="authyear"`` for the keys of ``latex`` output).
    Warnings (a reference formatted with the ``misc`` template, a field BibTeX cannot hold) are
    added to ``diagnostics`` when it is given. Raises :class:`~bibconv.errors.FormatError` for an
    unknown style or output.

    >>> import bibconv
    >>> records = bibconv.read("fixtures/text/read/numbered_en.txt")
    >>> print(bibconv.format(records[1:2], "alpha", "markdown").rstrip())
    [DM26] Françoise Dubois and Zoë Müller\\.
    A study of $k$\\-sparse attention\\.
    March 2026\\.
    URL: [https://example\\.org/papers/k\\-sparse](<https://example.org/papers/k-sparse>)\\.
    """
    if style not in STYLES:
        raise FormatError(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
    if output not in OUTPUTS:
        raise FormatError(f"unknown output {output!r}; choose from {', '.join(OUTPUTS)}")
    from pybtex.plugin import find_plugin
    from pybtex.style import FormattedBibliography

    from bibconv.formatting.styles import BACKENDS
    from bibconv.interop import to_pybtex

    notes: list[Diagnostic] = diagnostics if diagnostics is not None else []
    # pybtex's styles do not look a crossref child's fields up in its parent: the child keeps them;
    # they write identifiers (url, doi, eprint) raw, and each output escapes them as its own.
    writing = {"expand_commands": True, "keep_inherited": True, "identifiers_as_is": True, **options}
    data = _styled(to_pybtex(records, diagnostics=notes, **writing))
    engine = find_plugin("pybtex.style.formatting", style)()
    entries = list(data.entries.values())
    formatted = list(_format_entries(engine, entries, notes))
    bibliography = FormattedBibliography(formatted, style=engine, preamble=data.preamble)
    buffer = io.StringIO(newline="")
    BACKENDS[output]("utf-8").write_to_stream(bibliography, buffer)
    return buffer.getvalue()


def _styled(data: Any) -> Any:
    """The pybtex data with every value in the form :mod:`bibconv.formatting.styles` hands to the styles."""
    from pybtex.database import BibliographyData, Entry, Person

    from bibconv import latex
    from bibconv.formatting.styles import rich_to_pybtex

    def value(text: str, name: str = "") -> str:
        return rich_to_pybtex(latex.decode(text), title=name.lower() in _TITLE_FIELDS)

    out = BibliographyData()
    for key, entry in data.entries.items():
        fields = [(n, v if n.lower() in _RAW_FIELDS else value(v, n)) for n, v in entry.fields.items()]
        persons: dict[str, list[Any]] = {}
        for role, people in entry.persons.items():
            for person in people:
                styled = Person()
                for part in ("first", "middle", "prelast", "last", "lineage"):
                    words = getattr(person, f"{part}_names")
                    setattr(styled, f"{part}_names", [value(w) for w in words])
                persons.setdefault(role, []).append(styled)
        styled_entry = Entry(entry.original_type, fields=fields, persons=persons)
        out.add_entry(key, styled_entry)
    return out


def _format_entries(engine: Any, entries: list[Any], notes: list[Diagnostic]) -> Iterator[Any]:
    """pybtex's ``format_entries``, with the ``misc`` template for entries their own cannot format."""
    from pybtex.style.template import FieldIsMissing

    from bibconv.formatting.styles import unshield

    ordered = engine.sort(entries)
    labels = engine.format_labels(ordered)
    for label, entry in zip(labels, ordered, strict=True):
        try:
            yield engine.format_entry(label, entry)
            continue
        except FieldIsMissing as exc:
            reason = f"no {exc.field_name}"
        except AttributeError:
            reason = "no template for this type"
        message = f"@{entry.original_type} formatted with the misc template ({reason})"
        notes.append(Diagnostic(message, None, unshield(entry.key), "note"))
        misc = entry.type
        entry.type = "misc"
        try:
            yield engine.format_entry(label, entry)
        finally:
            entry.type = misc
