"""``--jobs`` when an entry changes how later ones are written: a kept ``@preamble`` that defines a
command lets later titles use it (``bibconv.writing.EntryWriter.carry``); a piece written before
the definition reached it is written again, so the output is the serial one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import bibconv
from bibconv import parallel


@pytest.fixture
def preamble_then_uses(tmp_path: Path) -> Path:
    parts = ['@preamble{"\\providecommand{\\foo}[1]{#1}"}\n']
    for i in range(40):
        parts.append(
            f"@article{{k{i},\n  title = {{Paper {i} \\foo{{x}}}},\n  author = {{Smith, Ann}},\n"
            "  year = {2020},\n}\n\n"
        )
    # As CSL-JSON, which keeps the preamble and the titles as written for BibTeX (a BibTeX file whose
    # @preamble may define commands is read whole, as its entries are read with the definitions).
    path = tmp_path / "preamble.json"
    path.write_text(bibconv.write(bibconv.read("".join(parts), "bibtex"), "csljson") or "", encoding="utf-8")
    return path


@pytest.mark.parametrize("target", ["bibtex", "biblatex"])
def test_a_command_defined_in_an_earlier_piece_is_kept_in_later_ones(
    preamble_then_uses: Path, target: str
) -> None:
    with preamble_then_uses.open("rb") as handle:
        pieces = parallel.splitter_for("csljson")(handle, 300)  # type: ignore[misc]
        assert pieces is not None
        assert len(list(pieces)) > 10
    serial_reports: list[bibconv.Diagnostic] = []
    serial = bibconv.write(bibconv.read(preamble_then_uses), target, diagnostics=serial_reports)
    assert serial is not None
    assert serial.count("\\foo{x}") == 40  # allowed everywhere: the preamble defines it
    out = io.StringIO(newline="")
    reports: list[bibconv.Diagnostic] = []
    assert parallel.convert(
        [str(preamble_then_uses)], target, out, jobs=2, piece_size=300, diagnostics=reports
    )
    assert out.getvalue() == serial
    assert [str(r) for r in reports] == [str(r) for r in serial_reports]
