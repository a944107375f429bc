"""One command run: its diagnostics, its output stream, and the guard that turns library
errors into messages and exit codes (``file:line: message``, never a traceback)."""

from __future__ import annotations

import functools
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import IO, Any, TextIO

import click

from bibconv.errors import BibconvError, Diagnostic, FormatError, OutputError, ReadError
from bibconv.output import Terminated
from bibconv.progress import Progress

__all__ = ["EXIT_INPUT", "EXIT_USAGE", "Run", "check_format", "guarded", "output", "stdout", "target_format"]

EXIT_INPUT = 1
EXIT_USAGE = 2


class Run:
    """Diagnostics of one command run, printed to stderr as they are settled."""

    def __init__(
        self,
        quiet: bool = False,
        skip_invalid: bool = False,
        verbose: bool = False,
        report: IO[str] | None = None,
    ) -> None:
        from bibconv.cli.diagnostics import Printer
        from bibconv.conversion import DiagnosticLog

        self.quiet = quiet
        self.skip_invalid = skip_invalid
        self.diagnostics = DiagnosticLog(self._settle)
        self.failed = False
        self.errors = 0
        self.printer = Printer(quiet, verbose, report)
        self.progress: Progress | None = None
        """The conversion's counts (records read and written) for the summary line, if it has one."""

    def report(self) -> None:
        """Print (and count) the diagnostics gathered so far."""
        self.diagnostics.hand_on()

    def _settle(self, diagnostics: list[Diagnostic]) -> None:
        for diag in diagnostics:
            if diag.severity == "error":
                self.failed = True
                self.errors += 1
        self.printer.show_all(diagnostics)

    def closing_lines(self) -> list[str]:
        """What is left to say at the end: the warnings only counted, and the summary line."""
        counts = None if self.progress is None else (self.progress.records, self.progress.written)
        return self.printer.closing_lines(self.errors, counts)

    def summary(self) -> str:
        """The last line of a failed run: how many records were skipped, or that input had errors."""
        if not self.skip_invalid:
            return "bibconv: the input has errors"
        return f"bibconv: {self.errors} {'record was' if self.errors == 1 else 'records were'} skipped"


def _format_names(readable: bool) -> list[str]:
    from bibconv.registry import formats

    return [n for n, i in formats().items() if (i.reader if readable else i.writer) is not None]


def check_format(name: str | None, readable: bool) -> str | None:
    """``name`` if bibconv can read (or write) it; a usage error listing the formats if not."""
    from bibconv.registry import format_name, get_reader, get_writer

    if name is None:
        return None
    try:  # imports only this format's module (the list of all is made for the error)
        (get_reader if readable else get_writer)(name)
        return format_name(name)
    except FormatError:
        pass
    names = _format_names(readable)
    if name not in names:
        kind = "read" if readable else "write"
        raise click.BadParameter(
            f"{name!r} is not a format bibconv can {kind}; choose from {', '.join(names)}"
        )
    return name


def target_format(to: str | None, output: str | None) -> str:
    """The output format: ``-t``, else the one the ``-o`` file's extension names."""
    from bibconv.registry import format_for_extension

    target = check_format(to, readable=False)
    if target is None and output and output != "-":
        target = format_for_extension(output, writing=True)
    if target is None:
        raise click.UsageError("give the output format with -t/--to (see 'bibconv formats')")
    return target


@contextmanager
def _stdout_text() -> Iterator[TextIO]:
    stream = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="", write_through=False)
    try:
        yield stream
        stream.flush()
    finally:
        stream.detach()


@contextmanager
def output(path: str | None, spool: bool) -> Iterator[TextIO]:
    """The output stream: an atomic file, or stdout (spooled when a failure must leave no output)."""
    from bibconv.output import atomic_output

    if path and path != "-":
        with atomic_output(path) as stream:
            yield stream
    else:
        with stdout(spool) as stream:
            yield stream


@contextmanager
def stdout(spool: bool) -> Iterator[TextIO]:
    """Standard output as UTF-8 text; spooled to a temporary file first when ``spool`` (a run
    that fails then writes nothing)."""
    if not spool:
        with _stdout_text() as stream:
            yield stream
        return
    with tempfile.TemporaryFile() as raw:
        tmp = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        yield tmp
        tmp.flush()
        raw.seek(0)
        sys.stdout.flush()  # the bytes as they are: no decoding and encoding again
        shutil.copyfileobj(raw, sys.stdout.buffer)
        sys.stdout.buffer.flush()


def _guard(body: Callable[[], None]) -> None:
    """Run a command body, turning library errors into messages and exit codes."""
    try:
        body()
    except (FormatError, OutputError) as exc:
        click.echo(f"bibconv: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except ReadError as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_INPUT)
    except BibconvError as exc:
        click.echo(f"bibconv: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    except BrokenPipeError:
        # The reader of our stdout went away (``| head``): end quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:
        click.echo("bibconv: interrupted", err=True)
        sys.exit(130)
    except Terminated as exc:
        click.echo("bibconv: terminated", err=True)
        sys.exit(exc.code)


def guarded(command: Callable[..., None]) -> Callable[..., None]:
    """A command body ``command(run, **options)`` run under the guard: library errors become
    messages, and a run with errors ends with its summary line and status 1."""

    @functools.wraps(command)
    def run_command(**options: Any) -> None:
        verbose = bool(options.pop("verbose", False))
        report_path = options.pop("report", None)
        with ExitStack() as stack:
            report = stack.enter_context(open(report_path, "w", encoding="utf-8")) if report_path else None
            run = Run(bool(options.get("quiet")), bool(options.get("skip_invalid")), verbose, report)

            def body() -> None:
                command(run, **options)
                run.report()

            try:
                _guard(body)
            finally:
                for line in run.closing_lines():
                    click.echo(line, err=True)
        if run.failed:
            click.echo(run.summary(), err=True)
            sys.exit(EXIT_INPUT)

    return run_command
