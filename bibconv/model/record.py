"""The record (:class:`Record`), where it was read from (:class:`SourceSpan`), the entry as its input
wrote it (:class:`Source`), and its arXiv block (:class:`Arxiv`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any

from bibconv.model.date import Date
from bibconv.model.frozen import EMPTY, FrozenDict, frozen, immutable
from bibconv.model.name import Name

__all__ = ["Arxiv", "Record", "Source", "SourceSpan", "final_record", "span_at"]


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """Where a record or an error came from: file, line, column, or item index (JSON).

    On a web page, ``reader`` names the part of the reader that found the record (``dblp``,
    ``json-ld``, ``generic``…) and ``where`` the element it was read from.

    >>> str(SourceSpan("refs.bib", 12, 3)), str(SourceSpan("refs.json", index=4))
    ('refs.bib:12:3', 'refs.json:item 4')
    >>> str(SourceSpan("me.html", index=2, reader="dblp", where="li#conf/aaai/PeelC15"))
    'me.html:item 2 (dblp, li#conf/aaai/PeelC15)'
    """

    filename: str | None = None
    line: int | None = None
    column: int | None = None
    index: int | None = None
    reader: str | None = None
    where: str | None = None

    def __init__(
        self,
        filename: str | None = None,
        line: int | None = None,
        column: int | None = None,
        index: int | None = None,
        reader: str | None = None,
        where: str | None = None,
    ) -> None:
        """As the dataclass's own, filled with plain stores as a :class:`_FillingSpan` (see span_at)."""
        object.__setattr__(self, "__class__", _FillingSpan)
        _FillingSpan.__init__(self, filename, line, column, index, reader, where)

    def __str__(self) -> str:
        parts = [self.filename or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        elif self.index is not None:
            parts.append(f"item {self.index}")
        found = ", ".join(p for p in (self.reader, self.where) if p)
        return ":".join(parts) + (f" ({found})" if found else "")


@dataclass(frozen=True, slots=True)
class Arxiv:
    """Everything arXiv says about a preprint, kept apart from the journal's data.

    >>> a = Arxiv(id="2604.12345", version=2, primary_class="cs.LG")
    >>> a.doi, a.versioned_id, a.abs_url
    ('10.48550/arXiv.2604.12345', '2604.12345v2', 'https://arxiv.org/abs/2604.12345')
    """

    id: str
    version: int | None = None
    primary_class: str | None = None
    categories: tuple[str, ...] = ()
    submitted: Date | None = None
    """Date of version 1 (Atom ``published``)."""
    updated: Date | None = None
    """Date of this version (Atom ``updated``)."""
    comment: str | None = None
    journal_ref: str | None = None

    def __init__(
        self,
        id: str,
        version: int | None = None,
        primary_class: str | None = None,
        categories: tuple[str, ...] = (),
        submitted: Date | None = None,
        updated: Date | None = None,
        comment: str | None = None,
        journal_ref: str | None = None,
    ) -> None:
        """As the dataclass's own, filled with plain stores as an :class:`_FillingArxiv` (one is made per
        preprint read)."""
        arxiv: Any = self
        object.__setattr__(arxiv, "__class__", _FillingArxiv)
        arxiv.id = id
        arxiv.version = version
        arxiv.primary_class = primary_class
        arxiv.categories = categories
        arxiv.submitted = submitted
        arxiv.updated = updated
        arxiv.comment = comment
        arxiv.journal_ref = journal_ref
        arxiv.__class__ = Arxiv

    @property
    def doi(self) -> str:
        """arXiv's own DataCite DOI, ``10.48550/arXiv.<id>``."""
        return f"10.48550/arXiv.{self.id}"

    @property
    def versioned_id(self) -> str:
        return f"{self.id}v{self.version}" if self.version else self.id

    @property
    def abs_url(self) -> str:
        return f"https://arxiv.org/abs/{self.id}"

    @property
    def pdf_url(self) -> str:
        return f"https://arxiv.org/pdf/{self.versioned_id}"


_AS_GIVEN = frozenset({"type", "id", "arxiv", "origin", "source"})
"""Record attributes that ``__post_init__`` leaves as they are."""


@dataclass(frozen=True, slots=True, init=False)
class Record:
    """One bibliographic item in CSL-JSON's vocabulary.

    * ``type`` is a CSL type, ``id`` the citation key (``None`` until one is made).
    * ``fields`` holds text and number variables under their exact CSL names
      (``"title"``, ``"container-title"``, ``"DOI"``, ``"page"``).
    * ``names`` maps a CSL name variable (``"author"``) to its names in order;
      ``dates`` maps a CSL date variable (``"issued"``) to a :class:`Date`.
    * ``keywords`` are kept one by one; ``arxiv`` is the arXiv block, if any.
    * ``extra`` keeps what has no canonical slot, keyed ``"<format>:<field>"``
      (``"bibtex:howpublished"``, ``"ris:M3"``) with JSON-compatible values.
    * ``origin`` says where the record was read from; it does not count in equality.
    * ``source`` is the entry as its input wrote it (:class:`Source`), for a writer of the same
      format; it does not count in equality, and other writers never look at it.

    A record is immutable; :meth:`replace` (or ``dataclasses.replace``) makes a changed copy, and
    takes CSL variables by name as well as attributes (see :mod:`bibconv.record_changes`).

    >>> r = Record(type="article-journal", fields={"title": "On Things"})
    >>> r.title, r.with_fields(volume="3").fields["volume"]
    ('On Things', '3')
    >>> r.replace(title="On Other Things", container_title="Mind", issued="1950-10").fields
    FrozenDict({'title': 'On Other Things', 'container-title': 'Mind'})
    """

    type: str = "document"
    id: str | None = None
    fields: Mapping[str, str] = field(default_factory=FrozenDict)
    names: Mapping[str, tuple[Name, ...]] = field(default_factory=FrozenDict)
    dates: Mapping[str, Date] = field(default_factory=FrozenDict)
    keywords: tuple[str, ...] = ()
    arxiv: Arxiv | None = None
    extra: Mapping[str, Any] = field(default_factory=FrozenDict)
    origin: SourceSpan | None = field(default=None, compare=False)
    source: Source | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        type: str = "document",
        id: str | None = None,
        fields: Mapping[str, str] | None = None,
        names: Mapping[str, Iterable[Name]] | None = None,
        dates: Mapping[str, Date] | None = None,
        keywords: Iterable[str] = (),
        arxiv: Arxiv | None = None,
        extra: Mapping[str, Any] | None = None,
        origin: SourceSpan | None = None,
        source: Source | None = None,
        **variables: Any,
    ) -> None:
        """The attributes, and CSL variables by keyword (``title=…``, ``container_title=…``)."""
        if variables:
            from bibconv.record_changes import apply_variables

            fields, names, dates = apply_variables(fields or {}, names or {}, dates or {}, variables)
        object.__setattr__(self, "__class__", _FilledRecord)  # filled as one (see final_record)
        _FilledRecord.__init__(
            self,
            type,
            id,
            frozen(fields) if fields else EMPTY,
            FrozenDict({k: tuple(v) for k, v in names.items()}) if names else EMPTY,
            frozen(dates) if dates else EMPTY,
            keywords if keywords.__class__ is tuple else tuple(keywords),
            arxiv,
            frozen(extra) if extra else EMPTY,
            origin,
            source,
        )

    @property
    def title(self) -> str | None:
        return self.fields.get("title")

    @property
    def authors(self) -> tuple[Name, ...]:
        return self.names.get("author", ())

    @property
    def issued(self) -> Date | None:
        return self.dates.get("issued")

    def with_fields(self, **values: str | None) -> Record:
        """A copy with text fields set (``None`` removes one); use ``**{"container-title": …}``."""
        merged = dict(self.fields)
        for key, value in values.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        return replace(self, fields=merged)

    def replace(self, **changes: Any) -> Record:
        """A copy with the given attributes (``id=…``, ``fields=…``) or CSL variables (``title=…``,
        ``container_title=…``, ``author=[Name(…)]``, ``issued="2020-05"``; ``None`` removes one) changed."""
        if type(self) is Record and changes.keys() <= _AS_GIVEN:  # nothing to freeze: copy the slots
            copy: Record = _FilledRecord(*_slot_values(self))
            for name, value in changes.items():
                object.__setattr__(copy, name, value)
            return copy
        return replace(self, **changes)

    def to_csl(self) -> dict[str, Any]:
        """This record as a CSL-JSON item (see :mod:`bibconv.csl.items`)."""
        from bibconv.csl.items import record_to_csl

        return record_to_csl(self)

    @classmethod
    def from_csl(cls, item: Mapping[str, Any]) -> Record:
        """Build a record from a CSL-JSON item dict."""
        from bibconv.csl.items import record_from_csl

        return record_from_csl(item)


