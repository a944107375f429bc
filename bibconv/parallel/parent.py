"""The parent's side of :mod:`bibconv.parallel`: pieces to the workers, their text into the
output in input order, with the keys made unique and the reports in their serial order."""

from __future__ import annotations

import bisect
import functools
import os
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TextIO, cast

from bibconv import errors
from bibconv.collector import few_collections
from bibconv.errors import Diagnostic, ReadError
from bibconv.keys import KeyAssigner
from bibconv.model import Record, SourceSpan
from bibconv.parallel.pieces import Piece
from bibconv.parallel.plan import PIECE_SIZE, Input, Task, resumed, tasks
from bibconv.parallel.transport import byte_writer, filled
from bibconv.parallel.worker import Job, Result, start_worker, work
from bibconv.registry import WriteContext, get_writer

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["run"]


@dataclass
class _Parent:
    """The parent's side: keys, output order, reports."""

    write: Callable[[bytes], None]
    token: str
    ctx: WriteContext  # the output's: options, reports, kinds warned once
    separator: bytes
    keys: KeyAssigner
    redo: Callable[[Task, Any], Result]  # a piece written again, after what came before it
    carried: Any = None  # what the entries written so far leave for the next (EntryWriter.carry)
    entries: int = 0
    line: int = 1  # where the next guessed piece starts (bibconv.parallel.pieces.Piece.guess)
    index: int = 0
    found: list[Diagnostic] = field(default_factory=list)  # key warnings of the record in hand
    seen: set[int] = field(default_factory=set)  # hashes of the entry keys the input's pieces had

    def duplicates(self, result: Result) -> None:
        """Put the reader's report of each entry key that an earlier piece of the input had in its
        place among the piece's reports (``result.first_keys``), as the reader of the whole input
        gives it."""
        found: list[tuple[int, int, Diagnostic]] = []
        for at, marks, key, line in result.first_keys:
            hashed = hash(key.lower())
            if hashed in self.seen:
                span = SourceSpan(result.filename, line)
                found.append((at, marks, Diagnostic(f"duplicate entry key {key!r}", span, key, "warning")))
            else:
                self.seen.add(hashed)
        if not found:
            return
        reports, marks_before = result.read_reports, result.read_marks
        start = 0
        merged: list[Diagnostic] = []
        for at, _, diag in found:
            merged += reports[start:at]
            merged.append(diag)
            start = at
        merged += reports[start:]
        result.read_reports = merged
        # A record read after k of these reports has k more before it.
        moved = [marks for _, marks, _ in found]
        result.read_marks = [mark + bisect.bisect_right(moved, i) for i, mark in enumerate(marks_before)]

    def _suffixes(self, result: Result) -> tuple[dict[int, bytes], dict[int, list[Diagnostic]]]:
        """The suffix that makes each proposed key unique, and the key warnings, by record."""
        suffixes: dict[int, bytes] = {}  # the records whose key gets a suffix
        warnings: dict[int, list[Diagnostic]] = {}
        keys, found = self.keys, self.found
        if keys.take_all(result.keys.proposals()):
            return suffixes, warnings  # the common case: no key is renamed
        keys.warn = self._key_warning
        for index, proposal, given in result.keys:
            final = keys.key_for(proposal, given) if proposal else keys.assign(Record()).id or ""
            if len(final) > len(proposal):
                suffixes[index] = final[len(proposal) :].encode("utf-8")
            if found:
                warnings[index] = found[:]
                found.clear()
        return suffixes, warnings

    def _key_warning(self, message: str) -> None:
        self.found.append(Diagnostic(message, None, None, "warning"))

    def _report(
        self, result: Result, suffixes: dict[int, bytes], key_reports: dict[int, list[Diagnostic]]
    ) -> None:
        """The piece's reports, in the order a serial run gives them."""
        marker = re.compile(re.escape(self.token) + r"(\d+)z")

        def fill(text: str) -> str:
            if not result.keys or not text:
                return text
            return marker.sub(lambda m: suffixes.get(int(m[1]), b"").decode("utf-8"), text)

        read, marks = result.read_reports, result.read_marks
        reports: list[Diagnostic] = []
        start = 0
        for i in sorted(i for i in {*key_reports, *result.write_reports} if i < len(marks)):
            mark = marks[i]  # the reader's reports before record i; then those of its key and entry
            reports += read[start:mark]
            start = mark
            reports += key_reports.get(i, ())
            for diag, kind in result.write_reports.get(i, ()):
                if kind is not None:
                    if kind in self.ctx.warned:
                        continue
                    self.ctx.warned.add(kind)
                record_id = fill(diag.record_id or "") or None
                reports.append(Diagnostic(fill(diag.message), diag.span, record_id, diag.severity))
        reports += read[start:]
        self.ctx.diagnostics.extend(reports)

    def take(self, result: Result) -> int:
        """Write one piece's records; the number of records."""
        if result.error is not None:
            kind, message, span, record_id = result.error
            raise getattr(errors, kind, ReadError)(message, span, record_id)
        self.duplicates(result)
        suffixes, key_reports = self._suffixes(result)
        self._report(result, suffixes, key_reports)
        if result.written:
            if self.entries:
                self.write(self.separator)
            self.write(filled(result.text, suffixes))
            self.entries += result.written
        return result.count


