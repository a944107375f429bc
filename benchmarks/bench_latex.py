"""Decoding cost per field: bibconv.latex.decode against plain pylatexenc on real .bib files.

Run ``python benchmarks/bench_latex.py [file.bib ...]`` (default: the real-world samples
corpus/bibtex/biblatex-examples.bib and the 506-entry
corpus/bibtex/bbt_import_Unabbreviate_on_import_1436-1.bib of the shared folder, ``$BIBCONV_SHARED`` or
``../shared``). Every field value of
every entry is decoded; the best of several rounds is reported, in µs per field and in total, for
``decode`` (rich text and plain), plain pylatexenc ``LatexNodes2Text().latex_to_text`` and pylatexenc with
math kept verbatim (bibtexparser's configuration). Then the uncached work behind them, each over the
same values: the regex accelerator ``fast_decode`` alone (fields with TeX), ``encode`` of every decoded
value (UTF-8 and ``ascii=True``) and ``protect_case`` of every encoded title.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bibconv.latex import decode, encode, has_tex, protect_case  # noqa: E402
from bibconv.latex.fast import fast_decode  # noqa: E402

SHARED = Path(os.environ.get("BIBCONV_SHARED") or ROOT.parent / "shared")
DEFAULT_FILES = (
    SHARED / "corpus" / "bibtex" / "biblatex-examples.bib",
    SHARED / "corpus" / "bibtex" / "bbt_import_Unabbreviate_on_import_1436-1.bib",
)
ROUNDS = 5


def field_values(path: Path) -> list[str]:
    """All field values of all entries, as the BibTeX splitter gives them (braces removed)."""
    import bibtexparser

    library = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
    return [str(f.value) for entry in library.entries for f in entry.fields]


def best_time(function: Callable[[str], object], values: list[str]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for value in values:
            function(value)
        best = min(best, time.perf_counter() - start)
    return best


def fast_path_share(values: list[str]) -> tuple[int, int]:
    """(fields with TeX, of which the regex fast path decodes alone)."""
    tex = [v for v in values if has_tex(v)]
    fast = sum(1 for v in tex if fast_decode(v) is not None)
    return len(tex), fast


def main(paths: list[Path]) -> None:
    from pylatexenc.latex2text import LatexNodes2Text

    plain_l2t = LatexNodes2Text()
    verbatim_l2t = LatexNodes2Text(math_mode="verbatim")
    candidates: list[tuple[str, Callable[[str], object]]] = [
        ("bibconv decode (rich text)", decode),
        ("bibconv decode (plain)", lambda v: decode(v, markup=False)),
        ("pylatexenc latex_to_text", plain_l2t.latex_to_text),
        ("pylatexenc, math verbatim", verbatim_l2t.latex_to_text),
    ]
    for path in paths:
        values = field_values(path)
        with_tex, fast = fast_path_share(values)
        chars = sum(len(v) for v in values)
        print(f"{path.name}: {len(values)} fields, {chars} characters")
        print(f"  fields with TeX characters: {with_tex} ({100 * with_tex / len(values):.0f}%), ", end="")
        print(f"of which the regex fast path decodes {fast} ({100 * fast / max(with_tex, 1):.0f}%)")
        baseline = None
        for label, function in candidates:
            seconds = best_time(function, values)
            baseline = baseline or seconds
            per_field = 1e6 * seconds / len(values)
            print(f"  {label:28s} {per_field:8.1f} µs/field  {1e3 * seconds:8.1f} ms total", end="")
            print(f"  ({seconds / baseline:5.1f}x bibconv)")
        tex_values = [v for v in values if has_tex(v)]
        long_values = [v for v in tex_values if len(v) > 200 or re.search(r"\$|\\[a-zA-Z]{3,}", v)]
        for label, subset in (("fields with TeX only", tex_values), ("long or macro-heavy", long_values)):
            if not subset:
                continue
            ours = best_time(decode, subset)
            theirs = best_time(plain_l2t.latex_to_text, subset)
            print(
                f"  {label}: {len(subset)} fields, bibconv {1e6 * ours / len(subset):.1f} µs/field, "
                f"pylatexenc {1e6 * theirs / len(subset):.1f} µs/field"
            )
        uncached(values)


def uncached(values: list[str]) -> None:
    """The accelerator, the encoder and case protection, timed without the caches in front of them."""
    tex_values = [v for v in values if has_tex(v)]
    texts = [decode(v) for v in values]
    titles = [encode(t) for t in texts if 10 < len(t) < 300]
    work: list[tuple[str, Callable[[str], object], list[str]]] = [
        ("fast_decode (TeX fields)", fast_decode, tex_values),
        ("encode (UTF-8)", encode, texts),
        ("encode (ascii)", lambda t: encode(t, ascii=True), texts),
        ("protect_case (titles)", protect_case, titles),
    ]
    for label, function, subset in work:
        seconds = best_time(function, subset)
        print(f"  {label:28s} {1e6 * seconds / len(subset):8.2f} µs/value {1e3 * seconds:8.1f} ms total")


if __name__ == "__main__":
    main([Path(p) for p in sys.argv[1:]] or list(DEFAULT_FILES))
