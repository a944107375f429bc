"""arXiv's public metadata snapshot: one JSON object per line (reader ``arxiv-jsonl``).

The snapshot (Kaggle's ``arxiv-metadata-oai-snapshot.json``, about 2.7 million lines) holds
one preprint per line::

    {"id": "0704.0001", "submitter": "Pavel Nadolsky",
     "authors": "C. Bal\\\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
     "title": "Calculation of prompt diphoton production cross sections at Tevatron and\\n  LHC energies",
     "comments": "37 pages, 15 figures; published version", "journal-ref": "Phys.Rev.D76:013009,2007",
     "doi": "10.1103/PhysRevD.76.013009", "report-no": "ANL-HEP-PR-07-12", "categories": "hep-ph",
     "license": null, "abstract": "  A fully differential calculation ...\\n",
     "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}, ...],
     "update_date": "2008-11-26",
     "authors_parsed": [["Bal\\u00e1zs", "C.", ""], ["Berger", "E. L.", ""], ...]}

Mapping to the canonical record (type ``article``, an arXiv preprint):

* ``authors_parsed`` ``[family, given, suffix, affiliation…]`` → ``author`` names (TeX decoded
  where there is any). A lowercase particle (``van den``) becomes the non-dropping particle, at
  the start of the family name or, where arXiv's splitter left it there, at the end of the given
  names; a ``… Collaboration`` with no given name becomes a literal name. Only when a line has no
  ``authors_parsed`` is the ``authors`` string split instead.
* ``title``, ``abstract`` → rich text, TeX decoded (math kept verbatim), whitespace collapsed.
* ``versions`` → the arXiv block: ``version`` = the last one, ``submitted`` = v1's date,
  ``updated`` = the last version's date; ``issued`` is v1's date (``arxiv_date="version"``: the
  last version's). ``categories`` (space separated, primary first) → ``primary_class`` and
  ``categories``; ``comments`` → ``comment``; ``journal-ref`` → ``journal_ref``.
* ``doi`` (the journal's DOI) → ``DOI``; further DOIs on the same line stay in ``arxiv:doi``.
* ``license`` → extra ``arxiv:license``; ``report-no`` → extra ``arxiv:report-no`` (CSL's
  ``number`` already holds ``arXiv:<id>`` for a preprint, so the report number is kept apart).
* ``submitter``, ``update_date`` and the raw ``authors`` string are not bibliographic data
  and are not kept.
* An ``id`` that is no arXiv id is the record's id, with a warning, and no arXiv block is made of it
  (its DOI and URL would name nothing): ``categories``, ``comments`` and ``journal-ref`` stay in extra.

Bulk processing: :func:`records_from_snapshot` maps any iterable of lines (``str`` or
``bytes``) or already parsed objects (``dict``) to records, so the same code runs over a
partition in Dask or Spark. With Dask (``pip install "bibconv[dask]"``)::

    import dask.bag as db
    from bibconv.formats.arxiv_jsonl import records_from_snapshot

    def to_csl(lines):
        return [r.to_csl() for r in records_from_snapshot(lines, strict=False)]

    items = db.read_text("arxiv-metadata-oai-snapshot.json", blocksize="64MiB")
    items.map_partitions(to_csl).map(json.dumps).to_textfiles("csl/*.jsonl")

and with Spark::

    rdd = spark.sparkContext.textFile("arxiv-metadata-oai-snapshot.json")
    csl = rdd.mapPartitions(lambda lines: (r.to_csl() for r in records_from_snapshot(lines)))

Records are picklable, so a partition may also return them as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, ClassVar

from bibconv.arxiv import ARXIV_ID, published_parts
from bibconv.errors import Diagnostic, ParseError, ReadError
from bibconv.formats.arxiv_jsonl.names import names_from_string, parsed_name
from bibconv.jsonnumbers import DECODER, NumberError
from bibconv.jsonnumbers import loads as json_loads
from bibconv.latex import decode
from bibconv.model import Arxiv, Date, FrozenDict, Name, Record, SourceSpan
from bibconv.patterns import lazy
from bibconv.registry import ReadContext, register
from bibconv.textio import JSON_SURROGATE, iter_lines, open_text

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = ["ArxivJsonlReader", "record_from_snapshot", "records_from_snapshot"]

_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
# "Mon, 2 Apr 2007 19:18:42 GMT" (RFC 2822, the form arXiv uses in ``versions``).
_CREATED = lazy(r"(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})")
_VERSION = lazy(r"v?(\d+)$")
_SPACE = lazy(r"\s+")
_SNIFF_KEYS = ('"authors_parsed"', '"versions"', '"update_date"', '"categories"', '"submitter"')


def _clean(value: Any) -> str | None:
    """A string value with its whitespace runs collapsed; ``None`` for null or empty."""
    if value is None:
        return None
    text = value if isinstance(value, str) else str(value)
    if "\n" in text or "  " in text or "\t" in text:
        text = _SPACE.sub(" ", text)
    text = text.strip()
    return text or None


def _rich(value: Any) -> str | None:
    """Title or abstract text → rich text (TeX decoded only where there is TeX)."""
    if value is None or value == "":
        return None
    return decode(value if isinstance(value, str) else str(value), markup=True) or None


def _date(created: Any) -> Date | None:
    match = _CREATED.search(created) if isinstance(created, str) else None
    if match is None:
        return None
    month = _MONTHS.get(match[2].lower())
    if month is None:
        return None
    return Date(parts=((int(match[3]), month, int(match[1])),))


def _versions(value: Any) -> list[tuple[int, Any]]:
    if not value:
        return []
    if not isinstance(value, list):
        raise ValueError("'versions' must be a list of {version, created} objects")
    found = []
    for item in value:
        if not isinstance(item, Mapping):
            raise ValueError("'versions' must be a list of {version, created} objects")
        match = _VERSION.match(str(item.get("version", "")).strip())
        if match is None:
            raise ValueError(f"bad version {item.get('version')!r} in 'versions'")
        found.append((int(match[1]), item.get("created")))
    found.sort(key=lambda v: v[0])
    return found


def _snapshot_id(
    item: Mapping[str, Any], ctx: ReadContext | None, origin: SourceSpan | None
) -> tuple[str, int | None, bool]:
    """The object's arXiv id, the version it names, and whether it is one (an id that is none is kept
    as it is, with a warning at ``origin``, the record's own span)."""
    raw_id = item.get("id")
    if not isinstance(raw_id, str) or not (raw_id := raw_id.strip()):
        raise ValueError("the object has no arXiv 'id'")
    match = ARXIV_ID.fullmatch(raw_id) if "." in raw_id or "/" in raw_id else None  # every id has one
    if match is None and ctx is not None:  # ctx.warn, with the span made once for the record and it
        message = f"{raw_id!r} is not an arXiv identifier: kept as the record's id, no arXiv link made of it"
        ctx.diagnostics.append(Diagnostic(message, origin, raw_id, "warning"))
    if match is None:
        return raw_id, None, False
    return match["id"], int(match["version"]) if match["version"] else None, True


