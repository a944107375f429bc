"""The Atom reader's shortcuts: plain ids read at once as the general reading reads them, entry
start tags found by one pattern."""

from __future__ import annotations

import itertools
import re

from hypothesis import given
from hypothesis import strategies as st

from bibconv.formats.atom.entry import RawEntry, arxiv_id_of, searched_id
from tests.golden import samples

_PIECES = (
    "",
    "2101",
    ".",
    "00000",
    "0001",
    "123456",
    "v",
    "0",
    "1",
    "12",
    "01",
    "V2",
    "١٢",
    " ",
    "\n",
    "https://arxiv.org/abs/",
    "http://arxiv.org/abs/",
    "HTTPS://ARXIV.ORG/abs/",
    "oai:arXiv.org:",
    "arXiv:",
    "hep-th/9901001",
    "/",
    "x",
)


def _same(text: str) -> None:
    raw = RawEntry(kind="atom", id=text)
    assert arxiv_id_of(raw) == searched_id(raw), text


def test_generated_ids() -> None:
    for parts in itertools.product(_PIECES, repeat=3):
        _same("".join(parts))


@given(st.text(alphabet="0123456789.vV:/ahtps١x", max_size=24))
def test_random_ids(text: str) -> None:
    _same(text)


def test_real_ids() -> None:
    seen = 0
    for path in samples("atom", ".xml", ".atom") + samples("rss", ".xml"):
        for found in re.findall(r"<id>([^<]*)</id>", path.read_text("utf-8", "replace")):
            _same(found)
            seen += 1
    assert seen > 50


def test_entry_start_whose_prefix_holds_the_name() -> None:
    from bibconv.formats.atom.frames import Frames

    data = b"<entry>a</entry><entryx:entry>b</entryx:entry><x:entry >c</x:entry><y:entry/>"
    assert Frames("entry", lambda prefix: prefix != "y").starts(data) == [0, 16, 46]
