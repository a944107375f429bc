"""A multi-gigabyte text node, streamed and never built in memory.

The input is a generator that would yield 4 GiB of one text node. libxml2's limit (lxml's
``huge_tree=False``: 10,000,000 characters in one node) stops the parse after about 10 MB
with a message naming the place; memory stays bounded, and the generator is not drained.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import ParseError
from tests.hostile._support import assert_confined, assert_memory, run_cli

CHUNK = b"A" * (1 << 20)
HEAD = (
    b'<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
    b"<entry><id>http://arxiv.org/abs/2101.00001v1</id><title>First</title></entry>\n"
    b"<entry><id>http://arxiv.org/abs/2101.00002v1</id><title>Huge</title><summary>"
)
MESSAGE = "not well-formed XML: Resource limit exceeded: Text node too long, try XML_PARSE_HUGE"


class Feed:
    """4 GiB of feed, made one chunk at a time; counts what was taken."""

    def __init__(self, gib: int = 4) -> None:
        self.chunks = gib * 1024
        self.sent = 0

    def __iter__(self) -> Iterator[bytes]:
        yield HEAD
        for _ in range(self.chunks):
            self.sent += len(CHUNK)
            yield CHUNK
        yield b"</summary></entry></feed>\n"


def test_library_stops_early_in_bounded_memory() -> None:
    feed = Feed()
    records = []
    tracemalloc.start()
    try:
        with pytest.raises(ParseError) as caught:
            records.extend(bibconv.iter_records(iter(feed), "atom", filename="feed.xml"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [r.title for r in records] == ["First"]
    assert str(caught.value).startswith("feed.xml:4:")
    assert MESSAGE in str(caught.value)
    assert feed.sent < 64 << 20  # stopped after about 10 MB of the 4 GiB
    assert peak < 64 << 20, f"peak {peak >> 20} MiB of Python objects"


def test_command_line_on_a_4gib_stream(tmp_path: Path) -> None:
    feed = Feed()
    out = tmp_path / "out.json"
    run = run_cli(["convert", "-", "-f", "atom", "-t", "csljson", "-o", out.name], tmp_path, stdin=iter(feed))
    assert run.returncode == 1, run.stderr
    first = run.stderr.splitlines()[0]
    assert first.startswith("<stdin>:4:"), first
    assert MESSAGE in first
    assert not out.exists()
    assert feed.sent < 256 << 20
    assert_confined(run, [], [out])
    assert_memory(run, 200)

    feed = Feed()
    run = run_cli(
        ["convert", "-", "-f", "atom", "-t", "csljson", "-o", out.name, "--skip-invalid"],
        tmp_path,
        stdin=iter(feed),
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines()[-1] == "bibconv: 1 record was skipped"
    assert '"title": "First"' in out.read_text(encoding="utf-8")
    assert_memory(run, 200)
