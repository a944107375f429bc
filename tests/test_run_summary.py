"""What a run says about itself: progress on a terminal for any input (piped ones included), a
closing summary line with records in and out, and the same reports for any ``--jobs``."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORD = "TY  - JOUR\nTI  - Paper {n}\nAU  - Doe{n}, Jane\nPY  - 2020\nER  - \n\n"


def _ris(first: int, last: int) -> bytes:
    return "".join(RECORD.format(n=n) for n in range(first, last)).encode("utf-8")


def on_terminal(args: list[str], chunks: list[bytes], pause: float = 0.0) -> tuple[int, bytes, str]:
    """Run bibconv with ``chunks`` piped to its stdin (``pause`` seconds apart) and its stderr on a
    pseudo-terminal: (exit status, stdout, what the terminal shows)."""
    control, terminal = pty.openpty()
    shown: list[bytes] = []

    def follow() -> None:  # read as it is written: a terminal holds only a few KB
        while True:
            try:
                chunk = os.read(control, 1 << 16)
            except OSError:  # the other side is closed: everything was read
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "bibconv", *args]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=terminal, env=env
    ) as proc:
        os.close(terminal)
        assert proc.stdin is not None
        assert proc.stdout is not None
        for i, chunk in enumerate(chunks):
            if i:
                time.sleep(pause)
            proc.stdin.write(chunk)
            proc.stdin.flush()
        proc.stdin.close()
        out = proc.stdout.read()
        status = proc.wait()
    reader.join(timeout=30)
    os.close(control)
    return status, out, b"".join(shown).decode("utf-8")


def test_piped_input_shows_progress_and_ends_with_the_summary_line() -> None:
    # A first part larger than the pipe holds: writing it waits for bibconv to read it, so
    # that the pause comes while bibconv waits for the rest.
    status, out, shown = on_terminal(
        ["convert", "--from", "ris", "-t", "bibtex"], [_ris(0, 4000), _ris(4000, 8000)], pause=1.5
    )
    assert status == 0
    assert out.count(b"@article{") == 8000
    *drawn, erased, summary = shown.replace("\r\n", "\n").split("\r")[1:]
    assert drawn  # redrawn in place, as often as the conversion takes
    for line in drawn:
        assert re.fullmatch(r"bibconv: [\d,]+ records, [\d,]+/s, \d+\.\d KB *", line), line
    assert erased.strip() == ""
    summary = summary.rstrip("\n")
    ends = r"bibconv: 8,000 records in, 8,000 out, 0 skipped, 0 warnings, [\d.]+ s"
    assert re.fullmatch(ends, summary), summary


def test_the_summary_counts_records_in_out_and_skipped(tmp_path: Path) -> None:
    items = (
        '[{"id": "a", "type": "book", "title": "A"},'
        ' {"id": "b", "type": "book", "title": "B", "author": "not a list"},'
        ' {"id": "c", "type": "book"},'
        ' {"id": "d", "type": "book", "title": "D"}]'
    )
    source = tmp_path / "mixed.json"
    source.write_text(items, encoding="utf-8")
    status, out, shown = on_terminal(["convert", str(source), "-t", "ris", "--skip-invalid"], [])
    assert status == 1
    assert out.count(b"TY  - BOOK") == 2
    lines = shown.splitlines()
    assert lines[-2].startswith(
        "bibconv: 4 records in, 2 out, 1 skipped, 1 warning (1 × the record has no field to write; skipped), "
    )
    assert lines[-1] == "bibconv: 1 record was skipped"


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "papers.ris").write_bytes(_ris(0, 50))
    (tmp_path / "blank.ris").write_text("\n\n", encoding="utf-8")
    (tmp_path / "empty-records.ris").write_text(
        "TY  - JOUR\nTI  - A title\nER  - \n\nTY  - JOUR\nER  - \n\n" * 20, encoding="utf-8"
    )
    return tmp_path


def bibconv(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "bibconv", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd, env=env)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_input_without_records_is_an_error_for_any_jobs(inputs: Path, jobs: str) -> None:
    done = bibconv("convert", "papers.ris", "blank.ris", "-t", "ris", "--jobs", jobs, cwd=inputs)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == "blank.ris: no records found in the input (--skip-invalid goes on without it)\n"


def test_records_with_no_field_are_left_out_for_any_jobs(inputs: Path) -> None:
    serial = bibconv("convert", "empty-records.ris", "-t", "bibtex", "--jobs", "1", cwd=inputs)
    parallel = bibconv("convert", "empty-records.ris", "-t", "bibtex", "--jobs", "2", cwd=inputs)
    assert serial.returncode == parallel.returncode == 0
    assert serial.stdout.count("@article{") == 20
    assert parallel.stdout == serial.stdout
    said = "empty-records.ris:5: warning: the record has no field to write; skipped"
    assert serial.stderr.splitlines()[0] == said
    assert parallel.stderr.splitlines()[:-1] == serial.stderr.splitlines()[:-1]  # the last has the time
