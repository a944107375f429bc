"""Run the command line in a watched child process: what it opened, wrote, connected to, its memory.

The child installs an audit hook (:func:`sys.addaudithook`) before bibconv is imported and logs
every file opened, renamed or removed, every socket connection or name look-up and every
process started; the test then checks that nothing but the input and the output was touched.
libxml2 reads files from C, where audit hooks do not see; the XML tests use FIFOs and a
loopback server for that.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Where Python, installed packages, bibconv's own code and the time-zone database live:
# opening files there is importing code or reading its data.
_CODE = tuple(
    os.path.realpath(p) + os.sep
    for p in {
        sys.prefix,
        sys.base_prefix,
        str(ROOT / "bibconv"),
        str(ROOT / "bibconv.egg-info"),
        "/usr/share/zoneinfo",
    }
)

_BOOTSTRAP = r"""
import json, os, resource, sys
log_path = os.environ.pop("BIBCONV_TEST_AUDIT")
events = []
WATCHED = {"open", "os.rename", "os.remove", "os.unlink", "os.truncate", "shutil.rmtree",
           "socket.connect", "socket.getaddrinfo", "socket.bind", "urllib.Request", "http.client.connect",
           "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.fork", "os.spawn",
           "ctypes.dlopen"}
def hook(event, args):
    if event in WATCHED:
        events.append([event, [a if isinstance(a, (str, int, float, type(None))) else repr(a)
                               for a in args]])
log = open(log_path, "w", encoding="utf-8")
sys.addaudithook(hook)
code = 0
try:
    from bibconv.cli import main
    main(args=sys.argv[1:], prog_name="bibconv")
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
finally:
    # VmHWM is this process image's peak; ru_maxrss would include the parent's size at fork.
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            rss = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
        events = [e for e in events if e[1][:1] != ["/proc/self/status"]]
    except (OSError, StopIteration):
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump({"events": events, "maxrss_kib": rss}, log)
    log.close()
sys.exit(code)
"""


@dataclass
class CliRun:
    """What one watched run of ``bibconv`` did."""

    returncode: int
    stdout: bytes
    stderr: str
    maxrss_kib: int
    cwd: Path
    events: list[tuple[str, list[object]]] = field(default_factory=list)

    def opened(self) -> list[str]:
        """Paths opened (resolved), except Python's modules and installed packages' data."""
        paths = []
        for event, args in self.events:
            if event != "open" or not isinstance(args[0], str):
                continue
            path = os.path.realpath(os.path.join(self.cwd, args[0]))
            if not path.endswith((".py", ".pyc")) and not path.startswith(_CODE):
                paths.append(path)
        return paths

    def network(self) -> list[tuple[str, list[object]]]:
        return [e for e in self.events if e[0].startswith(("socket.", "urllib.", "http."))]

    def processes(self) -> list[tuple[str, list[object]]]:
        return [
            e for e in self.events if e[0].startswith(("subprocess.", "os.system", "os.exec", "os.spawn"))
        ]

    def moved(self) -> list[tuple[str, list[object]]]:
        return [e for e in self.events if e[0] in ("os.rename", "os.remove", "os.unlink", "os.truncate")]


def run_cli(
    args: Sequence[str | os.PathLike[str]],
    cwd: Path,
    stdin: bytes | Iterable[bytes] | None = None,
    timeout: float = 120,
) -> CliRun:
    """Run ``bibconv ARGS`` in a watched child; ``stdin`` may be bytes or a generator of chunks."""
    log = cwd / ".audit.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BIBCONV_TEST_AUDIT": str(log), "PYTHONHASHSEED": "0"}
    env.pop("BIBCONV_ALLOW_MISSING_TOOLS", None)
    command = [sys.executable, "-c", _BOOTSTRAP, *map(os.fspath, args)]
    child = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    feeder = None
    if stdin is not None:
        chunks = [stdin] if isinstance(stdin, bytes) else stdin

        def feed() -> None:
            assert child.stdin is not None
            try:
                for chunk in chunks:
                    child.stdin.write(chunk)
                child.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass  # the child stopped reading: that is the point of some tests

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
    try:
        out, err = child.communicate(timeout=timeout) if stdin is None else _drain(child, timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise
    if feeder is not None:
        feeder.join(timeout)
    report = json.loads(log.read_text(encoding="utf-8"))
    log.unlink()
    return CliRun(
        child.returncode,
        out,
        err.decode("utf-8", "replace"),
        int(report["maxrss_kib"]),
        cwd,
        [(e, a) for e, a in report["events"]],
    )


def _drain(child: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, bytes]:
    """stdout and stderr of a child whose stdin another thread writes."""
    assert child.stdout is not None
    assert child.stderr is not None
    result: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda: result.__setitem__("out", child.stdout.read()), daemon=True),  # type: ignore[union-attr]
        threading.Thread(target=lambda: result.__setitem__("err", child.stderr.read()), daemon=True),  # type: ignore[union-attr]
    ]
    for reader in readers:
        reader.start()
    child.wait(timeout)
    for reader in readers:
        reader.join(timeout)
    return result.get("out", b""), result.get("err", b"")


def assert_confined(run: CliRun, reads: Iterable[Path], writes: Iterable[Path] = ()) -> None:
    """Only ``reads`` were opened, only ``writes`` (through a temporary beside them) written or
    renamed; no network, no processes."""
    allowed = {os.path.realpath(p) for p in reads}
    targets = {os.path.realpath(p) for p in writes}

    def temporary(path: str) -> bool:
        name = os.path.basename(path)
        return any(
            os.path.dirname(t) == os.path.dirname(path)
            and name.startswith(f".{os.path.basename(t)}.")
            and name.endswith(".tmp")
            for t in targets
        )

    for path in run.opened():
        assert path in allowed or path in targets or temporary(path), f"opened {path}"
    for event, args in run.moved():
        source = os.path.realpath(os.path.join(run.cwd, str(args[0])))
        assert temporary(source), (event, args)
        if event == "os.rename":
            assert os.path.realpath(os.path.join(run.cwd, str(args[1]))) in targets, args
    assert run.network() == []
    assert run.processes() == []


def assert_memory(run: CliRun, mib: int) -> None:
    """The child's peak resident memory stayed under ``mib`` MiB (Python and bibconv take ~30)."""
    assert run.maxrss_kib < mib * 1024, f"peak memory {run.maxrss_kib // 1024} MiB"


