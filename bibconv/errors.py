"""Errors and diagnostics.

Every error bibconv raises on purpose is a :class:`BibconvError`::

    BibconvError
    ├── FormatError        unknown, ambiguous or unsupported format
    ├── ReadError          bad input; carries span (file, line, column, item) and record_id
    │   ├── ParseError     the text is not valid in its format (BibTeX braces, JSON, XML…)
    │   ├── LimitError     the input exceeds a configured limit (file, field, name list size)
    │   └── RemoteError    a remote service answered with an error (arXiv's error feed)
    ├── WriteError         a record cannot be written; carries record_id and field
    └── OutputError        the output cannot be written where asked

Errors render as ``file:line:col: message (entry key)``, the form compilers use.
"""

from __future__ import annotations

from dataclasses import dataclass

from bibconv.model import SourceSpan

__all__ = [
    "BibconvError",
    "Diagnostic",
    "FormatError",
    "LimitError",
    "OutputError",
    "ParseError",
    "ReadError",
    "RemoteError",
    "WriteError",
]


class BibconvError(Exception):
    """Root of every error bibconv raises on purpose."""


class FormatError(BibconvError):
    """The format is unknown, ambiguous, or cannot read or write."""


class ReadError(BibconvError):
    """Input that cannot be read; ``str()`` gives ``file:line:col: message (entry key)``."""

    def __init__(self, message: str, span: SourceSpan | None = None, record_id: str | None = None) -> None:
        self.message = message
        self.span = span or SourceSpan()
        self.record_id = record_id
        super().__init__(render(message, self.span, record_id))


class ParseError(ReadError):
    """The text breaks the rules of its format."""


class LimitError(ReadError):
    """The input is larger than a configured limit allows."""


class RemoteError(ReadError):
    """A remote service (the arXiv API) answered with an error."""


class WriteError(BibconvError):
    """A record cannot be written in the target format."""

    def __init__(self, message: str, record_id: str | None = None, field: str | None = None) -> None:
        self.message = message
        self.record_id = record_id
        self.field = field
        where = " ".join(
            p for p in (f"entry {record_id}" if record_id else "", f"field {field}" if field else "") if p
        )
        super().__init__(f"{message} ({where})" if where else message)


class OutputError(BibconvError):
    """The output file cannot be written (refused or failed)."""


def render(message: str, span: SourceSpan | None, record_id: str | None = None) -> str:
    """``file:line:col: message (entry key)``."""
    text = f"{span}: {message}" if span else message
    return f"{text} (entry {record_id})" if record_id else text


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A warning or a skipped error, collected instead of printed."""

    message: str
    span: SourceSpan | None = None
    record_id: str | None = None
    severity: str = "warning"
    """``"warning"`` (the record came through), ``"error"`` (it was skipped) or ``"note"``."""

    def __str__(self) -> str:
        return render(f"{self.severity}: {self.message}", self.span, self.record_id)
