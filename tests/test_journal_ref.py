"""arXiv journal references (as arXiv feeds carry them) read into venue, volume, issue, pages and year."""

from __future__ import annotations

import pytest

import bibconv
from bibconv.journal_ref import JournalRef, is_proceedings, parse
from tests.tools import require_shared

J = JournalRef


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Phys. Rev. B 74, 024520 (2006)", J("Phys. Rev. B", "74", None, "024520", 2006)),
        ("Phys. Rev. Lett. 106, 105303 (2011)", J("Phys. Rev. Lett.", "106", None, "105303", 2011)),
        ("Physical Review B 82, 060515(R) (2010)", J("Physical Review B", "82", None, "060515(R)", 2010)),
        ("Annals of Physics 324, 523 (2009).", J("Annals of Physics", "324", None, "523", 2009)),
        ("AI and Ethics, 5, 2719-2731 (2025)", J("AI and Ethics", "5", None, "2719-2731", 2025)),
        ("Int. J. Mod. Phys. B, 26, 1244002 (2012)", J("Int. J. Mod. Phys. B", "26", None, "1244002", 2012)),
        ("Astrophys.J.517:565-586,1999", J("Astrophys.J.", "517", None, "565-586", 1999)),
        ("Phys.Lett.B573:94-100,2003", J("Phys.Lett.B", "573", None, "94-100", 2003)),
        ("Lect.Notes Phys.562:195-212,2001", J("Lect.Notes Phys.", "562", None, "195-212", 2001)),
        (
            "J. Algebraic Combin. 6 (1997), no. 3, 253--257",
            J("J. Algebraic Combin.", "6", "3", "253-257", 1997),
        ),
        (
            "Mathematische Zeitschrift 280, 1185-1202, 2015",
            J("Mathematische Zeitschrift", "280", None, "1185-1202", 2015),
        ),
        (
            "Software Testing, Verification and Reliability, 35(2):e1914, 2025",
            J("Software Testing, Verification and Reliability", "35", "2", "e1914", 2025),
        ),
        (
            "Journal of Public Economics, 239 (2024)",
            J("Journal of Public Economics", "239", None, None, 2024),
        ),
        ("2026 Narrative Inquiry 23 (2)", J("Narrative Inquiry", "23", "2", None, 2026)),
        (
            "International Journal of Software Engineering & Applications (IJSEA), Vol.3, No.1, January 2012",
            J("International Journal of Software Engineering & Applications (IJSEA)", "3", "1", None, 2012),
        ),
        (
            "Proceedings of the International Laser Safety Conference, 2013, pp. 48-54",
            J("Proceedings of the International Laser Safety Conference", None, None, "48-54", 2013),
        ),
        (
            "Proc. 2023 IEEE International Conference on Software Testing (ICSTW), pp. 66-69",
            J(
                "Proc. 2023 IEEE International Conference on Software Testing (ICSTW)",
                None,
                None,
                "66-69",
                2023,
            ),
        ),
        (
            "In: Pattern Recognition. ICPR 2026. Lecture Notes in Computer Science. Springer, pp. 261-275",
            J(
                "Pattern Recognition. ICPR 2026. Lecture Notes in Computer Science. Springer",
                page="261-275",
                year=2026,
            ),
        ),
        ("AI Ethics (2022)", J("AI Ethics", None, None, None, 2022)),
        (
            "Journal of NeuroEngineering and Rehabilitation, 2017",
            J("Journal of NeuroEngineering and Rehabilitation", year=2017),
        ),
    ],
)
def test_forms_in_use(text: str, parts: JournalRef) -> None:
    assert parse(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        "IEEE Transactions on Information Theory ( Volume: 65 , Issue: 4 , April 2019 )",
        "Proceedings of the 19th International Conference on Artificial",
        "In Proc. ACM SIGSOFT Symposium on Software Testing (ISSTA 2020), pages 14-26. ACM, 2020",
        "",
    ],
)
def test_other_text_is_not_taken_apart(text: str) -> None:
    assert parse(text) is None


def test_proceedings_are_told_from_journals() -> None:
    assert is_proceedings("Proceedings of the International Laser Safety Conference")
    assert is_proceedings("2022 IEEE International Conference on Cloud Engineering (IC2E 2022)")
    assert not is_proceedings("Physical Review B")


def test_published_arxiv_paper_is_written_as_the_published_work_in_every_format() -> None:
    path = require_shared("corpus", "atom-api", "pubs2019_id_astro-ph_9812133.xml")
    (record,) = bibconv.read(path, "atom")
    assert record.type == "article-journal"
    assert record.fields["DOI"] == "10.1086/307221"
    bib = bibconv.write([record], "bibtex") or ""
    assert bib.startswith("@article{")
    for line in (
        "journal = {Astrophys.J.}",
        "volume = {517}",
        "year = {1999}",
        "eprint = {astro-ph/9812133}",
    ):
        assert line in bib
    biblatex = bibconv.write([record], "biblatex") or ""
    assert biblatex.startswith("@article{")
    assert "pubstate" not in biblatex
    ris = bibconv.write([record], "ris") or ""
    assert ris.startswith("TY  - JOUR")
    assert "T2  - Astrophys.J." in ris
    csl = bibconv.write([record], "csljson") or ""
    assert '"type": "article-journal"' in csl
    assert '"container-title": "Astrophys.J."' in csl


def test_a_reference_that_cannot_be_taken_apart_is_kept_whole_and_reported() -> None:
    feed = require_shared("corpus", "atom-api", "arxivpy2026_q_testing_100.xml")
    diagnostics: list[bibconv.Diagnostic] = []
    records = list(bibconv.iter_records(feed, "atom", strict=False, diagnostics=diagnostics))
    kept = [r for r in records if r.arxiv and r.arxiv.journal_ref and parse(r.arxiv.journal_ref) is None]
    for r in kept:
        assert r.fields["container-title"] == " ".join(r.arxiv.journal_ref.split())
    assert kept
    assert len([d for d in diagnostics if "not taken apart" in d.message]) == len(kept)
