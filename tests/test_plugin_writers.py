"""A writer from a package outside bibconv, found through the ``bibconv.formats`` entry point, gives
the same unique keys under ``--jobs 2`` as serially: built from entries it takes its keys from
``ctx.keys`` and is run in pieces; with a ``write`` of its own (a ``KeyAssigner`` imported at module
level, the ordinary Python style) it is run in one process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_PLUGIN = '''
from bibconv.keys import KeyAssigner
from bibconv.registry import EntryWriter, register


@register
class KeyLines(EntryWriter):
    """One key a line, between a header and a footer."""

    name, extensions, description = "keylines", (".keys",), "citation keys, one a line"

    def header(self, ctx):
        return "# keys\\n"

    def entry(self, record, ctx):
        return ctx.keys.assign(record).id + "\\n"

    def footer(self, ctx):
        return f"# {ctx.entries} keys\\n"


@register
class OwnKeys:
    """A writer with its own ``write`` and its own assigner, made from the class imported above."""

    name, extensions, description = "ownkeys", (".own",), "citation keys, one a line"

    def write(self, records, stream, ctx):
        keys = KeyAssigner(ctx.option("key_format") or "authyeartitle", warn=ctx.warn)
        for record in records:
            stream.write(keys.assign(record).id + "\\n")
'''

_RUN = """
import io, json, sys
import bibconv
from bibconv import parallel

source, target = sys.argv[1:3]
out = io.StringIO(newline="")
in_pieces = parallel.convert([source], target, out, jobs=2, piece_size=4096)
text = out.getvalue() if in_pieces else bibconv.convert_files([source], target, jobs=2)
serial = bibconv.convert_files([source], target, jobs=1)
print(json.dumps({"in_pieces": in_pieces, "text": text, "serial": serial}))
"""


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the package ``keylines_plugin`` and its installed metadata."""
    site = tmp_path_factory.mktemp("site")
    (site / "keylines_plugin").mkdir()
    (site / "keylines_plugin" / "__init__.py").write_text(_PLUGIN, encoding="utf-8")
    info = site / "keylines_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: keylines-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bibconv.formats]\nkeylines = keylines_plugin\n")
    return site


@pytest.fixture(scope="module")
def same_author_same_year(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400 records with no id, one author, one year and one title: they all propose one key."""
    item = {"type": "book", "title": "Widget", "author": [{"family": "Smith"}], "issued": "2020"}
    source = tmp_path_factory.mktemp("input") / "same.json"
    source.write_text(json.dumps([item] * 400, indent=1), encoding="utf-8")
    return source


def _run(plugin_path: Path, source: Path, target: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(plugin_path)])}
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(source), target],
        capture_output=True,
        text=True,
        env=env,
        cwd=plugin_path,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_an_entry_writer_plugin_gets_400_distinct_keys_in_pieces(
    plugin_path: Path, same_author_same_year: Path
) -> None:
    result = _run(plugin_path, same_author_same_year, "keylines")
    assert result["in_pieces"], "the plugin writer is made of entries: --jobs runs it in pieces"
    lines = str(result["text"]).splitlines()
    keys = lines[1:-1]
    assert lines[0] == "# keys"
    assert lines[-1] == "# 400 keys"
    assert len(set(keys)) == 400
    assert keys[:3] == ["smith2020widget", "smith2020widgeta", "smith2020widgetb"]
    assert result["text"] == result["serial"]


def test_a_plugin_with_its_own_write_is_run_in_one_process(
    plugin_path: Path, same_author_same_year: Path
) -> None:
    result = _run(plugin_path, same_author_same_year, "ownkeys")
    assert not result["in_pieces"]
    keys = str(result["text"]).splitlines()
    assert len(keys) == 400
    assert len(set(keys)) == 400
    assert result["text"] == result["serial"]


def test_the_plugin_under_the_command_line_with_jobs_2(
    plugin_path: Path, same_author_same_year: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(plugin_path)])}
    for target in ("keylines", "ownkeys"):
        done = subprocess.run(
            [sys.executable, "-m", "bibconv", "convert", str(same_author_same_year), "-t", target, "-j", "2"],
            capture_output=True,
            text=True,
            env=env,
            cwd=plugin_path,
            check=True,
        )
        keys = [line for line in done.stdout.splitlines() if not line.startswith("#")]
        assert len(set(keys)) == 400, target
