"""Hardened streaming XML input for the feed reader: a byte tap that notes the DOCTYPE's line and
replays the head, and a probe that finds the root element before the body is parsed.

lxml is passed in (``etree``), so importing this module stays cheap.
"""

from __future__ import annotations

from typing import IO, Any

__all__ = ["PARSER_OPTIONS", "Tap", "probe"]

PARSER_OPTIONS: dict[str, Any] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
}
_CHUNK = 32768
"""Bytes read at a time (lxml's iterparse reads as much)."""
_PROBE_SLICE = 512


class Tap:
    """Passes a byte stream to the parser, notes the line of a ``<!DOCTYPE``, and can replay the head."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self.scanning = True
        self.doctype_line: int | None = None
        self._newlines = 0
        self._tail = b""
        self._again: list[bytes] = []

    def replay(self, chunks: list[bytes]) -> None:
        """Give ``chunks`` (read already) once more before reading on."""
        self._again = chunks[::-1]

    def read(self, size: int = -1) -> bytes:
        if self._again:
            return self._again.pop()
        data = self._stream.read(size)
        if self.scanning and data and self.doctype_line is None:
            window = self._tail + data
            found = window.find(b"<!DOCTYPE")
            if found >= 0:
                self.doctype_line = (
                    self._newlines - self._tail.count(b"\n") + window.count(b"\n", 0, found) + 1
                )
            self._newlines += data.count(b"\n")
            self._tail = window[-9:]
        return data


def probe(tap: Tap, etree: Any) -> Any:
    """The root element, or ``None`` if the document breaks (or ends) before it.

    The head is parsed on its own, in small slices, until the root's start tag; its bytes are
    then handed to the main parser again, so the root and DOCTYPE are checked before the body
    is parsed, and the main parser can ask for entries and the root's end only.
    """
    parser = etree.XMLPullParser(events=("start",), **PARSER_OPTIONS)
    chunks: list[bytes] = []
    try:
        while True:
            data = tap.read(_CHUNK)
            if not data:
                parser.close()
                break
            chunks.append(data)
            for start in range(0, len(data), _PROBE_SLICE):
                parser.feed(data[start : start + _PROBE_SLICE])
                for _event, elem in parser.read_events():
                    return elem
    except etree.XMLSyntaxError:
        pass
    finally:
        tap.replay(chunks)
    for _event, elem in parser.read_events():
        return elem
    return None
