r"""Records in and out of pybtex and bibtexparser objects, with no text for the caller to parse.

Both directions go through bibconv's BibTeX mapping, so an object holds exactly what the file
``bibconv.write(records, "bibtex")`` holds, and reading one back is reading that file:

* :func:`to_bibtexparser` gives the :class:`bibtexparser.Library` that ``bibtexparser.parse_string``
  makes of the written text (values without their delimiters, ``month = apr`` kept as a macro);
  :func:`to_pybtex` gives the :class:`pybtex.database.BibliographyData` that pybtex's own BibTeX parser
  makes of it: fields under their BibTeX names, macros resolved (``month`` is ``April``), ``author`` and
  ``editor`` as :class:`pybtex.database.Person` objects split by pybtex (first/middle/prelast/last/lineage
  from bibconv's ``von Last, Jr, First`` form), ``@preamble`` blocks in the preamble.
* :func:`from_bibtexparser` and :func:`from_pybtex` build records as the BibTeX reader does (TeX decoded,
  names split on the raw TeX, arXiv fields gathered, ``crossref``/``xdata`` inherited); a library parsed
  with or without bibtexparser's default middleware is read the same, and name lists split by
  ``SeparateCoAuthors``/``SplitNameParts`` are joined again.

What each side cannot hold (the projection the round-trip tests state): pybtex keeps no ``@comment``
blocks and one preamble for the whole file, so records → pybtex → records gives the preambles back on
the first record and drops comments; bibtexparser keeps everything the BibTeX text does.

>>> import bibconv
>>> records = bibconv.read("fixtures/bibtex/read/bibconv_arxiv_spellings.bib")
>>> data = bibconv.to_pybtex(records)
>>> data.entries["vaswani2023attentionneed"].persons["author"][0].last_names
['Vaswani']
>>> bibconv.from_pybtex(data) == records  # no preamble or @comment here to lose
True
>>> bibconv.from_bibtexparser(bibconv.to_bibtexparser(records)) == records
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bibconv.errors import Diagnostic, ParseError
from bibconv.model import Record, SourceSpan
from bibconv.registry import ReadContext

if TYPE_CHECKING:
    from bibtexparser.library import Library
    from pybtex.database import BibliographyData

    from bibconv.formats.bibtex import Macros

__all__ = ["PERSON_ROLES", "from_bibtexparser", "from_pybtex", "to_bibtexparser", "to_pybtex"]

PERSON_ROLES: tuple[str, ...] = ("author", "editor")
"""The fields pybtex's parser makes persons of (``Person.valid_roles``); other name fields stay text."""

_REMOVED = "removed_enclosing"  # bibtexparser's RemoveEnclosingMiddleware metadata key


@dataclass
class _ItemContext(ReadContext):
    """A read context for objects: spans name the source line when there is one, else the item index."""

    item: int = 0

    def span(
        self, line: int | None = None, column: int | None = None, index: int | None = None
    ) -> SourceSpan:
        if line:
            return SourceSpan(self.filename, line, column)
        return SourceSpan(self.filename, index=self.item if index is None else index)


# --- records → objects ---------------------------------------------------------------------------


def to_bibtexparser(
    records: Iterable[Record],
    *,
    dialect: str = "bibtex",
    diagnostics: list[Diagnostic] | None = None,
    keep_inherited: bool = False,
    **options: Any,
) -> Library:
    """The records as a bibtexparser v2 :class:`~bibtexparser.Library`.

    ``dialect`` is ``"bibtex"`` or ``"biblatex"``; options go to the BibTeX writer (``ascii=True``
    for TeX escapes, ``key_format="authyear"``) and what the writer cannot hold is reported in
    ``diagnostics``. Entries are written from their fields (the writer's ``normalize``), so that
    macros are expanded and names are in a form these libraries parse.

    A ``crossref`` child holds its own fields and its ``crossref``, as the parsers read a ``.bib``;
    ``keep_inherited=True`` adds what it inherits, for code that reads an entry alone (pybtex's styles).

    >>> import bibconv
    >>> library = bibconv.to_bibtexparser(bibconv.read("fixtures/text/read/numbered_en.txt"))
    >>> entry = library.entries[0]
    >>> entry.key, entry["author"].split(" and ")[1], entry["month"]
    ('rodriguez2026speculative', 'Peña, José María', 'apr')
    """
    from bibtexparser.entrypoint import parse_string

    from bibconv.api import write

    # Objects in memory hold Unicode, as a biblatex file does: TeX escapes only when asked for.
    settings = {"normalize": True, "ascii": False, **options, "keep_inherited": keep_inherited}
    return parse_string(write(records, dialect, diagnostics=diagnostics, **settings) or "")


