"""What bibtex and biber make of a .bib before and after a pass through bibconv (bib → bib).

For each input, bibconv writes it again in its own dialect (``biblatex`` for ``.biblatex`` files and
biblatex's example databases, ``bibtex`` otherwise). Then ``bibtex`` runs on both files under each
style of :data:`STYLES` (all entries, ``\\nocite{*}``, one run per file and style), and ``biber``
runs on the biblatex ones (every file in a refsection of its own: one run for all originals, one
for all outputs). An entry is *unchanged* when its ``.bbl`` text (words, case, label; white space
aside) is the same and it has the same place in the sorted list.

Run ``python3 -m tests.formats.bibtex.bbl_check`` for the figures per style (``-v`` lists the changed
entries).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bibconv import api
from bibconv.registry import Diagnostic
from tests.golden import FIXTURES
from tests.tools import shared_root

STYLES = ("plain", "alpha", "unsrt", "abbrv", "ieeetr")
BIBER = "biber"
_BIBLATEX_FILES = frozenset({"biblatex-examples.bib", "bibtexparser_biber-examples.bib"})
_SUFFIXES = (".bib", ".bibtex", ".biblatex")
# What the writer says of TeX that LaTeX would not set as it is, which it writes as text or escapes.
_MADE_TEXT = (
    "is not allowed in output",
    "balanced for BibTeX but not for TeX",
    "LaTeX would not set the value",
)
_AS_TEXT = "\\textbackslash"
_WS_RE = re.compile(r"\s+")
_BIBLATEX_FIELD_RE = re.compile(
    r"^\s*(?:date|journaltitle|location|eprinttype|eprintclass|annotation)\s*=", re.M | re.I
)
_BIBITEM_RE = re.compile(r"\\bibitem(?:\[(?:[^\[\]{}]|\{[^{}]*\})*\])?\{([^}]*)\}")
_ENTRY_RE = re.compile(r"^\s*\\entry\{([^}]*)\}", re.M)
_REFSECTION_RE = re.compile(r"^\\refsection\{(\d+)\}$", re.M)


def for_biber(path: Path) -> bool:
    """Whether a file is written for biber: a ``.biblatex`` file or one of biblatex's example databases."""
    return path.name.endswith((".biblatex", ".biblatex.bib")) or path.name in _BIBLATEX_FILES


def dialect(path: Path) -> str:
    """The dialect a file is written in: ``biblatex`` when its name or a field says so, else ``bibtex``."""
    name = path.name
    biblatex = name.endswith((".biblatex", ".biblatex.bib")) or name in _BIBLATEX_FILES
    if not biblatex:
        biblatex = _BIBLATEX_FIELD_RE.search(path.read_text(encoding="utf-8", errors="replace")) is not None
    return "biblatex" if biblatex else "bibtex"


def inputs() -> list[Path]:
    """Every .bib of the shared corpus, and those of fixtures/ that are not copies of it."""
    found: list[Path] = []
    root = shared_root()
    corpus = sorted((root / "corpus" / "bibtex").iterdir()) if root else []
    found += [p for p in corpus if p.suffix in _SUFFIXES]
    names = {p.name for p in found}
    own = sorted(p for p in FIXTURES.rglob("*") if p.suffix in _SUFFIXES and p.is_file())
    found += [p for p in own if p.name not in names]
    return found


def roundtrip(path: Path, options: dict[str, object] | None = None) -> tuple[str, set[str]]:
    """The text bibconv writes for ``path`` in its own dialect (bad records skipped), and the keys
    of the entries where it wrote TeX off the allowlist as text (LaTeX would not have set it)."""
    diagnostics: list[Diagnostic] = []
    records = api.iter_records(path, "bibtex", strict=False, diagnostics=diagnostics)
    text = api.write(records, dialect(path), diagnostics=diagnostics, **(options or {}))
    assert text is not None
    return text, {d.record_id or "" for d in diagnostics if any(m in d.message for m in _MADE_TEXT)}


def _run(args: list[str], cwd: Path) -> None:
    subprocess.run(args, cwd=cwd, capture_output=True, check=False, timeout=120)


