"""Output that is never left half-written: a temporary file renamed into place.

A path that names something other than a regular file is written into as it is: a character
device (``/dev/null`` is never replaced), a FIFO, a link to standard output (``/dev/stdout``,
``/dev/fd/1``). A symbolic link is followed, and its target replaced. A directory is refused.
A failed write (``/dev/full``, a full disk) is an :class:`~bibconv.errors.OutputError`. The
temporary file is removed on any exception, ``KeyboardInterrupt`` included, and on SIGTERM.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TextIO

from bibconv.errors import OutputError

__all__ = ["Terminated", "atomic_output", "same_file"]

# Write errors that say the output cannot take the text (not a bug in the input or the writer).
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS, errno.ENXIO}


def _cannot_write(path: str | os.PathLike[str], exc: OSError) -> OutputError:
    return OutputError(f"{os.fspath(path)}: cannot write: {exc.strerror or exc}")


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A UTF-8 text stream (``newline=""``) that replaces ``path`` only when the block succeeds.

    On any exception, ``KeyboardInterrupt`` included, the temporary file is removed and
    an existing ``path`` is left as it was. Something that is not a regular file (a device, a
    FIFO, standard output) is written into instead (see the module docstring).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_output(target) as stream:
    ...     _ = stream.write("text\\n")
    >>> target.read_text()
    'text\\n'
    """
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as exc:
        raise OutputError(f"{os.fspath(path)}: cannot write here: {exc.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{os.fspath(path)}: is a directory")
    if (info is not None and not stat.S_ISREG(info.st_mode)) or _is_stdout(path, info):
        with _written_into(path) as stream:
            yield stream
        return
    with _replaced(Path(os.path.realpath(path)), path) as stream:
        yield stream


def _is_stdout(path: str | os.PathLike[str], info: os.stat_result | None) -> bool:
    """Whether ``path`` names the file this process's standard output is (``/dev/stdout``)."""
    if info is None or not os.path.islink(path):
        return False
    try:
        return os.path.samestat(info, os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no standard output
        return False


@contextlib.contextmanager
def _written_into(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """Text written straight into ``path`` (a device, a FIFO, standard output), not replacing it."""
    if _is_stdout(path, os.stat(path)):
        sys.stdout.flush()
        stream = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", newline="")
    else:
        try:
            stream = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise OutputError(f"{os.fspath(path)}: cannot write here: {exc.strerror}") from None
    try:
        with stream:
            try:
                yield stream
                stream.flush()
            except OSError as exc:
                if exc.errno not in _WRITE_ERRORS:
                    raise
                raise _cannot_write(path, exc) from None
    except OSError as exc:  # the last flush, on closing
        if exc.errno not in _WRITE_ERRORS:
            raise
        raise _cannot_write(path, exc) from None


@contextlib.contextmanager
def _replaced(target: Path, named: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A temporary file beside ``target`` (a link's target), renamed over it when the block succeeds."""
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"{os.fspath(named)}: cannot write here: {exc.strerror}") from None
    try:
        with _removed_on_sigterm(), os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            try:
                yield stream
                stream.flush()
                os.fsync(stream.fileno())
            except OSError as exc:
                if exc.errno not in _WRITE_ERRORS:
                    raise
                raise _cannot_write(named, exc) from None
        _set_mode(temp_name, target)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def _set_mode(temp_name: str, target: Path) -> None:
    """The mode of the file replaced, or that of a new file (0666 less the umask)."""
    if target.exists():
        with contextlib.suppress(OSError):
            os.chmod(temp_name, target.stat().st_mode & 0o7777)
    else:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp_name, 0o666 & ~umask)


class Terminated(SystemExit):
    """SIGTERM arrived while an output was being written (exit status 143).

    >>> Terminated(143).code
    143
    """


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated(128 + signum)


@contextlib.contextmanager
def _removed_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into an exception while the block runs, so that the temporary is removed;
    only in the main thread, and only where SIGTERM has its default action."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name the same existing file (links and relative paths resolved)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()
