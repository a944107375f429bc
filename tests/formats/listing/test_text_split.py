"""``--jobs`` on plain-text listings: the pieces read as the whole input does, whatever the number
of pieces (real listings, generated ones of every shape, the adversarial many-entries input)."""

from __future__ import annotations

import io
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

import bibconv
from bibconv import parallel
from bibconv.formats.listing.text_layout import Layout
from bibconv.formats.listing.text_split import split
from tests.golden import FIXTURES, sample

WRITERS = ("csljson", "ris", "bibtex", "biblatex")
REAL = [sample("text/seed-listing.txt"), *sorted((FIXTURES / "text" / "read").glob("*.txt"))]


def _serial(path: Path, target: str, strict: bool) -> tuple[str, list[str]]:
    reports: list[bibconv.Diagnostic] = []
    try:
        records = bibconv.iter_records(path, "text", strict=strict, diagnostics=reports)
        return bibconv.write(records, target, diagnostics=reports) or "", [str(r) for r in reports]
    except bibconv.ReadError as exc:
        return f"error: {exc}", []


def _in_pieces(path: Path, target: str, strict: bool, size: int) -> tuple[str, list[str]]:
    reports: list[bibconv.Diagnostic] = []
    out = io.StringIO(newline="")
    try:
        options = {"from_": "text", "strict": strict, "diagnostics": reports, "piece_size": size}
        cut = parallel.convert([str(path)], target, out, jobs=2, **options)
    except bibconv.ReadError as exc:
        return f"error: {exc}", []
    assert cut, f"{path.name} was not cut"
    return out.getvalue(), [str(r) for r in reports]


def _pieces(path: Path, size: int) -> list[parallel.Piece]:
    with path.open("rb") as handle:
        found = split(handle, size)
        assert found is not None
        return list(found)


def _same(path: Path, target: str, size: int, strict: bool = False) -> None:
    text, reports = _serial(path, target, strict)
    cut_text, cut_reports = _in_pieces(path, target, strict, size)
    assert cut_text == text, f"{path.name} -> {target} in pieces of {size} bytes"
    assert Counter(cut_reports) == Counter(reports)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
@pytest.mark.parametrize("target", WRITERS)
def test_real_listings_read_alike_in_pieces(path: Path, target: str) -> None:
    for size in (100, 700, 4000):
        assert len(_pieces(path, size)) > 1
        _same(path, target, size)


_LINES = [
    "• Title {n} on things",
    "  • Indented title {n}",
    "\t• Tabbed title {n}",
    "- Dashed title {n}",
    "{n}. Numbered title",
    "   {n}) Numbered title",
    "[{n}] Bracketed title",
    "  Ana Smith, Bo Li · 20 avril 2026",
    "Ana Smith (2025)",
    "Heading {n}",
    "   An abstract, cut short {n}…",
    "",
    "",
    "",
    "  arXiv:2604.12345v2",
    "\u00a0• After a no-break space {n}",
    "•\u00a0x{n}",
    "• Étude {n}",
    "\f",
    " \u3000 ",
    "• " + "\\'{{" * 80 + "deep",
    "2. ",
    "",
]


def _listing(rng: random.Random) -> bytes:
    """A listing of lines of a few kinds: entries marked several ways, bylines, headings, blanks."""
    kinds = rng.sample(_LINES, rng.randint(2, 8))
    lines = ["Page title", ""] * rng.randint(0, 1)
    lines += [rng.choice(kinds).format(n=n) for n in range(rng.randint(3, 60))]
    end = rng.choice(["\n", "\r\n"])
    return (rng.choice(["", "\ufeff"]) + end.join(lines) + rng.choice(["", end])).encode()


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_generated_listings_read_alike_in_pieces(tmp_path: Path, strict: bool) -> None:
    rng = random.Random(20)
    path = tmp_path / "listing.txt"
    cut = 0
    for _ in range(40):
        path.write_bytes(_listing(rng))
        with path.open("rb") as handle:
            found = split(handle, 30)
            if found is None:  # no entry at all
                continue
            cut += len(list(found)) > 1
        _same(path, "ris", rng.choice((30, 200)), strict)
    assert cut > 25


