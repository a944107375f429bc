"""Instructions a writer takes per record, counted by ``valgrind --tool=callgrind``.

Run ``python benchmarks/write_instructions.py [--code DIR ...] [--writer W ...] [--input NAME ...]``
(each ``DIR`` a checkout holding ``bibconv/``, default: this one; writers: bibtex and biblatex; inputs:
:data:`INPUTS`). Instruction counts move by well under 1 % from run to run where CPU times on a
shared machine move by a third.

The inputs are the many-tiny-records cases of ``adversarial.py`` and ``equal-ids.bib`` at 100 KB
(``tiny.txt``: some 8,000 one-word text-listing entries). Each is read once, then written: a
count is the difference between a process that writes its records and one that only reads them
(and writes the first 200, which loads the writer), divided by the records written. Compile the
checkouts' bytecode first (``python -m compileall -q DIR/bibconv``), or each run counts the
compiling of every module.
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

INPUTS = ("tiny.txt", "tiny.bib", "tiny.ris", "tiny.jsonl", "equal-ids.bib")
SIZE = 100_000
_WARM = 200
_WRITE = (
    "import sys, bibconv\n"
    "path, reader, writer, go = sys.argv[1:]\n"
    "records = bibconv.read(open(path, 'rb').read(), reader, strict=False)\n"
    f"bibconv.write(records[:{_WARM}], writer)\n"
    "if go == '1':\n"
    f"    bibconv.write(records[{_WARM}:], writer)\n"
    "print(len(records))\n"
)


def instructions(code: Path, script: Path, args: list[str]) -> tuple[int, int]:
    """The instructions of one process running ``script`` with the bibconv of ``code``, and the
    number it prints (the records read)."""
    with tempfile.NamedTemporaryFile(suffix=".out") as out:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}"]
        command += [os.path.realpath(sys.executable), str(script), *args]
        env = {**os.environ, "PYTHONPATH": str(code), "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return int(re.findall(r"Collected : (\d+)", done.stderr)[-1]), int(done.stdout.split()[-1])


def per_record(code: Path, script: Path, path: Path, reader: str, writer: str) -> float:
    """Instructions per record ``writer`` takes for the records of ``path``."""
    base, _ = instructions(code, script, [str(path), reader, writer, "0"])
    total, records = instructions(code, script, [str(path), reader, writer, "1"])
    return (total - base) / (records - _WARM)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, action="append", help="a checkout to count (repeatable)")
    parser.add_argument("--writer", action="append", help="a writer to count (repeatable)")
    parser.add_argument("--input", action="append", choices=INPUTS, help="an input to count (repeatable)")
    args = parser.parse_args()
    codes = args.code or [HERE.parent]
    writers = args.writer or ["bibtex", "biblatex"]
    cases = {case.name: case for case in adversarial.CASES}
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "write.py"
        script.write_text(_WRITE, encoding="utf-8")
        print("| input | writer | " + " | ".join(str(c) for c in codes) + " |")
        print("|---|---|" + "---:|" * len(codes))
        for name in args.input or INPUTS:
            path = Path(tmp) / name
            path.write_bytes(cases[name].build(SIZE))
            for writer in writers:
                counts = [per_record(code, script, path, cases[name].reader, writer) for code in codes]
                print(f"| {name} | {writer} | " + " | ".join(f"{n:,.0f}" for n in counts) + " |", flush=True)


if __name__ == "__main__":
    main()
