r"""The ``bibtex`` and ``biblatex`` writers.

Layout: one field per line, in a fixed order (:data:`~bibconv.formats.bibtex.table.FIELD_ORDER`, then
the rest alphabetically), ``key = {value}``, indented by the ``indent`` option (2 spaces; a number or
a string such as ``"\t"``), a blank line between entries. Keys come from ``ctx.keys``, a
:class:`bibconv.keys.KeyAssigner` (existing keys are kept, repeats get a suffix). Values go through
:func:`bibconv.latex.encoder` (``ascii`` option: every non-ASCII character as TeX; by default for
classic ``bibtex`` only, whose 8-bit sorting and labels need it; in both dialects a character pdflatex
cannot set with T1 fonts is TeX, see :mod:`bibconv.latex.charset`), titles also through
:func:`latex.protect_case`, names through :func:`.names.format_bibtex_name`; identifiers (URL,
DOI…) are written as they are. The parts: :mod:`~bibconv.formats.bibtex.write_entry` writes an entry
field by field, :mod:`~bibconv.formats.bibtex.write_values` encodes values,
:mod:`~bibconv.formats.bibtex.write_names` name lists, and :mod:`~bibconv.formats.bibtex.write_types`
chooses the entry type.

**Safe values.** Every value is written on one line between braces that BibTeX and bibtexparser both
see balanced: :func:`latex.encode` writes a lone brace ``{\textbraceleft}``/``{\textbraceright}``
(BibTeX counts ``\{`` as a brace), a kept raw value that is not balanced both ways is written encoded
instead, and line breaks become spaces, so no value can close its field, start an entry (``@`` at a line
start) or inject a macro.

**arXiv.** A preprint (type ``article`` with an arXiv block) is written as arXiv's own export does:
``@misc`` with ``eprint`` (no version), ``archivePrefix = {arXiv}``, ``primaryClass``, ``doi`` and
``url`` (the abs page, without version); biblatex gets ``@online`` with
``eprint``/``eprinttype``/``eprintclass`` and ``pubstate = {prepublished}``. A published paper keeps its
type and gains the eprint fields. The rest of the block goes to bibconv's own fields, which BibTeX and
biber ignore and the reader reads back: ``arxivversion``, ``arxivcategories`` (comma-separated),
``arxivsubmitted`` and ``arxivupdated`` (EDTF), ``arxivcomment``, ``arxivjournalref``.

**bibconv's notes** on a record (a listing's abstract was cut: :mod:`bibconv.facts`) go to
``bibconv-note``, which no style prints, never to ``note``.

**Affiliations** of a name list go to ``<field>affiliations`` (``authoraffiliations = {{Apple}{MIT}
and {} and {CNRS}}``: one entry per person, ``and`` between, one brace group per affiliation).

**Everything else has a field.** A CSL variable without a BibTeX field of its own, or whose field
already holds another variable (an article's ``number`` holds its issue), goes to ``csl-<variable>``
(``csl-medium``, ``csl-number``, ``csl-director`` names, ``csl-submitted`` or a literal ``accessed``
date); BibTeX and biber ignore such fields and the reader reads them back.

Dates: ``year``, ``month = apr`` (a macro), ``day`` in BibTeX (plus ``date`` for ranges with months);
``date`` (EDTF, ranges) in biblatex.

**Fields** come from :data:`bibconv.formats.bibtex.table.ROWS`: the row a dialect writes a variable to
for the entry type, and the row's kind says how the value is encoded.

**Projection.** What these writers cannot hold (so what a record keeps through BibTeX) is written down
as code in :func:`bibconv.projection.project`.
"""

from __future__ import annotations

from typing import ClassVar

from bibconv.formats.bibtex.write_entry import EntryBuilder, entry_text
from bibconv.formats.bibtex.write_types import entry_type_for, number_field, number_order, read_type
from bibconv.model import Record
from bibconv.registry import EntryWriter, WriteContext, register

__all__ = [
    "BiblatexWriter",
    "BibtexWriter",
    "entry_text",
    "entry_type_for",
    "number_field",
    "number_order",
    "read_type",
]


class _Writer(EntryWriter):
    dialect: ClassVar[str]
    separator: ClassVar[str] = "\n"

    def _entries(self, ctx: WriteContext) -> EntryBuilder:
        """The entry writer of this output: it keeps what the kept ``@preamble`` blocks define."""
        entries: EntryBuilder | None = ctx.state.get(self.dialect)
        if entries is None:
            entries = ctx.state[self.dialect] = EntryBuilder(self.dialect, ctx)
        return entries

    def entry(self, record: Record, ctx: WriteContext) -> str:
        entries = ctx.state.get(self.dialect) or self._entries(ctx)
        return entries.text(record, entries.indent, ctx.keys.key(record))

    def carry(self, ctx: WriteContext) -> frozenset[str] | None:
        """The commands the ``@preamble`` blocks written so far define (they may be used after)."""
        return frozenset(self._entries(ctx).defined) or None

    def continue_from(self, ctx: WriteContext, carried: frozenset[str]) -> None:
        self._entries(ctx).defined.update(carried)

    def project(self, record: Record) -> Record:
        """What ``record`` reads back as from this output (:mod:`~bibconv.formats.bibtex.project`)."""
        from bibconv.formats.bibtex.project import project

        return project(record, self.dialect)


@register
class BibtexWriter(_Writer):
    """Writes BibTeX for classic ``.bst`` styles (``journal``, ``address``, ``month = apr``)."""

    name: ClassVar[str] = "bibtex"
    extensions: ClassVar[tuple[str, ...]] = (".bib", ".bibtex")
    description: ClassVar[str] = "BibTeX (.bib), also reads biblatex"
    dialect: ClassVar[str] = "bibtex"


@register
class BiblatexWriter(_Writer):
    """Writes biblatex (``journaltitle``, ``location``, ``date``, ``@online`` for preprints)."""

    name: ClassVar[str] = "biblatex"
    extensions: ClassVar[tuple[str, ...]] = (".biblatex",)
    description: ClassVar[str] = "biblatex (.bib); read like BibTeX"
    dialect: ClassVar[str] = "biblatex"