class _GuessError(Exception):
    """A guessed cut (:attr:`bibconv.parallel.pieces.Piece.guess`) that the reader did not confirm."""

    def __init__(self, number: int, piece: Piece) -> None:
        super().__init__(number, piece)
        self.number = number
        self.piece = piece


_Queue = deque[tuple[int, "Future[Result] | None", Piece | None, Task | None]]


def _shift(reports: list[Diagnostic], lines: int, items: int) -> None:
    """Move the spans of a guessed piece's reports to the lines and items of the whole input."""
    for i, diag in enumerate(reports):
        span = diag.span
        if span is not None and (span.line is not None or span.index is not None):
            line = None if span.line is None else span.line + lines
            index = None if span.index is None else span.index + items
            reports[i] = replace(diag, span=replace(span, line=line, index=index))


def _drain_one(queue: _Queue, parent: _Parent, progress: Any, after_input: Callable[[], None] | None) -> None:
    number, future, piece, task = queue.popleft()
    if piece is not None and piece.guess:
        # A guess starts where the previous one ended: the parent counts its lines and items.
        at = Piece(b"", parent.line, parent.index, offset=piece.offset)
        if future is None:  # the layout gave out: cut the rest by parsing it
            raise _GuessError(number, at)
        result = future.result()
        if not result.retry and result.started_from != parent.carried and task is not None:
            result = parent.redo(task, parent.carried)
        if result.retry:
            raise _GuessError(number, at)
        _shift(result.read_reports, parent.line - 1, parent.index)
        result.first_keys = [(at, n, key, line + parent.line - 1) for at, n, key, line in result.first_keys]
        parent.line += result.lines + 1
        parent.index += result.count
    elif future is None:  # an input is done
        parent.line, parent.index = 1, 0
        parent.seen = set()
        if after_input is not None:
            after_input()
        return
    else:
        result = future.result()
    if result.started_from != parent.carried and task is not None:  # written before what came first
        result = parent.redo(task, parent.carried)
    parent.carried = result.carried
    count = parent.take(result)
    if progress is not None:
        progress.add(count)


def _executor(jobs: int) -> Any:
    """A pool of ``jobs`` worker processes (forked where the system can), ending with this one."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from bibconv.parallel.tuning import widen_pipes

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    executor = ProcessPoolExecutor(
        jobs, mp_context=context, initializer=start_worker, initargs=(os.getpid(),)
    )
    widen_pipes(executor)
    return executor


def _feed(
    executor: Any,
    job: Job,
    parent: _Parent,
    queue: _Queue,
    jobs: int,
    todo: Iterator[tuple[int, Task | None]],
    drain: Callable[[], None],
) -> None:
    """Submit every task of ``todo``, draining the queue as it fills (at most ``2 * jobs`` ahead)."""
    submit = functools.partial(executor.submit, work, job)
    for number, task in todo:
        piece = None if task is None else task[2]
        skip = piece is None or (piece.guess and not piece.data)  # an input's end; no more guesses
        future = None if skip else submit(task, parent.carried)
        queue.append((number, future, None if piece is None else replace(piece, data=b""), task))
        while len(queue) > 2 * jobs or (queue and task is None and queue[0][1] is None):
            drain()
    while queue:
        drain()


def run(
    inputs: list[Input],
    stream: TextIO,
    jobs: int,
    job: Job,
    ctx: WriteContext,
    keys: KeyAssigner,
    progress: Any,
    after_input: Callable[[], None] | None,
    piece_size: int = PIECE_SIZE,
) -> None:
    """Feed the pieces to ``jobs`` worker processes and write the header, their text in order,
    and the footer.

    When a guessed cut turns out wrong, the pieces after it are dropped unwritten and that
    input is cut again from there by parsing it (the inputs after it from their start).
    """
    writer: Any = get_writer(job.writer)
    out = byte_writer(stream)
    out(writer.header(ctx).encode("utf-8"))
    separator = str(getattr(writer, "separator", "")).encode("utf-8")
    executor = _executor(jobs)

    def redo(task: Task, carried: Any) -> Result:
        return cast(Result, executor.submit(work, job, task, carried).result())

    parent = _Parent(out, job.token, ctx, separator, keys, redo)
    queue: _Queue = deque()
    try:
        todo = tasks(inputs, progress)
        while True:
            try:
                with few_collections():  # the pieces' reports and text in hand, the output's keys
                    _feed(
                        executor,
                        job,
                        parent,
                        queue,
                        jobs,
                        todo,
                        lambda: _drain_one(queue, parent, progress, after_input),
                    )
                break
            except _GuessError as retry:
                for _, dropped, _, _ in queue:
                    if dropped is not None:
                        dropped.cancel()
                queue.clear()
                todo = tasks(resumed(inputs, retry.number, retry.piece, piece_size), progress, retry.number)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    ctx.entries = parent.entries
    ctx.written = parent.entries
    out(writer.footer(ctx).encode("utf-8"))
