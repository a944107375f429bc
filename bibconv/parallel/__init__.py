"""Conversion spread over processes, with output byte-identical to a serial run (``--jobs N``).

The parent cuts each input file into pieces at record boundaries (the reader's ``split``
method when it has one, else a built-in splitter from :mod:`bibconv.parallel.split`; an input that
cannot be cut makes the whole conversion serial). Worker processes read a piece and write its
records with the target writer, and send the text back as UTF-8 bytes; the parent writes the
pieces' text in input order. A piece that is a guess (a CSL-JSON array cut by its layout) must
read without an error, else the parent drops it and the pieces after it and cuts the rest of
that input again by parsing it; the parent moves a guess's reports to the lines and items of
the whole input. Three things would differ from a serial run, and are dealt with:

* **Citation keys** are unique over the whole output. A worker computes each record's key
  proposal (its own id, else :func:`bibconv.keys.make_key`) and writes the record with the id
  ``proposal + marker``; the worker takes the markers out of its text and notes where they
  were; the parent runs one :class:`~bibconv.keys.KeyAssigner` over the proposals in order
  and puts in each place the suffix that made the key unique (``"a"`` …, if any), so the
  writer itself renders every key (JSON escaping, BibTeX's key rules).
* **Framing**: writers write something before the first record (``[`` for CSL-JSON), between
  records, and after the last. A worker writes its records once as a whole output, and its
  first record once more after a throw-away copy of it, which gives that record's text as it
  is in the middle of an output. The parent takes the header and the first record's own text
  from the piece that holds the first record, and the footer from the last. This relies on
  writers that stream (each record written before the next is asked for), as all of them do.
* **Reports** keep the line and item numbers of the whole input and their serial order, the
  key warnings in their place. A writer that warns once per kind of loss (RIS) is found out by
  writing a record twice, and such warnings are given once per output, not once per piece.

By default (``jobs=None``) inputs under :data:`LARGE_INPUT` bytes in all are converted
serially and larger ones with one process per core.
"""

from __future__ import annotations

import io
import os
import re
import secrets
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any, TextIO, cast

from bibconv import errors
from bibconv.errors import Diagnostic, OutputError, ReadError
from bibconv.limits import DEFAULT_LIMITS, checked_records
from bibconv.model import Record, SourceSpan
from bibconv.parallel.split import BUILTIN_SPLITTERS, Piece
from bibconv.parallel.transport import Text, byte_writer, encoded, filled, widen_pipes
from bibconv.registry import ReadContext, WriteContext, get_reader, get_writer

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "LARGE_INPUT",
    "PIECE_SIZE",
    "Piece",
    "convert",
    "cpu_count",
    "default_jobs",
    "plan",
    "splitter_for",
]

LARGE_INPUT = 4 << 20
"""Total input size from which ``jobs=None`` means one process per core."""
PIECE_SIZE = 1 << 20
"""Bytes of input per piece of work."""

Split = Callable[[IO[bytes], int], "Iterator[Piece] | None"]


def cpu_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _file_size(source: str) -> int:
    try:
        return os.path.getsize(source) if source != "-" and os.path.isfile(source) else 0
    except OSError:
        return 0


def default_jobs(sources: Sequence[str]) -> int:
    """Processes for ``sources`` when none are asked for: one per core for large inputs, else 1."""
    return cpu_count() if sum(_file_size(s) for s in sources) >= LARGE_INPUT else 1


def splitter_for(name: str) -> Split | None:
    """How input of format ``name`` is cut: the reader's own ``split``, else a built-in splitter."""
    own = getattr(get_reader(name), "split", None)
    return own if callable(own) else BUILTIN_SPLITTERS.get(name)


@dataclass
class _ShiftedContext(ReadContext):
    """A read context whose spans point into the whole input rather than into one piece."""

    line_shift: int = 0
    index_shift: int = 0
    column_shift: int = 0  # on the piece's first line

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
class _Result:
    """What a worker sends back for one piece."""

    count: int = 0
    start: Text = field(default_factory=Text)  # header and first record, in an output that starts here
    middle_first: Text = field(default_factory=Text)  # the first record's text after other records
    rest: Text = field(default_factory=Text)  # the other records' text
    footer: Text = field(default_factory=Text)
    keys: list[tuple[int, str, bool]] = field(default_factory=list)  # (record, proposal, given)
    key_format: tuple[str, bool] | None = None  # the writer's KeyAssigner: pattern, warns
    read_reports: list[Diagnostic] = field(default_factory=list)
    read_marks: list[int] = field(default_factory=list)  # reader reports before each record
    write_reports: dict[int, list[Diagnostic]] = field(default_factory=dict)  # by record
    once: set[str] = field(default_factory=set)  # writer warnings given once per output
    error: tuple[str, str, SourceSpan, str | None] | None = None
    retry: bool = False  # the piece was a guess that its reading did not confirm
    lines: int = 0  # a guess: its line ends


