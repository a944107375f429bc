"""The canonical record: every reader produces it, every writer consumes it.

The vocabulary is CSL-JSON's (exact variable names, see :mod:`bibconv.csl`); values
are Unicode text, with CSL rich-text markup (``<i>``, ``<b>``, ``<sup>``, ``<sub>``,
``<span class="nocase">``) where the source had formatting, and TeX math kept
verbatim between ``$`` signs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import FrozenInstanceError, dataclass, field, replace
from typing import Any, NoReturn, TypeVar

from bibconv.names_cjk import is_cjk

__all__ = [
    "Arxiv",
    "Date",
    "FrozenDict",
    "Name",
    "Record",
    "Source",
    "SourceSpan",
]

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A read-only ``dict``: hashable when its values are, picklable, JSON-serialisable.

    >>> d = FrozenDict({"a": 1})
    >>> d["a"]
    1
    >>> d["b"] = 2
    Traceback (most recent call last):
    TypeError: FrozenDict is read-only
    """

    __slots__ = ()

    def _readonly(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("FrozenDict is read-only")

    __setitem__ = __delitem__ = _readonly
    clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment,unused-ignore]
    __ior__ = _readonly  # type: ignore[assignment,unused-ignore]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: str(kv[0]))))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


def _frozen(mapping: Mapping[K, V] | Iterable[tuple[K, V]] | None) -> FrozenDict[K, V]:
    if isinstance(mapping, FrozenDict):
        return mapping
    return FrozenDict(mapping or {})


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


_NAME_PARTS = ("family", "given", "non_dropping_particle", "dropping_particle", "suffix", "literal")


@dataclass(frozen=True, slots=True)
class Name:
    """A person or an organisation, split as CSL splits names.

    ``literal`` holds a name that must not be split (an organisation) and excludes
    the other parts. ``affiliation`` is kept for formats that can carry it.

    >>> Name(family="Waals", given="Johannes Diderik", non_dropping_particle="van der").display()
    'Johannes Diderik van der Waals'
    """

    family: str | None = None
    given: str | None = None
    non_dropping_particle: str | None = None
    dropping_particle: str | None = None
    suffix: str | None = None
    literal: str | None = None
    affiliation: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if "" in (
            self.family,
            self.given,
            self.non_dropping_particle,
            self.dropping_particle,
            self.suffix,
            self.literal,
        ):
            for part in _NAME_PARTS:
                if getattr(self, part) == "":
                    object.__setattr__(self, part, None)  # an empty part is no part
        if type(self.affiliation) is not tuple:
            object.__setattr__(self, "affiliation", tuple(self.affiliation))
        if self.literal is not None and any(
            (self.family, self.given, self.non_dropping_particle, self.dropping_particle, self.suffix)
        ):
            raise ValueError("a literal name has no other parts")

    @property
    def is_literal(self) -> bool:
        return self.literal is not None

    def family_full(self) -> str:
        """Family name with its non-dropping particle (``van der Waals``)."""
        if self.literal is not None:
            return self.literal
        return " ".join(p for p in (self.non_dropping_particle, self.family) if p)

    def display(self) -> str:
        """The name in reading order: ``Given dropping non-dropping Family, Suffix`` (CJK: ``李小明``)."""
        if self.literal is not None:
            return self.literal
        if self.family and self.given and not self.suffix and is_cjk(self.family) and is_cjk(self.given):
            return self.family + self.given  # 李小明: family first, no space
        text = " ".join(
            p for p in (self.given, self.dropping_particle, self.non_dropping_particle, self.family) if p
        )
        return f"{text}, {self.suffix}" if self.suffix else text

    def to_csl(self) -> dict[str, str]:
        """The CSL-JSON name object (hyphenated keys, empty parts left out)."""
        if self.literal is not None:
            return {"literal": self.literal}
        out: dict[str, str] = {}
        for key, value in (
            ("family", self.family),
            ("given", self.given),
            ("non-dropping-particle", self.non_dropping_particle),
            ("dropping-particle", self.dropping_particle),
            ("suffix", self.suffix),
        ):
            if value:
                out[key] = value
        return out

    @classmethod
    def from_csl(cls, data: Mapping[str, Any]) -> Name:
        """Build a name from a CSL-JSON name object (unknown keys are ignored)."""

        def text(key: str) -> str | None:
            value = data.get(key)
            return None if value is None or value == "" else str(value)

        if text("literal") is not None:
            return cls(literal=text("literal"))
        return cls(
            family=text("family"),
            given=text("given"),
            non_dropping_particle=text("non-dropping-particle"),
            dropping_particle=text("dropping-particle"),
            suffix=text("suffix"),
        )


