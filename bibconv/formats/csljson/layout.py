"""Indented JSON text with the C string encoder: the bytes of ``json.dumps(value, indent=n)``, faster.

With ``indent`` set, :func:`json.dumps` leaves its C encoder for the pure-Python one, which walks every
value through nested generators. Here each string still goes through the C encoder
(:func:`json.encoder.encode_basestring`) and the layout (one member per line, ``,`` at line ends,
``": "`` after keys, ``{}``/``[]`` when empty) is built with joins. Anything unusual (a key that is not a
string, a value of another type) falls back to :func:`json.dumps` itself, so the text is always the one
the standard library writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

__all__ = ["dumps_indented"]


class _UnusualValueError(Exception):
    """A value the fast layout leaves to :func:`json.dumps`."""


def dumps_indented(value: Any, indent: int, *, ensure_ascii: bool = True, margin: str = "") -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=...)`` with ``margin`` before every line.

    >>> dumps_indented({"a": [1, {"b": None}], "c": {}}, 2, margin="  ")
    '  {\\n    "a": [\\n      1,\\n      {\\n        "b": null\\n      }\\n    ],\\n    "c": {}\\n  }'
    """
    string = encode_basestring_ascii if ensure_ascii else encode_basestring
    try:
        return margin + _layout(value, "\n" + margin, " " * indent, string)
    except _UnusualValueError:
        body = json.dumps(value, ensure_ascii=ensure_ascii, indent=indent)
        return margin + body.replace("\n", "\n" + margin)  # JSON strings hold no raw line breaks


def _layout(value: Any, newline: str, step: str, string: Callable[[str], str]) -> str:
    """``value`` laid out at the depth whose line start is ``newline``."""
    kind = type(value)
    if kind is str:
        return string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + step
        members = [
            string(key) + ": " + (string(item) if type(item) is str else _layout(item, inner, step, string))
            if type(key) is str
            else _unusual()
            for key, item in value.items()
        ]
        return "{" + inner + ("," + inner).join(members) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = newline + step
        items = [string(x) if type(x) is str else _layout(x, inner, step, string) for x in value]
        return "[" + inner + ("," + inner).join(items) + newline + "]"
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is float:
        return json.dumps(value)  # the encoder's float forms (NaN, Infinity)
    raise _UnusualValueError


def _unusual() -> str:
    raise _UnusualValueError
