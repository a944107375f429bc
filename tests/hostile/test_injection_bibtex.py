"""No field value can break BibTeX: close its field, add entries, @string or @preamble, or run
TeX that reaches outside the document. Checked with pybtex's parser on random hostile records
and by compiling a generated .bib with the real ``bibtex`` and ``pdflatex -shell-escape``.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import bibconv
from bibconv.model import Record
from tests.hostile._hostile_text import hostile_records
from tests.hostile._support import assert_confined, run_cli
from tests.tools import require_tool

# Control words that read or write files, run programs or redefine TeX, as a TeX run would see them:
# a backslash that an escaping backslash before it (``\\input``: a line break, then letters) does not
# take.
UNSAFE = re.compile(
    r"(?<!\\)(?:\\\\)*\\(?:input|include|openin|openout|read|write|immediate|def|edef|gdef|catcode|csname|special)"
    r"(?![A-Za-z])|\^\^"
)


@pytest.mark.parametrize("target", ["bibtex", "biblatex"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=hostile_records())
def test_hostile_values_stay_inside_their_fields(target: str, record: Record) -> None:
    from pybtex.database import parse_string

    text = bibconv.write([record], target) or ""
    data = parse_string(text, "bibtex")
    assert len(data.entries) == 1
    assert data.preamble == ""
    (entry,) = data.entries.values()
    assert all(not name.startswith(("title = ", "@")) for name in entry.fields)
    # URLs are verbatim (typeset by \url, which reads them with TeX's special characters off).
    tex = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("url = "))
    assert UNSAFE.search(tex) is None, text
    (back,) = bibconv.read(text, target)
    assert back.id == next(iter(data.entries))
    assert set(back.fields) >= {"title"}


def test_a_compiled_bibliography_runs_nothing_from_the_input(tmp_path: Path) -> None:
    """bibtex and pdflatex (with shell escape on) over a .bib made from hostile CSL-JSON."""
    bibtex = require_tool("bibtex")
    pdflatex = require_tool("pdflatex")
    pwned = tmp_path / "pwned"
    secret = tmp_path / "secret.txt"
    # Were it ever \input, this file would run a command and log a line.
    secret.write_text(f"\\immediate\\write18{{touch {pwned}7}}\\message{{TOP-SECRET}}\n", encoding="utf-8")
    items = [
        {
            "id": "evil1",
            "type": "article-journal",
            "title": f'Closing }}\n@preamble{{"\\immediate\\write18{{touch {pwned}1}}"}}'
            "\n@misc{injected, title={x",
            "container-title": f"J $\\immediate\\write18{{touch {pwned}2}}$",
            "author": [{"family": "O}, title={Injected", "given": f"\\input{{{secret}}}"}],
            "note": f'%\n@string{{x = "\\write18{{touch {pwned}3}}"}}',
            "abstract": f"$^^5cinput{{{secret}}}$ and \\catcode`\\^^M=13",
            "URL": f"http://example.org/}}%\\write18{{touch {pwned}4}}",
            "issued": {"date-parts": [[2020]]},
        },
        {
            "id": "evil2}, @misc{x",
            "type": "book",
            "title": f"$\\immediate\\write18{{touch {pwned}5}}$ math and \\def\\x{{y}}",
            "publisher": f"{{\\catcode`\\^^M=13 \\def^^M{{\\write18{{touch {pwned}6}}}}}}",
        },
        {  # plain.bst prints howpublished for @misc: a kept raw BibTeX value must not \input either
            "id": "evil3",
            "type": "document",
            "title": "Misc",
            "custom": {"bibtex:howpublished": f"\\input{{{secret}}}"},
            "issued": {"date-parts": [[2021]]},
        },
    ]
    (tmp_path / "in.json").write_text(json.dumps(items), encoding="utf-8")
    run = run_cli(["convert", "in.json", "-t", "bibtex", "-o", "refs.bib"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert_confined(run, [tmp_path / "in.json"], [tmp_path / "refs.bib"])
    bib = (tmp_path / "refs.bib").read_text(encoding="utf-8")
    assert UNSAFE.search(bib) is None, bib
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nx\\nocite{*}\n"
        "\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8",
    )
    # Shell escape on, errors not fatal: unknown macros in titles (kept as TeX) may be undefined here.
    latex = [pdflatex, "-shell-escape", "-interaction=nonstopmode", "main"]
    for command in (latex, [bibtex, "main"], latex, latex):
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
        assert "\\write18 enabled" in done.stdout or command[0] == bibtex
        assert (tmp_path / "main.aux").exists()
    blg = (tmp_path / "main.blg").read_text(encoding="utf-8")
    assert "error message" not in blg, blg
    bbl = (tmp_path / "main.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == 3
    assert "\\textbackslash{}input" in bbl
    assert "injected" not in re.findall(r"\\bibitem\{([^}]*)\}", bbl)
    assert not list(tmp_path.glob("pwned*"))
    log = (tmp_path / "main.log").read_text(encoding="utf-8", errors="replace")
    assert "TOP-SECRET" not in log
    assert "runsystem(touch" not in log
