"""Built-in formats: the one table of what each format module registers, read without importing it.

Each module registers its reader and writer with :mod:`bibconv.registry` when it is imported. The
registry imports a module only when its format is first used, and answers "which format has this
extension" and "which format is meant by this name" from :data:`BUILTINS` alone, so that
``bibconv --version`` and small conversions stay fast. ``tests/test_registry.py`` checks that the
table agrees with the classes.

>>> BUILTINS["bibtex"].extensions, BUILTINS["bibtex"].aliases
(('.bib', '.bibtex'), ('bib',))
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BUILTINS", "Builtin"]


@dataclass(frozen=True)
class Builtin:
    """A built-in format: the module that registers it and what it registers there.

    ``aliases`` are the other names people type for it (looked up without regard to case, as the
    format's own name is).
    """

    module: str
    extensions: tuple[str, ...]
    reads: bool
    writes: bool
    aliases: tuple[str, ...] = ()


BUILTINS: dict[str, Builtin] = {
    "arxiv-jsonl": Builtin("bibconv.formats.arxiv_jsonl", (".jsonl", ".json"), reads=True, writes=False),
    "atom": Builtin("bibconv.formats.atom", (".atom",), reads=True, writes=False),
    "biblatex": Builtin("bibconv.formats.bibtex", (".biblatex",), reads=True, writes=True),
    "bibtex": Builtin(
        "bibconv.formats.bibtex", (".bib", ".bibtex"), reads=True, writes=True, aliases=("bib",)
    ),
    "csljson": Builtin(
        "bibconv.formats.csljson",
        (".json", ".csl.json", ".csljson"),
        reads=True,
        writes=True,
        aliases=("json", "csl", "csl-json"),
    ),
    "html": Builtin("bibconv.formats.listing.html", (".html", ".htm", ".xhtml"), reads=True, writes=False),
    "ris": Builtin("bibconv.formats.ris", (".ris",), reads=True, writes=True),
    "text": Builtin("bibconv.formats.listing.text", (), reads=True, writes=False),
}
"""Every built-in format by name."""
