"""The ``bibconv`` command line.

Library errors become messages here and only here: the user sees
``file:line: message``, never a traceback. Exit status: 0 success, 1 bad input
(also when ``--skip-invalid`` skipped records), 2 usage errors.

Each command group is a module (:mod:`~bibconv.cli.convert`, :mod:`~bibconv.cli.fetch`,
:mod:`~bibconv.cli.format`, :mod:`~bibconv.cli.info`); the options they share are bundles in
:mod:`~bibconv.cli.options`, and :func:`bibconv.cli.run.guarded` runs each command's body.
"""

from __future__ import annotations

import click

from bibconv import __version__
from bibconv.cli import convert, fetch, info
from bibconv.cli import format as formatting

__all__ = ["main"]


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


for _command in (convert.convert, fetch.fetch, formatting.format_references, info.formats, info.detect):
    main.add_command(_command)


def _run_main() -> None:
    main(prog_name="bibconv")


if __name__ == "__main__":  # pragma: no cover
    _run_main()