_slot_values = attrgetter(*Record.__slots__)
"""A record's slots in order, read at once."""


@dataclass(frozen=True, slots=True)
class Source:
    """An entry as its input wrote it, so that a writer of the same format can write it back
    unchanged (BibTeX: the entry type and each field's TeX as written).

    ``read`` is the record as the reader made it: the entry may be written as read only while the
    record still equals it (:meth:`matches`); a record changed on the way gets written from its
    fields. ``dialect`` is the dialect the entry is written in, if the reader could tell.
    """

    format: str
    read: Record
    kind: str
    fields: tuple[tuple[str, str], ...]
    dialect: str | None = None

    def matches(self, record: Record) -> bool:
        """Whether ``record`` still holds what was read (its key aside)."""
        read = self.read
        return (
            record.type == read.type
            and record.fields == read.fields
            and record.names == read.names
            and record.dates == read.dates
            and record.keywords == read.keywords
            and record.arxiv == read.arxiv
            and record.extra == read.extra
        )


for _cls in (Arxiv, Record, SourceSpan, Source):
    immutable(_cls)


class _FillingSpan(SourceSpan):
    """What :class:`SourceSpan` fills a new span as: its slots take plain stores, a third of the cost
    of a store through a slot's descriptor or ``object.__setattr__``; the span filled is made a
    :class:`SourceSpan` again (``__class__``, which both classes' equal slots allow)."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    def __init__(
        self: Any,
        filename: str | None,
        line: int | None,
        column: int | None,
        index: int | None,
        reader: str | None,
        where: str | None,
    ) -> None:
        self.filename = filename
        self.line = line
        self.column = column
        self.index = index
        self.reader = reader
        self.where = where
        self.__class__ = SourceSpan


span_at = _FillingSpan
"""``span_at(filename, line, column, index, reader, where)``: the :class:`SourceSpan` of those six,
every one given in order, made directly as its twin (``SourceSpan(…)`` makes one first and turns it
into the twin to fill it): for a reader that makes a span per record."""


class _FillingArxiv(Arxiv):
    """What :class:`Arxiv` fills a new block as (see :class:`_FillingSpan`)."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