_STATE: dict[str, Any] = {}
_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters
_M_MMAP_THRESHOLD = -3


class _MarkingAssigner:
    """Takes the place of :class:`bibconv.keys.KeyAssigner` in a worker.

    It notes each record's key proposal and gives the record the id ``proposal + marker``;
    the parent decides the final keys.
    """

    def __init__(self, pattern: str = "authyeartitle", *, warn: Callable[[str], None] | None = None) -> None:
        self.pattern = pattern
        self.warn = warn
        _STATE["assigners"].append(self)

    def assign(self, record: Record) -> Record:
        from bibconv.keys import make_key

        token = _STATE["token"]
        index = _STATE["numbers"].get(id(record))
        if index is None:  # the throw-away copy
            return record.replace(id=token + "x")
        proposal = record.id or make_key(record, self.pattern)
        _STATE["keys"].append((index, proposal, bool(record.id)))
        return record.replace(id=f"{proposal}{token}{index}z")


def _init_worker(state: dict[str, Any]) -> None:
    _STATE.update(state)
    _keep_freed_memory()
    _STATE["marker"] = re.compile(re.escape(state["token"].encode("ascii")) + rb"(\d+)z")


def _keep_freed_memory() -> None:
    """Let this worker's C heap keep what it frees (glibc), rather than give it back to the system.

    Every piece makes buffers of megabytes (the piece, its decoded text, the writer's text, its
    bytes) that glibc takes from and gives back to the system each time, to fault in again page
    by page: on the 100k corpus, csljson->ris, 230,000 page faults in the workers and 0.6 s of
    their system time; with the limits raised, 20,000 and 0.15 s, and 0.6 s less wall time.
    The heap stays at the size of the largest piece's buffers. Elsewhere nothing changes.
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError, TypeError):  # no glibc
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)  # glibc's largest: buffers up to 32 MiB from the heap
    mallopt(_M_TRIM_THRESHOLD, 64 << 20)  # and free space given back only above 64 MiB


def _use_marking_assigner() -> None:
    """Let every loaded bibconv module that uses ``KeyAssigner`` use the marking one."""
    from bibconv import keys

    original = _STATE.setdefault("original_assigner", keys.KeyAssigner)
    for name, module in list(sys.modules.items()):
        if name.startswith("bibconv") and getattr(module, "KeyAssigner", None) is original:
            module.KeyAssigner = _MarkingAssigner  # type: ignore[attr-defined]


def _run_writer(records: list[Record], reports: list[Diagnostic]) -> tuple[str, list[int], list[int]]:
    """Write ``records``; the output, and its length and the report count at each record asked for."""
    ctx = WriteContext(options=dict(_STATE["write_options"]), diagnostics=reports)
    buffer = io.StringIO(newline="")
    marks: list[int] = []
    report_marks: list[int] = []

    def feed() -> Iterator[Record]:
        for record in records:
            marks.append(buffer.tell())
            report_marks.append(len(reports))
            yield record
        marks.append(buffer.tell())
        report_marks.append(len(reports))

    writer = get_writer(_STATE["writer"])
    _use_marking_assigner()
    _STATE["assigners"] = []
    _STATE["keys"] = []
    writer.write(feed(), buffer, ctx)
    return buffer.getvalue(), marks, report_marks


def _work(task: tuple[str, str | None, Piece]) -> _Result:
    """Read one piece and write its records (in a worker process)."""
    name, filename, piece = task
    result = _Result()
    ctx = _ShiftedContext(
        filename=filename,
        strict=_STATE["strict"],
        options=dict(_STATE["read_options"]),
        diagnostics=result.read_reports,
        line_shift=0 if piece.guess else piece.line - 1,  # a guess: the parent shifts its reports
        index_shift=0 if piece.guess else piece.index,
        column_shift=piece.column,
    )
    records: list[Record] = []
    try:
        # As bibconv.api.iter_records does, records over the limits fail (or are skipped).
        for record in checked_records(
            get_reader(name).read(io.BytesIO(piece.data), ctx), _STATE["limits"], ctx
        ):
            result.read_marks.append(len(result.read_reports))
            records.append(record)
    except ReadError as exc:  # strict mode: the parent raises it when this piece's turn comes
        result.error = (type(exc).__name__, exc.message, exc.span, exc.record_id)
        result.retry = piece.guess
        return result
    if piece.guess and any(d.severity == "error" for d in result.read_reports):
        result.retry = True
        return result
    result.count = len(records)
    result.lines = piece.data.count(b"\n") if piece.guess else 0
    if not records:
        return result
    _STATE["numbers"] = {id(record): i for i, record in enumerate(records)}
    reports: list[Diagnostic] = []
    text, marks, report_marks = _run_writer(records, reports)
    result.keys = _STATE["keys"]
    if _STATE["assigners"]:
        used = _STATE["assigners"][0]
        result.key_format = (used.pattern, used.warn is not None)
    result.start = _encode(text[: marks[1]])
    result.rest, result.footer = _encode(text[marks[1] : marks[-1]]), _encode(text[marks[-1] :])
    for i in range(len(records)):
        if report_marks[i + 1] > report_marks[i]:
            result.write_reports[i] = reports[report_marks[i] : report_marks[i + 1]]
    # An equal record (another object) written first gives the first record's text as it is
    # after other records; the same probe tells warnings given once per output from others.
    again, again_marks, _ = _run_writer([records[0].replace(), records[0]], [])
    result.middle_first = _encode(again[again_marks[1] : again_marks[2]])
    result.once = _once_only(records, result.write_reports)
    _STATE["numbers"] = {}
    return result


def _encode(text: str) -> Text:
    return encoded(text, _STATE["token"].encode("ascii"), _STATE["marker"])


def _once_only(records: list[Record], write_reports: dict[int, list[Diagnostic]]) -> set[str]:
    """The writer warnings that the writer does not repeat for a second, equal record."""
    first_for: dict[str, int] = {}
    for i, found in write_reports.items():
        for diag in found:
            first_for.setdefault(diag.message, i)
    once: set[str] = set()
    for i in sorted(set(first_for.values())):
        reports: list[Diagnostic] = []
        _, _, report_marks = _run_writer([records[i].replace(), records[i]], reports)
        again = {d.message for d in reports[report_marks[1] : report_marks[2]]}
        once.update(m for m, at in first_for.items() if at == i and m not in again)
    return once


class _Proposal:
    """A proposed key in the place of its record for :meth:`bibconv.keys.KeyAssigner.assign`,
    which reads a record's ``id`` and gives a renamed one ``replace(id=…)`` (a record with an
    id is not looked at further); cheaper than a :class:`Record` made for each key."""

    __slots__ = ("id",)

    def __init__(self, id: str) -> None:
        self.id = id

    def replace(self, *, id: str) -> _Proposal:
        return _Proposal(id)


@dataclass
class _Parent:
    """The parent's side: keys, output order, reports."""

    write: Callable[[bytes], None]
    token: str
    reports: list[Diagnostic]
    assigner: Any = None
    warns: bool = True
    footer: bytes | None = None
    said_once: set[str] = field(default_factory=set)
    line: int = 1  # where the next guessed piece starts (bibconv.parallel.split.Piece.guess)
    index: int = 0

    def _suffixes(self, result: _Result) -> tuple[dict[int, bytes], dict[int, list[Diagnostic]]]:
        """The suffix that makes each proposed key unique, and the key warnings, by record."""
        from bibconv.keys import KeyAssigner

        suffixes: dict[int, bytes] = {}  # the records whose key gets a suffix
        warnings: dict[int, list[Diagnostic]] = {}
        if not result.keys:
            return suffixes, warnings
        if self.assigner is None and result.key_format is not None:
            pattern, self.warns = result.key_format
            self.assigner = KeyAssigner(pattern)
        found: list[Diagnostic] = []
        warn = WriteContext(diagnostics=found).warn if self.warns else None
        for index, proposal, given in result.keys:
            self.assigner.warn = warn if given else None
            probe = cast(Record, _Proposal(proposal)) if proposal else Record(id=proposal)
            final = self.assigner.assign(probe).id
            if len(final) > len(proposal):
                suffixes[index] = final[len(proposal) :].encode("utf-8")
            if found:
                warnings[index] = found[:]
                found.clear()
        return suffixes, warnings

    def take(self, result: _Result) -> int:
        """Write one piece's records; the number of records."""
        if result.error is not None:
            kind, message, span, record_id = result.error
            raise getattr(errors, kind, ReadError)(message, span, record_id)
        suffixes, key_reports = self._suffixes(result)
        marker = re.compile(re.escape(self.token) + r"(\d+)z")

        def fill(text: str) -> str:
            if not result.keys or not text:
                return text
            return marker.sub(lambda m: suffixes.get(int(m[1]), b"").decode("utf-8"), text)

        start = 0
        for i, mark in enumerate(result.read_marks):
            self.reports.extend(result.read_reports[start:mark])
            start = mark
            self.reports.extend(key_reports.get(i, ()))
            for diag in result.write_reports.get(i, ()):
                message = fill(diag.message)
                if diag.message in result.once:
                    if message in self.said_once:
                        continue
                    self.said_once.add(message)
                record_id = fill(diag.record_id or "") or None
                self.reports.append(Diagnostic(message, diag.span, record_id, diag.severity))
        self.reports.extend(result.read_reports[start:])
        if not result.count:
            return 0
        self.write(filled(result.start if self.footer is None else result.middle_first, suffixes))
        self.write(filled(result.rest, suffixes))
        self.footer = filled(result.footer, suffixes)
        return result.count


