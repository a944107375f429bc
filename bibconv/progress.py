"""A one-line progress report on standard error for long conversions.

Shown only when standard error is a terminal (and not with ``--quiet``): records so far,
records per second, and bytes read (with the share of the input when its size is known).
It is redrawn at most :data:`INTERVAL` times a second, appears only once a conversion has
run for :data:`DELAY` seconds, and is erased when the conversion ends, so short runs and
redirected output never see it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from types import TracebackType
from typing import IO, TextIO

__all__ = ["DELAY", "INTERVAL", "Progress"]

INTERVAL = 0.2
"""Seconds between two redraws."""
DELAY = 1.0
"""Seconds before the first draw."""
_CHECK_EVERY = 64
"""Records between two looks at the clock."""


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"  # pragma: no cover


class Progress:
    """Counts records read and bytes, and redraws a status line when enabled.

    >>> p = Progress(enabled=False)
    >>> p.add(3); p.records
    3
    """

    def __init__(
        self, total: int | None = None, *, enabled: bool = True, stream: TextIO | None = None
    ) -> None:
        self.enabled = enabled
        self.total = total or None
        self.records = 0
        self.written = 0
        """Records written, set when a conversion ends (records with nothing to write are not)."""
        self._stream = stream or sys.stderr
        self._handle: IO[bytes] | None = None
        self._done_bytes = 0
        self._start = time.monotonic()
        self._next_draw = self._start + DELAY
        self._countdown = _CHECK_EVERY
        self._drawn = 0

    @classmethod
    def for_stderr(cls, *, quiet: bool, sources: Sequence[str] = ()) -> Progress:
        """Enabled when standard error is a terminal and the run is not quiet; ``sources``: input paths."""
        enabled = not quiet and sys.stderr is not None and sys.stderr.isatty()
        total = sum(os.path.getsize(s) for s in sources if s != "-" and os.path.isfile(s))
        return cls(total, enabled=enabled)

    def watch(self, handle: IO[bytes]) -> None:
        """Count the bytes read from ``handle`` (an open input file) from now on."""
        if self._handle is not None:
            self._done_bytes += self._position()
        self._handle = handle

    def _position(self) -> int:
        try:
            return self._handle.tell() if self._handle is not None and not self._handle.closed else 0
        except (OSError, ValueError):
            return 0

    @property
    def bytes_read(self) -> int:
        return self._done_bytes + self._position()

    def add(self, records: int = 1) -> None:
        """Count ``records`` more records, redrawing when it is time."""
        self.records += records
        if not self.enabled:
            return
        self._countdown -= records
        if self._countdown > 0:
            return
        self._countdown = _CHECK_EVERY
        now = time.monotonic()
        if now >= self._next_draw:
            self._next_draw = now + INTERVAL
            self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self._start, 1e-9)
        done = self.bytes_read
        text = f"bibconv: {self.records:,} records, {self.records / elapsed:,.0f}/s, {_size(done)}"
        if self.total:
            text += f" of {_size(self.total)} ({min(done / self.total, 1):.0%})"
        pad = max(self._drawn - len(text), 0)
        self._stream.write("\r" + text + " " * pad)
        self._stream.flush()
        self._drawn = len(text)

    def close(self) -> None:
        """Erase the status line."""
        if self.enabled and self._drawn:
            self._stream.write("\r" + " " * self._drawn + "\r")
            self._stream.flush()
            self._drawn = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
