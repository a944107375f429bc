"""The garbage collector's thresholds within :func:`bibconv.collector.few_collections`, and in a
process forked within it (``--jobs``' workers are forked by a parent within the block)."""

from __future__ import annotations

import gc
import os
import sys

import pytest

from bibconv.collector import few_collections


def test_thresholds_are_raised_within_the_block_and_restored_after() -> None:
    before = gc.get_threshold()
    with few_collections():
        with few_collections():
            assert gc.get_threshold()[0] == max(before[0], 20_000)
        assert gc.get_threshold()[0] == max(before[0], 20_000)
    assert gc.get_threshold() == before


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="needs fork")
def test_a_process_forked_within_the_block_starts_with_the_thresholds_before_it() -> None:
    before = gc.get_threshold()
    read, write = os.pipe()
    with few_collections():
        child = os.fork()
        if child == 0:  # the child: its thresholds, then the ones a block of its own leaves
            with few_collections():
                pass
            os.write(write, repr((before, gc.get_threshold())).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        got = pipe.read()
    os.waitpid(child, 0)
    assert got == repr((before, before))
