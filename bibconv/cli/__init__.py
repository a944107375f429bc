"""The ``bibconv`` command line.

Library errors become messages here and only here: the user sees
``file:line: message``, never a traceback. Exit status: 0 success, 1 bad input
(also when ``--skip-invalid`` skipped records), 2 usage errors.
"""

from __future__ import annotations

import io
import itertools
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import click

from bibconv import __version__
from bibconv.errors import BibconvError, Diagnostic, FormatError, OutputError, ReadError

__all__ = ["main"]

EXIT_INPUT = 1
EXIT_USAGE = 2


class _Run:
    """Diagnostics of one command run, printed to stderr as they are settled."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.diagnostics: list[Diagnostic] = []
        self.failed = False
        self.errors = 0

    def report(self) -> None:
        for diag in self.diagnostics:
            if diag.severity == "error":
                self.failed = True
                self.errors += 1
            if diag.severity == "error" or not self.quiet:
                click.echo(str(diag), err=True)
        self.diagnostics.clear()

    def summary(self, skip_invalid: bool) -> str:
        """The last line of a failed run: how many records were skipped, or that input had errors."""
        if not skip_invalid:
            return "bibconv: the input has errors"
        return f"bibconv: {self.errors} {'record was' if self.errors == 1 else 'records were'} skipped"


def _format_names(readable: bool) -> list[str]:
    from bibconv.registry import formats

    return [n for n, i in formats().items() if (i.reader if readable else i.writer) is not None]


def _check_format(name: str | None, readable: bool) -> str | None:
    from bibconv.registry import get_reader, get_writer

    if name is None:
        return None
    try:  # imports only this format's module (the list of all is made for the error)
        (get_reader if readable else get_writer)(name)
        return name
    except FormatError:
        pass
    names = _format_names(readable)
    if name not in names:
        kind = "read" if readable else "write"
        raise click.BadParameter(
            f"{name!r} is not a format bibconv can {kind}; choose from {', '.join(names)}"
        )
    return name


@contextmanager
def _stdout_text() -> Iterator[TextIO]:
    stream = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="", write_through=False)
    try:
        yield stream
        stream.flush()
    finally:
        stream.detach()


@contextmanager
def _output(path: str | None, spool: bool) -> Iterator[TextIO]:
    """The output stream: an atomic file, or stdout (spooled when a failure must leave no output)."""
    from bibconv.output import atomic_output

    if path and path != "-":
        with atomic_output(path) as stream:
            yield stream
        return
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


def _records(
    inputs: Iterable[str],
    from_: str | None,
    strict: bool,
    run: _Run,
    options: dict[str, Any],
    progress: Any = None,
) -> Iterator[Any]:
    from pathlib import Path

    from bibconv.api import iter_records

    for name in inputs:
        source = name if name == "-" else Path(name)
        if progress is None or not progress.enabled or name == "-":
            yield from iter_records(source, from_, strict=strict, diagnostics=run.diagnostics, **options)
        else:  # open the file here to follow how much of it has been read
            with open(name, "rb") as handle:
                progress.watch(handle)
                for record in iter_records(
                    handle, from_, strict=strict, diagnostics=run.diagnostics, filename=name, **options
                ):
                    progress.add()
                    yield record
        run.report()


def _input_files(inputs: Iterable[str]) -> list[str]:
    """The INPUT arguments (standard input when none), each an existing file or ``-``."""
    sources = list(inputs) or ["-"]
    for source in sources:
        if source != "-" and not os.path.isfile(source):
            problem = "is a directory" if os.path.isdir(source) else "no such file"
            raise click.BadParameter(f"{source}: {problem}", param_hint="INPUT")
    return sources


def _select(
    records: Iterable[Any], dedupe: bool, sort_by: str, limit: int | None, run: _Run
) -> Iterable[Any]:
    """Apply --dedupe, --sort and --limit, in that order."""
    if dedupe or sort_by != "input":
        from bibconv.merge import dedupe as merge_duplicates
        from bibconv.merge import sort_records

        if dedupe:
            records = merge_duplicates(
                records, lambda message: run.diagnostics.append(Diagnostic(message, severity="note"))
            )
        records = sort_records(records, sort_by)
    if limit is not None:
        records = itertools.islice(records, limit)
    return records


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _parse_size(value: str | None, param: click.Parameter) -> int | None:
    """``1500``, ``64K``, ``10M``, ``2G`` → bytes."""
    if value is None:
        return None
    text = value.strip().upper().removesuffix("B")
    unit = text[-1:] if text[-1:] in _SIZE_UNITS else ""
    number = text[: len(text) - len(unit)]
    if not number.isdigit() or int(number) == 0:
        raise click.BadParameter(f"{value!r} is not a size like 1500, 64K, 10M or 2G", param=param)
    return int(number) * _SIZE_UNITS[unit]


def _guard(body: Callable[[], None]) -> None:
    """Run a command body, turning library errors into messages and exit codes."""
    try:
        body()
    except FormatError as exc:
        click.echo(f"bibconv: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except OutputError as exc:
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="bibconv")
def main() -> None:
    """Convert bibliographic records between BibTeX, BibLaTeX, CSL-JSON and RIS, and read
    arXiv Atom feeds and paper-listing pages.

    \b
    Examples:
      bibconv convert refs.bib -t csljson -o refs.json
      bibconv convert listing.html -t bibtex
      cat feed.xml | bibconv convert --from atom -t ris
      bibconv formats
    """


@main.command()
@click.argument("inputs", nargs=-1, metavar="[INPUT]...")
@click.option("-f", "--from", "from_", metavar="FORMAT", help="Input format (default: detected).")
@click.option("-t", "--to", "to", metavar="FORMAT", help="Output format (default: from the -o extension).")
@click.option("-o", "--output", metavar="PATH", help="Output file (default: standard output).")
@click.option("--skip-invalid", is_flag=True, help="Skip bad records, report them, and go on.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print warnings.")
@click.option("--ascii", "ascii_", is_flag=True, help="BibTeX: write pure ASCII with TeX accents.")
@click.option("--key-format", metavar="PATTERN", help="Citation keys for records without one.")
@click.option(
    "--dedupe", is_flag=True, help="Merge records of the same work (arXiv id, DOI, or title+author+year)."
)
@click.option(
    "--sort",
    "sort_by",
    type=click.Choice(["input", "key", "year", "author"]),
    default="input",
    show_default=True,
    help="Order of the output records.",
)
@click.option("--limit", type=click.IntRange(min=0), help="Write at most this many records.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="Processes to convert with (default: one per core for inputs over 4 MB, else 1); "
    "the output is the same.",
)
@click.option(
    "--arxiv-date",
    type=click.Choice(["v1", "version"]),
    default="v1",
    show_default=True,
    help="arXiv: date a preprint by its first version or by the version read.",
)
@click.option(
    "--max-input-size",
    metavar="SIZE",
    callback=lambda ctx, param, value: _parse_size(value, param),
    help="Largest input accepted, in bytes (suffix K, M or G; default 16G).",
)
@click.option(
    "--max-field-size",
    type=click.IntRange(min=1),
    metavar="CHARS",
    help="Longest field value accepted (default 10,000,000 characters).",
)
@click.option(
    "--max-names",
    type=click.IntRange(min=1),
    metavar="N",
    help="Longest name list accepted (default 20,000).",
)
def convert(
    inputs: tuple[str, ...],
    from_: str | None,
    to: str | None,
    output: str | None,
    skip_invalid: bool,
    quiet: bool,
    ascii_: bool,
    key_format: str | None,
    dedupe: bool,
    sort_by: str,
    limit: int | None,
    jobs: int | None,
    arxiv_date: str,
    max_input_size: int | None,
    max_field_size: int | None,
    max_names: int | None,
) -> None:
    """Convert INPUT files (or standard input) to another format.

    Several inputs are read in order into one output. Without --skip-invalid the
    first bad record stops the conversion with status 1 and no output is written.

    \b
    Examples:
      bibconv convert refs.bib -t csljson -o refs.json
      bibconv convert a.ris b.bib -t bibtex --ascii > all.bib
      bibconv convert fixtures/text/seed-listing.txt -t ris
      bibconv convert listing.html feed.xml --dedupe --sort year -t bibtex
      bibconv convert arxiv-metadata-oai-snapshot.json -t csljson -o arxiv.json --jobs 4
    """
    from bibconv.output import same_file
    from bibconv.registry import format_for_extension, get_writer

    run = _Run(quiet)

    def body() -> None:
        target = _check_format(to, readable=False)
        _check_format(from_, readable=True)
        if target is None and output and output != "-":
            target = format_for_extension(output, writing=True)
        if target is None:
            raise click.UsageError("give the output format with -t/--to (see 'bibconv formats')")
        sources = _input_files(inputs)
        if output and output != "-":
            for source in sources:
                if source != "-" and os.path.exists(source) and same_file(source, output):
                    raise OutputError(f"{output}: the output would overwrite the input {source}")
        writer = get_writer(target)
        read_options: dict[str, Any] = {"arxiv_date": arxiv_date}
        if max_input_size or max_field_size or max_names:
            from bibconv.limits import DEFAULT_LIMITS, Limits

            read_options["limits"] = Limits(
                max_input_bytes=max_input_size or DEFAULT_LIMITS.max_input_bytes,
                max_field_chars=max_field_size or DEFAULT_LIMITS.max_field_chars,
                max_names=max_names or DEFAULT_LIMITS.max_names,
            )
        write_options: dict[str, Any] = {"ascii": ascii_}
        if key_format:
            write_options["key_format"] = key_format
        from bibconv.parallel import default_jobs
        from bibconv.progress import Progress
        from bibconv.registry import WriteContext

        ctx = WriteContext(options=write_options, diagnostics=run.diagnostics)
        progress = Progress.for_stderr(quiet=quiet, sources=sources)
        with _output(output, spool=not skip_invalid) as stream, progress:
            processes = jobs or default_jobs(sources)
            if processes > 1 and not dedupe and sort_by == "input" and limit is None:
                from bibconv import parallel

                done = parallel.convert(
                    sources,
                    target,
                    stream,
                    jobs=processes,
                    from_=from_,
                    strict=not skip_invalid,
                    read_options=read_options,
                    write_options=write_options,
                    diagnostics=run.diagnostics,
                    progress=progress,
                    after_input=run.report,
                )
            else:
                done = False
            if not done:  # one process, or an input that cannot be cut into pieces
                records = _select(
                    _records(sources, from_, not skip_invalid, run, read_options, progress),
                    dedupe,
                    sort_by,
                    limit,
                    run,
                )
                writer.write(records, stream, ctx)
        run.report()

    _guard(body)
    if run.failed:
        click.echo(run.summary(skip_invalid), err=True)
        sys.exit(EXIT_INPUT)


@main.command()
@click.argument("ids", nargs=-1, metavar="[ID_OR_URL]...")
@click.option("-t", "--to", "to", metavar="FORMAT", help="Output format (default: from the -o extension).")
@click.option("-o", "--output", metavar="PATH", help="Output file (default: standard output).")
@click.option(
    "--from-file",
    "from_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
    metavar="PATH",
    help="Read identifiers from PATH ('-': standard input); spaces, commas or lines apart, '#' comments.",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=3.0,
    show_default=True,
    help="Seconds between requests (arXiv asks for 3).",
)
@click.option(
    "--base-url",
    envvar="BIBCONV_ARXIV_API",
    metavar="URL",
    help="arXiv API address [env: BIBCONV_ARXIV_API; default: https://export.arxiv.org/api/query].",
)
@click.option(
    "--batch-size",
    type=click.IntRange(1, 100),
    default=100,
    show_default=True,
    help="Identifiers per request.",
)
@click.option(
    "--arxiv-date",
    type=click.Choice(["v1", "version"]),
    default="v1",
    show_default=True,
    help="Date a preprint by its first version or by the version fetched.",
)
@click.option("--skip-invalid", is_flag=True, help="Skip bad or unknown identifiers, report them, go on.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print warnings.")
def fetch(
    ids: tuple[str, ...],
    to: str | None,
    output: str | None,
    from_files: tuple[str, ...],
    delay: float,
    base_url: str | None,
    batch_size: int,
    arxiv_date: str,
    skip_invalid: bool,
    quiet: bool,
) -> None:
    """Fetch arXiv records by identifier or URL and write them in any format.

    \b
    Identifiers: 2604.12345, 2604.12345v2, arXiv:2604.12345, hep-th/9901001,
    abs or pdf URLs; '-' reads them from standard input.

    Requests go out in batches, one every --delay seconds, and are retried when
    arXiv is busy. Without --skip-invalid a bad or unknown identifier stops the
    run with status 1 and no output is written.

    \b
    Examples:
      bibconv fetch 1706.03762 arXiv:hep-th/9901001v1 -t bibtex
      bibconv fetch --from-file ids.txt -o refs.json
      bibconv fetch https://arxiv.org/abs/2104.12255v1 -t ris
    """
    from urllib.parse import urlsplit

    from bibconv.fetch import DEFAULT_BASE_URL, read_id_list
    from bibconv.fetch import fetch as fetch_records
    from bibconv.registry import WriteContext, format_for_extension, get_writer

    run = _Run(quiet)

    def body() -> None:
        target = _check_format(to, readable=False)
        if target is None and output and output != "-":
            target = format_for_extension(output, writing=True)
        if target is None:
            raise click.UsageError("give the output format with -t/--to (see 'bibconv formats')")
        words: list[str] = []
        for arg in ids:
            words += read_id_list(sys.stdin.read()) if arg == "-" else [arg]
        for path in from_files:
            if path == "-":
                words += read_id_list(sys.stdin.read())
            else:
                with open(path, encoding="utf-8-sig") as handle:
                    words += read_id_list(handle.read())
        if not words:
            raise click.UsageError("give arXiv identifiers or URLs, '-' for standard input, or --from-file")
        base = base_url or DEFAULT_BASE_URL
        if urlsplit(base).scheme not in ("http", "https"):
            raise click.BadParameter(f"{base!r} is not an http(s) URL", param_hint="--base-url")
        writer = get_writer(target)
        ctx = WriteContext(diagnostics=run.diagnostics)
        records = fetch_records(
            words,
            base_url=base,
            delay=delay,
            batch_size=batch_size,
            arxiv_date=arxiv_date,
            strict=not skip_invalid,
            diagnostics=run.diagnostics,
        )
        with _output(output, spool=not skip_invalid) as stream:
            writer.write(records, stream, ctx)
        run.report()

    _guard(body)
    if run.failed:
        click.echo(run.summary(skip_invalid), err=True)
        sys.exit(EXIT_INPUT)


@main.command("format")
@click.argument("inputs", nargs=-1, metavar="[INPUT]...")
@click.option("-f", "--from", "from_", metavar="FORMAT", help="Input format (default: detected).")
@click.option(
    "-s",
    "--style",
    type=click.Choice(["plain", "unsrt", "alpha", "unsrtalpha"]),
    default="plain",
    show_default=True,
    help="pybtex style: numbered (plain sorted, unsrt in input order) or labelled (alpha, unsrtalpha).",
)
@click.option(
    "-t",
    "--to",
    "to",
    type=click.Choice(["text", "html", "markdown", "latex"]),
    default="text",
    show_default=True,
    help="Output: plain text, an HTML page, Markdown, or a LaTeX thebibliography.",
)
@click.option("-o", "--output", metavar="PATH", help="Output file (default: standard output).")
@click.option("--skip-invalid", is_flag=True, help="Skip bad records, report them, and go on.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print warnings.")
def format_references(
    inputs: tuple[str, ...],
    from_: str | None,
    style: str,
    to: str,
    output: str | None,
    skip_invalid: bool,
    quiet: bool,
) -> None:
    """Print INPUT files (or standard input) as formatted references, one per record.

    References are rendered by pybtex's ports of the BibTeX styles. Without
    --skip-invalid the first bad record stops with status 1 and nothing is written.

    \b
    Examples:
      bibconv format fixtures/text/seed-listing.txt --style plain -t text
      bibconv format refs.bib --style alpha -t html -o refs.html
      cat feed.xml | bibconv format --from atom -t markdown
    """
    from bibconv.formatting import format as format_records

    run = _Run(quiet)

    def body() -> None:
        _check_format(from_, readable=True)
        sources = _input_files(inputs)
        records = _records(sources, from_, not skip_invalid, run, {})
        text = format_records(records, style, to, diagnostics=run.diagnostics)
        with _output(output, spool=False) as stream:
            stream.write(text)
        run.report()

    _guard(body)
    if run.failed:
        click.echo(run.summary(skip_invalid), err=True)
        sys.exit(EXIT_INPUT)


@main.command()
def formats() -> None:
    """List every format with its file extensions and whether it reads, writes or both.

    \b
    Example:
      bibconv formats
    """
    from bibconv.registry import formats as all_formats

    rows = [("FORMAT", "READ", "WRITE", "EXTENSIONS", "DESCRIPTION")]
    for name, info in all_formats().items():
        rows.append(
            (
                name,
                "yes" if info.reader else "-",
                "yes" if info.writer else "-",
                " ".join(info.extensions) or "-",
                info.description,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[4])


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
def detect(files: tuple[str, ...]) -> None:
    """Print the detected format of each FILE ('-' for standard input).

    \b
    Example:
      bibconv detect refs.bib feed.xml listing.html
    """
    from bibconv.api import detect as detect_source

    status = 0
    for path in files:
        try:
            click.echo(f"{path}: {detect_source(path)}")
        except BibconvError as exc:
            click.echo(f"{path}: {exc}", err=True)
            status = EXIT_INPUT
    sys.exit(status)


def _run_main() -> None:
    main(prog_name="bibconv")


if __name__ == "__main__":  # pragma: no cover
    _run_main()
