"""``-o`` on what is not a regular file, signals, and workers whose parent dies.

A device or a FIFO named by ``-o`` is written into, never replaced (as root, replacing
``/dev/null`` would break the machine); a link to standard output writes there; a symbolic link
is followed and its target replaced; a directory is refused with a message; a device that is
full fails with one. SIGTERM leaves no temporary file, and ``-j 2`` workers end when their
parent is killed. The devices are made in the test's directory (``mknod``, as root), so that
even a bibconv that replaced them would harm nothing.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.hostile._support import ROOT, run_cli

SOURCE = '[{"id": "a", "type": "book", "title": "A"}, {"id": "b", "type": "book", "title": "B"}]'
RIS = "TY  - BOOK\r\nID  - a\r\nTI  - A\r\nER  - \r\n\r\nTY  - BOOK\r\nID  - b\r\nTI  - B\r\nER  - \r\n\r\n"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in.json"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _device(tmp_path: Path, name: str, major: int, minor: int) -> Path:
    """A character device node in ``tmp_path`` (``1, 3``: like /dev/null; ``1, 7``: /dev/full)."""
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    return path


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_a_character_device_is_written_into_not_replaced(tmp_path: Path, source: Path) -> None:
    null = _device(tmp_path, "null", 1, 3)
    run = run_cli(["convert", source.name, "-t", "ris", "-o", null.name], tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    assert stat.S_ISCHR(null.stat().st_mode)
    assert null.stat().st_rdev == os.makedev(1, 3)
    assert run.moved() == []
    assert _leftovers(tmp_path) == []


def test_dev_null_itself_stays_a_device(tmp_path: Path, source: Path) -> None:
    before = os.stat("/dev/null")
    run = run_cli(["convert", source.name, "-t", "bibtex", "-o", "/dev/null"], tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_a_full_device_fails_with_a_message(tmp_path: Path, source: Path) -> None:
    full = _device(tmp_path, "full", 1, 7)
    run = run_cli(["convert", source.name, "-t", "ris", "-o", full.name], tmp_path)
    assert run.returncode != 0
    assert run.stderr == "bibconv: full: cannot write: No space left on device\n"
    assert stat.S_ISCHR(full.stat().st_mode)


def test_a_fifo_with_a_reader_gets_the_output(tmp_path: Path, source: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    run = run_cli(["convert", source.name, "-t", "ris", "-o", fifo.name], tmp_path)
    reader.join(30)
    assert (run.returncode, run.stderr) == (0, "")
    assert got == [RIS.encode()]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_link_to_stdout_writes_to_stdout(tmp_path: Path, source: Path) -> None:
    link = tmp_path / "stdout"
    link.symlink_to("/dev/stdout")
    run = run_cli(["convert", source.name, "-t", "ris", "-o", link.name], tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == RIS.encode()
    assert link.is_symlink()
    assert run.moved() == []


def test_dev_stdout_redirected_to_a_file_writes_into_that_file(tmp_path: Path, source: Path) -> None:
    out = tmp_path / "redirected.ris"
    with out.open("wb") as stdout:
        inode = os.fstat(stdout.fileno()).st_ino
        stdout.write(b"kept\n")
        stdout.flush()
        done = subprocess.run(
            [sys.executable, "-m", "bibconv", "convert", source.name, "-t", "ris", "-o", "/dev/stdout"],
            cwd=tmp_path,
            env=ENV,
            stdout=stdout,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert (done.returncode, done.stderr) == (0, b"")
    assert out.read_bytes() == b"kept\n" + RIS.encode()  # the shell's file, at its offset
    assert out.stat().st_ino == inode


def test_a_symlink_is_followed_and_its_target_replaced(tmp_path: Path, source: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.ris"
    target.write_text("old\n", encoding="utf-8")
    os.chmod(target, 0o640)
    link = tmp_path / "link.ris"
    link.symlink_to(target)
    run = run_cli(["convert", source.name, "-t", "ris", "-o", link.name], tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    assert link.is_symlink()
    assert os.readlink(link) == str(target)
    assert target.read_bytes() == RIS.encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [(e, os.path.basename(str(a[1]))) for e, a in run.moved() if e == "os.rename"] == [
        ("os.rename", "out.ris")
    ]
    assert _leftovers(tmp_path) == _leftovers(tmp_path / "real") == []


def test_a_dangling_symlink_creates_its_target(tmp_path: Path, source: Path) -> None:
    link = tmp_path / "link.ris"
    link.symlink_to(tmp_path / "new.ris")
    run = run_cli(["convert", source.name, "-t", "ris", "-o", link.name], tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    assert link.is_symlink()
    assert (tmp_path / "new.ris").read_bytes() == RIS.encode()


def test_a_directory_is_refused_with_a_message(tmp_path: Path, source: Path) -> None:
    (tmp_path / "outdir").mkdir()
    run = run_cli(["convert", source.name, "-t", "ris", "-o", "outdir"], tmp_path)
    assert run.returncode == 2
    assert run.stderr == "bibconv: outdir: is a directory\n"
    assert list((tmp_path / "outdir").iterdir()) == []
    assert _leftovers(tmp_path) == []


def _big_input(path: Path, count: int = 60_000) -> None:
    items = [
        {"id": f"k{i}", "type": "article-journal", "title": f"Paper {i}", "author": [{"family": f"A{i}"}]}
        for i in range(count)
    ]
    path.write_text(json.dumps(items), encoding="utf-8")


def _writing(tmp_path: Path, jobs: str) -> subprocess.Popen[bytes]:
    """A conversion of a large input to out.ris, once it has begun to write its temporary file."""
    source = tmp_path / "big.json"
    _big_input(source)
    child = subprocess.Popen(
        [sys.executable, "-m", "bibconv", "convert", source.name, "-t", "ris", "-o", "out.ris", "-j", jobs],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and child.poll() is None:
        temps = [p for p in tmp_path.iterdir() if p.name.startswith(".out.ris.") and p.name.endswith(".tmp")]
        if max((p.stat().st_size for p in temps), default=0) > 64 << 10:
            return child
        time.sleep(0.005)
    child.kill()
    pytest.fail("the conversion ended before it could be stopped")


def test_sigterm_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "out.ris").write_text("old\n", encoding="utf-8")
    child = _writing(tmp_path, "1")
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 143, stderr
    assert stderr.decode() == "bibconv: terminated\n"
    assert (tmp_path / "out.ris").read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path) == []


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    child = _writing(tmp_path, "2")
    workers = _children(child.pid)
    assert len(workers) >= 2, workers
    child.kill()
    child.communicate(timeout=60)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(map(_alive, workers)):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "workers outlived their parent"
