r"""What makes a BibTeX value safe to write: balanced braces both ways, one line, case protection
that leaves a word's own brace groups alone, and kept ``@preamble``/``@comment`` blocks that are
exactly one block whose TeX is allowed (:mod:`bibconv.latex.allow`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from bibconv import latex
from bibconv.formats.bibtex.syntax import NEWLINES_RE
from bibconv.latex.allow import disallowed, preamble_commands
from bibconv.model import Record
from bibconv.patterns import lazy

__all__ = ["NEWLINES_RE", "blocks", "braces_ok", "defined_by_blocks", "protect", "safe"]

_PIECES_RE = lazy(r"(\s+)")
_DOLLAR_RE = lazy(r"(?<!\\)\$")
_GROUP_RE = lazy(r"\{(?!\\)")
_SPECIAL_BLOCK_RE = lazy(r"^@(?:preamble|comment)\s*[{(]", re.I)
_PREAMBLE_RE = lazy(r"\s*@preamble", re.I)


def braces_ok(text: str) -> bool:
    """Balanced for BibTeX (every brace counts) and for bibtexparser (``\\{`` does not)."""
    if "{" not in text and "}" not in text:
        return not text.endswith("\\")
    literal = escaped = 0
    prev = ""
    for ch in text:
        if ch in "{}":
            step = 1 if ch == "{" else -1
            literal += step
            if prev != "\\":
                escaped += step
            if literal < 0 or escaped < 0:
                return False
        prev = ch if not (prev == "\\" and ch == "\\") else ""
    return literal == 0 and escaped == 0 and not text.endswith("\\")


def safe(body: str) -> str:
    """An encoded value on one line (:func:`latex.encode` balances braces both ways)."""
    if "\n" in body or "\r" in body:
        body = NEWLINES_RE.sub(" ", body)
    return body


def protect(tex: str, mode: str = "acronyms") -> str:
    """:func:`latex.protect_case` in ``mode``, leaving words that hold a brace group of their own alone."""
    protected = latex.protect_case(tex, mode)
    if protected == tex or ("{" not in tex and "\\$" not in tex):
        # No brace group of its own, and no backslash before a dollar (``\\$``), which the two count apart.
        return protected
    return _protect_pieces(tex, protected)


def _protect_pieces(tex: str, protected: str) -> str:
    """Each word of ``protected``, or of ``tex`` where it holds a group of its own or is inside math."""
    before, after = _PIECES_RE.split(tex), _PIECES_RE.split(protected)
    if len(before) != len(after):
        return protected
    out = []
    in_math = False
    for b, a in zip(before, after, strict=True):
        dollars = len(_DOLLAR_RE.findall(b)) if "$" in b else 0
        if b == a:  # unchanged: what _keep would choose either way
            out.append(b)
            in_math = in_math != (dollars % 2 == 1)
            continue
        spans_math = in_math or dollars % 2 == 1  # math across words (``$a b$``) is left alone
        out.append(b if spans_math or _keep(b, a) else a)
        in_math = in_math != (dollars % 2 == 1)
    return "".join(out)


def _keep(before: str, after: str) -> bool:
    """Keep a word as it was: it holds a brace group of its own, or protection changed more than braces."""
    if _GROUP_RE.search(before) and before.count("{") == before.count("}"):
        return True
    return after.replace("{", "").replace("}", "") != before.replace("{", "").replace("}", "")


def _block_ok(raw: object) -> bool:
    """Whether a kept ``@preamble``/``@comment`` block is exactly one such block."""
    if not isinstance(raw, str) or not _SPECIAL_BLOCK_RE.match(raw.lstrip()):
        return False
    from bibtexparser.model import ExplicitComment, Preamble
    from bibtexparser.splitter import Splitter

    blocks = Splitter(raw).split().blocks
    return len(blocks) == 1 and isinstance(blocks[0], (Preamble, ExplicitComment))


def defined_by_blocks(record: Record, defined: set[str]) -> frozenset[str]:
    """``defined`` with the commands this record's kept ``@preamble`` blocks define added."""
    for key in ("bibtex:before", "bibtex:after"):
        kept = record.extra.get(key) or []
        for raw in kept if isinstance(kept, list) else [kept]:
            if isinstance(raw, str) and _PREAMBLE_RE.match(raw) and _block_ok(raw):
                defined.update(preamble_commands(raw) or ())
    return frozenset(defined)


def blocks(record: Record, key: str, warn: Callable[[str], None]) -> Iterable[str]:
    blocks = record.extra.get(key) or []
    for raw in blocks if isinstance(blocks, list) else [blocks]:
        if not _block_ok(raw):
            warn(f"a kept {key[7:]} block is not a single @preamble or @comment; not written")
        elif _PREAMBLE_RE.match(raw) and preamble_commands(raw) is None:
            commands = ", ".join(disallowed(raw)) or "a redefinition"
            warn(f"a kept @preamble holds TeX that is not allowed in output ({commands}); not written")
        else:
            yield raw.strip() + "\n"
