"""Streaming and ``--jobs``: memory stays flat over 20,000 records; parallel output is serial output.

The 20k corpus is the benchmark generator's (``benchmarks/generate.py``) in its lean form, the
same papers in every format. Every reader reads it, and every writer writes 20,000 records, in a
subprocess that reports its peak RSS after the first 2,000 records and at the end.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import bibconv
from bibconv import parallel
from bibconv.progress import Progress
from bibconv.registry import formats
from tests.golden import FIXTURES, need, sample

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import FORMATS, write_corpus

RECORDS = 20_000
EARLY = 2_000
GROWTH_MB = 24
"""Peak RSS may grow this much from record 2,000 to record 20,000 (buffers settling, key sets)."""
PEAK_MB = 120

WRITERS = sorted(name for name, info in formats().items() if info.writer is not None)
# Real samples with several records, at least one per readable format that can be cut.
SAMPLES = [
    sample("arxiv-jsonl/sample.jsonl"),
    sample("csljson/commonmeta_csl-list.json"),
    sample("csljson/bbt_export_Deterministic_ordering_for_CSL_1178_1400.csl.json"),
    sample("atom/arxivpy2026_q_testing_100.xml"),
    sample("atom/d00ksky2026_all_war_25.xml"),
    sample("atom/orijtech2017_deep_dream-0.atom"),
    sample("atom/bibconv_announce_atom_2026-08-18_cs.CL.xml"),
    sample("bibtex/bbt_import_Unabbreviate_on_import_1436-1.bib"),
    sample("bibtex/bbt_export_Better_BibTeX_does_not_export_collections_901.bibtex"),
    sample("bibtex/bibconv_arxiv_spellings.bib"),
    sample("ris/rispy_example_urls.ris"),
    sample("ris/rispy_example_multiline.ris"),
    FIXTURES / "text" / "write" / "seed-listing.txt.ris",  # the RIS bibconv writes of the seed listing
]

_MEASURE = """
import itertools, json, os, resource, sys
import bibconv

mode, source, target = sys.argv[1:4]
seen = {"count": 0}

def peak():
    # VmHWM starts afresh at exec; ru_maxrss would keep the forking parent's (pytest's) size.
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def counted(records):
    for record in records:
        seen["count"] += 1
        if seen["count"] == %(early)d:
            seen["early"] = peak()
        yield record

if mode == "read":  # the reader alone
    for _ in counted(bibconv.iter_records(source)):
        pass
else:  # the writer alone, on the first records of the source over and over
    first = list(itertools.islice(bibconv.iter_records(source), 1000))
    records = (r.replace(id=None) for r in itertools.islice(itertools.cycle(first), %(records)d))
    with open(os.devnull, "w", encoding="utf-8", newline="") as out:
        bibconv.write(counted(records), target, out)
print(json.dumps({"early": seen["early"], "end": peak(), "count": seen["count"]}))
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_corpus(RECORDS, tmp_path_factory.mktemp("corpus"), lean=True)


def _measure(run: tuple[str, Path, str]) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE % {"early": EARLY, "records": RECORDS}, run[0], str(run[1]), run[2]],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


# Every reader reads the 20k corpus and every writer writes 20,000 records: a conversion holds
# what its reader and its writer hold, and neither holds anything of the other.
RUNS = [("read", name) for name in FORMATS] + [("write", name) for name in WRITERS]


@pytest.fixture(scope="module")
def memory(corpus: dict[str, Path]) -> dict[tuple[str, str], dict[str, int]]:
    """Peak RSS of every run, measured in subprocesses running side by side."""
    args = [
        (mode, corpus[name], "-") if mode == "read" else (mode, corpus["arxiv-jsonl"], name)
        for mode, name in RUNS
    ]
    with ThreadPoolExecutor(parallel.cpu_count()) as pool:
        return dict(zip(RUNS, pool.map(_measure, args), strict=True))


@pytest.mark.parametrize("run", RUNS, ids="-".join)
def test_memory_stays_flat_over_20k_records(
    run: tuple[str, str], memory: dict[tuple[str, str], dict[str, int]]
) -> None:
    found = memory[run]
    growth, peak = (found["end"] - found["early"]) / 1024, found["end"] / 1024
    assert found["count"] == RECORDS
    assert growth < GROWTH_MB, f"{peak:.0f} MB peak, +{growth:.1f} MB after {EARLY} records"
    assert peak < PEAK_MB, f"{peak:.0f} MB peak, +{growth:.1f} MB after {EARLY} records"


