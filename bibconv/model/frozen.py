"""What keeps the model's objects unchanged: :class:`FrozenDict` (a read-only ``dict``) and
:func:`immutable`, which makes assigning to an attribute say how to make a changed copy instead."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import FrozenInstanceError
from typing import Any, NoReturn, TypeVar

__all__ = ["EMPTY", "FrozenDict", "frozen", "immutable"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A read-only ``dict``: hashable when its values are, picklable, JSON-serialisable.

    >>> d = FrozenDict({"a": 1})
    >>> d["a"]
    1
    >>> d["b"] = 2
    Traceback (most recent call last):
    TypeError: FrozenDict is read-only
    """

    __slots__ = ()

    def _readonly(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("FrozenDict is read-only")

    __setitem__ = __delitem__ = _readonly
    clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment,unused-ignore]
    __ior__ = _readonly  # type: ignore[assignment,unused-ignore]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: str(kv[0]))))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


EMPTY: FrozenDict[Any, Any] = FrozenDict()
"""The empty :class:`FrozenDict` that :func:`frozen` gives for every empty mapping."""


def frozen(mapping: Mapping[K, V] | Iterable[tuple[K, V]] | None) -> FrozenDict[K, V]:
    """``mapping`` read-only: itself if it is a :class:`FrozenDict`, one shared empty one if it is empty."""
    if isinstance(mapping, FrozenDict):
        return mapping
    return FrozenDict(mapping) if mapping else EMPTY


def immutable(cls: type) -> None:
    """Make assigning to an attribute of ``cls`` say how to change such an object instead."""

    def refuse(self: object, name: str, value: object = None) -> None:
        kind = type(self).__name__
        how = f"record.replace({name}=…)" if kind == "Record" else f"dataclasses.replace(obj, {name}=…)"
        raise FrozenInstanceError(
            f"cannot set {name!r}: a {kind} is immutable; make a changed copy with {how}"
        )

    cls.__setattr__ = refuse  # type: ignore[method-assign]
    cls.__delattr__ = refuse  # type: ignore[method-assign,assignment]
