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
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from tests.golden import SHARED_FOLDERS, shared_folder

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

# Seeds per reader: fixture globs (expected outputs such as *.csl.json are left out by name), matched
# in fixtures/ and in the shared folders that hold the real-world inputs of those fixture folders.
SEEDS: dict[str, tuple[str, ...]] = {
    "bibtex": ("bibtex/*.bib", "bibtex/*.bibtex", "bibtex/*.biblatex", "text/seed-listing.bib"),
    "ris": ("ris/*.ris", "ris/*.enw", "ris/*.txt", "text/seed-listing.ris"),
    "csljson": ("csljson/*.json",),
    "atom": ("atom/*.xml", "atom/*.atom", "rss/*.xml"),
    "html": ("html/*/*.html",),
    "text": ("text/*.txt", "text/own/*.txt"),
    "arxiv-jsonl": ("arxiv-jsonl/*.jsonl",),
}

# Readers to run on every input of a harness (bibtex's harness also drives biblatex).
READERS: dict[str, tuple[str, ...]] = {"bibtex": ("bibtex", "biblatex")}

_EXPECTED = (
    ".csl.json",
    ".warnings.txt",
    ".error.txt",
    ".golden.json",
    ".golden.bib",
    ".golden.biblatex.bib",
    ".golden.bibtex.bib",
)


def seed_files(reader: str) -> list[Path]:
    """The fixture files a reader's corpus starts from."""
    files: set[Path] = set()
    for pattern in SEEDS[reader]:
        files.update(
            p
            for p in [*FIXTURES.glob(pattern), *_shared_glob(pattern)]
            if not p.name.endswith(_EXPECTED) or (reader == "csljson" and p.name.endswith(".csl.json"))
        )
    if reader == "csljson":
        files.update(FIXTURES.glob("*/*.csl.json"))
    return sorted(files)


def _shared_glob(pattern: str) -> Iterator[Path]:
    """The real-world samples matching a fixture glob ("html/*/*.html"), when the shared folder is there."""
    folder, name = pattern.rsplit("/", 1)
    for fixtures_folder in SHARED_FOLDERS:
        if fnmatch(fixtures_folder, folder):
            yield from shared_folder(fixtures_folder).glob(name)


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
