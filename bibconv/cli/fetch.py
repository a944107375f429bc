"""``bibconv fetch``: arXiv records by identifier, written in any format."""

from __future__ import annotations

import sys

import click

from bibconv.cli.options import arxiv_date_option, output_options, report_options
from bibconv.cli.run import Run, guarded, target_format
from bibconv.cli.run import output as open_output

__all__ = ["fetch"]


def _identifiers(ids: tuple[str, ...], from_files: tuple[str, ...]) -> list[str]:
    """The identifiers given as arguments and in the ``--from-file`` files (``-``: stdin)."""
    from bibconv.fetch import read_id_list

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
    return words


@click.command()
@click.argument("ids", nargs=-1, metavar="[ID_OR_URL]...")
@output_options
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
    "--max-wait",
    type=click.FloatRange(min=0),
    default=120.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds of pauses between retries of one request, at most, before giving up.",
)
@arxiv_date_option("Date a preprint by its first version or by the version fetched.")
@report_options("Skip bad or unknown identifiers, report them, go on.")
@guarded
def fetch(
    run: Run,
    *,
    ids: tuple[str, ...],
    to: str | None,
    output: str | None,
    from_files: tuple[str, ...],
    delay: float,
    base_url: str | None,
    batch_size: int,
    max_wait: float,
    arxiv_date: str,
    skip_invalid: bool,
    quiet: bool,
) -> None:
    """Fetch arXiv records by identifier or URL and write them in any format.

    \b
    Identifiers: 2604.12345, 2604.12345v2, arXiv:2604.12345, hep-th/9901001,
    abs or pdf URLs; '-' reads them from standard input.

    Requests go out in batches, one every --delay seconds. A timeout or a busy
    server (5xx) is retried, each retry said on stderr, with --max-wait seconds
    of pauses at most; a refused connection or a host name that does not resolve
    fails at once. Without --skip-invalid a bad or unknown identifier stops the
    run with status 1 and no output is written.

    \b
    Examples:
      bibconv fetch 1706.03762 arXiv:hep-th/9901001v1 -t bibtex
      bibconv fetch --from-file ids.txt -o refs.json
      bibconv fetch https://arxiv.org/abs/2104.12255v1 -t ris
    """

    from bibconv.fetch import DEFAULT_BASE_URL, is_web_address
    from bibconv.fetch import fetch as fetch_records
    from bibconv.registry import WriteContext, get_writer

    target = target_format(to, output)
    words = _identifiers(ids, from_files)
    base = base_url or DEFAULT_BASE_URL
    if not is_web_address(base):
        raise click.BadParameter(f"{base!r} is not an http(s) URL", param_hint="--base-url")
    writer = get_writer(target)
    ctx = WriteContext(diagnostics=run.diagnostics)
    records = fetch_records(
        words,
        base_url=base,
        delay=delay,
        batch_size=batch_size,
        max_wait=max_wait,
        notify=None if quiet else lambda message: click.echo(f"bibconv: {message}", err=True),
        arxiv_date=arxiv_date,
        strict=not skip_invalid,
        diagnostics=run.diagnostics,
    )
    with open_output(output, spool=not skip_invalid) as stream:
        writer.write(records, stream, ctx)
