"""Shared code of the fuzz harnesses: one input through a reader, and the libFuzzer driver.

Each ``fuzz_<reader>.py`` beside this file is a command (``python tests/fuzz/fuzz_bibtex.py
-max_total_time=600``) and a module whose ``one_input(data)`` the test suite calls on the
fixtures and on mutated inputs without atheris. The file names do not match pytest's
``test_*.py`` pattern, so pytest does not collect them.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.golden import NAMED_BY_TESTS, SHARED_FOLDERS, fixtures_folder, is_golden, shared_folder

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

# Seeds per reader: (fixtures folder, endings of its inputs): bibconv's own inputs in its read/ and
# invalid/ and the real-world ones of the shared folder (tests/golden.py), plus written outputs.
SEEDS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "bibtex": (("bibtex", (".bib", ".bibtex", ".biblatex")),),
    "ris": (("ris", (".ris", ".enw", ".txt")),),
    "csljson": (("csljson", (".json",)),),
    "atom": (("atom", (".xml", ".atom")), ("rss", (".xml",))),
    "html": (
        ("html", (".html",)),
        *((f, (".html",)) for f in SHARED_FOLDERS if f.startswith("html/") and f not in NAMED_BY_TESTS),
    ),
    "text": (("text", (".txt",)),),
    "arxiv-jsonl": (("arxiv-jsonl", (".jsonl",)),),
}
# Written outputs that are good seeds too: what bibconv writes, in the reader's format.
WRITTEN: dict[str, tuple[str, ...]] = {
    "bibtex": ("text/write/seed-listing.txt.bib",),
    "ris": ("text/write/seed-listing.txt.ris",),
}

# Readers to run on every input of a harness (bibtex's harness also drives biblatex).
READERS: dict[str, tuple[str, ...]] = {"bibtex": ("bibtex", "biblatex")}


def seed_files(reader: str) -> list[Path]:
    """The fixture files a reader's corpus starts from."""
    files: set[Path] = {FIXTURES / path for path in WRITTEN.get(reader, ())}
    for folder, endings in SEEDS[reader]:
        files.update(p for p in _inputs(folder) if p.name.endswith(endings))
    if reader == "csljson":  # the records every reader gives, as CSL-JSON
        files.update(FIXTURES.glob("*/read/*.csl.json"))
    return sorted(files)


def _inputs(folder: str) -> Iterator[Path]:
    """bibconv's own inputs of a fixtures folder (its groups too) and, when the shared folder is there,
    the real-world ones its goldens are for."""
    for kind in ("read", "invalid"):
        yield from (p for p in fixtures_folder(folder, kind).glob("**/*") if p.is_file() and not is_golden(p))
    if folder in SHARED_FOLDERS:
        yield from shared_folder(folder).glob("*")


def one_input(reader: str, data: bytes) -> int:
    """Read ``data`` leniently (and strictly when that found errors); only
    :class:`BibconvError` may escape the reader.

    Every record read must also come out of every writer (only a :class:`BibconvError` may
    escape one), and out of the CSL-JSON writer as valid JSON. Returns the number of records
    read in lenient mode.
    """
    from bibconv.api import iter_records
    from bibconv.errors import BibconvError, Diagnostic

    count = 0
    for name in READERS.get(reader, (reader,)):
        diagnostics: list[Diagnostic] = []
        records = []
        try:
            for record in iter_records(data, name, strict=False, diagnostics=diagnostics, filename="fuzz"):
                records.append(record)
        except BibconvError:
            pass
        count += len(records)
        if records:
            _written_by_every_writer(records)
        if any(d.severity == "error" for d in diagnostics):
            try:  # strict mode stops at the first error; it must be a BibconvError too
                for _ in iter_records(data, name, filename="fuzz"):
                    pass
            except BibconvError:
                pass
    return count


WRITERS = ("csljson", "bibtex", "biblatex", "ris")


def _written_by_every_writer(records: list[Any]) -> None:
    """Write ``records`` with every writer: only a :class:`BibconvError` may escape (a record a
    writer refuses), and the CSL-JSON written must be valid JSON."""
    from bibconv.api import write
    from bibconv.errors import BibconvError, Diagnostic

    for writer in WRITERS:
        diagnostics: list[Diagnostic] = []
        try:
            text = write(records, writer, diagnostics=diagnostics) or ""
        except BibconvError:
            continue
        if writer == "csljson":
            json.loads(text)


def _modules() -> Iterator[str]:
    import pkgutil

    import bibconv

    yield "bibconv"
    for info in pkgutil.walk_packages(bibconv.__path__, "bibconv."):
        if info.name not in {"bibconv.__main__", "bibconv.cli", "bibconv.fetch", "bibconv.parallel"}:
            yield info.name


def _corpus(reader: str) -> Path:
    """A writable corpus directory for ``reader`` under build/, seeded from the fixtures."""
    corpus = ROOT / "build" / "fuzz" / reader
    corpus.mkdir(parents=True, exist_ok=True)
    for seed in seed_files(reader):
        target = corpus / f"seed-{seed.parent.name}-{seed.name}"
        if not target.exists():
            shutil.copyfile(seed, target)
    return corpus


def main(reader: str) -> None:
    """Run libFuzzer (atheris) on ``reader``; arguments are libFuzzer's (``-max_total_time=600``).

    Without a corpus directory among the arguments, ``build/fuzz/<reader>/`` is used and
    seeded from the fixtures. Crashes are written to the current directory as
    ``crash-<sha1>``; replay one with ``python tests/fuzz/fuzz_<reader>.py crash-<sha1>``.
    """
    import importlib

    import atheris  # type: ignore[import-not-found]

    with atheris.instrument_imports(include=["bibconv"]):
        for module in _modules():
            importlib.import_module(module)
    args = list(sys.argv)
    if not any(not a.startswith("-") for a in args[1:]):
        args.append(str(_corpus(reader)))
    defaults = {"-max_len": "65536", "-timeout": "30", "-rss_limit_mb": "2048"}
    for flag, value in defaults.items():
        if not any(a.startswith(flag + "=") for a in args):
            args.insert(1, f"{flag}={value}")
    test: Callable[[bytes], object] = lambda data: one_input(reader, data)  # noqa: E731
    atheris.Setup(args, test)
    atheris.Fuzz()
