"""``bibconv format``: records printed as formatted references (pybtex's styles)."""

from __future__ import annotations

import click

from bibconv.cli.convert import input_files
from bibconv.cli.options import input_options, output_path, report_options
from bibconv.cli.run import Run, check_format, guarded
from bibconv.cli.run import output as open_output

__all__ = ["format_references"]


@click.command("format")
@input_options
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
@output_path
@report_options()
@guarded
def format_references(
    run: Run,
    *,
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
      bibconv format fixtures/text/read/numbered_en.txt --style plain -t text
      bibconv format refs.bib --style alpha -t html -o refs.html
      cat feed.xml | bibconv format --from atom -t markdown
    """
    from bibconv.conversion import file_records
    from bibconv.formatting import format as format_records
    from bibconv.progress import Progress

    check_format(from_, readable=True)
    sources = input_files(inputs)
    with Progress.for_stderr(quiet=quiet, sources=sources) as progress:
        run.progress = progress
        records = file_records(sources, from_, not skip_invalid, run.diagnostics, {}, progress, run.report)
        text = format_records(records, style, to, diagnostics=run.diagnostics)
    progress.written = progress.records
    with open_output(output, spool=False) as stream:
        stream.write(text)