@dataclass
class _Input:
    """One input file, open, with the iterator of its pieces."""

    path: str
    name: str
    handle: IO[bytes]
    pieces: Iterator[Piece]


def _tasks(inputs: list[_Input], progress: Any, first: int = 0) -> Iterator[tuple[int, Any]]:
    """``(input number, task)`` for every piece of every input, read lazily; ``None`` ends an input."""
    for number, step in enumerate(inputs, first):
        if progress is not None:
            progress.watch(step.handle)
        for piece in step.pieces:
            yield number, (step.name, step.path, piece)
        yield number, None


def plan(sources: Sequence[str], from_: str | None, size: int, stack: ExitStack) -> list[_Input] | None:
    """Each input opened (closed with ``stack``) and cut into pieces of about ``size`` bytes, or
    ``None`` if some input cannot be cut (standard input, a format or a file that does not allow it)."""
    from bibconv.api import detect

    inputs = []
    for source in sources:
        if source == "-" or not os.path.isfile(source):
            return None
        name = from_ or detect(source)
        split = splitter_for(name)
        if split is None:
            return None
        try:
            handle = stack.enter_context(open(source, "rb"))  # noqa: SIM115 - the stack closes it
        except OSError as exc:
            raise OutputError(f"{source}: cannot open: {exc.strerror}") from None
        pieces = split(handle, size)
        if pieces is None:
            return None
        inputs.append(_Input(source, name, handle, pieces))
    return inputs


