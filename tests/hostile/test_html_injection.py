"""HTML: scripts, styles, comments, frames, templates, form controls and attributes never become
record text, and malformed markup is read as a browser builds it.

Every piece of hidden text in the page carries the word INJECTED; none may reach the output
or the messages. (``citation_*`` meta tags and JSON-LD blocks are metadata by design and are
covered by the html reader's own tests.)
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile._support import assert_confined, assert_memory, run_cli

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Publications</title>
<style>li.pub::before { content: "INJECTED-STYLE"; }</style>
<script>document.write("<li class='pub'><a href='https://arxiv.org/abs/2604.11111'>INJECTED-SCRIPT</a></li>")</script>
</head><body>
<!-- <li class="pub"><a href="https://arxiv.org/abs/2604.99999">INJECTED-COMMENT paper</a></li> -->
<noscript><p>INJECTED-NOSCRIPT</p></noscript>
<template><li class="pub"><a href="/t">INJECTED-TEMPLATE</a></li></template>
<iframe src="https://evil.example/frame.html" title="INJECTED-IFRAME">INJECTED-IFRAME-BODY</iframe>
<ul class="publications">
  <li class="pub" data-title="INJECTED-DATA" title="INJECTED-TITLE-ATTR" onclick="INJECTED_ONCLICK()">
    <a href="https://arxiv.org/abs/2604.22222" title="INJECTED-LINK-TITLE">Distributed optimisation of
    <b>large <i>language</b> models</i></a><br>
    by Ada Lovelace, Alan Turing and Grace Hopper<br>
    <span class="date">20 April 2026</span><img src="x.png" alt="INJECTED-ALT">
    <p>Abstract: We study <script>INJECTED_INLINE_SCRIPT()</script>distributed
    optimisation<style>p{x:INJECTED-INLINE-STYLE}</style> of models.<svg><text>INJECTED-SVG</text></svg>
  <li class="pub">
    <a href="https://arxiv.org/pdf/2603.33333v3">Energy-efficient inference by dynamic voltage scaling</a><br>
    by Edsger Dijkstra<br>
    <span class="date">3 March 2026</span>
    <p>Abstract: Dynamic voltage and frequency scaling lowers the energy of inference.
    <button>INJECTED-BUTTON</button>
    <textarea>INJECTED-TEXTAREA</textarea><span hidden>INJECTED-HIDDEN</span>
  <li class="pub">
    <a href="https://arxiv.org/abs/2512.00001">Compiling sparse tensor programs for vector processors</a><br>
    by Barbara Liskov, John McCarthy<br>
    <span class="date">1 December 2025</span><select><option>INJECTED-OPTION</option></select>
    <object data="x.swf">INJECTED-OBJECT</object><input value="INJECTED-INPUT">
</ul>
<a href="javascript:INJECTED_JS()">INJECTED-JS-LINK</a>
</body></html>
"""


def test_hidden_text_never_becomes_record_text(tmp_path: Path) -> None:
    source = tmp_path / "page.html"
    source.write_text(PAGE, encoding="utf-8")
    out = tmp_path / "out.json"
    run = run_cli(["convert", source.name, "-t", "csljson", "-o", out.name], tmp_path)
    assert run.returncode == 0, run.stderr
    text = out.read_text(encoding="utf-8")
    assert "INJECTED" not in text
    assert "INJECTED" not in run.stderr
    items = json.loads(text)
    # Misnested <b><i></b></i> is split the way the HTML5 adoption agency (and a browser) does.
    assert [i["title"] for i in items] == [
        "Distributed optimisation of <b>large <i>language</i></b><i> models</i>",
        "Energy-efficient inference by dynamic voltage scaling",
        "Compiling sparse tensor programs for vector processors",
    ]
    assert items[0]["abstract"] == "We study distributed optimisation of models."
    assert items[1]["abstract"] == "Dynamic voltage and frequency scaling lowers the energy of inference."
    assert [[a["family"] for a in i["author"]] for i in items] == [
        ["Lovelace", "Turing", "Hopper"],
        ["Dijkstra"],
        ["Liskov", "McCarthy"],
    ]
    assert_confined(run, [source], [out])
    assert_memory(run, 200)


def test_malformed_markup_reads_as_a_browser_builds_it(tmp_path: Path) -> None:
    """Unclosed ``<li>`` and ``<p>``, a stray ``</br>``, unquoted attributes, text fostered out of a
    table, an unclosed comment at the end: the records are the ones a browser shows."""
    page = (
        "<html><body><table><tr><td>x</td></tr>fostered text<ul class=pubs>"
        "<li class=pub><a href=https://arxiv.org/abs/2601.00001>First paper on parsing</a></br>"
        "by Ada Lovelace</br><span class=date>1 Jan 2026</span>"
        "<li class=pub><a href=https://arxiv.org/abs/2601.00002>Second paper on parsing</a><br>"
        "by Alan Turing<br><span class=date>2 Jan 2026</span>"
        "<li class=pub><a href=https://arxiv.org/abs/2601.00003>Third paper on parsing</a><br>"
        "by Grace Hopper<br><span class=date>3 Jan 2026</span><!-- INJECTED-UNCLOSED-COMMENT"
    )
    source = tmp_path / "bad.html"
    source.write_text(page, encoding="utf-8")
    run = run_cli(["convert", source.name, "-t", "csljson", "-o", "out.json"], tmp_path)
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "out.json").read_text(encoding="utf-8")
    assert "INJECTED" not in text
    items = json.loads(text)
    assert [(i["title"], i["author"][0]["family"], i["issued"]["date-parts"]) for i in items] == [
        ("First paper on parsing", "Lovelace", [[2026, 1, 1]]),
        ("Second paper on parsing", "Turing", [[2026, 1, 2]]),
        ("Third paper on parsing", "Hopper", [[2026, 1, 3]]),
    ]
    assert_confined(run, [source], [tmp_path / "out.json"])
