"""``pandoc --citeproc`` renders the same bibliography from bibconv's BibTeX and from its CSL-JSON.

Real inputs (read from the shared folder) and the README's example are converted to BibTeX, biblatex
and CSL-JSON; pandoc renders each in its default style (Chicago author-date) and in IEEE (numeric,
``fixtures/styles/ieee.csl``). Each record's entry must show the same words (authors, title, container,
year, genre, language) and, in quotes, the same title with its case. What differs because of pandoc's own
BibTeX reader is taken out first, each rule with its reason (``PANDOC_OWN``); the entries that still differ
are listed, each with its reason (``PANDOC_ON_ENTRY``): the list is exact, an entry that no longer differs
must leave it.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from bibconv import api
from bibconv.formats.bibtex.table import safe_key
from tests.tools import require_shared, require_tool

ROOT = Path(__file__).resolve().parents[1]
IEEE = ROOT / "fixtures" / "styles" / "ieee.csl"
README_EXAMPLE = ROOT / "fixtures" / "text" / "read" / "numbered_en.txt"
# bibconv's own: theses and reports (genres), French and German titles (langid), a subtitle, a sorting hint.
OWN_EXAMPLE = ROOT / "fixtures" / "bibtex" / "read" / "bibconv_theses_languages.bib"

SHARED_INPUTS = [
    ("corpus", "bibtex", "bbt_import_Better_BibTeX.006.bib"),
    ("corpus", "bibtex", "pubs_crossref_doi_10.1086_307221.bib"),
    ("corpus", "bibtex", "bibtexparser_features.bib"),
    ("corpus", "atom-api", "pubs2019_id_astro-ph_9812133.xml"),
    ("corpus", "atom-api", "arxivpy2026_id_2104.12255v1.xml"),
    ("corpus", "ris", "jabref_RisImporterTest1.ris"),
    ("corpus", "bibtex", "xampl.bib"),
    ("corpus", "bibtex", "biblatex-examples.bib"),
]

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t|tember)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b\.?"
)

# What pandoc does differently when it reads BibTeX, each taken out of both renderings.
PANDOC_OWN: list[tuple[str, str, str]] = [
    # pandoc's BibTeX reader turns $…$ into math (shown as its text); CSL-JSON has no math, the
    # TeX source is the text.
    (r"\$|\\[()]", "", "math is typeset from BibTeX, kept as its TeX source in CSL-JSON"),
    # pandoc's BibTeX reader ignores `day` (biblatex has only `date`), so the day and the
    # month-day forms of a date differ; the year is compared.
    (rf"\b\d{{1,2}}-{_MONTH}-(\d{{4}})", r"\1", "`day` is not read from BibTeX"),
    # @online is a webpage for pandoc: Chicago repeats its full date after the title.
    (rf"(?<=[”.] ){_MONTH} \d{{1,2}}, \d{{4}}\. ", "", "@online is read as a webpage"),
    (rf"\b{_MONTH}( \d{{1,2}},)?( |(?=[.,]))", "", "`day` is not read from BibTeX"),
    # eprint and archivePrefix are not read as the publisher (CSL-JSON: publisher "arXiv").
    (r"\barXiv\b[.,]?", "", "`archivePrefix` is not read as the publisher"),
    # @online is a webpage for pandoc: IEEE prints "[Online]. Available: URL" for it only.
    (r"\[Online\]\. Available: ", "", "@online is read as a webpage"),
    (r"(?i)https?://\S+?(?=\.?(\s|$))", "", "@online is read as a webpage (URLs shown for it alone)"),
    # pandoc gives @techreport no genre (BibTeX's styles print "Technical Report" for it).
    (r"\b[Tt]echnical [Rr]eport\b\s*", "", "@techreport is read without its genre"),
]


def _normal(entry: str) -> str:
    for pattern, replacement, _reason in PANDOC_OWN:
        entry = re.sub(pattern, replacement, entry)
    return entry


def _words(entry: str) -> Counter[str]:
    return Counter(w.casefold() for w in re.findall(r"\w+", _normal(entry)))


def _titles(entry: str) -> list[str]:
    """The quoted titles of an entry, with their case (both styles quote article titles)."""
    return [t.rstrip(".,:;") for t in re.findall(r"“([^”]*)”", _normal(entry))]


def render(bibliography: str, ext: str, workdir: Path, style: Path | None) -> list[str]:
    """The entries ``pandoc --citeproc`` prints for every record of ``bibliography``."""
    source = workdir / f"refs{ext}"
    source.write_text(bibliography, encoding="utf-8")
    args = [require_tool("pandoc"), "--citeproc", f"--bibliography={source}", "-t", "plain", "--wrap=none"]
    if style is not None:
        args.append(f"--csl={style}")
    done = subprocess.run(args, input="---\nnocite: '@*'\n---\n", capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return [e.strip() for e in done.stdout.split("\n\n") if e.strip()]


def _inputs() -> list[tuple[str, ...]]:
    own = [("README", str(README_EXAMPLE)), ("own", str(OWN_EXAMPLE))]
    return own + [("shared", *parts) for parts in SHARED_INPUTS]


def _path(spec: tuple[str, ...]) -> Path:
    return Path(spec[1]) if spec[0] in ("README", "own") else require_shared(*spec[1:])


# What pandoc's BibTeX reader does to one input: the words it drops and whether it changes the
# case of a title, with the reason.
PANDOC_ON_INPUT: dict[str, tuple[frozenset[str], bool, str]] = {
    "jabref_RisImporterTest1.ris": (
        frozenset({"kmptnd"}),
        False,
        "a document's container (RIS T2 of TY OTHER) is `booktitle` of @misc, which pandoc does not "
        "read (nor do BibTeX's styles print it)",
    ),
    "bbt_import_Better_BibTeX.006.bib": (
        frozenset(),
        True,
        r"pandoc protects the special character {\~n} from case changes (BibTeX changes its case)",
    ),
}
# pandoc's BibTeX reader stores English titles in sentence case (CSL's convention for input data);
# IEEE prints titles as stored, so their case differs from CSL-JSON's as written.
SENTENCE_CASED_STYLES = {"ieee"}


@dataclass(frozen=True)
class Known:
    """An entry pandoc renders otherwise from bibconv's BibTeX than from its CSL-JSON, and why."""

    reason: str
    styles: frozenset[str] = frozenset({"default", "ieee"})
    dialects: frozenset[str] = frozenset({"bibtex", "biblatex"})

    def applies(self, style: str, dialect: str) -> bool:
        return style in self.styles and dialect in self.dialects


