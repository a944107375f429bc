"""Time to read a 1 MB listing page, per site reader and for the generic block reader.

Run ``python benchmarks/bench_listing.py [--size-mb 1] [--out benchmarks/LISTING.md]``.

Each page is a real saved page (from ``../shared/corpus/`` when present, else bibconv's own
fixture pages) whose list of papers is repeated until the page is ``--size-mb`` large; the
page's head and chrome stay as they are. For each page the table gives the records read,
the best of three in-process reads (``bibconv.read(data, "html")``: decoding, parsing, the
site readers' claims and the reading itself) and the wall time of a whole
``bibconv convert PAGE -t bibtex`` process (interpreter start included). The target is
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
sys.path.insert(0, str(ROOT))

import bibconv  # noqa: E402

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
}


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


def best_read(data: bytes) -> tuple[int, float]:
    best, count = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        count = len(bibconv.read(data, "html"))
        best = min(best, time.perf_counter() - start)
    return count, best


def process_time(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "bibconv", "convert", str(path), "-t", "bibtex", "-o", os.devnull],
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown table here")
    args = parser.parse_args()
    size = int(args.size_mb * 1_000_000)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (page, before, after) in PAGES.items():
            if not page.exists():
                print(f"skipped {name}: {page} is absent", file=sys.stderr)
                continue
            data = inflate(page.read_text(encoding="utf-8", errors="replace"), before, after, size).encode()
            path = Path(tmp) / "page.html"
            path.write_bytes(data)
            count, seconds = best_read(data)
            rows.append((name, len(data) / 1e6, count, seconds, process_time(path)))
            print(f"{name}: {count} records in {seconds:.2f} s", file=sys.stderr)
    lines = [
        f"# Reading a {args.size_mb:g} MB listing page",
        "",
        f"Run `python benchmarks/bench_listing.py --size-mb {args.size_mb:g}`.",
        f"Machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" load average {os.getloadavg()[0]:.1f} at the start. Target: under 1 s.",
        "",
        "| page | MB | records | read (best of 3) | `bibconv convert` process | target met |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, mb, count, seconds, whole in rows:
        met = "yes" if whole < 1.0 else ("read only" if seconds < 1.0 else "no")
        lines.append(f"| {name} | {mb:.2f} | {count:,} | {seconds:.2f} s | {whole:.2f} s | {met} |")
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
