"""Records for arXiv identifiers, from the arXiv API (``bibconv fetch``).

>>> normalize_id("https://arxiv.org/pdf/2604.12345v2.pdf")
'2604.12345v2'
>>> normalize_id("arXiv:hep-th/9901001")
'hep-th/9901001'

:func:`fetch` takes identifiers in any common spelling (``2604.12345``, ``2604.12345v2``,
``arXiv:…``, old-style ``hep-th/9901001`` and ``math.GT/0309136``, abs/pdf URLs, arXiv DOIs),
checks them all before the first request, drops duplicates (keeping the first), and asks the API
for them in batches (``id_list``, at most 100 per request). It keeps arXiv's rate limit (one
request every ``delay`` seconds, 3 by default), retries what may pass (5xx and 429 answers,
timeouts, dropped connections) with a growing pause, at most ``max_wait`` seconds of pauses in
all, and fails at once on what will not (a refused connection, a host name that does not
resolve, no route to the host). It identifies itself with a descriptive User-Agent.
arXiv's error answer becomes a :class:`~bibconv.errors.RemoteError` naming the request and
arXiv's message; an identifier arXiv has no record for is reported, not silently dropped.

The API address comes from ``base_url``, else the ``BIBCONV_ARXIV_API`` environment variable, else
``https://export.arxiv.org/api/query``.
"""

from __future__ import annotations

import errno
import io
import os
import re
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from http.client import HTTPException
from typing import Any

from bibconv import __version__
from bibconv.arxiv import ARXIV_ID
from bibconv.errors import Diagnostic, ParseError, ReadError, RemoteError
from bibconv.model import Record, SourceSpan
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = [
    "DEFAULT_BASE_URL",
    "ENV_BASE_URL",
    "USER_AGENT",
    "fetch",
    "is_web_address",
    "normalize_id",
    "read_id_list",
]

DEFAULT_BASE_URL = "https://export.arxiv.org/api/query"
ENV_BASE_URL = "BIBCONV_ARXIV_API"
USER_AGENT = f"bibconv/{__version__} (bibliographic converter; +https://pypi.org/project/bibconv/)"
"""Sent with every request; reference managers should pass their own, with a contact address."""
MAX_BATCH = 100
MAX_PAUSE = 60.0
MAX_WAIT = 120.0
"""Seconds of pauses between the attempts of one request, at most, before giving up."""

_INPUT_RE = lazy(
    r"^(?:(?i:arxiv)\s*:\s*"
    r"|(?i:(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html|format)/)"
    r"|(?i:(?:https?://)?(?:dx\.)?doi\.org/)?(?i:10\.48550/arxiv\.))?"
    + ARXIV_ID.pattern
    + r"(?:\.pdf)?/?(?:[?#]\S*)?$"
)
_SEPARATORS_RE = lazy(r"[\s,;]+")


def normalize_id(text: str) -> str:
    """The identifier (with its version, if given) that ``text`` names; ``ValueError`` if none.

    >>> normalize_id("2604.12345"), normalize_id("math.GT/0309136v1")
    ('2604.12345', 'math.GT/0309136v1')
    """
    match = _INPUT_RE.match(text.strip())
    if not match:
        raise ValueError(f"not an arXiv identifier or URL: {text.strip()!r}")
    ident, version = match["id"], match["version"]
    if "/" not in ident:
        yymm, number = ident.split(".")
        month = int(yymm[2:])
        if not 1 <= month <= 12 or yymm < "0704" or len(number) != (5 if yymm >= "1501" else 4):
            raise ValueError(f"not an arXiv identifier: {text.strip()!r} (no such YYMM.NNNNN form)")
    return f"{ident}v{int(version)}" if version else ident


def read_id_list(text: str) -> list[str]:
    """Identifiers from a list: separated by spaces, commas or line breaks; ``#`` starts a comment."""
    words: list[str] = []
    for line in text.splitlines():
        words += [w for w in _SEPARATORS_RE.split(line.split("#", 1)[0]) if w]
    return words


class _FetchContext(ReadContext):
    """Reads one API answer: arXiv's error answer always raises, other errors follow ``strict``."""

    def fail(self, error: ReadError) -> None:
        if isinstance(error, RemoteError):
            raise error
        super().fail(error)