def _items(text: str, start: re.Pattern[str]) -> list[tuple[str, str]]:
    """``(key, text with white space collapsed)`` of each item of a .bbl, in order."""
    marks = list(start.finditer(text))
    out = []
    for i, here in enumerate(marks):
        body = text[here.start() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        out.append((here[1], _WS_RE.sub(" ", body).strip()))
    return out


def bibtex_items(folder: Path, bib: str, style: str) -> tuple[list[tuple[str, str]], bool]:
    """bibtex's items for ``folder/bib`` under ``style``, and whether it reported an error."""
    job = f"{Path(bib).stem}-{style}"
    (folder / f"{job}.aux").write_text(
        f"\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{{Path(bib).stem}}}\n", encoding="utf-8"
    )
    _run(["bibtex", "-terse", job], folder)
    bbl, blg = folder / f"{job}.bbl", folder / f"{job}.blg"
    errors = not blg.exists() or "error message" in blg.read_text(encoding="utf-8", errors="replace")
    if not bbl.exists():
        return [], True
    text = bbl.read_text(encoding="utf-8", errors="replace")
    return _items(text.split("\\end{thebibliography}")[0], _BIBITEM_RE), errors


_BCF_DOC = r"""\documentclass{article}
\usepackage[backend=biber]{biblatex}
\begin{document}
%s
\end{document}
"""


def biber_items(folder: Path, bibs: list[str], bcf: Path) -> list[list[tuple[str, str]]]:
    """biber's entries for each of ``bibs`` (files of ``folder``), one refsection each."""
    shutil.copy(bcf, folder / "biber.bcf")
    _run([BIBER, "--quiet", "--nolog", "biber"], folder)
    bbl = folder / "biber.bbl"
    text = bbl.read_text(encoding="utf-8", errors="replace") if bbl.exists() else ""
    sections: dict[int, str] = {}
    marks = list(_REFSECTION_RE.finditer(text))
    for i, here in enumerate(marks):
        sections[int(here[1])] = text[here.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
    return [_items(sections.get(i + 1, ""), _ENTRY_RE) for i in range(len(bibs))]


def make_bcf(folder: Path, bibs: list[str]) -> Path:
    """A biber control file citing every entry of each of ``bibs``, each in its own refsection."""
    sections = "\n".join(f"\\begin{{refsection}}[{b}]\\nocite{{*}}\\end{{refsection}}" for b in bibs)
    (folder / "biber.tex").write_text(_BCF_DOC % sections, encoding="utf-8")
    _run(["pdflatex", "-interaction=batchmode", "-draftmode", "biber.tex"], folder)
    return folder / "biber.bcf"


@dataclass
class Outcome:
    """The entries of one input under one consumer (a bibtex style or biber)."""

    path: Path
    consumer: str
    total: int = 0
    same: int = 0
    reads_same: int = 0
    order_same: bool = True
    broken: bool = False  # the consumer reported errors on the original
    made_text: int = 0  # entries left out: TeX off the allowlist written as text
    changed: list[tuple[str, str, str]] = field(default_factory=list)  # key, before, after


def reads(text: str) -> str:
    """What a reader sees of an item: its text without braces (``{\\em A {B}}`` reads ``\\em A B``)."""
    return _WS_RE.sub(" ", text.replace("{", " ").replace("}", " ")).strip()


def compare(
    path: Path,
    consumer: str,
    before: list[tuple[str, str]],
    after: list[tuple[str, str]],
    made_text: set[str] = frozenset(),  # type: ignore[assignment]
) -> Outcome:
    """How many of ``before``'s entries read the same, at the same place, in ``after`` (entries of
    ``made_text`` are left out and counted apart)."""
    outcome = Outcome(path, consumer, total=len(before))
    # Entries only one side has (a repeated key bibconv renamed, an entry it could not read) are
    # left out of the places; such an entry of ``before`` counts as changed.
    keys_after = {key for key, _ in after}
    keys_before = {key for key, _ in before}
    order_before = [key for key, _ in before if key and key in keys_after]
    order_after = [key for key, _ in after if key in keys_before]
    outcome.order_same = order_before == order_after
    place_before = {key: i for i, key in enumerate(order_before)}
    now = {key: (i, text) for i, (key, text) in enumerate((k, t) for k, t in after if k in keys_before)}
    for key, text in before:
        if not key:  # an entry without a key cannot be cited: bibconv gives it one
            outcome.total -= 1
            continue
        if key in made_text:
            outcome.total -= 1
            outcome.made_text += 1
            continue
        place, new = now.get(key, (-1, ""))
        here = place_before.get(key, -2)
        if _AS_TEXT in new and _AS_TEXT not in text:  # TeX off the allowlist, written as text
            outcome.total -= 1
            outcome.made_text += 1
            continue
        if place == here and reads(new) == reads(text):
            outcome.reads_same += 1
        if new == text and place == here:
            outcome.same += 1
        else:
            outcome.changed.append((key, text, new if place == here or not new else f"[at {place}] {new}"))
    return outcome


def measure(
    paths: Iterable[Path],
    styles: Iterable[str] = STYLES,
    biber: bool = True,
    workers: int = 2,
    options: dict[str, object] | None = None,
) -> list[Outcome]:
    """Outcomes for every input under every style (and biber for the biblatex inputs), with
    ``workers`` consumers running at once; ``options`` go to the writer (``normalize=True``)."""
    paths, styles = list(paths), list(styles)
    with tempfile.TemporaryDirectory(prefix="bbl-check-") as tmp:
        before_dir, after_dir = Path(tmp, "before"), Path(tmp, "after")
        before_dir.mkdir()
        after_dir.mkdir()
        names = [f"f{i}.bib" for i in range(len(paths))]
        made_text: dict[str, set[str]] = {}
        for path, name in zip(paths, names, strict=True):
            shutil.copy(path, before_dir / name)
            text, made_text[name] = roundtrip(path, options)
            (after_dir / name).write_text(text, encoding="utf-8")
        jobs = [(path, name, style) for path, name in zip(paths, names, strict=True) for style in styles]
        latex = [(p, n) for p, n in zip(paths, names, strict=True) if for_biber(p)]

        def one(job: tuple[Path, str, str]) -> Outcome:
            path, name, style = job
            before, broken = bibtex_items(before_dir, name, style)
            outcome = compare(path, style, before, bibtex_items(after_dir, name, style)[0], made_text[name])
            outcome.broken = broken
            return outcome

        with ThreadPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(one, jobs))
            if biber and latex:
                bcf = make_bcf(before_dir, [n for _, n in latex])
                shutil.copy(bcf, Path(tmp, "biber.bcf"))
                runs = [
                    pool.submit(biber_items, d, [n for _, n in latex], Path(tmp, "biber.bcf"))
                    for d in (before_dir, after_dir)
                ]
                befores, afters = (r.result() for r in runs)
                for (path, name), before, after in zip(latex, befores, afters, strict=True):
                    outcomes.append(compare(path, BIBER, before, after, made_text[name]))
    return outcomes


def summary(outcomes: list[Outcome]) -> Iterator[str]:
    """One line per consumer: entries unchanged, and inputs whose order changed (inputs the consumer
    reports errors for as they are, where "as before" means little, are counted apart)."""
    broken = sorted({o.path.name for o in outcomes if o.broken})
    if broken:
        yield f"inputs with errors as they are, counted apart: {', '.join(broken)}"
    for consumer in [*STYLES, BIBER]:
        yield from _line(consumer, [o for o in outcomes if o.consumer == consumer and not o.broken])
        yield from _line(consumer + "*", [o for o in outcomes if o.consumer == consumer and o.broken])


def _line(consumer: str, mine: list[Outcome]) -> Iterator[str]:
    if not mine:
        return
    total, same = sum(o.total for o in mine), sum(o.same for o in mine)
    reading = sum(o.reads_same for o in mine)
    moved = sum(not o.order_same for o in mine)
    made_text = sum(o.made_text for o in mine)
    share = 100 * same / total if total else 100.0
    read_share = 100 * reading / total if total else 100.0
    yield (
        f"{consumer:8} {same:5}/{total:<5} unchanged ({share:5.1f} %; {read_share:5.1f} % read the same"
        f" without braces), order changed in {moved} of {len(mine)} files; {made_text} entries with TeX"
        " LaTeX would not set left out"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="inputs (default: the corpus and fixtures)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the changed entries")
    parser.add_argument("--style", action="append", help="only these styles")
    parser.add_argument("--no-biber", action="store_true")
    parser.add_argument("--normalize", action="store_true", help="write every entry from its fields")
    args = parser.parse_args()
    options = {"normalize": True} if args.normalize else None
    outcomes = measure(args.files or inputs(), args.style or STYLES, biber=not args.no_biber, options=options)
    if args.verbose:
        for o in outcomes:
            for key, before, after in o.changed:
                print(f"--- {o.path.name} [{o.consumer}] {key}\n  - {before}\n  + {after}")
    print("\n".join(summary(outcomes)))


if __name__ == "__main__":
    main()
