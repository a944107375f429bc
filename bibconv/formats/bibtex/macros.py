"""The ``@string`` macros of one input, expanded on use and within limits.

A macro is kept as the parts it joins (text, and the macros it names as they were defined at that
point, as BibTeX expands them), with its length counted but its text not built unless a field uses
it; a short macro is kept as its text. So ``@string`` blocks that each double the one before cost a
few bytes each, and a field that would expand one of them past :data:`MAX_EXPANSION` characters is
a bad record naming its line. What macros put into fields is also bounded over the whole input
(:data:`MAX_EXPANSION` characters, plus :data:`EXPANSION_PER_CHARACTER` for each character of the
values read so far), so that a small file cannot make one large macro fill gigabytes of output.
Month macros count as text: none is more than three times as long as its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from bibconv.formats.bibtex.syntax import value_pieces
from bibconv.formats.bibtex.table import MONTH_MACROS
from bibconv.patterns import lazy

__all__ = ["EXPANSION_PER_CHARACTER", "MAX_EXPANSION", "ExpansionError", "Macro", "Macros", "Part"]

MAX_EXPANSION = 1_000_000
"""The longest text one macro, or the macros of one field, may expand to (characters)."""
EXPANSION_PER_CHARACTER = 4
"""How much macro text each character of the values read adds to what macros may still put into fields."""
# A macro whose text is at most this much longer than its definition is kept as its text.
_KEPT_AS_TEXT = 64
_JOINED_KEPT = 256
# A value that is one name and nothing else, which value_pieces reads as that macro.
_BARE_NAME_RE = lazy(r"[^\s#{}\"=,%]+")


@dataclass(frozen=True, slots=True, eq=False)
class Macro:
    """A macro's value: the parts it joins, none of them empty, and its length."""

    parts: tuple[Part, ...]
    size: int

    def text(self) -> str:
        """The macro's text (the parts joined, walked without recursion)."""
        if len(self.parts) == 1 and isinstance(self.parts[0], str):
            return self.parts[0]
        out: list[str] = []
        stack: list[Part] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                out.append(item)
            else:
                stack.extend(reversed(item.parts))
        return "".join(out)


Part = str | Macro


def _size(pieces: list[Part]) -> int:
    return sum(len(p) if isinstance(p, str) else p.size for p in pieces)


class ExpansionError(ValueError):
    """Macros that would expand to too much text."""


def _too_long(size: int, what: str) -> ExpansionError:
    return ExpansionError(f"{what} to {size:,} characters, over the limit of {MAX_EXPANSION:,}")


class Macros:
    """The macros one input defines (and the month macros), and the text they may still produce."""

    def __init__(self) -> None:
        self.table: dict[str, Part] = dict(MONTH_MACROS)  # month macros are text; the input's are Macros
        self.defined: dict[str, Macro] = {}  # the macros the input's @string blocks define
        self.allowance = MAX_EXPANSION
        # What a value made of defined macros only (``acm # ", " # …`` has text: not kept) joins, by
        # the value as written, while no macro is defined again: real files repeat a few.
        self.joined: dict[str, list[Part]] = {}

    def define(self, name: str, expr: str) -> None:
        """Define macro ``name`` as the value expression ``expr``; ``ValueError`` if it is not one,
        or if its text would be longer than :data:`MAX_EXPANSION`."""
        self.joined.clear()
        self.allowance += EXPANSION_PER_CHARACTER * len(expr)
        pieces = [p for p in value_pieces(expr, self.table) if (p if isinstance(p, str) else p.size)]
        size = _size(pieces)
        if size > MAX_EXPANSION:  # kept unexpanded, so that each use is refused too
            self.table[name] = self.defined[name] = Macro((), size)
            raise _too_long(size, "expands")
        if len(pieces) == 1 and isinstance(pieces[0], Macro):
            value = pieces[0]
        elif size <= len(expr) + _KEPT_AS_TEXT:
            value = Macro(("".join(p if isinstance(p, str) else p.text() for p in pieces),), size)
        else:
            value = Macro(tuple(pieces), size)
        self.table[name] = self.defined[name] = value

    def define_text(self, name: str, text: str) -> None:
        """Define macro ``name`` as ``text`` itself (a value whose delimiters are already gone)."""
        self.joined.clear()
        self.allowance += EXPANSION_PER_CHARACTER * len(text)
        self.table[name] = self.defined[name] = Macro((text,), len(text))

    def resolve(self, expr: str, undefined: list[str] | None = None) -> str:
        """The TeX text of a field value (see :func:`~bibconv.formats.bibtex.syntax.resolve_value`);
        ``ValueError`` if macros would make it, or all that they put into fields, too long."""
        self.allowance += EXPANSION_PER_CHARACTER * len(expr)
        if expr[:1] in ('"', "{"):
            pieces = value_pieces(expr, self.table, undefined)
        elif expr.isdigit():  # a number: itself, as value_pieces reads it
            return expr
        else:  # one name (its macro, if defined), or macros and text joined
            macro = self.table.get(expr.lower()) if _BARE_NAME_RE.fullmatch(expr) else None
            pieces = [macro] if macro is not None else self._pieces(expr, undefined)
        if len(pieces) == 1 and isinstance(pieces[0], str):
            return pieces[0]
        size = _size(pieces)
        if size > MAX_EXPANSION:
            raise _too_long(size, "@string macros expand it")
        expanded = sum(p.size for p in pieces if isinstance(p, Macro))
        if expanded > self.allowance:
            raise ExpansionError(
                f"@string macros expand to {expanded:,} characters here, more than is left of what they may"
                f" put into this input's fields ({MAX_EXPANSION:,} characters and"
                f" {EXPANSION_PER_CHARACTER} for each character of the values read)"
            )
        self.allowance -= expanded
        return "".join(p if isinstance(p, str) else p.text() for p in pieces)

    def _pieces(self, expr: str, undefined: list[str] | None) -> list[Part]:
        """:func:`~bibconv.formats.bibtex.syntax.value_pieces` of ``expr``, kept in :attr:`joined`
        when it joins macros that are all defined."""
        found = self.joined.get(expr)
        if found is not None:
            return found
        before = -1 if undefined is None else len(undefined)
        pieces = value_pieces(expr, self.table, undefined)
        if before == len(undefined or ()) and "#" in expr and '"' not in expr and "{" not in expr:
            if len(self.joined) >= _JOINED_KEPT:
                self.joined.clear()
            self.joined[expr] = pieces
        return pieces
