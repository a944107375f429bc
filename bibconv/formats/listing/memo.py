"""What one listing item's reading remembers: the answers of the text functions it calls.

An item's lines are read several ways (its author line as a byline, then as names), so within
:func:`one_item` each function marked :func:`per_item` computes its answer for given arguments
once. The memory is the item's own: nothing is kept from one item to the next. An element asked
about more than once (whether it looks like a paper, then its reading) may keep its item's memory
for the page (:func:`item_memory`, remembered by element), so the answers serve each question.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from functools import wraps
from typing import Any, ParamSpec, TypeVar

__all__ = ["item_memory", "one_item", "per_item"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_ITEM: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("bibconv_listing_item", default=None)


def item_memory(_: Any = None) -> dict[tuple[Any, ...], Any]:
    """A new item's memory (for :func:`one_item`; remembered by element, one per element)."""
    return {}


class one_item:  # noqa: N801 (a context manager, named as it reads: ``with one_item():``)
    """Within the block, functions marked :func:`per_item` remember their answers (in ``memory``,
    the memory of an item read before, when given). A class rather than a generator: it is entered
    for every item read, and for every question asked of an item."""

    __slots__ = ("_memory", "_token")
    _token: Token[dict[tuple[Any, ...], Any] | None]

    def __init__(self, memory: dict[tuple[Any, ...], Any] | None = None) -> None:
        self._memory = memory

    def __enter__(self) -> None:
        self._token = _ITEM.set(self._memory if self._memory is not None else {})

    def __exit__(self, *_: object) -> None:
        _ITEM.reset(self._token)


def per_item(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function``, its answers remembered within :func:`one_item` (its arguments must be hashable
    and its answers never changed by the caller)."""

    @wraps(function)
    def remembering(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        memory = _ITEM.get()
        if memory is None:
            return function(*args, **kwargs)
        key = (function, args, *sorted(kwargs.items())) if kwargs else (function, args)
        if key in memory:
            return memory[key]  # type: ignore[no-any-return]
        answer = memory[key] = function(*args, **kwargs)
        return answer

    return remembering
