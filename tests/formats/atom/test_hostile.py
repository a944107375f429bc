"""Hostile XML: entity bombs, external entities and DTDs are refused fast, in bounded memory,
without opening files or the network."""

from __future__ import annotations

import errno
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import ParseError

ROOT = Path(__file__).resolve().parents[3]
FEED_BODY = (
    '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2101.00001v1</id>'
    "<title>&{name};</title></entry></feed>\n"
)
BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE feed [\n  <!ENTITY lol0 "lol">\n'
    + "".join(f'  <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10))
    + "]>\n"
    + FEED_BODY.format(name="lol9")
)
QUADRATIC = (
    '<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY big "'
    + "A" * 200_000
    + '">]>\n'
    + FEED_BODY.replace("&{name};", "&big;" * 20_000)
)
MEASURE = """
import json, resource, sys, time
import bibconv
from bibconv.errors import ParseError
data = open(sys.argv[1], "rb").read()
bibconv.read(b'<feed xmlns="http://www.w3.org/2005/Atom"/>', "atom")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    bibconv.read(data, "atom")
    message = None
except ParseError as exc:
    message = str(exc)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"kib": after - before, "seconds": time.perf_counter() - start, "message": message}))
"""


@pytest.fixture(autouse=True)
def no_python_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python-level guard: connecting anywhere but the test's own loopback server fails."""
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> None:
        if not (isinstance(address, tuple) and address[0] == "127.0.0.1"):
            raise AssertionError(f"network access to {address!r}")
        connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture
def dtd_server() -> Iterator[tuple[str, list[str]]]:
    """A loopback HTTP server that records every request (libxml2 would fetch from C, not Python)."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = b'<!ENTITY leak "fetched from the network">'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


def refuse(text: str, tmp_path: Path, line: int) -> ParseError:
    """Read ``text`` as a feed file: it must be refused within a second, at ``line``, with no record."""
    path = tmp_path / "hostile.xml"
    path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    records = []
    with pytest.raises(ParseError) as info:
        records.extend(bibconv.iter_records(path, "atom"))
    assert time.perf_counter() - start < 1.0
    assert records == []
    assert str(info.value).startswith(f"{path}:{line}: the DOCTYPE ")
    assert "remove the DOCTYPE" in str(info.value)
    return info.value


def measured(text: str, tmp_path: Path) -> dict[str, object]:
    """Peak memory growth and time of refusing ``text``, in a fresh process."""
    path = tmp_path / "measured.xml"
    path.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, object] = json.loads(out.stdout)
    kib, seconds, message = int(str(result["kib"])), float(str(result["seconds"])), str(result["message"])
    assert kib < 16 * 1024, result
    assert seconds < 1.0, result
    assert "the DOCTYPE" in message
    return result


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    error = refuse(BILLION_LAUGHS, tmp_path, line=2)
    assert "declares XML entities (lol0, lol1, lol2, lol3, lol4, …)" in error.message
    measured(BILLION_LAUGHS, tmp_path)


def test_quadratic_blowup_is_refused(tmp_path: Path) -> None:
    error = refuse(QUADRATIC, tmp_path, line=2)
    assert "declares XML entities (big)" in error.message
    measured(QUADRATIC, tmp_path)


def test_external_entity_never_reads_the_local_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    text = (
        f'<?xml version="1.0"?>\n\n<!DOCTYPE feed [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
        + FEED_BODY.format(name="xxe")
    )
    error = refuse(text, tmp_path, line=3)
    assert "declares XML entities (xxe)" in error.message
    assert "TOP-SECRET" not in str(error)
    measured(text, tmp_path)


@pytest.mark.parametrize("kind", ["general", "parameter"])
def test_external_entity_on_a_fifo_is_never_opened(tmp_path: Path, kind: str) -> None:
    """Opening a FIFO for reading blocks until a writer comes: a parser that opened it would hang,
    and while it waits a non-blocking writer could connect."""
    fifo = tmp_path / "entity.fifo"
    os.mkfifo(fifo)
    if kind == "general":
        doctype = f'<!DOCTYPE feed [<!ENTITY x SYSTEM "file://{fifo}">]>'
        body = FEED_BODY.format(name="x")
    else:
        doctype = f'<!DOCTYPE feed [<!ENTITY % p SYSTEM "file://{fifo}"> %p;]>'
        body = FEED_BODY.replace("&{name};", "t")
    errors: list[BaseException] = []

    def run() -> None:
        try:
            bibconv.read(f'<?xml version="1.0"?>\n{doctype}\n{body}'.encode(), "atom")
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(5)
    if thread.is_alive():  # unblock the parser before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the parser opened the external entity")
    with pytest.raises(OSError, match="No such device or address") as nobody:
        os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    assert nobody.value.errno == errno.ENXIO  # no reader ever had it open
    assert len(errors) == 1
    assert isinstance(errors[0], ParseError)
    assert "DOCTYPE" in str(errors[0])


def test_external_dtd_is_never_fetched(tmp_path: Path, dtd_server: tuple[str, list[str]]) -> None:
    base, hits = dtd_server
    text = f'<?xml version="1.0"?>\n<!DOCTYPE feed SYSTEM "{base}/evil.dtd">\n' + FEED_BODY.format(
        name="leak"
    )
    error = refuse(text, tmp_path, line=2)
    assert f"names an external DTD ({base}/evil.dtd)" in error.message
    measured(text, tmp_path)
    assert hits == []


def test_external_parameter_entity_is_never_fetched(
    tmp_path: Path, dtd_server: tuple[str, list[str]]
) -> None:
    base, hits = dtd_server
    text = (
        f'<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY % remote SYSTEM "{base}/p.dtd"> %remote;]>\n'
        + FEED_BODY.format(name="leak")
    )
    with pytest.raises(ParseError):
        bibconv.read(text, "atom")
    assert hits == []


def test_a_bare_doctype_is_harmless_and_allowed() -> None:
    text = '<?xml version="1.0"?>\n<!DOCTYPE feed>\n' + FEED_BODY.replace("&{name};", "A title")
    (record,) = bibconv.read(text, "atom")
    assert record.title == "A title"


def test_memory_stays_flat_on_a_long_feed(tmp_path: Path) -> None:
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