def to_pybtex(
    records: Iterable[Record],
    *,
    diagnostics: list[Diagnostic] | None = None,
    keep_inherited: bool = False,
    **options: Any,
) -> BibliographyData:
    """The records as pybtex :class:`~pybtex.database.BibliographyData` (BibTeX field names, persons).

    Options go to the BibTeX writer (``ascii=True``, ``key_format=...``). Keys that differ only in
    letter case (pybtex compares keys without case) get a suffix, with a warning in ``diagnostics``.
    Crossref children: as in :func:`to_bibtexparser` (pybtex's Python styles need ``keep_inherited``).

    >>> import bibconv
    >>> data = bibconv.to_pybtex(bibconv.read("fixtures/text/read/numbered_en.txt"))
    >>> person = data.entries["dubois2026study"].persons["author"][0]
    >>> person.first_names, person.last_names
    (['Françoise'], ['Dubois'])
    """
    library = to_bibtexparser(records, diagnostics=diagnostics, keep_inherited=keep_inherited, **options)
    return _pybtex_data(library, diagnostics)


def _pybtex_data(library: Library, diagnostics: list[Diagnostic] | None) -> BibliographyData:
    from bibtexparser.model import Entry, Preamble, String
    from pybtex.bibtex.utils import split_name_list
    from pybtex.database import BibliographyData, Person
    from pybtex.database import Entry as PybtexEntry

    from bibconv.formats.bibtex import Macros

    macros = Macros()
    data = BibliographyData()
    for block in library.blocks:
        if isinstance(block, String):
            _define(macros, block, _is_expression(block, None))
        elif isinstance(block, Preamble):
            data.add_to_preamble(macros.resolve(block.value))
        elif isinstance(block, Entry):
            entry = PybtexEntry(_written_type(block))
            removed = block.parser_metadata.get(_REMOVED)
            for field in block.fields:
                value = _text(field.value, _is_expression(field, removed), macros)
                if field.key.lower() in PERSON_ROLES:
                    for name in split_name_list(value):
                        entry.add_person(Person(name), field.key)
                else:
                    entry.fields[field.key] = value
            key = _unique_key(block.key, data.entries, diagnostics)
            data.add_entry(key, entry)
    return data


def _unique_key(key: str, taken: Any, diagnostics: list[Diagnostic] | None) -> str:
    """``key``, or ``key-2``, ``key-3``… when a key equal but for letter case is already taken."""
    if key not in taken:
        return key
    n = 2
    while f"{key}-{n}" in taken:
        n += 1
    if diagnostics is not None:
        message = f"key {key!r} differs from another only in letter case; renamed {key}-{n} for pybtex"
        diagnostics.append(Diagnostic(message, None, key))
    return f"{key}-{n}"


# --- objects → records ---------------------------------------------------------------------------


def _is_expression(item: Any, removed: Any) -> bool:
    """Whether a bibtexparser value is still a BibTeX expression (delimiters, macros, ``#``)."""
    if getattr(item, "enclosing", None) == "no-enclosing":
        return True
    if isinstance(removed, dict):  # RemoveEnclosingMiddleware ran: only unenclosed values remain
        return removed.get(item.key) == "no-enclosing"
    if isinstance(removed, str):
        return removed == "no-enclosing"
    return getattr(item, "raw", None) is not None or getattr(item, "start_line", None) is not None


