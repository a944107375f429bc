"""How a worker's text travels to the parent of :mod:`bibconv.parallel` and into the output.

A worker's text goes back as UTF-8 bytes (pickle re-encodes a ``str`` that holds non-ASCII
characters both ways, and the parent writes bytes as they are) with the key markers taken out
and their places noted, so that the parent puts in a suffix only where a key needs one; the key
proposals go as one string and arrays (:class:`Proposals`). Its reports go back as rows of plain
values (:func:`packed`).
"""

from __future__ import annotations

import bisect
import io
import itertools
import re
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TextIO, cast

from bibconv.errors import Diagnostic
from bibconv.model import SourceSpan

__all__ = ["Proposals", "Row", "Text", "byte_writer", "encoded", "filled", "packed", "unpacked"]

Row = tuple[str, Any, "str | None", str]
"""A report as :func:`packed` sends it: message, span (its slots' values, or ``None``), record, severity."""

_span_values = attrgetter(*SourceSpan.__slots__)


def _numbers(values: Iterable[int] = ()) -> array[int]:
    """``values`` as machine integers: 8 bytes each, where a list of ints takes 40 in memory."""
    return array("q", values)


@dataclass
class Text:
    """Output text as UTF-8 bytes with the key markers taken out: for each marker, in order, its
    byte offset (``at``) and its record (``records``, ascending)."""

    data: bytes = b""
    at: array[int] = field(default_factory=_numbers)
    records: array[int] = field(default_factory=_numbers)
    ordered: bool = True  # ``at`` ascending too (else sorted by record, ``at`` ascending within one)


@dataclass
class Proposals:
    """The key proposals of a piece's records, in order: for each, its record (``records``), where
    it ends in ``joined``, and whether it is the record's own id (``given``, 1 or 0). About 20 bytes
    a key in the parent, which holds the pieces in flight, where a tuple of an int, a string and a
    bool takes some 150."""

    records: array[int] = field(default_factory=_numbers)
    ends: array[int] = field(default_factory=_numbers)
    joined: str = ""
    given: bytes = b""

    @classmethod
    def of(cls, records: Iterable[int], proposals: list[str], given: Iterable[bool]) -> Proposals:
        """The proposals ``proposals`` of ``records`` (``given``: each the record's own id)."""
        ends = _numbers(itertools.accumulate(map(len, proposals)))
        return cls(_numbers(records), ends, "".join(proposals), bytes(given))

    def __len__(self) -> int:
        return len(self.records)

    def proposals(self) -> list[str]:
        """Each proposal, in order."""
        joined = self.joined
        return [joined[a:b] for a, b in itertools.pairwise(itertools.chain((0,), self.ends))]

    def __iter__(self) -> Iterator[tuple[int, str, bool]]:
        """``(record, proposal, given)`` for each proposal, in order.

        >>> list(Proposals.of([0, 2, 3], ["smith2020", "", "ké"], [False, False, True]))
        [(0, 'smith2020', False), (2, '', False), (3, 'ké', True)]
        """
        return zip(self.records, self.proposals(), map(bool, self.given), strict=True)


BLOCK = 1 << 18
"""Characters of text that :func:`encoded` takes at once: the parts of one block, not of a piece's
text (3 objects of some 50 bytes an entry to CSL-JSON), are in memory together."""


def encoded(text: str, token: bytes, marker: re.Pattern[bytes], block: int = BLOCK) -> Text:
    """``text`` in UTF-8 with the key markers (``token``, a record number, ``z``: ``marker``)
    taken out and their places noted, a ``block`` of characters or so at a time (cut before a
    marker).

    Bytes cross to the parent at the cost of a copy (a ``str`` with non-ASCII characters is
    re-encoded both ways by pickle), and the parent writes them as they are.
    """
    marked = token.decode("ascii")
    if marked not in text:
        return Text(text.encode("utf-8"))
    datas: list[bytes] = []
    at, records = _numbers(), _numbers()
    size = start = 0
    while start < len(text):
        cut = text.find(marked, start + block)
        stop = len(text) if cut < 0 else cut
        parts = marker.split(text[start:stop].encode("utf-8"))  # text, record, text, record … text
        texts = parts[0::2]
        at.extend(size + end for end in itertools.accumulate(map(len, texts[:-1])))
        records.extend(map(int, parts[1::2]))
        datas.append(b"".join(texts))
        size += len(datas[-1])
        start = stop
    data = b"".join(datas)
    if any(a > b for a, b in itertools.pairwise(records)):  # a writer that writes another record's key
        order = sorted(range(len(records)), key=records.__getitem__)
        at, records = _numbers(at[k] for k in order), _numbers(records[k] for k in order)
        return Text(data, at, records, ordered=False)
    return Text(data, at, records)


def packed(reports: list[Diagnostic]) -> list[Row]:
    """``reports`` as rows of strings, numbers and ``None``, which pickle writes and reads without
    calling Python code (a frozen dataclass's own pickling calls two functions per object, and
    ``dataclasses.fields`` in each: 12 µs a report there and back, a fifth of that as rows)."""
    return [(d.message, d.span and _span_values(d.span), d.record_id, d.severity) for d in reports]


def unpacked(rows: list[Row]) -> list[Diagnostic]:
    """The reports that :func:`packed` made ``rows`` of.

    >>> reports = [Diagnostic("odd", SourceSpan("a.bib", 3), "k"), Diagnostic("bad", None, None, "error")]
    >>> unpacked(packed(reports)) == reports
    True
    """
    return [Diagnostic(m, None if s is None else SourceSpan(*s), r, v) for m, s, r, v in rows]


def filled(text: Text, suffixes: dict[int, bytes]) -> bytes:
    """``text`` with the suffix of each key that needs one put in its place."""
    data, records = text.data, text.records
    if not suffixes or not records:
        return data
    places: list[tuple[int, bytes]]
    if len(suffixes) * 16 > len(records):  # most markers get one: walk them all
        marks = zip(text.at, records, strict=True)
        places = [(at, suffix) for at, record in marks if (suffix := suffixes.get(record))]
    else:
        places = []
        for record in sorted(suffixes):  # a few; their markers found by bisection
            k = bisect.bisect_left(records, record)
            while k < len(records) and records[k] == record:
                places.append((text.at[k], suffixes[record]))
                k += 1
    if not places:
        return data
    if not text.ordered:
        places.sort()
    out: list[bytes] = []
    last = 0
    for at, suffix in places:
        out += (data[last:at], suffix)
        last = at
    out.append(data[last:])
    return b"".join(out)


def byte_writer(stream: TextIO) -> Callable[[bytes], None]:
    """Writes UTF-8 text to ``stream`` (opened with ``newline=""``, as writers expect): straight
    to the bytes under a UTF-8 text file, decoded for any other stream."""
    import codecs

    buffer = getattr(stream, "buffer", None)
    if (
        isinstance(stream, io.TextIOWrapper)
        and buffer is not None
        and codecs.lookup(stream.encoding).name == "utf-8"
    ):
        stream.flush()
        return cast(Callable[[bytes], None], buffer.write)

    def write(data: bytes) -> None:
        if data:
            stream.write(data.decode("utf-8"))

    return write