def broken_input(
    tmp_path: Path,
    name: str,
    data: bytes,
    message: str,
    good: int,
    error: str | None = None,
    skipped: int = 1,
    mib: int = 200,
) -> tuple[CliRun, CliRun]:
    """Convert ``name`` (``data``: ``good`` good records, ``skipped`` bad ones) to CSL-JSON,
    strictly and with --skip-invalid; check exit status, messages, output, confinement, memory.

    ``message`` must match the strict run's first stderr line in full (a regular expression);
    ``error`` (default: ``message`` with ``error:`` after the location) the first
    ``error:`` line of the lenient run.
    """
    import re

    source = tmp_path / name
    source.write_bytes(data)
    out = tmp_path / "out.json"
    strict = run_cli(["convert", name, "-t", "csljson", "-o", out.name], tmp_path)
    assert strict.returncode == 1, strict.stderr
    assert "Traceback" not in strict.stderr
    first = strict.stderr.splitlines()[0]
    assert re.fullmatch(message, first), first
    assert not out.exists()
    assert_confined(strict, [source], [out])
    assert_memory(strict, mib)

    lenient = run_cli(["convert", name, "-t", "csljson", "-o", out.name, "--skip-invalid"], tmp_path)
    assert lenient.returncode == 1, lenient.stderr
    assert "Traceback" not in lenient.stderr
    errors = [line for line in lenient.stderr.splitlines() if ": error: " in line]
    assert len(errors) == skipped, lenient.stderr
    if error is None:
        location, text = message.split(": ", 1)
        error = f"{location}: error: {text}"
    assert re.fullmatch(error, errors[0]), errors[0]
    plural = "record was" if skipped == 1 else "records were"
    assert lenient.stderr.splitlines()[-1] == f"bibconv: {skipped} {plural} skipped", lenient.stderr
    assert len(json.loads(out.read_text(encoding="utf-8"))) == good
    assert_confined(lenient, [source], [out])
    assert_memory(lenient, mib)
    return strict, lenient