SEASON_NAMES = ("Spring", "Summer", "Autumn", "Winter")
"""Seasons in EDTF's order: a month of ``21`` + index in :attr:`Date.parts` is that season."""
_SEASON_WORDS = {"spring": 1, "summer": 2, "autumn": 3, "fall": 3, "winter": 4}
_EDTF = re.compile(r"^(-?\d{1,4})(?:-(\d{2})(?:-(\d{2}))?)?$")


_TWO_DIGITS = tuple(f"{n:02d}" for n in range(100))


def valid_date_part(part: tuple[int, ...]) -> bool:
    """A year; a month (1-12) or an EDTF season (21-24); a day (1-31) after a month."""
    size = len(part)
    if size == 1:
        return True
    if size == 2:
        return 1 <= part[1] <= 12 or 21 <= part[1] <= 24
    return size == 3 and 1 <= part[1] <= 12 and 1 <= part[2] <= 31


def season_number(text: str | int | None) -> int | None:
    """1-4 for a season CSL's ``season`` may hold (``3``, ``"3"``, ``"Autumn"``, ``"fall"``), else ``None``.

    >>> season_number("Fall"), season_number(2), season_number("Christmas")
    (3, 2, None)
    """
    if text is None:
        return None
    word = str(text).strip().lower()
    if word in ("1", "2", "3", "4"):
        return int(word)
    return _SEASON_WORDS.get(word)