def test_the_layout_found_in_one_piece_reaches_the_later_ones(tmp_path: Path) -> None:
    # Entries under headings: which lines are headings is known from the first entry with text under
    # its title, and the pieces after it know too; entries with no text under them come first.
    parts = ["Reading list", ""] + [f"  • Untitled note {n}" for n in range(30)]
    parts += ["  • The first paper", "    Bo Li · 2 May 2024", ""]
    for section in range(20):
        parts += [f"Section {section}", ""]
        for n in range(5):
            parts += [f"  • Paper {section}.{n}", f"    Ana Smith · {n + 1} May 2024", ""]
    path = tmp_path / "sections.txt"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    states = [p.state for p in _pieces(path, 200)]
    assert states[0] is None
    assert Layout("bullet", 2, None) in states
    assert Layout("bullet", 2, 4) in states
    for target in WRITERS:
        _same(path, target, 200)
    assert "Section" not in _serial(path, "ris", True)[0]  # headings are not entry text


def test_the_many_entries_input_reads_alike_in_pieces(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks"))
    import adversarial

    case = next(c for c in adversarial.CASES if c.name == "tiny.txt")
    path = tmp_path / case.name
    path.write_bytes(case.build(100_000))  # 8,000 entries
    assert len(_pieces(path, 10_000)) >= 10
    for target in ("csljson", "bibtex"):
        _same(path, target, 10_000)


@pytest.mark.parametrize(
    "data",
    [
        "• A\n\n• B\n".encode("utf-16"),
        b"\xef\xbb\xbf\xe2\x80\xa2 A\n\n\xe2\x80\xa2 B \xe9\n",  # not UTF-8 after a byte-order mark
        b"\xe2\x80\xa2 A\n\n\xe2\x80\xa2 B\x00\n",
        b"\xe2\x80\xa2 A\r\r\xe2\x80\xa2 B\r",
        b"Only prose here,\nno entries.\n",
    ],
    ids=["utf-16", "bad-byte", "nul", "lone-cr", "no-entry"],
)
def test_input_the_pieces_could_not_read_alike_is_read_whole(data: bytes) -> None:
    assert split(io.BytesIO(data), 4) is None


def test_cli_jobs_2_equals_jobs_1_on_a_generated_listing(tmp_path: Path) -> None:
    import subprocess

    rng = random.Random(7)
    parts = ["Recent papers", ""]
    for n in range(1_500):
        if n % 100 == 0:
            parts += [f"Week {n // 100}", ""]
        parts += [f"  • Paper {n}: on {rng.choice(['graphs', 'caches', 'Étude'])}"]
        parts += [f"    Ana Smith, Bo Li · {rng.randint(1, 28)} avril 20{rng.randint(10, 26)}", ""]
        if rng.random() < 0.5:
            parts += ["    A short abstract that is cut off…", ""]
    source = tmp_path / "listing.txt"
    source.write_text("\n".join(parts) + "\n", encoding="utf-8")
    with source.open("rb") as handle:
        assert len(list(split(handle, parallel.PIECE_SIZE) or [])) == 2  # all but the last entry, and it
    for target in ("ris", "bibtex"):
        outputs = []
        for jobs in ("1", "2"):
            out = tmp_path / f"out{jobs}.{target}"
            command = [sys.executable, "-m", "bibconv", "convert", str(source), "-t", target, "-o", str(out)]
            done = subprocess.run([*command, "-j", jobs], capture_output=True, text=True, check=True)
            outputs.append((out.read_bytes(), done.stderr))
        assert outputs[0] == outputs[1]
        assert outputs[0][0].count(b"Paper ") == 1_500
