"""A worker's side of :mod:`bibconv.parallel`: read one piece, write its records' entries.

Keys come from a :class:`MarkingKeys` given to the writer as ``ctx.keys``: it writes each record
with the id ``proposal + marker``, and the parent, which sees every piece in order, decides
the suffixes that make the keys unique.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from bibconv.collector import few_collections
from bibconv.errors import Diagnostic, ReadError
from bibconv.keys import KeyAssigner, make_key
from bibconv.limits import checked_records
from bibconv.model import Record, SourceSpan
from bibconv.parallel.pieces import Piece
from bibconv.parallel.plan import Task
from bibconv.parallel.transport import Proposals, Text, encoded, packed, unpacked
from bibconv.registry import ReadContext, WriteContext, get_reader, get_writer, written_with_content

__all__ = ["Job", "MarkingKeys", "Result", "start_worker", "work"]


@dataclass(frozen=True)
class Job:
    """What every piece of one conversion shares; sent with each piece (workers keep no state)."""

    writer: str
    write_options: dict[str, Any]
    read_options: dict[str, Any]
    limits: Any
    strict: bool
    token: str  # the key marker: ``token``, the record's number in its piece, ``z``

    @property
    def key_format(self) -> str:
        return str(self.write_options.get("key_format") or "authyeartitle")


class MarkingKeys(KeyAssigner):
    """The key assigner of a worker: notes each record's key proposal (its id, else
    :func:`bibconv.keys.make_key`) and gives it the id ``proposal + marker``."""

    def __init__(self, pattern: str, token: str) -> None:
        super().__init__(pattern)
        self.token = token
        self.index = 0  # the number in its piece of the record being written
        self.records: list[int] = []  # for each proposal: its record, the proposal, whether given
        self.proposals: list[str] = []
        self.given: list[bool] = []

    def key(self, record: Record) -> str:
        proposal = record.id or make_key(record, self.pattern)
        self.records.append(self.index)
        self.proposals.append(proposal)
        self.given.append(bool(record.id))
        return f"{proposal}{self.token}{self.index}z"

    def noted(self) -> Proposals:
        """The proposals noted, as they cross to the parent."""
        return Proposals.of(self.records, self.proposals, self.given)


class _PieceContext(WriteContext):
    """A write context that notes which reports :meth:`warn_once` gave, by their place, so that
    the parent gives each kind once per output rather than once per piece."""

    def __init__(self, options: dict[str, Any], diagnostics: list[Diagnostic], keys: KeyAssigner) -> None:
        super().__init__(options, diagnostics, keys)
        self.kinds: dict[int, str] = {}

    def warn_once(self, kind: str, message: str, record_id: str | None = None) -> None:
        if kind not in self.warned:
            self.warned.add(kind)
            self.kinds[len(self.diagnostics)] = kind
            self.warn(message, record_id)


@dataclass
class _ShiftedContext(ReadContext):
    """A read context whose spans point into the whole input rather than into one piece."""

    line_shift: int = 0
    index_shift: int = 0
    column_shift: int = 0  # on the piece's first line
    marks: list[int] = field(default_factory=list)  # Result.read_marks: the records read so far
    first_keys: list[tuple[int, int, str, int]] = field(default_factory=list)  # Result.first_keys

    def first_key(self, key: str, line: int) -> None:
        """Note an entry key first seen in this piece at ``line`` (see :attr:`Result.first_keys`)."""
        self.first_keys.append((len(self.diagnostics), len(self.marks), key, line + self.line_shift))

    def span(
        self, line: int | None = None, column: int | None = None, index: int | None = None
    ) -> SourceSpan:
        return SourceSpan(
            self.filename,
            None if line is None else line + self.line_shift,
            column + self.column_shift if line == 1 and column is not None else column,
            None if index is None else index + self.index_shift,
        )


@dataclass
class Result:
    """What a worker sends back for one piece."""

    count: int = 0  # records read
    written: int = 0  # entries written (records with no field are left out)
    text: Text = field(default_factory=Text)  # the entries, the writer's separator between two
    keys: Proposals = field(default_factory=Proposals)  # the key proposals, by record
    read_reports: list[Diagnostic] = field(default_factory=list)
    read_marks: list[int] = field(default_factory=list)  # reader reports before each record
    # The entry keys first seen in the piece, for the parent to report those an earlier piece had:
    # (reader reports, records read, key, line) when each was read.
    first_keys: list[tuple[int, int, str, int]] = field(default_factory=list)
    filename: str | None = None
    write_reports: dict[int, list[tuple[Diagnostic, str | None]]] = field(default_factory=dict)
    error: tuple[str, str, SourceSpan, str | None] | None = None
    retry: bool = False  # the piece was a guess that its reading did not confirm
    lines: int = 0  # a guess: its line ends
    started_from: Any = None  # what the entries before this piece left (EntryWriter.carry)
    carried: Any = None  # and what they leave with this piece's entries

    def __getstate__(self) -> dict[str, Any]:
        """What pickle sends: the reports as rows (:func:`bibconv.parallel.transport.packed`)."""
        state = dict(self.__dict__)
        state["read_reports"] = packed(self.read_reports)
        written = [(i, kind, diag) for i, reports in self.write_reports.items() for diag, kind in reports]
        state["write_reports"] = [(i, kind) for i, kind, _ in written], packed([d for _, _, d in written])
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["read_reports"] = unpacked(state["read_reports"])
        places, rows = state["write_reports"]
        by_record: dict[int, list[tuple[Diagnostic, str | None]]] = {}
        for (i, kind), diag in zip(places, unpacked(rows), strict=True):
            by_record.setdefault(i, []).append((diag, kind))
        state["write_reports"] = by_record
        self.__dict__.update(state)


def start_worker(parent: int) -> None:
    """Set a new worker process up: SIGTERM ends it and Ctrl-C is left to the parent (which stops
    the workers), it ends with ``parent``, and its heap keeps what it frees."""
    import signal

    from bibconv.parallel.tuning import die_with_parent, keep_freed_memory

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    keep_freed_memory()


def _read(job: Job, name: str, filename: str | None, piece: Piece, result: Result) -> list[Record]:
    """The records of ``piece``; an error (strict mode) or an unconfirmed guess goes in ``result``."""
    ctx = _ShiftedContext(
        filename=filename,
        strict=job.strict,
        options=dict(job.read_options),
        diagnostics=result.read_reports,
        line_shift=0 if piece.guess else piece.line - 1,  # a guess: the parent shifts its reports
        index_shift=0 if piece.guess else piece.index,
        column_shift=piece.column,
        marks=result.read_marks,
        first_keys=result.first_keys,
        state=piece.state,
    )
    result.filename = filename
    records: list[Record] = []
    try:
        # As bibconv.api.iter_records does, records over the limits fail (or are skipped).
        for record in checked_records(get_reader(name).read(io.BytesIO(piece.data), ctx), job.limits, ctx):
            result.read_marks.append(len(result.read_reports))
            records.append(record)
    except ReadError as exc:  # strict mode: the parent raises it when this piece's turn comes
        result.error = (type(exc).__name__, exc.message, exc.span, exc.record_id)
        result.retry = piece.guess
        return []
    if piece.guess and any(d.severity == "error" for d in result.read_reports):
        result.retry = True
        return []
    return records


def _write(job: Job, records: list[Record], result: Result) -> None:
    """Each record's entry, with its reports and key proposal, into ``result``; ``records`` is
    emptied."""
    writer: Any = get_writer(job.writer)
    keys = MarkingKeys(job.key_format, job.token)
    reports: list[Diagnostic] = []
    ctx = _PieceContext(options=dict(job.write_options), diagnostics=reports, keys=keys)
    if result.started_from is not None:
        writer.continue_from(ctx, result.started_from)
    entries = []
    records.reverse()  # taken from the end, each record is freed once written
    for i in range(len(records)):
        record = records.pop()
        keys.index = i
        before = len(reports)
        if written_with_content(record, ctx):
            entries.append(writer.written_entry(record, ctx))
        if len(reports) > before:
            result.write_reports[i] = [(reports[k], ctx.kinds.get(k)) for k in range(before, len(reports))]
    result.written = len(entries)
    text = getattr(writer, "separator", "").join(entries)
    del entries  # freed before the text is encoded
    token = job.token.encode("ascii")
    result.text = encoded(text, token, re.compile(re.escape(token) + rb"(\d+)z"))
    result.keys = keys.noted()
    carry = getattr(writer, "carry", None)
    result.carried = carry(ctx) if callable(carry) else None


def work(job: Job, task: Task, carried: Any = None) -> Result:
    """Read one piece and write its records (in a worker process), the writer going on from what
    the entries before the piece left (``carried``: see :meth:`bibconv.writing.EntryWriter.carry`)."""
    name, filename, piece = task
    result = Result(started_from=carried, carried=carried)
    with few_collections():  # the piece's records live until they are written
        records = _read(job, name, filename, piece, result)
        if result.error is not None or result.retry:
            return result
        result.count = len(records)
        result.lines = piece.data.count(b"\n") if piece.guess else 0
        if records:
            _write(job, records, result)
    return result