def _text(value: Any, expression: bool, macros: Macros) -> str:
    """A field's TeX text: name lists joined again, an expression resolved (``ExpansionError`` if
    its macros expand to too much; any other expression that is not one is kept as written)."""
    if isinstance(value, list):
        return " and ".join(getattr(v, "merge_last_name_first", None) or str(v) for v in value)
    text = str(value)
    if not expression:
        return text
    from bibconv.formats.bibtex import ExpansionError

    try:
        return macros.resolve(text)
    except ExpansionError:
        raise
    except ValueError:
        return text


def _define(macros: Macros, block: Any, expression: bool) -> None:
    """Define a ``@string`` block's macro, expanded on use (``ExpansionError`` if it would be too long)."""
    from bibconv.formats.bibtex import ExpansionError

    name = block.key.strip().lower()
    if expression:
        try:
            macros.define(name, str(block.value))
            return
        except ExpansionError:
            raise
        except ValueError:
            pass  # not an expression after all: its text, as written
    macros.define_text(name, _text(block.value, False, macros))


@dataclass
class _Item:
    entry_type: str
    key: str
    fields: dict[str, str]
    line: int
    before: list[str]


def from_bibtexparser(
    library: Library, *, strict: bool = True, diagnostics: list[Diagnostic] | None = None
) -> list[Record]:
    """The records of a bibtexparser v2 :class:`~bibtexparser.Library`, read as the BibTeX reader reads.

    Blocks bibtexparser could not parse raise a :class:`~bibconv.errors.ParseError` (with ``strict=False``
    they are skipped and reported in ``diagnostics``); ``@preamble``/``@comment`` blocks are kept with
    the next record, as the reader keeps them.

    >>> import bibtexparser
    >>> library = bibtexparser.parse_file("fixtures/bibtex/read/bibconv_arxiv_spellings.bib")
    >>> records = from_bibtexparser(library)
    >>> records[8].names["author"][0].family, records[8].fields["container-title"]
    ('Preskill', 'Quantum')
    """
    from bibtexparser.model import Entry, ExplicitComment, ParsingFailedBlock, Preamble, String

    from bibconv.formats.bibtex import ExpansionError, Macros

    ctx = _context(strict, diagnostics)
    macros = Macros()
    items: list[_Item] = []
    pending: list[str] = []
    for index, block in enumerate(library.blocks):
        line = block.start_line + 1 if block.start_line is not None else 0
        if isinstance(block, ParsingFailedBlock):
            ctx.item = index
            reason = getattr(block.error, "abort_reason", None) or str(block.error)
            ctx.fail(ParseError(reason.strip(), ctx.span(line), getattr(block, "key", None)))
        elif isinstance(block, String):
            try:
                _define(macros, block, _is_expression(block, _metadata(block)))
            except ExpansionError as exc:
                ctx.item = index
                ctx.fail(ParseError(f"@string {block.key}: {exc}", ctx.span(line)))
        elif isinstance(block, Preamble):
            pending.append(block.raw or "@preamble{" + block.value + "}")
        elif isinstance(block, ExplicitComment):
            pending.append(block.raw or "@comment{" + block.comment + "}")
        elif isinstance(block, Entry):
            try:
                fields = _entry_fields(block, macros)
            except ExpansionError as exc:
                ctx.item = index
                ctx.fail(ParseError(str(exc), ctx.span(line), block.key))
                continue
            items.append(_Item(_written_type(block), block.key, fields, line, pending))
            pending = []
    return list(_records(items, pending, ctx))


def _entry_fields(block: Any, macros: Macros) -> dict[str, str]:
    """An entry's fields by lower-case name (the first of duplicates), expressions resolved."""
    from bibconv.formats.bibtex import ExpansionError

    removed = _metadata(block)
    fields: dict[str, str] = {}
    for field in block.fields:
        name = field.key.strip().lower()
        if name not in fields:
            try:
                fields[name] = _text(field.value, _is_expression(field, removed), macros)
            except ExpansionError as exc:
                raise ExpansionError(f"field {name!r}: {exc}") from None
    return fields


def _metadata(block: Any) -> Any:
    return block.parser_metadata.get(_REMOVED)


def _written_type(block: Any) -> str:
    """The entry type as written (bibtexparser lower-cases it; the raw text keeps ``@ARTICLE``)."""
    from bibconv.formats.bibtex import RAW_TYPE_RE

    found = RAW_TYPE_RE.match(block.raw or "")
    return found[1] if found else str(block.entry_type)


