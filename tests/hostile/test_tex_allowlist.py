"""TeX from records reaches an output only when every command is on the allowlist.

Payloads that run commands or read files under ``-shell-escape`` (expl3's ``\\sys_shell_now:n``
through ``\\UseName`` and ``\\csname``, ``\\AtEndDocument``, ``\\NewDocumentCommand``, lualatex's
``\\directlua``, ``\\write18``, ``\\input``; in math and in ``x^{…}`` groups; in a kept ``@preamble``)
come in through every input format and go out through every writer that emits TeX. The written
files are compiled with the real ``pdflatex -shell-escape`` + ``bibtex`` and ``lualatex -shell-escape``
+ ``biber``, all inputs in one document per writer: no file may be created and no file read.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import bibconv
from bibconv.latex.allow import DENIED, allowed, disallowed, preamble_commands, sanitize_tex, tex_allowed
from tests.tools import require_tool


def _payloads(pwned: Path, secret: Path) -> list[str]:
    return [
        f"\\UseName{{sys_shell_now:n}}{{touch {pwned}1}}",
        f"\\csname sys_shell_now:n\\endcsname{{touch {pwned}2}}",
        f"\\ExplSyntaxOn\\sys_shell_now:n{{touch {pwned}3}}\\ExplSyntaxOff",
        f"\\AtEndDocument{{\\immediate\\write18{{touch {pwned}4}}}}",
        f"\\NewDocumentCommand\\pwn{{}}{{\\immediate\\write18{{touch {pwned}5}}}}\\pwn",
        f"\\UseName{{directlua}}{{os.execute('touch {pwned}6')}}",
        f"\\immediate\\write18{{touch {pwned}7}}",
        f"$\\immediate\\write18{{touch {pwned}8}}$",
        f"$x^{{\\input{{{secret}}}}}$",
        f"x^{{\\immediate\\write18{{touch {pwned}9}}}}",
        f"\\input{{{secret}}}",
        "\\input{/etc/hostname}",
        "$\\input{/etc/hostname}$",
    ]


def _inputs(folder: Path, payload: str) -> list[Path]:
    """The same payload in the text fields of each input format (a title prefix keeps keys apart)."""
    items = [
        {
            "id": "csl",
            "type": "article-journal",
            "title": f"Csl {payload}",
            "container-title": payload,
            "author": [{"family": f"Doe {payload}", "given": payload}],
            "note": payload,
            "issued": {"date-parts": [[2020]]},
            "custom": {"bibtex:before": [f'@preamble{{"{payload}"}}'], "bibtex:howpublished": payload},
        }
    ]
    inline = payload.replace("\n", " ")
    files = {
        "in.json": json.dumps(items),
        "in.ris": f"TY  - JOUR\nID  - ris\nTI  - Ris {inline}\nAU  - Roe, {inline}\nJO  - {inline}\n"
        f"N1  - {inline}\nPY  - 2021\nER  - \n",
        "in.bib": f'@preamble{{"{payload}"}}\n@article{{bib, title = {{Bib {payload}}},\n'
        f"  author = {{Poe, {payload}}}, journal = {{{payload}}}, note = {{{payload}}}, year = 2022}}\n",
        "in.jsonl": json.dumps(
            {
                "id": "2101.00001",
                "title": f"Jsonl {inline}",
                "authors": f"Ann Lee, {inline}",
                "abstract": inline,
                "categories": "cs.CR",
                "versions": [{"version": "v1", "created": "Mon, 4 Jan 2021 00:00:00 GMT"}],
                "update_date": "2021-01-04",
            }
        )
        + "\n",
        "in.atom": _atom(inline),
        "in.txt": f"Listing\n\n• Text {inline}\n\n  Ann Lee, {inline} · 20 April 2026\n\n  {inline}\n",
        "in.html": _html(_esc(inline)),
    }
    paths = []
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    return paths


_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Publications</title></head>
<body><ul class="publications">
  <li class="pub"><a href="https://arxiv.org/abs/2604.22222">Html PAYLOAD title</a><br>
    by Ada Lovelace, PAYLOAD<br>
    <span class="date">20 April 2026</span>
    <p>Abstract: We study PAYLOAD models.
  <li class="pub"><a href="https://arxiv.org/abs/2603.33333v3">Energy-efficient inference</a><br>
    by Edsger Dijkstra<br>
    <span class="date">3 March 2026</span>
    <p>Abstract: Dynamic voltage.
  <li class="pub"><a href="https://arxiv.org/abs/2512.00001">Compiling sparse tensor programs</a><br>
    by Barbara Liskov, John McCarthy<br>
    <span class="date">1 December 2025</span>
    <p>Abstract: Vector processors.
</ul></body></html>
"""


