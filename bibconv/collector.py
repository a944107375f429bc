"""How often the garbage collector runs while many small objects live long (:func:`few_collections`)."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["few_collections"]

_FEW_COLLECTIONS = 20_000
"""The garbage collector's first threshold within :func:`few_collections` (Python's own: 700)."""
_PAUSES = threading.Lock()
_paused: list[tuple[int, int, int]] = []  # the thresholds to restore, while a block runs


@contextmanager
def few_collections() -> Iterator[None]:
    """Within the block, the garbage collector runs a thirtieth as often: the reading of a page, or a
    worker's piece, makes many small objects that live as long as the page or piece, which each
    collection would walk again (a tenth of the CPU on some pages and pieces). Nested and concurrent
    blocks restore Python's thresholds once."""
    with _PAUSES:
        if not _paused:
            old = gc.get_threshold()
            _paused.append(old)
            gc.set_threshold(max(old[0], _FEW_COLLECTIONS), old[1], old[2])
        else:
            _paused.append(_paused[0])
    try:
        yield
    finally:
        with _PAUSES:
            old = _paused.pop()
            if not _paused:
                gc.set_threshold(*old)


def _forget_pauses() -> None:
    """A process forked within a block (``--jobs``' workers) starts with Python's thresholds."""
    global _PAUSES
    _PAUSES = threading.Lock()
    if _paused:
        gc.set_threshold(*_paused[0])
        _paused.clear()


os.register_at_fork(after_in_child=_forget_pauses)
