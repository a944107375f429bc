"""What one listing item's reading remembers: the answers of the text functions it calls.

An item's lines are read several ways (its author line as a byline, then as names), so within
:func:`one_item` each function marked :func:`per_item` computes its answer for given arguments
once. The memory ends with the item: nothing is kept from one item to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, ParamSpec, TypeVar

__all__ = ["one_item", "per_item"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_ITEM: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("bibconv_listing_item", default=None)


@contextmanager
def one_item() -> Iterator[None]:
    """Within the block, functions marked :func:`per_item` remember their answers."""
    token = _ITEM.set({})
    try:
        yield
    finally:
        _ITEM.reset(token)


def per_item(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function``, its answers remembered within :func:`one_item` (its arguments must be hashable
    and its answers never changed by the caller)."""

    @wraps(function)
    def remembering(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        memory = _ITEM.get()
        if memory is None:
            return function(*args, **kwargs)
        key = (function, args, *sorted(kwargs.items()))
        if key in memory:
            return memory[key]  # type: ignore[no-any-return]
        answer = memory[key] = function(*args, **kwargs)
        return answer

    return remembering