def _html(payload: str) -> str:
    """A listing page (a listing is recognised by its repeated blocks) with the payload in one paper."""
    return _PAGE.replace("PAYLOAD", payload)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;")


def _atom(payload: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        "<id>http://arxiv.org/abs/2101.00002v1</id><updated>2021-01-04T00:00:00Z</updated>"
        f"<published>2021-01-04T00:00:00Z</published><title>Atom {_esc(payload)}</title>"
        f"<summary>{_esc(payload)}</summary><author><name>{_esc(payload)}</name></author>"
        "<author><name>Ann Lee</name></author></entry></feed>\n"
    )


_FORMATS = {
    ".json": "csljson",
    ".ris": "ris",
    ".bib": "bibtex",
    ".jsonl": "arxiv-jsonl",
    ".atom": "atom",
    ".txt": "text",
    ".html": "html",
}


def _records(paths: list[Path]) -> list[bibconv.Record]:
    records = []
    for path in paths:
        read = bibconv.read(path, _FORMATS[path.suffix], strict=False)
        assert read, path.name
        records.extend(read)
    return records


# A payload command that is still TeX (not after \textbackslash{} or \textbackslash, biber's form).
_LIVE = re.compile(
    r"(?<!\\textbackslash\{\})(?<!\\textbackslash )"
    r"\\(?:input|immediate|csname|UseName|directlua|AtEndDocument)"
)


def _run(command: list[str], cwd: Path) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)
    return done.stdout


def _document(body: str, packages: str) -> str:
    return f"\\documentclass{{article}}\n{packages}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"


