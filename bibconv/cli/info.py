"""``bibconv formats`` and ``bibconv detect``: what bibconv reads and writes, and what a file is."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from bibconv.cli.run import EXIT_INPUT
from bibconv.errors import BibconvError

__all__ = ["detect", "formats"]


@click.command()
def formats() -> None:
    """List every format: whether it reads, writes or both, its file extensions and other names.

    \b
    Example:
      bibconv formats
    """
    from bibconv.registry import formats as all_formats

    rows = [("FORMAT", "READ", "WRITE", "EXTENSIONS", "ALIASES", "DESCRIPTION")]
    for name, info in all_formats().items():
        rows.append(
            (
                name,
                "yes" if info.reader else "-",
                "yes" if info.writer else "-",
                " ".join(info.extensions) or "-",
                " ".join(info.aliases) or "-",
                info.description,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[5])


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--explain",
    is_flag=True,
    help="For a web page, say which reader claims it (the arXiv and site readers, the generic "
    "reader, the page's own metadata) and how many papers each finds.",
)
def detect(files: tuple[str, ...], explain: bool) -> None:
    """Print the detected format of each FILE ('-' for standard input).

    \b
    Examples:
      bibconv detect refs.bib feed.xml listing.html
      bibconv detect --explain listing.html
    """
    from bibconv.api import detect as detect_source

    status = 0
    for path in files:
        try:
            name = detect_source(path)
            click.echo(f"{path}: {name}")
            if explain and name == "html":
                _explain_page(path)
        except BibconvError as exc:
            click.echo(f"{path}: {exc}", err=True)
            status = EXIT_INPUT
    sys.exit(status)


def _explain_page(path: str) -> None:
    """One line per listing reader: claimed or not, and the papers it finds."""
    from bibconv.registry import ReadContext, get_reader

    explain = getattr(get_reader("html"), "explain", None)
    if explain is None:
        return

    if path == "-":
        click.echo("  --explain reads a saved page: give its file name, not standard input")
        return
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        click.echo(f"  cannot read the page: {exc.strerror}")
        return
    try:
        findings = explain(data, ReadContext(path, strict=False))
    except (ValueError, RuntimeError) as exc:
        click.echo(f"  cannot parse the page as HTML: {exc}")
        return
    for finding in findings:
        said = f"claims it, {finding.items} paper(s)" if finding.claimed else "does not claim it"
        if not finding.claimed and finding.reader == "generic":
            said = f"not used (another reader gave the papers); would find {finding.items}"
        if finding.reader == "page metadata":  # the html reader's own metadata (formats/listing/html.py)
            said = f"read, {finding.items} paper(s)" if finding.claimed else "not used"
        click.echo(f"  {finding.reader}: {said}")
