"""Output that is never left half-written: a temporary file renamed into place."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from bibconv.errors import OutputError

__all__ = ["atomic_output", "same_file"]


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A UTF-8 text stream (``newline=""``) that replaces ``path`` only when the block succeeds.

    On any exception, ``KeyboardInterrupt`` included, the temporary file is removed and
    an existing ``path`` is left as it was.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write here: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(temp_name, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp_name, 0o666 & ~umask)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name the same existing file (links and relative paths resolved)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()
