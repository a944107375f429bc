"""Option bundles shared by the commands, each a decorator that adds a group of options."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = [
    "arxiv_date_option",
    "input_options",
    "limit_options",
    "output_options",
    "parse_size",
    "report_options",
    "select_options",
    "write_options",
]

F = TypeVar("F", bound=Callable[..., Any])

KEY_FORMATS = ("authyeartitle", "authyear", "arxiv", "bbt", "id")
""":data:`bibconv.keys.KEY_FORMATS`, spelt out so that the command line starts without importing keys."""


def _bundle(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """One decorator applying ``decorators`` so that the options show in the order given."""

    def apply(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(value: str | None, param: click.Parameter | None = None) -> int | None:
    """``1500``, ``64K``, ``10M``, ``2G`` → bytes.

    >>> parse_size("64K"), parse_size("2g"), parse_size(None)
    (65536, 2147483648, None)
    """
    if value is None:
        return None
    text = value.strip().upper().removesuffix("B")
    unit = text[-1:] if text[-1:] in _SIZE_UNITS else ""
    number = text[: len(text) - len(unit)]
    if not number.isdigit() or int(number) == 0:
        raise click.BadParameter(f"{value!r} is not a size like 1500, 64K, 10M or 2G", param=param)
    return int(number) * _SIZE_UNITS[unit]


input_options = _bundle(
    click.argument("inputs", nargs=-1, metavar="[INPUT]..."),
    click.option("-f", "--from", "from_", metavar="FORMAT", help="Input format (default: detected)."),
)

_output_path = click.option("-o", "--output", metavar="PATH", help="Output file (default: standard output).")

output_options = _bundle(
    click.option(
        "-t", "--to", "to", metavar="FORMAT", help="Output format (default: from the -o extension)."
    ),
    _output_path,
)
"""``-t FORMAT`` and ``-o PATH``; ``output_path`` alone for commands with their own ``-t``."""
output_path = _output_path


def report_options(what: str = "Skip bad records, report them, and go on.") -> Callable[[F], F]:
    """``--skip-invalid`` (helped by ``what``), ``--quiet``, ``--verbose`` and ``--report FILE``."""
    return _bundle(
        click.option("--skip-invalid", is_flag=True, help=what),
        click.option("-q", "--quiet", is_flag=True, help="Do not print warnings."),
        click.option(
            "-v", "--verbose", is_flag=True, help="Print every warning (default: the first 3 of each kind)."
        ),
        click.option(
            "--report",
            type=click.Path(dir_okay=False, writable=True),
            metavar="FILE",
            help="Write every warning and error to FILE, one JSON object a line.",
        ),
    )


write_options = _bundle(
    click.option(
        "--ascii/--unicode",
        "ascii_",
        default=None,
        help="BibTeX/biblatex: every non-ASCII character as TeX (entries as read too), or UTF-8. "
        "Default: TeX for bibtex (its 8-bit sorting and labels need it), UTF-8 for biblatex; "
        "either way what pdflatex cannot set is TeX. CSL-JSON: --ascii escapes as \\uXXXX.",
    ),
    click.option(
        "--normalize",
        is_flag=True,
        help="BibTeX: write every entry from its fields (TeX encoded again, @string macros expanded, "
        "bibconv's field order) rather than as read.",
    ),
    click.option(
        "--protect-case",
        type=click.Choice(["none", "acronyms", "all"]),
        default="acronyms",
        show_default=True,
        help="BibTeX: which title words to brace so styles keep their case (see the README).",
    ),
    click.option(
        "--key-format",
        type=click.Choice(KEY_FORMATS, case_sensitive=False),
        help="Citation keys for records without one: authyeartitle (rodriguez2026attention, the default),"
        " authyear (rodriguez2026), arxiv (arXiv's export), bbt (Better BibTeX's"
        " rodriguezAttentionMamba2026), id (the arXiv id or DOI).",
    ),
)

select_options = _bundle(
    click.option(
        "--dedupe", is_flag=True, help="Merge records of the same work (arXiv id, DOI, or title+author+year)."
    ),
    click.option(
        "--sort",
        "sort_by",
        type=click.Choice(["input", "key", "year", "author"]),
        default="input",
        show_default=True,
        help="Order of the output records.",
    ),
    click.option("--limit", type=click.IntRange(min=0), help="Write at most this many records."),
    click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        metavar="N",
        help="Processes to convert with (default: one per core for inputs over 4 MB, else 1); "
        "the output is the same.",
    ),
)


def arxiv_date_option(
    what: str = "arXiv: date a preprint by its first version or by the version read.",
) -> Callable[[F], F]:
    """``--arxiv-date v1|version``."""
    return click.option(
        "--arxiv-date",
        type=click.Choice(["v1", "version"]),
        default="v1",
        show_default=True,
        help=what,
    )


limit_options = _bundle(
    click.option(
        "--max-input-size",
        metavar="SIZE",
        callback=lambda ctx, param, value: parse_size(value, param),
        help="Largest input accepted, in bytes (suffix K, M or G; default 16G).",
    ),
    click.option(
        "--max-field-size",
        type=click.IntRange(min=1),
        metavar="CHARS",
        help="Longest field value accepted (default 10,000,000 characters).",
    ),
    click.option(
        "--max-names",
        type=click.IntRange(min=1),
        metavar="N",
        help="Longest name list accepted (default 20,000).",
    ),
)


def limits_from(max_input_size: int | None, max_field_size: int | None, max_names: int | None) -> Any:
    """The :class:`bibconv.limits.Limits` the ``--max-*`` options ask for (``None``: the defaults)."""
    if not (max_input_size or max_field_size or max_names):
        return None
    from bibconv.limits import DEFAULT_LIMITS, Limits

    return Limits(
        max_input_bytes=max_input_size or DEFAULT_LIMITS.max_input_bytes,
        max_field_chars=max_field_size or DEFAULT_LIMITS.max_field_chars,
        max_names=max_names or DEFAULT_LIMITS.max_names,
    )
