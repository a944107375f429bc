"""Delimited spans (``$…$``, ``<…>``) found in one left-to-right pass.

A pattern such as ``<[^>]*>`` is quadratic under ``search`` where no closer follows: every opener
is tried again and scans to the end. :func:`split_spans` cuts text as ``re.split`` would with
``(o1[^c1]*c1|o2[^c2]*c2|…)``, but learns once that a closer does not come again.
"""

from __future__ import annotations

__all__ = ["split_spans", "without_spans"]


def split_spans(text: str, pairs: tuple[tuple[str, str], ...]) -> list[str]:
    """``text`` cut around each span from an opener to the next closer of its pair, leftmost first
    (the earlier pair where two start at the same place): outside, span, outside, … span, outside.

    >>> split_spans("a $x$ <b>c</b>", (("$", "$"), ("<", ">")))
    ['a ', '$x$', ' ', '<b>', 'c', '</b>', '']
    >>> split_spans("<<a", (("<", ">"),))
    ['<<a']
    """
    parts: list[str] = []
    # Each pair's next opener at or after pos (-1: not looked up yet), None once its closer never comes.
    opens: list[int | None] = [-1] * len(pairs)
    start = pos = 0
    while True:
        first, at = -1, -1
        for i, (opener, _) in enumerate(pairs):
            found = opens[i]
            if found is not None and found < pos:
                found = opens[i] = text.find(opener, pos)
            if found is not None and found >= 0 and (at < 0 or found < at):
                first, at = i, found
        if first < 0:
            break
        end = text.find(pairs[first][1], at + 1)
        if end < 0:  # no closer after this opener, so none after any later one
            opens[first] = None
            continue
        parts += [text[start:at], text[at : end + 1]]
        start = pos = end + 1
    parts.append(text[start:])
    return parts


def without_spans(text: str, opener: str, closer: str) -> str:
    """``text`` with each span from ``opener`` to the next ``closer`` removed (as substituting
    ``<[^>]*>`` with nothing does, for ``<`` and ``>``).

    >>> without_spans("a<b>c<d", "<", ">")
    'ac<d'
    """
    return "".join(split_spans(text, ((opener, closer),))[::2])