_D, _I = frozenset({"default"}), frozenset({"ieee"})
_BIBTEX, _BIBLATEX = frozenset({"bibtex"}), frozenset({"biblatex"})
# pandoc's own readings of BibTeX.
MBOX = r"pandoc drops the text of \mbox{G-Animal's} (BibTeX prints it)"
CROSSREF_CASE = (
    "pandoc looks a crossref up with its case (BibTeX's keys ignore case: WHOLE-JOURNAL is whole-journal)"
)
PREAMBLE = r"pandoc does not run the commands of @preamble (\noopsort, \switchargs): the year is shown as TeX"
NAME_BRACE = r"pandoc reads {\'{E}}douard as a particle (a brace first); BibTeX reads É as a capital"
MANUAL = "pandoc reads @manual as a book (no quotes, edition printed); bibconv's CSL type is report"
BIBLATEX_LIST = (
    "pandoc joins the items of a list field (location, publisher) with '; '; bibconv keeps the field's text "
    "(Durham and London)"
)
CLASSIC_LIST = (
    "pandoc reads classic BibTeX's publisher as biblatex's list, split at 'and'; classic BibTeX prints it as "
    "text (bibconv writes no braces around its 'and')"
)
MAINTITLE = (
    "pandoc prints a volume of a multi-volume work under its maintitle (and its booktitle as the "
    "volume-title, which the style does not print); bibconv's CSL-JSON has the volume's own title"
)
PART = "pandoc joins volume and part (7.2); the part is CSL's part, which the style does not print"
TIED = "pandoc's BibTeX reader joins words tied by ~ (5.2~nm): the style's title case leaves the unit alone"
PERIODICAL = (
    "pandoc reads @periodical as an article of the issue (issuetitle as title, volume and number printed); "
    "bibconv's CSL type is periodical, for which the style prints the title and year"
)
CLASSIC_TYPE = (
    "classic BibTeX has no @patent, no @online: bibconv writes @misc (with the number, the URL as fields), "
    "which pandoc reads as a document, without number, issue date or URL (and with the location, which the "
    "style does not print for a patent)"
)
CLASSIC_QUOTES = (
    "classic BibTeX's quotation marks (``…'') are characters for pandoc: it neither alternates the inner "
    "quotes nor keeps the case of the words quoted"
)
GOOGLE_BOOKS = "pandoc makes a URL of eprinttype googlebooks; bibconv keeps the eprint"
# An entry's organization is its publisher only where it has none, as Zotero and citation-js read it
# (the peer suite); BibTeX's styles print both (the organization as the sponsor).
ORGANIZATION = (
    "pandoc joins organization and publisher as the publisher; bibconv's publisher is the publisher "
    "(the organization, kept in custom, is the publisher only of an entry without one)"
)
BOOKTITLE = (
    "bibconv reads a whole book's booktitle as its container, as Zotero and Better BibTeX do (peer suite); "
    "pandoc ignores it, and Chicago prints it after the title"
)

