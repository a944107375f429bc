"""``bibconv formats`` and ``bibconv detect``: what bibconv reads and writes, and what a file is."""

from __future__ import annotations

import sys

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