def convert(
    sources: Sequence[str],
    to: str,
    stream: TextIO,
    *,
    jobs: int,
    from_: str | None = None,
    strict: bool = True,
    read_options: dict[str, Any] | None = None,
    write_options: dict[str, Any] | None = None,
    diagnostics: list[Diagnostic] | None = None,
    progress: Any = None,
    after_input: Callable[[], None] | None = None,
    piece_size: int = PIECE_SIZE,
) -> bool:
    """Convert ``sources`` (files) to format ``to`` on ``stream`` with ``jobs`` processes.

    Returns ``False``, having written nothing, when an input cannot be cut into pieces (it is
    not a file, or its format has no splitter); the caller then converts serially. Reports
    go to ``diagnostics``; ``after_input`` is called when each input is done; ``progress``
    (a :class:`bibconv.progress.Progress`) is told of records and bytes.
    """
    read_options = dict(read_options or {})
    limits = read_options.pop("limits", None) or DEFAULT_LIMITS
    stack = ExitStack()
    with stack:
        inputs = plan(sources, from_, piece_size, stack)
        if inputs is None or any(os.path.getsize(i.path) > limits.max_input_bytes for i in inputs):
            return False  # the serial run reports the input that is too large where it is cut off
        state = {
            "writer": to,
            "write_options": dict(write_options or {}),
            "read_options": read_options,
            "limits": limits,
            "strict": strict,
            "token": "zq" + "".join(secrets.choice("bcdfghjklmnpqrstvwxz") for _ in range(10)),
        }
        _run(inputs, stream, jobs, state, diagnostics, progress, after_input, piece_size)
    return True


