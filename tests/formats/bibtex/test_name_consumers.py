"""Names as bibtex and biber read them from what the writers write: the same parts, no entry skipped.

bibtex's parts come from a tiny style that prints each name's ``{ff}|{vv}|{ll}|{jj}``; biber's from
the ``family``/``given``/``prefix``/``suffix`` of its ``.bbl``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import bibconv
from bibconv import latex
from bibconv.model import Name
from tests.tools import require_tool

_PARTS_BST = r"""ENTRY { author } {} {}
INTEGERS { nameptr numnames }
FUNCTION {default.type} {}
FUNCTION {not} { { #0 } { #1 } if$ }
FUNCTION {parts}
{ "@" cite$ * write$ newline$
  author num.names$ 'numnames :=
  #1 'nameptr :=
  { nameptr numnames > not }
  { author nameptr "{ff}|{vv}|{ll}|{jj}" format.name$ write$ newline$
    nameptr #1 + 'nameptr := }
  while$
}
READ
ITERATE {parts}
"""
_DOC = (
    "\\documentclass{article}\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}"
    "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n"
)
_BBL_PART = re.compile(r"\b(family|given|prefix|suffix)=\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")
_DELIM = re.compile(r"\\bibnamedelim[a-di]\s*|~")

# (name, (given, particle, family, suffix) as the dialect's consumer reads it)
CASES = {
    "capitalised-particle": Name(family="Molina", given="G.", non_dropping_particle="López de"),
    "lowercase-particle": Name(family="Waals", given="J. D.", non_dropping_particle="van der"),
    "particle-no-given": Name(family="Rodríguez", non_dropping_particle="Van den"),
    "suffix-with-comma": Name(family="Doe", given="J", suffix="Jr, III"),
    "given-with-comma": Name(family="Doe", given="J, K"),
    "family-with-commas": Name(family="a,b,c"),
    "family-of-two-words": Name(family="Ben Arous"),
    "dropping-particle": Name(family="Beethoven", given="Ludwig", dropping_particle="van"),
    "suffix": Name(family="King", given="Martin Luther", suffix="Jr."),
}


def _parts(name: Name) -> tuple[str, str, str, str]:
    return (
        name.given or "",
        name.non_dropping_particle or name.dropping_particle or "",
        name.family or name.literal or "",
        name.suffix or "",
    )


def _clean(tex: str) -> str:
    return " ".join(latex.decode(_DELIM.sub(" ", tex).replace("{", "").replace("}", "")).split())


def _bib(dialect: str, diagnostics: list[bibconv.Diagnostic] | None = None) -> str:
    records = [
        bibconv.Record(type="book", id=key, title=key, author=[name], publisher="P", issued="2000")
        for key, name in CASES.items()
    ]
    return bibconv.write(records, dialect, diagnostics=diagnostics) or ""


def bibtex_parts(folder: Path, bib: str) -> dict[str, tuple[str, ...]]:
    """Each entry's first author as bibtex splits it: ``(first, von, last, jr)``."""
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    (folder / "parts.bst").write_text(_PARTS_BST, encoding="utf-8")
    (folder / "p.aux").write_text("\\citation{*}\n\\bibstyle{parts}\n\\bibdata{refs}\n", encoding="utf-8")
    run = subprocess.run(["bibtex", "p"], cwd=folder, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stdout
    found: dict[str, tuple[str, ...]] = {}
    key = ""
    for line in (folder / "p.bbl").read_text(encoding="utf-8").splitlines():
        if line.startswith("@"):
            key = line[1:]
        elif key and key not in found:
            found[key] = tuple(_clean(part) for part in line.split("|"))
    return found


def biber_parts(folder: Path, bib: str) -> tuple[dict[str, tuple[str, ...]], str]:
    """Each entry's first author as biber reads it, and what biber said."""
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    (folder / "b.tex").write_text(_DOC, encoding="utf-8")
    subprocess.run(
        ["pdflatex", "-interaction=batchmode", "-draftmode", "b.tex"],
        cwd=folder,
        capture_output=True,
        timeout=120,
    )
    run = subprocess.run(["biber", "b"], cwd=folder, capture_output=True, text=True, timeout=120, check=False)
    found: dict[str, tuple[str, ...]] = {}
    bbl = (folder / "b.bbl").read_text(encoding="utf-8")
    for entry in re.finditer(r"\\entry\{([^}]*)\}(.*?)\\endentry", bbl, re.S):
        name = re.search(r"\\name\{author\}.*?\{\{(.*?)\}\}%", entry[2], re.S)
        parts = dict(_BBL_PART.findall(name[1])) if name else {}
        found[entry[1]] = tuple(_clean(parts.get(p, "")) for p in ("given", "prefix", "family", "suffix"))
    return found, run.stdout


def test_bibtex_reads_the_classic_names_into_their_parts(tmp_path: Path) -> None:
    require_tool("bibtex")
    found = bibtex_parts(tmp_path, _bib("bibtex"))
    expected = {key: _parts(name) for key, name in CASES.items()}
    # A family alone that needs braces is wholly braced (a literal to bibconv), the particle with it
    expected["particle-no-given"] = ("", "", "Van den Rodríguez", "")
    assert found == expected  # a dropping particle is von: classic BibTeX has no other


def test_biber_reads_the_biblatex_names_into_their_parts(tmp_path: Path) -> None:
    require_tool("pdflatex")
    require_tool("biber")
    found, said = biber_parts(tmp_path, _bib("biblatex"))
    assert "ERROR" not in said
    assert "WARN" not in said  # not even "comma(s) at end of name"
    assert found == {key: _parts(name) for key, name in CASES.items()}


def test_biber_skips_no_classic_entry_but_the_one_bibconv_warns_of(tmp_path: Path) -> None:
    require_tool("pdflatex")
    require_tool("biber")
    diagnostics: list[bibconv.Diagnostic] = []
    found, _ = biber_parts(tmp_path, _bib("bibtex", diagnostics))
    assert set(CASES) - set(found) == {"suffix-with-comma"}
    assert [d.record_id for d in diagnostics if "biber skips" in d.message] == ["suffix-with-comma"]
    assert found["family-with-commas"] == ("", "", "a,b,c", "")
    assert found["lowercase-particle"] == ("J. D.", "van der", "Waals", "")
    # biber (btparse) takes a von part only from lowercase words at the start: the family whole
    assert found["capitalised-particle"] == ("G.", "", "López de Molina", "")


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
def test_bibconv_reads_its_names_back(dialect: str) -> None:
    back = {r.id: r.authors[0] for r in bibconv.read(_bib(dialect), "bibtex")}
    if dialect == "biblatex":
        assert back == CASES
    else:
        assert back["capitalised-particle"] == CASES["capitalised-particle"]  # not {López de Molina}
        assert back["family-with-commas"] == Name(literal="a,b,c")  # bibtex reads {a,b,c} so too
        assert back["family-of-two-words"] == Name(literal="Ben Arous")
        assert back["dropping-particle"] == Name(
            family="Beethoven", given="Ludwig", non_dropping_particle="van"
        )