@dataclass(frozen=True, slots=True)
class Date:
    """A date as CSL date parts: one date ``((2003, 7),)`` or a range ``((2003,), (2005,))``.

    A month of 21-24 is a season (EDTF's spring, summer, autumn, winter: ``((2017, 23),)`` is
    autumn 2017); ``season`` keeps CSL's ``season`` variable as given; a range's end of year 0
    (``((2014,), (0,))``) is open. Text that cannot be parsed is kept verbatim in ``literal`` and
    never guessed.

    >>> Date.from_edtf("2026-04-20").parts
    ((2026, 4, 20),)
    >>> Date.from_edtf("2003/2005").to_edtf()
    '2003/2005'
    >>> Date.from_csl({"date-parts": [[2017, 15]]}).parts, Date.from_edtf("2017-23").season_name
    (((2017, 23),), 'Autumn')
    """

    parts: tuple[tuple[int, ...], ...] = ()
    season: str | None = None
    circa: bool = False
    literal: str | None = None

    def __post_init__(self) -> None:
        parts = self.parts
        if len(parts) > 2 or not all(len(p) == 1 or valid_date_part(p) for p in parts):
            raise ValueError(f"bad date parts {parts!r}")

    @property
    def year(self) -> int | None:
        return self.parts[0][0] if self.parts else None

    @property
    def month(self) -> int | None:
        """The month (1-12) of the first date; ``None`` for none or a season."""
        if self.parts and len(self.parts[0]) > 1 and self.parts[0][1] <= 12:
            return self.parts[0][1]
        return None

    @property
    def day(self) -> int | None:
        return self.parts[0][2] if self.parts and len(self.parts[0]) > 2 else None

    @property
    def season_number(self) -> int | None:
        """1-4 for the first date's season: a month of 21-24, else the ``season`` variable."""
        if self.parts and len(self.parts[0]) == 2 and self.parts[0][1] > 20:
            return self.parts[0][1] - 20
        return season_number(self.season)

    @property
    def season_name(self) -> str | None:
        """``Spring``, ``Summer``, ``Autumn``, ``Winter``, or the ``season`` variable's own text."""
        number = self.season_number
        return SEASON_NAMES[number - 1] if number else self.season

    def with_season_in_parts(self) -> Date:
        """The ``season`` variable of a one-year date moved into its parts (2017 + autumn: ``2017-23``)."""
        number = season_number(self.season)
        if number is None or len(self.parts) != 1 or len(self.parts[0]) != 1:
            return self
        return Date(parts=((self.parts[0][0], 20 + number),), circa=self.circa, literal=self.literal)

    @staticmethod
    def _part_to_edtf(part: tuple[int, ...]) -> str:
        year = part[0]
        if len(part) == 3 and 1000 <= year <= 9999 and 0 <= part[1] < 100 and 0 <= part[2] < 100:
            return f"{year}-{_TWO_DIGITS[part[1]]}-{_TWO_DIGITS[part[2]]}"  # the usual date, quicker
        rest = part[1:]
        if year == 0:  # CSL's open end of a range (``[[2014], [0]]``) is EDTF's empty one (``2014/``)
            return ""
        if year < 0:  # CSL has no year 0 (-44 is 44 BC); EDTF counts astronomically (-0043 is 44 BC)
            year += 1
        text = f"-{abs(year):04d}" if year < 0 else f"{year:04d}"
        return text + "".join(f"-{n:02d}" for n in rest)

    def to_edtf(self) -> str | None:
        """EDTF text (``2003-07``, ``2003/2005``, ``2017-23`` for autumn 2017), or ``None`` for a
        literal-only date."""
        parts = self.parts
        if not parts:
            return None
        if len(parts) == 1:
            text = self._part_to_edtf(parts[0])
            return text + "~" if self.circa else text
        return "/".join([self._part_to_edtf(p) for p in parts])

    @classmethod
    def from_edtf(cls, text: str) -> Date:
        """Parse an ISO/EDTF date or range (seasons 21-24, open ends); anything else is a literal date."""
        stripped = text.strip()
        circa = stripped.endswith("~")
        body = stripped.rstrip("~?%")
        # A time part (``2026-04-20T17:59:59Z``) carries no bibliographic meaning.
        body = re.sub(r"[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$", "", body)
        parts: list[tuple[int, ...]] = []
        pieces = body.split("/") if body else []
        open_ends = ("", "..")
        for piece in pieces:
            if piece in open_ends and len(pieces) == 2 and not all(p in open_ends for p in pieces):
                parts.append((0,))  # an open or unknown end (``2014/``, ``2014/..``): CSL's year 0
                continue
            match = _EDTF.match(piece)
            if not match:
                return cls(literal=stripped)
            numbers = tuple(int(g) for g in match.groups() if g is not None)
            if numbers[0] <= 0:  # EDTF counts astronomically (0000 is 1 BC); CSL has no year 0
                numbers = (numbers[0] - 1, *numbers[1:])
            if not valid_date_part(numbers):
                return cls(literal=stripped)
            parts.append(numbers)
        if not parts or len(parts) > 2:
            return cls(literal=stripped) if stripped else cls()
        return cls(parts=tuple(parts), circa=circa)

    def to_csl(self) -> dict[str, Any]:
        """The CSL-JSON date object; a season is written as month 13-16, as citeproc-js reads it."""
        out: dict[str, Any] = {}
        if self.parts:
            out["date-parts"] = [
                [p[0], p[1] - 8] if len(p) == 2 and p[1] > 20 else list(p) for p in self.parts
            ]
        if self.season:
            out["season"] = self.season
        if self.circa:
            out["circa"] = True
        if self.literal:
            out["literal"] = self.literal
        return out

    @classmethod
    def from_csl(cls, data: Mapping[str, Any] | str) -> Date:
        """Read a CSL-JSON date object or an EDTF string (see :func:`bibconv.dates.date_from_csl`)."""
        from bibconv.dates import date_from_csl

        return date_from_csl(data)


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
        setter = object.__setattr__
        setter(self, "type", type)
        setter(self, "id", id)
        setter(self, "fields", _frozen(fields))
        setter(self, "names", _frozen({k: tuple(v) for k, v in names.items()} if names else None))
        setter(self, "dates", _frozen(dates))
        setter(self, "keywords", tuple(keywords))
        setter(self, "arxiv", arxiv)
        setter(self, "extra", _frozen(extra))
        setter(self, "origin", origin)
        setter(self, "source", source)

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
            copy = object.__new__(Record)
            for name in Record.__slots__:
                object.__setattr__(copy, name, changes[name] if name in changes else getattr(self, name))
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


def _immutable(cls: type) -> None:
    """Make assigning to an attribute of ``cls`` say how to change such an object instead."""

    def refuse(self: object, name: str, value: object = None) -> None:
        kind = type(self).__name__
        how = f"record.replace({name}=…)" if kind == "Record" else f"dataclasses.replace(obj, {name}=…)"
        raise FrozenInstanceError(
            f"cannot set {name!r}: a {kind} is immutable; make a changed copy with {how}"
        )

    cls.__setattr__ = refuse  # type: ignore[method-assign]
    cls.__delattr__ = refuse  # type: ignore[method-assign,assignment]


for _cls in (Name, Date, Arxiv, Record, SourceSpan, Source):
    _immutable(_cls)
