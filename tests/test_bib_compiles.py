"""Every .bib bibconv writes from the real inputs compiles: pdflatex (T1, amsmath) + bibtex + pdflatex for
BibTeX, lualatex + biber + lualatex for biblatex, with no LaTeX error.

The records of every input (the shared corpus, each format, and fixtures/) go into one document per
dialect, each key prefixed with its file's number, citing them all (for biber, the first
:data:`_PER_FILE_BIBER` of each file: it takes minutes over thousands). The one failure allowed is a
character pdflatex cannot set that bibconv named in a warning for that entry (a character with no TeX
form, kept as UTF-8 for lualatex; or one in an entry written back as read).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import BibconvError
from bibconv.latex.allow import preamble_commands
from tests.golden import FIXTURES
from tests.tools import require_shared, require_tool

_INPUTS = frozenset(
    {".bib", ".bibtex", ".biblatex", ".json", ".ris", ".xml", ".atom", ".rss", ".html", ".htm", ".jsonl"}
    | {".txt"}
)
# bibconv's own goldens and expectations, recordings of API calls, schemas, notes
_SKIP_RE = re.compile(r"\.(golden|csl)\.|\.recording\.json$|SOURCES|schema|\.error\.txt$|\.warnings\.txt$")
_PER_FILE_BIBER = 12
_LINKS = ("bibtex:crossref", "bibtex:xref", "bibtex:xdata", "bibtex:related")


def _sources() -> list[Path]:
    corpus = require_shared("corpus")
    found = [p for p in sorted(corpus.rglob("*")) if p.is_file()]
    found += [p for p in sorted(FIXTURES.rglob("*")) if p.is_file()]
    return [p for p in found if p.suffix in _INPUTS and not _SKIP_RE.search(p.name)]


def _records(per_file: int | None) -> tuple[list[bibconv.Record], int]:
    """The records of every input, keys made unique by a prefix per file; at most ``per_file`` of each;
    and how many files gave records."""
    records: list[bibconv.Record] = []
    defined: set[str] = set()
    files = 0
    for number, path in enumerate(_sources()):
        try:
            read = bibconv.read(path, strict=False)
        except BibconvError:
            continue  # not a bibliography (a page without a listing, an API error response)
        files += bool(read)
        prefix = f"f{number}-"
        for i, record in enumerate(read[:per_file]):
            records.append(_alone(record, defined, prefix).replace(id=f"{prefix}{record.id or i}"))
    return records, files


def _alone(record: bibconv.Record, defined: set[str], prefix: str) -> bibconv.Record:
    """The record as it can be in one document with the others: links to other entries (``crossref``)
    renamed as the keys are, no kept ``@preamble`` defining a command an earlier one defines (the same
    sample in several folders: ``\\newcommand`` would fail the second time)."""
    links = {k: prefix + v for k, v in record.extra.items() if k in _LINKS and isinstance(v, str)}
    if links:
        record = record.replace(extra={**record.extra, **links})
    blocks = record.extra.get("bibtex:before")
    if not isinstance(blocks, list):
        return record
    kept = []
    for block in blocks:
        names = preamble_commands(block) or frozenset()
        if not names & defined:
            kept.append(block)
            defined.update(names)
    return record.replace(extra={**record.extra, "bibtex:before": kept})


_ERROR_RE = re.compile(r"^! (.*)\n(.*)\n(?:.*\n){0,8}?l\.(\d+) ", re.M)
_UNDEFINED_RE = re.compile(r"\\[A-Za-z]+(?=\s*$)")
_UNSET_RE = re.compile(r"Unicode character .* \(U\+([0-9A-F]+)\)")
_ITEM_RE = re.compile(r"^\s*\\(?:bibitem(?:\[[^\n]*?\])?|entry)\{([^}]+)\}", re.M)


def _errors(log: str, bbl: str, warned: dict[str, str], as_read: str) -> list[str]:
    """LaTeX errors, each with the entry of the .bbl line it is on; a character pdflatex cannot set is
    no error when bibconv warned about that character in that entry, nor a command the input's own
    TeX uses (``{\\textdoublepipe}`` needs tipa), written back as read."""
    starts = [(bbl.count("\n", 0, m.start()) + 1, m[1]) for m in _ITEM_RE.finditer(bbl)]
    errors = []
    for message, context, line in _ERROR_RE.findall(log):
        key = next((k for start, k in reversed(starts) if start <= int(line)), "")
        unset = _UNSET_RE.search(message)
        if unset and f"U+{unset[1]}" in warned.get(key, ""):
            continue
        undefined = _UNDEFINED_RE.search(context) if message.startswith("Undefined control") else None
        if undefined and undefined[0] in as_read:
            continue
        errors.append(f"{message} (line {line}, entry {key})")
    return errors


def _compile(folder: Path, engine: str, processor: str) -> str:
    run = [engine, "-interaction=nonstopmode", "main"]
    for step in (run, [processor, "main"], run):
        subprocess.run(step, cwd=folder, capture_output=True, timeout=600, check=False)
    return (folder / "main.log").read_text(encoding="utf-8", errors="replace")


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
def test_every_written_bib_compiles(tmp_path: Path, dialect: str) -> None:
    records, files = _records(None if dialect == "bibtex" else _PER_FILE_BIBER)
    assert files > 200
    assert len(records) > 1000
    diagnostics: list[bibconv.Diagnostic] = []
    bib = bibconv.write(records, dialect, diagnostics=diagnostics) or ""
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    warned: dict[str, str] = {}
    for d in diagnostics:
        warned[d.record_id or ""] = warned.get(d.record_id or "", "") + d.message + "\n"
    packages = "\\usepackage[T1]{fontenc}\n\\usepackage{amsmath}\n\\usepackage{url}\n"
    if dialect == "bibtex":
        body = "\\nocite{*}\\bibliographystyle{plain}\\bibliography{refs}"
        engine, processor = require_tool("pdflatex"), require_tool("bibtex")
    else:
        packages += "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
        body = "\\nocite{*}\\printbibliography"
        engine, processor = require_tool("lualatex"), require_tool("biber")
    document = f"\\documentclass{{article}}\n{packages}\\begin{{document}}\n{body}\n\\end{{document}}\n"
    (tmp_path / "main.tex").write_text(document, encoding="utf-8")
    log = _compile(tmp_path, engine, processor)
    assert (tmp_path / "main.pdf").exists()
    bbl = (tmp_path / "main.bbl").read_text(encoding="utf-8")
    written = re.findall(r"^@(?!preamble|comment)\w+\{([^,\n]+),", bib, re.M | re.I)
    assert len(written) == len(records) - sum("no field to write" in m for m in warned.values())
    assert set(written) <= set(_ITEM_RE.findall(bbl))  # every entry typeset (biber adds related ones)
    as_read = "\n".join(expr for r in records if r.source for _, expr in r.source.fields)
    errors = _errors(log, bbl, warned, as_read)
    assert not errors, errors[:20]
