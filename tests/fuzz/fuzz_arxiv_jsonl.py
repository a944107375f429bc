"""Fuzz the arxiv-jsonl reader: `python tests/fuzz/fuzz_arxiv_jsonl.py -max_total_time=600`."""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz._harness import main
from tests.fuzz._harness import one_input as _one_input

READER = "arxiv-jsonl"


def one_input(data: bytes) -> int:
    """Read ``data`` as arxiv-jsonl; only BibconvError may escape."""
    return _one_input(READER, data)


if __name__ == "__main__":
    main(READER)