def from_pybtex(
    data: BibliographyData, *, strict: bool = True, diagnostics: list[Diagnostic] | None = None
) -> list[Record]:
    """The records of pybtex :class:`~pybtex.database.BibliographyData`, read as the BibTeX reader reads.

    Persons are written back in pybtex's ``von Last, Jr, First`` form and split again, so the parts
    pybtex holds are the parts the record gets. The preamble goes with the first record.

    >>> from pybtex.database import parse_string
    >>> bib = r"@article{k, author = {Rodr{\\'\\i}guez, Pau}, title = {{Monte Carlo} way}, year = 2024}"
    >>> record = from_pybtex(parse_string(bib, "bibtex"))[0]
    >>> record.authors[0].family, record.title, record.issued.year
    ('Rodríguez', '<span class="nocase">Monte Carlo</span> way', 2024)
    """
    ctx = _context(strict, diagnostics)
    items: list[_Item] = []
    before = [_preamble_block(text) for text in data.preamble_list]
    for key, entry in data.entries.items():
        fields = {name.lower(): str(value) for name, value in entry.fields.items()}
        for role, persons in entry.persons.items():
            fields[role.lower()] = " and ".join(_person_text(person) for person in persons)
        items.append(_Item(entry.original_type, key, fields, 0, before))
        before = []
    return list(_records(items, before, ctx))


def _person_text(person: Any) -> str:
    """``von Last, Jr, First`` from a pybtex person; unlike ``str(person)`` it keeps an empty First
    after a Jr part, so the Jr part is not read back as the first name."""
    last = " ".join(person.prelast_names + person.last_names)
    first = " ".join(person.first_names + person.middle_names)
    lineage = " ".join(person.lineage_names)
    if lineage:
        return f"{last}, {lineage}, {first}"
    return f"{last}, {first}" if first else last


def _preamble_block(text: str) -> str:
    from bibconv.latex.tex import balanced

    return "@preamble{{" + text + "}}" if balanced(text, bibtex=True) else '@preamble{"' + text + '"}'


def _context(strict: bool, diagnostics: list[Diagnostic] | None) -> _ItemContext:
    ctx = _ItemContext(strict=strict)
    if diagnostics is not None:
        ctx.diagnostics = diagnostics
    return ctx


def _records(items: list[_Item], after: list[str], ctx: _ItemContext) -> Iterator[Record]:
    """Build the records as the BibTeX reader does, ``crossref``/``xdata`` inherited."""
    from bibconv.formats.bibtex import TEX_KEPT, Entries, build_record

    wanted = {
        ref.strip().lower()
        for item in items
        for name in ("crossref", "xdata")
        for ref in item.fields.get(name, "").split(",")
        if ref.strip()
    }
    parents = {
        i.key.strip().lower(): (i.entry_type, dict(i.fields))
        for i in items
        if i.key.strip().lower() in wanted
    }
    quiet = _ItemContext(strict=False)
    for key, (entry_type, fields) in list(parents.items()):
        parents[key] = (entry_type, Entries(quiet, parents).inherit(dict(fields), entry_type, 0, key))
    entries = Entries(ctx, parents)
    for index, item in enumerate(items):
        ctx.item = index
        key = item.key.strip()
        for block in item.before:
            if block.lstrip()[:9].lower() == "@preamble":
                entries.commands.define(block)
        try:
            fields = dict(item.fields)
            if "crossref" in fields or "xdata" in fields:
                fields = entries.inherit(fields, item.entry_type, item.line, key or None)
            tex = entries.expand(fields)
            record = build_record(item.entry_type, key, fields, item.line, ctx)
        except (ValueError, TypeError, KeyError) as exc:
            ctx.fail(ParseError(str(exc), ctx.span(item.line), key or None))
            continue
        extra = dict(record.extra)
        if tex:
            extra[TEX_KEPT] = tex
        if item.before:
            extra["bibtex:before"] = item.before
        if index == len(items) - 1 and after:
            extra["bibtex:after"] = after
        yield record.replace(extra=extra) if extra != record.extra else record
