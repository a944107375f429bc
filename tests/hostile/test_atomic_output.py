"""Output: written atomically (a temporary file renamed over the target), never over an input,
and a closed stdout ends quietly.

An existing output file is left exactly as it was by a bad input and by Ctrl-C (SIGINT sent to
a process in the middle of writing a large output); no temporary file is left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile._support import ROOT, assert_confined, assert_memory, run_cli

OLD = "the previous output, which must survive\n"


def _big_input(path: Path, count: int = 60_000) -> None:
    items = [
        {"id": f"k{i}", "type": "article-journal", "title": f"Paper {i}", "author": [{"family": f"A{i}"}]}
        for i in range(count)
    ]
    path.write_text(json.dumps(items), encoding="utf-8")


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_bad_input_leaves_the_existing_output_untouched(tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    source.write_text(
        '[{"id": "a", "type": "book", "title": "A"}, {"id": "b", "type": "book", "author": "x"}]',
        encoding="utf-8",
    )
    out = tmp_path / "out.ris"
    out.write_text(OLD, encoding="utf-8")
    run = run_cli(["convert", source.name, "-t", "ris", "-o", out.name], tmp_path)
    assert run.returncode == 1
    assert run.stderr == "in.json:1: 'author' must be a list of name objects (entry b)\n"
    assert out.read_text(encoding="utf-8") == OLD
    assert _leftovers(tmp_path) == []
    assert_confined(run, [source], [out])
    assert [e for e, _ in run.moved()] == ["os.remove"]  # the temporary, never the target
    assert_memory(run, 200)


@pytest.mark.parametrize("existing", [True, False])
def test_ctrl_c_in_the_middle_of_writing_leaves_the_old_file(tmp_path: Path, existing: bool) -> None:
    source = tmp_path / "big.json"
    _big_input(source)
    out = tmp_path / "out.ris"
    if existing:
        out.write_text(OLD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "bibconv", "convert", source.name, "-t", "ris", "-o", out.name, "-j", "1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    written = 0
    while time.monotonic() < deadline and child.poll() is None:  # wait until the output is being written
        temps = [p for p in tmp_path.iterdir() if p.name.startswith(".out.ris.") and p.name.endswith(".tmp")]
        written = max((p.stat().st_size for p in temps), default=0)
        if written > 64 << 10:
            break
        time.sleep(0.005)
    assert child.poll() is None, "the conversion ended before it could be interrupted"
    assert written > 64 << 10
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert stderr.decode() == "bibconv: interrupted\n"
    if existing:
        assert out.read_text(encoding="utf-8") == OLD
    else:
        assert not out.exists()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("spelling", ["in.json", "./in.json", "link.json", "hard.json"])
def test_output_naming_an_input_is_refused(tmp_path: Path, spelling: str) -> None:
    source = tmp_path / "in.json"
    text = '[{"id": "a", "type": "book", "title": "A"}]'
    source.write_text(text, encoding="utf-8")
    (tmp_path / "link.json").symlink_to(source)
    os.link(source, tmp_path / "hard.json")
    run = run_cli(["convert", "in.json", "-t", "csljson", "-o", spelling], tmp_path)
    assert run.returncode == 2
    assert run.stderr == f"bibconv: {spelling}: the output would overwrite the input in.json\n"
    assert source.read_text(encoding="utf-8") == text
    assert run.moved() == []
    assert [p for p in run.opened() if p.startswith(str(tmp_path.resolve()))] == []


@pytest.mark.parametrize("skip_invalid", [False, True])
def test_closed_stdout_ends_quietly(tmp_path: Path, skip_invalid: bool) -> None:
    """``bibconv convert big.json -t bibtex | head -c 100``: status 0, nothing on stderr."""
    source = tmp_path / "big.json"
    _big_input(source, 20_000)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = ["convert", source.name, "-t", "bibtex", "-j", "1"] + (["--skip-invalid"] if skip_invalid else [])
    child = subprocess.Popen(
        [sys.executable, "-m", "bibconv", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    head = child.stdout.read(100)
    child.stdout.close()
    _, stderr = child.communicate(timeout=120)
    assert head.startswith(b"@article{")
    assert stderr == b""
    assert child.returncode == 0
