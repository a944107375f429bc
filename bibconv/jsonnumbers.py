"""JSON decoding that refuses the numbers no bibliography holds.

Python's :mod:`json` accepts ``NaN``, ``Infinity`` and ``-Infinity`` (which are not JSON), turns
``1e999`` into an infinity that no JSON writer can write back, and raises a bare
:class:`ValueError` on an integer of more than 4,300 digits. The decoder here raises
:class:`NumberError` for each of them instead, which the JSON readers report as a bad record
naming its file and line.
"""

from __future__ import annotations

import json
import math
from typing import Any, NoReturn

__all__ = ["DECODER", "MAX_NUMBER_CHARS", "NumberError", "loads"]

# Far above any number a bibliography holds (an ISBN has 13 digits), and below Python's own
# limit on converting integers to and from text (4,300 digits).
MAX_NUMBER_CHARS = 1000


class NumberError(ValueError):
    """A number in JSON text that bibconv refuses: too long, not finite, or not JSON."""


def _number_text(text: str) -> str:
    """``text`` for an error message, shortened when long."""
    return text if len(text) <= 20 else f"{text[:10]}… ({len(text):,} characters)"


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError(f"number {_number_text(text)} is longer than {MAX_NUMBER_CHARS:,} characters")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError(f"number {_number_text(text)} is longer than {MAX_NUMBER_CHARS:,} characters")
    value = float(text)
    if not math.isfinite(value):
        raise NumberError(f"number {_number_text(text)} is out of range")
    return value


def _parse_constant(text: str) -> NoReturn:
    raise NumberError(f"{text} is not a JSON value")


DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)


def loads(text: str | bytes) -> Any:
    """:func:`json.loads` with :data:`DECODER`'s number rules."""
    if isinstance(text, bytes):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    return DECODER.decode(text)
