"""Conversion spread over processes, with output byte-identical to a serial run (``--jobs N``).

The parent cuts each input file into pieces at record boundaries with its reader's ``split``
(:mod:`bibconv.parallel.plan`; an input that cannot be cut, or a writer that is not made of
entries, makes the whole conversion serial). Worker processes read a piece and write each of its
records with the target writer's ``entry`` (:mod:`~bibconv.parallel.worker`), and send the text
back as UTF-8 bytes (:mod:`~bibconv.parallel.transport`); the parent writes the writer's header,
the pieces' text in input order with the writer's separator between them, and the footer
(:mod:`~bibconv.parallel.parent`). A piece that is a guess (a CSL-JSON array cut by its layout)
must read without an error, else the parent drops it and the pieces after it and has the reader
``resume`` cutting that input from there; the parent moves a guess's reports to the lines and
items of the whole input. Two things would differ from a serial run, and are dealt with:

* **Citation keys** are unique over the whole output. A worker's writer gets a
  :class:`~bibconv.parallel.worker.MarkingKeys` as ``ctx.keys``, which notes each record's key
  proposal (its own id, else :func:`bibconv.keys.make_key`) and gives the record the id
  ``proposal + marker``; the worker takes the markers out of its text and notes where they
  were; the parent runs one :class:`~bibconv.keys.KeyAssigner` over the proposals in order and
  puts in each place the suffix that made the key unique (``"a"`` …, if any), so the writer
  itself renders every key (JSON escaping, BibTeX's key rules).
* **Reports** keep the line and item numbers of the whole input and their serial order, the
  key warnings in their place; what a writer says with ``ctx.warn_once`` is said once per
  output, not once per piece.

By default (``jobs=None``) inputs under :data:`LARGE_INPUT` bytes in all are converted
serially and larger ones with one process per core. Workers end with their parent
(:mod:`~bibconv.parallel.tuning`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any, TextIO

from bibconv.errors import Diagnostic
from bibconv.parallel.pieces import Piece
from bibconv.parallel.plan import LARGE_INPUT, PIECE_SIZE, cpu_count, default_jobs, plan, splitter_for
from bibconv.registry import WriteContext, get_writer

__all__ = [
    "LARGE_INPUT",
    "PIECE_SIZE",
    "Piece",
    "convert",
    "cpu_count",
    "default_jobs",
    "plan",
    "splitter_for",
]


def convert(
    sources: Sequence[str],
    to: str,
    stream: TextIO,
    *,
    jobs: int,
    from_: str | None = None,
    strict: bool = True,
    read_options: dict[str, Any] | None = None,
    write_options: dict[str, Any] | None = None,
    diagnostics: list[Diagnostic] | None = None,
    progress: Any = None,
    after_input: Callable[[], None] | None = None,
    piece_size: int = PIECE_SIZE,
    ctx: WriteContext | None = None,
) -> bool:
    """Convert ``sources`` (files) to format ``to`` on ``stream`` with ``jobs`` processes.

    Returns ``False``, having written nothing, when an input cannot be cut into pieces (it is
    not a file, or its reader has no ``split``) or the writer has no ``entry``; the caller then
    converts serially. Reports go to ``diagnostics``; ``after_input`` is called when each input
    is done; ``progress`` (a :class:`bibconv.progress.Progress`) is told of records and bytes;
    ``ctx``, when given, is the output's write context (it counts the entries written).

    >>> import io
    >>> out = io.StringIO()
    >>> convert(["fixtures/html/read/own/articles_it.html"], "ris", out, jobs=2)  # a page: not cut
    False
    """
    from bibconv.limits import DEFAULT_LIMITS

    if not callable(getattr(get_writer(to), "written_entry", None)):  # an EntryWriter
        return False
    read_options = dict(read_options or {})
    limits = read_options.pop("limits", None) or DEFAULT_LIMITS
    write_options = dict(write_options or {})
    reports = diagnostics if diagnostics is not None else []
    if ctx is None:
        ctx = WriteContext(options=write_options, diagnostics=reports)
    keys = ctx.keys  # refuses a bad key format before any work
    with ExitStack() as stack:
        inputs = plan(sources, from_, piece_size, stack)
        if inputs is None or any(os.path.getsize(i.path) > limits.max_input_bytes for i in inputs):
            return False  # the serial run reports the input that is too large where it is cut off
        import secrets

        from bibconv.parallel.parent import run
        from bibconv.parallel.worker import Job

        token = "zq" + "".join(secrets.choice("bcdfghjklmnpqrstvwxz") for _ in range(10))
        job = Job(to, write_options, read_options, limits, strict, token)
        run(inputs, stream, jobs, job, ctx, keys, progress, after_input, piece_size)
    return True
