"""Inputs that are streams rather than regular files: a FIFO, ``/dev/stdin``, a process
substitution (``<(cat refs.json)``) and ``-`` are read as they come, and detected by content."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.hostile._support import ROOT, run_cli

SOURCE = b'[{"id": "a", "type": "book", "title": "A"}, {"id": "b", "type": "book", "title": "B"}]'
RIS = b"TY  - BOOK\r\nID  - a\r\nTI  - A\r\nER  - \r\n\r\nTY  - BOOK\r\nID  - b\r\nTI  - B\r\nER  - \r\n\r\n"


def test_a_fifo_is_read_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(SOURCE), daemon=True)
    writer.start()
    run = run_cli(["convert", fifo.name, "-t", "ris", "-j", "2"], tmp_path)
    writer.join(30)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == RIS


@pytest.mark.parametrize("name", ["/dev/stdin", "-"])
def test_standard_input_by_name(tmp_path: Path, name: str) -> None:
    run = run_cli(["convert", name, "-t", "ris"], tmp_path, stdin=SOURCE)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == RIS


def test_detect_reads_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(SOURCE), daemon=True)
    writer.start()
    run = run_cli(["detect", fifo.name], tmp_path)
    writer.join(30)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == b"in.fifo: csljson\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="process substitution needs bash")
def test_process_substitution(tmp_path: Path) -> None:
    (tmp_path / "in.json").write_bytes(SOURCE)
    done = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m bibconv convert <(cat in.json) -t ris'],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == RIS


def test_a_missing_input_is_still_refused(tmp_path: Path) -> None:
    run = run_cli(["convert", "nowhere.json", "-t", "ris"], tmp_path)
    assert run.returncode == 2
    assert "nowhere.json: no such file" in run.stderr
