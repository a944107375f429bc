"""How many processes, and which pieces: inputs opened and cut by their readers' ``split``."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import IO, Any, cast

from bibconv.errors import OutputError
from bibconv.parallel.pieces import Piece, Splitter
from bibconv.registry import get_reader

__all__ = [
    "LARGE_INPUT",
    "PIECE_SIZE",
    "Input",
    "Task",
    "cpu_count",
    "default_jobs",
    "plan",
    "resumed",
    "splitter_for",
    "tasks",
]

LARGE_INPUT = 4 << 20
"""Total input size from which ``jobs=None`` means one process per core."""
PIECE_SIZE = 1 << 20
"""Bytes of input per piece of work."""

Task = tuple[str, "str | None", Piece]
"""What a worker is given: the input's format, its file name, one piece of it."""


def cpu_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _file_size(source: str) -> int:
    try:
        return os.path.getsize(source) if source != "-" and os.path.isfile(source) else 0
    except OSError:
        return 0


def default_jobs(sources: Sequence[str]) -> int:
    """Processes for ``sources`` when none are asked for: one per core for large inputs, else 1."""
    return cpu_count() if sum(_file_size(s) for s in sources) >= LARGE_INPUT else 1


def splitter_for(name: str) -> Splitter | None:
    """How input of format ``name`` is cut: its reader's ``split``, or ``None`` if it has none."""
    own = getattr(get_reader(name), "split", None)
    return cast(Splitter, own) if callable(own) else None


@dataclass
class Input:
    """One input file, open, with the iterator of its pieces."""

    path: str
    name: str
    handle: IO[bytes]
    pieces: Iterator[Piece]


def plan(sources: Sequence[str], from_: str | None, size: int, stack: ExitStack) -> list[Input] | None:
    """Each input opened (closed with ``stack``) and cut into pieces of about ``size`` bytes, or
    ``None`` if some input cannot be cut (standard input, a format or a file that does not allow it)."""
    from bibconv.api import detect

    inputs = []
    for source in sources:
        if source == "-" or not os.path.isfile(source):
            return None
        name = from_ or detect(source)
        split = splitter_for(name)
        if split is None:
            return None
        try:
            handle = stack.enter_context(open(source, "rb"))  # noqa: SIM115 - the stack closes it
        except OSError as exc:
            raise OutputError(f"{source}: cannot open: {exc.strerror}") from None
        pieces = split(handle, size)
        if pieces is None:
            return None
        inputs.append(Input(source, name, handle, pieces))
    return inputs


def tasks(inputs: list[Input], progress: Any, first: int = 0) -> Iterator[tuple[int, Task | None]]:
    """``(input number, task)`` for every piece of every input, read lazily; ``None`` ends an input."""
    for number, step in enumerate(inputs, first):
        if progress is not None:
            progress.watch(step.handle)
        for piece in step.pieces:
            yield number, (step.name, step.path, piece)
        yield number, None


def resumed(inputs: list[Input], number: int, at: Piece, size: int) -> list[Input]:
    """The inputs from input ``number`` on, cut again: that one from the guessed piece ``at`` on
    (by its reader's ``resume``), the others from their start."""
    again = []
    for k in range(number, len(inputs)):
        step = inputs[k]
        pieces: Iterator[Piece] | None
        if k == number:
            resume = getattr(get_reader(step.name), "resume", None)
            if not callable(resume):
                raise OutputError(f"{step.path}: the {step.name} reader guessed a cut it cannot resume from")
            pieces = resume(step.handle, size, at)
        else:
            step.handle.seek(0)
            pieces = cast(Splitter, splitter_for(step.name))(step.handle, size)
        if pieces is None:  # pragma: no cover - it was cut before
            raise OutputError(f"{step.path}: the input changed while it was read")
        again.append(Input(step.path, step.name, step.handle, pieces))
    return again
