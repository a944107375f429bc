"""``bibconv.iter_records`` reads what a caller holds: HTTP responses, file objects, lines; lazily."""

from __future__ import annotations

import http.client
import io
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.request import urlopen

import pytest

import bibconv
from tests.golden import sample
from tests.tools import shared_location

ATOM = sample("atom/arxivpy2026_id_list_0808.05394_1707.08567.xml")
RIS = sample("ris/commonmeta_crossref.ris")
BIB = sample("bibtex/xampl.bib")
SEED = sample("text/seed-listing.txt")


class _Socket:
    """What http.client.HTTPResponse reads from: a socket's ``makefile``."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(io.BytesIO(self.raw))  # type: ignore[arg-type]


def _response(body: bytes, chunked: bool) -> http.client.HTTPResponse:
    if chunked:
        pieces = [body[i : i + 1000] for i in range(0, len(body), 1000)]
        payload = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"
        head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    else:
        payload = body
        head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
    response = http.client.HTTPResponse(_Socket(head + payload))  # type: ignore[arg-type]
    response.begin()
    return response


@pytest.mark.shared
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_an_http_response_body(chunked: bool) -> None:
    response = _response(ATOM.read_bytes(), chunked)
    records = list(bibconv.iter_records(response))
    assert records == bibconv.read(ATOM)
    assert [r.arxiv.id for r in records if r.arxiv] == ["1707.08567"]  # 0808.05394 is no arXiv id


@pytest.fixture
def server() -> Iterator[str]:
    handler = partial(SimpleHTTPRequestHandler, directory=str(shared_location()))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.shared
@pytest.mark.parametrize("path", [ATOM, RIS, BIB, SEED], ids=lambda p: p.name)
def test_urlopen_responses(server: str, path: Path) -> None:
    """A real HTTP response: the format is sniffed from the content (a URL response has no file name)."""
    url = f"{server}/{path.relative_to(shared_location()).as_posix()}"
    with urlopen(url) as response:
        records = list(bibconv.iter_records(response))
    assert records == bibconv.read(path)


@pytest.mark.shared
@pytest.mark.parametrize(
    "make",
    [
        lambda p: iter(p.read_text(encoding="utf-8").splitlines(keepends=True)),
        lambda p: iter(p.read_bytes().splitlines(keepends=True)),
        lambda p: p.read_text(encoding="utf-8").splitlines(keepends=True),  # a list is an iterable too
        lambda p: io.StringIO(p.read_text(encoding="utf-8")),
        lambda p: io.BytesIO(p.read_bytes()),
        lambda p: open(p, encoding="utf-8"),  # noqa: SIM115 - iter_records reads it; the test closes it
        lambda p: open(p, "rb"),  # noqa: SIM115
    ],
    ids=["str-lines", "byte-lines", "list", "text-io", "bytes-io", "text-file", "binary-file"],
)
@pytest.mark.parametrize("path", [RIS, BIB, SEED], ids=lambda p: p.name)
def test_lines_and_file_objects(make, path: Path) -> None:  # type: ignore[no-untyped-def]
    source = make(path)
    try:
        assert list(bibconv.iter_records(source, "text" if path == SEED else None)) == bibconv.read(path)
    finally:
        if hasattr(source, "close"):
            source.close()


@pytest.mark.shared
def test_records_come_before_the_input_ends() -> None:
    """Lines are pulled as records are needed: the first record needs only the start of the input."""
    text = RIS.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True) * 2000  # several megabytes
    pulled = 0

    def source() -> Iterator[str]:
        nonlocal pulled
        for line in lines:
            pulled += len(line)
            yield line

    records = bibconv.iter_records(source(), "ris")
    first = next(records)
    assert first == bibconv.read(RIS)[0]
    assert pulled < 256 * 1024 < len(text) * 2000 // 4
    assert sum(1 for _ in records) + 1 == 2000 * len(bibconv.read(RIS))
    assert pulled == len(text) * 2000
