"""`bibconv fetch` against a local arXiv API serving the answers recorded in corpus/atom-api/ (shared)."""

from __future__ import annotations

import errno
import http.server
import itertools
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

import bibconv
from bibconv.cli import main
from bibconv.errors import Diagnostic, ParseError, RemoteError
from bibconv.fetch import USER_AGENT, fetch, normalize_id, read_id_list
from tests.golden import samples, shared_folder
from tests.tools import SHARED_MISSING

ATOM = shared_folder("atom")
if not ATOM.is_dir():  # the recorded answers are real-world samples
    pytest.skip(SHARED_MISSING, allow_module_level=True)
ENTRY_RE = re.compile(r"\n  <entry>.*?</entry>\n", re.DOTALL)
ENTRY_ID_RE = re.compile(r"<id>https?://arxiv\.org/abs/(\S+?)</id>")
# The real 2026 answer for an unknown id: the frame into which recorded entries are put.
EMPTY = (ATOM / "arxivpy2026_empty_id_0000.0000.xml").read_text(encoding="utf-8")
ERROR = json.loads((ATOM / "arxivpy2026_error_id_abc.recording.json").read_text(encoding="utf-8"))


def _entries() -> dict[str, str]:
    """Every recorded entry by versioned and by bare id."""
    entries: dict[str, str] = {}
    for path in samples("atom", ".xml"):
        for text in ENTRY_RE.findall(path.read_text(encoding="utf-8")):
            match = ENTRY_ID_RE.search(text)
            if match and "/api/errors" not in text:
                versioned = match[1]
                entries.setdefault(versioned, text)
                entries.setdefault(re.sub(r"v\d+$", "", versioned), text)
    return entries


ENTRIES = _entries()


