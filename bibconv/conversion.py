"""The steps of :func:`bibconv.api.convert_files`: the records of each input in turn (an input that
gives none is said), the records chosen (merged, sorted, cut), and the run, in parallel when it may be."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from bibconv.errors import Diagnostic, OutputError, ReadError
from bibconv.model import Record, SourceSpan
from bibconv.output import same_file
from bibconv.progress import Progress
from bibconv.registry import WriteContext, get_writer
from bibconv.sources import counted_input

__all__ = ["SETTLE_EVERY", "Conversion", "DiagnosticLog", "file_records", "refuse_overwriting"]

SETTLE_EVERY = 10_000
"""Diagnostics a :class:`DiagnosticLog` gathers before it hands them on."""


class DiagnosticLog(list[Diagnostic]):
    """A run's diagnostics, handed to ``settle`` (printed) every :data:`SETTLE_EVERY`, so that an
    input of a million bad entries does not hold a million reports; what was handed on still counts
    for the question whether an input said why it gave no record (:func:`_mark`)."""

    def __init__(self, settle: Callable[[list[Diagnostic]], None]) -> None:
        super().__init__()
        self.settle = settle
        self.settled = 0
        self.settled_reasons = 0

    def append(self, diagnostic: Diagnostic) -> None:
        super().append(diagnostic)
        if len(self) >= SETTLE_EVERY:
            self.hand_on()

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        super().extend(diagnostics)
        if len(self) >= SETTLE_EVERY:
            self.hand_on()

    def hand_on(self) -> None:
        """Give every diagnostic held to ``settle``, in order, and forget them."""
        held = list(self)
        self.clear()
        self.settled += len(held)
        self.settled_reasons += sum(1 for d in held if _is_reason(d))
        self.settle(held)


def file_records(
    sources: Sequence[str],
    from_: str | None,
    strict: bool,
    diagnostics: list[Diagnostic],
    options: dict[str, Any],
    progress: Progress,
    after_input: Callable[[], None] | None,
) -> Iterator[Record]:
    """The records of each source in turn (``-``: standard input), counted by ``progress`` with the
    bytes read; a source that gives none is an error (a warning when not ``strict``) unless its
    reader said why."""
    from bibconv.api import iter_records

    for name in sources:
        before = _mark(diagnostics)
        count = 0
        with counted_input(name) as (handle, filename):
            progress.watch(handle)
            for record in iter_records(
                handle, from_, strict=strict, diagnostics=diagnostics, filename=filename, **options
            ):
                count += 1
                progress.add()
                yield record
        if not count and not _said_why_since(diagnostics, before):
            _no_records(name, strict, diagnostics)
        if after_input is not None:
            after_input()


def _is_reason(diagnostic: Diagnostic) -> bool:
    """Whether a report says why an input gave no record (a skipped one, or "no records")."""
    return diagnostic.severity == "error" or "no record" in diagnostic.message


def _mark(diagnostics: list[Diagnostic]) -> tuple[int, int]:
    """Where ``diagnostics`` stands: how many were reported (handed on by a :class:`DiagnosticLog`
    or held), and how many of those handed on were reasons."""
    if isinstance(diagnostics, DiagnosticLog):
        return diagnostics.settled + len(diagnostics), diagnostics.settled_reasons
    return len(diagnostics), 0


def _said_why_since(diagnostics: list[Diagnostic], mark: tuple[int, int]) -> bool:
    """Whether a reason was reported since ``mark`` (:func:`_mark`)."""
    position, reasons = mark
    if isinstance(diagnostics, DiagnosticLog):
        if diagnostics.settled_reasons > reasons:
            return True
        position = max(0, position - diagnostics.settled)
    return any(_is_reason(d) for d in diagnostics[position:])


def _no_records(name: str, strict: bool, diagnostics: list[Diagnostic]) -> None:
    """Report an input that gave no record: an error naming it, a warning when not ``strict``."""
    empty = name != "-" and os.path.getsize(name) == 0
    message = "the input is empty: no records" if empty else "no records found in the input"
    span = SourceSpan("<stdin>" if name == "-" else name)
    if strict:
        raise ReadError(message + " (--skip-invalid goes on without it)", span)
    diagnostics.append(Diagnostic(message, span, None, "warning"))


def _selected(
    records: Iterable[Record], dedupe: bool, sort: str, limit: int | None, diagnostics: list[Diagnostic]
) -> Iterable[Record]:
    """``records`` merged (``dedupe``), sorted and cut at ``limit``, in that order."""
    if dedupe or sort != "input":
        from bibconv.merge import dedupe as merge_duplicates
        from bibconv.merge import sort_records

        if dedupe:
            records = merge_duplicates(
                records, lambda message: diagnostics.append(Diagnostic(message, severity="note"))
            )
        records = sort_records(records, sort)
    if limit is not None:
        records = itertools.islice(records, limit)
    return records


@dataclass
class Conversion:
    """What :func:`convert_files` was asked, and the run: in parallel when it may be, else serially."""

    sources: list[str]
    to: str
    from_: str | None
    jobs: int | None
    dedupe: bool
    sort: str
    limit: int | None
    strict: bool
    diagnostics: list[Diagnostic]
    read_options: dict[str, Any]
    write_options: dict[str, Any]
    progress: Progress
    after_input: Callable[[], None] | None

    def run(self, stream: TextIO) -> None:
        writer = get_writer(self.to)
        ctx = WriteContext(options=self.write_options, diagnostics=self.diagnostics)
        if not self._parallel(stream, ctx):
            records = file_records(
                self.sources,
                self.from_,
                self.strict,
                self.diagnostics,
                self.read_options,
                self.progress,
                self.after_input,
            )
            chosen = _selected(records, self.dedupe, self.sort, self.limit, self.diagnostics)
            writer.write(chosen, stream, ctx)
        self.progress.written = ctx.written

    def _parallel(self, stream: TextIO, ctx: WriteContext) -> bool:
        """Convert with several processes if asked (or the inputs are large) and the records
        need no selection; ``False`` when the run is to be serial (nothing written then)."""
        from bibconv.parallel import convert, default_jobs

        processes = self.jobs or default_jobs(self.sources)
        if processes < 2 or self.dedupe or self.sort != "input" or self.limit is not None:
            return False
        inputs = iter(self.sources)
        records, mark = self.progress.records, _mark(self.diagnostics)

        def input_done() -> None:  # as _file_records does: an input with no record is said
            nonlocal records, mark
            name = next(inputs)
            if self.progress.records == records and not _said_why_since(self.diagnostics, mark):
                _no_records(name, self.strict, self.diagnostics)
            records, mark = self.progress.records, _mark(self.diagnostics)
            if self.after_input is not None:
                self.after_input()

        return convert(
            self.sources,
            self.to,
            stream,
            jobs=processes,
            from_=self.from_,
            strict=self.strict,
            read_options=self.read_options,
            write_options=self.write_options,
            diagnostics=self.diagnostics,
            progress=self.progress,
            after_input=input_done,
            ctx=ctx,
        )


def refuse_overwriting(sources: Sequence[str], dest: str | os.PathLike[str]) -> None:
    """An :class:`OutputError` if ``dest`` is one of the input files (devices and FIFOs may be both)."""
    for source in sources:
        if source != "-" and os.path.isfile(source) and os.path.isfile(dest) and same_file(source, dest):
            raise OutputError(f"{os.fspath(dest)}: the output would overwrite the input {source}")
