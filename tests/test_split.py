"""Where ``--jobs`` cuts BibTeX and RIS input (Atom: tests/formats/atom/test_recovery.py), and when a
BibTeX file must stay whole: the quick searches (from the end, in blocks) find what a search of the
whole buffer finds."""

from __future__ import annotations

import io
import random
import re

import pytest

from bibconv.formats.bibtex import split as bibtex_split
from bibconv.formats.ris import split as ris_split
from bibconv.parallel import pieces as _pieces
from tests.golden import samples

SAMPLES = [p for sub in ("atom", "bibtex", "ris") for p in samples(sub, ".bib", ".ris", ".xml", ".atom")]
_GLOBAL = re.compile(rb"@[ \t]*(?:string|preamble)[ \t]*[{(]|\b(?:crossref|xdata)[ \t]*=", re.I)


def _bibtex_cut_everywhere(buffer: bytes) -> int:
    """Every block start in the buffer, the last that may be cut at."""
    blocks = [(m.start(), m[1].lower()) for m in bibtex_split._BIBTEX_BLOCK.finditer(buffer)]
    for i in range(len(blocks) - 1, 0, -1):
        at, kind = blocks[i]
        if kind in bibtex_split._BIBTEX_SPECIAL or blocks[i - 1][1] in bibtex_split._BIBTEX_SPECIAL:
            continue
        if buffer.count(b"{", 0, at) == buffer.count(b"}", 0, at):
            return at
    return 0


def _ris_cut_everywhere(buffer: bytes) -> int:
    ends = [m.end() for m in ris_split._RIS_END.finditer(buffer)]
    return ends[-1] if ends else 0


def _buffers() -> list[bytes]:
    rng = random.Random(7)
    parts = [b"@article{k,", b"@string{", b"@comment{", b"\n", b"\r\n", b"{", b"}", b"ER  - ", b"TY  - "]
    parts += [b"1.", b" ", b"x", b"crossref = ", b"XData\t=", b"CrossRef", b"\n  @misc{", b"ER"]
    made = [b"".join(rng.choice(parts) for _ in range(rng.randint(0, 200))) for _ in range(1500)]
    return [p.read_bytes() for p in SAMPLES] + made


@pytest.mark.shared
def test_cuts_are_the_last_possible_ones() -> None:
    for buffer in _buffers():
        for end in sorted({len(buffer), len(buffer) // 2, len(buffer) // 3}):
            assert bibtex_split._bibtex_cut(buffer[:end]) == _bibtex_cut_everywhere(buffer[:end])
            assert ris_split._ris_cut(buffer[:end]) == _ris_cut_everywhere(buffer[:end])


@pytest.mark.parametrize("back", [1_000, 70_000, 150_000])
def test_bibtex_cut_looks_further_back_when_the_end_has_no_cut(back: int) -> None:
    entry = b"@article{k%d,\n  title = {A {B} c},\n  year = 2020\n}\n\n"
    text = b"".join(entry % i for i in range(4_500))
    for inserted in (b"{", b"@comment{x}\n"):
        buffer = text[:-back] + inserted + text[-back:]
        assert bibtex_split._bibtex_cut(buffer) == _bibtex_cut_everywhere(buffer)


def _whole_file_everywhere(buffer: bytes) -> bool:
    return _GLOBAL.search(buffer) is not None


@pytest.mark.shared
def test_whole_file_words_are_found_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bibtex_split, "_BLOCK", 7)  # blocks of a line or so
    buffers = [*_buffers(), b"@article{a,\n}\n@misc{b,\n}\n@book{A,\n}\n", b"@article{a,}\n@misc{b,}"]
    for buffer in buffers:
        assert bibtex_split._bibtex_whole_file(io.BytesIO(buffer)) == _whole_file_everywhere(buffer)


def test_input_that_cannot_be_cut_is_tried_less_and_less_often() -> None:
    entry = b"@article{k%d,\n  title = {A {B} c},\n  year = 2020\n}\n\n"
    text = b"@misc{open, title = {never closed\n" + b"".join(entry % i for i in range(40_000))
    calls: list[int] = []

    def counted(buffer: bytes) -> int:
        calls.append(len(buffer))
        return bibtex_split._bibtex_cut(buffer)

    pieces = list(_pieces.pieces(io.BytesIO(text), 1 << 14, counted))
    assert b"".join(p.data for p in pieces) == text
    assert len(pieces) == 1
    assert len(calls) < 12  # the buffer doubles between tries: log2(2 MB / 16 KB) + 1
