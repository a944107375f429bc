"""Chinese, Japanese and Korean names written without a space come out split in every reader."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import bibconv
from bibconv.model import Name
from bibconv.names_cjk import split_unspaced
from tests.tools import require_shared

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from generate import CJK, write_corpus


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("李小明", ("李", "小明")),
        ("王娜", ("王", "娜")),
        ("張偉", ("張", "偉")),
        ("欧阳修", ("欧阳", "修")),
        ("諸葛亮", ("諸葛", "亮")),
        ("司马相如", ("司马", "相如")),
        ("김민준", ("김", "민준")),
        ("박지성", ("박", "지성")),
        ("남궁민수", ("남궁", "민수")),
        ("황보관", ("황보", "관")),
        ("山田太郎", ("山田", "太郎")),
        ("田中修", ("田中", "修")),
        ("佐々木希", ("佐々木", "希")),
        ("安倍晋三", ("安倍", "晋三")),
        ("菅義偉", ("菅", "義偉")),
    ],
)
def test_split(text: str, parts: tuple[str, str]) -> None:
    assert split_unspaced(text) == parts


@pytest.mark.parametrize(
    "text",
    ["北京大学", "西北农林科技大学", "中国科学院", "서울대학교", "株式会社日立製作所", "田中", "Smith", "张"],
)
def test_organisations_surnames_alone_and_other_scripts_are_not_split(text: str) -> None:
    assert split_unspaced(text) is None


def test_bibtex_splits_unspaced_names_only() -> None:
    bib = "@misc{a, author = {魏笑 and 李, 小明 and {北京大学} and 山田太郎}, title = {T}, year = 2020}"
    (record,) = bibconv.read(io.StringIO(bib), "bibtex")
    assert record.names["author"] == (
        Name(family="魏", given="笑"),
        Name(family="李", given="小明"),
        Name(literal="北京大学"),
        Name(family="山田", given="太郎"),
    )


def test_ris_reads_an_unspaced_cjk_name_as_a_person() -> None:
    ris = "TY  - JOUR\r\nAU  - 김민준\r\nAU  - 中国科学院\r\nTI  - T\r\nER  - \r\n"
    (record,) = bibconv.read(io.StringIO(ris), "ris")
    assert record.names["author"] == (Name(family="김", given="민준"), Name(literal="中国科学院"))


def test_csljson_parts_given_by_the_source_are_kept() -> None:
    items = (
        '[{"id": "a", "type": "book", "title": "T", "author": [{"family": "李小明"}, {"literal": "王娜"}]}]'
    )
    (record,) = bibconv.read(io.StringIO(items), "csljson")
    assert record.names["author"] == (Name(family="李小明"), Name(literal="王娜"))


def test_listing_text_splits_names() -> None:
    text = "• Title of a paper on listings\n\n  李小明, 김민준 and 山田太郎 · 20 April 2021\n"
    records = bibconv.read(io.StringIO(text), "text")
    assert records[0].names["author"] == (
        Name(family="李", given="小明"),
        Name(family="김", given="민준"),
        Name(family="山田", given="太郎"),
    )


def test_real_biblatex_export_name() -> None:
    path = require_shared(
        "corpus", "bibtex", "bbt_export_Convert_Chinese_name_to_Pinyin_in_citation_key._2361.biblatex"
    )
    (record,) = bibconv.read(path, "biblatex")
    assert record.names["author"] == (Name(family="魏", given="笑"),)


@pytest.mark.parametrize("fmt", ["atom", "bibtex", "ris", "csljson", "arxiv-jsonl"])
def test_generated_corpus_names_come_out_split(tmp_path: Path, fmt: str) -> None:
    path = write_corpus(300, tmp_path, formats=(fmt,))[fmt]
    names = [n for r in bibconv.read(path, fmt) for n in r.names.get("author", ())]
    cjk = [n for n in names if any(n.family == family for family, _ in CJK) or (n.family, n.given) in CJK]
    assert cjk, "the generated corpus has CJK names"
    assert all((n.family, n.given) in CJK for n in cjk), [n for n in cjk if (n.family, n.given) not in CJK]
