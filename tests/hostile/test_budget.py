"""Every adversarial input (``benchmarks/adversarial.py``) converts to every writer within a time
and memory bound, and ends as bibconv ends: records written, bad ones reported as ``file:line``
errors and skipped, never a traceback, a kill or a ``MemoryError``.

The inputs are built at :data:`SIZE` bytes, where work that grows with the square of the input
still shows; the bounds are about three times what each conversion takes on a loaded 2-core
machine (``benchmarks/ADVERSARIAL.md`` has the figures at 10 MB). One child process per input
runs the four conversions in turn, each timed and its peak memory measured on its own
(``/proc/self/clear_refs`` resets the peak between them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile._support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from adversarial import CASES, Case

SIZE = 100_000
WRITERS = ("bibtex", "biblatex", "csljson", "ris")
SECONDS = 15.0
"""The bound on one conversion (its own time, without starting Python; the slowest, the first writer
of deep-tex.html with bibconv's imports, takes 5.3 s on a 2-core machine under a load of 8)."""
MIB = 100
"""The bound on one conversion's peak resident memory (Python and bibconv take about 26 MiB; the
most any of these takes is 37 MiB)."""

_DRIVER = r"""
import json, os, re, sys, time, contextlib, io
from bibconv.cli import main

def peak_kib():
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))

source, reader, out = sys.argv[1:4]
named = re.compile(re.escape(source) + r":\d+(:\d+)?: error: ")
runs = []
for writer in sys.argv[4:]:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # the peak resident size starts again from the current one
    err = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(err):
        try:
            args = ["convert", source, "-f", reader, "-t", writer, "-o", out, "--skip-invalid", "-q"]
            main(args=[*args, "-j", "1"], prog_name="bibconv")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException as exc:  # reported as a crash
            code, _ = -1, err.write(f"crash: {type(exc).__name__}: {exc}"[:300])
    seconds = time.perf_counter() - start
    size = os.path.getsize(out) if os.path.exists(out) else 0
    errors = [line for line in err.getvalue().splitlines() if ": error: " in line]
    runs.append({"writer": writer, "seconds": seconds, "kib": peak_kib(), "code": code, "size": size,
                 "errors": len(errors), "unnamed": [e for e in errors if not named.match(e)][:3],
                 "crash": "Traceback" in err.getvalue() or "MemoryError" in err.getvalue(),
                 "stderr": err.getvalue()[-3000:]})
    if os.path.exists(out):
        os.unlink(out)
print(json.dumps(runs))
"""


def _convert_all(tmp_path: Path, case: Case) -> list[dict[str, object]]:
    source = tmp_path / case.name
    source.write_bytes(case.build(SIZE))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", _DRIVER, str(source), case.reader, str(tmp_path / "out"), *WRITERS]
    done = subprocess.run(command, capture_output=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    runs: list[dict[str, object]] = json.loads(done.stdout)
    return runs


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_adversarial_input_within_bounds(tmp_path: Path, case: Case) -> None:
    for run in _convert_all(tmp_path, case):
        what = f"{case.name} to {run['writer']}"
        stderr = str(run["stderr"])
        assert run["code"] in (0, 1), f"{what}: status {run['code']}: {stderr[-500:]}"
        assert not run["crash"], f"{what}: {stderr}"
        assert run["unnamed"] == [], f"{what}: errors without file and line"
        if run["code"] == 1:  # with --skip-invalid: bad records were skipped, each named
            assert run["errors"], f"{what}: {stderr[-500:]}"
        else:
            assert run["size"], f"{what}: nothing written"
        assert float(str(run["seconds"])) < SECONDS, f"{what}: {float(str(run['seconds'])):.1f} s"
        assert int(str(run["kib"])) < MIB * 1024, f"{what}: {int(str(run['kib'])) >> 10} MiB"
