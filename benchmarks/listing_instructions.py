"""Instructions a read of a listing page takes, counted by ``valgrind --tool=callgrind``.

Run ``python benchmarks/listing_instructions.py [--code DIR ...]`` (each ``DIR`` a checkout holding
``bibconv/``; default: this one). CPU times on a shared machine move by a third from run to run;
instruction counts move by well under 1 %, so they can tell a change of a few percent.

The pages are the benchmark's (``bench_listing.py``) cut to 0.3 MB (the generic cards, the
citation homepage, the two-row table) and ``deep-tex.html`` of ``adversarial.py`` at 1 MB. Each
count is a whole process: the interpreter, bibconv's imports and a read of a small page first
(which loads the readers), then the page; the line ``(imports)`` is that process without the page,
to subtract. Compile the checkouts' bytecode first (``python -m compileall -q DIR/bibconv``), or
each run counts the compiling of every module.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import adversarial  # noqa: E402
import bench_listing  # noqa: E402

SLICES = {
    "generic cards (own page)": 300_000,
    "homepage of free-text citations": 300_000,
    "conference table, authors row above title row": 300_000,
}
_SMALL = (
    '<html><body><ul><li><a href="https://x.org/1">A study of things in the world</a>'
    " by Ann Lee and Bob Ray, 1 May 2021</li>"
    '<li><a href="https://x.org/2">Another study of other things</a> by Ann Lee, 2 June 2020</li>'
    "</ul></body></html>"
)
_READ = (
    "import sys, bibconv\n"
    f"bibconv.read({_SMALL!r}.encode(), 'html')\n"
    "if len(sys.argv) > 1:\n"
    "    bibconv.read(open(sys.argv[1], 'rb').read(), 'html')\n"
)


def pages(folder: Path) -> dict[str, Path]:
    """The pages counted, written into ``folder``."""
    made: dict[str, Path] = {}
    for name, size in SLICES.items():
        page, before, after = bench_listing.PAGES[name]
        if page.exists():
            text = bench_listing.inflate(
                page.read_text(encoding="utf-8", errors="replace"), before, after, size
            )
            made[name] = folder / f"{len(made)}.html"
            made[name].write_text(text, encoding="utf-8")
    case = next(c for c in adversarial.CASES if c.name == "deep-tex.html")
    made["deep-tex.html at 1 MB"] = folder / "deep-tex.html"
    made["deep-tex.html at 1 MB"].write_bytes(case.build(1_000_000))
    return made


def instructions(code: Path, page: Path | None, script: Path) -> int:
    """The instructions of one process reading ``page`` with the bibconv of ``code``."""
    with tempfile.NamedTemporaryFile(suffix=".out") as out:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}"]
        command += [os.path.realpath(sys.executable), str(script), *([str(page)] if page else [])]
        done = subprocess.run(
            command, env={**os.environ, "PYTHONPATH": str(code)}, capture_output=True, text=True, check=True
        )
    return int(re.findall(r"Collected : (\d+)", done.stderr)[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, action="append", help="a checkout to count (repeatable)")
    args = parser.parse_args()
    codes = args.code or [HERE.parent]
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "read.py"
        script.write_text(_READ, encoding="utf-8")
        rows = {"(imports)": None, **pages(Path(tmp))}
        print("| page | " + " | ".join(str(c) for c in codes) + " |")
        print("|---|" + "---:|" * len(codes))
        for name, page in rows.items():
            counts = [instructions(code, page, script) for code in codes]
            print(f"| {name} | " + " | ".join(f"{n / 1e9:.3f} G" for n in counts) + " |", flush=True)


if __name__ == "__main__":
    main()
