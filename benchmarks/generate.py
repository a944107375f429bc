"""A synthetic but realistic bibliographic corpus: the same N arXiv papers in five formats.

    python benchmarks/generate.py --sizes 1k,10k --out benchmarks/data

writes ``corpus-<N>.atom`` (an arXiv API response), ``.bib`` (BibTeX with TeX accents,
math and protected capitals), ``.ris``, ``.json`` (a CSL-JSON array) and ``.jsonl`` (arXiv's
metadata snapshot layout). Papers have 1–30 authors (most 2–6) with accented, particled
(``van der``, ``de la``, ``Del``), suffixed and CJK names; titles and abstracts carry TeX math
and accents; about half are published (journal reference, DOI). The corpus depends only on
N and the seed, and is written as it is generated (memory does not grow with N).

The functions are importable (``write_corpus``, ``works``) so tests can make corpora too.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO
from xml.sax.saxutils import escape

__all__ = ["FORMATS", "Author", "Work", "parse_size", "works", "write_corpus"]


def _words(text: str) -> list[str]:
    return text.split()


FORMATS = {"atom": ".atom", "bibtex": ".bib", "ris": ".ris", "csljson": ".json", "arxiv-jsonl": ".jsonl"}

GIVEN = _words("""James Maria Wei Yuki Olga Pierre Ana Lars Fatima Rahul Ingrid Kenji Sofia Tomasz Chloé Joël
Zoë Søren José Raúl Łukasz Dvořák Renée Björn Ágnes Çağla Miloš Jürgen Núria Ólafur Anaïs Hélène""")
FAMILY = _words("""Smith Müller Chen Tanaka Ivanova Dubois García Nielsen Rossi Kowalski Patel Schröder Novák
Gödel Ørsted Łukasiewicz Jiménez Erdős Šimůnek Poincaré Brontë Fraňková Kovačević Żukowski Hernández
Andersson Okafor Nakamura Lindqvist Papadopoulos""")
PARTICLED = [
    ("van der", "Waals"),
    ("de la", "Cruz"),
    ("von", "Neumann"),
    ("van", "Weezel"),
    ("de", "Groot"),
    ("di", "Stefano"),
    ("van den", "Bosch"),
    ("da", "Silva"),
]
CAPITAL_PARTICLE = ["Del Maestro", "De Luca", "Van Vleck", "Le Bihan"]
CJK = [("王", "小明"), ("田中", "太郎"), ("김", "민준"), ("李", "娜"), ("佐藤", "花子")]
SUFFIXES = ["Jr.", "III", "II"]
WORDS = _words("""quantum lattice entanglement transport spectral stochastic neural learning graph topological
superconducting magnetic inference bounds sparse estimation dynamics scattering holographic gauge
renormalization phase transitions random matrices algorithms convergence adversarial robust kernel
diffusion boundary manifold cohomology invariant operators dark matter halos galaxies redshift
cosmological constraints Bayesian Monte Carlo Hamiltonian Langevin fermions bosons qubit decoherence
""")
TEX_WORDS = [
    ('Schr\\"odinger', "Schrödinger"),
    ("Poincar\\'e", "Poincaré"),
    ("{\\O}rsted", "Ørsted"),
    ('G\\"odel', "Gödel"),
    ("Erd\\H{o}s", "Erdős"),
    ("Fr\\'echet", "Fréchet"),
    ("{B}ayesian", "Bayesian"),
    ("{DNA}", "DNA"),
    ("{LHC}", "LHC"),
    ('na\\"ive', "naïve"),
]
MATH = [
    "$\\alpha$",
    "$O(n \\log n)$",
    "$\\mathbb{R}^d$",
    "$SU(N)$",
    "$\\ell_1$",
    "$k$-SAT",
    "$z \\sim 2$",
    "$T_c$",
    "$\\sqrt{s} = 13$ TeV",
    "$H = -\\Delta + V$",
]
CATEGORIES = _words("""hep-th hep-ph gr-qc astro-ph.CO astro-ph.GA cond-mat.str-el cond-mat.mes-hall
quant-ph math.PR math.AP math.CO cs.LG cs.CL cs.DS stat.ML physics.optics nucl-th""")
JOURNALS = [
    "Phys. Rev. B",
    "Phys. Rev. Lett.",
    "J. High Energy Phys.",
    "Astrophys. J.",
    "Ann. Probab.",
    "Commun. Math. Phys.",
    "J. Mach. Learn. Res.",
    "Nature Physics",
    "Optics & Photonics News",
]
TEX = {
    "é": "\\'e",
    "è": "\\`e",
    "ë": '\\"e',
    "á": "\\'a",
    "í": "\\'{\\i}",
    "ó": "\\'o",
    "ú": "\\'u",
    "ü": '\\"u',
    "ö": '\\"o',
    "ä": '\\"a',
    "ï": '\\"{\\i}',
    "ç": "\\c{c}",
    "Ç": "\\c{C}",
    "ğ": "\\u{g}",
    "ř": "\\v{r}",
    "š": "\\v{s}",
    "Š": "\\v{S}",
    "č": "\\v{c}",
    "ž": "\\v{z}",
    "Ž": "\\v{Z}",
    "ň": "\\v{n}",
    "ů": "\\r{u}",
    "ő": "\\H{o}",
    "ł": "\\l",
    "Ł": "\\L",
    "ø": "\\o",
    "Ø": "\\O",
    "ß": "\\ss",
    "Á": "\\'A",
    "Ó": "\\'O",
    "ż": "\\.z",
    "Ż": "\\.Z",
    "ñ": "\\~n",
}


@dataclass
class Author:
    given: str
    family: str
    particle: str = ""
    suffix: str = ""

    def natural(self) -> str:
        if (self.family, self.given) in CJK:  # written as in its own script: family first, no space
            return self.family + self.given
        return " ".join(p for p in (self.given, self.particle, self.family, self.suffix) if p)


@dataclass
class Work:
    arxiv_id: str
    version: int
    published: datetime
    updated: datetime
    title_tex: str
    title: str
    abstract_tex: str
    abstract: str
    authors: list[Author]
    categories: list[str]
    doi: str | None
    journal: tuple[str, int, str, int] | None  # name, volume, pages, year
    comment: str | None


def tex(text: str) -> str:
    """Unicode → TeX accents, each braced as BibTeX wants (``{\\"u}``); CJK stays UTF-8."""
    return "".join("{" + TEX[c] + "}" if c in TEX else c for c in text)


def _author(rng: random.Random) -> Author:
    kind = rng.random()
    if kind < 0.08:
        family, given = rng.choice(CJK)
        return Author(given, family)
    if kind < 0.18:
        particle, family = rng.choice(PARTICLED)
        return Author(rng.choice(GIVEN), family, particle)
    if kind < 0.22:
        return Author(rng.choice(GIVEN), rng.choice(CAPITAL_PARTICLE))
    given = rng.choice(GIVEN)
    if rng.random() < 0.3:
        given += f" {rng.choice('ABCDEHJKLMPRST')}."
    return Author(given, rng.choice(FAMILY), suffix=rng.choice(SUFFIXES) if rng.random() < 0.02 else "")


def _phrase(rng: random.Random, n: int, math: bool = True) -> tuple[str, str]:
    """``n`` words with some math (unless not ``math``) and TeX accents: (TeX, Unicode)."""
    tex_words, text_words = [], []
    for _ in range(n):
        r = rng.random()
        if r < 0.06 and math:
            word = rng.choice(MATH)
            tex_words.append(word)
            text_words.append(word)
        elif r < 0.11:
            t, u = rng.choice(TEX_WORDS)
            tex_words.append(t)
            text_words.append(u)
        else:
            word = rng.choice(WORDS)
            tex_words.append(word)
            text_words.append(word)
    return " ".join(tex_words), " ".join(text_words)


def works(n: int, seed: int = 1, *, lean: bool = False) -> Iterator[Work]:
    """``n`` papers, the same for the same ``n`` and ``seed``.

    ``lean`` papers are cheaper to convert, for tests that need many records quickly: no math,
    a short title, a one-sentence abstract, at most 3 authors.
    """
    rng = random.Random(seed)
    for i in range(n):
        published = datetime(2007, 4, 1) + timedelta(seconds=rng.randrange(18 * 365 * 86400))
        version = rng.choice((1, 1, 1, 2, 2, 3, 4))
        updated = published + timedelta(seconds=rng.randrange(400 * 86400)) if version > 1 else published
        if rng.random() < 0.1:
            arxiv_id = (
                f"{rng.choice(('hep-th', 'math', 'cond-mat', 'astro-ph'))}/{published:%y%m}{i % 1000:03d}"
            )
        else:
            arxiv_id = f"{published:%y%m}.{i % 100000:05d}"
        count = min(3 if lean else 30, max(1, round(rng.lognormvariate(1.3, 0.75))))
        title_tex, title = _phrase(rng, rng.randint(4, 8) if lean else rng.randint(5, 14), not lean)
        title_tex, title = title_tex[:1].upper() + title_tex[1:], title[:1].upper() + title[1:]
        sentences = [
            _phrase(rng, rng.randint(12, 26), not lean) for _ in range(1 if lean else rng.randint(5, 8))
        ]
        abstract_tex = " ".join(t[:1].upper() + t[1:] + "." for t, _ in sentences)
        abstract = " ".join(u[:1].upper() + u[1:] + "." for _, u in sentences)
        journal = None
        if rng.random() < 0.5:
            first = rng.randint(1, 9000)
            journal = (
                rng.choice(JOURNALS),
                rng.randint(1, 120),
                f"{first}--{first + rng.randint(3, 30)}",
                min(published.year + 1, 2026),
            )
        yield Work(
            arxiv_id=arxiv_id,
            version=version,
            published=published,
            updated=updated,
            title_tex=title_tex,
            title=title,
            abstract_tex=abstract_tex,
            abstract=abstract,
            authors=[_author(rng) for _ in range(count)],
            categories=rng.sample(CATEGORIES, rng.choice((1, 1, 2, 3))),
            doi=f"10.{rng.randint(1000, 9999)}/{arxiv_id.replace('/', '.')}.{i}"
            if journal or rng.random() < 0.1
            else None,
            journal=journal,
            comment=f"{rng.randint(4, 60)} pages, {rng.randint(0, 12)} figures"
            if rng.random() < 0.6
            else None,
        )


def _wrap(text: str, width: int = 78) -> str:
    """Hard-wrap as arXiv does its titles and abstracts."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def _atom(w: Work) -> str:
    a = 'xmlns:arxiv="http://arxiv.org/schemas/atom"'
    vid = f"{w.arxiv_id}v{w.version}"
    out = [
        f"  <entry>\n    <id>http://arxiv.org/abs/{vid}</id>\n"
        f"    <updated>{w.updated:%Y-%m-%dT%H:%M:%SZ}</updated>\n"
        f"    <published>{w.published:%Y-%m-%dT%H:%M:%SZ}</published>\n"
        f"    <title>{escape(_wrap(w.title).replace(chr(10), chr(10) + '  '))}</title>\n"
        f"    <summary>  {escape(_wrap(w.abstract))}\n</summary>\n"
    ]
    out += [f"    <author>\n      <name>{escape(p.natural())}</name>\n    </author>\n" for p in w.authors]
    if w.doi:
        out.append(f"    <arxiv:doi {a}>{w.doi}</arxiv:doi>\n")
        out.append(f'    <link title="doi" href="http://dx.doi.org/{w.doi}" rel="related"/>\n')
    if w.comment:
        out.append(f"    <arxiv:comment {a}>{w.comment}</arxiv:comment>\n")
    if w.journal:
        name, volume, pages, year = w.journal
        out.append(
            f"    <arxiv:journal_ref {a}>{escape(name)} {volume}, {pages} ({year})</arxiv:journal_ref>\n"
        )
    out.append(
        f'    <link href="http://arxiv.org/abs/{vid}" rel="alternate" type="text/html"/>\n'
        f'    <link title="pdf" href="http://arxiv.org/pdf/{vid}" rel="related" type="application/pdf"/>\n'
        f'    <arxiv:primary_category {a} term="{w.categories[0]}" scheme="http://arxiv.org/schemas/atom"/>\n'
    )
    out += [f'    <category term="{c}" scheme="http://arxiv.org/schemas/atom"/>\n' for c in w.categories]
    return "".join(out) + "  </entry>\n"


def _bibtex_name(p: Author, i: int) -> str:
    if p.family in dict(CJK) or (p.given, p.family) in CJK:
        return f"{p.family}, {p.given}"
    family = tex(f"{p.particle} {p.family}".strip())
    if p.suffix:
        return f"{family}, {p.suffix}, {tex(p.given)}"
    return f"{family}, {tex(p.given)}" if i % 2 == 0 or p.particle else f"{tex(p.given)} {family}"


def _bibtex(w: Work, key: str) -> str:
    names = " and ".join(_bibtex_name(p, i) for i, p in enumerate(w.authors))
    fields = [("author", names), ("title", w.title_tex)]
    kind = "misc"
    if w.journal:
        kind = "article"
        name, volume, pages, year = w.journal
        fields += [
            ("journal", name.replace("&", "\\&")),
            ("volume", str(volume)),
            ("pages", pages),
            ("year", str(year)),
        ]
    else:
        fields += [("year", str(w.published.year)), ("month", w.published.strftime("%b").lower())]
    if w.doi:
        fields.append(("doi", w.doi))
    fields += [("eprint", w.arxiv_id), ("archivePrefix", "arXiv"), ("primaryClass", w.categories[0])]
    if w.comment:
        fields.append(("note", w.comment))
    fields.append(("abstract", w.abstract_tex))
    body = ",\n".join(f"  {k} = {v}" if k == "month" else f"  {k} = {{{v}}}" for k, v in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n\n"


def _ris(w: Work) -> str:
    out = ["TY  - JOUR" if w.journal else "TY  - UNPB", f"TI  - {w.title}"]
    out += [
        f"AU  - {' '.join(x for x in (p.particle, p.family) if x)}, {p.given}"
        + (f", {p.suffix}" if p.suffix else "")
        for p in w.authors
    ]
    if w.journal:
        name, volume, pages, year = w.journal
        first, _, last = pages.partition("--")
        out += [f"T2  - {name}", f"VL  - {volume}", f"SP  - {first}", f"EP  - {last}", f"PY  - {year}"]
    else:
        out += [f"PY  - {w.published.year}", f"DA  - {w.published:%Y/%m/%d}/"]
    if w.doi:
        out.append(f"DO  - {w.doi}")
    out += [
        f"UR  - https://arxiv.org/abs/{w.arxiv_id}",
        f"AB  - {w.abstract}",
        f"N1  - arXiv:{w.arxiv_id} [{w.categories[0]}]",
    ]
    if w.comment:
        out.append(f"N1  - {w.comment}")
    return "\r\n".join([*out, "ER  - ", "", ""])


def _csl(w: Work, key: str) -> dict[str, object]:
    item: dict[str, object] = {
        "id": key,
        "type": "article-journal" if w.journal else "article",
        "title": w.title,
    }
    item["author"] = [
        {
            k: v
            for k, v in (
                ("family", p.family),
                ("given", p.given),
                ("non-dropping-particle", p.particle),
                ("suffix", p.suffix),
            )
            if v
        }
        for p in w.authors
    ]
    if w.journal:
        name, volume, pages, year = w.journal
        item.update({"container-title": name, "volume": str(volume), "page": pages.replace("--", "-")})
        item["issued"] = {"date-parts": [[year]]}
    else:
        item.update({"publisher": "arXiv", "number": f"arXiv:{w.arxiv_id}"})
        item["issued"] = {"date-parts": [[w.published.year, w.published.month, w.published.day]]}
    if w.doi:
        item["DOI"] = w.doi
    item["URL"] = f"https://arxiv.org/abs/{w.arxiv_id}"
    item["abstract"] = w.abstract
    if w.comment:
        item["note"] = w.comment
    return item


def _snapshot(w: Work) -> str:
    step = (w.updated - w.published) / max(w.version - 1, 1)
    created = [w.published + step * k for k in range(w.version)]
    journal = f"{w.journal[0]} {w.journal[1]}, {w.journal[2]} ({w.journal[3]})" if w.journal else None
    versions = [
        {"version": f"v{k + 1}", "created": f"{d:%a}, {d.day} {d:%b %Y %H:%M:%S} GMT"}
        for k, d in enumerate(created)
    ]
    line = {
        "id": w.arxiv_id,
        "submitter": w.authors[0].natural(),
        "authors": ", ".join(tex(p.natural()) for p in w.authors),
        "title": _wrap(w.title_tex).replace("\n", "\n  "),
        "comments": w.comment,
        "journal-ref": journal,
        "doi": w.doi,
        "report-no": None,
        "categories": " ".join(w.categories),
        "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
        "abstract": "  " + _wrap(w.abstract_tex) + "\n",
        "versions": versions,
        "update_date": f"{w.updated:%Y-%m-%d}",
        "authors_parsed": [[f"{p.particle} {p.family}".strip(), p.given, p.suffix] for p in w.authors],
    }
    return json.dumps(line, separators=(",", ":")) + "\n"


def _key(w: Work, i: int) -> str:
    return f"{w.arxiv_id.replace('/', '_')}_{i}"


def write_corpus(
    n: int, directory: Path, seed: int = 1, formats: tuple[str, ...] = tuple(FORMATS), *, lean: bool = False
) -> dict[str, Path]:
    """Write the ``n``-paper corpus in ``formats`` under ``directory``; the path of each format."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {f: directory / f"corpus-{n}{FORMATS[f]}" for f in formats}
    with ExitStack() as stack:
        out: dict[str, TextIO] = {
            f: stack.enter_context(p.open("w", encoding="utf-8", newline="")) for f, p in paths.items()
        }
        if "atom" in out:
            out["atom"].write(
                '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
                f'  <title type="html">ArXiv Query: synthetic corpus of {n}</title>\n'
                "  <id>http://arxiv.org/api/synthetic</id>\n  <updated>2026-01-01T00:00:00-05:00</updated>\n"
            )
        if "csljson" in out:
            out["csljson"].write("[")
        for i, w in enumerate(works(n, seed, lean=lean)):
            if "atom" in out:
                out["atom"].write(_atom(w))
            if "bibtex" in out:
                out["bibtex"].write(_bibtex(w, _key(w, i)))
            if "ris" in out:
                out["ris"].write(_ris(w))
            if "csljson" in out:
                body = json.dumps(_csl(w, _key(w, i)), ensure_ascii=False, indent=2).replace("\n", "\n  ")
                out["csljson"].write(("\n  " if i == 0 else ",\n  ") + body)
            if "arxiv-jsonl" in out:
                out["arxiv-jsonl"].write(_snapshot(w))
        if "atom" in out:
            out["atom"].write("</feed>\n")
        if "csljson" in out:
            out["csljson"].write("\n]\n")
    return paths


def parse_size(text: str) -> int:
    """``"10k"`` → 10000, ``"2m"`` → 2000000, ``"500"`` → 500."""
    text = text.strip().lower()
    factor = {"k": 1000, "m": 1000000}.get(text[-1:], 1)
    return int(float(text[:-1] if factor > 1 else text) * factor)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1k,10k", help="comma-separated record counts (1k, 10k, 100k)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "data")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for size in args.sizes.split(","):
        for name, path in write_corpus(parse_size(size), args.out, args.seed).items():
            print(f"{name:12} {path} {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
