"""The README's quick start gives a .bib that bibtex reads without a warning, under every classic style."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from bibconv.cli import main
from tests.formats.bibtex.bbl_check import STYLES
from tests.tools import require_tool

ROOT = Path(__file__).resolve().parent.parent
_QUICK_START = re.compile(r"## Quick start\n.*?```sh\n(?P<command>[^\n]*)\n```", re.S)


def quick_start_arguments() -> list[str]:
    """The arguments of the ``bibconv`` command the quick start runs (after its ``pip install``)."""
    found = _QUICK_START.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found is not None, "the README has a quick start with a sh block"
    command = shlex.split(found["command"].split("&&")[-1])
    assert command[:2] == ["bibconv", "convert"]
    return command[1:]


@pytest.fixture(scope="module")
def quick_start_bib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("quickstart") / "refs.bib"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)  # the quick start names its example relative to the repository's root
        result = CliRunner().invoke(main, [*quick_start_arguments(), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("style", STYLES)
def test_quick_start_output_gives_no_bibtex_warning(quick_start_bib: Path, style: str) -> None:
    require_tool("bibtex")
    folder = quick_start_bib.parent
    (folder / f"{style}.aux").write_text(
        f"\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{{quick_start_bib.stem}}}\n", encoding="utf-8"
    )
    run = subprocess.run(["bibtex", style], cwd=folder, capture_output=True, timeout=60, check=False)
    log = (folder / f"{style}.blg").read_text(encoding="utf-8")
    assert run.returncode == 0, log
    assert [line for line in log.splitlines() if line.startswith("Warning--")] == []
    bbl = (folder / f"{style}.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == 3
    assert "source listing" not in bbl  # bibconv's own notes on a record are not typeset