class _FilledRecord(Record):
    """A :class:`Record` of values in final form, taken as they are (see :data:`final_record`); the
    object made is a :class:`Record`, filled with plain stores as this class (see :class:`_FillingSpan`)."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    def __init__(
        self: Any,
        type: str,
        id: str | None,
        fields: FrozenDict[str, str],
        names: FrozenDict[str, tuple[Name, ...]],
        dates: FrozenDict[str, Date],
        keywords: tuple[str, ...],
        arxiv: Arxiv | None,
        extra: FrozenDict[str, Any],
        origin: SourceSpan | None,
        source: Source | None = None,
    ) -> None:
        self.type = type
        self.id = id
        self.fields = fields
        self.names = names
        self.dates = dates
        self.keywords = keywords
        self.arxiv = arxiv
        self.extra = extra
        self.origin = origin
        self.source = source
        self.__class__ = Record


final_record = _FilledRecord
"""``final_record(type, id, fields, names, dates, keywords, arxiv, extra, origin, source=None)``: the
:class:`Record` of values already in their final form, taken as they are: ``fields``, ``names``,
``dates`` and ``extra`` :class:`FrozenDict` (:data:`~bibconv.model.frozen.EMPTY` when empty), name
lists and ``keywords`` tuples. ``Record(…)`` makes them so from any mapping and iterable; this is
for a reader that makes many records from values it builds in that form (a third of the cost)."""