@dataclass
class Api:
    """What the local API was asked, and how it should misbehave."""

    url: str = ""
    requests: list[dict[str, object]] = field(default_factory=list)
    fail_first: int = 0
    slow_first: float = 0.0
    refuse: set[str] = field(default_factory=set)


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test here touches the internet: only 127.0.0.1 can be reached."""
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> None:
        if not (isinstance(address, tuple) and address[0] == "127.0.0.1"):
            raise AssertionError(f"network access to {address!r}")
        connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture
def api() -> Iterator[Api]:
    state = Api()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            ids = query.get("id_list", [""])[0].split(",")
            state.requests.append(
                {"ids": ids, "query": query, "agent": self.headers["User-Agent"], "at": time.monotonic()}
            )
            if len(state.requests) == 1 and state.slow_first:
                time.sleep(state.slow_first)
            if len(state.requests) <= state.fail_first:
                self.answer(503, b"Service Unavailable")
            elif state.refuse & set(ids):
                self.answer(ERROR["status_code"], ERROR["body"].encode("latin-1"))
            else:
                found = [ENTRIES[i] for i in ids if i in ENTRIES]
                self.answer(200, EMPTY.replace("</feed>", "".join(found) + "</feed>").encode("utf-8"))

        def answer(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/atom+xml; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            pass  # a client that timed out and left: expected in the timeout test

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/api/query"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


IDS = [
    "1111.2011v2",
    "arXiv:astro-ph/0601001",
    "https://arxiv.org/abs/2104.12255v1",
    "http://export.arxiv.org/abs/quant-ph/0201082v1",
    "https://arxiv.org/pdf/1710.08557.pdf",
    "math/0211159",
    "10.48550/arXiv.math/9501234",
    "astro-ph/9812133",
    "1601.00001",
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2604.12345", "2604.12345"),
        ("2604.12345v2", "2604.12345v2"),
        ("arXiv:2604.12345v12", "2604.12345v12"),
        ("  ARXIV: 0704.0001 ", "0704.0001"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("math.GT/0309136v1", "math.GT/0309136v1"),
        ("https://arxiv.org/abs/2604.12345", "2604.12345"),
        ("http://www.arxiv.org/pdf/2604.12345v3.pdf", "2604.12345v3"),
        ("arxiv.org/abs/hep-th/9901001v2/", "hep-th/9901001v2"),
        ("https://arxiv.org/abs/2604.12345?context=cs", "2604.12345"),
        ("https://doi.org/10.48550/arXiv.2604.12345", "2604.12345"),
    ],
)
def test_identifiers_are_normalized(text: str, expected: str) -> None:
    assert normalize_id(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "abc",
        "0000.0000",
        "0808.05394",
        "2613.12345",
        "2604.1234",
        "1412.12345",
        "2604.12345xyz",
        "hep-th/990100",
        "",
    ],
)
def test_non_identifiers_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not an arXiv identifier"):
        normalize_id(text)


def test_id_lists_allow_spaces_commas_lines_and_comments() -> None:
    text = "# my reading list\n2604.12345, 2604.12346\n\nhep-th/9901001  # the old one\n"
    assert read_id_list(text) == ["2604.12345", "2604.12346", "hep-th/9901001"]


def test_batches_keep_order_drop_duplicates_and_identify_themselves(api: Api) -> None:
    ids = [*IDS, "arXiv:1111.2011v2", "https://arxiv.org/abs/1601.00001"]
    records = list(fetch(ids, base_url=api.url, delay=0, batch_size=4))
    assert [r.arxiv.versioned_id for r in records if r.arxiv] == [
        "1111.2011v2",
        "astro-ph/0601001v1",
        "2104.12255v1",
        "quant-ph/0201082v1",
        "1710.08557v1",
        "math/0211159v1",
        "math/9501234v1",
        "astro-ph/9812133v1",
        "1601.00001v1",
    ]
    assert [r["ids"] for r in api.requests] == [
        ["1111.2011v2", "astro-ph/0601001", "2104.12255v1", "quant-ph/0201082v1"],
        ["1710.08557", "math/0211159", "math/9501234", "astro-ph/9812133"],
        ["1601.00001"],
    ]
    assert [r["query"]["max_results"] for r in api.requests] == [["4"], ["4"], ["1"]]  # type: ignore[index]
    assert {r["agent"] for r in api.requests} == {USER_AGENT}
    assert re.fullmatch(r"bibconv/\d+\.\d+\.\d+\S* \(.+\+https://\S+\)", USER_AGENT)
    # The records are the reader's, so they equal those of the recorded files.
    assert records[0] == bibconv.read(ATOM / "arxivpy2016_id_list_1111.2011v2.xml")[0]


def test_one_request_every_delay_seconds(api: Api) -> None:
    list(fetch(IDS[:3], base_url=api.url, delay=0.25, batch_size=1))
    times = [float(str(r["at"])) for r in api.requests]
    assert len(times) == 3
    assert all(later - earlier >= 0.2 for earlier, later in itertools.pairwise(times))


def test_a_503_is_retried(api: Api) -> None:
    api.fail_first = 2
    records = list(fetch(["1111.2011v2"], base_url=api.url, delay=0, retries=3))
    assert len(records) == 1
    assert len(api.requests) == 3


def test_a_timeout_is_retried(api: Api) -> None:
    api.slow_first = 0.6
    records = list(fetch(["1111.2011v2"], base_url=api.url, delay=0, timeout=0.2))
    assert len(records) == 1
    assert len(api.requests) == 2


def test_giving_up_after_the_retries_says_why(api: Api) -> None:
    api.fail_first = 10
    with pytest.raises(
        RemoteError, match=r"did not answer \(HTTP 503 Service Unavailable\) after 3 attempts"
    ):
        list(fetch(["1111.2011v2"], base_url=api.url, delay=0, retries=2))
    assert len(api.requests) == 3


def _closed_port() -> int:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_refused_connection_fails_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(RemoteError, match=r"cannot reach the arXiv API: the connection was refused"):
        list(
            fetch(
                ["1111.2011v2"], base_url=f"http://127.0.0.1:{_closed_port()}/api/query", delay=3, retries=3
            )
        )
    assert time.monotonic() - started < 2  # not 3 retries with 6 + 12 + 24 s of pauses


def test_a_host_name_that_does_not_resolve_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[object] = []

    def no_such_host(host: object, *args: object, **kwargs: object) -> object:
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    with pytest.raises(RemoteError, match=r"the host name does not resolve \(Name or service not known\)"):
        list(fetch(["1111.2011v2"], base_url="http://export.arxiv.invalid/api/query", delay=3, retries=3))
    assert asked == ["export.arxiv.invalid"]


def test_no_route_to_the_host_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def unreachable(self: socket.socket, address: object) -> None:
        raise OSError(errno.EHOSTUNREACH, "No route to host")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    with pytest.raises(RemoteError, match=r"there is no route to the host"):
        list(fetch(["1111.2011v2"], base_url="http://127.0.0.1:9/api/query", delay=3, retries=3))


def test_the_total_wait_is_bounded_and_each_retry_is_said(api: Api) -> None:
    api.fail_first = 10
    said: list[str] = []
    with pytest.raises(RemoteError, match=r"after 2 attempts and 0\.2 s of waiting"):
        list(fetch(["1111.2011v2"], base_url=api.url, delay=0.1, retries=9, max_wait=0.5, notify=said.append))
    assert len(api.requests) == 2  # pauses of 0.2 s, then 0.4 s: past the 0.5 s allowed
    assert said == [
        "the arXiv API did not answer (HTTP 503 Service Unavailable); retrying in 0.2 s"
        " (attempt 2 of 10, 0.5 s of waiting at most)"
    ]


def test_cli_says_each_retry_and_gives_up_within_max_wait(api: Api) -> None:
    api.fail_first = 10
    result = CliRunner().invoke(
        main,
        ["fetch", "1111.2011v2", "-t", "ris", "--base-url", api.url, "--delay", "0.1", "--max-wait", "0.3"],
    )
    assert result.exit_code == 1
    assert (
        "bibconv: the arXiv API did not answer (HTTP 503 Service Unavailable); retrying in 0.2 s"
        in result.stderr
    )
    assert "after 2 attempts and 0.2 s of waiting" in result.stderr
    assert result.stdout == ""


def test_the_error_answer_becomes_a_clear_error(api: Api) -> None:
    api.refuse = {"2104.12255v1"}
    with pytest.raises(RemoteError) as info:
        list(fetch(["1111.2011v2", "2104.12255v1"], base_url=api.url, delay=0))
    message = str(info.value)
    assert message.startswith(f"{api.url}?id_list=1111.2011v2,2104.12255v1&max_results=2:9: ")
    assert "arXiv API error: incorrect id format for abc" in message
    assert "(for the request of 1111.2011v2, 2104.12255v1)" in message


def test_lenient_fetch_isolates_the_identifier_arxiv_refuses(api: Api) -> None:
    api.refuse = {"2104.12255v1"}
    diagnostics: list[Diagnostic] = []
    records = list(
        fetch(
            ["1111.2011v2", "2104.12255v1"], base_url=api.url, delay=0, strict=False, diagnostics=diagnostics
        )
    )
    assert [r.arxiv.id for r in records if r.arxiv] == ["1111.2011"]
    assert [r["ids"] for r in api.requests] == [
        ["1111.2011v2", "2104.12255v1"],
        ["1111.2011v2"],
        ["2104.12255v1"],
    ]
    assert [(d.severity, d.record_id) for d in diagnostics] == [("error", "2104.12255v1")]
    assert "incorrect id format for abc (for 2104.12255v1)" in diagnostics[0].message


def test_an_unknown_identifier_is_reported_not_dropped(api: Api) -> None:
    with pytest.raises(RemoteError, match=r"arXiv has no record for 2604\.99999"):
        list(fetch(["1707.08567", "2604.99999"], base_url=api.url, delay=0))
    diagnostics: list[Diagnostic] = []
    records = list(
        fetch(["1707.08567", "2604.99999"], base_url=api.url, delay=0, strict=False, diagnostics=diagnostics)
    )
    assert len(records) == 1
    assert [d.record_id for d in diagnostics] == ["2604.99999"]


def test_bad_identifiers_fail_before_any_request(api: Api) -> None:
    with pytest.raises(ParseError, match=r"^<ids>:item 2: not an arXiv identifier or URL: 'abc'"):
        list(fetch(["1111.2011v2", "abc"], base_url=api.url, delay=0))
    assert api.requests == []


def test_the_base_url_comes_from_the_environment(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIBCONV_ARXIV_API", api.url)
    assert len(list(fetch(["1111.2011v2"], delay=0))) == 1
    assert len(api.requests) == 1


def test_cli_fetches_and_writes_any_format(api: Api, tmp_path: Path) -> None:
    ids_file = tmp_path / "ids.txt"
    ids_file.write_text("# two papers\nmath/0211159\n1601.00001 1111.2011v2\n", encoding="utf-8")
    out = tmp_path / "refs.json"
    result = CliRunner().invoke(
        main,
        ["fetch", "1111.2011v2", "-", "--from-file", str(ids_file), "-o", str(out), "--delay", "0"],
        input="astro-ph/0601001\n",
        env={"BIBCONV_ARXIV_API": api.url},
    )
    assert result.exit_code == 0, result.output
    items = json.loads(out.read_text(encoding="utf-8"))
    assert [i["number"] for i in items] == [
        "arXiv:1111.2011",
        "arXiv:astro-ph/0601001",
        "arXiv:math/0211159",
        "arXiv:1601.00001",
    ]
    assert [r["ids"] for r in api.requests] == [
        ["1111.2011v2", "astro-ph/0601001", "math/0211159", "1601.00001"]
    ]


def test_cli_options_batch_size_and_version_date(api: Api) -> None:
    result = CliRunner().invoke(
        main,
        [
            "fetch",
            *IDS[:3],
            "-t",
            "csljson",
            "--base-url",
            api.url,
            "--delay",
            "0",
            "--batch-size",
            "2",
            "--arxiv-date",
            "version",
        ],
    )
    assert result.exit_code == 0, result.output
    items = json.loads(result.output)
    # 1111.2011v2 is published (Phys. Rev. B 85, 115117): the journal's year, not an arXiv date
    assert items[0]["issued"] == {"date-parts": [[2012]]}
    assert len(api.requests) == 2


def test_cli_reports_the_error_answer_and_writes_nothing(api: Api, tmp_path: Path) -> None:
    api.refuse = {"1111.2011v2"}
    out = tmp_path / "refs.json"
    result = CliRunner().invoke(
        main, ["fetch", "1111.2011v2", "-o", str(out), "--base-url", api.url, "--delay", "0"]
    )
    assert result.exit_code == 1
    assert "arXiv API error: incorrect id format for abc (for 1111.2011v2)" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_cli_skip_invalid_goes_on_and_exits_1(api: Api) -> None:
    result = CliRunner().invoke(
        main,
        [
            "fetch",
            "abc",
            "1111.2011v2",
            "-t",
            "csljson",
            "--skip-invalid",
            "--base-url",
            api.url,
            "--delay",
            "0",
        ],
    )
    assert result.exit_code == 1
    assert "not an arXiv identifier or URL: 'abc'" in result.output
    assert '"arXiv:1111.2011"' in result.output
    assert "bibconv: 1 record was skipped" in result.output


def test_cli_usage_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["fetch", "-t", "csljson"]).exit_code == 2
    assert runner.invoke(main, ["fetch", "1111.2011v2"]).exit_code == 2  # no output format
    bad_url = runner.invoke(
        main, ["fetch", "1111.2011v2", "-t", "csljson", "--base-url", "file:///etc/passwd"]
    )
    assert bad_url.exit_code == 2
    assert "not an http(s) URL" in bad_url.output
    unclosed = runner.invoke(main, ["fetch", "1111.2011v2", "-t", "csljson", "--base-url", "http://[::1/api"])
    assert (unclosed.exit_code, unclosed.exception) == (2, None) or isinstance(unclosed.exception, SystemExit)
    assert "not an http(s) URL" in unclosed.output


def test_cli_writes_arxivs_own_bibtex_form(api: Api) -> None:
    result = CliRunner().invoke(
        main, ["fetch", "quant-ph/0201082v1", "-t", "bibtex", "--base-url", api.url, "--delay", "0"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("@misc{blaha2002quantum,\n")
    assert "eprint = {quant-ph/0201082}" in result.output
    assert "primaryClass = {quant-ph}" in result.output
