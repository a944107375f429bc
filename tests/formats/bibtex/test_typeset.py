"""A .bib through bibconv typesets as before: bibtex's .bbl under five styles and biber's output
are compared entry by entry before and after a bib → bib pass (see :mod:`tests.formats.bibtex.bbl_check`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.bibtex.bbl_check import BIBER, STYLES, Outcome, for_biber, inputs, measure
from tests.tools import require_shared, require_tool

INPUTS = inputs()


def _report(outcomes: list[Outcome]) -> list[str]:
    return [
        f"{o.path.name} [{o.consumer}] {key}:\n  - {before}\n  + {after}"
        for o in outcomes
        for key, before, after in o.changed
    ]


def test_the_shared_corpus_is_compared() -> None:
    corpus = require_shared("corpus", "bibtex")
    files = {p.name for p in corpus.iterdir() if p.suffix in (".bib", ".bibtex", ".biblatex")}
    assert {p.name for p in INPUTS} >= files


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_bibtex_typesets_every_entry_as_before(path: Path) -> None:
    require_tool("bibtex")
    outcomes = measure([path], STYLES, biber=False, workers=1)
    clean = [o for o in outcomes if not o.broken]
    assert _report(clean) == []
    assert all(o.order_same for o in clean)


def test_biber_reads_every_biblatex_file_as_before() -> None:
    require_tool("biber")
    require_tool("pdflatex")
    files = [p for p in INPUTS if for_biber(p) and "matrix" not in p.parts]
    outcomes = measure(files, (), biber=True)
    assert {o.consumer for o in outcomes} == {BIBER}
    assert _report(outcomes) == []
