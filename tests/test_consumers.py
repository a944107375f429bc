"""The programs people feed our output to read it: the CSL-JSON schema, pandoc's citeproc, ``bibtex``,
``biber``, bibutils and rispy, on every output of the conversion matrix (``fixtures/matrix``).

The outputs of all cases are put into one bibliography per format (keys made unique by a case
prefix), so that each program runs once.
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import rispy
from lxml import etree

from tests.golden import csl_schema
from tests.test_matrix import PAIRS, written
from tests.tools import require_tool

CASES = [f"{reader}/{case}" for reader, case, _ in PAIRS]
_ENTRY_HEAD = re.compile(r"^@(\w+)\{([^,\n]*),", re.MULTILINE)
_TAG = re.compile(r"<[^>]+>")
_MODS = "{http://www.loc.gov/mods/v3}"
_MACRO = re.compile(r"\\[A-Za-z]+")


def output(case: str, ext: str) -> str:
    return written(case, ext).read_text(encoding="utf-8")


def items(case: str) -> list[dict[str, Any]]:
    """The CSL-JSON items of a case (our output, the reference for what every format should say)."""
    data: list[dict[str, Any]] = json.loads(output(case, ".csl.json"))
    return data


def prefix(case: str) -> str:
    return re.sub(r"\W+", "-", case) + "--"


def words(text: str) -> list[str]:
    """Case-folded words, markup dropped: what a rendering must show of a title or a name."""
    plain = unicodedata.normalize("NFKC", _TAG.sub("", text)).casefold()
    return re.findall(r"\w+", plain)


def letters(text: str) -> str:
    """The letters and digits of ``text``, case-folded: a title as any style shows it."""
    return "".join(words(text))


def first_author(item: dict[str, Any]) -> str | None:
    people = item.get("author") or []
    if not people:
        return None
    return str(people[0].get("family") or people[0].get("literal") or "") or None


def year(item: dict[str, Any]) -> str | None:
    parts = (item.get("issued") or {}).get("date-parts") or [[]]
    first = parts[0][0] if parts[0] else None
    return str(first) if isinstance(first, int) and first > 0 else None


def run(
    args: list[str], stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, input=stdin, capture_output=True, text=True, check=False, cwd=cwd)


# --- one bibliography per format, every case in it -------------------------------------------


@cache
def combined_csljson() -> list[dict[str, Any]]:
    out = []
    for case in CASES:
        for item in items(case):
            out.append({**item, "id": prefix(case) + str(item["id"])})
    return out


def _prefixed(case: str, ext: str) -> str:
    return _ENTRY_HEAD.sub(lambda m: f"@{m[1]}{{{prefix(case)}{m[2]},", output(case, ext))


@cache
def combined_bib(ext: str) -> str:
    """The ``.bib`` (or ``.biblatex``) outputs of every case, keys prefixed with their case."""
    return "\n".join(_prefixed(case, ext) for case in CASES)


@cache
def bibliography_file(ext: str, tmp: str) -> Path:
    path = Path(tmp) / f"all{ext.replace('.csl', '')}"
    if ext == ".csl.json":
        path.write_text(json.dumps(combined_csljson(), ensure_ascii=False), encoding="utf-8")
    else:
        path.write_text(combined_bib(ext), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("consumers")


# --- CSL-JSON: the official schema ------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_csljson_output_validates_against_the_official_schema(case: str) -> None:
    jsonschema.Draft7Validator(csl_schema()).validate(items(case))


# --- pandoc ------------------------------------------------------------------------------------


Entry = tuple[str, set[str]]


def rendered(workdir: Path, ext: str) -> list[Entry]:
    """``pandoc --citeproc`` of every record of one bibliography, as the words of each entry."""
    pandoc = require_tool("pandoc")
    source = bibliography_file(ext, str(workdir))
    document = "---\nnocite: '@*'\n---\n"
    done = run([pandoc, "--citeproc", f"--bibliography={source}", "-t", "plain", "--wrap=none"], document)
    assert done.returncode == 0, done.stderr
    assert "[WARNING]" not in done.stderr, done.stderr
    entries: list[Entry] = []
    for text in (e.strip() for e in done.stdout.split("\n\n") if e.strip()):
        shown, joined = set(words(text)), letters(text)
        if text.startswith("—") and entries:  # ——— repeats the names (or title) of the entry above
            shown |= entries[-1][1]
            joined = entries[-1][0] + joined
        entries.append((joined, shown))
    return entries


def _found(item: dict[str, Any], entries: list[Entry]) -> bool:
    """Whether one rendered entry shows the item's title, first author and year."""
    title = letters(str(item.get("title") or ""))
    author = words(first_author(item) or "")
    when = year(item)
    for text, present in entries:
        dated = when is None or any(re.fullmatch(rf"{when}[a-z]?", w) for w in present)  # 2018b
        if title in text and all(w in present for w in author) and dated:
            return True
    return False


@pytest.fixture(scope="module")
def csljson_rendering(workdir: Path) -> list[Entry]:
    return rendered(workdir, ".csl.json")


def test_pandoc_citeproc_renders_every_csljson_record(csljson_rendering: list[Entry]) -> None:
    records = combined_csljson()
    assert len(csljson_rendering) == len(records)
    missing = [i["id"] for i in records if not _found(i, csljson_rendering)]
    assert missing == []