class _GuessError(Exception):
    """A guessed cut (:attr:`bibconv.parallel.split.Piece.guess`) that the reader did not confirm."""

    def __init__(self, number: int, piece: Piece) -> None:
        super().__init__(number, piece)
        self.number = number
        self.piece = piece


_Queue = deque[tuple[int, "Future[_Result] | None", Piece | None]]


def _run(
    inputs: list[_Input],
    stream: TextIO,
    jobs: int,
    state: dict[str, Any],
    diagnostics: list[Diagnostic] | None,
    progress: Any,
    after_input: Callable[[], None] | None,
    piece_size: int = PIECE_SIZE,
) -> None:
    """Feed the pieces to ``jobs`` worker processes and write their text in order.

    When a guessed cut turns out wrong, the pieces after it are dropped unwritten and that
    input is cut again from there by parsing it (the inputs after it from their start).
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    reports = diagnostics if diagnostics is not None else []
    wctx = WriteContext(options=state["write_options"], diagnostics=reports)
    parent = _Parent(byte_writer(stream), state["token"], reports)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    executor = ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(state,))
    widen_pipes(executor)
    queue: _Queue = deque()
    try:
        tasks = _tasks(inputs, progress)
        while True:
            try:
                for number, task in tasks:
                    piece = None if task is None else cast(Piece, task[2])
                    skip = piece is None or (
                        piece.guess and not piece.data
                    )  # an input's end; no more guesses
                    future = None if skip else executor.submit(_work, task)
                    queue.append((number, future, None if piece is None else replace(piece, data=b"")))
                    while len(queue) > 2 * jobs or (queue and task is None and queue[0][1] is None):
                        _drain_one(queue, parent, progress, after_input)
                while queue:
                    _drain_one(queue, parent, progress, after_input)
                break
            except _GuessError as retry:
                for _, dropped, _ in queue:
                    if dropped is not None:
                        dropped.cancel()
                queue.clear()
                tasks = _tasks(_resumed(inputs, retry, piece_size), progress, retry.number)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    if parent.footer is None:  # no records at all
        get_writer(state["writer"]).write([], stream, wctx)
    else:
        parent.write(parent.footer)


def _resumed(inputs: list[_Input], retry: _GuessError, size: int) -> list[_Input]:
    """The inputs from the one whose guessed cut failed on, cut again (that one from the failed piece)."""
    from bibconv.parallel.split import resume_csljson

    again = []
    for number in range(retry.number, len(inputs)):
        step = inputs[number]
        if number == retry.number:
            pieces: Iterator[Piece] | None = resume_csljson(step.handle, size, retry.piece)
        else:
            step.handle.seek(0)
            pieces = cast(Split, splitter_for(step.name))(step.handle, size)
        if pieces is None:  # pragma: no cover - it was cut before
            raise OutputError(f"{step.path}: the input changed while it was read")
        again.append(_Input(step.path, step.name, step.handle, pieces))
    return again


def _shift(reports: list[Diagnostic], lines: int, items: int) -> None:
    """Move the spans of a guessed piece's reports to the lines and items of the whole input."""
    for i, diag in enumerate(reports):
        span = diag.span
        if span is not None and (span.line is not None or span.index is not None):
            line = None if span.line is None else span.line + lines
            index = None if span.index is None else span.index + items
            reports[i] = replace(diag, span=replace(span, line=line, index=index))


def _drain_one(queue: _Queue, parent: _Parent, progress: Any, after_input: Callable[[], None] | None) -> None:
    number, future, piece = queue.popleft()
    if piece is not None and piece.guess:
        # A guess starts where the previous one ended: the parent counts its lines and items.
        at = Piece(b"", parent.line, parent.index, offset=piece.offset)
        if future is None:  # the layout gave out: cut the rest by parsing it
            raise _GuessError(number, at)
        result = future.result()
        if result.retry:
            raise _GuessError(number, at)
        _shift(result.read_reports, parent.line - 1, parent.index)
        parent.line += result.lines + 1
        parent.index += result.count
    elif future is None:  # an input is done
        parent.line, parent.index = 1, 0
        if after_input is not None:
            after_input()
        return
    else:
        result = future.result()
    count = parent.take(result)
    if progress is not None:
        progress.add(count)
