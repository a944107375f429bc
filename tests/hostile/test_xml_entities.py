"""XML entity attacks through the command line: billion laughs, quadratic blowup, external
entities (a local file, a FIFO) and DTDs or entities fetched from the network.

Each is refused at once with the DOCTYPE's line, in bounded memory; the child process opens
no file but its input and output, connects nowhere (audit hooks for Python, a loopback server
and a FIFO for what libxml2 would do from C), and --skip-invalid writes an empty result. A bare
DOCTYPE is harmless and read, and a long feed is read in flat memory.
"""

from __future__ import annotations

import errno
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import bibconv
from tests.hostile._support import ROOT, broken_input

FEED = (
    '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2101.00001v1</id>'
    "<title>{title}</title></entry></feed>\n"
)
REFUSED = "remove the DOCTYPE"
ENTITIES = (
    r"the DOCTYPE declares XML entities \({names}\); bibconv never expands entities"
    r" \(billion-laughs and external-entity attacks\): " + REFUSED
)


@pytest.fixture
def server() -> Iterator[tuple[str, list[str]]]:
    """A loopback HTTP server that records every request made to it."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = b'<!ENTITY leak "FETCHED-FROM-THE-NETWORK">'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    finally:
        httpd.shutdown()
        httpd.server_close()


def refused(tmp_path: Path, text: str, message: str) -> None:
    strict, lenient = broken_input(
        tmp_path, "hostile.atom", text.encode("utf-8"), rf"hostile\.atom:2: {message}", good=0, mib=150
    )
    for run in (strict, lenient):
        assert "lol" * 100 not in run.stderr
        assert run.stdout == b""


def test_billion_laughs(tmp_path: Path) -> None:
    entities = '  <!ENTITY lol0 "lol">\n' + "".join(
        f'  <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10)
    )
    text = f'<?xml version="1.0"?>\n<!DOCTYPE feed [\n{entities}]>\n' + FEED.format(title="&lol9;")
    refused(tmp_path, text, ENTITIES.format(names="lol0, lol1, lol2, lol3, lol4, …"))


def test_quadratic_blowup(tmp_path: Path) -> None:
    text = f'<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY big "{"A" * 100_000}">]>\n' + FEED.format(
        title="&big;" * 50_000
    )
    refused(tmp_path, text, ENTITIES.format(names="big"))


def test_external_entity_naming_a_local_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    text = f'<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY xxe SYSTEM "file://{secret}">]>\n' + FEED.format(
        title="&xxe;"
    )
    refused(tmp_path, text, ENTITIES.format(names="xxe"))
    assert "TOP-SECRET" not in (tmp_path / "out.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["general", "parameter"])
def test_external_entity_on_a_fifo_is_never_opened(tmp_path: Path, kind: str) -> None:
    """Opening a FIFO for reading blocks until a writer comes: a parser that tried would hang
    (the run has a timeout), and a reader still waiting would let a writer connect."""
    fifo = tmp_path / "entity.fifo"
    os.mkfifo(fifo)
    if kind == "general":
        doctype = f'<!DOCTYPE feed [<!ENTITY x SYSTEM "file://{fifo}">]>'
        body = FEED.format(title="&x;")
        message = ENTITIES.format(names="x")
    else:
        doctype = f'<!DOCTYPE feed [<!ENTITY % p SYSTEM "file://{fifo}"> %p;]>'
        body = FEED.format(title="t")
        message = ENTITIES.format(names="p")
    refused(tmp_path, f'<?xml version="1.0"?>\n{doctype}\n{body}', message)
    with pytest.raises(OSError, match="No such device or address") as nobody:
        os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    assert nobody.value.errno == errno.ENXIO


def test_external_dtd_from_the_network(tmp_path: Path, server: tuple[str, list[str]]) -> None:
    base, hits = server
    text = f'<?xml version="1.0"?>\n<!DOCTYPE feed SYSTEM "{base}/evil.dtd">\n' + FEED.format(title="&leak;")
    refused(
        tmp_path,
        text,
        rf"the DOCTYPE names an external DTD \({base}/evil\.dtd\); bibconv never loads DTDs \(they can"
        rf" read local files or the network\): {REFUSED}",
    )
    assert hits == []


def test_external_parameter_entity_from_the_network(tmp_path: Path, server: tuple[str, list[str]]) -> None:
    base, hits = server
    text = (
        f'<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY % remote SYSTEM "{base}/p.dtd"> %remote;]>\n'
        + FEED.format(title="&leak;")
    )
    refused(tmp_path, text, ENTITIES.format(names="remote"))
    assert hits == []


def test_a_bare_doctype_is_harmless_and_allowed() -> None:
    text = '<?xml version="1.0"?>\n<!DOCTYPE feed>\n' + FEED.format(title="A title")
    (record,) = bibconv.read(text, "atom")
    assert record.title == "A title"


def test_memory_stays_flat_on_a_long_feed() -> None:
    """30 MB of entries streamed from a generator: peak memory must not follow the feed's size."""
    script = """
import resource, sys
from bibconv.formats.atom import AtomReader
from bibconv.registry import ReadContext
HEAD = b'<feed xmlns="http://www.w3.org/2005/Atom">'
def entry(i):
    return (f'<entry><id>http://arxiv.org/abs/2101.{i:05d}v1</id><title>Paper {i}</title>'
            f'<published>2021-01-01T00:00:00Z</published><author><name>Ada Lovelace</name></author>'
            f'<content>{"x" * 10000}</content></entry>').encode()
class Source:
    def __init__(self, n):
        self.n, self.i, self.buf = n, 0, HEAD
    def read(self, size=-1):
        while len(self.buf) < size and self.i <= self.n:
            self.buf += entry(self.i) if self.i < self.n else b"</feed>"
            self.i += 1
        out, self.buf = self.buf[:size], self.buf[size:]
        return out
list(AtomReader().read(Source(10), ReadContext()))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
count = sum(1 for _ in AtomReader().read(Source(3000), ReadContext()))
print(count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    count, kib = map(int, out.stdout.split())
    assert count == 3000
    assert kib < 12 * 1024  # the feed is 30 MB; a kept tree would hold all of it
