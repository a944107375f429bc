"""Memoised results that come with warnings: the result and its warnings are kept, and every call
replays the warnings to its own callback, so a cached value warns where it is used as the first one did.

>>> calls = []
>>> @memo_with_warnings(maxsize=16)
... def halve(n: int, *, warn):
...     calls.append(n)
...     if n % 2:
...         warn(f"{n} is odd")
...     return n // 2
>>> said: list[str] = []
>>> halve(3, warn=said.append), halve(3, warn=said.append), calls, said
(1, 1, [3], ['3 is odd', '3 is odd'])
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["ROOM", "SHORT", "Memoised", "memo_with_warnings"]

SHORT = 200
"""Values up to this long (journals, publishers, name parts) repeat across a file: results for them are
memoised; longer ones (abstracts, notes) seldom repeat and are computed each time."""

ROOM = 1 << 15
"""Results a cache of repeating values keeps: room for the distinct short values and names of a
100k-record file (19,419 distinct names in the benchmark corpus's 100k records)."""

R = TypeVar("R")
Warn = Callable[[str], None]


class Memoised(Generic[R]):
    """``function(*args, warn=…)`` memoised on ``args`` (hashable), its warnings replayed at each call."""

    __slots__ = ("__wrapped__", "_cached")

    def __init__(self, function: Callable[..., R], maxsize: int) -> None:
        self.__wrapped__ = function

        @functools.lru_cache(maxsize=maxsize)
        def cached(*args: Hashable) -> tuple[R, tuple[str, ...]]:
            warnings: list[str] = []
            return function(*args, warn=warnings.append), tuple(warnings)

        self._cached = cached

    def __call__(self, *args: Hashable, warn: Warn | None = None) -> R:
        result, warnings = self._cached(*args)
        if warn is not None:
            for message in warnings:
                warn(message)
        return result

    def cache_clear(self) -> None:
        """Forget every result (tests that change what a function depends on)."""
        self._cached.cache_clear()


def memo_with_warnings(maxsize: int) -> Callable[[Callable[..., R]], Memoised[R]]:
    """Decorator: memoise ``function(*args, warn)`` with room for ``maxsize`` results (bounded, so
    memory stays flat on large inputs); see :class:`Memoised`."""

    def decorate(function: Callable[..., R]) -> Memoised[R]:
        return Memoised(function, maxsize)

    return decorate