PANDOC_ON_ENTRY: dict[str, dict[str, Known]] = {
    "xampl.bib": {
        "whole-journal": Known(MBOX),
        "article-minimal": Known(MBOX),
        "article-full": Known(MBOX),
        "article-crossref": Known(CROSSREF_CASE),
        "whole-set": Known(PREAMBLE),
        "whole-collection": Known(BOOKTITLE, styles=_D),
        "manual-minimal": Known(MANUAL),
        "manual-full": Known(MANUAL),
        "inproceedings-full": Known(ORGANIZATION, styles=_D),
        "proceedings-full": Known(ORGANIZATION),
        "whole-proceedings": Known(BOOKTITLE, styles=_D),
        "mastersthesis-minimal": Known(NAME_BRACE, styles=_I),
        "mastersthesis-full": Known(NAME_BRACE, styles=_I),
    },
    "biblatex-examples.bib": {
        **{
            key: Known(BIBLATEX_LIST)
            for key in [
                "gaonkar",
                "gaonkar:in",
                "gerhardt",
                "hammond",
                "iliad",
                "nietzsche:ksa",
                "piccato",
                "westfahl:frontier",
                "westfahl:space",
            ]
        },
        **{
            key: Known(MAINTITLE)
            for key in [
                "kant:kpv",
                "kant:ku",
                "knuth:ct:a",
                "knuth:ct:b",
                "knuth:ct:c",
                "knuth:ct:d",
                "knuth:ct:e",
                "nietzsche:ksa1",
                "nietzsche:historie",
            ]
        },
        "coleridge": Known(MAINTITLE + "; " + PART),
        "cms": Known(MANUAL),
        "murray": Known(TIED, styles=_D, dialects=_BIBLATEX),
        "jcg": Known(PERIODICAL, dialects=_BIBLATEX),
        "malinowski": Known(CLASSIC_LIST, dialects=_BIBTEX),
        "wilde": Known(CLASSIC_LIST + "; " + GOOGLE_BOOKS, dialects=_BIBTEX),
        **{
            key: Known(CLASSIC_TYPE, dialects=_BIBTEX)
            for key in ["almendro", "kowalik", "laufenberg", "sorace", "ctan"]
        },
        "markey": Known(CLASSIC_TYPE, styles=_I, dialects=_BIBTEX),
        "spiegelberg": Known(CLASSIC_QUOTES, dialects=_BIBTEX),
        "nussbaum": Known(CLASSIC_QUOTES, styles=_D, dialects=_BIBTEX),
    },
}


