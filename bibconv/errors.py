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
    """Root of every error bibconv raises on purpose.

    >>> import bibconv
    >>> try:
    ...     bibconv.read("@article{k, title = {unclosed", "bibtex")
    ... except bibconv.BibconvError as exc:
    ...     print(type(exc).__name__)
    ParseError
    """


class FormatError(BibconvError):
    """The format is unknown, ambiguous, or cannot read or write.

    >>> import bibconv
    >>> try:
    ...     bibconv.write([], "atom")
    ... except bibconv.FormatError as exc:
    ...     print("csljson" in str(exc))
    True
    """


class ReadError(BibconvError):
    """Input that cannot be read; ``str()`` gives ``file:line:col: message (entry key)``.

    >>> str(ReadError("unbalanced braces", SourceSpan("refs.bib", 12, 3), "knuth84"))
    'refs.bib:12:3: unbalanced braces (entry knuth84)'
    """

    def __init__(self, message: str, span: SourceSpan | None = None, record_id: str | None = None) -> None:
        self.message = message
        self.span = span or SourceSpan()
        self.record_id = record_id
        super().__init__(render(message, self.span, record_id))


class ParseError(ReadError):
    """The text breaks the rules of its format.

    >>> import bibconv
    >>> try:
    ...     bibconv.read('[{"id": "a", "type": "book"', "csljson")
    ... except bibconv.ParseError as exc:
    ...     print(exc.span)
    <input>:1:28
    """


class LimitError(ReadError):
    """The input is larger than a configured limit allows.

    >>> from bibconv.limits import Limits
    >>> import bibconv
    >>> try:
    ...     bibconv.read('[{"id": "a", "type": "book", "title": "Long"}]', limits=Limits(max_field_chars=3))
    ... except bibconv.LimitError as exc:
    ...     print(exc.record_id)
    a
    """


class RemoteError(ReadError):
    """A remote service (the arXiv API) answered with an error.

    >>> str(RemoteError("arXiv says: incorrect id format for abc", SourceSpan("<arXiv API>", index=0)))
    '<arXiv API>:item 0: arXiv says: incorrect id format for abc'
    """


class WriteError(BibconvError):
    """A record cannot be written in the target format.

    >>> str(WriteError("no title", record_id="knuth84", field="title"))
    'no title (entry knuth84 field title)'
    """

    def __init__(self, message: str, record_id: str | None = None, field: str | None = None) -> None:
        self.message = message
        self.record_id = record_id
        self.field = field
        where = " ".join(
            p for p in (f"entry {record_id}" if record_id else "", f"field {field}" if field else "") if p
        )
        super().__init__(f"{message} ({where})" if where else message)


class OutputError(BibconvError):
    """The output file cannot be written (refused or failed).

    >>> import bibconv
    >>> try:
    ...     bibconv.write([], "csljson", "/nonexistent-directory/out.json")
    ... except bibconv.OutputError as exc:
    ...     print(str(exc).startswith("/nonexistent-directory/out.json: "))
    True
    """


def render(message: str, span: SourceSpan | None, record_id: str | None = None) -> str:
    """``file:line:col: message (entry key)``."""
    text = f"{span}: {message}" if span else message
    return f"{text} (entry {record_id})" if record_id else text


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A warning or a skipped error, collected instead of printed.

    >>> import bibconv
    >>> diagnostics: list[bibconv.Diagnostic] = []
    >>> broken = "fixtures/bibtex/invalid/bibconv_broken.bib"
    >>> records = bibconv.read(broken, strict=False, diagnostics=diagnostics)
    >>> [(d.severity, d.span.line, d.record_id) for d in diagnostics]
    [('error', 3, 'broken1'), ('error', 5, 'broken2')]
    """

    message: str
    span: SourceSpan | None = None
    record_id: str | None = None
    severity: str = "warning"
    """``"warning"`` (the record came through), ``"error"`` (it was skipped) or ``"note"``."""

    def __init__(
        self,
        message: str,
        span: SourceSpan | None = None,
        record_id: str | None = None,
        severity: str = "warning",
    ) -> None:
        """As the dataclass's own, each slot set through its descriptor (an input may give one a record)."""
        _put_message(self, message)
        _put_span(self, span)
        _put_record_id(self, record_id)
        _put_severity(self, severity)

    def __str__(self) -> str:
        return render(f"{self.severity}: {self.message}", self.span, self.record_id)


_put_message, _put_span, _put_record_id, _put_severity = (
    getattr(Diagnostic, name).__set__ for name in Diagnostic.__slots__
)
