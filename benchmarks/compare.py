"""Time bibconv's conversions of ``run.py`` for two checkouts of the code, interleaved, best of N.

    python benchmarks/compare.py --size 10k --repeat 3 BEFORE_DIR AFTER_DIR
    python benchmarks/compare.py --only bibtex:bibtex,csljson:ris BEFORE_DIR AFTER_DIR

Each directory holds a ``bibconv`` package (a checkout, or ``git archive REV | tar -x``); each run
is ``python -m bibconv convert`` as ``run.py`` runs it, in one process (``--jobs 1``), with that
directory first on ``PYTHONPATH``.
The runs of the two take turns (A, B, A, B…), so that a change of load on a shared machine falls on
both; each figure is the best of ``--repeat`` runs, as CPU time of the process (user + sys, from
``wait4``, which load changes less than wall time) and as wall time. The outputs of the two are
compared byte for byte.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate import FORMATS, parse_size, write_corpus  # noqa: E402
from run import CONVERSIONS, PY  # noqa: E402


def timed(code: Path, source: str, target: str, path: Path, out: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one conversion with ``code`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    command = [PY, "-m", "bibconv", "convert", str(path), "-f", source, "-t", target, "-q", "-j", "1"]
    start = time.perf_counter()
    with out.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{code}: {source} → {target} failed")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--size", default="10k")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=HERE / "data")
    parser.add_argument("--only", default="", help="conversions to time, e.g. bibtex:bibtex,csljson:ris")
    args = parser.parse_args()
    size = parse_size(args.size)
    paths = {f: args.data / f"corpus-{size}{ext}" for f, ext in FORMATS.items()}
    if not all(p.exists() for p in paths.values()):
        write_corpus(size, args.data)
    print("| conversion | before CPU s | after CPU s | after/before | before wall s | after wall s | same |")
    print("|---|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        wanted = {tuple(pair.split(":")) for pair in args.only.split(",") if pair}
        for source, target in CONVERSIONS:
            if wanted and (source, target) not in wanted:
                continue
            best = {"before": [1e9, 1e9], "after": [1e9, 1e9]}
            for _ in range(args.repeat):
                for label, code in (("before", args.before), ("after", args.after)):
                    cpu, wall = timed(code, source, target, paths[source], Path(tmp) / label)
                    best[label] = [min(best[label][0], cpu), min(best[label][1], wall)]
            same = filecmp.cmp(Path(tmp) / "before", Path(tmp) / "after", shallow=False)
            (b_cpu, b_wall), (a_cpu, a_wall) = best["before"], best["after"]
            print(
                f"| {source} → {target} | {b_cpu:.2f} | {a_cpu:.2f} | {a_cpu / b_cpu:.3f} | {b_wall:.2f} |"
                f" {a_wall:.2f} | {'yes' if same else 'NO'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