def _default_style(workdir: Path) -> Path:
    """pandoc's default style (Chicago author-date) without the dash for a repeated author.

    Which entry repeats the author of the one before follows the order of the entries, which follows
    what pandoc read (a month it did not read sorts an entry elsewhere): compared entry by entry, each
    names its authors.
    """
    done = subprocess.run(
        [require_tool("pandoc"), "--print-default-data-file=default.csl"],
        capture_output=True,
        text=True,
        check=True,
    )
    path = workdir / "default.csl"
    path.write_text(re.sub(r' subsequent-author-substitute="[^"]*"', "", done.stdout), encoding="utf-8")
    return path


def render_by_key(bibliography: str, ext: str, workdir: Path, style: Path | None) -> dict[str, str]:
    """Citation key -> the entry ``pandoc --citeproc`` prints for it (its HTML output as text, math as
    TeX); the letters citeproc adds to a year (1986a, 1986b), which follow the entries' order, are taken
    out."""
    source = workdir / f"refs{ext}"
    source.write_text(bibliography, encoding="utf-8")
    args = [require_tool("pandoc"), "--citeproc", f"--bibliography={source}", "-t", "html", "--mathjax"]
    args += ["--wrap=none", f"--csl={style or _default_style(workdir)}"]
    done = subprocess.run(args, input="---\nnocite: '@*'\n---\n", capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    entries: dict[str, str] = {}
    for part in done.stdout.split('<div id="ref-')[1:]:
        key, body = part.split('"', 1)
        text = re.sub(r"<[^>]+>", "", re.sub(r"</?div[^>]*>", " ", body.split(">", 1)[1]))
        text = " ".join(html.unescape(text).split())
        entries[html.unescape(key)] = re.sub(r"(\d{4}|n\.d\.)[a-z](?=\W|$)", r"\1", text)
    return entries


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
@pytest.mark.parametrize("style", ["default", "ieee"])
@pytest.mark.parametrize("spec", _inputs(), ids=lambda s: Path(s[-1]).name)
def test_pandoc_renders_the_same_from_bibtex_and_csljson(
    spec: tuple[str, ...], style: str, dialect: str, tmp_path: Path
) -> None:
    path = _path(spec)
    records = api.read(str(path), strict=False)
    csl = None if style == "default" else IEEE
    ours = render_by_key(str(api.write(records, "csljson")), ".json", tmp_path, csl)
    ours = {safe_key(key): entry for key, entry in ours.items()}  # the key as BibTeX holds it
    ext = ".bib" if dialect == "bibtex" else ".biblatex"
    theirs = render_by_key(str(api.write(records, dialect)), ext, tmp_path, csl)
    assert ours
    assert theirs.keys() == ours.keys()
    dropped, recased, _reason = PANDOC_ON_INPUT.get(path.name, (frozenset(), False, ""))
    fold = recased or style in SENTENCE_CASED_STYLES
    differences = {
        key: (b, ours[key])
        for key, b in theirs.items()
        if _kept(_words(b), dropped) != _kept(_words(ours[key]), dropped)
        or _cased(_titles(b), fold) != _cased(_titles(ours[key]), fold)
    }
    listed = {
        key for key, known in PANDOC_ON_ENTRY.get(path.name, {}).items() if known.applies(style, dialect)
    }
    assert {key: differences.get(key) for key in differences.keys() ^ listed} == {}


def _kept(words: Counter[str], dropped: frozenset[str]) -> Counter[str]:
    return Counter({w: n for w, n in words.items() if w not in dropped})


def _cased(titles: list[str], fold: bool) -> list[str]:
    return [t.casefold() for t in titles] if fold else titles


def test_math_in_a_title_keeps_its_case_in_every_style(tmp_path: Path) -> None:
    source = "@article{m, author = {Knuth, Donald}, title = {Sorting in $O(n \\log n)$ time}, year = 1998}"
    records = api.read(source.encode(), "bibtex")
    written = str(api.write(records, "csljson"))
    assert '"Sorting in <span class=\\"nocase\\">$O(n \\\\log n)$</span> time"' in written
    assert api.read(written.encode(), "csljson")[0].fields["title"] == "Sorting in $O(n \\log n)$ time"
    (entry,) = render(written, ".json", tmp_path, None)  # Chicago title-cases the rest
    assert "“Sorting in $O(n \\log n)$ Time.”" in entry


# How pandoc's BibTeX reader gives a genre or a language other than as bibconv's CSL-JSON holds them.
PANDOC_GENRE_LANGUAGE: dict[str, str] = {
    "apostrophe": "pandoc writes the apostrophe of its own terms typographically (Master’s thesis)",
    "case": "pandoc's localised terms are lowercase (biblatex's type = {techreport}: technical report)",
    "region": "pandoc gives a babel name its country (french: fr-FR); the languages are compared",
    "techreport": "pandoc gives @techreport no genre",
}


def _pandoc_items(bibliography: str, dialect: str) -> dict[str, dict[str, str]]:
    args = [require_tool("pandoc"), "-f", dialect, "-t", "csljson"]
    done = subprocess.run(args, input=bibliography, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return {item["id"]: item for item in json.loads(done.stdout)}


def _genre_language(item: dict[str, str]) -> tuple[str, str]:
    """Genre and language with pandoc's own differences (:data:`PANDOC_GENRE_LANGUAGE`) taken out."""
    genre = (item.get("genre") or "").replace("’", "'").casefold()
    return ("" if genre == "technical report" else genre), (item.get("language") or "").split("-")[0]


GENRE_LANGUAGE_INPUTS = [("own", str(OWN_EXAMPLE)), ("shared", "corpus", "bibtex", "biblatex-examples.bib")]


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
@pytest.mark.parametrize("spec", GENRE_LANGUAGE_INPUTS, ids=lambda s: s[-1])
def test_pandoc_reads_genre_and_language_from_our_bibtex_as_our_csljson_holds_them(
    spec: tuple[str, ...], dialect: str
) -> None:
    records = api.read(str(_path(spec)), strict=False)
    ours = {item["id"]: item for item in json.loads(str(api.write(records, "csljson")))}
    theirs = _pandoc_items(str(api.write(records, dialect)), dialect)
    assert theirs.keys() == ours.keys()
    differences = {
        key: (_genre_language(item), _genre_language(ours[key]))
        for key, item in theirs.items()
        if _genre_language(item) != _genre_language(ours[key])
    }
    assert differences == {}
    assert sum(1 for item in ours.values() if item.get("genre")) >= 4
    assert sum(1 for item in ours.values() if item.get("language")) >= 2


def test_french_and_german_titles_keep_their_case_in_chicago(tmp_path: Path) -> None:
    records = api.read(str(OWN_EXAMPLE))
    for text, ext in (
        (str(api.write(records, "csljson")), ".json"),
        (str(api.write(records, "biblatex")), ".bib"),
    ):
        entries = render(text, ext, tmp_path, None)
        assert any("La théorie des ensembles: Une introduction pour les étudiants." in e for e in entries)
        assert any("“Über die Entstehung der Sprachen im alten Europa.”" in e for e in entries)
        assert any("“Learning to Rank Documents with Sparse Features.” PhD thesis" in e for e in entries)
        assert any("Addison-Wesley" in e and "1973" in e and "noopsort" not in e for e in entries)
