"""Delimited spans (``$…$``, ``<…>``) found in one left-to-right pass.

A pattern such as ``<[^>]*>`` is quadratic under ``search`` where no closer follows: every opener
is tried again and scans to the end. :func:`split_spans` cuts text as ``re.split`` would with
``(o1[^c1]*c1|o2[^c2]*c2|…)``, but learns once that a closer does not come again.
"""

from __future__ import annotations

__all__ = ["split_spans", "without_spans"]


def split_spans(text: str, pairs: tuple[tuple[str, str], ...], least: tuple[int, ...] = ()) -> list[str]:
    """``text`` cut around each span from an opener to the next closer of its pair, leftmost first
    (the earlier pair where two start at the same place): outside, span, outside, … span, outside.
    ``least`` gives each pair's shortest content (0 where not given: ``o[^c]*c``; 1: ``o.+?c``).

    >>> split_spans("a $x$ <b>c</b>", (("$", "$"), ("<", ">")))
    ['a ', '$x$', ' ', '<b>', 'c', '</b>', '']
    >>> split_spans("<<a", (("<", ">"),))
    ['<<a']
    >>> split_spans("$$ $$x$$", (("$$", "$$"), ("$", "$")), least=(1, 0))
    ['', '$$ $$', 'x', '$$', '']
    """
    parts: list[str] = []
    # Each pair's next opener at or after pos (-1: not looked up yet), None once it or its closer never
    # comes again.
    opens: list[int | None] = [-1] * len(pairs)
    start = pos = 0
    while True:
        first, at = -1, -1
        for i, (opener, _) in enumerate(pairs):
            found = opens[i]
            if found is not None and found < pos:
                found = text.find(opener, pos)
                opens[i] = found = None if found < 0 else found  # no opener after pos: none later either
            if found is not None and (at < 0 or found < at):
                first, at = i, found
        if first < 0:
            break
        opener, closer = pairs[first]
        end = text.find(closer, at + len(opener) + (least[first] if first < len(least) else 0))
        if end < 0:  # no closer after this opener, so none after any later one
            opens[first] = None
            continue
        parts += [text[start:at], text[at : end + len(closer)]]
        start = pos = end + len(closer)
    parts.append(text[start:])
    return parts


def without_spans(text: str, opener: str, closer: str) -> str:
    """``text`` with each span from ``opener`` to the next ``closer`` removed (as substituting
    ``<[^>]*>`` with nothing does, for ``<`` and ``>``).

    >>> without_spans("a<b>c<d", "<", ">")
    'ac<d'
    """
    return "".join(split_spans(text, ((opener, closer),))[::2])
