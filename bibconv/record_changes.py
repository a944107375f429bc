"""CSL variables given by name when a record is made or changed: ``record.replace(title=…)``,
``dataclasses.replace(record, container_title=…, author=[…], issued="2020-05")``.

A keyword is a CSL variable with ``_`` for ``-`` (``container_title``, ``DOI`` or ``doi``);
``authors`` is ``author``. ``None`` removes the variable. Text and number variables take text (or a
number), name variables a list of :class:`~bibconv.model.Name` (or CSL name objects), date
variables a :class:`~bibconv.model.Date`, EDTF text (``"2020-05"``) or a year.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from bibconv.model import Date, Name

__all__ = ["apply_variables"]


@lru_cache(maxsize=1)
def _variables() -> dict[str, tuple[str, str]]:
    """Keyword → (CSL variable, kind: ``field``, ``name`` or ``date``)."""
    from bibconv import csl

    table: dict[str, tuple[str, str]] = {}
    kinds = (
        (sorted(csl.TEXT_VARS | csl.NUMBER_VARS), "field"),
        (csl.NAME_VARS, "name"),
        (csl.DATE_VARS, "date"),
    )
    for variables, kind in kinds:
        for var in variables:
            for key in (var, var.replace("-", "_"), var.replace("-", "_").lower()):
                table.setdefault(key, (var, kind))
    table["authors"] = ("author", "name")
    return table


def _names(var: str, value: Any) -> tuple[Name, ...]:
    if isinstance(value, (str, Name)) or not isinstance(value, Iterable):
        raise TypeError(f"{var} takes a list of Name objects, not {type(value).__name__}")
    return tuple(
        n if isinstance(n, Name) else Name.from_csl(n) for n in value if isinstance(n, (Name, Mapping))
    )


def _date(var: str, value: Any) -> Date:
    if isinstance(value, Date):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TypeError(f"{var} takes a Date, EDTF text or a year, not {type(value).__name__}")
    return Date.from_edtf(str(value))


def apply_variables(
    fields: Mapping[str, str],
    names: Mapping[str, Any],
    dates: Mapping[str, Date],
    variables: Mapping[str, Any],
) -> tuple[dict[str, str], dict[str, Any], dict[str, Date]]:
    """``fields``, ``names`` and ``dates`` with the CSL ``variables`` given by keyword set or removed.

    >>> apply_variables({"title": "T"}, {}, {}, {"container_title": "J", "title": None, "issued": 2020})
    ({'container-title': 'J'}, {}, {'issued': Date(parts=((2020,),), season=None, circa=False, literal=None)})
    """
    fields, names, dates = dict(fields), dict(names), dict(dates)
    table = _variables()
    for key, value in variables.items():
        if key not in table:
            raise TypeError(
                f"a Record has no attribute or CSL variable {key!r}; give CSL variables by name with _ for -"
                " (title=…, container_title=…, DOI=…, author=[Name(…)], issued='2020-05')"
            )
        var, kind = table[key]
        slot: dict[str, Any] = {"field": fields, "name": names, "date": dates}[kind]
        if value is None:
            slot.pop(var, None)
        elif kind == "field":
            slot[var] = value if isinstance(value, str) else str(value)
        elif kind == "name":
            slot[var] = _names(key, value)
        else:
            slot[var] = _date(key, value)
    return fields, names, dates
