"""Time to read a 1 MB listing page, per site reader and for the generic block reader.

Run ``python benchmarks/bench_listing.py [--size-mb 1] [--out benchmarks/LISTING.md] [--code DIR]``
(``--code``: time the bibconv of another checkout, an earlier commit, with these pages).

Each page is a real saved page (from ``../shared/`` when present, else bibconv's own
fixture pages) whose list of papers is repeated until the page is ``--size-mb`` large; the
page's head and chrome stay as they are. There is one page for each kind of reader: the site
readers, the generic reader's blocks, free-text citations and two-row tables, arXiv's own
listing and search pages, and a plain-text listing. For each page the table gives the reader
that made the records, their number, the best of three in-process reads
(``bibconv.read(data, "html")``: decoding, parsing, the site readers' claims and the reading
itself) with the CPU time of that read (the machine may be shared), and the wall time of a
whole ``bibconv convert PAGE -t bibtex`` process (interpreter start included). The readers keep
nothing from one item to the next, so repeated items cost what new ones do. The target is
under 1 s for a 1 MB page.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHARED = Path(os.environ.get("BIBCONV_SHARED") or ROOT.parent / "shared") / "corpus"
OWN = ROOT / "fixtures" / "html" / "read"
# name → (page, text just before the first paper, text just after the last paper)
PAGES = {
    "dblp person page": (
        SHARED / "html-wild/dblp_person_clauset_2017.html",
        '<ul class="publ-list">',
        '</li></ul></div></div></div><div class="clear-both">',
    ),
    "Google Scholar profile rows": (
        SHARED / "html-wild/gscholar_profile_einstein_fragment_2021.html",
        "",
        "",
    ),
    "CVF open access day": (
        SHARED / "html-wild/cvf_openaccess_cvpr2020_day.html",
        "<dl>",
        '<dt class="ptitle"><br><a href="content_CVPR_2020/html/Izadinia',
    ),
    "ACL Anthology author page": (
        SHARED / "html-wild/aclanthology_author_madsack.html",
        "<div class=col-lg-9>",
        "</div><div class=col-lg-3",
    ),
    "PMLR volume (own page)": (OWN / "sites/own_pmlr_v202_volume.html", "</p>\n<div", "</main>"),
    "generic cards (own page)": (OWN / "own/cards_fr.html", '<div class="cards">', "    </div>\n  </main>"),
    "homepage of free-text citations": (
        SHARED / "html-wild/homepage_igel_publications.html",
        '<a name="y26"></a>',
        "Institut f&uuml;r Neuroinformatik, 2001</div>",
    ),
    "conference table, authors row above title row": (
        SHARED / "html-wild/recomb2013_accepted.html",
        "</tr>\n<tr valign",
        "</i></td>\n</tr>",
    ),
    "aggregator of arXiv papers (generic)": (
        SHARED / "html-other/luvata_aggregator_2026-08-19_cs.CL.html",
        "<body>",
        "</body>",
    ),
    "arXiv listing (/list)": (
        SHARED / "html-arxiv-list/polaris_cs.AI_new_2026-08-12_trimmed.html",
        "entries)</h3>\n",
        "</body>",
    ),
    "arXiv search results": (
        SHARED / "html-arxiv-search/focuzd_arxiv_search_abstract_distributed_systems_200results_2025-12.html",
        '<ol class="breathe-horizontal" start="1"> ',
        "</ol>",
    ),
    "plain-text listing": (SHARED.parent / "seed-listing.txt", "Derniers papiers\n\n", ""),
}
TEXT_PAGES = {"plain-text listing"}  # read as the ``text`` format, the others as ``html``


def inflate(text: str, before: str, after: str, size: int) -> str:
    """``text``, its part from the first ``before`` to the last ``after`` repeated up to ``size`` bytes."""
    start = text.index(before) + len(before) if before else 0
    end = text.rindex(after) + (5 if after.startswith("</li>") else 0) if after else len(text)
    head, body, tail = text[:start], text[start:end], text[end:]
    room = size - len(head.encode()) - len(tail.encode())
    copies = -(-room // max(len(body.encode()), 1))  # enough to fill the room, then cut at an item
    filled = (body * max(copies, 1)).encode()[:room].decode("utf-8", "ignore")
    item_start = body.lstrip()[:30]
    cut = filled.rfind(item_start) if copies > 1 and item_start else -1
    return head + (filled[:cut] if cut > 0 else filled) + tail


def best_read(data: bytes, format: str) -> tuple[int, str, float, float]:
    """Records read, the readers that made them, and the best of three reads: wall and CPU seconds."""
    import bibconv

    wall = cpu = float("inf")
    records = []
    for _ in range(3):
        start, start_cpu = time.perf_counter(), time.process_time()
        records = bibconv.read(data, format)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    readers = sorted({r.origin.reader for r in records if r.origin is not None and r.origin.reader})
    return len(records), ", ".join(readers) or format, wall, cpu


def process_time(path: Path, code: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "bibconv", "convert", str(path), "-t", "bibtex", "-o", os.devnull],
        check=True,
        env={**os.environ, "PYTHONPATH": str(code)},
        capture_output=True,
        cwd=code,  # ``-m`` puts the working directory first on the path: the checkout timed is ``code``
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown table here")
    parser.add_argument(
        "--code", type=Path, default=ROOT, help="the bibconv checkout to time (default: this one)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(args.code))
    size = int(args.size_mb * 1_000_000)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (page, before, after) in PAGES.items():
            if not page.exists():
                print(f"skipped {name}: {page} is absent", file=sys.stderr)
                continue
            data = inflate(page.read_text(encoding="utf-8", errors="replace"), before, after, size).encode()
            format = "text" if name in TEXT_PAGES else "html"
            path = Path(tmp) / f"page.{'txt' if format == 'text' else 'html'}"
            path.write_bytes(data)
            count, reader, seconds, cpu = best_read(data, format)
            rows.append((name, reader, len(data) / 1e6, count, seconds, cpu, process_time(path, args.code)))
            print(f"{name}: {count} records in {seconds:.2f} s ({cpu:.2f} s CPU)", file=sys.stderr)
    lines = [
        f"# Reading a {args.size_mb:g} MB listing page",
        "",
        f"Run `python benchmarks/bench_listing.py --size-mb {args.size_mb:g}`.",
        f"Machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" load average {os.getloadavg()[0]:.1f} at the start. Target: under 1 s.",
        "",
        "| page | reader | MB | records | read (best of 3) | its CPU time | `bibconv convert` process"
        " | target met |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, reader, mb, count, seconds, cpu, whole in rows:
        met = "yes" if whole < 1.0 else ("read only" if seconds < 1.0 else "no")
        times = f"{seconds:.2f} s | {cpu:.2f} s | {whole:.2f} s"
        lines.append(f"| {name} | {reader} | {mb:.2f} | {count:,} | {times} | {met} |")
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
