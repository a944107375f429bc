"""A short, bounded fuzz pass for CI: every reader on the fixtures, on mutated fixtures and on
random bytes, through the same one-input functions the atheris harnesses in tests/fuzz/ run
for minutes. The only exception that may escape a reader is ``BibconvError``; every record
read must come out of the CSL-JSON writer as valid JSON.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import _harness

READERS = sorted(_harness.SEEDS)
REGRESSIONS = Path(__file__).resolve().parents[1] / "fuzz" / "regressions"
SEED_BYTES = 1 << 16  # what the long runs feed too (-max_len=65536)

# Bytes that matter to some format: delimiters, quotes, markup, encodings' special bytes.
TOKENS = [
    b"{",
    b"}",
    b'"',
    b",",
    b"[",
    b"]",
    b"<",
    b">",
    b"&",
    b"#",
    b"%",
    b"@",
    b"\\",
    b"=",
    b"\n",
    b"\r",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xe9",
    b"\xef\xbb\xbf",
    b"\xfe\xff",
    b"@string{",
    b"@preamble{",
    b"@comment{",
    b"crossref = ",
    b"TY  - ",
    b"ER  - ",
    b"AU  - ",
    b"<entry>",
    b"</entry>",
    b"<![CDATA[",
    b"]]>",
    b"<!--",
    b"-->",
    b"<!DOCTYPE x [<!ENTITY a 'b'>]>",
    b"&amp;",
    b"&#0;",
    b"<script>",
    b"</script>",
    b"<?d>",
    b'<meta name="citation_title" content="',
    b'"author": ',
    b'"custom": ',
    b'"issued": {"date-parts": [[',
    b"\\u0000",
    b"\\ud800",
    b"$",
    b"^",
    b"\xe2\x80\xa2 ",
]


def _module(reader: str) -> object:
    return importlib.import_module(f"tests.fuzz.fuzz_{reader.replace('-', '_')}")


def _seeds(reader: str) -> list[bytes]:
    return [path.read_bytes()[:SEED_BYTES] for path in _harness.seed_files(reader)]


@pytest.mark.parametrize("reader", READERS)
def test_every_harness_reads_its_fixture_corpus(reader: str) -> None:
    one_input = _module(reader).one_input  # type: ignore[attr-defined]
    seeds = _seeds(reader)
    assert seeds, f"no fixtures for {reader}"
    assert sum(one_input(seed) for seed in seeds) > 0


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A window of a fixture with a few random edits (flips, inserted tokens, cuts, repeats)."""
    seed = draw(st.sampled_from(seeds))
    start = draw(st.integers(0, max(len(seed) - 1, 0)))
    data = bytearray(seed[start : start + draw(st.integers(0, 4096))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["token", "flip", "cut", "repeat", "truncate"]))
        if op == "token":
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif op == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 32))] * draw(st.integers(2, 50))
        elif op == "truncate":
            del data[at:]
    return bytes(data)


@pytest.mark.parametrize("reader", READERS)
def test_mutated_fixtures_raise_nothing_but_bibconv_errors(reader: str) -> None:
    one_input = _module(reader).one_input  # type: ignore[attr-defined]
    seeds = _seeds(reader)

    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.one_of(mutated(seeds), st.binary(max_size=512)))
    def check(data: bytes) -> None:
        one_input(data)

    check()


@pytest.mark.parametrize(
    "path",
    sorted(p for p in REGRESSIONS.rglob("*") if p.is_file()),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_inputs_the_long_runs_found_stay_fixed(path: Path) -> None:
    """Each file under tests/fuzz/regressions/<reader>/ once made that reader raise."""
    _module(path.parent.name).one_input(path.read_bytes())  # type: ignore[attr-defined]
