"""Fuzz the csljson reader: `python tests/fuzz/fuzz_csljson.py -max_total_time=600`."""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz._harness import main
from tests.fuzz._harness import one_input as _one_input

READER = "csljson"


def one_input(data: bytes) -> int:
    """Read ``data`` as csljson; only BibconvError may escape."""
    return _one_input(READER, data)


if __name__ == "__main__":
    main(READER)
