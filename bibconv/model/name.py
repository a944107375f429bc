"""A person's or an organisation's name, split as CSL splits names, and its CSL-JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bibconv.model.frozen import immutable
from bibconv.names_cjk import is_cjk

__all__ = ["Name"]

_NAME_PARTS = ("family", "given", "non_dropping_particle", "dropping_particle", "suffix", "literal")


@dataclass(frozen=True, slots=True)
class Name:
    """A person or an organisation, split as CSL splits names.

    ``literal`` holds a name that must not be split (an organisation) and excludes
    the other parts. ``affiliation`` is kept for formats that can carry it.

    >>> Name(family="Waals", given="Johannes Diderik", non_dropping_particle="van der").display()
    'Johannes Diderik van der Waals'
    """

    family: str | None = None
    given: str | None = None
    non_dropping_particle: str | None = None
    dropping_particle: str | None = None
    suffix: str | None = None
    literal: str | None = None
    affiliation: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if "" in (
            self.family,
            self.given,
            self.non_dropping_particle,
            self.dropping_particle,
            self.suffix,
            self.literal,
        ):
            for part in _NAME_PARTS:
                if getattr(self, part) == "":
                    object.__setattr__(self, part, None)  # an empty part is no part
        if type(self.affiliation) is not tuple:
            object.__setattr__(self, "affiliation", tuple(self.affiliation))
        if self.literal is not None and any(
            (self.family, self.given, self.non_dropping_particle, self.dropping_particle, self.suffix)
        ):
            raise ValueError("a literal name has no other parts")

    @property
    def is_literal(self) -> bool:
        return self.literal is not None

    def family_full(self) -> str:
        """Family name with its non-dropping particle (``van der Waals``)."""
        if self.literal is not None:
            return self.literal
        return " ".join(p for p in (self.non_dropping_particle, self.family) if p)

    def display(self) -> str:
        """The name in reading order: ``Given dropping non-dropping Family, Suffix`` (CJK: ``李小明``)."""
        if self.literal is not None:
            return self.literal
        if self.family and self.given and not self.suffix and is_cjk(self.family) and is_cjk(self.given):
            return self.family + self.given  # 李小明: family first, no space
        text = " ".join(
            p for p in (self.given, self.dropping_particle, self.non_dropping_particle, self.family) if p
        )
        return f"{text}, {self.suffix}" if self.suffix else text

    def to_csl(self) -> dict[str, str]:
        """The CSL-JSON name object (hyphenated keys, empty parts left out)."""
        if self.literal is not None:
            return {"literal": self.literal}
        out: dict[str, str] = {}
        for key, value in (
            ("family", self.family),
            ("given", self.given),
            ("non-dropping-particle", self.non_dropping_particle),
            ("dropping-particle", self.dropping_particle),
            ("suffix", self.suffix),
        ):
            if value:
                out[key] = value
        return out

    @classmethod
    def from_csl(cls, data: Mapping[str, Any]) -> Name:
        """Build a name from a CSL-JSON name object (unknown keys are ignored)."""

        def text(key: str) -> str | None:
            value = data.get(key)
            return None if value is None or value == "" else str(value)

        if text("literal") is not None:
            return cls(literal=text("literal"))
        return cls(
            family=text("family"),
            given=text("given"),
            non_dropping_particle=text("non-dropping-particle"),
            dropping_particle=text("dropping-particle"),
            suffix=text("suffix"),
        )


immutable(Name)