def _serial_and_in_pieces(
    path: Path, target: str, size: int
) -> tuple[str | None, list[bibconv.Diagnostic], str, list[bibconv.Diagnostic]]:
    """``path`` written as ``target`` by one process and by two in pieces of ``size`` bytes, leniently:
    the serial text and reports, then those of the pieces."""
    serial_reports: list[bibconv.Diagnostic] = []
    records = bibconv.iter_records(path, strict=False, diagnostics=serial_reports)
    serial = bibconv.write(records, target, diagnostics=serial_reports)
    out = io.StringIO(newline="")
    reports: list[bibconv.Diagnostic] = []
    assert parallel.convert(
        [str(path)], target, out, jobs=2, strict=False, diagnostics=reports, piece_size=size
    )
    return serial, serial_reports, out.getvalue(), reports


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_jobs_output_is_byte_identical_on_real_samples(path: Path) -> None:
    name = bibconv.detect(path)
    split = parallel.splitter_for(name)
    assert split is not None
    size = max(300, path.stat().st_size // 8)  # about eight pieces
    with path.open("rb") as handle:
        pieces = split(handle, size)
        assert pieces is not None
        assert len(list(pieces)) > 1, "the sample must be cut into pieces"
    for target in WRITERS:
        serial, serial_reports, cut, reports = _serial_and_in_pieces(path, target, size)
        assert cut == serial, f"{path.name} -> {target}"
        # The same reports (a reader that looks one record ahead may give them in another order).
        assert Counter(map(str, reports)) == Counter(map(str, serial_reports)), f"{path.name} -> {target}"


def test_jobs_keeps_keys_unique_across_pieces(tmp_path: Path) -> None:
    # Six records that all make the key "smith2020widget", and two that share an id.
    items = [{"type": "book", "title": "Widget", "author": [{"family": "Smith"}], "issued": "2020"}] * 6
    items += [{"id": "dup", "type": "book", "title": "A"}, {"id": "dup", "type": "book", "title": "B"}]
    source = tmp_path / "same.json"
    source.write_text(json.dumps(items, indent=1), encoding="utf-8")
    for target in WRITERS:
        reports: list[bibconv.Diagnostic] = []
        out = io.StringIO(newline="")
        assert parallel.convert([str(source)], target, out, jobs=2, diagnostics=reports, piece_size=80)
        serial_reports: list[bibconv.Diagnostic] = []
        assert out.getvalue() == bibconv.write(bibconv.read(source), target, diagnostics=serial_reports)
        assert [str(r) for r in reports] == [str(r) for r in serial_reports]
        if target == "csljson":
            keys = [item["id"] for item in json.loads(out.getvalue())]
            assert keys == [f"smith2020widget{s}" for s in ("", "a", "b", "c", "d", "e")] + ["dup", "dupa"]
            assert "warning: duplicate key 'dup' renamed to 'dupa'" in [str(r) for r in reports]


def test_jobs_reports_entry_keys_repeated_across_pieces_in_place(tmp_path: Path) -> None:
    # Keys repeated within a piece and across pieces (in another case too), duplicate fields and
    # entries that do not parse between them: the reports of a serial run, in its order.
    entries = []
    for i in range(600):
        key = ("same", "Same", f"k{i}", "other")[i % 4]
        twice = ", title = {x}, title = {y}" if i % 7 == 0 else ""
        entries.append(f"@article{{{key}, author = {{A Lee}}, title = {{Paper {i}}}{twice}, year = 2021}}\n")
        if i % 11 == 0:
            entries.append("@misc{broken, title = {no comma} year = 2020}\n")
    source = tmp_path / "same.bib"
    source.write_text("".join(entries), encoding="utf-8")
    for target in WRITERS:
        serial, serial_reports, cut, reports = _serial_and_in_pieces(source, target, 2_000)
        assert cut == serial, target
        # The reader's reports in their order; the writer's among them may come a record earlier
        # at a cut (the reader of a whole input reads one entry ahead).
        assert Counter(map(str, reports)) == Counter(map(str, serial_reports)), target
        read = [str(r) for r in reports if r.span is not None]
        assert read == [str(r) for r in serial_reports if r.span is not None], target
        assert sum("duplicate entry key 'Same'" in str(r) for r in reports) == 150


def test_jobs_stops_at_the_first_bad_record_like_a_serial_run(tmp_path: Path) -> None:
    lines = (FIXTURES / "arxiv-jsonl" / "read" / "sample.jsonl").read_text(encoding="utf-8").splitlines()
    source = tmp_path / "bad.jsonl"
    source.write_text("\n".join([*lines[:9], '{"id": 7}', *lines[9:]]) + "\n", encoding="utf-8")
    with pytest.raises(bibconv.ReadError) as serial:
        bibconv.write(bibconv.iter_records(source), "csljson")
    with pytest.raises(bibconv.ReadError) as parallel_error:
        parallel.convert([str(source)], "csljson", io.StringIO(), jobs=2, piece_size=500)
    assert str(parallel_error.value) == str(serial.value)
    assert parallel_error.value.span.line == 10


def test_input_that_cannot_be_cut_is_left_to_the_serial_run(tmp_path: Path) -> None:
    strings = need("bibtex/xampl.bib")  # @string macros are used across the file
    assert not parallel.convert([str(strings)], "csljson", io.StringIO(), jobs=2)
    assert not parallel.convert(["-"], "csljson", io.StringIO(), jobs=2)


def test_cli_jobs_2_equals_jobs_1_on_the_20k_corpus(corpus: dict[str, Path], tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.bib"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "bibconv",
                "convert",
                str(corpus["ris"]),
                "-t",
                "bibtex",
                "-o",
                str(out),
                "-j",
                jobs,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "\r" not in done.stderr  # no progress line when stderr is not a terminal
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0].count(b"\n@") == RECORDS - 1


def test_progress_line_is_drawn_and_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    import bibconv.progress as progress_module

    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    stream = io.StringIO()
    with Progress(10_000_000, stream=stream) as progress, io.BytesIO(b"x" * 5_000_000) as handle:
        progress.watch(handle)
        handle.read(2_500_000)
        progress.add(64)
        drawn = stream.getvalue()
    assert drawn.startswith("\rbibconv: 64 records, ")
    assert "2.5 MB of 10.0 MB (25%)" in drawn
    assert stream.getvalue().endswith("\r")
    silent = io.StringIO()
    with Progress(enabled=False, stream=silent) as progress:
        progress.add(1000)
    assert silent.getvalue() == ""