def _lasting_failure(exc: BaseException) -> str | None:
    """Why ``exc`` will not go away by asking again (a refused connection, a name that does not
    resolve, no route to the host), or ``None`` for a failure worth a retry (a timeout)."""
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, socket.gaierror):
        return f"the host name does not resolve ({reason.strerror or reason})"
    if isinstance(reason, ConnectionRefusedError):
        return "the connection was refused"
    if isinstance(reason, OSError) and reason.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return "there is no route to the host"
    if isinstance(reason, ssl.SSLCertVerificationError):
        return f"the server's certificate is not valid ({reason.verify_message})"
    return None


class _Client:
    """HTTP with arXiv's manners: paced requests, retries with back-off, a User-Agent.

    Only what may pass is retried: a timeout, a dropped connection, a 5xx or 429 answer. The
    pauses between attempts grow from ``delay`` and add up to at most ``max_wait`` seconds;
    ``notify`` is told of each retry (what failed, the pause, the wait left).
    """

    def __init__(
        self,
        delay: float,
        retries: int,
        user_agent: str,
        timeout: float,
        max_wait: float = MAX_WAIT,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.delay = max(delay, 0.0)
        self.retries = max(retries, 0)
        self.user_agent = user_agent
        self.timeout = timeout
        self.max_wait = max(max_wait, 0.0)
        self.notify = notify
        self._last: float | None = None

    def _pace(self, pause: float) -> None:
        if self._last is not None:
            wait = self._last + pause - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        self._last = time.monotonic()

    def get(self, url: str) -> tuple[int, bytes]:
        """``(status, body)``; error statuses that carry a body are returned, not raised."""
        # The scheme is checked in fetch(): http or https only.
        request = urllib.request.Request(url, headers={"User-Agent": self.user_agent})  # noqa: S310
        pause, waited, attempt = self.delay, 0.0, 0
        while True:
            self._pace(pause)
            attempt += 1
            retry_after = 0.0
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                    return response.status, response.read()
            except urllib.error.HTTPError as exc:
                if exc.code < 500 and exc.code != 429:
                    return exc.code, exc.read()
                failure = f"HTTP {exc.code} {exc.reason}"
                header = exc.headers.get("Retry-After", "") if exc.headers else ""
                retry_after = float(header) if header.isdigit() else 0.0
            except (urllib.error.URLError, TimeoutError, ConnectionError, HTTPException, OSError) as exc:
                lasting = _lasting_failure(exc)
                if lasting is not None:
                    raise RemoteError(f"cannot reach the arXiv API: {lasting}", SourceSpan(url)) from None
                reason = getattr(exc, "reason", exc)
                failure = str(reason) or type(reason).__name__
            pause = min(max(self.delay * 2**attempt, retry_after), MAX_PAUSE)
            if attempt > self.retries or waited + pause > self.max_wait:
                break
            waited += pause
            if self.notify is not None:
                self.notify(
                    f"the arXiv API did not answer ({failure}); retrying in {_seconds(pause)}"
                    f" (attempt {attempt + 1} of {self.retries + 1},"
                    f" {_seconds(self.max_wait)} of waiting at most)"
                )
        raise RemoteError(
            f"the arXiv API did not answer ({failure}) after {attempt} attempt{'s' if attempt > 1 else ''}"
            f" and {_seconds(waited)} of waiting",
            SourceSpan(url),
        )


def _seconds(value: float) -> str:
    """``value`` seconds, as a person reads them: ``0.2 s``, ``42 s``."""
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


def is_web_address(url: str) -> bool:
    """Whether ``url`` is a well-formed ``http`` or ``https`` address."""
    try:
        return urllib.parse.urlsplit(url).scheme in ("http", "https")
    except ValueError:  # an unclosed "[" in its host, say
        return False


def _query_url(base_url: str, batch: list[str]) -> str:
    query = urllib.parse.urlencode({"id_list": ",".join(batch), "max_results": len(batch)}, safe=",/")
    return f"{base_url}{'&' if '?' in base_url else '?'}{query}"


def _unique_ids(ids: Iterable[str], strict: bool, diagnostics: list[Diagnostic]) -> list[str]:
    seen: dict[str, None] = {}
    for index, text in enumerate(ids):
        if not text or not text.strip():
            continue
        try:
            seen.setdefault(normalize_id(text))
        except ValueError as exc:
            error = ParseError(str(exc), SourceSpan("<ids>", index=index + 1))
            if strict:
                raise error from None
            diagnostics.append(Diagnostic(error.message, error.span, None, "error"))
    return list(seen)


def fetch(
    ids: Iterable[str],
    *,
    base_url: str | None = None,
    delay: float = 3.0,
    retries: int = 3,
    batch_size: int = MAX_BATCH,
    user_agent: str = USER_AGENT,
    timeout: float = 30.0,
    max_wait: float = MAX_WAIT,
    notify: Callable[[str], None] | None = None,
    arxiv_date: str = "v1",
    strict: bool = True,
    diagnostics: list[Diagnostic] | None = None,
) -> Iterator[Record]:
    """Yield the records of arXiv identifiers, fetched from the arXiv API (see the module docstring).

    In strict mode (the default) the first bad identifier, an error answer, or an identifier arXiv
    does not know raises a :class:`~bibconv.errors.ReadError`; with ``strict=False`` they are
    reported in ``diagnostics`` and the rest is fetched (a batch arXiv refuses is then asked for one
    identifier at a time). ``arxiv_date`` is the reader option (``"v1"`` or ``"version"``);
    ``notify`` is told of each retry and the wait it costs.
    """
    if not 1 <= batch_size <= MAX_BATCH:
        raise ValueError(f"batch_size must be between 1 and {MAX_BATCH}")
    notes: list[Diagnostic] = diagnostics if diagnostics is not None else []
    wanted = _unique_ids(ids, strict, notes)
    base = base_url or os.environ.get(ENV_BASE_URL) or DEFAULT_BASE_URL
    if not is_web_address(base):
        raise ValueError(f"the arXiv API address must be an http(s) URL, not {base!r}")
    client = _Client(delay, retries, user_agent, timeout, max_wait, notify)
    options = {"arxiv_date": arxiv_date}
    pending = [wanted[i : i + batch_size] for i in range(0, len(wanted), batch_size)]
    while pending:
        batch = pending.pop(0)
        url = _query_url(base, batch)
        status, body = client.get(url)
        try:
            records = _read_answer(body, url, status, strict, notes, options)
        except RemoteError as exc:
            if strict or len(batch) == 1:
                error = _named(exc, batch)
                if strict:
                    raise error from None
                notes.append(Diagnostic(error.message, error.span, error.record_id, "error"))
                continue
            pending[:0] = [[one] for one in batch]
            continue
        found = set()
        for record in records:
            assert record.arxiv is not None
            found.add(record.arxiv.id)
            yield record
        for ident in batch:
            if _base(ident) not in found:
                error = RemoteError(f"arXiv has no record for {ident}", SourceSpan(url), ident)
                if strict:
                    raise error
                notes.append(Diagnostic(error.message, error.span, ident, "error"))


def _base(ident: str) -> str:
    return re.sub(r"v\d+$", "", ident)


def _read_answer(
    body: bytes, url: str, status: int, strict: bool, notes: list[Diagnostic], options: dict[str, Any]
) -> list[Record]:
    """The records of one API answer (a batch is at most 100 entries, so a list is fine)."""
    from bibconv.formats.atom import AtomReader

    ctx = _FetchContext(filename=url, strict=strict, options=options, diagnostics=notes)
    try:
        records = list(AtomReader().read(io.BytesIO(body), ctx))
    except ParseError as exc:
        if status >= 400:
            raise RemoteError(f"the arXiv API answered HTTP {status}", SourceSpan(url)) from None
        raise exc from None
    if status >= 400:
        raise RemoteError(f"the arXiv API answered HTTP {status} without an error message", SourceSpan(url))
    return records


def _named(error: RemoteError, batch: list[str]) -> RemoteError:
    """arXiv's error, naming the identifier it is about (or the whole request)."""
    message = error.message
    culprit = next((i for i in batch if i.lower() in message.lower()), None)
    if culprit is None and len(batch) == 1:
        culprit = batch[0]
    where = f"for {culprit}" if culprit else f"for the request of {', '.join(batch)}"
    return RemoteError(f"{message} ({where})", error.span, culprit)