def test_no_input_runs_a_command_or_reads_a_file_under_shell_escape(tmp_path: Path) -> None:
    pdflatex, bibtex = require_tool("pdflatex"), require_tool("bibtex")
    lualatex, biber = require_tool("lualatex"), require_tool("biber")
    pwned = tmp_path / "pwned"
    secret = tmp_path / "secret.tex"
    # Were it ever \input, this file would run a command and log a line.
    secret.write_text(f"\\immediate\\write18{{touch {pwned}S}}\\message{{TOP-SECRET}}\n", encoding="utf-8")
    payload = " ; ".join(_payloads(pwned, secret))
    records = _records(_inputs(tmp_path, payload))
    diagnostics: list[bibconv.Diagnostic] = []
    (tmp_path / "classic.bib").write_text(bibconv.write(records, "bibtex", diagnostics=diagnostics) or "")
    (tmp_path / "modern.bib").write_text(bibconv.write(records, "biblatex") or "")
    listing = bibconv.format(records, "plain", "latex")
    assert any("is not allowed in output" in d.message and "title" in d.message for d in diagnostics)
    base = "\\usepackage[T1]{fontenc}\n\\usepackage{amsmath}\n\\usepackage{url}"
    (tmp_path / "classic.tex").write_text(
        _document("\\nocite{*}\\bibliographystyle{plain}\\bibliography{classic}", base), encoding="utf-8"
    )
    (tmp_path / "modern.tex").write_text(
        _document(
            "\\nocite{*}\\printbibliography",
            "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{modern.bib}",
        ),
        encoding="utf-8",
    )
    (tmp_path / "listing.tex").write_text(_document(listing, base), encoding="utf-8")
    (tmp_path / "listinglua.tex").write_text(_document(listing, base), encoding="utf-8")
    tex = ["-shell-escape", "-interaction=nonstopmode"]
    logs = [_run([pdflatex, *tex, "classic"], tmp_path), _run([bibtex, "classic"], tmp_path)]
    logs += [_run([pdflatex, *tex, "classic"], tmp_path), _run([lualatex, *tex, "modern"], tmp_path)]
    logs += [_run([biber, "modern"], tmp_path), _run([lualatex, *tex, "modern"], tmp_path)]
    logs += [_run([pdflatex, *tex, "listing"], tmp_path), _run([lualatex, *tex, "listinglua"], tmp_path)]
    assert all("\\write18 enabled" in log or "restricted" not in log for log in logs)
    assert "\\write18 enabled" in logs[0]
    bbl = (tmp_path / "classic.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == len(records)
    assert "\\textbackslash{}immediate" in bbl  # the payloads were typeset, as text
    modern = (tmp_path / "modern.bbl").read_text(encoding="utf-8")
    assert modern.count("\\entry{") == len(records)
    for text in (bbl, modern, listing):
        assert not _LIVE.search(text), _LIVE.search(text)
    for name in ("classic", "modern", "listing", "listinglua"):
        assert (tmp_path / f"{name}.pdf").exists(), name
        log = (tmp_path / f"{name}.log").read_text(encoding="utf-8", errors="replace")
        assert "TOP-SECRET" not in log, name
        assert "runsystem(touch" not in log, name
    assert not list(tmp_path.glob("pwned*"))


@pytest.mark.parametrize(
    "tex",
    [
        "\\UseName{sys_shell_now:n}{id}",
        "\\csname input\\endcsname",
        "\\ExplSyntaxOn",
        "\\AtEndDocument{x}",
        "\\NewDocumentCommand\\x{}{}",
        "\\begin{ExplSyntaxOn}",
        "\\makeatletter\\@@input",
        "^^5cinput",
        "\\^^{}",  # TeX reads ^^{ as ';' before the control symbol: \; and a brace less
        "\\directlua{os.exit()}",
        "\\unknownmacro",
        "\\é",
        "trailing \\",
    ],
)
def test_commands_off_the_allowlist_are_refused_and_made_text(tex: str) -> None:
    assert not tex_allowed(tex)
    assert disallowed(tex)
    assert tex_allowed(sanitize_tex(tex))


@pytest.mark.parametrize(
    "tex",
    [
        "\\'{e} \\\"o {\\ss} \\textit{x} \\emph{y} \\textsc{Z} {\\em w} \\MakeUppercase{v} \\url{http://a}",
        "$\\alpha_{\\mathrm{eff}} \\le \\frac{1}{2}\\sqrt{x} \\left(\\mathcal{O}(n)\\right) \\times 10^{-3}$",
        "$\\mathbb{R}^n \\to \\mathbf{x}\\cdot\\nabla \\pm \\infty \\sim \\hat{y} \\omega \\Phi$",
        "see \\cite[p.~3]{foo} 50\\% \\& \\$ \\# \\_ \\{ \\} \\, \\- ~",
    ],
)
def test_the_tex_of_real_titles_is_allowed(tex: str) -> None:
    assert tex_allowed(tex), disallowed(tex)


def test_math_words_of_the_corpus_are_allowed() -> None:
    """Every command inside math in the shared corpus is allowed, but for a few undefined in LaTeX."""
    import re

    from tests.tools import require_shared

    corpus = require_shared("corpus")
    found: set[str] = set()
    for path in corpus.rglob("*"):
        if path.is_file() and path.suffix in (".bib", ".bibtex", ".biblatex", ".xml", ".json", ".html"):
            for math in re.findall(r"\$([^$]{1,300})\$", path.read_text(encoding="utf-8", errors="replace")):
                found.update(re.findall(r"\\([A-Za-z]+)", math))
    # \unicode is MathJax's; \e and \s are not LaTeX; \href only inside a math span of an HTML page
    assert found - allowed() <= {"unicode", "e", "s", "href", "u", "textbraceleft", "textbraceright"}


def test_nothing_denied_is_allowed() -> None:
    assert not allowed() & DENIED


def test_a_preamble_may_define_new_commands_only() -> None:
    assert preamble_commands('@preamble{"\\newcommand{\\noopsort}[1]{}"}') == {"noopsort"}
    assert preamble_commands('@preamble{"\\providecommand{\\textit}{x}"}') is None
    assert preamble_commands('@preamble{"\\providecommand{\\pdfshellescape}{x}"}') is None
    assert preamble_commands('@preamble{"\\newcommand{\\x}{\\input{y}}"}') is None