def _authors(item: Mapping[str, Any]) -> tuple[Name, ...]:
    """The authors: from ``authors_parsed`` ([family, given, suffix] lists), else the ``authors`` line."""
    parsed = item.get("authors_parsed")
    if parsed:
        if not isinstance(parsed, list):
            raise ValueError("'authors_parsed' must be a list of [family, given, suffix] lists")
        return tuple(parsed_name(p) for p in parsed)
    if isinstance(item.get("authors"), str) and item["authors"].strip():
        return names_from_string(item["authors"])
    return ()


def _fields_and_extra(item: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """Title, abstract and DOI; the other DOIs, the licence and the report number in ``extra``."""
    fields: dict[str, str] = {}
    title = _rich(item.get("title"))
    if title:
        fields["title"] = title
    abstract = _rich(item.get("abstract"))
    if abstract:
        fields["abstract"] = abstract
    extra: dict[str, Any] = {}
    doi = item.get("doi")
    dois = str(doi).split() if doi else ()
    if dois:
        fields["DOI"] = dois[0]
        if len(dois) > 1:
            extra["arxiv:doi"] = " ".join(dois)
    for key, name in _EXTRA_KEYS:
        if (value := item.get(key)) is not None and (value := _clean(value)):
            extra[name] = value
    return fields, extra


_EXTRA_KEYS = (("license", "arxiv:license"), ("report-no", "arxiv:report-no"))  # kept in extra, as named
_NONE: FrozenDict[str, Any] = FrozenDict()  # shared by the records that have no such mapping


def record_from_snapshot(
    item: Mapping[str, Any], ctx: ReadContext | None = None, line: int | None = None
) -> Record:
    """The canonical record of one parsed snapshot object; ``ValueError`` when it is malformed.

    >>> r = record_from_snapshot({"id": "0704.0001", "title": "Diphoton production",
    ...     "authors_parsed": [["Bal\\\\'azs", "C.", ""]], "categories": "hep-ph",
    ...     "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}]})
    >>> r.authors[0].family, r.arxiv.versioned_id, r.issued.to_edtf()
    ('Balázs', '0704.0001v1', '2007-04-02')
    """
    if type(item) is not dict and not isinstance(item, Mapping):  # a dict is one: the ABC check costs
        raise ValueError("a snapshot line must hold a JSON object")
    origin = ctx.span(line) if ctx is not None else None
    arxiv_id, id_version, is_arxiv = _snapshot_id(item, ctx, origin)
    authors = _authors(item)
    given_versions = item.get("versions")
    versions = _versions(given_versions) if given_versions else []
    submitted = _date(versions[0][1]) if versions else None
    updated = _date(versions[-1][1]) if versions else None
    if versions and (submitted is None or updated is None) and ctx is not None:
        ctx.warn("a version date is not in the form 'Mon, 2 Apr 2007 19:18:42 GMT'", line, arxiv_id)
    given = item.get("categories")
    categories = tuple(str(given).split()) if given else ()
    fields, extra = _fields_and_extra(item)
    comment, journal_ref = _clean(item.get("comments")), _clean(item.get("journal-ref"))
    arxiv = None  # made only where it is kept, or a journal reference needs it (as_published)
    if is_arxiv or journal_ref is not None:
        arxiv = Arxiv(
            id=arxiv_id,
            version=versions[-1][0] if versions else id_version,
            primary_class=categories[0] if categories else None,
            categories=categories,
            submitted=submitted,
            updated=updated,
            comment=comment,
            journal_ref=journal_ref,
        )
    by_version = ctx is not None and ctx.option("arxiv_date", "v1") == "version"
    issued = updated if by_version else submitted
    dates: Mapping[str, Date] = {"issued": issued} if issued else _NONE
    kind = "article"
    if journal_ref is not None:  # as_published, before the record is made (there is no venue)
        warn = None if ctx is None else lambda message: ctx.warn(message, line, arxiv_id)
        kind, fields, dates = published_parts(kind, fields, dates, arxiv, warn) or (kind, fields, dates)
    return Record(
        type=kind,
        id=None if is_arxiv else arxiv_id,
        fields=fields,
        names={"author": authors} if authors else None,
        dates=dates,
        arxiv=arxiv if is_arxiv else None,  # no eprint, DOI or URL is made of an id that is none
        extra=(extra or _NONE) if is_arxiv else {**extra, **_not_arxiv(categories, comment, journal_ref)},
        origin=origin,
    )


def _not_arxiv(categories: tuple[str, ...], comment: str | None, journal_ref: str | None) -> dict[str, str]:
    """What the snapshot says of an object whose id is no arXiv id, in ``extra`` as it is named there."""
    kept = {
        "arxiv:categories": " ".join(categories),
        "arxiv:comments": comment,
        "arxiv:journal-ref": journal_ref,
    }
    return {key: value for key, value in kept.items() if value}


def _loads(line: str | bytes) -> Any:
    """The JSON value of ``line`` (:func:`bibconv.jsonnumbers.loads`); a line that is one value
    with no space around it, as a snapshot's lines are, is scanned once."""
    if isinstance(line, str):
        try:
            item, end = DECODER.raw_decode(line)
            if end == len(line):
                return item
        except json.JSONDecodeError:
            pass  # perhaps only the spaces around it: the full decoder says
    return json_loads(line)


def _read(lines: Iterable[tuple[int, str | bytes | Mapping[str, Any]]], ctx: ReadContext) -> Iterator[Record]:
    for number, line in lines:
        if not isinstance(line, (str, bytes)) and isinstance(line, Mapping):
            item: Any = line
        else:
            if not line or line.isspace():
                continue
            if isinstance(line, str) and "\\u" in line:
                ctx.escapes += len(JSON_SURROGATE.findall(line))
            try:
                item = _loads(line)
            except json.JSONDecodeError as exc:
                message = exc.msg.removesuffix(" at").removesuffix(" starting")
                ctx.fail(ParseError(f"invalid JSON: {message}", ctx.span(number, exc.colno)))
                continue
            except UnicodeDecodeError as exc:
                ctx.fail(ParseError(f"invalid UTF-8 byte at offset {exc.start}", ctx.span(number)))
                continue
            except NumberError as exc:
                ctx.fail(ParseError(f"invalid JSON: {exc}", ctx.span(number)))
                continue
            except RecursionError:
                ctx.fail(ParseError("invalid JSON: arrays or objects nested too deeply", ctx.span(number)))
                continue
        try:
            yield record_from_snapshot(item, ctx, number)
        except (ValueError, TypeError, KeyError) as exc:
            key = item.get("id") if isinstance(item, Mapping) else None
            ctx.fail(ReadError(str(exc), ctx.span(number), str(key) if key else None))


def records_from_snapshot(
    lines: Iterable[str | bytes | Mapping[str, Any]],
    *,
    strict: bool = True,
    arxiv_date: str = "v1",
    filename: str | None = None,
    diagnostics: list[Diagnostic] | None = None,
) -> Iterator[Record]:
    """Records from snapshot lines (``str``/``bytes``) or parsed objects, one by one.

    This is the map-over-partitions building block (see the module docstring): it works
    on any iterator and keeps no state between lines. With ``strict=False`` bad lines are
    skipped and reported in ``diagnostics``; line numbers count from 1 within ``lines``.

    >>> line = ('{"id": "1201.4869", "title": "A Luttinger Liquid Core", "categories": "cond-mat.other",'
    ...         ' "authors_parsed": [["Del Maestro", "Adrian", ""]]}')
    >>> [r.authors[0].display() for r in records_from_snapshot([line])]
    ['Adrian Del Maestro']
    """
    ctx = ReadContext(filename=filename, strict=strict, options={"arxiv_date": arxiv_date})
    if diagnostics is not None:
        ctx.diagnostics = diagnostics
    return _read(enumerate(lines, 1), ctx)


@register
class ArxivJsonlReader:
    """Reads arXiv's metadata snapshot (JSON lines), streaming line by line."""

    name: ClassVar[str] = "arxiv-jsonl"
    # ".json" is shared with CSL-JSON, so a ".json" file is told apart by its content.
    extensions: ClassVar[tuple[str, ...]] = (".jsonl", ".json")
    description: ClassVar[str] = "arXiv metadata snapshot, JSON lines (read only)"

    @staticmethod
    def sniff(head: str) -> float:
        text = head.lstrip()
        if not text.startswith("{") or text.startswith("{}"):
            return 0.0
        first = text.split("\n", 1)[0]
        hits = sum(key in first for key in _SNIFF_KEYS)
        if '"authors_parsed"' in first or '"versions"' in first:
            return 1.0 if hits >= 2 else 0.8
        # A long first line may be cut at 4 KiB before those keys: arXiv's key order helps.
        if first.startswith('{"id"') and '"submitter"' in first:
            return 0.7
        return 0.0

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        return _read(iter_lines(open_text(stream, ctx)), ctx)

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input at line ends into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.parallel.pieces import split_lines

        return split_lines(stream, size)
