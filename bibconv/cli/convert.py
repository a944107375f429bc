"""``bibconv convert``: options parsed here, the conversion done by :func:`bibconv.api.convert_files`."""

from __future__ import annotations

import os
from contextlib import ExitStack

import click

from bibconv.cli.options import (
    arxiv_date_option,
    input_options,
    limit_options,
    limits_from,
    output_options,
    report_options,
    select_options,
    write_options,
)
from bibconv.cli.run import Run, check_format, guarded, stdout, target_format

__all__ = ["convert", "input_files"]


def input_files(inputs: tuple[str, ...]) -> list[str]:
    """The INPUT arguments (standard input when none), each ``-`` or a file: a regular one, or one
    read as a stream (a FIFO, ``/dev/stdin``, ``<(process)``)."""
    sources = list(inputs) or ["-"]
    for source in sources:
        if source != "-" and (os.path.isdir(source) or not os.path.exists(source)):
            problem = "is a directory" if os.path.isdir(source) else "no such file"
            raise click.BadParameter(f"{source}: {problem}", param_hint="INPUT")
    return sources


@click.command()
@input_options
@output_options
@report_options()
@write_options
@select_options
@arxiv_date_option()
@limit_options
@guarded
def convert(
    run: Run,
    *,
    inputs: tuple[str, ...],
    from_: str | None,
    to: str | None,
    output: str | None,
    skip_invalid: bool,
    quiet: bool,
    ascii_: bool | None,
    normalize: bool,
    protect_case: str,
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
      bibconv convert a.ris b.bib -t bibtex --unicode > all.bib
      bibconv convert fixtures/text/read/numbered_en.txt -t ris
      bibconv convert listing.html feed.xml --dedupe --sort year -t bibtex
      bibconv convert arxiv-metadata-oai-snapshot.json -t csljson -o arxiv.json --jobs 4
    """
    from bibconv.api import convert_files
    from bibconv.progress import Progress

    target = target_format(to, output)
    check_format(from_, readable=True)
    sources = input_files(inputs)
    with ExitStack() as stack:
        dest = output if output and output != "-" else stack.enter_context(stdout(spool=not skip_invalid))
        progress = stack.enter_context(Progress.for_stderr(quiet=quiet, sources=sources))
        run.progress = progress
        convert_files(
            sources,
            target,
            dest,
            from_=from_,
            jobs=jobs,
            dedupe=dedupe,
            sort=sort_by,
            limit=limit,
            strict=not skip_invalid,
            limits=limits_from(max_input_size, max_field_size, max_names),
            diagnostics=run.diagnostics,
            read_options={"arxiv_date": arxiv_date},
            progress=progress,
            after_input=run.report,
            ascii=ascii_,
            normalize=normalize,
            protect_case=protect_case,
            key_format=key_format,
        )
