"""Size limits on input, so that hostile or broken files fail fast with bounded memory.

The defaults are far above real bibliographic data (the largest arXiv author list has
about 5,000 names; the whole arXiv metadata snapshot is about 4.5 GB) and can be changed
per call (``bibconv.read(path, limits=Limits(max_names=100))``) or on the command line
(``--max-input-size``, ``--max-field-size``, ``--max-names``).

| limit | default | what exceeds it |
|---|---|---|
| ``max_input_bytes`` | 16 GiB | one input file or stream |
| ``max_field_chars`` | 10,000,000 | one field value (after decoding) |
| ``max_names`` | 20,000 | names in one name list (authors, editors…) |
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from typing import IO

from bibconv.errors import LimitError
from bibconv.model import Record
from bibconv.patterns import lazy
from bibconv.registry import ReadContext
from bibconv.textio import ESCAPED_BYTE

__all__ = ["DEFAULT_LIMITS", "Limits", "checked_records", "limited_stream"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest input, field and name list bibconv accepts."""

    max_input_bytes: int = 16 << 30
    max_field_chars: int = 10_000_000
    max_names: int = 20_000


DEFAULT_LIMITS = Limits()


class _LimitedStream(io.RawIOBase):
    """A binary stream that raises :class:`LimitError` past ``limit`` bytes."""

    def __init__(self, stream: IO[bytes], limit: int, ctx: ReadContext) -> None:
        self._stream = stream
        self._left = limit
        self._limit = limit
        self._ctx = ctx

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._stream.read(min(len(buffer), self._left + 1))
        if len(data) > self._left:
            raise LimitError(
                f"input is larger than the limit of {self._limit:,} bytes (see --max-input-size)",
                self._ctx.span(),
            )
        self._left -= len(data)
        buffer[: len(data)] = data
        return len(data)


def limited_stream(stream: IO[bytes], limits: Limits, ctx: ReadContext) -> IO[bytes]:
    """``stream``, failing once more than ``limits.max_input_bytes`` have been read."""
    return io.BufferedReader(_LimitedStream(stream, limits.max_input_bytes, ctx), 1 << 16)


# Any surrogate left in a string is a lone one (a decoder joins the halves of a pair).
_SURROGATE = lazy("[\ud800-\udfff]")


def _problem(record: Record, limits: Limits, escapes: int) -> str | None:
    """Why ``record`` may not pass (too large, or holding a lone surrogate), else ``None``.

    Records are only searched for lone surrogates once the input may have put some into
    them (``escapes``, counted by the decoder and the JSON readers), so well-formed input
    costs two length checks per record.
    """
    fields = record.fields
    if fields and max(map(len, fields.values())) > limits.max_field_chars:
        for name, value in fields.items():
            if len(value) > limits.max_field_chars:
                limit = limits.max_field_chars
                return f"field {name!r} has {len(value):,} characters, over the limit of {limit:,}"
    for var, names in record.names.items():
        if len(names) > limits.max_names:
            return f"{var!r} has {len(names):,} names, over the limit of {limits.max_names:,}"
    return _escaped_byte(record) if escapes else None


def _escaped_byte(record: Record) -> str | None:
    """The invalid input byte a lenient read left in the record (as a lone surrogate), if any."""
    for text in _strings(record):
        found = _SURROGATE.search(text)
        if found is not None:
            if not ESCAPED_BYTE.match(found.group(0)):
                return (
                    f"lone surrogate U+{ord(found.group(0)):04X} in the record"
                    " (a \\u escape that is half of a pair)"
                )
            byte = ord(found.group(0)) - 0xDC00
            if byte == 0:
                return (
                    "NUL byte (0x00) in the record:"
                    " is this a binary file, or UTF-16 without a byte-order mark?"
                )
            return (
                f"invalid utf-8 byte {byte:#04x} in the record"
                " (save the file as UTF-8, or convert it with iconv)"
            )
    return None


def _strings(value: object) -> Iterator[str]:
    """Every string inside a record (fields, names, dates, extra values and keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings(item)
    elif is_dataclass(value):
        for spec in fields(value):
            yield from _strings(getattr(value, spec.name))


def checked_records(records: Iterator[Record], limits: Limits, ctx: ReadContext) -> Iterator[Record]:
    """Pass records through, failing (or skipping, in lenient mode) those over the limits."""
    most_chars, most_names = limits.max_field_chars, limits.max_names
    for record in records:
        fields, names = record.fields, record.names
        if (  # a glance that passes most records, before the search of :func:`_problem`
            ctx.escapes
            or (fields and max(map(len, fields.values())) > most_chars)
            or (names and max(map(len, names.values())) > most_names)
        ) and (problem := _problem(record, limits, ctx.escapes)) is not None:
            ctx.fail(LimitError(problem, record.origin or ctx.span(), record.id))
            continue
        yield record
