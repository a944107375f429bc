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

__all__ = ["Layout", "dumps_indented"]


class _UnusualValueError(Exception):
    """A value the fast layout leaves to :func:`json.dumps`."""


class _Keys(dict[str, str]):
    """Each member key as the layout writes it (``"key": ``), made on first use: an item's keys are
    mostly the few names of the CSL vocabulary. Up to :attr:`LIMIT` are kept."""

    LIMIT = 4096

    def __init__(self, string: Callable[[str], str]) -> None:
        super().__init__()
        self.string = string

    def __missing__(self, key: Any) -> str:
        if type(key) is not str:
            raise _UnusualValueError
        text = self.string(key) + ": "
        if len(self) < self.LIMIT:
            self[key] = text
        return text


_KEYS = {False: _Keys(encode_basestring), True: _Keys(encode_basestring_ascii)}


class Layout:
    """``json.dumps(value, indent=indent, ensure_ascii=...)`` with ``margin`` before every line and
    ``before`` in front, for the many values of one output (what their layout shares made once).

    >>> Layout(2, margin="  ", before="\\n").dumps({"a": "b"})
    '\\n  {\\n    "a": "b"\\n  }'
    """

    def __init__(self, indent: int, *, ensure_ascii: bool = True, margin: str = "", before: str = "") -> None:
        self.indent, self.ensure_ascii, self.margin, self.before = indent, ensure_ascii, margin, before
        self.keys = _KEYS[bool(ensure_ascii)]
        self.newline = "\n" + margin
        self.step = " " * indent
        self.inner = self.newline + self.step
        self.open, self.close = before + margin + "{" + self.inner, self.newline + "}"

    def dumps(self, value: Any) -> str:
        """``value`` laid out."""
        try:
            if type(value) is dict and value:  # an item: its members laid out at once
                return self.open + _members(value, self.inner, self.step, self.keys) + self.close
            return self.before + self.margin + _layout(value, self.newline, self.step, self.keys)
        except _UnusualValueError:
            body = json.dumps(value, ensure_ascii=self.ensure_ascii, indent=self.indent)
            # JSON strings hold no raw line breaks: each one starts a line of the layout
            return self.before + self.margin + body.replace("\n", self.newline)


def dumps_indented(value: Any, indent: int, *, ensure_ascii: bool = True, margin: str = "") -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=...)`` with ``margin`` before every line.

    >>> dumps_indented({"a": [1, {"b": None}], "c": {}}, 2, margin="  ")
    '  {\\n    "a": [\\n      1,\\n      {\\n        "b": null\\n      }\\n    ],\\n    "c": {}\\n  }'
    """
    return Layout(indent, ensure_ascii=ensure_ascii, margin=margin).dumps(value)


def _layout(value: Any, newline: str, step: str, keys: _Keys) -> str:
    """``value`` laid out at the depth whose line start is ``newline`` (``keys``: its encoding)."""
    kind = type(value)
    string = keys.string
    if kind is str:
        return string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + step
        return "{" + inner + _members(value, inner, step, keys) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = newline + step
        items = [string(x) if type(x) is str else _layout(x, inner, step, keys) for x in value]
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


def _members(value: dict[Any, Any], inner: str, step: str, keys: _Keys) -> str:
    """The members of a dict that has some, each on its line (which starts with ``inner``)."""
    string = keys.string
    members = [
        keys[key] + (string(item) if type(item) is str else _layout(item, inner, step, keys))
        for key, item in value.items()
    ]
    return ("," + inner).join(members)