@pytest.mark.parametrize("ext", [".bib", ".biblatex"])
def test_pandoc_renders_the_same_bibliography_from_our_bibtex(
    workdir: Path, ext: str, csljson_rendering: list[Entry]
) -> None:
    from_bibtex = rendered(workdir, ext)
    assert len(from_bibtex) == len(csljson_rendering)
    missing = [i["id"] for i in combined_csljson() if not _found(i, from_bibtex)]
    assert missing == []


def _pandoc_items(source: Path, reader: str) -> dict[str, tuple[Any, ...]]:
    """pandoc's own reading of a bibliography: id → (title words, author names, year)."""
    done = run([require_tool("pandoc"), "-f", reader, "-t", "csljson", str(source)])
    assert done.returncode == 0, done.stderr
    out = {}
    for item in json.loads(done.stdout):
        names = [
            tuple(
                words(
                    " ".join(
                        str(p.get(k) or "")
                        for k in ("dropping-particle", "non-dropping-particle", "family", "literal")
                    )
                )
            )
            for p in item.get("author") or []
        ]
        out[item["id"]] = ("".join(words(_math_symbols(str(item.get("title") or "")))), names, year(item))
    return out


def _math_symbols(title: str) -> str:
    """Math symbols by their command's name on both sides: pandoc keeps ``\\omega`` (written for ``ω``
    in math) as TeX from BibTeX and gives ``ω`` from CSL-JSON."""
    from bibconv.latex.charset import tex_for

    def name(ch: str) -> str:
        form = tex_for(ch) if not ch.isascii() else None
        found = re.fullmatch(r"\{\\ensuremath\{\\([A-Za-z]+)\}\}", form or "")
        return found[1] if found else ch

    return "".join(map(name, re.sub(r"\\([A-Za-z]+)", r"\1", title)))


@pytest.mark.parametrize(("ext", "reader"), [(".bib", "bibtex"), (".biblatex", "biblatex")])
def test_pandoc_reads_the_same_authors_titles_years_from_our_bibtex(
    workdir: Path, ext: str, reader: str
) -> None:
    ours = _pandoc_items(bibliography_file(".csl.json", str(workdir)), "csljson")
    theirs = _pandoc_items(bibliography_file(ext, str(workdir)), reader)
    assert theirs == ours


# --- bibtex and biber --------------------------------------------------------------------------


def test_bibtex_reads_every_bibtex_output_without_errors(workdir: Path) -> None:
    exe = require_tool("bibtex")
    source = bibliography_file(".bib", str(workdir))
    (workdir / "doc.aux").write_text(f"\\citation{{*}}\n\\bibstyle{{plain}}\n\\bibdata{{{source.stem}}}\n")
    done = run([exe, "doc"], cwd=workdir)
    assert done.returncode <= 1, done.stdout  # 1: warnings (an empty field a style wants)
    assert "error message" not in done.stdout, done.stdout
    bbl = (workdir / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    assert bbl.count("\\bibitem") == len(combined_csljson())


def test_biber_reads_every_biblatex_output_without_errors(workdir: Path) -> None:
    exe = require_tool("biber")
    source = bibliography_file(".biblatex", str(workdir))
    target = workdir / "biber-out.bib"
    done = run([exe, "--tool", "--output-file", str(target), str(source)])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ERROR" not in done.stdout + done.stderr
    assert len(_ENTRY_HEAD.findall(target.read_text(encoding="utf-8"))) == len(combined_csljson())


# --- bibutils and rispy ------------------------------------------------------------------------


def _mods_titles(xml: str) -> list[str]:
    """The title of each top-level MODS record, as :func:`letters` (bibutils splits ``Title:
    Subtitle`` in two, and keeps the names of TeX macros it does not know: those are left out)."""
    tree = etree.fromstring(xml.encode("utf-8"))
    titles = []
    for mods in tree.iterchildren(f"{_MODS}mods"):
        info = mods.find(f"{_MODS}titleInfo")
        text = " ".join(info.itertext()) if info is not None else ""
        titles.append(letters(_MACRO.sub("", text)))
    return titles


@pytest.mark.parametrize(("tool", "ext"), [("bib2xml", ".bib"), ("ris2xml", ".ris")])
@pytest.mark.parametrize("case", CASES)
def test_bibutils_reads_our_bibtex_and_ris(tool: str, ext: str, case: str) -> None:
    done = run([require_tool(tool), str(written(case, ext))])
    assert done.returncode == 0, done.stderr
    records = items(case)
    titles = _mods_titles(done.stdout)
    assert len(titles) == len(records)
    expected = [letters(str(i.get("title") or "")) for i in records]
    if tool == "ris2xml":
        assert titles == expected
    else:  # bibutils' TeX decoding drops the argument of macros it does not know (\textsuperscript{e})
        for theirs, ours in zip(titles, expected, strict=True):
            assert SequenceMatcher(None, theirs, ours).ratio() > 0.9, (theirs, ours)


@pytest.mark.parametrize("case", CASES)
def test_rispy_reads_our_ris(case: str) -> None:
    entries = rispy.loads(output(case, ".ris"))
    records = items(case)
    assert len(entries) == len(records)
    for entry, item in zip(entries, records, strict=True):
        assert words(entry.get("title") or entry.get("primary_title") or "") == words(
            str(item.get("title") or "")
        )
        authors = entry.get("authors") or entry.get("first_authors") or []
        assert len(authors) == len(item.get("author") or [])
        if authors:
            assert set(words(first_author(item) or "")) <= set(words(authors[0]))
