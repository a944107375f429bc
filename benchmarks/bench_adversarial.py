"""Time and memory of ``bibconv convert`` on the adversarial inputs, to every writer.

Run ``python benchmarks/bench_adversarial.py`` (about 10 minutes; ``--size`` for another size,
``-k NAME`` for some inputs only). Each input of :mod:`adversarial` is built just under 10 MB and
converted with ``--skip-invalid`` (so every record is read) in its own process, bibconv's bytecode
compiled first as an installed package has it; the wall time and
the peak memory are written to ``benchmarks/ADVERSARIAL.md``. The peak is the larger of the
process's own (``wait4``'s ``ru_maxrss``, which covers the workers it waited for) and the sum of
the resident memory of the process and its workers, sampled every 20 ms.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adversarial import CASES, FULL_SIZE, Case

ROOT = Path(__file__).resolve().parent.parent
WRITERS = ("csljson", "ris", "bibtex", "biblatex")
SECONDS = 10.0
MB = 500.0
ADDRESS_SPACE = 4 << 30
"""No conversion may map more than this (a runaway ends in MemoryError, not in a machine out of memory)."""


@dataclass
class Run:
    """One conversion: what it took and how it ended."""

    case: Case
    writer: str
    size: int
    seconds: float
    mb: float
    returncode: int
    outcome: str

    @property
    def clean(self) -> bool:
        """Ended as bibconv ends (0, or 1 with records reported), not by a crash or a kill."""
        return self.returncode in (0, 1) and not self.outcome.startswith(("crash", "killed"))


def _tree_rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants (KiB); 0 once it is gone."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text(encoding="ascii")
            total += int(re.search(r"^VmRSS:\s+(\d+)", status, re.M)[1])  # type: ignore[index]
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text(encoding="ascii").split()]
        except (OSError, TypeError):
            continue
    return total


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def convert(source: Path, case: Case, writer: str, timeout: float, args: tuple[str, ...] = ()) -> Run:
    """Convert ``source`` (built from ``case``) to ``writer`` in a child process, measured."""
    out = source.with_name(source.name + "." + writer)
    command = [sys.executable, "-m", "bibconv", "convert", str(source), "-f", case.reader, "-t", writer]
    command += ["-o", str(out), "--skip-invalid", "-q", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=env, preexec_fn=_limit)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.02):
                peak[0] = max(peak[0], _tree_rss_kib(child.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        timer = threading.Timer(timeout, child.kill)
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        timer.cancel()
        done.set()
        sampler.join()
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    mb = max(usage.ru_maxrss, peak[0]) / 1024
    outcome = _outcome(child.returncode, stderr, out, writer, seconds >= timeout)
    out.unlink(missing_ok=True)
    return Run(case, writer, source.stat().st_size, seconds, mb, child.returncode, outcome)


def _outcome(code: int, stderr: str, out: Path, writer: str, timed_out: bool) -> str:
    """``N records``, the skipped count and the first error's ``file:line: message``, or the crash."""
    if timed_out:
        return "killed: over the time limit"
    if code < 0:
        return f"killed: signal {-code}"
    if "Traceback" in stderr or "MemoryError" in stderr:
        last = [line for line in stderr.splitlines() if line.strip()][-1:]
        return "crash: " + (last[0] if last else "?")
    written = _written(out, writer)
    errors = [line for line in stderr.splitlines() if ": error: " in line]
    text = f"{written:,} records"
    if errors:
        first = errors[0].split("/")[-1]
        text += f", {len(errors):,} skipped; first: {first[:140]}"
    elif code:
        text += "; " + (stderr.strip().splitlines() or ["status 1"])[0].split("/")[-1][:140]
    return text


def _written(out: Path, writer: str) -> int:
    if not out.exists():
        return 0
    if writer == "csljson":
        return len(json.loads(out.read_text(encoding="utf-8")))
    with out.open("rb") as stream:
        if writer == "ris":
            return sum(1 for line in stream if line.startswith(b"TY  - "))
        special = (b"@string", b"@preamble", b"@comment")
        return sum(1 for line in stream if line.startswith(b"@") and not line.lower().startswith(special))


def _table(runs: list[Run]) -> str:
    rows = ["| input | size | reader | writer | seconds | MB | outcome |", "|---|---:|---|---|---:|---:|---|"]
    for run in runs:
        flag = "" if run.clean and run.seconds <= SECONDS and run.mb <= MB else " **over budget**"
        rows.append(
            f"| {run.case.name} | {run.size / 1e6:.2f} MB | {run.case.reader} | {run.writer} |"
            f" {run.seconds:.2f} | {run.mb:.0f} | {run.outcome.replace('|', '/')}{flag} |"
        )
    return "\n".join(rows)


def _machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "?",
    )
    return (
        f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores,"
        f" load average {os.getloadavg()[0]:.1f} at the start; Python {platform.python_version()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--size", type=int, default=FULL_SIZE, help="bytes per input (default: just under 10 MB)"
    )
    parser.add_argument("-k", default="", help="only inputs whose name holds this")
    parser.add_argument("--from-case", default="", help="start at the input of this name")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a conversion is killed")
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "ADVERSARIAL.md")
    options = parser.parse_args()
    # As an installed package has it: otherwise, under PYTHONDONTWRITEBYTECODE, every conversion
    # would compile the modules it imports again.
    compileall.compile_dir(ROOT / "bibconv", quiet=1)
    machine = _machine()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as folder:
        names = [case.name for case in CASES]
        first = names.index(options.from_case) if options.from_case else 0
        for case in CASES[first:]:
            if options.k not in case.name:
                continue
            source = Path(folder) / case.name
            source.write_bytes(case.build(options.size))
            for writer in WRITERS:
                run = convert(source, case, writer, options.timeout)
                print(
                    f"{case.name:24} {writer:9} {run.seconds:7.2f} s {run.mb:6.0f} MB  {run.outcome}",
                    flush=True,
                )
                runs.append(run)
                if run.outcome.startswith("killed: over"):
                    break  # the other writers read the same input: over the limit too
            source.unlink()
    over = [r for r in runs if not (r.clean and r.seconds <= SECONDS and r.mb <= MB)]
    text = (
        "# Adversarial inputs: time and memory\n\n"
        f"Run `python benchmarks/bench_adversarial.py` (inputs from `benchmarks/adversarial.py`, each"
        f" {options.size:,} bytes at most). Budget: {SECONDS:.0f} s and {MB:.0f} MB per conversion of an"
        " input under 10 MB.\n\n"
        f"Machine: {machine}.\n\n"
        "Each conversion is `bibconv convert INPUT -f READER -t WRITER -o OUT --skip-invalid -q` with the"
        " default `--jobs` (2 processes on 2 cores above 4 MB of input): *seconds* is the wall time of"
        " the process, *MB* the peak resident memory of it and its workers together. *outcome* is the"
        " number of records written, and of records skipped with the first error as bibconv reports it"
        " (`file:line: error: …`).\n\n"
        f"{len(runs) - len(over)} of {len(runs)} conversions within the budget.\n\n" + _table(runs) + "\n"
    )
    if options.k == "" and not options.from_case and options.size == FULL_SIZE:
        # What the file says after the table, under "## Notes", is kept.
        old = options.output.read_text(encoding="utf-8") if options.output.exists() else ""
        notes = old[old.index("\n## Notes") :] if "\n## Notes" in old else ""
        options.output.write_text(text + notes, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
