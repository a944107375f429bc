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

__all__ = ["Conversion", "file_records", "refuse_overwriting"]


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
        before = len(diagnostics)
        count = 0
        with counted_input(name) as (handle, filename):
            progress.watch(handle)
            for record in iter_records(
                handle, from_, strict=strict, diagnostics=diagnostics, filename=filename, **options
            ):
                count += 1
                progress.add()
                yield record
        if not count and not _said_why(diagnostics[before:]):
            _no_records(name, strict, diagnostics)
        if after_input is not None:
            after_input()


def _said_why(diagnostics: list[Diagnostic]) -> bool:
    """Whether a reader reported why its input gave no record (a skipped one, or "no records")."""
    return any(d.severity == "error" or "no record" in d.message for d in diagnostics)


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
        counted = [self.progress.records, len(self.diagnostics)]

        def input_done() -> None:  # as _file_records does: an input with no record is said
            name = next(inputs)
            if self.progress.records == counted[0] and not _said_why(self.diagnostics[counted[1] :]):
                _no_records(name, self.strict, self.diagnostics)
            counted[:] = [self.progress.records, len(self.diagnostics)]
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
